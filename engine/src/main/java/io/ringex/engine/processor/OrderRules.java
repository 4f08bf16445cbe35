package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.RejectReason;

/**
 * Instrument-level order validation shared by new orders and replaces, in this order (the first failure is the
 * reason): trading status; order type, time in force and their combinations with post-only, display and minimum
 * quantities; what the phase refuses; quantity and lot, price, tick and band, notional overflow; the stop price,
 * display quantity, minimum quantity and expire time.
 * <p>
 * Notional overflow is checked at the band's highest price, not the order's own: a sell at a low limit may trade
 * higher, and every fill's notional must fit an int64.
 * <p>
 * Threading: stateless.
 */
final class OrderRules
{
    private OrderRules()
    {
    }

    /**
     * Check a new order (its fields set with {@link Order#init} and {@link Order#terms}).
     *
     * @param book        its book.
     * @param order       the order.
     * @param minQuantity its minimum quantity, 0 for none.
     * @param nowNs       the command's time (a GTD expiry must be later).
     * @return NONE or the reason.
     */
    static RejectReason checkNew(final OrderBook book, final Order order, final long minQuantity, final long nowNs)
    {
        final Instrument instrument = book.instrument();
        final RejectReason status = checkStatus(instrument);
        if (status != RejectReason.NONE)
        {
            return status;
        }
        final byte type = order.orderType();
        final byte tif = order.timeInForce();
        final boolean immediate = tif == Order.TIF_IOC || tif == Order.TIF_FOK;
        final boolean stop = order.isStop();
        if ((type == Order.TYPE_MARKET && (!immediate || order.postOnly())) ||
            (stop && (immediate || order.postOnly() || order.displayQuantity() != 0 || minQuantity != 0)) ||
            (order.postOnly() && immediate) ||
            (order.displayQuantity() != 0 && (immediate || type == Order.TYPE_MARKET)))
        {
            return RejectReason.INVALID_ORDER_TYPE;
        }
        if (instrument.inCallPhase() &&
            (tif == Order.TIF_FOK || order.postOnly() || (tif == Order.TIF_IOC && minQuantity != 0)))
        {
            return RejectReason.NOT_ALLOWED_IN_PHASE;
        }
        final RejectReason reason = checkPriceAndQuantity(instrument, order.isMarketLike(), order.price(),
            order.quantity());
        if (reason != RejectReason.NONE)
        {
            return reason;
        }
        if (stop ? !isValidStop(book, order.isBuy(), order.stopPrice()) : order.stopPrice() != 0)
        {
            return RejectReason.INVALID_STOP_PRICE;
        }
        if (!isValidPart(instrument, order.displayQuantity(), order.quantity()))
        {
            return RejectReason.INVALID_DISPLAY_QUANTITY;
        }
        if (!isValidPart(instrument, minQuantity, order.quantity()))
        {
            return RejectReason.INVALID_MIN_QUANTITY;
        }
        if (tif == Order.TIF_GTD ? order.expireTimeNs() <= nowNs : order.expireTimeNs() != 0)
        {
            return RejectReason.INVALID_EXPIRE_TIME;
        }
        return RejectReason.NONE;
    }

    /**
     * New orders and replaces are taken in continuous trading and in call phases; refused while halted or closed.
     *
     * @param instrument the instrument.
     * @return NONE, INSTRUMENT_DELISTED or INSTRUMENT_HALTED.
     */
    static RejectReason checkStatus(final Instrument instrument)
    {
        final byte status = instrument.status();
        if (status == Instrument.STATUS_OPEN || Instrument.isCallPhase(status))
        {
            return RejectReason.NONE;
        }
        return status == Instrument.STATUS_DELISTED ? RejectReason.INSTRUMENT_DELISTED : RejectReason.INSTRUMENT_HALTED;
    }

    /**
     * A stop price must be on the tick, within the band, and not reached yet: a buy stop above the last trade price
     * (the reference price before the first trade), a sell stop below.
     *
     * @param book      the book.
     * @param buy       side.
     * @param stopPrice the stop price.
     * @return true if acceptable.
     */
    static boolean isValidStop(final OrderBook book, final boolean buy, final long stopPrice)
    {
        final Instrument instrument = book.instrument();
        if (stopPrice <= 0 || stopPrice % instrument.tickSize() != 0 || stopPrice < instrument.minPrice() ||
            stopPrice > instrument.maxPrice())
        {
            return false;
        }
        final long last = book.dynamicReferencePrice();
        return buy ? stopPrice > last : stopPrice < last;
    }

    private static boolean isValidPart(final Instrument instrument, final long part, final long quantity)
    {
        return part == 0 || (part > 0 && part <= quantity && part % instrument.lotSize() == 0);
    }

    static RejectReason checkPriceAndQuantity(
        final Instrument instrument, final boolean market, final long price, final long quantity)
    {
        if (quantity <= 0)
        {
            return RejectReason.INVALID_QUANTITY;
        }
        if (quantity % instrument.lotSize() != 0)
        {
            return RejectReason.INVALID_LOT;
        }
        if (!market)
        {
            if (price <= 0)
            {
                return RejectReason.INVALID_PRICE;
            }
            if (price % instrument.tickSize() != 0)
            {
                return RejectReason.INVALID_TICK;
            }
            if (price < instrument.minPrice() || price > instrument.maxPrice())
            {
                return RejectReason.PRICE_OUTSIDE_BAND;
            }
        }
        if (FixedPoint.notional(instrument.maxPrice(), quantity, instrument.priceScale()) == FixedPoint.INVALID)
        {
            return RejectReason.NOTIONAL_OVERFLOW;
        }
        return RejectReason.NONE;
    }
}
