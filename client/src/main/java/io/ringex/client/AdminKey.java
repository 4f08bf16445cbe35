package io.ringex.client;

import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One admin key: the secret an operator or a service proves it holds when it sends admin commands to an engine
 * (HMAC-SHA256, docs/protocol.md, "Admin authentication"), its number (what the journal records as the command's
 * source) and its name (for people and logs). The secret never leaves this object except into a {@link Mac}: it is in
 * no string, log line or exception message.
 * <p>
 * Thread safety: immutable; {@link #newMac()} gives each thread its own.
 */
public final class AdminKey
{
    /** The MAC of an admin command. */
    public static final String ALGORITHM = "HmacSHA256";
    /** Its length in bytes. */
    public static final int MAC_LENGTH = 32;
    /** The shortest secret taken: 256 bits, the MAC's strength. */
    public static final int MIN_SECRET_LENGTH = 32;
    /** The longest secret taken (HMAC-SHA256's block). */
    public static final int MAX_SECRET_LENGTH = 64;
    /** The longest name. */
    public static final int MAX_NAME_LENGTH = 32;

    private final int id;
    private final String name;
    private final byte[] secret;

    /**
     * @param id     the key's number, 1 or more: the journal names the source of its commands by it.
     * @param name   1 to 32 characters of {@code A-Z a-z 0-9 . _ -}.
     * @param secret {@link #MIN_SECRET_LENGTH} to {@link #MAX_SECRET_LENGTH} bytes (copied).
     * @throws IllegalArgumentException naming what is wrong, never showing the secret.
     */
    public AdminKey(final int id, final String name, final byte[] secret)
    {
        if (id < 1)
        {
            throw new IllegalArgumentException("an admin key's number must be 1 or more (was " + id + ")");
        }
        if (!isName(name))
        {
            throw new IllegalArgumentException("an admin key's name must be 1 to " + MAX_NAME_LENGTH +
                " characters of A-Z a-z 0-9 . _ - (key " + id + ")");
        }
        if (null == secret || secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH)
        {
            throw new IllegalArgumentException("admin key " + name + ": its secret must be " + MIN_SECRET_LENGTH +
                " to " + MAX_SECRET_LENGTH + " bytes (was " + (null == secret ? 0 : secret.length) + ")");
        }
        this.id = id;
        this.name = name;
        this.secret = secret.clone();
    }

    /**
     * @param name a candidate key name.
     * @return whether it is one.
     */
    public static boolean isName(final String name)
    {
        if (null == name || name.isEmpty() || name.length() > MAX_NAME_LENGTH)
        {
            return false;
        }
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                c == '_' || c == '-'))
            {
                return false;
            }
        }
        return true;
    }

    /** @return the key's number. */
    public int id()
    {
        return id;
    }

    /** @return the key's name. */
    public String name()
    {
        return name;
    }

    /**
     * @return a MAC keyed with the secret, ready to use; one per thread.
     */
    public Mac newMac()
    {
        try
        {
            final Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
            return mac;
        }
        catch (final NoSuchAlgorithmException | InvalidKeyException ex)
        {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", ex);
        }
    }

    /**
     * @param other another key.
     * @return whether both hold the same secret (constant time).
     */
    boolean sameSecret(final AdminKey other)
    {
        return java.security.MessageDigest.isEqual(secret, other.secret);
    }

    /** @return the secret's copy for a key file being written. */
    byte[] secretCopy()
    {
        return secret.clone();
    }

    public boolean equals(final Object o)
    {
        return o instanceof AdminKey other && other.id == id && other.name.equals(name) && sameSecret(other);
    }

    public int hashCode()
    {
        return 31 * id + name.hashCode();
    }

    public String toString()
    {
        return "AdminKey[" + id + " " + name + "]";
    }

    /**
     * Overwrite a secret the caller no longer needs.
     *
     * @param secret bytes.
     */
    static void wipe(final byte[] secret)
    {
        if (null != secret)
        {
            Arrays.fill(secret, (byte)0);
        }
    }
}
