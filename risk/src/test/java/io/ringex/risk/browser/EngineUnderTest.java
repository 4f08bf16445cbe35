package io.ringex.risk.browser;

import io.ringex.protocol.codecs.Side;

/**
 * What the browser IT needs from the engine: a venue the dashboard can watch on the service's media driver, and a
 * way to send orders as a gateway would and hear the engine's answer. {@link RealEngine} is the engine node itself.
 */
interface EngineUnderTest extends AutoCloseable
{
    /**
     * The engine's last word on an order, from its ExecutionReports on the egress stream.
     *
     * @param execType       the last ExecutionReport's exec type (FILL, CANCELED, REJECTED...), or NO_ANSWER.
     * @param rejectReason   its reject reason (NONE unless REJECTED).
     * @param filledQuantity the order's cumulative filled quantity.
     */
    record Verdict(String execType, String rejectReason, long filledQuantity)
    {
        static final Verdict NO_ANSWER = new Verdict("NO_ANSWER", "NONE", 0);
    }

    /** Launch the engine and install the venue (instruments, accounts, limits, deposits, resting liquidity). */
    void start();

    /**
     * Send a market IOC NewOrder (as a gateway would) for an account and wait for the engine's final answer.
     *
     * @param accountId    the account.
     * @param instrumentId the instrument.
     * @param side         BUY or SELL.
     * @param quantity     units.
     * @return the engine's verdict, {@link Verdict#NO_ANSWER} if none came in time.
     */
    Verdict submitOrder(long accountId, int instrumentId, Side side, long quantity);

    /**
     * Send a GTC limit NewOrder (as a gateway would) and wait for the engine's first answer.
     *
     * @param accountId    the account.
     * @param instrumentId the instrument.
     * @param side         BUY or SELL.
     * @param price        in ticks of the instrument's price scale.
     * @param quantity     units.
     * @return the engine's verdict (NEW when it rests).
     */
    Verdict restLimit(long accountId, int instrumentId, Side side, long price, long quantity);

    /**
     * Ask the engine for its user directory as a gateway would (a UserDirectoryRequest under a gateway id of the
     * test's own) and read the user's credential hash from the answer.
     *
     * @param username the user.
     * @return its credential hash as the engine holds it, empty if it has none, null if there is no such user.
     */
    String credentialOf(String username);

    @Override
    void close();
}
