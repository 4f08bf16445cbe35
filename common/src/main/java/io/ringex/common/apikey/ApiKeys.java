package io.ringex.common.apikey;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The API keys a gateway accepts, as an API keys file holds them: one key a line, {@code NUMBER KEY-ID USER PERMISSIONS
 * SECRET [ADDRESSES]} (docs/client.md, "API keys").
 * <p>
 * The file holds the HMAC secrets in the clear, so one that its group or others may read is refused, as is one that
 * breaks the format, naming the file and the line, never showing a secret.
 * <p>
 * Thread safety: immutable.
 */
public final class ApiKeys
{
    /** Largest key number. */
    public static final int MAX_NUMBER = 0x3FFF_FFFF;

    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{8,64}");
    private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9_.@-]{1,64}");
    private static final int MIN_SECRET = 32;
    private static final int MAX_SECRET = 64;
    /** Most addresses and networks a key may name. */
    public static final int MAX_ADDRESSES = 64;

    private final Map<String, ApiKey> byId;
    private final Map<Integer, ApiKey> byNumber;
    private final List<ApiKey> keys;

    private ApiKeys(final List<ApiKey> keys)
    {
        final Map<String, ApiKey> map = new HashMap<>();
        final Map<Integer, ApiKey> numbers = new HashMap<>();
        for (final ApiKey key : keys)
        {
            if (null != map.put(key.keyId(), key) || null != numbers.put(key.number(), key))
            {
                throw new IllegalArgumentException("API key " + key + " repeats a number or a key id");
            }
        }
        this.byId = Collections.unmodifiableMap(map);
        this.byNumber = Collections.unmodifiableMap(numbers);
        this.keys = Collections.unmodifiableList(new ArrayList<>(keys));
    }

    /**
     * @param keys distinct keys.
     * @return the set.
     * @throws IllegalArgumentException if two share a number or an id.
     */
    public static ApiKeys of(final List<ApiKey> keys)
    {
        return new ApiKeys(keys);
    }

    /**
     * Read an API keys file.
     *
     * @param file the file.
     * @return its keys (possibly none).
     * @throws IllegalArgumentException naming the file (and the line) when it cannot be read, others may read it or
     *                                  it breaks the format.
     */
    public static ApiKeys load(final Path file)
    {
        final List<String> lines;
        try
        {
            if (Files.getFileStore(file).supportsFileAttributeView("posix"))
            {
                final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                if (permissions.contains(PosixFilePermission.GROUP_READ) ||
                    permissions.contains(PosixFilePermission.OTHERS_READ) ||
                    permissions.contains(PosixFilePermission.GROUP_WRITE) ||
                    permissions.contains(PosixFilePermission.OTHERS_WRITE))
                {
                    throw new IllegalArgumentException(file + ": the API keys file holds secrets and must be " +
                        "readable by its owner only (chmod 600)");
                }
            }
            lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": cannot read the API keys file (" +
                ex.getClass().getSimpleName() + ")");
        }
        final List<ApiKey> keys = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            keys.add(parse(line, file + " line " + (i + 1)));
        }
        try
        {
            return new ApiKeys(keys);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(file + ": " + ex.getMessage());
        }
    }

    private static ApiKey parse(final String line, final String where)
    {
        final String[] parts = line.split("\\s+");
        if (parts.length != 5 && parts.length != 6)
        {
            throw new IllegalArgumentException(where + ": must be NUMBER KEY-ID USER PERMISSIONS SECRET [ADDRESSES]");
        }
        final int number;
        try
        {
            number = Integer.parseInt(parts[0]);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + ": the number must be 1.." + MAX_NUMBER);
        }
        if (number < 1 || number > MAX_NUMBER)
        {
            throw new IllegalArgumentException(where + ": the number must be 1.." + MAX_NUMBER);
        }
        if (!KEY_ID.matcher(parts[1]).matches())
        {
            throw new IllegalArgumentException(where + ": the key id must be 8 to 64 of A-Z a-z 0-9 - _");
        }
        if (!USERNAME.matcher(parts[2]).matches())
        {
            throw new IllegalArgumentException(where + ": the user must be 1 to 64 of A-Z a-z 0-9 _ . @ -");
        }
        final boolean mayTrade;
        if ("read".equals(parts[3]))
        {
            mayTrade = false;
        }
        else if ("read,trade".equals(parts[3]))
        {
            mayTrade = true;
        }
        else
        {
            throw new IllegalArgumentException(where + ": permissions must be read or read,trade");
        }
        final byte[] secret;
        try
        {
            secret = Base64.getDecoder().decode(parts[4]);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(where + ": the secret must be base64");
        }
        if (secret.length < MIN_SECRET || secret.length > MAX_SECRET)
        {
            throw new IllegalArgumentException(where + ": the secret must be " + MIN_SECRET + " to " + MAX_SECRET +
                " bytes");
        }
        try
        {
            return new ApiKey(number, parts[1], parts[2], mayTrade, secret,
                parts.length == 6 ? addresses(parts[5]) : List.of());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(where + ": " + ex.getMessage());
        }
    }

    /**
     * @param list comma-separated addresses and networks, as a keys file or an operator writes them.
     * @return the entries.
     * @throws IllegalArgumentException if the list has an empty entry or more than {@link #MAX_ADDRESSES}.
     */
    public static List<String> addresses(final String list)
    {
        final String[] entries = list.split(",", -1);
        if (entries.length > MAX_ADDRESSES)
        {
            throw new IllegalArgumentException("at most " + MAX_ADDRESSES + " addresses a key");
        }
        for (final String entry : entries)
        {
            if (entry.isEmpty())
            {
                throw new IllegalArgumentException("the addresses must be a comma-separated list without spaces");
            }
        }
        return List.of(entries);
    }

    /**
     * @param keyId a key id as a client sent it.
     * @return the key, or null.
     */
    public ApiKey byId(final String keyId)
    {
        return null == keyId ? null : byId.get(keyId);
    }

    /**
     * @param number a key number.
     * @return the key, or null.
     */
    public ApiKey byNumber(final int number)
    {
        return byNumber.get(number);
    }

    /**
     * @return the numbers of the keys.
     */
    public Set<Integer> numbers()
    {
        return byNumber.keySet();
    }

    /**
     * @return every key, in file order.
     */
    public List<ApiKey> keys()
    {
        return keys;
    }

    /**
     * One line of an API keys file for a key.
     *
     * @param key the key.
     * @return its line, secret included.
     */
    public static String line(final ApiKey key)
    {
        return key.number() + " " + key.keyId() + " " + key.username() + " " +
            (key.mayTrade() ? "read,trade" : "read") + " " + Base64.getEncoder().encodeToString(key.secretShared()) +
            (key.addresses().isEmpty() ? "" : " " + String.join(",", key.addresses()));
    }
}
