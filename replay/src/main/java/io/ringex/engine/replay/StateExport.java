package io.ringex.engine.replay;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.engine.processor.EngineState;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.engine.risk.Settlement;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.TradingStatus;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The venue's state as data a person or a tool reads: every book (its status or trading phase, L2 levels best first
 * with what each shows and hides and every resting order in priority order, its pending stops and the market orders
 * waiting for an uncrossing in acceptance order), every account (balances, limits, kill switch, positions with
 * P&amp;L at the mark), the id counters, epoch and venue kill switch. Built as ordered maps and lists in the state's
 * own deterministic order (books and accounts in creation order), so the same state always exports to the same bytes;
 * written as JSON ({@link #json}), text ({@link #text}) or CSV ({@link #csv}).
 * <p>
 * Prices are decimals at the instrument's price scale, money at {@link FixedPoint#MONEY_SCALE}, quantities integers.
 * <p>
 * Threading: reads the state; call between commands on the thread that owns it.
 */
public final class StateExport
{
    private static final String[] TIF = { "UNKNOWN", "GTC", "IOC", "FOK", "DAY", "GTD" };
    private static final String[] TYPE = { "UNKNOWN", "LIMIT", "MARKET", "STOP", "STOP_LIMIT" };
    private static final String[] STANDING = { "UNKNOWN", "ACTIVE", "SUSPENDED", "CLOSED" };

    private StateExport()
    {
    }

    /**
     * Export the state.
     *
     * @param state        the state.
     * @param sequence     the sequence it is at (for the header).
     * @param timestampNs  that command's time.
     * @param instrumentId only this book (and positions in it), or 0 for all.
     * @param accountId    only this account (and its orders), or 0 for all.
     * @return the state as ordered maps, lists, strings, numbers and booleans.
     */
    public static Map<String, Object> export(
        final EngineState state,
        final long sequence,
        final long timestampNs,
        final int instrumentId,
        final long accountId)
    {
        final Map<String, Object> venue = new LinkedHashMap<>();
        venue.put("sequence", sequence);
        venue.put("time", Instant.ofEpochSecond(0, timestampNs).toString());
        venue.put("epoch", state.epoch());
        venue.put("venueKilled", state.venueKilled());
        venue.put("lastOrderId", state.lastOrderId());
        venue.put("lastTradeId", state.lastTradeId());
        final List<Object> books = new ArrayList<>();
        for (int i = 0, n = state.bookCount(); i < n; i++)
        {
            final OrderBook book = state.bookAt(i);
            if (instrumentId == 0 || book.instrument().instrumentId() == instrumentId)
            {
                books.add(book(state, book, accountId));
            }
        }
        venue.put("books", books);
        final List<Object> accounts = new ArrayList<>();
        for (int i = 0, n = state.accountCount(); i < n; i++)
        {
            final Account account = state.accountAt(i);
            if (accountId == 0 || account.accountId() == accountId)
            {
                accounts.add(account(state, account, instrumentId));
            }
        }
        venue.put("accounts", accounts);
        return venue;
    }

    private static Map<String, Object> book(final EngineState state, final OrderBook book, final long accountId)
    {
        final Instrument instrument = book.instrument();
        final int scale = instrument.priceScale();
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("instrumentId", instrument.instrumentId());
        out.put("symbol", symbol(instrument));
        out.put("status", status(instrument.status()));
        out.put("phaseEnd", book.phaseEndNs() == Long.MAX_VALUE ? null :
            Instant.ofEpochSecond(0, book.phaseEndNs()).toString());
        out.put("dynamicBandBasisPoints", book.dynamicBandBasisPoints());
        out.put("volatilityAuctionNs", book.volatilityAuctionNs());
        out.put("priceScale", scale);
        out.put("tickSize", price(instrument.tickSize(), scale));
        out.put("lotSize", instrument.lotSize());
        out.put("referencePrice", price(instrument.referencePrice(), scale));
        out.put("lastTradePrice", book.lastTradePrice() == 0 ? null : price(book.lastTradePrice(), scale));
        out.put("markPrice", price(book.markPrice(), scale));
        out.put("mdSequence", book.mdSequence());
        final PriceLevels levels = book.levels();
        final List<Object> bids = new ArrayList<>();
        for (int level = levels.bestBid(); level != PriceLevels.NONE; level = levels.nextBidBelow(level))
        {
            bids.add(level(levels, level, true, scale, accountId));
        }
        final List<Object> asks = new ArrayList<>();
        for (int level = levels.bestAsk(); level != PriceLevels.NONE; level = levels.nextAskAbove(level))
        {
            asks.add(level(levels, level, false, scale, accountId));
        }
        out.put("bids", bids);
        out.put("asks", asks);
        final List<Object> stops = new ArrayList<>();
        final List<Object> auctionMarketOrders = new ArrayList<>();
        for (Order order = state.orders().first(); order != null; order = order.venueNext)
        {
            if (order.instrumentId() == instrument.instrumentId() &&
                (accountId == 0 || order.accountId() == accountId))
            {
                if (order.location() == Order.AT_STOPS)
                {
                    stops.add(order(order, scale));
                }
                else if (order.location() == Order.AT_AUCTION_MARKET)
                {
                    auctionMarketOrders.add(order(order, scale));
                }
            }
        }
        out.put("stops", stops);
        out.put("auctionMarketOrders", auctionMarketOrders);
        return out;
    }

    private static String status(final byte status)
    {
        final TradingStatus known = TradingStatus.get(status);
        return known == TradingStatus.NULL_VAL ? "UNKNOWN" : known.name();
    }

    private static Map<String, Object> level(
        final PriceLevels levels, final int level, final boolean bid, final int scale, final long accountId)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("price", price(levels.price(level), scale));
        out.put("quantity", levels.quantity(level, bid));
        out.put("hiddenQuantity", levels.hiddenQuantity(level, bid));
        out.put("orderCount", levels.orderCount(level, bid));
        final List<Object> orders = new ArrayList<>();
        for (Order order = levels.head(level, bid); order != null; order = PriceLevels.next(order))
        {
            if (accountId == 0 || order.accountId() == accountId)
            {
                orders.add(order(order, scale));
            }
        }
        out.put("orders", orders);
        return out;
    }

    private static Map<String, Object> order(final Order order, final int scale)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("orderId", order.orderId());
        out.put("accountId", order.accountId());
        out.put("sessionId", order.sessionId());
        out.put("clientOrderId", text(order.clientOrderId()));
        out.put("side", order.isBuy() ? "BUY" : "SELL");
        out.put("type", TYPE[Math.max(0, Math.min(TYPE.length - 1, order.orderType()))]);
        out.put("timeInForce", TIF[Math.max(0, Math.min(TIF.length - 1, order.timeInForce()))]);
        out.put("postOnly", order.postOnly());
        out.put("price", order.orderType() == Order.TYPE_MARKET || order.orderType() == Order.TYPE_STOP ? null :
            price(order.price(), scale));
        if (order.isStop())
        {
            out.put("stopPrice", price(order.stopPrice(), scale));
        }
        if (order.displayQuantity() != 0)
        {
            out.put("displayQuantity", order.displayQuantity());
            out.put("peakLeaves", order.peakLeaves());
        }
        if (order.timeInForce() == Order.TIF_GTD)
        {
            out.put("expireTime", Instant.ofEpochSecond(0, order.expireTimeNs()).toString());
        }
        out.put("quantity", order.quantity());
        out.put("filled", order.filledQuantity());
        out.put("leaves", order.leavesQuantity());
        out.put("priority", order.priority());
        return out;
    }

    private static Map<String, Object> account(final EngineState state, final Account account, final int instrumentId)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("accountId", account.accountId());
        out.put("status", STANDING[Math.max(0, Math.min(STANDING.length - 1, account.status()))]);
        out.put("balance", money(account.balance()));
        out.put("reserved", money(account.reserved()));
        out.put("creditLimit", money(account.creditLimit()));
        out.put("maxOrderQuantity", account.maxOrderQuantity());
        out.put("maxOrderNotional", money(account.maxOrderNotional()));
        out.put("defaultPositionLimit", account.defaultPositionLimit());
        out.put("maxOpenOrders", account.maxOpenOrders());
        out.put("allowShort", account.allowShort());
        out.put("killed", account.killed());
        out.put("openOrders", account.openOrders());
        final List<Object> positions = new ArrayList<>();
        for (int i = 0, n = account.positionCount(); i < n; i++)
        {
            final Position p = account.positionAt(i);
            if (instrumentId != 0 && p.instrumentId() != instrumentId)
            {
                continue;
            }
            final OrderBook book = state.book(p.instrumentId());
            final long mark = book == null ? 0 : book.markPrice();
            final Map<String, Object> position = new LinkedHashMap<>();
            position.put("instrumentId", p.instrumentId());
            position.put("symbol", book == null ? "" : symbol(book.instrument()));
            position.put("position", p.position());
            position.put("averageCost", price(p.averageCost(), p.priceScale()));
            position.put("cost", money(p.cost()));
            position.put("realisedPnl", money(p.realisedPnl()));
            position.put("markPrice", price(mark, p.priceScale()));
            position.put("unrealisedPnl", money(Settlement.unrealisedPnl(p, mark)));
            position.put("openBuyQuantity", p.openBuyQuantity());
            position.put("openSellQuantity", p.openSellQuantity());
            position.put("positionLimit", p.positionLimit() == Position.NO_LIMIT_OVERRIDE ?
                account.defaultPositionLimit() : p.positionLimit());
            positions.add(position);
        }
        out.put("positions", positions);
        return out;
    }

    static String symbol(final Instrument instrument)
    {
        return text(instrument.symbol());
    }

    static String text(final byte[] ascii)
    {
        int end = 0;
        while (end < ascii.length && ascii[end] != 0)
        {
            end++;
        }
        return new String(ascii, 0, end, StandardCharsets.US_ASCII);
    }

    static BigDecimal price(final long value, final int scale)
    {
        return BigDecimal.valueOf(value, scale);
    }

    static BigDecimal money(final long value)
    {
        return BigDecimal.valueOf(value, FixedPoint.MONEY_SCALE);
    }

    /**
     * @param value maps, lists, strings, numbers, booleans and nulls.
     * @return compact JSON, keys in the maps' order.
     */
    public static String json(final Object value)
    {
        final StringBuilder out = new StringBuilder(4096);
        writeJson(out, value, 0, false);
        return out.toString();
    }

    /**
     * @param value maps, lists, strings, numbers, booleans and nulls.
     * @return indented JSON, keys in the maps' order.
     */
    public static String prettyJson(final Object value)
    {
        final StringBuilder out = new StringBuilder(4096);
        writeJson(out, value, 0, true);
        return out.append('\n').toString();
    }

    @SuppressWarnings("unchecked")
    private static void writeJson(final StringBuilder out, final Object value, final int depth, final boolean pretty)
    {
        if (value instanceof Map)
        {
            out.append('{');
            boolean first = true;
            for (final Map.Entry<String, Object> e : ((Map<String, Object>)value).entrySet())
            {
                out.append(first ? "" : ",");
                first = false;
                indent(out, depth + 1, pretty);
                quote(out, e.getKey());
                out.append(pretty ? ": " : ":");
                writeJson(out, e.getValue(), depth + 1, pretty);
            }
            if (!first)
            {
                indent(out, depth, pretty);
            }
            out.append('}');
        }
        else if (value instanceof List)
        {
            out.append('[');
            boolean first = true;
            for (final Object element : (List<Object>)value)
            {
                out.append(first ? "" : ",");
                first = false;
                indent(out, depth + 1, pretty);
                writeJson(out, element, depth + 1, pretty);
            }
            if (!first)
            {
                indent(out, depth, pretty);
            }
            out.append(']');
        }
        else if (value instanceof String)
        {
            quote(out, (String)value);
        }
        else if (value instanceof BigDecimal)
        {
            out.append(((BigDecimal)value).toPlainString());
        }
        else
        {
            out.append(value);
        }
    }

    private static void indent(final StringBuilder out, final int depth, final boolean pretty)
    {
        if (pretty)
        {
            out.append('\n');
            for (int i = 0; i < depth; i++)
            {
                out.append("  ");
            }
        }
    }

    static void quote(final StringBuilder out, final String text)
    {
        out.append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '"' || c == '\\')
            {
                out.append('\\').append(c);
            }
            else if (c < 0x20)
            {
                out.append(String.format("\\u%04x", (int)c));
            }
            else
            {
                out.append(c);
            }
        }
        out.append('"');
    }

    /**
     * The state for people: a header, each book as a ladder (asks above bids, best nearest the middle, each level's
     * orders in priority order), then each account with its positions.
     *
     * @param venue from {@link #export}.
     * @return the text.
     */
    @SuppressWarnings("unchecked")
    public static String text(final Map<String, Object> venue)
    {
        final StringBuilder out = new StringBuilder(4096);
        out.append(String.format("state at sequence %s (%s)  epoch %s  venue kill switch %s  last order id %s  " +
            "last trade id %s%n", venue.get("sequence"), venue.get("time"), venue.get("epoch"),
            Boolean.TRUE.equals(venue.get("venueKilled")) ? "ON" : "off", venue.get("lastOrderId"),
            venue.get("lastTradeId")));
        for (final Object b : (List<Object>)venue.get("books"))
        {
            final Map<String, Object> book = (Map<String, Object>)b;
            out.append(String.format("%nbook %s (instrument %s)  %s  last %s  mark %s  tick %s  lot %s%n",
                book.get("symbol"), book.get("instrumentId"), book.get("status"), plain(book.get("lastTradePrice")),
                plain(book.get("markPrice")), plain(book.get("tickSize")), book.get("lotSize")));
            final List<Object> asks = new ArrayList<>((List<Object>)book.get("asks"));
            java.util.Collections.reverse(asks);
            out.append(String.format("  %-5s %14s %12s %6s   %s%n", "side", "price", "quantity", "orders",
                "queue (order id account quantity-leaves)"));
            for (final Object level : asks)
            {
                ladderLine(out, "ASK", (Map<String, Object>)level);
            }
            if (asks.isEmpty() && ((List<Object>)book.get("bids")).isEmpty())
            {
                out.append("  (empty)\n");
            }
            else
            {
                out.append("  -----\n");
            }
            for (final Object level : (List<Object>)book.get("bids"))
            {
                ladderLine(out, "BID", (Map<String, Object>)level);
            }
            waitingLine(out, "stops (order id account side quantity@stop price)", (List<Object>)book.get("stops"),
                "stopPrice");
            waitingLine(out, "market orders for the uncrossing (order id account side leaves)",
                (List<Object>)book.get("auctionMarketOrders"), null);
        }
        for (final Object a : (List<Object>)venue.get("accounts"))
        {
            final Map<String, Object> account = (Map<String, Object>)a;
            out.append(String.format("%naccount %s  %s  balance %s  reserved %s  credit %s  open orders %s/%s  " +
                "kill switch %s  max qty %s  max notional %s  position limit %s  short %s%n",
                account.get("accountId"), account.get("status"), plain(account.get("balance")),
                plain(account.get("reserved")),
                plain(account.get("creditLimit")), account.get("openOrders"), account.get("maxOpenOrders"),
                Boolean.TRUE.equals(account.get("killed")) ? "ON" : "off", account.get("maxOrderQuantity"),
                plain(account.get("maxOrderNotional")), account.get("defaultPositionLimit"),
                Boolean.TRUE.equals(account.get("allowShort")) ? "allowed" : "no"));
            for (final Object p : (List<Object>)account.get("positions"))
            {
                final Map<String, Object> position = (Map<String, Object>)p;
                out.append(String.format("  %-10s position %8s  avg cost %s  realised %s  unrealised %s @ %s  " +
                    "open buy %s sell %s  limit %s%n", position.get("symbol"), position.get("position"),
                    plain(position.get("averageCost")), plain(position.get("realisedPnl")),
                    plain(position.get("unrealisedPnl")), plain(position.get("markPrice")),
                    position.get("openBuyQuantity"), position.get("openSellQuantity"),
                    position.get("positionLimit")));
            }
        }
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void ladderLine(final StringBuilder out, final String side, final Map<String, Object> level)
    {
        out.append(String.format("  %-5s %14s %12s %6s  ", side, plain(level.get("price")), level.get("quantity"),
            level.get("orderCount")));
        for (final Object o : (List<Object>)level.get("orders"))
        {
            final Map<String, Object> order = (Map<String, Object>)o;
            out.append(' ').append(order.get("orderId")).append(':').append(order.get("accountId")).append(':')
                .append(order.get("quantity")).append('-').append(order.get("leaves"));
        }
        out.append('\n');
    }

    @SuppressWarnings("unchecked")
    private static void waitingLine(
        final StringBuilder out, final String title, final List<Object> orders, final String priceKey)
    {
        if (orders.isEmpty())
        {
            return;
        }
        out.append("  ").append(title).append(':');
        for (final Object o : orders)
        {
            final Map<String, Object> order = (Map<String, Object>)o;
            out.append(' ').append(order.get("orderId")).append(':').append(order.get("accountId")).append(':')
                .append(order.get("side")).append(':').append(order.get("leaves"));
            if (priceKey != null)
            {
                out.append('@').append(plain(order.get(priceKey)));
            }
        }
        out.append('\n');
    }

    private static String plain(final Object value)
    {
        return value == null ? "-" : value instanceof BigDecimal ? ((BigDecimal)value).toPlainString() :
            value.toString();
    }

    /**
     * The state for spreadsheets: one table per kind of row (levels, orders, accounts, positions), each with a
     * header line and the record type in the first column, separated by a blank line.
     *
     * @param venue from {@link #export}.
     * @return the CSV.
     */
    @SuppressWarnings("unchecked")
    public static String csv(final Map<String, Object> venue)
    {
        final StringBuilder levels = new StringBuilder("record,sequence,instrument_id,symbol,status,side,level," +
            "price,quantity,order_count\n");
        final StringBuilder orders = new StringBuilder("record,sequence,instrument_id,symbol,side,level_price," +
            "queue_position,order_id,account_id,session_id,client_order_id,time_in_force,post_only,price,quantity," +
            "filled,leaves,priority\n");
        final Object sequence = venue.get("sequence");
        for (final Object b : (List<Object>)venue.get("books"))
        {
            final Map<String, Object> book = (Map<String, Object>)b;
            for (final String side : new String[]{ "bids", "asks" })
            {
                int index = 0;
                for (final Object l : (List<Object>)book.get(side))
                {
                    final Map<String, Object> level = (Map<String, Object>)l;
                    index++;
                    row(levels, "level", sequence, book.get("instrumentId"), book.get("symbol"), book.get("status"),
                        side.equals("bids") ? "BUY" : "SELL", index, level.get("price"), level.get("quantity"),
                        level.get("orderCount"));
                    int position = 0;
                    for (final Object o : (List<Object>)level.get("orders"))
                    {
                        final Map<String, Object> order = (Map<String, Object>)o;
                        position++;
                        row(orders, "order", sequence, book.get("instrumentId"), book.get("symbol"),
                            order.get("side"), level.get("price"), position, order.get("orderId"),
                            order.get("accountId"), order.get("sessionId"), order.get("clientOrderId"),
                            order.get("timeInForce"), order.get("postOnly"), order.get("price"),
                            order.get("quantity"), order.get("filled"), order.get("leaves"), order.get("priority"));
                    }
                }
            }
        }
        final StringBuilder accounts = new StringBuilder("record,sequence,account_id,status,balance,reserved," +
            "credit_limit," +
            "max_order_quantity,max_order_notional,default_position_limit,max_open_orders,allow_short,killed," +
            "open_orders\n");
        final StringBuilder positions = new StringBuilder("record,sequence,account_id,instrument_id,symbol," +
            "position,average_cost,cost,realised_pnl,mark_price,unrealised_pnl,open_buy_quantity," +
            "open_sell_quantity,position_limit\n");
        for (final Object a : (List<Object>)venue.get("accounts"))
        {
            final Map<String, Object> account = (Map<String, Object>)a;
            row(accounts, "account", sequence, account.get("accountId"), account.get("status"), account.get("balance"),
                account.get("reserved"), account.get("creditLimit"), account.get("maxOrderQuantity"),
                account.get("maxOrderNotional"), account.get("defaultPositionLimit"), account.get("maxOpenOrders"),
                account.get("allowShort"), account.get("killed"), account.get("openOrders"));
            for (final Object p : (List<Object>)account.get("positions"))
            {
                final Map<String, Object> position = (Map<String, Object>)p;
                row(positions, "position", sequence, account.get("accountId"), position.get("instrumentId"),
                    position.get("symbol"), position.get("position"), position.get("averageCost"),
                    position.get("cost"), position.get("realisedPnl"), position.get("markPrice"),
                    position.get("unrealisedPnl"), position.get("openBuyQuantity"),
                    position.get("openSellQuantity"), position.get("positionLimit"));
            }
        }
        return levels + "\n" + orders + "\n" + accounts + "\n" + positions;
    }

    static void row(final StringBuilder out, final Object... cells)
    {
        for (int i = 0; i < cells.length; i++)
        {
            if (i > 0)
            {
                out.append(',');
            }
            out.append(cell(cells[i]));
        }
        out.append('\n');
    }

    static String cell(final Object value)
    {
        final String text = plain(value);
        if (text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0)
        {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }
}
