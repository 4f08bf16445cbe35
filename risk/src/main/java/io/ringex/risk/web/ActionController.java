package io.ringex.risk.web;

import java.security.Principal;
import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import io.ringex.risk.actions.ActionRequests;
import io.ringex.risk.actions.ActionService;
import io.ringex.risk.actions.ActionView;

/**
 * Admin actions: POSTs need the RISK_OFFICER role and a CSRF token, and carry the officer's reason. Each answers 202
 * Accepted with the action's {@code requestId}; the engine's verdict follows on GET /api/actions/{requestId} and the
 * live stream. 503 when the command could not be put on the engine's ingress (with several engine nodes: also when no
 * primary is known, as while a cluster elects a new leader), 400 for a malformed request ({@link ActionErrors}).
 */
@RestController
@RequestMapping(path = "/api/actions", produces = "application/json")
public class ActionController
{
    private final ActionService actions;

    /**
     * @param actions the action tracker.
     */
    public ActionController(final ActionService actions)
    {
        this.actions = actions;
    }

    /**
     * @param request the account's new limits, replacing the old whole.
     * @param user    the officer.
     * @return 202 with the action.
     */
    @PostMapping("/limits")
    public ResponseEntity<ActionView> setLimits(
        @RequestBody final ActionRequests.SetLimits request, final Principal user)
    {
        return accepted(actions.setLimits(request, user.getName()));
    }

    /**
     * @param request ACCOUNT or VENUE, on or off.
     * @param user    the officer.
     * @return 202 with the action.
     */
    @PostMapping("/kill-switch")
    public ResponseEntity<ActionView> killSwitch(
        @RequestBody final ActionRequests.KillSwitch request, final Principal user)
    {
        return accepted(actions.killSwitch(request, user.getName()));
    }

    /**
     * @param request instrument and OPEN, HALTED or CLOSED.
     * @param user    the officer.
     * @return 202 with the action.
     */
    @PostMapping("/trading-status")
    public ResponseEntity<ActionView> tradingStatus(
        @RequestBody final ActionRequests.TradingStatus request, final Principal user)
    {
        return accepted(actions.tradingStatus(request, user.getName()));
    }

    /**
     * Lift the gateways' logon lockouts (ADMIN): the engine journals who asked and why, and every gateway applies it.
     *
     * @param request the user name and/or address, and why.
     * @param user    the admin.
     * @return 202 with the action.
     */
    @PostMapping("/unlock-logons")
    public ResponseEntity<ActionView> unlockLogons(
        @RequestBody final ActionRequests.UnlockLogons request, final Principal user)
    {
        return accepted(actions.unlockLogons(request, user.getName()));
    }

    /**
     * @param request why, or no body: a snapshot changes nothing in the venue.
     * @param user    the officer.
     * @return 202 with the action.
     */
    @PostMapping("/snapshot")
    public ResponseEntity<ActionView> takeSnapshot(
        @RequestBody(required = false) final ActionRequests.TakeSnapshot request, final Principal user)
    {
        return accepted(actions.takeSnapshot(request == null ? null : request.reason(), user.getName()));
    }

    /** @return recent actions, newest first. */
    @GetMapping
    public List<ActionView> recent()
    {
        return actions.recent();
    }

    /**
     * @param requestId the request.
     * @return the action as it stands.
     */
    @GetMapping("/{requestId}")
    public ActionView find(@PathVariable("requestId") final long requestId)
    {
        final ActionView view = actions.find(requestId);
        if (view == null)
        {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No action " + requestId);
        }
        return view;
    }

    static ResponseEntity<ActionView> accepted(final ActionView view)
    {
        return ResponseEntity.status(HttpStatus.ACCEPTED)
            .header("Location", "/api/actions/" + view.requestId())
            .body(view);
    }
}
