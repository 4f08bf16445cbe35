package io.ringex.gateway.auth;

import io.ringex.common.config.Config;
import io.ringex.common.config.KnownKeys;
import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.UserRoles;
import io.ringex.protocol.codecs.UserRole;

import java.nio.CharBuffer;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The users who may log on, by username and by FIX SenderCompID. The engine holds the users (journaled, replicated,
 * the same at every gateway): the gateway asks for the whole directory when it follows a primary and applies every
 * change the engine announces ({@link io.ringex.gateway.UserDirectoryFeed}). The configuration's users (added in code,
 * or read from the keys {@code ringex.gateway.user.<name>.<key>} by {@link #fromConfig}, which refuses, naming the
 * key, a user without a credential hash or accounts, a value that does not parse and a key it does not read) are a
 * bootstrap: the gateway offers the engine those it lacks, and an engine user of the same name always wins. Until the
 * engine's directory has arrived ({@link #loaded()}) nobody logs on.
 * <p>
 * Threading: changed on the gateway agent's thread; read from any thread (an immutable view, replaced whole).
 */
public final class UserDirectory
{
    /** Prefix of the user keys, {@code ringex.gateway.user.<name>.<key>}. */
    public static final String PREFIX = "ringex.gateway.user.";
    /** The credential hash (required). */
    public static final String CREDENTIAL = "credential";
    /** The accounts, the default first (required). */
    public static final String ACCOUNTS = "accounts";
    /** The SenderCompID of the user's FIX session (optional: no FIX without it). */
    public static final String FIX_SENDER_COMP_ID = "fix.sender.comp.id";
    /** The TargetCompID the user's FIX session addresses (optional). */
    public static final String FIX_TARGET_COMP_ID = "fix.target.comp.id";
    /** Cancel the FIX session's orders on disconnect (optional). */
    public static final String FIX_CANCEL_ON_DISCONNECT = "fix.cancel.on.disconnect";
    /** The user's role (optional, default trader). */
    public static final String ROLE = "role";
    /** How long a disconnected cancel-on-disconnect session keeps its orders, in ms (optional, default 0). */
    public static final String CANCEL_ON_DISCONNECT_GRACE_MS = "cancel.on.disconnect.grace.ms";
    /** What each key of a user sets, in the reference's order. */
    private static final Map<String, String> KEYS = keys();
    /** What a key shows in place of a credential: the value is a secret. */
    private static final String HIDDEN = "<hidden>";

    /** Checked when the name is unknown, so an unknown name costs what a wrong password does. */
    private static final String DUMMY_CREDENTIAL = CredentialHash.hash("ringex-no-such-user".toCharArray());
    private final Map<String, User> configured = new LinkedHashMap<>();
    private Map<String, User> engineUsers = Collections.emptyMap();
    private volatile View view = View.of(Collections.emptyMap(), Collections.emptyMap());
    private volatile boolean loaded;

    private static Map<String, String> keys()
    {
        final Map<String, String> keys = new LinkedHashMap<>();
        keys.put(CREDENTIAL, "the user's credential hash, printed by `io.ringex.gateway.auth.HashCredential` " +
            "(required)");
        keys.put(ACCOUNTS, "the accounts the user may trade, comma separated, the default first (required)");
        keys.put(FIX_SENDER_COMP_ID, "the SenderCompID of the user's FIX session; unset: no FIX for the user");
        keys.put(FIX_TARGET_COMP_ID, "the TargetCompID the user's FIX session addresses (default " +
            "`ringex.gateway.fix.comp.id`)");
        keys.put(FIX_CANCEL_ON_DISCONNECT, "`true`: cancel the FIX session's orders when it disconnects (default " +
            "`false`)");
        keys.put(ROLE, "`trader` (default), `drop-copy` (or `drop_copy`: its sessions get a copy of every execution " +
            "report of its accounts and may send no orders) or `clearing` (the same, for every account)");
        keys.put(CANCEL_ON_DISCONNECT_GRACE_MS, "how long, in ms, a session of the user that asked for " +
            "cancel-on-disconnect (FIX: `fix.cancel.on.disconnect`; SBE: its Logon) keeps its orders and quotes " +
            "after it disconnects, waiting for it to log on again: 0 (default, cancelled at once) to " +
            MessageCatalog.MAX_CANCEL_ON_DISCONNECT_GRACE_MS);
        return Collections.unmodifiableMap(keys);
    }

    /**
     * Declare the user keys.
     *
     * @param known the keys of a process that runs a gateway.
     * @return the same.
     */
    public static KnownKeys addKeys(final KnownKeys known)
    {
        for (final Map.Entry<String, String> key : KEYS.entrySet())
        {
            known.family(Pattern.quote(PREFIX) + "[^.]+\\." + Pattern.quote(key.getKey()),
                PREFIX + "<name>." + key.getKey(), key.getValue());
        }
        return known;
    }

    /**
     * @param username a user's name.
     * @return the key of the user's credential hash.
     */
    public static String credentialKey(final String username)
    {
        return PREFIX + username + '.' + CREDENTIAL;
    }

    /**
     * Read the users of a configuration: every {@code <name>} of a {@code ringex.gateway.user.<name>.<key>} is a user.
     *
     * @param config                 the configuration.
     * @param defaultFixTargetCompId the TargetCompID of a user who names none (the gateway's CompID).
     * @return the users.
     * @throws io.aeron.exceptions.ConfigurationException naming the key: a user without a credential or accounts, a
     *                                                    credential that is not a hash (not shown), accounts that are
     *                                                    not numbers, a SenderCompID taken, a role not known, a
     *                                                    grace out of range, a key not read here.
     */
    public static UserDirectory fromConfig(final Config config, final String defaultFixTargetCompId)
    {
        final TreeSet<String> names = new TreeSet<>();
        for (final String key : config.keys(PREFIX))
        {
            final String rest = key.substring(PREFIX.length());
            final int dot = rest.indexOf('.');
            // Not shown: a misspelt credential key holds a credential.
            Config.require(dot > 0 && KEYS.containsKey(rest.substring(dot + 1)), key, HIDDEN,
                "not a user key; a user's keys are " +
                PREFIX + "<name>." + String.join("|", KEYS.keySet()));
            names.add(rest.substring(0, dot));
        }
        final UserDirectory users = new UserDirectory();
        for (final String name : names)
        {
            final String base = PREFIX + name + '.';
            final String credential = config.get(base + CREDENTIAL);
            Config.require(null != credential && CredentialHash.isWellFormed(credential), base + CREDENTIAL,
                null == credential ? null : HIDDEN, "must be a hash from io.ringex.gateway.auth.HashCredential");
            final String accountsText = config.get(base + ACCOUNTS);
            Config.require(null != accountsText && !accountsText.isEmpty(), base + ACCOUNTS, accountsText,
                "must list at least one account");
            final String[] parts = accountsText.split(",");
            final long[] accounts = new long[parts.length];
            for (int i = 0; i < parts.length; i++)
            {
                try
                {
                    accounts[i] = Long.parseLong(parts[i].trim());
                }
                catch (final NumberFormatException ex)
                {
                    throw Config.bad(base + ACCOUNTS, accountsText, "must be comma separated account ids");
                }
            }
            final String sender = config.get(base + FIX_SENDER_COMP_ID);
            Config.require(null == sender || !sender.isEmpty(), base + FIX_SENDER_COMP_ID, sender,
                "must be a CompID, or unset for no FIX");
            final String target = config.string(base + FIX_TARGET_COMP_ID, defaultFixTargetCompId);
            final boolean cancelOnDisconnect = config.bool(base + FIX_CANCEL_ON_DISCONNECT, false);
            final UserRole role = role(base + ROLE, config.string(base + ROLE, UserRole.TRADER.name()));
            final int graceMs = config.intValue(base + CANCEL_ON_DISCONNECT_GRACE_MS, 0);
            Config.require(graceMs >= 0 && graceMs <= MessageCatalog.MAX_CANCEL_ON_DISCONNECT_GRACE_MS,
                base + CANCEL_ON_DISCONNECT_GRACE_MS, graceMs,
                "must be 0 to " + MessageCatalog.MAX_CANCEL_ON_DISCONNECT_GRACE_MS + " ms");
            try
            {
                users.add(new User(name, credential, accounts, sender, target, cancelOnDisconnect, true, 0, role,
                    graceMs));
            }
            catch (final IllegalArgumentException ex)
            {
                throw Config.bad(base + FIX_SENDER_COMP_ID, sender, ex.getMessage());
            }
        }
        return users;
    }

    /**
     * @param key   where the value came from, for the error.
     * @param value a role as {@link UserRoles} spells it (any case).
     * @return the role.
     * @throws io.aeron.exceptions.ConfigurationException naming the key when it is none of {@link UserRoles#SPELLINGS}.
     */
    public static UserRole role(final String key, final String value)
    {
        final UserRole role = UserRoles.parse(value);
        if (null == role)
        {
            throw Config.bad(key, value, "must be " + UserRoles.SPELLINGS);
        }
        return role;
    }

    /**
     * Add a user of the configuration (before the gateway starts).
     *
     * @param user the user.
     * @return this.
     * @throws IllegalArgumentException if the username or FIX SenderCompID is already taken.
     */
    public UserDirectory add(final User user)
    {
        if (configured.containsKey(user.username()))
        {
            throw new IllegalArgumentException("duplicate user: " + user.username());
        }
        for (final User other : configured.values())
        {
            if (null != user.fixSenderCompId() && user.fixSenderCompId().equals(other.fixSenderCompId()))
            {
                throw new IllegalArgumentException("duplicate FIX SenderCompID: " + user.fixSenderCompId());
            }
        }
        configured.put(user.username(), user);
        view = View.of(engineUsers, configured);
        return this;
    }

    /**
     * @return the users of the configuration, which the gateway offers the engine when it lacks them.
     */
    public Collection<User> configuredUsers()
    {
        return Collections.unmodifiableCollection(configured.values());
    }

    /**
     * @param username a user's name.
     * @return the configuration's user of that name, or null.
     */
    public User configuredUser(final String username)
    {
        return configured.get(username);
    }

    /**
     * @return whether the engine's directory has been received: until then nobody logs on (any thread).
     */
    public boolean loaded()
    {
        return loaded;
    }

    /**
     * The engine's whole directory arrived: it replaces what the engine said before (gateway agent thread).
     *
     * @param users the engine's users by name.
     * @return each user as it was before, for the users whose definition changed (null for a new one).
     */
    public Map<String, User> replaceEngineUsers(final Map<String, User> users)
    {
        final Map<String, User> before = view.byUsername;
        engineUsers = new LinkedHashMap<>(users);
        view = View.of(engineUsers, configured);
        loaded = true;
        return changes(before, view.byUsername);
    }

    /**
     * One user changed in the engine (gateway agent thread).
     *
     * @param user the user's new definition.
     * @return each user as it was before, for the users whose definition changed (null for a new one).
     */
    public Map<String, User> applyEngineUser(final User user)
    {
        final Map<String, User> before = view.byUsername;
        final Map<String, User> users = new LinkedHashMap<>(engineUsers);
        users.put(user.username(), user);
        engineUsers = users;
        view = View.of(engineUsers, configured);
        return changes(before, view.byUsername);
    }

    /**
     * @param username a user's name.
     * @return the user as the engine holds it, or null (gateway agent thread).
     */
    public User engineUser(final String username)
    {
        return engineUsers.get(username);
    }

    private static Map<String, User> changes(final Map<String, User> before, final Map<String, User> after)
    {
        final Map<String, User> changed = new LinkedHashMap<>();
        before.forEach((name, user) ->
        {
            if (after.get(name) != user)
            {
                changed.put(name, user);
            }
        });
        after.forEach((name, user) ->
        {
            if (!before.containsKey(name))
            {
                changed.put(name, null);
            }
        });
        return changed;
    }

    /**
     * @param username login name.
     * @return the user or null.
     */
    public User user(final String username)
    {
        return view.byUsername.get(username);
    }

    /**
     * @param senderCompId the client's SenderCompID.
     * @return the user whose FIX session it is, or null.
     */
    public User userBySenderCompId(final String senderCompId)
    {
        return view.bySenderCompId.get(senderCompId);
    }

    /**
     * Authenticate in the time a wrong password takes, whether the name exists or not: an unknown name is checked
     * against a dummy hash of the default strength, so timing does not tell which names exist.
     *
     * @param username login name.
     * @param password candidate password.
     * @return the user if the password matches, else null.
     */
    public User authenticate(final String username, final CharSequence password)
    {
        final User user = username == null ? null : view.byUsername.get(username);
        if (user == null)
        {
            CredentialHash.verify(password == null ? "" : password, DUMMY_CREDENTIAL);
            return null;
        }
        return user.verify(password) ? user : null;
    }

    /**
     * As {@link #authenticate(String, CharSequence)}, for a password held in a char array (wiped by the caller).
     *
     * @param username login name.
     * @param password candidate password.
     * @return the user if the password matches, else null.
     */
    public User authenticate(final String username, final char[] password)
    {
        return authenticate(username, CharBuffer.wrap(password));
    }

    /**
     * @return every user, in the order added.
     */
    public Collection<User> users()
    {
        return Collections.unmodifiableCollection(view.byUsername.values());
    }

    /**
     * What logons are checked against: the engine's users, and the configuration's users the engine lacks. Immutable,
     * replaced whole on a change, so the logon worker and the FIX library read a consistent directory.
     */
    private static final class View
    {
        private final Map<String, User> byUsername;
        private final Map<String, User> bySenderCompId;

        private View(final Map<String, User> byUsername, final Map<String, User> bySenderCompId)
        {
            this.byUsername = byUsername;
            this.bySenderCompId = bySenderCompId;
        }

        static View of(final Map<String, User> engineUsers, final Map<String, User> configured)
        {
            final Map<String, User> byUsername = new LinkedHashMap<>();
            final Map<String, User> bySenderCompId = new HashMap<>();
            for (final User held : engineUsers.values())
            {
                // Held without a credential (a reference-data file has none), the configured one serves meanwhile:
                // it is what the gateway offers the engine for it.
                final User configuredUser = configured.get(held.username());
                final User user = held.credentialHash().isEmpty() && null != configuredUser ?
                    held.withCredential(configuredUser.credentialHash()) : held;
                byUsername.put(user.username(), user);
                if (null != user.fixSenderCompId())
                {
                    bySenderCompId.put(user.fixSenderCompId(), user);
                }
            }
            for (final User user : configured.values())
            {
                // The engine's users come first: a configured user whose FIX CompID an engine user holds is left out.
                if (!byUsername.containsKey(user.username()) &&
                    (null == user.fixSenderCompId() || !bySenderCompId.containsKey(user.fixSenderCompId())))
                {
                    byUsername.put(user.username(), user);
                    if (null != user.fixSenderCompId())
                    {
                        bySenderCompId.put(user.fixSenderCompId(), user);
                    }
                }
            }
            return new View(Collections.unmodifiableMap(byUsername), Collections.unmodifiableMap(bySenderCompId));
        }
    }
}
