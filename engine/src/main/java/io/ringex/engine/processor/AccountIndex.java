package io.ringex.engine.processor;

import io.ringex.engine.risk.Account;

/**
 * Accounts by id: open addressing over one array of the accounts themselves, linear probing, at most half full.
 * <p>
 * Why not a {@code Long2ObjectHashMap}: it keeps keys and values in two arrays, so every command's account lookup
 * touched two cold cache lines before the account. Here a probe compares the candidate account's own id, which sits
 * on the line of the account the command reads anyway, so a hit costs one line of the table. Ids are spread by
 * Fibonacci hashing (sequential ids are the common case). Lookup only: walks in creation order use
 * {@link EngineState}'s list, so the table's order never reaches events, the state hash or snapshots.
 * <p>
 * Threading: single business-logic thread.
 */
final class AccountIndex
{
    private static final int INITIAL_CAPACITY = 64;

    private Account[] table = new Account[INITIAL_CAPACITY];
    private int shift = 64 - Integer.numberOfTrailingZeros(INITIAL_CAPACITY);
    private int size;

    /**
     * @param accountId id.
     * @return the account or null.
     */
    Account get(final long accountId)
    {
        final Account[] table = this.table;
        final int mask = table.length - 1;
        int index = slot(accountId, shift);
        Account account;
        while ((account = table[index]) != null && account.accountId() != accountId)
        {
            index = (index + 1) & mask;
        }
        return account;
    }

    /**
     * Add an account whose id is not yet present (grows the table when it would be more than half full).
     *
     * @param account the account.
     */
    void add(final Account account)
    {
        if (2 * (size + 1) > table.length)
        {
            final Account[] old = table;
            table = new Account[old.length * 2];
            shift--;
            for (final Account existing : old)
            {
                if (existing != null)
                {
                    insert(existing);
                }
            }
        }
        insert(account);
        size++;
    }

    private void insert(final Account account)
    {
        final int mask = table.length - 1;
        int index = slot(account.accountId(), shift);
        while (table[index] != null)
        {
            index = (index + 1) & mask;
        }
        table[index] = account;
    }

    private static int slot(final long accountId, final int shift)
    {
        return (int)((accountId * 0x9E3779B97F4A7C15L) >>> shift);
    }
}
