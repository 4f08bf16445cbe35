package io.ringex.risk.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * The gateways' credential hashes, made here for the passwords an ADMIN sets: salted PBKDF2-HMAC-SHA256 in the format
 * the gateways verify, {@code pbkdf2-sha256:<iterations>:<salt base64>:<hash base64>} (16-byte salt, 256-bit hash),
 * the format of the gateway module's {@code CredentialHash}. The risk service does not depend on the gateway module,
 * which would bring Artio into it: the format is restated here, and a test checks a hash the gateway made.
 * <p>
 * The service only makes hashes: it never stores one, and the hashes the engine sends with its users are skipped
 * unread. {@link #matches} is for tests and tools.
 * <p>
 * Thread safety: stateless; any thread. Hashing is deliberately slow (tens of milliseconds).
 */
public final class GatewayCredentials
{
    /** Prefix of every hash. */
    public static final String SCHEME = "pbkdf2-sha256";

    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    private static final int SALT_LENGTH = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private GatewayCredentials()
    {
    }

    /**
     * @param password   the password; not retained (the caller clears it).
     * @param iterations PBKDF2 iterations, at least 1.
     * @return the encoded hash, with a fresh random salt.
     */
    public static String hash(final char[] password, final int iterations)
    {
        if (iterations < 1)
        {
            throw new IllegalArgumentException("iterations must be at least 1, was " + iterations);
        }
        final byte[] salt = new byte[SALT_LENGTH];
        RANDOM.nextBytes(salt);
        final Base64.Encoder base64 = Base64.getEncoder();
        return SCHEME + ':' + iterations + ':' + base64.encodeToString(salt) + ':' +
            base64.encodeToString(pbkdf2(password, salt, iterations));
    }

    /**
     * @param password a candidate.
     * @param encoded  a hash in the gateways' format.
     * @return whether the password matches; false for a malformed hash.
     */
    public static boolean matches(final char[] password, final String encoded)
    {
        final String[] parts = encoded == null ? new String[0] : encoded.split(":", -1);
        if (parts.length != 4 || !SCHEME.equals(parts[0]))
        {
            return false;
        }
        try
        {
            final int iterations = Integer.parseInt(parts[1]);
            final byte[] salt = Base64.getDecoder().decode(parts[2].getBytes(StandardCharsets.US_ASCII));
            final byte[] expected = Base64.getDecoder().decode(parts[3].getBytes(StandardCharsets.US_ASCII));
            return iterations >= 1 && salt.length > 0 && expected.length == HASH_BITS / 8 &&
                MessageDigest.isEqual(pbkdf2(password, salt, iterations), expected);
        }
        catch (final IllegalArgumentException ex)
        {
            return false;
        }
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
}
