package io.ringex.client.risk;

import java.util.Collection;

import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

import io.ringex.protocol.codecs.AccountDefinitionDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;

/**
 * Every account the engine's risk stream has told of, each kept by the stream's contract ({@link AccountRisk},
 * docs/protocol.md, "The risk stream"). Feed it every message of the risk stream ({@link #onMessage}, after
 * {@code EventBatches.unpacking}) or the two account events it keeps ({@link #onAccountRiskUpdate},
 * {@link #onAccountDefinition}); it skips the rest.
 * <p>
 * Threading: not thread safe; its owner serialises access.
 */
public final class AccountRiskBook
{
    private final Long2ObjectHashMap<AccountRisk> accounts = new Long2ObjectHashMap<>();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final AccountRiskUpdateDecoder update = new AccountRiskUpdateDecoder();
    private final AccountDefinitionDecoder definition = new AccountDefinitionDecoder();

    /**
     * Take one message of the risk stream (SBE header first) if it is an account event.
     *
     * @param buffer holding it.
     * @param offset where its header starts.
     * @return the account it changed, or null if it was not an account event.
     */
    public AccountRisk onMessage(final DirectBuffer buffer, final int offset)
    {
        header.wrap(buffer, offset);
        switch (header.templateId())
        {
            case AccountRiskUpdateDecoder.TEMPLATE_ID:
                return onAccountRiskUpdate(update.wrapAndApplyHeader(buffer, offset, header));
            case AccountDefinitionDecoder.TEMPLATE_ID:
                return onAccountDefinition(definition.wrapAndApplyHeader(buffer, offset, header));
            default:
                return null;
        }
    }

    /**
     * @param update wrapped on an AccountRiskUpdate.
     * @return the account it changed.
     */
    public AccountRisk onAccountRiskUpdate(final AccountRiskUpdateDecoder update)
    {
        final AccountRisk account = account(update.accountId());
        account.apply(update);
        return account;
    }

    /**
     * @param definition wrapped on an AccountDefinition.
     * @return the account it changed.
     */
    public AccountRisk onAccountDefinition(final AccountDefinitionDecoder definition)
    {
        final AccountRisk account = account(definition.accountId());
        account.apply(definition);
        return account;
    }

    /**
     * The reader now follows another node: every account is incomplete until that node's listing
     * ({@link AccountRisk#forgetDefinition()}).
     */
    public void forgetDefinitions()
    {
        for (final AccountRisk account : accounts.values())
        {
            account.forgetDefinition();
        }
    }

    /**
     * @param accountId an account.
     * @return what the stream told of it, or null if nothing.
     */
    public AccountRisk get(final long accountId)
    {
        return accounts.get(accountId);
    }

    /** @return every account told of; do not modify. */
    public Collection<AccountRisk> accounts()
    {
        return accounts.values();
    }

    private AccountRisk account(final long accountId)
    {
        AccountRisk account = accounts.get(accountId);
        if (account == null)
        {
            account = new AccountRisk(accountId);
            accounts.put(accountId, account);
        }
        return account;
    }
}
