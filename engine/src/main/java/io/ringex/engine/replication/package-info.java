/**
 * Replication and failover between the two nodes of a pair: what a primary runs to replicate to its standby
 * ({@link io.ringex.engine.replication.ReplicationStage}, {@link io.ringex.engine.replication.CatchUpAgent},
 * {@link io.ringex.engine.replication.PeerMonitor}), what a standby runs to follow it
 * ({@link io.ringex.engine.replication.StandbyReceiver}, {@link io.ringex.engine.replication.AckStage},
 * {@link io.ringex.engine.replication.ReportWindow}), what both send each other
 * ({@link io.ringex.engine.replication.ReplicationHeartbeatAgent}), and how a standby takes over
 * ({@link io.ringex.engine.replication.Promotion}).
 * <p>
 * The package knows nothing of the node that wires it ({@code io.ringex.engine.node}): it acts on the node through
 * its role ({@link io.ringex.engine.replication.ActingRole}) and its client ingress
 * ({@link io.ringex.engine.replication.ClientIngress}), and reads its rings, journal and processor. Each public type
 * says on which thread it runs.
 */
package io.ringex.engine.replication;
