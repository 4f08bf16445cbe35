package io.ringex.testing;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AwaitTest
{
    @Test
    void returnsOnceTheConditionHoldsRunningTheWorkEachRound()
    {
        final AtomicInteger rounds = new AtomicInteger();
        Await.until("three rounds", () -> rounds.get() == 3, rounds::incrementAndGet);
        assertEquals(3, rounds.get());
    }

    @Test
    void aConditionThatNeverHoldsFailsNamingWhatWasAwaitedAndWhatWasSeen()
    {
        final AssertionError error = assertThrows(AssertionError.class, () -> Await.until("the fill",
            Duration.ofMillis(50), () -> false, null, () -> List.of("NEW")));
        assertEquals("timed out after PT0.05S waiting for: the fill; seen: [NEW]", error.getMessage());
    }

    @Test
    void aLazyDescriptionIsBuiltOnlyWhenTheWaitFailsAndSaysWhatHeldThen()
    {
        final AtomicInteger built = new AtomicInteger();
        final AtomicInteger rounds = new AtomicInteger();
        Await.until(() -> "built " + built.incrementAndGet(), () -> rounds.incrementAndGet() == 3);
        assertEquals(0, built.get());

        final AssertionError error = assertThrows(AssertionError.class, () -> Await.until(
            () -> "round " + rounds.get() + " of the fill", Duration.ofMillis(50), () -> false, () -> rounds.set(5)));
        assertEquals("timed out after PT0.05S waiting for: round 5 of the fill", error.getMessage());
    }

    @Test
    void anInterruptEndsTheWaitAtOnce()
    {
        Thread.currentThread().interrupt();
        try
        {
            final AssertionError error = assertThrows(AssertionError.class,
                () -> Await.until("the fill", Duration.ofDays(1), () -> false, null));
            assertTrue(error.getMessage().startsWith("interrupted (the per-test timeout?) waiting for: the fill"),
                error::getMessage);
        }
        finally
        {
            Thread.interrupted();
        }
    }

    @Test
    void neverFailsAsSoonAsTheConditionTurnsTrue()
    {
        final AtomicInteger rounds = new AtomicInteger();
        final AssertionError error = assertThrows(AssertionError.class, () -> Await.never("a second report",
            Duration.ofDays(1), () -> rounds.get() == 2, rounds::incrementAndGet));
        assertEquals("unexpected: a second report", error.getMessage());
        Await.never("nothing", Duration.ofMillis(20), () -> false, null);
    }
}
