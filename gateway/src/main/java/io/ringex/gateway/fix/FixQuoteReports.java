package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.fix.codecs.builder.MassQuoteAcknowledgementEncoder;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.MmpEventType;
import io.ringex.protocol.codecs.QuoteCancelReportDecoder;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.QuoteEntryStatus;
import io.ringex.protocol.codecs.QuoteStatus;
import io.ringex.protocol.codecs.RejectReason;

/**
 * A market maker's engine events (MassQuoteAck, QuoteCancelReport, MarketMakerProtectionEvent) as FIX 4.4
 * MassQuoteAcknowledgement (b), the one message FIX 4.4 has for every answer about quotes (docs/client.md, "Market
 * makers: mass quotes, protection, cancel-all-after"). Text(58) names the engine's exact reason of each refused entry,
 * since FIX 4.4's codes are coarser.
 * <p>
 * Thread safety: single-threaded, reused; allocates nothing per event beyond what Artio's encoders do.
 */
final class FixQuoteReports
{
    private static final String NO_UNDERLYING = "NA";

    private final MassQuoteAcknowledgementEncoder ack = new MassQuoteAcknowledgementEncoder();
    private final StringBuilder account = new StringBuilder(20);
    private final StringBuilder quoteId = new StringBuilder(20);
    private final StringBuilder setId = new StringBuilder(8);
    private final StringBuilder entryId = new StringBuilder(12);
    private final StringBuilder text = new StringBuilder(256);
    private final int[] setIds = new int[MessageCatalog.MAX_QUOTE_ENTRIES];
    private final long[] entryIds = new long[MessageCatalog.MAX_QUOTE_ENTRIES];
    private final int[] instrumentIds = new int[MessageCatalog.MAX_QUOTE_ENTRIES];
    private final RejectReason[] reasons = new RejectReason[MessageCatalog.MAX_QUOTE_ENTRIES];

    MassQuoteAcknowledgementEncoder massQuoteAck(final MassQuoteAckDecoder d, final InstrumentDirectory instruments)
    {
        ack.reset();
        account.setLength(0);
        account.append(d.accountId());
        quoteId.setLength(0);
        appendTrimmed(quoteId, d.quoteId());
        ack.quoteID(quoteId).account(account);
        final QuoteStatus status = d.quoteStatus();
        ack.quoteStatus(status == QuoteStatus.REJECTED ? 5 : 0);
        text.setLength(0);
        if (d.rejectReason() != RejectReason.NONE)
        {
            ack.quoteRejectReason(quoteRejectReason(d.rejectReason()));
            text.append(d.rejectReason().name());
        }
        int count = 0;
        for (final MassQuoteAckDecoder.EntriesDecoder e : d.entries())
        {
            if (count < MessageCatalog.MAX_QUOTE_ENTRIES)
            {
                setIds[count] = e.quoteSetId();
                entryIds[count] = e.quoteEntryId();
                instrumentIds[count] = e.instrumentId();
                reasons[count] = e.entryStatus() == QuoteEntryStatus.REJECTED ? e.rejectReason() : null;
                count++;
            }
        }
        if (count > 0)
        {
            int runs = 1;
            for (int i = 1; i < count; i++)
            {
                runs += setIds[i] != setIds[i - 1] ? 1 : 0;
            }
            var set = ack.quoteSetsGroup(runs);
            int i = 0;
            while (i < count)
            {
                int end = i + 1;
                while (end < count && setIds[end] == setIds[i])
                {
                    end++;
                }
                setId.setLength(0);
                setId.append(setIds[i]);
                set.quoteSetID(setId).totNoQuoteEntries(end - i);
                // required by FIX 4.4 inside the set's UnderlyingInstrument, which Artio always writes; no meaning here
                set.underlyingInstrument().underlyingSymbol(NO_UNDERLYING);
                var entry = set.quoteEntriesGroup(end - i);
                for (int j = i; j < end; j++)
                {
                    entryId.setLength(0);
                    entryId.append(entryIds[j]);
                    entry.quoteEntryID(entryId);
                    final String symbol = instruments.symbol(instrumentIds[j]);
                    entry.instrument().symbol(null == symbol ? "UNKNOWN" : symbol);
                    if (null != reasons[j])
                    {
                        entry.quoteEntryRejectReason(quoteEntryRejectReason(reasons[j]));
                        if (text.length() > 0)
                        {
                            text.append(' ');
                        }
                        text.append("299=").append(entryIds[j]).append(':').append(reasons[j].name());
                    }
                    if (j + 1 < end)
                    {
                        entry = entry.next();
                    }
                }
                i = end;
                if (i < count)
                {
                    set = set.next();
                }
            }
        }
        if (text.length() > 0)
        {
            ack.text(text);
        }
        return ack;
    }

    MassQuoteAcknowledgementEncoder quoteCancelReport(final QuoteCancelReportDecoder d)
    {
        ack.reset();
        account.setLength(0);
        account.append(d.accountId());
        quoteId.setLength(0);
        appendTrimmed(quoteId, d.quoteId());
        ack.quoteID(quoteId).account(account);
        text.setLength(0);
        if (d.rejectReason() != RejectReason.NONE)
        {
            ack.quoteStatus(5).quoteRejectReason(quoteRejectReason(d.rejectReason()));
            text.append(d.rejectReason().name());
        }
        else
        {
            ack.quoteStatus(d.scopeRaw() == QuoteCancelScope.INSTRUMENT.value() ? 1 : 4);
            text.append("sides canceled=").append(d.sidesCanceled());
        }
        ack.text(text);
        return ack;
    }

    MassQuoteAcknowledgementEncoder protectionEvent(final MarketMakerProtectionEventDecoder d)
    {
        ack.reset();
        account.setLength(0);
        account.append(d.accountId());
        ack.account(account);
        text.setLength(0);
        final MmpEventType type = d.eventType();
        if (type == MmpEventType.BREACHED)
        {
            ack.quoteStatus(6);
            text.append("market-maker protection breached: ").append(d.limitReached().name())
                .append(" group ").append(d.mmpGroupId()).append(", ").append(d.quotesCanceled())
                .append(" quote sides canceled, frozen");
        }
        else
        {
            ack.quoteStatus(0);
            text.append("market-maker protection ").append(type.name()).append(" group ").append(d.mmpGroupId());
        }
        ack.text(text);
        return ack;
    }

    private static void appendTrimmed(final StringBuilder out, final String id)
    {
        out.append(id);
        int end = out.length();
        while (end > 0 && (out.charAt(end - 1) == 0 || out.charAt(end - 1) == ' '))
        {
            end--;
        }
        out.setLength(end);
    }

    private static int quoteRejectReason(final RejectReason reason)
    {
        switch (reason)
        {
            case UNKNOWN_INSTRUMENT:
                return 1;
            case VENUE_KILLED:
            case INSTRUMENT_HALTED:
                return 2;
            case TOO_MANY_QUOTE_ENTRIES:
                return 3;
            case NOT_AUTHORISED:
            case UNKNOWN_ACCOUNT:
            case ACCOUNT_KILLED:
            case ACCOUNT_SUSPENDED:
                return 9;
            default:
                return 99;
        }
    }

    private static int quoteEntryRejectReason(final RejectReason reason)
    {
        switch (reason)
        {
            case UNKNOWN_INSTRUMENT:
                return 1;
            case INSTRUMENT_HALTED:
            case INSTRUMENT_DELISTED:
                return 2;
            case QUOTE_CROSSED:
                return 7;
            case INVALID_PRICE:
            case INVALID_TICK:
            case PRICE_OUTSIDE_BAND:
                return 8;
            default:
                // FIX 4.4 has no "other" here: quantities, lots, the protection's freeze and the account's limits
                return 3;
        }
    }
}
