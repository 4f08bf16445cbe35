package io.ringex.risk.web;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.ringex.risk.security.LoginLockout;
import io.ringex.risk.security.PasswordLogin;

/**
 * Security administration, for the ADMIN role: the logins locked out now, and the operator's unlock. A user name
 * listed here may be a mistyped one, or a password typed into the user field, which is why the list is not for
 * every viewer.
 */
@RestController
@RequestMapping(path = "/api/security", produces = "application/json")
public final class SecurityAdminController
{
    private static final Logger LOG = LoggerFactory.getLogger(SecurityAdminController.class);

    private final LoginLockout lockout;

    /**
     * @param lockout the failed-login lockout (kept in wall-clock time).
     */
    public SecurityAdminController(final LoginLockout lockout)
    {
        this.lockout = lockout;
    }

    /**
     * The body of an unlock: exactly one of the two.
     *
     * @param username a user name to unlock (any case).
     * @param address  a remote address to unlock, as listed.
     */
    public record Unlock(String username, String address)
    {
    }

    /** @return the user names and remote addresses locked out now. */
    @GetMapping("/locks")
    public List<LoginLockout.Lock> locks()
    {
        return lockout.locks(System.currentTimeMillis());
    }

    /**
     * Forget a user name's or an address's failures and lock, at once.
     *
     * @param request which.
     * @param admin   who asks (logged).
     * @return 200 with {@code unlocked}: whether anything was tracked under it; 400 without exactly one key.
     */
    @PostMapping("/unlock")
    public ResponseEntity<Map<String, Object>> unlock(@RequestBody final Unlock request, final Principal admin)
    {
        final boolean byUser = request.username() != null && !request.username().isEmpty();
        final boolean byAddress = request.address() != null && !request.address().isEmpty();
        if (byUser == byAddress)
        {
            return ResponseEntity.badRequest().body(Map.of("error", "BAD_REQUEST",
                "message", "give exactly one of username and address"));
        }
        final Map<String, Object> answer = new LinkedHashMap<>();
        final boolean unlocked;
        if (byUser)
        {
            unlocked = lockout.unlockUser(request.username());
            answer.put("username", LoginLockout.userKey(request.username()));
        }
        else
        {
            unlocked = lockout.unlockAddress(request.address());
            answer.put("address", request.address());
        }
        answer.put("unlocked", unlocked);
        LOG.warn("login unlock by=\"{}\" {}=\"{}\" tracked={}", admin.getName(), byUser ? "user" : "address",
            PasswordLogin.printable(byUser ? LoginLockout.userKey(request.username()) : request.address()), unlocked);
        return ResponseEntity.ok(answer);
    }
}
