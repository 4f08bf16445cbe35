package io.ringex.risk.web;

import java.security.Principal;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import io.ringex.risk.actions.ActionRefusedException;
import io.ringex.risk.actions.ActionRequests;
import io.ringex.risk.actions.ActionService;
import io.ringex.risk.actions.ActionUnavailableException;
import io.ringex.risk.actions.ActionView;

/**
 * Admin actions: POSTs need the RISK_OFFICER role and a CSRF token. Each answers 202 Accepted with the action's
 * {@code requestId}; the engine's verdict follows on GET /api/actions/{requestId} and the live stream. 503 when the
 * command could not be put on the engine's ingress (with a pair: also when no primary is known), 409 when the action
 * does not apply (promote without a standby, or of the primary), 400 for a malformed request.
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
     * @param user the officer.
     * @return 202 with the action.
     */
    @PostMapping("/snapshot")
    public ResponseEntity<ActionView> takeSnapshot(final Principal user)
    {
        return accepted(actions.takeSnapshot(user.getName()));
    }

    /**
     * @param request the node to promote and, optionally, the epoch.
     * @param user    the officer.
     * @return 202 with the action.
     */
    @PostMapping("/promote")
    public ResponseEntity<ActionView> promote(@RequestBody final ActionRequests.Promote request, final Principal user)
    {
        return accepted(actions.promote(request, user.getName()));
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

    /**
     * @param ex why the command could not be sent.
     * @return 503 with the reason.
     */
    @ExceptionHandler(ActionUnavailableException.class)
    public ResponseEntity<Map<String, String>> unavailable(final ActionUnavailableException ex)
    {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
            .header("Retry-After", "1")
            .body(Map.of("error", ex.outcome().name(), "message", ex.getMessage()));
    }

    /**
     * @param ex why the action does not apply (e.g. no standby to promote).
     * @return 409 with the code and reason.
     */
    @ExceptionHandler(ActionRefusedException.class)
    public ResponseEntity<Map<String, String>> refused(final ActionRefusedException ex)
    {
        return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("error", ex.code(), "message", ex.getMessage()));
    }

    /**
     * @param ex what is wrong with the request.
     * @return 400 with the reason.
     */
    @ExceptionHandler(IllegalArgumentException.class)
    public ResponseEntity<Map<String, String>> badRequest(final IllegalArgumentException ex)
    {
        return ResponseEntity.badRequest().body(Map.of("error", "BAD_REQUEST", "message", ex.getMessage()));
    }

    private static ResponseEntity<ActionView> accepted(final ActionView view)
    {
        return ResponseEntity.status(HttpStatus.ACCEPTED)
            .header("Location", "/api/actions/" + view.requestId())
            .body(view);
    }
}
