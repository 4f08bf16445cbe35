package io.ringex.engine.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The uncrossing the slow and obvious way, for {@link ReferenceVenue}: every candidate price (each limit price in the
 * book, and the reference price) is tried by summing every order that would execute there, then the chain is applied
 * to the whole list: the largest volume, then the smallest surplus, then market pressure (all surpluses on the buy
 * side: the highest price; all on the sell side: the lowest), then the reference price if it remains, else the
 * remaining price nearest it (the higher of two equally near).
 */
final class ReferenceUncross
{
    long price;
    long matched;
    long imbalance;

    private record Candidate(long price, long buy, long sell)
    {
        long volume()
        {
            return Math.min(buy, sell);
        }

        long surplus()
        {
            return buy - sell;
        }
    }

    static ReferenceUncross compute(final ReferenceVenue venue)
    {
        final ReferenceUncross result = new ReferenceUncross();
        final TreeSet<Long> prices = new TreeSet<>(venue.bids.keySet());
        prices.addAll(venue.asks.keySet());
        final long reference = venue.reference();
        prices.add(reference);
        final List<Candidate> candidates = new ArrayList<>();
        for (final long p : prices)
        {
            long buy = 0;
            long sell = 0;
            for (final ReferenceVenue.Ord o : venue.marketBuys)
            {
                buy += o.leaves();
            }
            for (final ReferenceVenue.Ord o : venue.marketSells)
            {
                sell += o.leaves();
            }
            for (final Map.Entry<Long, List<ReferenceVenue.Ord>> level : venue.bids.entrySet())
            {
                if (level.getKey() >= p)
                {
                    for (final ReferenceVenue.Ord o : level.getValue())
                    {
                        buy += o.leaves();
                    }
                }
            }
            for (final Map.Entry<Long, List<ReferenceVenue.Ord>> level : venue.asks.entrySet())
            {
                if (level.getKey() <= p)
                {
                    for (final ReferenceVenue.Ord o : level.getValue())
                    {
                        sell += o.leaves();
                    }
                }
            }
            candidates.add(new Candidate(p, buy, sell));
        }
        final long bestVolume = candidates.stream().mapToLong(Candidate::volume).max().orElse(0);
        if (bestVolume == 0)
        {
            return result;
        }
        final List<Candidate> byVolume = candidates.stream().filter(c -> c.volume() == bestVolume).toList();
        final long bestSurplus = byVolume.stream().mapToLong(c -> Math.abs(c.surplus())).min().orElseThrow();
        final List<Candidate> best = byVolume.stream().filter(c -> Math.abs(c.surplus()) == bestSurplus).toList();
        final Candidate chosen;
        if (best.stream().allMatch(c -> c.surplus() > 0))
        {
            chosen = best.get(best.size() - 1);
        }
        else if (best.stream().allMatch(c -> c.surplus() < 0))
        {
            chosen = best.get(0);
        }
        else
        {
            Candidate nearest = null;
            for (final Candidate c : best)
            {
                if (nearest == null || Math.abs(c.price() - reference) <= Math.abs(nearest.price() - reference))
                {
                    nearest = c;
                }
            }
            chosen = best.stream().filter(c -> c.price() == reference).findFirst().orElse(nearest);
        }
        result.price = chosen.price();
        result.matched = chosen.volume();
        result.imbalance = chosen.surplus();
        return result;
    }

    /** Execute the uncrossing in the venue: market orders first, then by price and time, paired in that order. */
    void execute(final ReferenceVenue venue)
    {
        if (matched == 0)
        {
            return;
        }
        final List<ReferenceVenue.Ord> buys = new ArrayList<>(venue.marketBuys);
        venue.bids.forEach((p, level) ->
        {
            if (p >= price)
            {
                buys.addAll(level);
            }
        });
        final List<ReferenceVenue.Ord> sells = new ArrayList<>(venue.marketSells);
        venue.asks.forEach((p, level) ->
        {
            if (p <= price)
            {
                sells.addAll(level);
            }
        });
        long remaining = matched;
        int b = 0;
        int s = 0;
        while (remaining > 0)
        {
            final ReferenceVenue.Ord buy = buys.get(b);
            final ReferenceVenue.Ord sell = sells.get(s);
            final long q = Math.min(remaining, Math.min(buy.leaves(), sell.leaves()));
            fill(venue, buy, q);
            fill(venue, sell, q);
            venue.lastTradePrice = price;
            final long tradeId = ++venue.lastTradeId;
            venue.er(buy.id, buy.leaves() == 0 ? "FILL" : "PARTIAL_FILL", buy.leaves(), buy.filled, price, q, "NONE",
                "NONE");
            venue.er(sell.id, sell.leaves() == 0 ? "FILL" : "PARTIAL_FILL", sell.leaves(), sell.filled, price, q,
                "NONE", "NONE");
            venue.out.add("T " + tradeId + " " + buy.id + "/" + sell.id + " " + q + "@" + price + " A");
            venue.triggerStops(price);
            remaining -= q;
            b += buy.leaves() == 0 ? 1 : 0;
            s += sell.leaves() == 0 ? 1 : 0;
        }
        for (final List<ReferenceVenue.Ord> level : new ArrayList<>(venue.bids.values()))
        {
            refreshUsedUp(venue, level);
        }
        for (final List<ReferenceVenue.Ord> level : new ArrayList<>(venue.asks.values()))
        {
            refreshUsedUp(venue, level);
        }
    }

    private static void refreshUsedUp(final ReferenceVenue venue, final List<ReferenceVenue.Ord> level)
    {
        for (final ReferenceVenue.Ord o : new ArrayList<>(level))
        {
            if (o.display != 0 && o.peak == 0 && o.leaves() > 0)
            {
                venue.refresh(o);
            }
        }
    }

    private static void fill(final ReferenceVenue venue, final ReferenceVenue.Ord o, final long q)
    {
        o.filled += q;
        if (o.display != 0)
        {
            o.peak -= Math.min(q, o.peak);
        }
        if (o.leaves() == 0)
        {
            venue.takeOut(o);
            venue.open.remove(o.id);
        }
    }
}
