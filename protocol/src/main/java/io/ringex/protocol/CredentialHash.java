package io.ringex.protocol;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Salted PBKDF2-HMAC-SHA256 credential hashes, the only form a password takes in configuration, commands or logs:
 * the gateways verify them; the admin tool, the risk console and the gateway's {@code HashCredential} make them; the
 * schema's user commands carry them.
 * <p>
 * Format: {@code pbkdf2-sha256:<iterations>:<salt base64>:<hash base64>} (16-byte salt, 256-bit hash). Verification
 * recomputes the hash with the stored salt and iterations and compares in constant time.
 * <p>
 * Thread safety: stateless; any thread. Hashing is deliberately slow (milliseconds): it runs once per logon.
 */
public final class CredentialHash
{
    /** Prefix of every hash this class writes. */
    public static final String SCHEME = "pbkdf2-sha256";

    /** Iterations used when none are given. */
    public static final int DEFAULT_ITERATIONS = 20_000;

    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    private static final int SALT_LENGTH = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private CredentialHash()
    {
    }

    /**
     * Hash a password with a fresh random salt and {@link #DEFAULT_ITERATIONS}.
     *
     * @param password the password; not retained.
     * @return the encoded hash.
     */
    public static String hash(final char[] password)
    {
        return hash(password, DEFAULT_ITERATIONS);
    }

    /**
     * Hash a password with a fresh random salt.
     *
     * @param password   the password; not retained.
     * @param iterations PBKDF2 iterations, at least 1.
     * @return the encoded hash.
     */
    public static String hash(final char[] password, final int iterations)
    {
        if (iterations < 1)
        {
            throw new IllegalArgumentException("iterations must be >= 1: " + iterations);
        }
        final byte[] salt = new byte[SALT_LENGTH];
        RANDOM.nextBytes(salt);
        final byte[] hash = pbkdf2(password, salt, iterations);
        final Base64.Encoder encoder = Base64.getEncoder();
        return SCHEME + ':' + iterations + ':' + encoder.encodeToString(salt) + ':' + encoder.encodeToString(hash);
    }

    /**
     * Whether text is a well-formed hash of this scheme.
     *
     * @param encoded candidate.
     * @return true if it can be verified against.
     */
    public static boolean isWellFormed(final String encoded)
    {
        return parse(encoded) != null;
    }

    /**
     * Check a password against a stored hash.
     *
     * @param password candidate password; null never matches.
     * @param encoded  the stored hash.
     * @return true if the password matches; false if not or the hash is malformed.
     */
    public static boolean verify(final CharSequence password, final String encoded)
    {
        if (password == null)
        {
            return false;
        }
        final char[] chars = new char[password.length()];
        for (int i = 0; i < chars.length; i++)
        {
            chars[i] = password.charAt(i);
        }
        try
        {
            return verify(chars, encoded);
        }
        finally
        {
            Arrays.fill(chars, '\0');
        }
    }

    /**
     * Check a password against a stored hash.
     *
     * @param password candidate password.
     * @param encoded  the stored hash.
     * @return true if the password matches; false if not or the hash is malformed.
     */
    public static boolean verify(final char[] password, final String encoded)
    {
        final Parsed parsed = parse(encoded);
        if (parsed == null || password == null)
        {
            return false;
        }
        final byte[] actual = pbkdf2(password, parsed.salt, parsed.iterations);
        return MessageDigest.isEqual(actual, parsed.hash);
    }

    private static byte[] pbkdf2(final char[] password, final byte[] salt, final int iterations)
    {
        final PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
        try
        {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException(ALGORITHM + " unavailable", ex);
        }
        finally
        {
            spec.clearPassword();
        }
    }

    private static Parsed parse(final String encoded)
    {
        if (encoded == null)
        {
            return null;
        }
        final String[] parts = encoded.split(":");
        if (parts.length != 4 || !SCHEME.equals(parts[0]))
        {
            return null;
        }
        try
        {
            final int iterations = Integer.parseInt(parts[1]);
            final byte[] salt = Base64.getDecoder().decode(parts[2].getBytes(StandardCharsets.US_ASCII));
            final byte[] hash = Base64.getDecoder().decode(parts[3].getBytes(StandardCharsets.US_ASCII));
            if (iterations < 1 || salt.length == 0 || hash.length != HASH_BITS / 8)
            {
                return null;
            }
            return new Parsed(iterations, salt, hash);
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    private static final class Parsed
    {
        final int iterations;
        final byte[] salt;
        final byte[] hash;

        Parsed(final int iterations, final byte[] salt, final byte[] hash)
        {
            this.iterations = iterations;
            this.salt = salt;
            this.hash = hash;
        }
    }
}
