package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.RejectReason;

/**
 * Instrument-level order validation shared by new orders and replaces: trading status, order type and time in
 * force, quantity and lot, price, tick and band, and notional overflow.
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

    static RejectReason checkOrder(
        final Instrument instrument,
        final boolean market,
        final byte timeInForce,
        final boolean postOnly,
        final long price,
        final long quantity)
    {
        if (instrument.status() != Instrument.STATUS_OPEN)
        {
            return instrument.status() == Instrument.STATUS_DELISTED ? RejectReason.INSTRUMENT_DELISTED :
                RejectReason.INSTRUMENT_HALTED;
        }
        if (market && (timeInForce == Order.TIF_GTC || timeInForce == Order.TIF_DAY || postOnly))
        {
            return RejectReason.INVALID_ORDER_TYPE;
        }
        if (postOnly && (timeInForce == Order.TIF_IOC || timeInForce == Order.TIF_FOK))
        {
            return RejectReason.INVALID_ORDER_TYPE;
        }
        return checkPriceAndQuantity(instrument, market, price, quantity);
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
