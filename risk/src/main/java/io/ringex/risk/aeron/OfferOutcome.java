package io.ringex.risk.aeron;

/** The end of an attempt to offer one message on a publication, after any retries. */
public enum OfferOutcome
{
    /** The message is in the publication's log. */
    SENT,
    /** The subscriber (the engine) was not keeping up for the whole retry window. */
    BACK_PRESSURED,
    /** No subscriber (the engine is down or not yet connected) for the whole retry window. */
    NOT_CONNECTED,
    /** The publication is closed: the service is shutting down. */
    CLOSED,
    /** The publication reached its maximum position: it must be recreated. */
    MAX_POSITION_EXCEEDED,
    /** The Aeron connection has not started (or failed to). */
    NOT_STARTED,
    /** With several engine nodes: none is known as primary (none claims it, or it has gone silent). */
    NO_PRIMARY,
    /** No admin key is configured: the engine takes no admin command without one, so none is sent. */
    NO_ADMIN_KEY
}
