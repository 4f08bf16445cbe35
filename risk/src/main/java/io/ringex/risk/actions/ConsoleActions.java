package io.ringex.risk.actions;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.ringex.client.CommandEncoder;
import io.ringex.protocol.CommandText;
import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.UserRole;
import io.ringex.risk.config.RiskProperties;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;
import io.ringex.risk.model.Views;

/**
 * The operator console's commands (ADMIN): instruments (add, amend, delist), accounts (open, suspend, reactivate,
 * close, deposit, withdraw) and users (create, new password, enable or disable, the accounts they trade). Each is
 * checked here by the engine's own rules where the service can (a malformed request is answered 400 and nothing is
 * sent), encoded with the client module's {@link CommandEncoder} naming the logged-in ADMIN as the operator, and sent
 * and tracked by the {@link ActionService}: the engine's answer (ACCEPTED, or REJECTED with its reason) settles the
 * action. What only the engine knows (a duplicate id, an unknown account, a book with orders) is its answer.
 * <p>
 * Passwords are hashed here ({@link CredentialHash}, the gateways' PBKDF2 format) and only the hash is sent;
 * neither is kept or logged. Creating a user is two commands (UpsertUser, then SetUserCredential), journaled in that
 * order; a user name the user directory already holds is refused (409 {@code USER_EXISTS}): the engine's UpsertUser
 * would replace its settings. Changing one setting of a user re-sends its others as the user directory holds them.
 * <p>
 * Thread safety: stateless apart from its collaborators; called on HTTP threads, a fresh encoder per command.
 */
public final class ConsoleActions
{
    /** Longest reason, operator name and reference, as the engine checks them. */
    public static final int MAX_REASON = 64;
    /** Longest operator name. */
    public static final int MAX_OPERATOR = 32;
    /** Longest user name. */
    public static final int MAX_USERNAME = 32;
    /** Longest FIX SenderCompID. */
    public static final int MAX_COMP_ID = 32;
    /** Longest symbol. */
    public static final int MAX_SYMBOL = 16;
    /** Most accounts a user may trade. */
    public static final int MAX_USER_ACCOUNTS = 8;
    /** Highest throttle. */
    public static final int MAX_THROTTLE = 1_000_000;
    /** Longest password. */
    public static final int MAX_PASSWORD = 128;

    private final ActionService actions;
    private final RiskReadModel model;
    private final UserDirectory users;
    private final RiskProperties.Users settings;

    /**
     * @param actions  sends and tracks the commands.
     * @param model    the instruments' price scales.
     * @param users    the user directory, for the settings a change keeps.
     * @param settings password hashing and rules.
     */
    public ConsoleActions(
        final ActionService actions,
        final RiskReadModel model,
        final UserDirectory users,
        final RiskProperties.Users settings)
    {
        this.actions = actions;
        this.model = model;
        this.users = users;
        this.settings = settings;
    }

    // ---------------------------------------------------------------- instruments

    /**
     * @param request the instrument.
     * @param user    the ADMIN.
     * @return the action, PENDING.
     */
    public ActionView addInstrument(final ConsoleRequests.AddInstrument request, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        require(request.instrumentId() > 0, "instrumentId must be positive");
        final String symbol = token("symbol", request.symbol(), MAX_SYMBOL);
        final int scale = request.priceScale();
        require(scale >= 0 && scale <= FixedPoint.MAX_PRICE_SCALE,
            "priceScale must be 0 to " + FixedPoint.MAX_PRICE_SCALE);
        final Pricing pricing = pricing(scale, request.tickSize(), request.lotSize(), request.referencePrice(),
            request.priceBandType(), request.priceBand());
        final CommandEncoder encoder = new CommandEncoder().operator(operator).reason(reason);
        return actions.submit("ADD_INSTRUMENT", "instrument " + request.instrumentId() + " " + symbol, reason, user,
            encoder.buffer(), requestId -> encoder.addInstrument(requestId, request.instrumentId(), symbol, scale,
            pricing.tick, request.lotSize(), pricing.reference, pricing.bandType, request.priceBand()));
    }

    /**
     * @param request the instrument's new static data.
     * @param user    the ADMIN.
     * @return the action, PENDING.
     * @throws ActionRefusedException UNKNOWN_INSTRUMENT when the service has no definition of it (its price scale
     *                                reads the prices).
     */
    public ActionView amendInstrument(final ConsoleRequests.AmendInstrument request, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        final String symbol = token("symbol", request.symbol(), MAX_SYMBOL);
        final int scale = model.priceScale(request.instrumentId());
        if (scale < 0)
        {
            throw new ActionRefusedException("UNKNOWN_INSTRUMENT", "Instrument " + request.instrumentId() +
                " has no definition here: its price scale is needed to read the prices");
        }
        final Pricing pricing = pricing(scale, request.tickSize(), request.lotSize(), request.referencePrice(),
            request.priceBandType(), request.priceBand());
        final CommandEncoder encoder = new CommandEncoder().operator(operator);
        return actions.submit("AMEND_INSTRUMENT", "instrument " + request.instrumentId() + " " + symbol, reason, user,
            encoder.buffer(), requestId -> encoder.amendInstrument(requestId, request.instrumentId(), symbol,
            pricing.tick, request.lotSize(), pricing.reference, pricing.bandType, request.priceBand(), reason));
    }

    /**
     * @param request the instrument.
     * @param user    the ADMIN.
     * @return the action, PENDING.
     */
    public ActionView delistInstrument(final ConsoleRequests.DelistInstrument request, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        require(request.instrumentId() > 0, "instrumentId must be positive");
        final CommandEncoder encoder = new CommandEncoder().operator(operator);
        return actions.submit("DELIST_INSTRUMENT", "instrument " + request.instrumentId(), reason, user,
            encoder.buffer(), requestId -> encoder.delistInstrument(requestId, request.instrumentId(), reason));
    }

    // ---------------------------------------------------------------- accounts

    /**
     * @param request the account.
     * @param user    the ADMIN.
     * @return the action, PENDING.
     */
    public ActionView openAccount(final ConsoleRequests.OpenAccount request, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        require(request.accountId() > 0, "accountId must be positive");
        final SelfTradePrevention stp =
            ActionService.parseEnum(SelfTradePrevention.class, "selfTradePrevention", request.selfTradePrevention());
        final CommandEncoder encoder = new CommandEncoder().operator(operator).reason(reason);
        return actions.submit("OPEN_ACCOUNT", "account " + request.accountId(), reason, user, encoder.buffer(),
            requestId -> encoder.addAccount(requestId, request.accountId(), stp));
    }

    /**
     * @param request the account and its new standing.
     * @param user    the ADMIN.
     * @return the action, PENDING.
     */
    public ActionView accountStatus(final ConsoleRequests.AccountStatus request, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        require(request.accountId() > 0, "accountId must be positive");
        final AccountStatus status = ActionService.parseEnum(AccountStatus.class, "status", request.status());
        final CommandEncoder encoder = new CommandEncoder().operator(operator);
        return actions.submit("ACCOUNT_STATUS", "account " + request.accountId() + " to " + status.name(), reason,
            user, encoder.buffer(), requestId -> encoder.setAccountStatus(requestId, request.accountId(), status,
            reason));
    }

    /**
     * @param request  the account, the amount and the payment's reference.
     * @param deposit  true to add the amount, false to take it.
     * @param user     the ADMIN.
     * @return the action, PENDING.
     */
    public ActionView transfer(final ConsoleRequests.Transfer request, final boolean deposit, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        require(request.accountId() > 0, "accountId must be positive");
        final long amount = ActionService.money("amount", request.amount());
        require(amount > 0, "amount must be positive");
        final String reference = request.reference() == null ? "" : request.reference();
        require(!reference.isEmpty() && CommandText.isPrintable(reference, MAX_REASON),
            "reference must be 1 to " + MAX_REASON + " printable ASCII characters");
        final CommandEncoder encoder = new CommandEncoder().operator(operator);
        return actions.submit(deposit ? "DEPOSIT" : "WITHDRAW", "account " + request.accountId() + ": " +
            displayMoney(amount) + " USD, ref " + reference, reason, user, encoder.buffer(),
            requestId -> encoder.adjustBalance(requestId, request.accountId(), deposit ? amount : -amount, reference,
            reason));
    }

    // ---------------------------------------------------------------- users

    /**
     * @param request the user and its password.
     * @param user    the ADMIN.
     * @return the two actions, PENDING: UpsertUser, then SetUserCredential.
     * @throws ActionRefusedException USER_EXISTS when the user directory holds the name; DIRECTORY_NOT_LOADED
     *                                before it has the followed engine's directory (the name might exist).
     */
    public List<ActionView> createUser(final ConsoleRequests.CreateUser request, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        final String username = token("username", request.username(), MAX_USERNAME);
        final long[] accounts = accounts(request.accounts());
        final String compId = request.fixSenderCompId() == null ? "" : request.fixSenderCompId();
        require(compId.isEmpty() || CommandText.isToken(compId, MAX_COMP_ID),
            "fixSenderCompId must be empty or 1 to " + MAX_COMP_ID + " printable ASCII characters without spaces");
        require(request.throttleMessagesPerSecond() >= 0 && request.throttleMessagesPerSecond() <= MAX_THROTTLE,
            "throttleMessagesPerSecond must be 0 (the gateway's default) to " + MAX_THROTTLE);
        checkPassword(request.password());
        if (!users.users().loaded())
        {
            throw new ActionRefusedException("DIRECTORY_NOT_LOADED", "The user directory has not arrived from the " +
                "engine yet: cannot tell whether '" + username + "' exists (creating it would replace it); try again");
        }
        if (users.user(username) != null)
        {
            throw new ActionRefusedException("USER_EXISTS", "User '" + username + "' exists: change its settings " +
                "or its password instead");
        }
        final String hash = hashed(request.password());
        final CommandEncoder encoder = new CommandEncoder().operator(operator);
        final List<ActionView> sent = new ArrayList<>(2);
        sent.add(actions.submit("UPSERT_USER", "user " + username + " (new)", reason, user, encoder.buffer(),
            requestId -> encoder.upsertUser(requestId, username, request.enabled(), accounts, compId,
            request.fixCancelOnDisconnect(), request.throttleMessagesPerSecond(), reason)));
        sent.add(actions.submit("SET_PASSWORD", "user " + username, reason, user, encoder.buffer(),
            requestId -> encoder.setUserCredential(requestId, username, hash, reason)));
        return sent;
    }

    /**
     * @param request the user and its new password.
     * @param user    the ADMIN.
     * @return the action, PENDING.
     */
    public ActionView setPassword(final ConsoleRequests.SetPassword request, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        final String username = token("username", request.username(), MAX_USERNAME);
        final String hash = hashed(request.password());
        final CommandEncoder encoder = new CommandEncoder().operator(operator);
        return actions.submit("SET_PASSWORD", "user " + username, reason, user, encoder.buffer(),
            requestId -> encoder.setUserCredential(requestId, username, hash, reason));
    }

    /**
     * @param request the user and whether it may log on.
     * @param user    the ADMIN.
     * @return the action, PENDING.
     * @throws ActionRefusedException UNKNOWN_USER when the user directory does not hold it.
     */
    public ActionView userEnabled(final ConsoleRequests.UserEnabled request, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        final Views.UserView known = known(request.username());
        final long[] accounts = known.accounts().stream().mapToLong(Long::longValue).toArray();
        return upsert(known, request.enabled(), accounts, (request.enabled() ? "enable" : "disable"), reason,
            operator, user);
    }

    /**
     * @param request the user and the accounts it may trade.
     * @param user    the ADMIN.
     * @return the action, PENDING.
     * @throws ActionRefusedException UNKNOWN_USER when the user directory does not hold it.
     */
    public ActionView userAccounts(final ConsoleRequests.UserAccounts request, final String user)
    {
        final String reason = reason(request.reason());
        final String operator = operator(user);
        final long[] accounts = accounts(request.accounts());
        final Views.UserView known = known(request.username());
        return upsert(known, known.enabled(), accounts, "accounts " + Arrays.toString(accounts), reason, operator,
            user);
    }

    private ActionView upsert(
        final Views.UserView known,
        final boolean enabled,
        final long[] accounts,
        final String change,
        final String reason,
        final String operator,
        final String user)
    {
        final CommandEncoder encoder = new CommandEncoder().operator(operator);
        return actions.submit("UPSERT_USER", "user " + known.username() + ": " + change, reason, user,
            encoder.buffer(), requestId -> encoder.upsertUser(requestId, known.username(), enabled, accounts,
            known.fixSenderCompId(), known.fixCancelOnDisconnect(), known.throttleMessagesPerSecond(),
            null == known.role() ? UserRole.TRADER : known.role(), known.cancelOnDisconnectGraceMs(), reason));
    }

    private Views.UserView known(final String username)
    {
        final String name = token("username", username, MAX_USERNAME);
        final Views.UserView known = users.user(name);
        if (known == null)
        {
            throw new ActionRefusedException("UNKNOWN_USER", "User '" + name + "' is not in the user directory");
        }
        return known;
    }

    private void checkPassword(final String password)
    {
        require(password != null && password.length() >= settings.passwordMinLength() &&
            password.length() <= MAX_PASSWORD, "password must be " + settings.passwordMinLength() + " to " +
            MAX_PASSWORD + " characters");
        for (int i = 0; i < password.length(); i++)
        {
            require(!Character.isISOControl(password.charAt(i)), "password must not contain control characters");
        }
    }

    private String hashed(final String password)
    {
        checkPassword(password);
        final char[] chars = password.toCharArray();
        try
        {
            return CredentialHash.hash(chars, settings.passwordIterations());
        }
        finally
        {
            Arrays.fill(chars, '\0');
        }
    }

    // ---------------------------------------------------------------- checks, the engine's rules

    private record Pricing(long tick, long reference, PriceBandType bandType)
    {
    }

    private static Pricing pricing(
        final int scale,
        final String tickSize,
        final long lotSize,
        final String referencePrice,
        final String bandTypeName,
        final long band)
    {
        final long tick = price("tickSize", tickSize, scale);
        final long reference = price("referencePrice", referencePrice, scale);
        require(tick > 0, "tickSize must be positive");
        require(lotSize > 0, "lotSize must be positive");
        require(reference > 0, "referencePrice must be positive");
        require(reference % tick == 0, "referencePrice must be a multiple of tickSize");
        final PriceBandType bandType = ActionService.parseEnum(PriceBandType.class, "priceBandType", bandTypeName);
        require(band > 0, "priceBand must be positive");
        return new Pricing(tick, reference, bandType);
    }

    private static long price(final String field, final String text, final int scale)
    {
        final long value = text == null ? FixedPoint.INVALID : FixedPoint.parse(text, scale);
        if (value == FixedPoint.INVALID)
        {
            throw new IllegalArgumentException(field + " must be a decimal number with at most " + scale +
                " places (the instrument's price scale), was '" + text + "'");
        }
        return value;
    }

    private static long[] accounts(final List<Long> accounts)
    {
        require(accounts != null && !accounts.isEmpty() && accounts.size() <= MAX_USER_ACCOUNTS,
            "accounts must list 1 to " + MAX_USER_ACCOUNTS + " accounts, the default first");
        final Set<Long> seen = new HashSet<>();
        final long[] out = new long[accounts.size()];
        for (int i = 0; i < out.length; i++)
        {
            final Long id = accounts.get(i);
            require(id != null && id > 0, "accounts must be positive ids");
            require(seen.add(id), "accounts must not name account " + id + " twice");
            out[i] = id;
        }
        return out;
    }

    /**
     * @param amount money at 10^8.
     * @return it for people: grouped, two decimals, more only where the amount has them ("25,000.00",
     *         "0.00000001"); exact, never rounded.
     */
    static String displayMoney(final long amount)
    {
        final BigDecimal value = new BigDecimal(FixedPoint.format(amount, FixedPoint.MONEY_SCALE)).stripTrailingZeros();
        return String.format(Locale.ROOT, "%,." + Math.max(2, value.scale()) + "f", value);
    }

    private static String reason(final String reason)
    {
        require(reason != null && !reason.isBlank() && CommandText.isPrintable(reason, MAX_REASON),
            "reason must be 1 to " + MAX_REASON + " printable ASCII characters (the journal keeps it)");
        return reason;
    }

    private static String operator(final String user)
    {
        require(CommandText.isToken(user, MAX_OPERATOR), "the operator name (your login) must be 1 to " +
            MAX_OPERATOR + " printable ASCII characters without spaces to be journaled");
        return user;
    }

    private static String token(final String field, final String text, final int maxLength)
    {
        require(CommandText.isToken(text, maxLength),
            field + " must be 1 to " + maxLength + " printable ASCII characters without spaces");
        return text;
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
