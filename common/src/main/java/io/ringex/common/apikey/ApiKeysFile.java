package io.ringex.common.apikey;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code ./ringex admin apikey} does to an API keys file ({@link ApiKeys}): create a key (a fresh 32-byte secret
 * from {@link SecureRandom}, the next number never used in the file), revoke one (its line becomes a
 * {@code # revoked NUMBER KEY-ID USER} comment, so its number is never given again: the number names the key's web
 * session, and a new key with an old number would be handed the old key's reports) and list them without secrets.
 * Each change writes a new file, readable by its owner only, and moves it over the old one atomically, so a gateway
 * reading it sees the old file or the new, never half of one.
 * <p>
 * Thread safety: one change at a time per file (an operator's tool).
 */
public final class ApiKeysFile
{
    private static final Pattern REVOKED = Pattern.compile("#\\s*revoked\\s+(\\d+)\\s.*");
    private static final int SECRET_BYTES = 32;

    private ApiKeysFile()
    {
    }

    /**
     * Add a key to the file (created if it does not exist).
     *
     * @param file     the keys file.
     * @param keyId    the new key's id.
     * @param username the user it acts as.
     * @param mayTrade whether it may trade (else read only).
     * @return the key, secret included: show it once.
     * @throws IllegalArgumentException if the file breaks the format, or the id is taken or malformed.
     */
    public static ApiKey create(final Path file, final String keyId, final String username, final boolean mayTrade)
    {
        return create(file, keyId, username, mayTrade, List.of());
    }

    /**
     * Add a key to the file (created if it does not exist), usable from the given addresses only.
     *
     * @param file      the keys file.
     * @param keyId     the new key's id.
     * @param username  the user it acts as.
     * @param mayTrade  whether it may trade (else read only).
     * @param addresses the addresses and networks it may be used from ({@link ApiKeys#addresses}); empty for any.
     * @return the key, secret included: show it once.
     * @throws IllegalArgumentException if the file breaks the format, the id is taken or malformed, or an address is.
     */
    public static ApiKey create(final Path file, final String keyId, final String username, final boolean mayTrade,
        final List<String> addresses)
    {
        final List<String> lines = Files.exists(file) ? lines(file) : new ArrayList<>(List.of(
            "# number key-id user permissions secret (base64) [addresses]: ./ringex admin apikey; " +
                "readable by its owner only"));
        final ApiKeys keys = Files.exists(file) ? ApiKeys.load(file) : ApiKeys.of(List.of());
        if (null != keys.byId(keyId))
        {
            throw new IllegalArgumentException("key id " + keyId + " exists in " + file);
        }
        int highest = 0;
        for (final ApiKey key : keys.keys())
        {
            highest = Math.max(highest, key.number());
        }
        for (final String line : lines)
        {
            final Matcher revoked = REVOKED.matcher(line.trim());
            if (revoked.matches())
            {
                highest = Math.max(highest, Integer.parseInt(revoked.group(1)));
            }
        }
        final byte[] secret = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        final ApiKey key = new ApiKey(highest + 1, keyId, username, mayTrade, secret, addresses);
        final String line = ApiKeys.line(key);
        // The new line must read back as the key: the id and user follow the file's rules.
        final List<String> updated = new ArrayList<>(lines);
        updated.add(line);
        write(file, updated);
        return key;
    }

    /**
     * Revoke a key: its line becomes a comment that keeps its number used.
     *
     * @param file  the keys file.
     * @param keyId the key.
     * @return the key revoked.
     * @throws IllegalArgumentException if there is no such key or the file breaks the format.
     */
    public static ApiKey revoke(final Path file, final String keyId)
    {
        final ApiKey key = ApiKeys.load(file).byId(keyId);
        if (null == key)
        {
            throw new IllegalArgumentException("no key " + keyId + " in " + file);
        }
        final List<String> lines = lines(file);
        final List<String> updated = new ArrayList<>(lines.size());
        for (final String line : lines)
        {
            final String[] parts = line.trim().split("\\s+");
            updated.add(!line.trim().startsWith("#") && parts.length > 1 && parts[1].equals(keyId) ?
                "# revoked " + key.number() + " " + key.keyId() + " " + key.username() : line);
        }
        write(file, updated);
        return key;
    }

    /**
     * @param file the keys file.
     * @return one line per key, its number, id, user and permissions (never its secret).
     */
    public static List<String> list(final Path file)
    {
        final List<String> listed = new ArrayList<>();
        for (final ApiKey key : ApiKeys.load(file).keys())
        {
            listed.add(key.toString());
        }
        return listed;
    }

    private static List<String> lines(final Path file)
    {
        try
        {
            return new ArrayList<>(Files.readAllLines(file, StandardCharsets.US_ASCII));
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": cannot read the API keys file (" +
                ex.getClass().getSimpleName() + ")");
        }
    }

    /**
     * The new file keeps the old one's owner and group, so the gateway can still read it (e.g. after {@code sudo});
     * where they cannot be kept, nothing is written and the error says whose file it is.
     */
    private static void keepOwner(final Path file, final Path temporary) throws IOException
    {
        if (!Files.exists(file) || !Files.getFileStore(file).supportsFileAttributeView("posix"))
        {
            return;
        }
        final PosixFileAttributes old = Files.readAttributes(file, PosixFileAttributes.class);
        final PosixFileAttributes now = Files.readAttributes(temporary, PosixFileAttributes.class);
        try
        {
            if (!old.owner().equals(now.owner()))
            {
                Files.setOwner(temporary, old.owner());
            }
            if (!old.group().equals(now.group()))
            {
                Files.getFileAttributeView(temporary, PosixFileAttributeView.class).setGroup(old.group());
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": belongs to " + old.owner().getName() + ":" +
                old.group().getName() + " and the new file could not keep that owner and group (" +
                ex.getClass().getSimpleName() + "); run the tool as " + old.owner().getName() +
                ", or the gateway could no longer read the file");
        }
    }

    private static void write(final Path file, final List<String> lines)
    {
        final Path dir = null == file.toAbsolutePath().getParent() ? Path.of(".") : file.toAbsolutePath().getParent();
        Path temporary = null;
        try
        {
            temporary = Files.createTempFile(dir, ".api-keys", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(temporary, lines, StandardCharsets.US_ASCII);
            keepOwner(file, temporary);
            // Refuse to write what the gateway would refuse to read.
            ApiKeys.load(temporary);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            temporary = null;
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": cannot write the API keys file (" +
                ex.getClass().getSimpleName() + ")");
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(ex.getMessage().replace(String.valueOf(temporary), file.toString()));
        }
        finally
        {
            if (null != temporary)
            {
                try
                {
                    Files.deleteIfExists(temporary);
                }
                catch (final IOException ignored)
                {
                    // best effort: a stray temporary file holds nothing the keys file does not
                }
            }
        }
    }
}
