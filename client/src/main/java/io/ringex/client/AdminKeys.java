package io.ringex.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * A set of admin keys, as an admin keys file holds them: one key a line, {@code NUMBER NAME SECRET} (the secret in
 * base64, 32 to 64 bytes), {@code #} comments and blank lines ignored; numbers and names unique. The engine reads the
 * keys it accepts from one ({@code ringex.engine.admin.keys.file}); a sender reads its own key from one (usually
 * holding that key alone). docs/operations.md, "Admin keys".
 * <pre>
 * # number name secret (base64)
 * 1 risk-service 4b6c...=
 * 2 alice        Zm9v...=
 * </pre>
 * A file that breaks the format is refused naming the file and the line, never showing a secret.
 * <p>
 * Thread safety: immutable.
 */
public final class AdminKeys
{
    private final List<AdminKey> keys;

    private AdminKeys(final List<AdminKey> keys)
    {
        this.keys = Collections.unmodifiableList(new ArrayList<>(keys));
    }

    /**
     * @param keys distinct keys (numbers and names unique).
     * @return the set.
     * @throws IllegalArgumentException if two share a number or a name.
     */
    public static AdminKeys of(final List<AdminKey> keys)
    {
        for (int i = 0; i < keys.size(); i++)
        {
            for (int j = 0; j < i; j++)
            {
                if (keys.get(i).id() == keys.get(j).id() || keys.get(i).name().equals(keys.get(j).name()))
                {
                    throw new IllegalArgumentException("admin keys " + keys.get(j) + " and " + keys.get(i) +
                        " share a number or a name");
                }
            }
        }
        return new AdminKeys(keys);
    }

    /**
     * Read an admin keys file.
     *
     * @param file the file.
     * @return its keys, at least one.
     * @throws IllegalArgumentException naming the file (and the line) when it cannot be read or breaks the format.
     */
    public static AdminKeys load(final Path file)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": cannot read the admin keys file (" +
                ex.getClass().getSimpleName() + ")");
        }
        return parse(lines, file.toString());
    }

    /**
     * @param lines  the lines of an admin keys file.
     * @param source what to name in an error (the file).
     * @return its keys, at least one.
     * @throws IllegalArgumentException naming the source and the line.
     */
    public static AdminKeys parse(final List<String> lines, final String source)
    {
        final List<AdminKey> keys = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String where = source + ": line " + (i + 1) + ": ";
            final String[] fields = line.split("\\s+");
            if (fields.length != 3)
            {
                throw new IllegalArgumentException(where + "expected NUMBER NAME SECRET (" + fields.length +
                    " fields)");
            }
            final int id;
            try
            {
                id = Integer.parseInt(fields[0]);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(where + "the key's number must be a whole number");
            }
            byte[] secret = null;
            try
            {
                secret = Base64.getDecoder().decode(fields[2]);
                final AdminKey key = new AdminKey(id, fields[1], secret);
                for (final AdminKey other : keys)
                {
                    if (other.id() == id || other.name().equals(key.name()))
                    {
                        throw new IllegalArgumentException("key " + id + " " + key.name() +
                            " repeats the number or the name of key " + other.id() + " " + other.name());
                    }
                }
                keys.add(key);
            }
            catch (final IllegalArgumentException ex)
            {
                // Base64's own message quotes the offending character: name the field, not its content.
                final boolean base64 = null == secret;
                throw new IllegalArgumentException(where + (base64 ? "the secret is not base64" : ex.getMessage()));
            }
            finally
            {
                AdminKey.wipe(secret);
            }
        }
        if (keys.isEmpty())
        {
            throw new IllegalArgumentException(source + ": no admin key in the file");
        }
        return new AdminKeys(keys);
    }

    /**
     * A new key with a secret from a {@link SecureRandom}.
     *
     * @param id   its number.
     * @param name its name.
     * @return the key.
     */
    public static AdminKey generateKey(final int id, final String name)
    {
        final byte[] secret = new byte[AdminKey.MIN_SECRET_LENGTH];
        new SecureRandom().nextBytes(secret);
        try
        {
            return new AdminKey(id, name, secret);
        }
        finally
        {
            AdminKey.wipe(secret);
        }
    }

    /**
     * New keys with secrets from a {@link SecureRandom}, numbered 1, 2, ... in the order named.
     *
     * @param names the keys' names.
     * @return the keys.
     */
    public static AdminKeys generate(final String... names)
    {
        final SecureRandom random = new SecureRandom();
        final List<AdminKey> keys = new ArrayList<>();
        for (int i = 0; i < names.length; i++)
        {
            final byte[] secret = new byte[AdminKey.MIN_SECRET_LENGTH];
            random.nextBytes(secret);
            keys.add(new AdminKey(i + 1, names[i], secret));
            AdminKey.wipe(secret);
        }
        return of(keys);
    }

    /**
     * Write the keys to a new file that only its owner may read (where the file system has POSIX permissions).
     *
     * @param file a file that does not exist yet.
     * @throws UncheckedIOException if it exists or cannot be written.
     */
    public void writeTo(final Path file)
    {
        final StringBuilder text = new StringBuilder("# Ringex admin keys: NUMBER NAME SECRET (base64). Keep this " +
            "file secret: whoever reads a key can send the venue's admin commands.\n");
        for (final AdminKey key : keys)
        {
            final byte[] secret = key.secretCopy();
            text.append(key.id()).append(' ').append(key.name()).append(' ')
                .append(Base64.getEncoder().encodeToString(secret)).append('\n');
            AdminKey.wipe(secret);
        }
        try
        {
            if (Files.exists(file))
            {
                throw new FileAlreadyExistsException(file.toString());
            }
            if (file.getFileSystem().supportedFileAttributeViews().contains("posix"))
            {
                final Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
                Files.createFile(file, PosixFilePermissions.asFileAttribute(ownerOnly));
            }
            else
            {
                Files.createFile(file);
            }
            Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the admin keys file " + file, ex);
        }
    }

    /** @return the keys, in the file's order. */
    public List<AdminKey> keys()
    {
        return keys;
    }

    /**
     * The key a sender uses: the one named, or, with no name, the file's first.
     *
     * @param name a key's name, or null or empty for the first.
     * @return the key.
     * @throws IllegalArgumentException if no key has the name.
     */
    public AdminKey select(final String name)
    {
        if (null == name || name.isEmpty())
        {
            return keys.get(0);
        }
        for (final AdminKey key : keys)
        {
            if (key.name().equals(name))
            {
                return key;
            }
        }
        throw new IllegalArgumentException("no admin key named " + name + " (the file holds " + names() + ")");
    }

    /**
     * @param id a key's number.
     * @return the key, or null.
     */
    public AdminKey byId(final int id)
    {
        for (final AdminKey key : keys)
        {
            if (key.id() == id)
            {
                return key;
            }
        }
        return null;
    }

    /** @return "1 name, 2 name" for logs: numbers and names only. */
    public String names()
    {
        final StringBuilder text = new StringBuilder();
        for (final AdminKey key : keys)
        {
            text.append(text.length() == 0 ? "" : ", ").append(key.id()).append(' ').append(key.name());
        }
        return text.toString();
    }

    public String toString()
    {
        return "AdminKeys[" + names() + "]";
    }
}
