package io.ringex.gateway.testing;

import io.ringex.gateway.auth.User;
import io.ringex.protocol.CredentialHash;

/**
 * Users the tests log on as. Hashes use few iterations so logon is fast in tests; production uses the default.
 */
public final class TestUsers
{
    public static final String ALICE_PASSWORD = "alice-secret";
    public static final String BOB_PASSWORD = "bob-secret";
    public static final long ALICE_ACCOUNT = 100;
    public static final long ALICE_SECOND_ACCOUNT = 101;
    public static final long BOB_ACCOUNT = 200;
    public static final String CAROL_PASSWORD = "carol-secret";
    public static final long CAROL_ACCOUNT = 300;
    public static final String GATEWAY_COMP_ID = "RINGEX";

    public static final User ALICE = new User("alice", CredentialHash.hash(ALICE_PASSWORD.toCharArray(), 1000),
        new long[]{ ALICE_ACCOUNT, ALICE_SECOND_ACCOUNT }, "ALICE", GATEWAY_COMP_ID);
    public static final User BOB = new User("bob", CredentialHash.hash(BOB_PASSWORD.toCharArray(), 1000),
        new long[]{ BOB_ACCOUNT }, "BOB", GATEWAY_COMP_ID);
    public static final User CAROL = new User("carol", CredentialHash.hash(CAROL_PASSWORD.toCharArray(), 1000),
        new long[]{ CAROL_ACCOUNT }, "CAROL", GATEWAY_COMP_ID);
    /** Carol as the FIX tests configure her: cancel-on-disconnect for her FIX session (a configuration flag). */
    public static final String CAROL_FIX_PASSWORD = "carol-pw";
    public static final User CAROL_FIX_CANCEL_ON_DISCONNECT = new User("carol",
        CredentialHash.hash(CAROL_FIX_PASSWORD.toCharArray(), 1000), new long[]{ CAROL_ACCOUNT }, "CAROL",
        GATEWAY_COMP_ID, true);

    private TestUsers()
    {
    }
}
