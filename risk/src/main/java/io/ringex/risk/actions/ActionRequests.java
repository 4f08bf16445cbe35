package io.ringex.risk.actions;

import java.util.List;

/**
 * The JSON bodies of the action endpoints. Money is decimal text (up to 8 places); it is parsed exactly, never
 * through floating point. Every action that changes the venue carries the officer's reason (1 to 64 printable ASCII
 * characters), which the admin log shows beside it.
 */
public final class ActionRequests
{
    private ActionRequests()
    {
    }

    /**
     * SetLimits: replaces the account's limits whole.
     *
     * @param accountId            the account.
     * @param maxOrderQuantity     units per order.
     * @param maxOrderNotional     money per order, decimal text.
     * @param creditLimit          how far cash may go below zero, decimal text.
     * @param defaultPositionLimit absolute position limit, open orders counted.
     * @param maxOpenOrders        open orders at once.
     * @param allowShort           sells beyond the position, within the limit.
     * @param positionLimits       per-instrument overrides, may be null: the whole set (the engine replaces every
     *                             limit, these included; an instrument left out has the default from then on).
     * @param reason               why.
     */
    public record SetLimits(
        long accountId,
        long maxOrderQuantity,
        String maxOrderNotional,
        String creditLimit,
        long defaultPositionLimit,
        int maxOpenOrders,
        boolean allowShort,
        List<PositionLimit> positionLimits,
        String reason)
    {
    }

    /**
     * A per-instrument position limit.
     *
     * @param instrumentId  the instrument.
     * @param positionLimit absolute units.
     */
    public record PositionLimit(int instrumentId, long positionLimit)
    {
    }

    /**
     * KillSwitch for an account or the venue.
     *
     * @param scope     ACCOUNT or VENUE.
     * @param accountId for ACCOUNT.
     * @param active    on (cancel open orders, refuse new ones) or off.
     * @param reason    why.
     */
    public record KillSwitch(String scope, long accountId, boolean active, String reason)
    {
    }

    /**
     * SetTradingStatus: halt, resume or close an instrument, or start a call phase, timed or not.
     *
     * @param instrumentId    the instrument.
     * @param status          OPEN, HALTED, CLOSED, PRE_OPEN, OPENING_AUCTION or CLOSING_AUCTION.
     * @param phaseDurationNs a call phase's length on the engine's clock, after which it uncrosses (into OPEN, or
     *                        CLOSED from CLOSING_AUCTION); null for none (the phase lasts until the next change).
     * @param reason          why.
     */
    public record TradingStatus(int instrumentId, String status, Long phaseDurationNs, String reason)
    {
    }

    /**
     * TakeSnapshot: changes nothing in the venue, so its reason may be left out (no body).
     *
     * @param reason why, or null.
     */
    public record TakeSnapshot(String reason)
    {
    }

    /**
     * UnlockLogons: lift the gateways' logon lockouts of a user name and/or a remote address (the gateways' own
     * lockouts, not the dashboard's).
     *
     * @param username the gateway user name, or empty.
     * @param address  the remote address, or empty.
     * @param reason   why, journaled with the operator's name.
     */
    public record UnlockLogons(String username, String address, String reason)
    {
    }
}
