package io.ringex.risk.web;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.ringex.common.apikey.ApiKey;
import io.ringex.common.apikey.ApiKeys;
import io.ringex.common.apikey.ApiKeysFile;
import io.ringex.risk.config.RiskProperties;
import io.ringex.risk.model.UserDirectory;
import io.ringex.risk.security.PasswordLogin;

/**
 * The gateways' API keys (the REST and WebSocket front end), for the ADMIN role ({@code /api/security/**}): the keys
 * in the file {@code ringex.risk.security.api-keys-file} names, a new key (its secret in the answer, the only time it
 * is shown) and a revocation, the same changes as {@code ./ringex admin apikey} makes to the same file, which every
 * gateway reading it takes within a second. A key is for a user the engine's directory holds. Each change is logged at
 * WARN with the ADMIN who made it (never a secret). 503 {@code NO_API_KEYS_FILE} when no file is configured; 400 with
 * the reason for a key id, address or user the file's rules refuse; 409 {@code UNKNOWN_USER} for a user the engine
 * does not know.
 */
@RestController
@RequestMapping(path = "/api/security/api-keys", produces = "application/json")
public final class ApiKeysController
{
    private static final Logger LOG = LoggerFactory.getLogger(ApiKeysController.class);

    private final String file;
    private final UserDirectory users;

    /**
     * @param properties {@code ringex.risk.security.api-keys-file}.
     * @param users      the engine's user directory.
     */
    public ApiKeysController(final RiskProperties properties, final UserDirectory users)
    {
        this.file = properties.security().apiKeysFile();
        this.users = users;
    }

    /**
     * A new key.
     *
     * @param keyId     its id (8 to 64 of {@code A-Z a-z 0-9 - _}).
     * @param username  the user it acts as.
     * @param trade     whether it may trade (else read only).
     * @param addresses the addresses and networks it may be used from, comma-separated; empty or null for any.
     */
    public record NewKey(String keyId, String username, boolean trade, String addresses)
    {
    }

    /**
     * A revocation.
     *
     * @param keyId the key.
     */
    public record Revoke(String keyId)
    {
    }

    /** @return the file and its keys (never a secret), or 503 when none is configured. */
    @GetMapping
    public ResponseEntity<Map<String, Object>> list()
    {
        if (file.isEmpty())
        {
            return notConfigured();
        }
        final List<Map<String, Object>> keys = new ArrayList<>();
        if (Files.exists(Path.of(file)))
        {
            try
            {
                ApiKeys.load(Path.of(file)).keys().forEach(key -> keys.add(view(key)));
            }
            catch (final IllegalArgumentException ex)
            {
                return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("error", "API_KEYS_FILE_UNREADABLE",
                    "message", ex.getMessage()));
            }
        }
        return ResponseEntity.ok(Map.of("file", file, "keys", keys));
    }

    /**
     * @param request the new key.
     * @param admin   who asks (logged).
     * @return 201 with the key and its secret (base64), shown this once.
     */
    @PostMapping("/create")
    public synchronized ResponseEntity<Map<String, Object>> create(
        @RequestBody final NewKey request, final Principal admin)
    {
        if (file.isEmpty())
        {
            return notConfigured();
        }
        if (null == request.keyId() || null == request.username())
        {
            return refused(HttpStatus.BAD_REQUEST, "BAD_REQUEST", "keyId and username are required");
        }
        if (null == users.user(request.username()))
        {
            return refused(HttpStatus.CONFLICT, "UNKNOWN_USER", "the engine's directory has no user " +
                PasswordLogin.printable(request.username()));
        }
        final ApiKey key;
        try
        {
            final String addresses = null == request.addresses() ? "" : request.addresses().trim();
            key = ApiKeysFile.create(Path.of(file), request.keyId(), request.username(), request.trade(),
                addresses.isEmpty() ? List.of() : ApiKeys.addresses(addresses));
        }
        catch (final IllegalArgumentException ex)
        {
            return refused(HttpStatus.BAD_REQUEST, "BAD_REQUEST", ex.getMessage());
        }
        LOG.warn("API key created by=\"{}\" key=\"{}\"", admin.getName(), key);
        final Map<String, Object> answer = view(key);
        answer.put("secret", Base64.getEncoder().encodeToString(key.secret()));
        return ResponseEntity.status(HttpStatus.CREATED).body(answer);
    }

    /**
     * @param request the key to revoke.
     * @param admin   who asks (logged).
     * @return 200 with the key revoked; 404 if the file has no such key.
     */
    @PostMapping("/revoke")
    public synchronized ResponseEntity<Map<String, Object>> revoke(
        @RequestBody final Revoke request, final Principal admin)
    {
        if (file.isEmpty())
        {
            return notConfigured();
        }
        final ApiKey key;
        try
        {
            key = ApiKeysFile.revoke(Path.of(file), String.valueOf(request.keyId()));
        }
        catch (final IllegalArgumentException ex)
        {
            return refused(HttpStatus.NOT_FOUND, "UNKNOWN_KEY", ex.getMessage());
        }
        LOG.warn("API key revoked by=\"{}\" key=\"{}\"", admin.getName(), key);
        return ResponseEntity.ok(view(key));
    }

    private static Map<String, Object> view(final ApiKey key)
    {
        final Map<String, Object> view = new LinkedHashMap<>();
        view.put("number", key.number());
        view.put("keyId", key.keyId());
        view.put("username", key.username());
        view.put("permissions", key.mayTrade() ? "read,trade" : "read");
        view.put("addresses", key.addresses());
        return view;
    }

    private static ResponseEntity<Map<String, Object>> notConfigured()
    {
        return refused(HttpStatus.SERVICE_UNAVAILABLE, "NO_API_KEYS_FILE",
            "no API keys file is configured (ringex.risk.security.api-keys-file)");
    }

    private static ResponseEntity<Map<String, Object>> refused(
        final HttpStatus status, final String error, final String message)
    {
        return ResponseEntity.status(status).body(Map.of("error", error, "message", message));
    }
}
