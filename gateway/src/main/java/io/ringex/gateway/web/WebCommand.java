package io.ringex.gateway.web;

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
 * @param members       the JSON body's members (new orders), or null.
 * @param clientOrderId the order named in the path (cancels), or null.
 * @param query         the query parameters (cancels), or null.
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
        INSTRUMENTS,
        USER_STREAM
    }
}
