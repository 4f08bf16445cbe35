package io.ringex.risk.web;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import io.ringex.risk.audit.AdminAudit;
import io.ringex.risk.model.UserDirectory;
import io.ringex.risk.model.Views;

/**
 * What the operator console lists, for any logged-in user (VIEWER and up): the venue's users (never a credential)
 * and the admin log, the admin commands the engine answered. (The Audit tab's lifecycle replayed from the journal is
 * {@link AuditController}'s {@code /api/audit}.)
 */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
public class ConsoleReadController
{
    private final UserDirectory users;
    private final AdminAudit adminLog;

    /**
     * @param users    the user directory.
     * @param adminLog the admin commands the engine answered.
     */
    public ConsoleReadController(final UserDirectory users, final AdminAudit adminLog)
    {
        this.users = users;
        this.adminLog = adminLog;
    }

    /** @return every user by name, and whether the engine's directory has arrived. */
    @GetMapping("/users")
    public Views.UserList users()
    {
        return users.users();
    }

    /**
     * @param limit at most this many, 1 to {@code ringex.risk.admin-log.retained}; default 200.
     * @return the admin commands the engine answered since the service started, newest first.
     */
    @GetMapping("/admin-log")
    public List<AdminAudit.Entry> adminLog(@RequestParam(name = "limit", defaultValue = "200") final int limit)
    {
        if (limit < 1)
        {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "limit must be positive");
        }
        return adminLog.latest(Math.min(limit, adminLog.retained()));
    }
}
