package io.ringex.engine.node;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.ringex.client.AdminCommandSigner;
import io.ringex.client.AdminKeys;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The nonces an ingress remembers live in its memory only: a node that starts, or a cluster member that comes to lead
 * (its predecessor's nonces died with it), cannot tell a command it already took from a new one. So from the moment
 * its ingress opens it refuses what was signed before, and a command captured on the wire cannot be played to the
 * next leader within its window.
 */
class AdminAuthenticatorTest
{
    private static final long WINDOW_NS = TimeUnit.SECONDS.toNanos(30);

    private final AdminKeys keys = AdminKeys.generate("operator");
    private final AtomicLong clockNs = new AtomicLong(TimeUnit.DAYS.toNanos(20_000));
    private final AtomicLong nonces = new AtomicLong();
    private final AdminCommandSigner signer = new AdminCommandSigner(keys.keys().get(0), clockNs::get,
        nonces::incrementAndGet);
    private final CommandEncoder commands = new CommandEncoder();
    private final UnsafeBuffer signed = new UnsafeBuffer(new byte[AdminCommandSigner.signedLength(512)]);
    private final AtomicCounter refused = new CountersManager(new UnsafeBuffer(new byte[64 * 1024]),
        new UnsafeBuffer(new byte[8 * 1024])).newCounter("refused");
    private final AdminAuthenticator admin = new AdminAuthenticator(keys, WINDOW_NS, 512, refused);

    @Test
    void aCommandSignedBeforeTheIngressOpenedIsRefusedWhatIsSignedAfterIsTaken()
    {
        final int captured = sign();
        assertEquals(AdminAuthenticator.Refusal.NONE, admin.check(signed, 0, captured, clockNs.get()),
            "within the window, never seen: taken");

        // A failover 100 ms later: the new leader's ingress opens knowing none of the nonces taken before.
        clockNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
        admin.signedNotBefore(clockNs.get());
        assertEquals(AdminAuthenticator.Refusal.STALE, admin.check(signed, 0, captured, clockNs.get()),
            "the command captured before the failover, played again well within its window");

        clockNs.addAndGet(1);
        final int fresh = sign();
        assertEquals(AdminAuthenticator.Refusal.NONE, admin.check(signed, 0, fresh, clockNs.get()),
            "the operator's command signed again after it");
    }

    private int sign()
    {
        final int length = commands.addAccount(1, 1001, SelfTradePrevention.CANCEL_NEWEST);
        return signer.sign(commands.buffer(), 0, length, signed, 0);
    }
}
