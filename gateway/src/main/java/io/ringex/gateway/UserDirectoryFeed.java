package io.ringex.gateway;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.ringex.client.AdminCommandSigner;
import io.ringex.client.AdminKey;
import io.ringex.client.CommandEncoder;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.auth.UserDirectory;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the gateway's {@link UserDirectory} equal to the engine's users: the whole directory on following a primary,
 * each UserDefinition as it comes after (docs/operations.md, "Users at the gateways"). The egress of one node is in
 * command order, so a change made after the request is never lost under the answer.
 * <p>
 * Configured users the engine lacks are offered to it only when the gateway holds an admin key. A change that disables
 * a user, or gives it other accounts or FIX CompIDs, ends its live sessions ({@link SessionsOfUser}); a new password
 * does not.
 * <p>
 * Threading: the gateway agent's thread.
 */
public final class UserDirectoryFeed
{
    /** First wait for an answer before asking again; doubles up to {@link #MAX_RETRY_NS}. */
    static final long FIRST_RETRY_NS = TimeUnit.SECONDS.toNanos(1);
    static final long MAX_RETRY_NS = TimeUnit.SECONDS.toNanos(16);
    private static final Logger LOG = LoggerFactory.getLogger(UserDirectoryFeed.class);
    private static final int BROADCAST = 0;
    private static final int REQUEST_ID_SHIFT = 40;
    private static final String BOOTSTRAP_REASON = "bootstrap from the gateway's configuration";

    /**
     * Ends the live sessions of a user whose definition no longer allows them.
     */
    @FunctionalInterface
    public interface SessionsOfUser
    {
        /**
         * @param username the user.
         * @param disabled whether the user was disabled (else its accounts, CompIDs or role changed).
         * @param change   what changed, in the words the sessions' Logout gives ({@link User#sessionEndingChange}).
         */
        void end(String username, boolean disabled, String change);
    }

    private final UserDirectory users;
    private final EngineIngress ingress;
    private final SessionsOfUser sessions;
    private final int gatewayId;
    private final String defaultFixTargetCompId;
    private final CommandEncoder encoder = new CommandEncoder();
    private final AdminCommandSigner signer;
    private final UnsafeBuffer signed;
    private final Map<String, User> answer = new HashMap<>();
    private long requestId;
    private long firstAwaitedRequestId;
    private long answeringRequestId;
    private boolean wanted;
    private long nextRequestNs;
    private long retryNs = FIRST_RETRY_NS;
    private int bootstrapIndex = -1;
    private User[] toOffer = new User[0];
    private boolean credentialNext;

    /**
     * @param users                  the directory kept.
     * @param ingress                the current primary.
     * @param sessions               ends a user's sessions.
     * @param gatewayId              this gateway.
     * @param defaultFixTargetCompId the TargetCompID of an engine user's FIX session (the gateway's CompID), unless
     *                               the configuration names one for the same user.
     */
    public UserDirectoryFeed(
        final UserDirectory users,
        final EngineIngress ingress,
        final SessionsOfUser sessions,
        final int gatewayId,
        final String defaultFixTargetCompId,
        final AdminKey adminKey)
    {
        this.signer = null == adminKey ? null : new AdminCommandSigner(adminKey);
        this.signed = null == adminKey ? null : new UnsafeBuffer(new byte[AdminCommandSigner.signedLength(
            encoder.buffer().capacity())]);
        this.users = users;
        this.ingress = ingress;
        this.sessions = sessions;
        this.gatewayId = gatewayId;
        this.defaultFixTargetCompId = defaultFixTargetCompId;
        // Request ids of their own (an AdminResponse goes to every admin client, and tools number from 1).
        this.requestId = (long)gatewayId << REQUEST_ID_SHIFT;
        encoder.operator("gateway-" + gatewayId);
    }

    /**
     * Ask for the whole directory now (a new primary, or its egress came back).
     *
     * @param nowNs the agent's clock.
     */
    public void requestDirectory(final long nowNs)
    {
        if (!wanted)
        {
            firstAwaitedRequestId = 0;
        }
        wanted = true;
        nextRequestNs = nowNs;
        retryNs = FIRST_RETRY_NS;
    }

    /**
     * Send what is due: the directory request, and the users offered to the engine.
     *
     * @param nowNs the agent's clock.
     * @return work done.
     */
    public int poll(final long nowNs)
    {
        int work = 0;
        if (wanted && nowNs - nextRequestNs >= 0)
        {
            final long id = requestId + 1;
            final int length = encoder.userDirectoryRequest(gatewayId, id);
            if (ingress.offer(encoder.buffer(), 0, length) > 0)
            {
                requestId = id;
                if (0 == firstAwaitedRequestId)
                {
                    firstAwaitedRequestId = id;
                }
                nextRequestNs = nowNs + retryNs;
                retryNs = Math.min(MAX_RETRY_NS, retryNs * 2);
                work++;
            }
        }
        if (bootstrapIndex >= 0)
        {
            work += offerConfiguredUsers();
        }
        return work;
    }

    /**
     * A UserDefinition from the followed primary.
     *
     * @param decoder wrapped on it.
     */
    public void onUserDefinition(final UserDefinitionDecoder decoder)
    {
        final int addressee = decoder.gatewayId();
        final long answered = decoder.requestId();
        final boolean ours = addressee == gatewayId && awaited(answered);
        if (!ours && addressee != BROADCAST)
        {
            // Another gateway's or tool's answer: not even decoded.
            return;
        }
        final User user = user(decoder);
        if (null == user)
        {
            LOG.warn("a user definition without accounts, or with a role this gateway does not know, ignored");
            return;
        }
        if (ours)
        {
            // One answer at a time on a node's egress: a definition of another request starts that one's answer.
            if (answered != answeringRequestId)
            {
                answer.clear();
                answeringRequestId = answered;
            }
            answer.put(user.username(), user);
        }
        else
        {
            LOG.info("user {} changed in the engine: {}", user.username(), user);
            endSessions(users.applyEngineUser(user));
        }
    }

    /**
     * A UserDirectoryEnd from the followed primary: if it ends the answer awaited, the answer replaces the directory.
     *
     * @param decoder wrapped on it.
     */
    public void onDirectoryEnd(final UserDirectoryEndDecoder decoder)
    {
        final long answered = decoder.requestId();
        if (decoder.gatewayId() != gatewayId || !awaited(answered))
        {
            return;
        }
        final int received = answered == answeringRequestId ? answer.size() : 0;
        if (decoder.userCount() != received)
        {
            // A definition of the answer was lost (it never is on one node's egress; a reconnect could): ask again.
            LOG.warn("user directory answer {} incomplete: {} of {} users; asking again", answered, received,
                decoder.userCount());
            answer.clear();
            answeringRequestId = 0;
            return;
        }
        if (received == 0)
        {
            answer.clear();
        }
        firstAwaitedRequestId = 0;
        answeringRequestId = 0;
        wanted = false;
        final boolean first = !users.loaded();
        endSessions(users.replaceEngineUsers(answer));
        LOG.info("user directory {} from the engine at command {}: {} users", first ? "loaded" : "reloaded",
            decoder.commandSequence(), answer.size());
        answer.clear();
        toOffer = users.configuredUsers().stream().filter(this::lacking).toArray(User[]::new);
        if (toOffer.length > 0 && null == signer)
        {
            LOG.warn("{} configured users the engine lacks stay this gateway's: no admin key to offer them with " +
                "(ringex.gateway.admin.key.file)", toOffer.length);
            toOffer = new User[0];
        }
        bootstrapIndex = toOffer.length > 0 ? 0 : -1;
        credentialNext = toOffer.length > 0 && null != users.engineUser(toOffer[0].username());
    }

    /**
     * Whether a request of this gateway since it last asked afresh is unanswered: the answer to any of them will do
     * (a slow engine may answer the first after the gateway asked again).
     */
    private boolean awaited(final long answered)
    {
        return wanted && 0 != firstAwaitedRequestId && answered >= firstAwaitedRequestId && answered <= requestId;
    }

    private int offerConfiguredUsers()
    {
        int work = 0;
        while (bootstrapIndex < toOffer.length)
        {
            final User user = toOffer[bootstrapIndex];
            // The credential only after its user went; each is retried on the next cycle while the ingress is full.
            final int length = credentialNext ?
                encoder.setUserCredential(requestId + 1, user.username(), user.credentialHash(), BOOTSTRAP_REASON) :
                encoder.upsertUser(requestId + 1, user.username(), true, accountsOf(user),
                    null == user.fixSenderCompId() ? "" : user.fixSenderCompId(), user.fixCancelOnDisconnect(), 0,
                    user.role(), user.cancelOnDisconnectGraceMs(), BOOTSTRAP_REASON);
            if (ingress.offer(signed, 0, signer.sign(encoder.buffer(), 0, length, signed, 0)) <= 0)
            {
                return work;
            }
            requestId++;
            work++;
            if (credentialNext)
            {
                LOG.info("user {} offered to the engine from the configuration", user.username());
                bootstrapIndex++;
                credentialNext = bootstrapIndex < toOffer.length &&
                    null != users.engineUser(toOffer[bootstrapIndex].username());
            }
            else
            {
                credentialNext = true;
            }
        }
        bootstrapIndex = -1;
        return work;
    }

    /**
     * Whether the engine lacks a configured user, or holds it without a credential (a reference-data file carries no
     * passwords: the configuration's hash is offered for it).
     */
    private boolean lacking(final User configured)
    {
        final User held = users.engineUser(configured.username());
        return null == held || held.credentialHash().isEmpty();
    }

    private static long[] accountsOf(final User user)
    {
        final long[] accounts = new long[user.accountCount()];
        for (int i = 0; i < accounts.length; i++)
        {
            accounts[i] = user.account(i);
        }
        return accounts;
    }

    private void endSessions(final Map<String, User> changed)
    {
        changed.forEach((name, before) ->
        {
            final User after = users.user(name);
            final String change = null == before ? null : before.sessionEndingChange(after);
            if (null != change)
            {
                final boolean disabled = null == after || !after.enabled();
                LOG.warn("user {}: {}; its sessions are logged out", name, change);
                sessions.end(name, disabled, change);
            }
        });
    }

    private User user(final UserDefinitionDecoder decoder)
    {
        final boolean enabled = decoder.enabledRaw() == BooleanType.TRUE.value();
        final boolean cancelOnDisconnect = decoder.fixCancelOnDisconnectRaw() == BooleanType.TRUE.value();
        final int throttle = decoder.throttleMessagesPerSecond();
        final short roleValue = decoder.roleRaw();
        // Absent before schema version 3 (the null value): no grace. The engine holds 0 to the most; a value outside
        // is taken as the nearest, as the engine's timer would.
        final int graceRaw = decoder.cancelOnDisconnectGraceMs();
        final int graceMs = graceRaw == UserDefinitionDecoder.cancelOnDisconnectGraceMsNullValue() ? 0 :
            Math.max(0, Math.min(graceRaw, MessageCatalog.MAX_CANCEL_ON_DISCONNECT_GRACE_MS));
        final UserDefinitionDecoder.AccountsDecoder group = decoder.accounts();
        if (group.count() == 0 || roleValue > UserRole.CLEARING.value())
        {
            // An engine of a later version may know a role this gateway does not: the user is left out (no logon)
            // rather than let in as a trader.
            return null;
        }
        final long[] accounts = new long[group.count()];
        int i = 0;
        for (final UserDefinitionDecoder.AccountsDecoder account : group)
        {
            accounts[i++] = account.accountId();
        }
        final String username = decoder.username();
        final String senderCompId = decoder.fixSenderCompId();
        final String credential = decoder.credentialHash();
        final User configured = users.configuredUser(username);
        final String target = null != configured ? configured.fixTargetCompId() : defaultFixTargetCompId;
        return new User(username, credential, accounts, senderCompId.isEmpty() ? null : senderCompId, target,
            cancelOnDisconnect, enabled, throttle, UserRole.get(roleValue), graceMs);
    }
}
