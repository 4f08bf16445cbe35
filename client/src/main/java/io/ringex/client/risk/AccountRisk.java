package io.ringex.client.risk;

import java.util.Collection;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;
import org.agrona.collections.Long2LongHashMap;

import io.ringex.protocol.codecs.AccountDefinitionDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.SelfTradePrevention;

/**
 * One account as the engine's risk stream tells it, kept by the stream's contract (docs/protocol.md, "The risk
 * stream"): an AccountRiskUpdate's totals replace the last ones and each position it names replaces that position,
 * whole; a position it does not name is unchanged; a position named flat (no position, no open orders) is gone. An
 * AccountDefinition replaces the standing and limits and lists every position the engine holds for the account: a
 * position held here that it does not list is not the engine's (a reader that followed another node) and is dropped.
 * <p>
 * What a reader must know: the positions are {@link #complete()} only once a whole listing has arrived and every
 * position it lists has been named since (the engine's refresh sends both, every 5 status intervals). Before that,
 * a reader that joined late or missed an update may lack positions the engine holds; it must say so, not show less.
 * <p>
 * Threading: not thread safe; its owner serialises access. Nothing is allocated once its positions exist.
 */
public final class AccountRisk
{
    /** {@link #ownPositionLimit(int)} of an instrument whose limit is the account's default. */
    public static final long DEFAULT_LIMIT = -1;

    private final long accountId;
    private final Int2ObjectHashMap<Position> positions = new Int2ObjectHashMap<>();
    private final IntHashSet pending = new IntHashSet();
    private final IntHashSet listing = new IntHashSet();
    private Long2LongHashMap ownLimits = new Long2LongHashMap(DEFAULT_LIMIT);
    private Long2LongHashMap listingLimits = new Long2LongHashMap(DEFAULT_LIMIT);
    private int nextListed = -1;
    private int openPositionCount;

    private boolean riskKnown;
    private long timestampNs;
    private long balance;
    private long reserved;
    private long realisedPnl;
    private long unrealisedPnl;
    private long exposure;
    private long creditLimit;
    private long maxOrderQuantity;
    private long maxOrderNotional;
    private int openOrders;
    private int maxOpenOrders;
    private boolean killSwitch;

    private boolean defined;
    private AccountStatus status;
    private SelfTradePrevention selfTradePrevention;
    private long defaultPositionLimit;
    private boolean allowShort;

    /**
     * @param accountId the account.
     */
    public AccountRisk(final long accountId)
    {
        this.accountId = accountId;
    }

    /**
     * Take an AccountRiskUpdate of this account: the totals and the positions it names.
     *
     * @param update wrapped on the event.
     */
    public void apply(final AccountRiskUpdateDecoder update)
    {
        riskKnown = true;
        timestampNs = update.timestampNs();
        balance = update.balance();
        reserved = update.reserved();
        realisedPnl = update.realisedPnl();
        unrealisedPnl = update.unrealisedPnl();
        exposure = update.exposure();
        creditLimit = update.creditLimit();
        maxOrderQuantity = update.maxOrderQuantity();
        maxOrderNotional = update.maxOrderNotional();
        openOrders = update.openOrders();
        maxOpenOrders = update.maxOpenOrders();
        killSwitch = update.killSwitch() == BooleanType.TRUE;
        for (final AccountRiskUpdateDecoder.PositionsDecoder entry : update.positions())
        {
            final int instrumentId = entry.instrumentId();
            Position position = positions.get(instrumentId);
            if (position == null)
            {
                position = new Position(instrumentId);
                positions.put(instrumentId, position);
            }
            else if (!position.isFlat())
            {
                openPositionCount--;
            }
            position.position = entry.position();
            position.averageCost = entry.averageCost();
            position.realisedPnl = entry.realisedPnl();
            position.unrealisedPnl = entry.unrealisedPnl();
            position.openBuyQuantity = entry.openBuyQuantity();
            position.openSellQuantity = entry.openSellQuantity();
            position.positionLimit = entry.positionLimit();
            position.markPrice = entry.markPrice();
            if (!position.isFlat())
            {
                openPositionCount++;
            }
            pending.remove(instrumentId);
        }
    }

    /**
     * Take an AccountDefinition of this account (one part of it, when its positions are listed over several): the
     * standing and limits, and the list of the positions the engine holds.
     *
     * @param definition wrapped on the event.
     */
    public void apply(final AccountDefinitionDecoder definition)
    {
        status = definition.status();
        selfTradePrevention = definition.selfTradePrevention();
        maxOrderQuantity = definition.maxOrderQuantity();
        maxOrderNotional = definition.maxOrderNotional();
        creditLimit = definition.creditLimit();
        defaultPositionLimit = definition.defaultPositionLimit();
        maxOpenOrders = definition.maxOpenOrders();
        allowShort = definition.allowShort() == BooleanType.TRUE;
        final int positionCount = definition.positionCount();
        final int first = definition.firstPosition();
        if (first == 0)
        {
            listing.clear();
            listingLimits.clear();
            nextListed = 0;
        }
        else if (first != nextListed)
        {
            nextListed = -1; // a part was missed: this listing is not whole; the next refresh brings another
        }
        for (final AccountDefinitionDecoder.PositionsDecoder entry : definition.positions())
        {
            if (nextListed >= 0)
            {
                listing.add(entry.instrumentId());
                if (entry.positionLimit() != DEFAULT_LIMIT)
                {
                    listingLimits.put(entry.instrumentId(), entry.positionLimit());
                }
                nextListed++;
            }
        }
        if (nextListed >= 0 && nextListed >= positionCount)
        {
            endListing();
        }
    }

    private void endListing()
    {
        nextListed = -1;
        final Long2LongHashMap limits = ownLimits;
        ownLimits = listingLimits;
        listingLimits = limits;
        listingLimits.clear();
        final Int2ObjectHashMap<Position>.ValueIterator held = positions.values().iterator();
        while (held.hasNext())
        {
            final Position position = held.next();
            if (!listing.contains(position.instrumentId))
            {
                if (!position.isFlat())
                {
                    openPositionCount--;
                }
                held.remove();
            }
        }
        pending.clear();
        for (final IntHashSet.IntIterator listed = listing.iterator(); listed.hasNext(); )
        {
            final int instrumentId = listed.nextValue();
            if (!positions.containsKey(instrumentId))
            {
                pending.add(instrumentId);
            }
        }
        defined = true;
    }

    /**
     * The reader now follows another node (a failover): what is held stays shown, but is not complete again until
     * that node's listing has arrived (and drops what it does not hold).
     */
    public void forgetDefinition()
    {
        defined = false;
        nextListed = -1;
        pending.clear();
    }

    /**
     * @return an AccountDefinition's whole listing has arrived and every position it listed has been named since:
     *         the positions held are every position the engine holds (until an update is missed).
     */
    public boolean complete()
    {
        return riskKnown && defined && pending.isEmpty();
    }

    /** @return a whole AccountDefinition has arrived: standing and limits are known. */
    public boolean defined()
    {
        return defined;
    }

    /** @return an AccountRiskUpdate has arrived: the totals are known. */
    public boolean riskKnown()
    {
        return riskKnown;
    }

    /** @return the account. */
    public long accountId()
    {
        return accountId;
    }

    /** @return engine time of the last AccountRiskUpdate, ns since the epoch. */
    public long timestampNs()
    {
        return timestampNs;
    }

    /** @return cash, money (10^8). */
    public long balance()
    {
        return balance;
    }

    /** @return held by open buy orders, money. */
    public long reserved()
    {
        return reserved;
    }

    /** @return realised P&amp;L of every position, money. */
    public long realisedPnl()
    {
        return realisedPnl;
    }

    /** @return unrealised P&amp;L of every position at the marks, money. */
    public long unrealisedPnl()
    {
        return unrealisedPnl;
    }

    /** @return sum of |position| x mark over every position, money. */
    public long exposure()
    {
        return exposure;
    }

    /** @return how far cash may go below zero, money. */
    public long creditLimit()
    {
        return creditLimit;
    }

    /** @return largest order quantity. */
    public long maxOrderQuantity()
    {
        return maxOrderQuantity;
    }

    /** @return largest order notional, money. */
    public long maxOrderNotional()
    {
        return maxOrderNotional;
    }

    /** @return resting orders. */
    public int openOrders()
    {
        return openOrders;
    }

    /** @return most resting orders. */
    public int maxOpenOrders()
    {
        return maxOpenOrders;
    }

    /** @return the account's kill switch is on. */
    public boolean killSwitch()
    {
        return killSwitch;
    }

    /** @return its standing, null before a definition. */
    public AccountStatus status()
    {
        return status;
    }

    /** @return the default self-trade prevention of its orders, null before a definition. */
    public SelfTradePrevention selfTradePrevention()
    {
        return selfTradePrevention;
    }

    /** @return the position limit of every instrument without its own. */
    public long defaultPositionLimit()
    {
        return defaultPositionLimit;
    }

    /** @return sells beyond the position are allowed (within the limit). */
    public boolean allowShort()
    {
        return allowShort;
    }

    /**
     * @param instrumentId an instrument.
     * @return its own position limit (a SetLimits override), or {@link #DEFAULT_LIMIT}.
     */
    public long ownPositionLimit(final int instrumentId)
    {
        return ownLimits.get(instrumentId);
    }

    /** @return the instruments with a position limit of their own (keys), with it; do not modify. */
    public Long2LongHashMap ownPositionLimits()
    {
        return ownLimits;
    }

    /**
     * @param instrumentId an instrument.
     * @return the position as last named (flat ones included), or null.
     */
    public Position position(final int instrumentId)
    {
        return positions.get(instrumentId);
    }

    /** @return every position held, flat ones included ({@link Position#isFlat()}); do not modify. */
    public Collection<Position> positions()
    {
        return positions.values();
    }

    /** @return positions held that are not flat. */
    public int openPositionCount()
    {
        return openPositionCount;
    }

    /** One position as the engine last named it. */
    public static final class Position
    {
        private final int instrumentId;
        private long position;
        private long averageCost;
        private long realisedPnl;
        private long unrealisedPnl;
        private long openBuyQuantity;
        private long openSellQuantity;
        private long positionLimit;
        private long markPrice;

        Position(final int instrumentId)
        {
            this.instrumentId = instrumentId;
        }

        /** @return the instrument. */
        public int instrumentId()
        {
            return instrumentId;
        }

        /** @return signed net quantity. */
        public long position()
        {
            return position;
        }

        /** @return average cost, price at the instrument's scale. */
        public long averageCost()
        {
            return averageCost;
        }

        /** @return money. */
        public long realisedPnl()
        {
            return realisedPnl;
        }

        /** @return money, at the mark. */
        public long unrealisedPnl()
        {
            return unrealisedPnl;
        }

        /** @return units on open buy orders. */
        public long openBuyQuantity()
        {
            return openBuyQuantity;
        }

        /** @return units on open sell orders. */
        public long openSellQuantity()
        {
            return openSellQuantity;
        }

        /** @return the limit that applies (its own or the account's default), open orders counted. */
        public long positionLimit()
        {
            return positionLimit;
        }

        /** @return the mark price, or the schema's null value before the instrument's first mark. */
        public long markPrice()
        {
            return markPrice;
        }

        /** @return no position and no open orders: nothing at risk, and not shown. */
        public boolean isFlat()
        {
            return position == 0 && openBuyQuantity == 0 && openSellQuantity == 0;
        }
    }
}
