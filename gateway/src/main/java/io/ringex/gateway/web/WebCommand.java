package io.ringex.gateway.web;

import io.ringex.common.apikey.ApiKey;
import io.netty.channel.Channel;

import java.util.Map;

/**
 * An authenticated web request handed from the web front end's event loop to the gateway's agent thread: what was
 * asked, by which key, and the connection to answer on. Built only after the request's signature was checked.
 *
 * @param kind          what is asked.
 * @param key           the key that signed it.
 * @param channel       the connection to answer on (or the user stream to register).
 * @param keepAlive     whether the HTTP connection stays open after the answer.
 * @param members       the JSON body's members (new orders, a market stream's request), or null.
 * @param clientOrderId the order named in the path (cancels), or null.
 * @param query         the query parameters (cancels, book, trades), or null.
 */
record WebCommand(
    Kind kind,
    ApiKey key,
    Channel channel,
    boolean keepAlive,
    Map<String, Object> members,
    String clientOrderId,
    Map<String, String> query)
{
    /** What a web request asks. */
    enum Kind
    {
        NEW_ORDER,
        CANCEL_ORDER,
        REPLACE_ORDER,
        CANCEL_ALL,
        ORDER_STATUS,
        OPEN_ORDERS,
        INSTRUMENTS,
        ACCOUNTS,
        BOOK,
        TRADES,
        USER_STREAM,
        MARKET_STREAM,
        MARKET_OP,
        USER_OP;

        /** @return whether a key that may only read may ask it. */
        boolean readOnly()
        {
            return this != NEW_ORDER && this != CANCEL_ORDER && this != REPLACE_ORDER && this != CANCEL_ALL;
        }
    }
}
