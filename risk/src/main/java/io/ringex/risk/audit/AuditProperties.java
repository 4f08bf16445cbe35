package io.ringex.risk.audit;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code ringex.risk.audit.*}: where the audit page reads the journal. The service opens the engine node's journal
 * (and snapshots) read-only: on the engine's host, or a copy a replica keeps (docs/operations.md, "Replay and audit").
 *
 * @param journalDir  the engine node's journal directory; empty: the audit page answers 503.
 * @param snapshotDir the node's snapshot directory (a replay starts from the nearest snapshot); empty: from the start.
 * @param timeout     the longest an audit may take before the page is told to narrow it.
 * @param maxCommands the most commands one answer lists.
 */
@ConfigurationProperties("ringex.risk.audit")
public record AuditProperties(
    @DefaultValue("") String journalDir,
    @DefaultValue("") String snapshotDir,
    @DefaultValue("60s") Duration timeout,
    @DefaultValue("2000") int maxCommands)
{
}
