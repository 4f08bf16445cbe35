package io.ringex.gateway.testing;

/**
 * The one place integration tests get their engine from: the real engine node ({@link RealEngineNode}) by default;
 * {@code -Dringex.test.engine=echo} selects the test-scope stand-in {@link EchoMatchingEngine}, which answers without
 * a journal, for isolating a gateway problem from an engine one.
 */
public final class TestEngines
{
    /** System property choosing the engine. */
    public static final String ENGINE_PROP = "ringex.test.engine";

    private TestEngines()
    {
    }

    /**
     * Start an engine.
     *
     * @param streams where it listens and publishes.
     * @return the running engine.
     */
    public static EngineUnderTest launch(final EngineStreams streams)
    {
        final String kind = System.getProperty(ENGINE_PROP, "node");
        if ("node".equals(kind))
        {
            return RealEngineNode.launch(streams);
        }
        if ("echo".equals(kind))
        {
            return EchoMatchingEngine.launch(streams);
        }
        throw new IllegalArgumentException(ENGINE_PROP + "=" + kind + ": no such engine (node or echo)");
    }
}
