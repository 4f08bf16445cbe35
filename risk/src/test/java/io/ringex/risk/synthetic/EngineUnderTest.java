package io.ringex.risk.synthetic;

import io.ringex.protocol.codecs.Side;

/**
 * What the browser IT needs from "the engine": something that publishes the engine's streams and takes orders.
 * {@link SyntheticEngine} is the stand-in used until the engine node is ready; to run the IT against the real engine,
 * implement this by starting the engine node on the same Aeron directory and channels (and an
 * {@link OrderEntryClient} on its ingress), and return it from {@code RiskDashboardBrowserIT#startEngine}.
 */
public interface EngineUnderTest extends AutoCloseable
{
    /** Start publishing. */
    void start();

    /**
     * Send a NewOrder (as a gateway would) for an account; the engine's verdict shows up on the risk stream.
     *
     * @param accountId    the account.
     * @param instrumentId the instrument.
     * @param side         BUY or SELL.
     * @param quantity     units.
     * @return true if the order was put on the ingress stream.
     */
    boolean submitOrder(long accountId, int instrumentId, Side side, long quantity);

    @Override
    void close();
}
