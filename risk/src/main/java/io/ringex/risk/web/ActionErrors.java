package io.ringex.risk.web;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.ringex.risk.actions.ActionRefusedException;
import io.ringex.risk.actions.ActionUnavailableException;

/**
 * How the action endpoints (the risk officer's and the console's) answer what stops an action: 503 when the command
 * could not be put on the engine's ingress, 409 when it does not apply to the venue as the service sees it, 400 for a
 * malformed request, each with {@code {"error":..., "message":...}}. Nothing was sent in any of these cases. Scoped to
 * those controllers: elsewhere an IllegalArgumentException is not the caller's fault.
 */
@RestControllerAdvice(assignableTypes = {ActionController.class, ConsoleController.class})
public final class ActionErrors
{
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
     * @param ex why the action does not apply (e.g. a user that exists).
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
}
