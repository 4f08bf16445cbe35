package io.ringex.risk.aeron;

import java.util.concurrent.atomic.AtomicLong;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.AccountDefinitionDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import io.ringex.risk.audit.AdminAudit;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;

/**
 * Decodes one engine node's events (one SBE message per reassembled fragment, from its risk, market-data and egress
 * streams) into the read model and the user directory, and hands AdminResponses to the action tracker and the admin
 * log. EngineStatus is always applied (it says which node to follow); other events only while this node is the one
 * followed ({@link RiskReadModel#follows(int)}): a follower publishes none, and a deposed or silent leader's are not
 * shown. AdminResponses are passed on to the tracker and the admin log from any node (request ids are unique, the admin
 * log keeps a command once). Messages this service does not use (on the egress, every ExecutionReport) are skipped;
 * malformed ones are counted and skipped.
 * <p>
 * Threading: one instance per node, on the agent thread; its decoders are reused and nothing is allocated per
 * message but what the user directory and the admin log keep (rare: admin changes).
 */
public final class EngineEventHandler implements FragmentHandler
{
    private final int engine;
    private final RiskReadModel model;
    private final AdminResponseListener adminResponses;
    private final UserDirectory users;
    private final AdminAudit audit;
    private final MessageValidator validator = new MessageValidator(1 << 20);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final AccountRiskUpdateDecoder accountRiskUpdate = new AccountRiskUpdateDecoder();
    private final AccountDefinitionDecoder accountDefinition = new AccountDefinitionDecoder();
    private final EngineStatusDecoder engineStatus = new EngineStatusDecoder();
    private final AdminResponseDecoder adminResponse = new AdminResponseDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final InstrumentDefinitionDecoder instrumentDefinition = new InstrumentDefinitionDecoder();
    private final BookLevelUpdateDecoder bookLevelUpdate = new BookLevelUpdateDecoder();
    private final BestBidOfferDecoder bestBidOffer = new BestBidOfferDecoder();
    private final BookSnapshotDecoder bookSnapshot = new BookSnapshotDecoder();
    private final UserDefinitionDecoder userDefinition = new UserDefinitionDecoder();
    private final UserDirectoryEndDecoder userDirectoryEnd = new UserDirectoryEndDecoder();
    private final MarketMakerProtectionEventDecoder protectionEvent = new MarketMakerProtectionEventDecoder();
    private final UnsafeBuffer command = new UnsafeBuffer(new byte[0]);
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong decoded = new AtomicLong();

    /**
     * @param engine         index of the node whose streams this handler reads.
     * @param model          where events go.
     * @param adminResponses who correlates admin responses.
     */
    public EngineEventHandler(final int engine, final RiskReadModel model, final AdminResponseListener adminResponses)
    {
        this(engine, model, adminResponses, new UserDirectory(Integer.MAX_VALUE, Long.MAX_VALUE),
            new AdminAudit(1, requestId -> null, instrumentId -> -1));
    }

    /**
     * @param engine         index of the node whose streams this handler reads.
     * @param model          where events go.
     * @param adminResponses who correlates admin responses.
     * @param users          where the user directory's events go.
     * @param audit          where answered admin commands go.
     */
    public EngineEventHandler(
        final int engine,
        final RiskReadModel model,
        final AdminResponseListener adminResponses,
        final UserDirectory users,
        final AdminAudit audit)
    {
        this.engine = engine;
        this.model = model;
        this.adminResponses = adminResponses;
        this.users = users;
        this.audit = audit;
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
            case AccountDefinitionDecoder.TEMPLATE_ID:
                model.onAccountDefinition(accountDefinition.wrap(buffer, bodyOffset, blockLength, version));
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
                onAdminResponse(adminResponse.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case UserDefinitionDecoder.TEMPLATE_ID:
                users.onUserDefinition(engine, userDefinition.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case MarketMakerProtectionEventDecoder.TEMPLATE_ID:
                model.protections().onEvent(protectionEvent.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case UserDirectoryEndDecoder.TEMPLATE_ID:
                users.onUserDirectoryEnd(engine, userDirectoryEnd.wrap(buffer, bodyOffset, blockLength, version));
                break;
            default:
                return;
        }
        decoded.incrementAndGet();
    }

    private void onAdminResponse(final AdminResponseDecoder response)
    {
        final long requestId = response.requestId();
        final int templateId = response.templateId();
        final AdminStatus status = response.status();
        final RejectReason reason = response.rejectReason();
        final long sequence = response.commandSequence();
        final long timestampNs = response.timestampNs();
        response.wrapCommand(command);
        adminResponses.onAdminResponse(requestId, templateId, status, reason, sequence);
        audit.onAdminResponse(engine, requestId, templateId, status, reason, sequence, timestampNs, command);
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
