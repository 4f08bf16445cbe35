package io.ringex.gateway;

import io.ringex.common.apikey.ApiKeys;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionNumbersTest
{
    private static final long EPOCH_MS = SessionNumbers.SBE_NUMBERING_EPOCH_S * 1000;

    @Test
    void sbeNumberingStartsAtTheSecondsSinceTheNumberingEpoch()
    {
        assertEquals(0, SessionNumbers.firstSbeCounter(EPOCH_MS + 999));
        assertEquals(5, SessionNumbers.firstSbeCounter(EPOCH_MS + 5_000));
    }

    @Test
    void aGatewayRestartedLaterCountsFromBeyondWhatItsPreviousRunHandedOut()
    {
        // A run started at t logged on 3,599 sessions in the hour before it was restarted: no number repeats.
        final int firstRunStart = SessionNumbers.firstSbeCounter(EPOCH_MS + 86_400_000L);
        final int lastOfFirstRun = firstRunStart + 3_599;
        final int secondRunStart = SessionNumbers.firstSbeCounter(EPOCH_MS + 86_400_000L + 3_600_000L);
        assertTrue(secondRunStart >= lastOfFirstRun, secondRunStart + " vs " + lastOfFirstRun);
    }

    @Test
    void sbeNumbersStayOutOfTheFixSpaceForDecades()
    {
        final long thirtyThreeYearsMs = 33L * 365 * 86_400_000L;
        final int counter = SessionNumbers.firstSbeCounter(EPOCH_MS + thirtyThreeYearsMs);
        assertFalse(SessionNumbers.isFix(counter));
        assertEquals(thirtyThreeYearsMs / 1000, counter);
    }

    @Test
    void aFixSessionNumberNamesItsArtioSessionBack()
    {
        for (final long artioId : new long[]{ 1, 2, 77, SessionNumbers.NUMBER_MASK })
        {
            final int number = SessionNumbers.fix(artioId);
            assertTrue(SessionNumbers.isFix(number));
            assertEquals(artioId, SessionNumbers.artioSessionId(number));
        }
    }

    @Test
    void webSessionNumbersAreNeitherSbeNorFixAndNameTheirKey()
    {
        final int web = SessionNumbers.web(ApiKeysMax.NUMBER);
        assertTrue(SessionNumbers.isWeb(web));
        assertFalse(SessionNumbers.isFix(web));
        assertEquals(ApiKeysMax.NUMBER, web & SessionNumbers.NUMBER_MASK);
        assertFalse(SessionNumbers.isWeb(SessionNumbers.fix(7)));
        assertFalse(SessionNumbers.isWeb(SessionNumbers.sbe(7)));
        assertEquals(web, io.ringex.protocol.SessionIds.sessionNumber(io.ringex.protocol.SessionIds.sessionId(7, web)));
    }

    private static final class ApiKeysMax
    {
        static final int NUMBER = ApiKeys.MAX_NUMBER;
    }
}
