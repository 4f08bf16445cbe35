package io.ringex.engine.processor;

import io.ringex.protocol.CommandText;
import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetUserCredentialDecoder;
import io.ringex.protocol.codecs.UpsertUserDecoder;
import io.ringex.protocol.codecs.UserDirectoryRequestDecoder;
import io.ringex.protocol.codecs.UserRole;

/**
 * The user commands: UpsertUser, SetUserCredential (a {@link CredentialHash}) and UserDirectoryRequest (a gateway asks
 * for every user). Each change is answered with an AdminResponse and, accepted, followed by the user's UserDefinition
 * for every gateway; a directory request changes nothing (docs/operations.md, "Users at the gateways").
 * <p>
 * A user is never deleted: it is disabled, which logs its sessions out at every gateway.
 * <p>
 * Threading: single business-logic thread.
 */
final class UserCommands
{
    private static final int MAX_THROTTLE = 1_000_000;
    private static final String CREDENTIAL_SCHEME = CredentialHash.SCHEME + ':';

    private final EngineState state;
    private final EventEncoder events;

    UserCommands(final EngineState state, final EventEncoder events)
    {
        this.state = state;
        this.events = events;
    }

    void onUpsertUser(final UpsertUserDecoder decoder)
    {
        final long requestId = decoder.requestId();
        final short enabled = decoder.enabledRaw();
        final short cancelOnDisconnect = decoder.fixCancelOnDisconnectRaw();
        final int throttle = decoder.throttleMessagesPerSecond();
        final short role = decoder.roleRaw();
        final int graceRaw = decoder.cancelOnDisconnectGraceMs();
        final int graceMs = graceRaw == UpsertUserDecoder.cancelOnDisconnectGraceMsNullValue() ? 0 : graceRaw;
        final UpsertUserDecoder.AccountsDecoder group = decoder.accounts();
        final int accountCount = group.count();
        final long[] accounts = new long[Math.min(accountCount, Users.MAX_ACCOUNTS + 1)];
        int read = 0;
        for (final UpsertUserDecoder.AccountsDecoder entry : group)
        {
            final long accountId = entry.accountId();
            if (read < accounts.length)
            {
                accounts[read++] = accountId;
            }
        }
        final String username = decoder.username();
        final String compId = decoder.fixSenderCompId();
        final String operator = decoder.operatorName();
        final String reason = decoder.reason();

        RejectReason refusal = RejectReason.NONE;
        if (!CommandText.isToken(username, Users.MAX_USERNAME) || enabled > 1 || cancelOnDisconnect > 1 ||
            throttle < 0 || throttle > MAX_THROTTLE || role > UserRole.CLEARING.value() ||
            graceMs < 0 || graceMs > SessionTimers.MAX_GRACE_MS ||
            accountCount < 1 || accountCount > Users.MAX_ACCOUNTS ||
            !(compId.isEmpty() || CommandText.isToken(compId, Users.MAX_COMP_ID)) || !Text.isAudited(operator, reason))
        {
            refusal = RejectReason.INVALID_ARGUMENT;
        }
        else
        {
            for (int i = 0; i < accounts.length && refusal == RejectReason.NONE; i++)
            {
                if (state.account(accounts[i]) == null)
                {
                    refusal = RejectReason.UNKNOWN_ACCOUNT;
                }
                for (int j = 0; j < i; j++)
                {
                    if (accounts[j] == accounts[i])
                    {
                        refusal = RejectReason.INVALID_ARGUMENT;
                    }
                }
            }
            final Users.User holder = compId.isEmpty() ? null : state.users.bySenderCompId(compId);
            if (refusal == RejectReason.NONE && null != holder && !holder.username.equals(username))
            {
                refusal = RejectReason.DUPLICATE_ID;
            }
        }
        if (refusal != RejectReason.NONE)
        {
            events.adminResponse(requestId, UpsertUserDecoder.TEMPLATE_ID, refusal);
            return;
        }

        Users.User user = state.users.user(username);
        if (null == user)
        {
            user = state.users.create(username);
        }
        user.enabled = enabled == 1;
        user.fixCancelOnDisconnect = cancelOnDisconnect == 1;
        user.throttleMessagesPerSecond = throttle;
        user.role = UserRole.get(role);
        user.cancelOnDisconnectGraceMs = graceMs;
        user.accounts = accounts;
        user.fixSenderCompId = compId;
        events.adminResponse(requestId, UpsertUserDecoder.TEMPLATE_ID, RejectReason.NONE);
        events.userDefinition(user, 0, 0);
    }

    void onSetUserCredential(final SetUserCredentialDecoder decoder)
    {
        final long requestId = decoder.requestId();
        final String username = decoder.username();
        final String credential = decoder.credentialHash();
        final String operator = decoder.operatorName();
        final String reason = decoder.reason();
        final Users.User user = state.users.user(username);
        RejectReason refusal = RejectReason.NONE;
        if (!CommandText.isToken(credential, Users.MAX_CREDENTIAL) || !credential.startsWith(CREDENTIAL_SCHEME) ||
            credential.split(":", -1).length != 4 || !Text.isAudited(operator, reason))
        {
            refusal = RejectReason.INVALID_ARGUMENT;
        }
        else if (null == user)
        {
            refusal = RejectReason.UNKNOWN_USER;
        }
        if (refusal != RejectReason.NONE)
        {
            events.adminResponse(requestId, SetUserCredentialDecoder.TEMPLATE_ID, refusal);
            return;
        }
        user.credentialHash = credential;
        events.adminResponse(requestId, SetUserCredentialDecoder.TEMPLATE_ID, RejectReason.NONE);
        events.userDefinition(user, 0, 0);
    }

    void onUserDirectoryRequest(final UserDirectoryRequestDecoder decoder)
    {
        final int gatewayId = decoder.gatewayId();
        final long requestId = decoder.requestId();
        for (final Users.User user : state.users.all())
        {
            events.userDefinition(user, gatewayId, requestId);
        }
        events.userDirectoryEnd(gatewayId, requestId, state.users.all().size());
    }

}
