package io.ringex.risk.synthetic;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;

/**
 * A STAND-IN venue for tests and demos: plausible accounts, instruments, prices and fills, with none of the real
 * engine's matching or risk rules. It exists so the risk service can be shown and browser-tested before the engine
 * is ready; {@link SyntheticEngine} puts it on Aeron. Deterministic for a given seed.
 * <p>
 * Not thread-safe: driven by the synthetic engine's one agent thread.
 */
final class SyntheticVenue
{
    static final long MONEY = FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);

    final Random random;
    final Map<Integer, Instrument> instruments = new LinkedHashMap<>();
    final Map<Long, Account> accounts = new LinkedHashMap<>();
    final long[] counters = new long[16];
    final long[] rejects = new long[64];
    boolean venueKilled;
    long tradeId;
    long mdSequence;

    SyntheticVenue(final long seed)
    {
        random = new Random(seed);
        instrument(1, "BTC-USD", 2, 50, 1, 6_425_000L, 40);
        instrument(2, "ETH-USD", 2, 5, 1, 312_000L, 600);
        instrument(3, "EUR-USD", 5, 1, 1000, 108_450L, 2_000_000);
        account(1001, 1_000_000, 250_000, 50);
        account(1002, 750_000, 250_000, 50);
        account(1003, 2_000_000, 600_000, 50);
        account(1004, 600_000, 100_000, 50);
        account(1005, 60_000, 200_000, 40);
        account(1006, 2_000_000, 0, 100);
        accounts.get(1004L).openOrders = 46;
        accounts.get(1002L).openOrders = 38;
    }

    private void instrument(
        final int id,
        final String symbol,
        final int scale,
        final long tick,
        final long lot,
        final long reference,
        final long defaultLimit)
    {
        instruments.put(id, new Instrument(id, symbol, scale, tick, lot, reference, defaultLimit));
    }

    private void account(final long id, final long balanceUnits, final long creditUnits, final int maxOpenOrders)
    {
        final Account a = new Account(id);
        a.balance = balanceUnits * MONEY;
        a.creditLimit = creditUnits * MONEY;
        a.maxOpenOrders = maxOpenOrders;
        a.maxOrderQuantity = 100_000;
        a.maxOrderNotional = 500_000 * MONEY;
        a.openOrders = random.nextInt(maxOpenOrders / 3);
        accounts.put(id, a);
    }

    /** Let the mid of one instrument wander by a tick or two. */
    void moveMarket(final Instrument i)
    {
        final int step = random.nextInt(5) - 2;
        i.mid = Math.max(i.tick * 10, i.mid + step * i.tick);
    }

    /**
     * A random trade between two accounts, or a rejected order when the chosen buyer may not trade.
     *
     * @return the trade, or null if the order was rejected.
     */
    Fill randomTrade()
    {
        final List<Instrument> list = new ArrayList<>(instruments.values());
        final Instrument i = list.get(random.nextInt(list.size()));
        // Killed accounts send nothing in the background flow: the only ACCOUNT_KILLED rejects are from orders a
        // test sends on purpose.
        final List<Account> all = new ArrayList<>();
        for (final Account a : accounts.values())
        {
            if (!a.killSwitch)
            {
                all.add(a);
            }
        }
        if (all.size() < 3)
        {
            return null;
        }
        Account buyer = all.get(random.nextInt(all.size()));
        Account seller = all.get(random.nextInt(all.size()));
        while (seller == buyer)
        {
            seller = all.get(random.nextInt(all.size()));
        }
        // Account 1003 keeps buying BTC: it is the one the dashboard should show climbing towards its limit.
        if (i.id == 1 && random.nextInt(3) == 0)
        {
            if (seller.id == 1003)
            {
                seller = buyer;
            }
            final Account keen = accounts.get(1003L);
            if (!keen.killSwitch)
            {
                buyer = keen;
                if (seller == buyer)
                {
                    seller = all.get(0) == keen ? all.get(1) : all.get(0);
                }
            }
        }
        final long lots = 1 + random.nextInt(i.lot == 1 ? (i.id == 1 ? 3 : 20) : 50);
        final long quantity = lots * i.lot;
        final long notional = FixedPoint.notional(i.mid, quantity, i.scale);
        if (wouldBreach(buyer, i, quantity) || wouldBreach(seller, i, -quantity) ||
            buyer.balance - notional < -buyer.creditLimit * 95 / 100)
        {
            final Account swap = buyer;
            buyer = seller;
            seller = swap;
        }
        final Side aggressor = random.nextBoolean() ? Side.BUY : Side.SELL;
        final RejectReason refused = refusal(aggressor == Side.BUY ? buyer : seller, i);
        if (refused != RejectReason.NONE)
        {
            counters[EngineCounter.REJECTS.value()]++;
            rejects[refused.value()]++;
            return null;
        }
        final long price = i.mid + (aggressor == Side.BUY ? i.tick : -i.tick);
        return fill(i, buyer, seller, price, quantity, aggressor);
    }

    RejectReason refusal(final Account a, final Instrument i)
    {
        counters[EngineCounter.COMMANDS.value()]++;
        if (venueKilled)
        {
            return RejectReason.VENUE_KILLED;
        }
        if (a == null)
        {
            return RejectReason.UNKNOWN_ACCOUNT;
        }
        if (a.killSwitch)
        {
            return RejectReason.ACCOUNT_KILLED;
        }
        if (i == null)
        {
            return RejectReason.UNKNOWN_INSTRUMENT;
        }
        if (i.status != TradingStatus.OPEN)
        {
            return RejectReason.INSTRUMENT_HALTED;
        }
        return RejectReason.NONE;
    }

    private boolean wouldBreach(final Account a, final Instrument i, final long signedQuantity)
    {
        final Position p = a.position(i);
        return Math.abs(p.position + signedQuantity) > a.limit(i) * 97 / 100;
    }

    Fill fill(
        final Instrument i,
        final Account buyer,
        final Account seller,
        final long price,
        final long quantity,
        final Side aggressor)
    {
        counters[EngineCounter.ORDERS_ACCEPTED.value()]++;
        counters[EngineCounter.TRADES.value()]++;
        i.last = price;
        final long notional = FixedPoint.notional(price, quantity, i.scale);
        buyer.balance -= notional;
        seller.balance += notional;
        buyer.position(i).fill(quantity, price, i.scale);
        seller.position(i).fill(-quantity, price, i.scale);
        for (final Account a : new Account[] {buyer, seller})
        {
            a.openOrders = Math.max(0, Math.min(a.maxOpenOrders - 1, a.openOrders + random.nextInt(5) - 2));
            if (a.id == 1004 && !a.killSwitch)
            {
                a.openOrders = Math.max(a.openOrders, 46); // the account near its open-order limit
            }
            final Position p = a.position(i);
            p.openBuy = random.nextInt(4) * i.lot;
            p.openSell = random.nextInt(4) * i.lot;
            if (a.reserved() - a.balance > a.creditLimit * 97 / 100)
            {
                p.openBuy = 0; // a real engine would have refused the buy orders beyond the credit line
            }
        }
        return new Fill(i, ++tradeId, price, quantity, aggressor, buyer.id, seller.id);
    }

    /** A trade. */
    record Fill(Instrument instrument, long tradeId, long price, long quantity, Side aggressor, long buyAccountId,
        long sellAccountId)
    {
    }

    /** An instrument. */
    static final class Instrument
    {
        final int id;
        final String symbol;
        final int scale;
        final long tick;
        final long lot;
        final long reference;
        final long defaultLimit;
        long mid;
        long last;
        TradingStatus status = TradingStatus.OPEN;

        Instrument(final int id, final String symbol, final int scale, final long tick, final long lot,
            final long reference, final long defaultLimit)
        {
            this.id = id;
            this.symbol = symbol;
            this.scale = scale;
            this.tick = tick;
            this.lot = lot;
            this.reference = reference;
            this.defaultLimit = defaultLimit;
            this.mid = reference;
            this.last = reference;
        }
    }

    /** An account. */
    final class Account
    {
        final long id;
        long balance;
        long creditLimit;
        long maxOrderQuantity;
        long maxOrderNotional;
        int openOrders;
        int maxOpenOrders;
        boolean killSwitch;
        final Map<Integer, Long> positionLimits = new LinkedHashMap<>();
        final Map<Integer, Position> positions = new LinkedHashMap<>();

        Account(final long id)
        {
            this.id = id;
        }

        Position position(final Instrument i)
        {
            return positions.computeIfAbsent(i.id, k -> new Position());
        }

        long limit(final Instrument i)
        {
            return positionLimits.getOrDefault(i.id, i.defaultLimit);
        }

        long realised()
        {
            long sum = 0;
            for (final Position p : positions.values())
            {
                sum += p.realised;
            }
            return sum;
        }

        long unrealised()
        {
            long sum = 0;
            for (final Map.Entry<Integer, Position> e : positions.entrySet())
            {
                final Instrument i = instruments.get(e.getKey());
                sum += e.getValue().unrealised(i.last, i.scale);
            }
            return sum;
        }

        long exposure()
        {
            long sum = 0;
            for (final Map.Entry<Integer, Position> e : positions.entrySet())
            {
                final Instrument i = instruments.get(e.getKey());
                sum += FixedPoint.notional(i.last, Math.abs(e.getValue().position), i.scale);
            }
            return sum;
        }

        long reserved()
        {
            long sum = 0;
            for (final Map.Entry<Integer, Position> e : positions.entrySet())
            {
                final Instrument i = instruments.get(e.getKey());
                sum += FixedPoint.notional(i.last, e.getValue().openBuy, i.scale);
            }
            return sum;
        }
    }

    /** A position with average cost; realised P&amp;L when it shrinks. */
    static final class Position
    {
        long position;
        long averageCost;
        long realised;
        long openBuy;
        long openSell;

        void fill(final long signedQuantity, final long price, final int scale)
        {
            if (position == 0 || Long.signum(position) == Long.signum(signedQuantity))
            {
                final long total = Math.abs(position) + Math.abs(signedQuantity);
                averageCost = (averageCost * Math.abs(position) + price * Math.abs(signedQuantity)) / total;
                position += signedQuantity;
                return;
            }
            final long closed = Math.min(Math.abs(signedQuantity), Math.abs(position));
            realised += FixedPoint.notional(price - averageCost, closed, scale) * Long.signum(position);
            final long before = position;
            position += signedQuantity;
            if (position == 0)
            {
                averageCost = 0;
            }
            else if (Long.signum(position) != Long.signum(before))
            {
                averageCost = price;
            }
        }

        long unrealised(final long mark, final int scale)
        {
            return FixedPoint.notional(mark - averageCost, position, scale);
        }
    }
}
