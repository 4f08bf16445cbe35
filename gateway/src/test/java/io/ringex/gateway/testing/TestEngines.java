package io.ringex.gateway.testing;

/**
 * The one place integration tests get their engine from. Today it is the test-scope {@link EchoMatchingEngine};
 * when the real engine node can be embedded, add a branch here (selected by {@code -Dringex.test.engine=node}) that
 * starts it on the same streams, and every IT runs against it unchanged.
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
        final String kind = System.getProperty(ENGINE_PROP, "echo");
        if ("echo".equals(kind))
        {
            return EchoMatchingEngine.launch(streams);
        }
        throw new IllegalArgumentException(ENGINE_PROP + "=" + kind + ": no such engine yet (only 'echo')");
    }
}
