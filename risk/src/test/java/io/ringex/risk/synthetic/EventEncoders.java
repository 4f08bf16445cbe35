package io.ringex.risk.synthetic;

import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.ringex.protocol.codecs.AccountRiskUpdateEncoder;
import io.ringex.protocol.codecs.AdminResponseEncoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.BestBidOfferEncoder;
import io.ringex.protocol.codecs.BookLevelUpdateEncoder;
import io.ringex.protocol.codecs.BookSnapshotEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.EngineStatusEncoder;
import io.ringex.protocol.codecs.InstrumentDefinitionEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradeEncoder;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UserDefinitionEncoder;
import io.ringex.protocol.codecs.UserDirectoryEndEncoder;

/**
 * Encodes the engine's events exactly as the schema lays them out, into one reusable buffer: each method returns the
 * encoded length (header included) at offset 0. Test scope: the read-model, web and Aeron tests feed the service
 * hand-made events through it (the browser IT uses the real engine).
 * Not thread-safe; one per thread.
 */
public final class EventEncoders
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64 * 1024]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final InstrumentDefinitionEncoder definition = new InstrumentDefinitionEncoder();
    private final AccountRiskUpdateEncoder accountRiskUpdate = new AccountRiskUpdateEncoder();
    private final EngineStatusEncoder engineStatus = new EngineStatusEncoder();
    private final AdminResponseEncoder adminResponse = new AdminResponseEncoder();
    private final TradeEncoder trade = new TradeEncoder();
    private final BookLevelUpdateEncoder level = new BookLevelUpdateEncoder();
    private final BestBidOfferEncoder bbo = new BestBidOfferEncoder();
    private final BookSnapshotEncoder snapshot = new BookSnapshotEncoder();
    private final UserDefinitionEncoder userDefinition = new UserDefinitionEncoder();
    private final UserDirectoryEndEncoder userDirectoryEnd = new UserDirectoryEndEncoder();
    private io.ringex.protocol.codecs.UserRole userRole = io.ringex.protocol.codecs.UserRole.TRADER;

    /**
     * @param role the role of the users {@link #userDefinition} writes from now on.
     * @return this.
     */
    public EventEncoders userRole(final io.ringex.protocol.codecs.UserRole role)
    {
        this.userRole = role;
        return this;
    }

    /** @return the buffer every method encodes into, at offset 0. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** A position of an AccountRiskUpdate. */
    public record Position(
        int instrumentId,
        long position,
        long averageCost,
        long realisedPnl,
        long unrealisedPnl,
        long openBuyQuantity,
        long openSellQuantity,
        long positionLimit,
        long markPrice)
    {
    }

    /** The account fields of an AccountRiskUpdate. */
    public record Account(
        long accountId,
        long timestampNs,
        long balance,
        long reserved,
        long realisedPnl,
        long unrealisedPnl,
        long exposure,
        long creditLimit,
        long maxOrderQuantity,
        long maxOrderNotional,
        int openOrders,
        int maxOpenOrders,
        boolean killSwitch,
        List<Position> positions)
    {
    }

    /** A price level of a BookSnapshot. */
    public record Level(Side side, long price, long quantity, int orderCount)
    {
    }

    public int instrumentDefinition(
        final int instrumentId,
        final String symbol,
        final int priceScale,
        final long tickSize,
        final long lotSize,
        final long referencePrice,
        final TradingStatus status,
        final long timeNs)
    {
        definition.wrapAndApplyHeader(buffer, 0, header)
            .instrumentId(instrumentId)
            .symbol(symbol)
            .priceScale((short)priceScale)
            .tickSize(tickSize)
            .lotSize(lotSize)
            .referencePrice(referencePrice)
            .priceBandType(PriceBandType.BASIS_POINTS)
            .priceBand(500)
            .status(status)
            .timestampNs(timeNs);
        return MessageHeaderEncoder.ENCODED_LENGTH + definition.encodedLength();
    }

    public int accountRiskUpdate(final Account a)
    {
        accountRiskUpdate.wrapAndApplyHeader(buffer, 0, header)
            .accountId(a.accountId())
            .timestampNs(a.timestampNs())
            .balance(a.balance())
            .reserved(a.reserved())
            .realisedPnl(a.realisedPnl())
            .unrealisedPnl(a.unrealisedPnl())
            .exposure(a.exposure())
            .creditLimit(a.creditLimit())
            .maxOrderQuantity(a.maxOrderQuantity())
            .maxOrderNotional(a.maxOrderNotional())
            .openOrders(a.openOrders())
            .maxOpenOrders(a.maxOpenOrders())
            .killSwitch(a.killSwitch() ? BooleanType.TRUE : BooleanType.FALSE);
        final AccountRiskUpdateEncoder.PositionsEncoder positions =
            accountRiskUpdate.positionsCount(a.positions().size());
        for (final Position p : a.positions())
        {
            positions.next()
                .instrumentId(p.instrumentId())
                .position(p.position())
                .averageCost(p.averageCost())
                .realisedPnl(p.realisedPnl())
                .unrealisedPnl(p.unrealisedPnl())
                .openBuyQuantity(p.openBuyQuantity())
                .openSellQuantity(p.openSellQuantity())
                .positionLimit(p.positionLimit())
                .markPrice(p.markPrice());
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + accountRiskUpdate.encodedLength();
    }

    /**
     * @param sequences ingress, journal, replication, processor, output, snapshot.
     * @param latencyNs p50, p99, p999, max.
     * @param counters  value per EngineCounter, indexed by its value().
     * @param rejects   count per RejectReason, indexed by its value(); zeros are left out.
     */
    public int engineStatus(
        final long epoch,
        final int nodeId,
        final NodeRole role,
        final long timeNs,
        final int ringCapacity,
        final long[] sequences,
        final long[] latencyNs,
        final long[] counters,
        final long[] rejects)
    {
        engineStatus.wrapAndApplyHeader(buffer, 0, header)
            .epoch(epoch)
            .nodeId(nodeId)
            .role(role)
            .timestampNs(timeNs)
            .ringCapacity(ringCapacity)
            .ingressSequence(sequences[0])
            .journalSequence(sequences[1])
            .replicationSequence(sequences[2])
            .processorSequence(sequences[3])
            .outputSequence(sequences[4])
            .snapshotSequence(sequences[5])
            .stateHash(0x5eed)
            .latencyP50Ns(latencyNs[0])
            .latencyP99Ns(latencyNs[1])
            .latencyP999Ns(latencyNs[2])
            .latencyMaxNs(latencyNs[3]);
        int counterCount = 0;
        for (final EngineCounter c : EngineCounter.values())
        {
            if (c != EngineCounter.NULL_VAL && c.value() < counters.length)
            {
                counterCount++;
            }
        }
        final EngineStatusEncoder.CountersEncoder ce = engineStatus.countersCount(counterCount);
        for (final EngineCounter c : EngineCounter.values())
        {
            if (c != EngineCounter.NULL_VAL && c.value() < counters.length)
            {
                ce.next().counter(c).value(counters[c.value()]);
            }
        }
        int rejectCount = 0;
        for (final RejectReason r : RejectReason.values())
        {
            if (r != RejectReason.NULL_VAL && r.value() < rejects.length && rejects[r.value()] != 0)
            {
                rejectCount++;
            }
        }
        final EngineStatusEncoder.RejectsEncoder re = engineStatus.rejectsCount(rejectCount);
        for (final RejectReason r : RejectReason.values())
        {
            if (r != RejectReason.NULL_VAL && r.value() < rejects.length && rejects[r.value()] != 0)
            {
                re.next().reason(r).rejectCount(rejects[r.value()]);
            }
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + engineStatus.encodedLength();
    }

    /** An AdminResponse that echoes no command (as an engine may for a command it could not copy). */
    public int adminResponse(
        final long requestId,
        final int templateId,
        final AdminStatus status,
        final RejectReason reason,
        final long commandSequence,
        final long timeNs)
    {
        return adminResponse(requestId, templateId, status, reason, commandSequence, timeNs,
            new UnsafeBuffer(new byte[0]), 0);
    }

    /**
     * An AdminResponse echoing the command it answers, header included, as the engine writes it.
     *
     * @param command       holding the command at offset 0 (e.g. a client CommandEncoder's buffer).
     * @param commandLength its length, header included.
     */
    public int adminResponse(
        final long requestId,
        final int templateId,
        final AdminStatus status,
        final RejectReason reason,
        final long commandSequence,
        final long timeNs,
        final DirectBuffer command,
        final int commandLength)
    {
        adminResponse.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .templateId(templateId)
            .status(status)
            .rejectReason(reason)
            .commandSequence(commandSequence)
            .timestampNs(timeNs)
            .putCommand(command, 0, commandLength);
        return MessageHeaderEncoder.ENCODED_LENGTH + adminResponse.encodedLength();
    }

    /**
     * A UserDefinition as the engine writes it, credential hash included.
     *
     * @param gatewayId       the gateway it answers, 0 for a broadcast.
     * @param requestId       the directory request it answers, 0 for a broadcast.
     * @param username        the user.
     * @param enabled         may log on.
     * @param accounts        the accounts it trades.
     * @param compId          its FIX SenderCompID or empty.
     * @param credentialHash  its hash or empty.
     * @param commandSequence the command that last changed it.
     */
    public int userDefinition(
        final int gatewayId,
        final long requestId,
        final String username,
        final boolean enabled,
        final long[] accounts,
        final String compId,
        final String credentialHash,
        final long commandSequence)
    {
        userDefinition.wrapAndApplyHeader(buffer, 0, header)
            .gatewayId(gatewayId)
            .requestId(requestId)
            .enabled(enabled ? BooleanType.TRUE : BooleanType.FALSE)
            .fixCancelOnDisconnect(BooleanType.TRUE)
            .throttleMessagesPerSecond(100)
            .commandSequence(commandSequence)
            .role(userRole)
            .cancelOnDisconnectGraceMs(5_000);
        final UserDefinitionEncoder.AccountsEncoder group = userDefinition.accountsCount(accounts.length);
        for (final long account : accounts)
        {
            group.next().accountId(account);
        }
        userDefinition.username(username).fixSenderCompId(compId).credentialHash(credentialHash);
        return MessageHeaderEncoder.ENCODED_LENGTH + userDefinition.encodedLength();
    }

    /** The end of a directory answer. */
    public int userDirectoryEnd(final int gatewayId, final long requestId, final int userCount, final long sequence)
    {
        userDirectoryEnd.wrapAndApplyHeader(buffer, 0, header)
            .gatewayId(gatewayId)
            .requestId(requestId)
            .userCount(userCount)
            .commandSequence(sequence);
        return MessageHeaderEncoder.ENCODED_LENGTH + userDirectoryEnd.encodedLength();
    }

    public int trade(
        final int instrumentId,
        final long mdSequence,
        final long tradeId,
        final long price,
        final long quantity,
        final Side aggressor,
        final long buyAccountId,
        final long sellAccountId,
        final long timeNs)
    {
        trade.wrapAndApplyHeader(buffer, 0, header)
            .instrumentId(instrumentId)
            .mdSequence(mdSequence)
            .tradeId(tradeId)
            .price(price)
            .quantity(quantity)
            .aggressorSide(aggressor)
            .buyOrderId(tradeId * 2)
            .sellOrderId(tradeId * 2 + 1)
            .buyAccountId(buyAccountId)
            .sellAccountId(sellAccountId)
            .timestampNs(timeNs);
        return MessageHeaderEncoder.ENCODED_LENGTH + trade.encodedLength();
    }

    public int bookLevelUpdate(
        final int instrumentId,
        final long mdSequence,
        final Side side,
        final long price,
        final long quantity,
        final int orderCount,
        final long timeNs)
    {
        level.wrapAndApplyHeader(buffer, 0, header)
            .instrumentId(instrumentId)
            .mdSequence(mdSequence)
            .side(side)
            .price(price)
            .quantity(quantity)
            .orderCount(orderCount)
            .timestampNs(timeNs);
        return MessageHeaderEncoder.ENCODED_LENGTH + level.encodedLength();
    }

    public int bestBidOffer(
        final int instrumentId,
        final long mdSequence,
        final long bidPrice,
        final long bidQuantity,
        final long askPrice,
        final long askQuantity,
        final long timeNs)
    {
        bbo.wrapAndApplyHeader(buffer, 0, header)
            .instrumentId(instrumentId)
            .mdSequence(mdSequence)
            .bidPrice(bidPrice)
            .bidQuantity(bidQuantity)
            .askPrice(askPrice)
            .askQuantity(askQuantity)
            .timestampNs(timeNs);
        return MessageHeaderEncoder.ENCODED_LENGTH + bbo.encodedLength();
    }

    public int bookSnapshot(
        final int instrumentId,
        final long mdSequence,
        final TradingStatus status,
        final long lastTradePrice,
        final List<Level> levels,
        final long timeNs)
    {
        snapshot.wrapAndApplyHeader(buffer, 0, header)
            .instrumentId(instrumentId)
            .mdSequence(mdSequence)
            .status(status)
            .lastTradePrice(lastTradePrice)
            .timestampNs(timeNs);
        final BookSnapshotEncoder.LevelsEncoder le = snapshot.levelsCount(levels.size());
        for (final Level l : levels)
        {
            le.next().side(l.side()).price(l.price()).quantity(l.quantity()).orderCount(l.orderCount());
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + snapshot.encodedLength();
    }
}
