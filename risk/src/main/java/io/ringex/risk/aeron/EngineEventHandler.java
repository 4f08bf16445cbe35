package io.ringex.risk.aeron;

import java.util.concurrent.atomic.AtomicLong;

import org.agrona.DirectBuffer;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.risk.model.RiskReadModel;

/**
 * Decodes one engine node's events (one SBE message per reassembled fragment) into the read model and hands
 * AdminResponses to the action tracker. EngineStatus is always applied (it says which node to follow); other events
 * only while this node is the one followed ({@link RiskReadModel#follows(int)}): a standby publishes none, and a
 * superseded or silent primary's are not shown. AdminResponses are passed on from any node (request ids are unique).
 * Messages this service does not use are skipped; malformed ones are counted and skipped.
 * <p>
 * Threading: one instance per node, on the agent thread; its decoders are reused and nothing is allocated per
 * message.
 */
public final class EngineEventHandler implements FragmentHandler
{
    private final int engine;
    private final RiskReadModel model;
    private final AdminResponseListener adminResponses;
    private final MessageValidator validator = new MessageValidator(1 << 20);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final AccountRiskUpdateDecoder accountRiskUpdate = new AccountRiskUpdateDecoder();
    private final EngineStatusDecoder engineStatus = new EngineStatusDecoder();
    private final AdminResponseDecoder adminResponse = new AdminResponseDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final InstrumentDefinitionDecoder instrumentDefinition = new InstrumentDefinitionDecoder();
    private final BookLevelUpdateDecoder bookLevelUpdate = new BookLevelUpdateDecoder();
    private final BestBidOfferDecoder bestBidOffer = new BestBidOfferDecoder();
    private final BookSnapshotDecoder bookSnapshot = new BookSnapshotDecoder();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong decoded = new AtomicLong();

    /**
     * @param engine         index of the node whose streams this handler reads.
     * @param model          where events go.
     * @param adminResponses who correlates admin responses.
     */
    public EngineEventHandler(final int engine, final RiskReadModel model, final AdminResponseListener adminResponses)
    {
        this.engine = engine;
        this.model = model;
        this.adminResponses = adminResponses;
    }

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader)
    {
        if (validator.validate(buffer, offset, length) != RejectReason.NONE)
        {
            malformed.incrementAndGet();
            return;
        }
        header.wrap(buffer, offset);
        final int templateId = header.templateId();
        final int blockLength = header.blockLength();
        final int version = header.version();
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        if (templateId != EngineStatusDecoder.TEMPLATE_ID && templateId != AdminResponseDecoder.TEMPLATE_ID &&
            !model.follows(engine))
        {
            model.ignored();
            return;
        }
        switch (templateId)
        {
            case AccountRiskUpdateDecoder.TEMPLATE_ID:
                model.onAccountRiskUpdate(accountRiskUpdate.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case EngineStatusDecoder.TEMPLATE_ID:
                model.onEngineStatus(engine, engineStatus.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case TradeDecoder.TEMPLATE_ID:
                model.onTrade(trade.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
                model.onInstrumentDefinition(instrumentDefinition.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case BookLevelUpdateDecoder.TEMPLATE_ID:
                model.onBookLevelUpdate(bookLevelUpdate.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case BestBidOfferDecoder.TEMPLATE_ID:
                model.onBestBidOffer(bestBidOffer.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case BookSnapshotDecoder.TEMPLATE_ID:
                model.onBookSnapshot(bookSnapshot.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case AdminResponseDecoder.TEMPLATE_ID:
                adminResponse.wrap(buffer, bodyOffset, blockLength, version);
                adminResponses.onAdminResponse(adminResponse.requestId(), adminResponse.templateId(),
                    adminResponse.status(), adminResponse.rejectReason(), adminResponse.commandSequence());
                break;
            default:
                return;
        }
        decoded.incrementAndGet();
    }

    /** @return messages refused by the validator. */
    public long malformedCount()
    {
        return malformed.get();
    }

    /** @return messages applied. */
    public long decodedCount()
    {
        return decoded.get();
    }
}
