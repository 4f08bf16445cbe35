package io.ringex.gateway.testing;

import java.util.List;

/**
 * The engine an integration test runs the gateway against, behind an interface so the stand-in
 * ({@link EchoMatchingEngine}) can be swapped for the real engine node without touching the tests: see
 * {@link TestEngines#launch}.
 * <p>
 * An engine subscribes to the ingress stream and publishes ExecutionReport/CancelReject/BusinessReject on the egress
 * stream and InstrumentDefinition on the market-data stream.
 */
public interface EngineUnderTest extends AutoCloseable
{
    /**
     * Commands the engine received, one line each (e.g. {@code "SessionStatus session=4294967297 loggedOn=TRUE"},
     * {@code "MassCancel session=... scope=SESSION cod=TRUE"}), for tests to wait on. An engine that cannot report
     * them returns an empty list and the tests that need it are skipped.
     *
     * @return a snapshot of the command log.
     */
    List<String> commandLog();

    /**
     * {@inheritDoc}
     */
    void close();
}
