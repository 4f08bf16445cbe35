package io.ringex.client.dropcopy;

import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeBustedDecoder;

/**
 * What a {@link DropCopyClient} delivers. The decoders are flyweights over the received bytes: read during the
 * callback, keep nothing; nothing is allocated per message.
 * <p>
 * Threading: called on the thread that calls {@link DropCopyClient#poll()}.
 */
public interface DropCopyListener
{
    /**
     * A copy of an execution report of the subscription's scope, as the engine published it to the session that owns
     * the order (its {@code sessionId}, {@code accountId}); replayed or live, each exactly once, in command order.
     *
     * @param report the report; {@code commandSequence()} is where a later subscribe resumes from.
     */
    void onCopy(ExecutionReportDecoder report);

    /**
     * A trade of the scope reversed by an operator.
     *
     * @param bust the bust; {@code commandSequence()} orders it among the reports.
     */
    default void onTradeBusted(final TradeBustedDecoder bust)
    {
    }

    /**
     * The copies replayed from the engine's journal are all delivered, up to the reports of a command; live copies
     * follow, without a gap or a duplicate.
     *
     * @param lastSequence the last command the replay covered.
     */
    default void onReplayComplete(final long lastSequence)
    {
    }

    /**
     * The engine no longer keeps the reports of the commands after {@code fromSequence} up to
     * {@code firstAvailableSequence}: those are not delivered; the copies go on after it.
     *
     * @param fromSequence           as subscribed.
     * @param firstAvailableSequence copies resume after this command.
     */
    default void onGap(final long fromSequence, final long firstAvailableSequence)
    {
    }

    /**
     * The subscription is refused: {@code DROP_COPY_NOT_ALLOWED} (the user is a TRADER),
     * {@code REPLAY_UNAVAILABLE} (fromSequence is after the engine's journal, or the journal cannot be replayed),
     * {@code MALFORMED}.
     *
     * @param reason       why.
     * @param lastSequence the engine's last command, when it said.
     */
    default void onRefused(final RejectReason reason, final long lastSequence)
    {
    }

    /**
     * The gateway's answer to Logon.
     *
     * @param response ACCEPTED or REJECTED with the reason.
     */
    default void onLogonResponse(final LogonResponseDecoder response)
    {
    }

    /**
     * The gateway closed the session (logout, heartbeat timeout, or a drop-copy client too slow to keep up: resume
     * with {@link DropCopyClient#resume()} after a new logon).
     *
     * @param logout the logout.
     */
    default void onLogout(final LogoutDecoder logout)
    {
    }

    /**
     * A message refused by the gateway (throttled, malformed).
     *
     * @param reject the reject.
     */
    default void onBusinessReject(final BusinessRejectDecoder reject)
    {
    }
}
