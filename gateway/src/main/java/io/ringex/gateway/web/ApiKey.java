package io.ringex.gateway.web;

/**
 * One API key: its number (the web session it names, {@link io.ringex.gateway.SessionNumbers#web}), its public id,
 * the gateway user it acts as, whether it may trade (every key may read) and its HMAC-SHA256 secret.
 * <p>
 * Thread safety: immutable; {@link #secret()} returns a copy.
 */
public final class ApiKey
{
    private final int number;
    private final String keyId;
    private final String username;
    private final boolean mayTrade;
    private final byte[] secret;

    /**
     * @param number   1..2^30-1, never reused for another key.
     * @param keyId    the public id clients send in {@code X-RINGEX-KEY}.
     * @param username the gateway user the key acts as.
     * @param mayTrade whether it may place and cancel orders (else read only).
     * @param secret   the signing secret.
     */
    public ApiKey(final int number, final String keyId, final String username, final boolean mayTrade,
        final byte[] secret)
    {
        this.number = number;
        this.keyId = keyId;
        this.username = username;
        this.mayTrade = mayTrade;
        this.secret = secret.clone();
    }

    /**
     * @return the key's number.
     */
    public int number()
    {
        return number;
    }

    /**
     * @return the public key id.
     */
    public String keyId()
    {
        return keyId;
    }

    /**
     * @return the user the key acts as.
     */
    public String username()
    {
        return username;
    }

    /**
     * @return whether the key may place and cancel orders.
     */
    public boolean mayTrade()
    {
        return mayTrade;
    }

    /**
     * @return a copy of the signing secret.
     */
    public byte[] secret()
    {
        return secret.clone();
    }

    byte[] secretShared()
    {
        return secret;
    }

    /**
     * Never shows the secret.
     *
     * @return number, id, user and permissions.
     */
    public String toString()
    {
        return number + " " + keyId + " " + username + " " + (mayTrade ? "read,trade" : "read");
    }

    /**
     * @param other a key, or null.
     * @return whether it is this key still: the same number, id, user, permissions and secret.
     */
    public boolean sameAs(final ApiKey other)
    {
        return null != other && number == other.number && mayTrade == other.mayTrade && keyId.equals(other.keyId) &&
            username.equals(other.username) && java.security.MessageDigest.isEqual(secret, other.secret);
    }
}
