package io.ringex.engine.processor;

import io.ringex.engine.risk.Account;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@link AccountIndex}: every added account is found through growth and probe chains, absent ids are not.
 * <p>
 * Threading: test thread only.
 */
final class AccountIndexTest
{
    @Test
    void findsEveryAccountThroughGrowthAndCollisions()
    {
        final AccountIndex index = new AccountIndex();
        final Account[] accounts = new Account[5_000];
        for (int i = 0; i < accounts.length; i++)
        {
            // sequential ids, ids far apart and negative ids, interleaved
            final long id = i % 3 == 0 ? i + 1 : (i % 3 == 1 ? (long)i << 40 : -i - 7);
            accounts[i] = new Account(id, (byte)1);
            index.add(accounts[i]);
            assertSame(accounts[i], index.get(id));
        }
        for (final Account account : accounts)
        {
            assertSame(account, index.get(account.accountId()));
        }
        assertNull(index.get(0));
        assertNull(index.get(Long.MAX_VALUE));
        assertNull(index.get(5_001L << 40));
    }
}
