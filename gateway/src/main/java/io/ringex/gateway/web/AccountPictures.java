package io.ringex.gateway.web;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.BooleanType;
import org.agrona.collections.Long2ObjectHashMap;

import java.math.BigDecimal;
import java.util.TreeMap;

/**
 * Each account's balances and positions as the followed engine's risk stream gives them (docs/protocol.md, "The risk
 * stream"), for {@code GET /api/v1/accounts}: an AccountRiskUpdate's totals replace the last ones; a position it names
 * replaces the one held, and one named flat (no position, no open orders) is dropped; positions it does not name are
 * kept. The engine sends every account's whole picture periodically, so a gateway that started late is right after
 * the next one.
 * <p>
 * Threading: the gateway's agent thread only.
 */
final class AccountPictures
{
    private final Long2ObjectHashMap<Picture> byAccount = new Long2ObjectHashMap<>();

    private static final class Picture
    {
        long timestampNs;
        long balance;
        long reserved;
        long realisedPnl;
        long unrealisedPnl;
        long exposure;
        long creditLimit;
        int openOrders;
        boolean killSwitch;
        final TreeMap<Integer, long[]> positions = new TreeMap<>();
    }

    /** Position fields kept, in the order of the schema's group. */
    private static final int POSITION = 0;
    private static final int AVERAGE_COST = 1;
    private static final int REALISED = 2;
    private static final int UNREALISED = 3;
    private static final int OPEN_BUY = 4;
    private static final int OPEN_SELL = 5;
    private static final int MARK = 6;

    /**
     * Take one update (validated by its reader).
     *
     * @param update the message, wrapped.
     */
    void onUpdate(final AccountRiskUpdateDecoder update)
    {
        Picture picture = byAccount.get(update.accountId());
        if (null == picture)
        {
            picture = new Picture();
            byAccount.put(update.accountId(), picture);
        }
        picture.timestampNs = update.timestampNs();
        picture.balance = update.balance();
        picture.reserved = update.reserved();
        picture.realisedPnl = update.realisedPnl();
        picture.unrealisedPnl = update.unrealisedPnl();
        picture.exposure = update.exposure();
        picture.creditLimit = update.creditLimit();
        picture.openOrders = update.openOrders();
        picture.killSwitch = update.killSwitch() == BooleanType.TRUE;
        for (final AccountRiskUpdateDecoder.PositionsDecoder position : update.positions())
        {
            if (position.position() == 0 && position.openBuyQuantity() == 0 && position.openSellQuantity() == 0)
            {
                picture.positions.remove(position.instrumentId());
            }
            else
            {
                picture.positions.put(position.instrumentId(), new long[]{ position.position(),
                    position.averageCost(), position.realisedPnl(), position.unrealisedPnl(),
                    position.openBuyQuantity(), position.openSellQuantity(), position.markPrice() });
            }
        }
    }

    /**
     * Append one account as JSON: its totals and positions, or {@code "known":false} if no update was seen yet.
     *
     * @param json        to append to.
     * @param accountId   the account.
     * @param instruments symbols and price scales.
     * @return json.
     */
    StringBuilder append(final StringBuilder json, final long accountId, final InstrumentDirectory instruments)
    {
        json.append("{\"accountId\":").append(accountId);
        final Picture picture = byAccount.get(accountId);
        if (null == picture)
        {
            return json.append(",\"known\":false}");
        }
        json.append(",\"known\":true,\"timeNs\":").append(picture.timestampNs);
        money(json, "balance", picture.balance);
        money(json, "reserved", picture.reserved);
        money(json, "realisedPnl", picture.realisedPnl);
        money(json, "unrealisedPnl", picture.unrealisedPnl);
        money(json, "exposure", picture.exposure);
        money(json, "creditLimit", picture.creditLimit);
        json.append(",\"openOrders\":").append(picture.openOrders).append(",\"killSwitch\":")
            .append(picture.killSwitch).append(",\"positions\":[");
        boolean first = true;
        for (final var entry : picture.positions.entrySet())
        {
            final long[] p = entry.getValue();
            final String symbol = instruments.symbol(entry.getKey());
            final int scale = Math.max(0, instruments.priceScale(entry.getKey()));
            json.append(first ? "" : ",").append("{\"instrumentId\":").append(entry.getKey()).append(",\"symbol\":");
            FlatJson.quote(json, null == symbol ? "" : symbol).append(",\"position\":\"").append(p[POSITION])
                .append("\",\"averageCost\":\"").append(BigDecimal.valueOf(p[AVERAGE_COST], scale).toPlainString())
                .append('"');
            money(json, "realisedPnl", p[REALISED]);
            money(json, "unrealisedPnl", p[UNREALISED]);
            json.append(",\"openBuyQuantity\":\"").append(p[OPEN_BUY]).append("\",\"openSellQuantity\":\"")
                .append(p[OPEN_SELL]).append("\",\"markPrice\":");
            if (p[MARK] == AccountRiskUpdateDecoder.PositionsDecoder.markPriceNullValue())
            {
                json.append("null}");
            }
            else
            {
                json.append('"').append(BigDecimal.valueOf(p[MARK], scale).toPlainString()).append("\"}");
            }
            first = false;
        }
        return json.append("]}");
    }

    private static void money(final StringBuilder json, final String name, final long value)
    {
        json.append(",\"").append(name).append("\":\"")
            .append(BigDecimal.valueOf(value, FixedPoint.MONEY_SCALE).stripTrailingZeros().toPlainString()).append('"');
    }
}
