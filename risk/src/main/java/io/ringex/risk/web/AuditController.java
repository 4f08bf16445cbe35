package io.ringex.risk.web;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.ringex.engine.replay.AuditTrail;
import io.ringex.risk.audit.AuditService;

/**
 * The audit page's query: the lifecycle of an order (by engine id, or by the client's id and account) or everything
 * that happened to an account in a time window, replayed from the journal (VIEWER and up). 400 for a malformed or
 * unanswerable question, 404 for an unknown order, 503 without a journal or when the audit worker is busy, 504 when
 * the replay takes too long.
 */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
public class AuditController
{
    private final AuditService audits;

    /**
     * @param audits the journal replays.
     */
    public AuditController(final AuditService audits)
    {
        this.audits = audits;
    }

    /**
     * @param order       the engine's order id.
     * @param clientOrder the client's order id (with account).
     * @param account     the account.
     * @param from        first command time, ISO-8601 (UTC if no zone).
     * @param to          last command time.
     * @param limit       most commands to list.
     * @return the trail: each command with the events of it that concern the subject.
     */
    @GetMapping("/audit")
    public Map<String, Object> audit(
        @RequestParam(name = "order", required = false) final Long order,
        @RequestParam(name = "clientOrder", required = false) final String clientOrder,
        @RequestParam(name = "account", required = false) final Long account,
        @RequestParam(name = "from", required = false) final String from,
        @RequestParam(name = "to", required = false) final String to,
        @RequestParam(name = "limit", defaultValue = "500") final int limit)
    {
        final AuditTrail.Query query;
        if (order != null)
        {
            query = AuditTrail.Query.order(positive(order, "order"));
        }
        else if (clientOrder != null && !clientOrder.isBlank())
        {
            if (account == null)
            {
                throw new AuditService.AuditRefused(400, "clientOrder needs account");
            }
            query = AuditTrail.Query.clientOrder(clientOrder.trim(), positive(account, "account"));
        }
        else if (account != null)
        {
            query = AuditTrail.Query.account(positive(account, "account"));
        }
        else
        {
            throw new AuditService.AuditRefused(400, "say whose trail: order, clientOrder with account, or account");
        }
        query.window(from == null || from.isBlank() ? Long.MIN_VALUE : time(from, "from"),
            to == null || to.isBlank() ? Long.MAX_VALUE : time(to, "to"));
        query.limit(Math.max(1, limit));
        return audits.audit(query);
    }

    /**
     * @param refused why.
     * @return its status with the reason.
     */
    @ExceptionHandler(AuditService.AuditRefused.class)
    public ResponseEntity<Map<String, String>> refused(final AuditService.AuditRefused refused)
    {
        return ResponseEntity.status(HttpStatus.valueOf(refused.status()))
            .body(Map.of("error", HttpStatus.valueOf(refused.status()).name(), "message", refused.getMessage()));
    }

    private static long positive(final long value, final String name)
    {
        if (value <= 0)
        {
            throw new AuditService.AuditRefused(400, name + " must be positive");
        }
        return value;
    }

    private static long time(final String text, final String name)
    {
        try
        {
            final Instant instant = text.endsWith("Z") || text.matches(".*[+-]\\d\\d:\\d\\d$") ?
                java.time.OffsetDateTime.parse(text).toInstant() : LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
        }
        catch (final DateTimeParseException ex)
        {
            throw new AuditService.AuditRefused(400, name + " is not an ISO-8601 time: " + text);
        }
    }
}
