package io.ringex.gateway;

import io.ringex.gateway.auth.User;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestEncoder;
import org.agrona.MutableDirectBuffer;

/**
 * The gateway's half of a mass status: the engine reports only the orders of the accounts the request names in its
 * accounts group, and that group is the gateway's to write, from the session's user (every account of the user, or
 * the one account asked about, which the gateway has checked is the user's). Whatever a client put in the group is
 * replaced, so a client can never see another account's orders.
 * <p>
 * Thread safety: single-threaded (a reused encoder). Allocates nothing.
 */
public final class StatusRequests
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    private final OrderMassStatusRequestEncoder encoder = new OrderMassStatusRequestEncoder();

    /**
     * Write the accounts group of an OrderMassStatusRequest whose header and root block (current version) are
     * already in the buffer, replacing anything after the root block.
     *
     * @param user      the session's user.
     * @param accountId the account asked about, or 0 for all the user's.
     * @param buffer    holding the request at offset 0.
     * @return the request's length with the group.
     */
    public int writeAccounts(final User user, final long accountId, final MutableDirectBuffer buffer)
    {
        encoder.wrap(buffer, HEADER_LENGTH);
        if (accountId != 0)
        {
            encoder.accountsCount(1).next().accountId(accountId);
        }
        else
        {
            final int count = user.accountCount();
            final OrderMassStatusRequestEncoder.AccountsEncoder group = encoder.accountsCount(count);
            for (int i = 0; i < count; i++)
            {
                group.next().accountId(user.account(i));
            }
        }
        return HEADER_LENGTH + encoder.encodedLength();
    }
}
