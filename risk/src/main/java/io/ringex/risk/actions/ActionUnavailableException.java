package io.ringex.risk.actions;

import io.ringex.risk.aeron.OfferOutcome;

/** The command could not be put on the engine's ingress: the API answers 503 with the reason. */
public final class ActionUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient OfferOutcome outcome;

    /**
     * @param outcome why.
     */
    public ActionUnavailableException(final OfferOutcome outcome)
    {
        super(describe(outcome));
        this.outcome = outcome;
    }

    /** @return the offer's outcome. */
    public OfferOutcome outcome()
    {
        return outcome;
    }

    private static String describe(final OfferOutcome outcome)
    {
        switch (outcome)
        {
            case BACK_PRESSURED:
                return "The engine is not keeping up (back pressure): try again";
            case NOT_CONNECTED:
                return "The engine is not connected to its ingress stream";
            case NO_PRIMARY:
                return "No primary engine is known (no member claims the leadership, or the leader is silent " +
                    "while the cluster elects another): nothing was sent";
            case NOT_STARTED:
                return "The Aeron connection is not running";
            case NO_ADMIN_KEY:
                return "No admin key is configured (ringex.risk.actions.admin-key-file): the engine takes no admin " +
                    "command without one; nothing was sent";
            case CLOSED:
                return "The Aeron publication is closed (shutting down)";
            case MAX_POSITION_EXCEEDED:
                return "The Aeron publication is full: restart the risk service";
            default:
                return outcome.name();
        }
    }
}
