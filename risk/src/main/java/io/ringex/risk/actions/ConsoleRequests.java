package io.ringex.risk.actions;

import java.util.List;

/**
 * The JSON bodies of the operator console's endpoints ({@code POST /api/admin/**}, ADMIN). Every field is required
 * (the JSON is read strictly). Prices are decimal text at the instrument's price scale and money decimal text at 8
 * places, parsed exactly. Every body carries the operator's reason: 1 to 64 printable ASCII characters; the operator
 * is the logged-in ADMIN.
 */
public final class ConsoleRequests
{
    private ConsoleRequests()
    {
    }

    /**
     * AddInstrument.
     *
     * @param instrumentId   a new id, positive.
     * @param symbol         1 to 16 printable ASCII characters, no spaces.
     * @param priceScale     decimal places of its prices, 0 to 8.
     * @param tickSize       price text, positive.
     * @param lotSize        units, positive.
     * @param referencePrice price text, positive, a multiple of the tick: the centre of the price band.
     * @param priceBandType  BASIS_POINTS or TICKS.
     * @param priceBand      the band either side of the reference, in its unit, positive.
     * @param reason         why.
     */
    public record AddInstrument(
        int instrumentId,
        String symbol,
        int priceScale,
        String tickSize,
        long lotSize,
        String referencePrice,
        String priceBandType,
        long priceBand,
        String reason)
    {
    }

    /**
     * AmendInstrument: its static data whole (the price scale stays). Tick, lot, reference and band change only while
     * its book is empty (the engine answers INSTRUMENT_HAS_ORDERS otherwise).
     *
     * @param instrumentId   the instrument, known to the service (its scale reads the prices).
     * @param symbol         1 to 16 printable ASCII characters, no spaces.
     * @param tickSize       price text.
     * @param lotSize        units.
     * @param referencePrice price text.
     * @param priceBandType  BASIS_POINTS or TICKS.
     * @param priceBand      in its unit.
     * @param reason         why.
     */
    public record AmendInstrument(
        int instrumentId,
        String symbol,
        String tickSize,
        long lotSize,
        String referencePrice,
        String priceBandType,
        long priceBand,
        String reason)
    {
    }

    /**
     * DelistInstrument: its orders are cancelled and it trades no more; its history stays.
     *
     * @param instrumentId the instrument.
     * @param reason       why.
     */
    public record DelistInstrument(int instrumentId, String reason)
    {
    }

    /**
     * AddAccount: a new account, ACTIVE, with no limits and no money (set both next).
     *
     * @param accountId           a new id, positive.
     * @param selfTradePrevention its orders' default: CANCEL_NEWEST, CANCEL_OLDEST, CANCEL_BOTH,
     *                            DECREMENT_AND_CANCEL (ACCOUNT_DEFAULT means CANCEL_NEWEST).
     * @param reason              why.
     */
    public record OpenAccount(long accountId, String selfTradePrevention, String reason)
    {
    }

    /**
     * SetAccountStatus: suspend (new orders refused, the rest goes on), reactivate, or close (only a flat account
     * without orders; final).
     *
     * @param accountId the account.
     * @param status    ACTIVE, SUSPENDED or CLOSED.
     * @param reason    why.
     */
    public record AccountStatus(long accountId, String status, String reason)
    {
    }

    /**
     * AdjustBalance: a deposit or a withdrawal (by the endpoint), with the payment's reference.
     *
     * @param accountId the account.
     * @param amount    money text, positive.
     * @param reference the payment's reference: 1 to 64 printable ASCII characters.
     * @param reason    why.
     */
    public record Transfer(long accountId, String amount, String reference, String reason)
    {
    }

    /**
     * A new user: UpsertUser, then SetUserCredential with the password hashed here.
     *
     * @param username                  1 to 32 printable ASCII characters, no spaces; not a user already.
     * @param password                  the password for its gateway logons; never stored or shown.
     * @param accounts                  the accounts it may trade, the default first: 1 to 8, distinct.
     * @param fixSenderCompId           its FIX SenderCompID, or empty for no FIX access.
     * @param fixCancelOnDisconnect     its FIX sessions cancel their orders on disconnect.
     * @param throttleMessagesPerSecond 0 for the gateway's default, up to 1,000,000.
     * @param enabled                   may log on.
     * @param reason                    why.
     */
    public record CreateUser(
        String username,
        String password,
        List<Long> accounts,
        String fixSenderCompId,
        boolean fixCancelOnDisconnect,
        int throttleMessagesPerSecond,
        boolean enabled,
        String reason)
    {
        @Override
        public String toString()
        {
            return "CreateUser[username=" + username + ", password=(not shown), accounts=" + accounts + "]";
        }
    }

    /**
     * A new password for a user: SetUserCredential with it hashed here.
     *
     * @param username the user.
     * @param password the new password; never stored or shown.
     * @param reason   why.
     */
    public record SetPassword(String username, String password, String reason)
    {
        @Override
        public String toString()
        {
            return "SetPassword[username=" + username + ", password=(not shown)]";
        }
    }

    /**
     * Enable or disable a user (disabling logs its sessions out at every gateway): UpsertUser with its other settings
     * as the user directory holds them.
     *
     * @param username the user, in the user directory.
     * @param enabled  may log on.
     * @param reason   why.
     */
    public record UserEnabled(String username, boolean enabled, String reason)
    {
    }

    /**
     * The accounts a user may trade, replaced whole: UpsertUser with its other settings as the user directory holds
     * them.
     *
     * @param username the user, in the user directory.
     * @param accounts 1 to 8 distinct accounts, the default first.
     * @param reason   why.
     */
    public record UserAccounts(String username, List<Long> accounts, String reason)
    {
    }
}
