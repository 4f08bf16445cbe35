package io.ringex.protocol;

import io.ringex.protocol.codecs.AccountDefinitionDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AddAccountDecoder;
import io.ringex.protocol.codecs.AddInstrumentDecoder;
import io.ringex.protocol.codecs.AdjustBalanceDecoder;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.AmendInstrumentDecoder;
import io.ringex.protocol.codecs.AuctionIndicativeDecoder;
import io.ringex.protocol.codecs.AuthenticatedCommandDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookOrdersDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.BustTradeDecoder;
import io.ringex.protocol.codecs.CancelAllAfterDecoder;
import io.ringex.protocol.codecs.CancelAllAfterReportDecoder;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.CatchUpRequestDecoder;
import io.ringex.protocol.codecs.CatchUpResponseDecoder;
import io.ringex.protocol.codecs.CatchUpStopDecoder;
import io.ringex.protocol.codecs.DelistInstrumentDecoder;
import io.ringex.protocol.codecs.DropCopyStatusDecoder;
import io.ringex.protocol.codecs.DropCopySubscribeDecoder;
import io.ringex.protocol.codecs.EndOfDayDecoder;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.EventBatchDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.GatewayBarrierDecoder;
import io.ringex.protocol.codecs.GatewayBarrierReachedDecoder;
import io.ringex.protocol.codecs.HeartbeatDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.KillSwitchDecoder;
import io.ringex.protocol.codecs.LogonDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogonsUnlockedDecoder;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MarketStatisticsDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.MassQuoteDecoder;
import io.ringex.protocol.codecs.NewEpochDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestDecoder;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.OrderStatusRequestDecoder;
import io.ringex.protocol.codecs.QuoteCancelDecoder;
import io.ringex.protocol.codecs.QuoteCancelReportDecoder;
import io.ringex.protocol.codecs.ReferenceDataRequestDecoder;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.ReplicatedCommandDecoder;
import io.ringex.protocol.codecs.ReplicationAckDecoder;
import io.ringex.protocol.codecs.ReplicationHeartbeatDecoder;
import io.ringex.protocol.codecs.ReportReplayEndDecoder;
import io.ringex.protocol.codecs.ReportReplayRequestDecoder;
import io.ringex.protocol.codecs.ReportReplayResponseDecoder;
import io.ringex.protocol.codecs.ResetMarketMakerProtectionDecoder;
import io.ringex.protocol.codecs.RetransmitRequestDecoder;
import io.ringex.protocol.codecs.RetransmitResponseDecoder;
import io.ringex.protocol.codecs.SessionStatusDecoder;
import io.ringex.protocol.codecs.SetAccountStatusDecoder;
import io.ringex.protocol.codecs.SetDynamicBandDecoder;
import io.ringex.protocol.codecs.SetLimitsDecoder;
import io.ringex.protocol.codecs.SetMarketMakerProtectionDecoder;
import io.ringex.protocol.codecs.SetTradingScheduleDecoder;
import io.ringex.protocol.codecs.SetTradingStatusDecoder;
import io.ringex.protocol.codecs.SetUserCredentialDecoder;
import io.ringex.protocol.codecs.SnapshotRequestDecoder;
import io.ringex.protocol.codecs.SnapshotResponseDecoder;
import io.ringex.protocol.codecs.TakeSnapshotDecoder;
import io.ringex.protocol.codecs.TickDecoder;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.protocol.codecs.TradingScheduleDefinitionDecoder;
import io.ringex.protocol.codecs.UnlockLogonsDecoder;
import io.ringex.protocol.codecs.UpsertUserDecoder;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import io.ringex.protocol.codecs.UserDirectoryRequestDecoder;

/**
 * What this build knows of each message of the schema: its kind, its root block length and the shape of what follows
 * the root block (repeating groups, variable-length data), which is what {@link MessageValidator} needs to check a
 * message's structure without decoding it.
 * <p>
 * The table is written out rather than derived at run time so that it is plain data on the hot path; a test checks it
 * against the schema's IR, so adding a message without adding it here fails the build.
 */
public final class MessageCatalog
{
    /** Who sends a message and where it goes. */
    public enum Kind
    {
        /** Client and gateway only. */
        SESSION,
        /** Client to gateway to engine. */
        ORDER_ENTRY,
        /** Risk service or gateway to engine, journaled like orders. */
        ADMIN,
        /**
         * Operator or service to the engine's ingress: an admin command inside the proof of its sender's key. The
         * ingress checks and unwraps it; the journal holds the command, never this.
         */
        AUTHENTICATED,
        /** Engine to gateways, market data and risk. */
        EVENT,
        /** Between primary and standby. */
        REPLICATION,
        /** Made by the engine node itself and journaled (the ring's clock); refused from the network. */
        TIMER,
        /** Market-data subscriber to the engine's recovery service (never journaled, never to the book). */
        MARKET_DATA_REQUEST,
        /** Gateway to the engine's report replay service (never journaled, never to the book). */
        REPLAY_REQUEST
    }

    /** A part after the root block: a repeating group (no nested parts) or a length-prefixed var data field. */
    public enum Part
    {
        /** groupSizeEncoding header (uint16 blockLength, uint16 numInGroup) then the entries. */
        GROUP,
        /** uint32 length then the bytes. */
        VAR_DATA
    }

    /** Size of groupSizeEncoding. */
    public static final int GROUP_HEADER_LENGTH = 4;

    /** Size of the length prefix of var data. */
    public static final int VAR_DATA_HEADER_LENGTH = 4;

    /**
     * Most entries of one MassQuote (schema version 3): the gateways refuse more (TOO_MANY_QUOTE_ENTRIES) before the
     * engine sees it, and the engine refuses more too.
     */
    public static final int MAX_QUOTE_ENTRIES = 10;

    /**
     * Longest cancel-on-disconnect grace of a user (UpsertUser, schema version 3), ten minutes: the engine refuses
     * more, and the admin tool and the gateways' configuration too.
     */
    public static final int MAX_CANCEL_ON_DISCONNECT_GRACE_MS = 600_000;

    private static final int MAX_TEMPLATE_ID = 255;
    private static final Kind[] KINDS = new Kind[MAX_TEMPLATE_ID + 1];
    private static final int[] BLOCK_LENGTHS = new int[MAX_TEMPLATE_ID + 1];
    /** Per template: the schema version each part (group or var data) was added in; null if all came with version 1. */
    private static final int[][] PART_SINCE_VERSIONS = new int[MAX_TEMPLATE_ID + 1][];
    /** Per template: the root block length at each schema version, index version - 1; null if it never changed. */
    private static final int[][] BLOCK_LENGTHS_BY_VERSION = new int[MAX_TEMPLATE_ID + 1][];
    private static final int[][] GROUP_BLOCK_LENGTHS = new int[MAX_TEMPLATE_ID + 1][];
    private static final Part[][] PARTS = new Part[MAX_TEMPLATE_ID + 1][];
    private static final String[] NAMES = new String[MAX_TEMPLATE_ID + 1];
    private static final Part[] NONE = new Part[0];
    private static final int[] NO_GROUPS = new int[0];
    /** An operator's change's operatorName and reason, added at the end of it in schema version 4. */
    private static final Part[] AUDIT = new Part[]{ Part.VAR_DATA, Part.VAR_DATA };

    static
    {
        add(LogonDecoder.TEMPLATE_ID, "Logon", Kind.SESSION, LogonDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(LogonResponseDecoder.TEMPLATE_ID, "LogonResponse", Kind.SESSION, LogonResponseDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA }, NO_GROUPS);
        add(HeartbeatDecoder.TEMPLATE_ID, "Heartbeat", Kind.SESSION, HeartbeatDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(LogoutDecoder.TEMPLATE_ID, "Logout", Kind.SESSION, LogoutDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA }, NO_GROUPS);

        add(NewOrderDecoder.TEMPLATE_ID, "NewOrder", Kind.ORDER_ENTRY, NewOrderDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(CancelOrderDecoder.TEMPLATE_ID, "CancelOrder", Kind.ORDER_ENTRY, CancelOrderDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(ReplaceOrderDecoder.TEMPLATE_ID, "ReplaceOrder", Kind.ORDER_ENTRY, ReplaceOrderDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(MassCancelDecoder.TEMPLATE_ID, "MassCancel", Kind.ORDER_ENTRY, MassCancelDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(OrderStatusRequestDecoder.TEMPLATE_ID, "OrderStatusRequest", Kind.ORDER_ENTRY,
            OrderStatusRequestDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(OrderMassStatusRequestDecoder.TEMPLATE_ID, "OrderMassStatusRequest", Kind.ORDER_ENTRY,
            OrderMassStatusRequestDecoder.BLOCK_LENGTH, new Part[]{ Part.GROUP },
            new int[]{ OrderMassStatusRequestDecoder.AccountsDecoder.sbeBlockLength() });

        add(AddInstrumentDecoder.TEMPLATE_ID, "AddInstrument", Kind.ADMIN, AddInstrumentDecoder.BLOCK_LENGTH,
            AUDIT, NO_GROUPS);
        add(AddAccountDecoder.TEMPLATE_ID, "AddAccount", Kind.ADMIN, AddAccountDecoder.BLOCK_LENGTH, AUDIT, NO_GROUPS);
        add(SetLimitsDecoder.TEMPLATE_ID, "SetLimits", Kind.ADMIN, SetLimitsDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP, Part.VAR_DATA, Part.VAR_DATA },
            new int[]{ SetLimitsDecoder.PositionLimitsDecoder.sbeBlockLength() });
        add(AdjustBalanceDecoder.TEMPLATE_ID, "AdjustBalance", Kind.ADMIN, AdjustBalanceDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(SetTradingStatusDecoder.TEMPLATE_ID, "SetTradingStatus", Kind.ADMIN,
            SetTradingStatusDecoder.BLOCK_LENGTH, AUDIT, NO_GROUPS);
        add(KillSwitchDecoder.TEMPLATE_ID, "KillSwitch", Kind.ADMIN, KillSwitchDecoder.BLOCK_LENGTH, AUDIT, NO_GROUPS);
        add(TakeSnapshotDecoder.TEMPLATE_ID, "TakeSnapshot", Kind.ADMIN, TakeSnapshotDecoder.BLOCK_LENGTH,
            AUDIT, NO_GROUPS);
        add(EndOfDayDecoder.TEMPLATE_ID, "EndOfDay", Kind.ADMIN, EndOfDayDecoder.BLOCK_LENGTH, AUDIT, NO_GROUPS);
        add(ReferenceDataRequestDecoder.TEMPLATE_ID, "ReferenceDataRequest", Kind.ADMIN,
            ReferenceDataRequestDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(NewEpochDecoder.TEMPLATE_ID, "NewEpoch", Kind.ADMIN, NewEpochDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(SessionStatusDecoder.TEMPLATE_ID, "SessionStatus", Kind.ADMIN, SessionStatusDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(AuthenticatedCommandDecoder.TEMPLATE_ID, "AuthenticatedCommand", Kind.AUTHENTICATED,
            AuthenticatedCommandDecoder.BLOCK_LENGTH, new Part[]{ Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(UnlockLogonsDecoder.TEMPLATE_ID, "UnlockLogons", Kind.ADMIN, UnlockLogonsDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(TickDecoder.TEMPLATE_ID, "Tick", Kind.TIMER, TickDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(AmendInstrumentDecoder.TEMPLATE_ID, "AmendInstrument", Kind.ADMIN, AmendInstrumentDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(DelistInstrumentDecoder.TEMPLATE_ID, "DelistInstrument", Kind.ADMIN,
            DelistInstrumentDecoder.BLOCK_LENGTH, new Part[]{ Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(SetAccountStatusDecoder.TEMPLATE_ID, "SetAccountStatus", Kind.ADMIN,
            SetAccountStatusDecoder.BLOCK_LENGTH, new Part[]{ Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(UpsertUserDecoder.TEMPLATE_ID, "UpsertUser", Kind.ADMIN, UpsertUserDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP, Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA },
            new int[]{ UpsertUserDecoder.AccountsDecoder.sbeBlockLength() });
        add(SetUserCredentialDecoder.TEMPLATE_ID, "SetUserCredential", Kind.ADMIN,
            SetUserCredentialDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(UserDirectoryRequestDecoder.TEMPLATE_ID, "UserDirectoryRequest", Kind.ADMIN,
            UserDirectoryRequestDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(SetTradingScheduleDecoder.TEMPLATE_ID, "SetTradingSchedule", Kind.ADMIN,
            SetTradingScheduleDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP, Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA },
            new int[]{ SetTradingScheduleDecoder.HolidaysDecoder.sbeBlockLength() });

        add(TradingScheduleDefinitionDecoder.TEMPLATE_ID, "TradingScheduleDefinition", Kind.EVENT,
            TradingScheduleDefinitionDecoder.BLOCK_LENGTH, new Part[]{ Part.GROUP, Part.VAR_DATA },
            new int[]{ TradingScheduleDefinitionDecoder.HolidaysDecoder.sbeBlockLength() });
        // Order types and trading phases (schema version 2; the schema's ids 80-89)
        add(SetDynamicBandDecoder.TEMPLATE_ID, "SetDynamicBand", Kind.ADMIN, SetDynamicBandDecoder.BLOCK_LENGTH,
            AUDIT, NO_GROUPS);
        add(AuctionIndicativeDecoder.TEMPLATE_ID, "AuctionIndicative", Kind.EVENT,
            AuctionIndicativeDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);

        add(ExecutionReportDecoder.TEMPLATE_ID, "ExecutionReport", Kind.EVENT, ExecutionReportDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(CancelRejectDecoder.TEMPLATE_ID, "CancelReject", Kind.EVENT, CancelRejectDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(BookLevelUpdateDecoder.TEMPLATE_ID, "BookLevelUpdate", Kind.EVENT, BookLevelUpdateDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(TradeDecoder.TEMPLATE_ID, "Trade", Kind.EVENT, TradeDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(BestBidOfferDecoder.TEMPLATE_ID, "BestBidOffer", Kind.EVENT, BestBidOfferDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(BookSnapshotDecoder.TEMPLATE_ID, "BookSnapshot", Kind.EVENT, BookSnapshotDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP }, new int[]{ BookSnapshotDecoder.LevelsDecoder.sbeBlockLength() });
        add(InstrumentDefinitionDecoder.TEMPLATE_ID, "InstrumentDefinition", Kind.EVENT,
            InstrumentDefinitionDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(AccountRiskUpdateDecoder.TEMPLATE_ID, "AccountRiskUpdate", Kind.EVENT,
            AccountRiskUpdateDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP }, new int[]{ AccountRiskUpdateDecoder.PositionsDecoder.sbeBlockLength() });
        add(AccountDefinitionDecoder.TEMPLATE_ID, "AccountDefinition", Kind.EVENT,
            AccountDefinitionDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP }, new int[]{ AccountDefinitionDecoder.PositionsDecoder.sbeBlockLength() });
        add(EngineStatusDecoder.TEMPLATE_ID, "EngineStatus", Kind.EVENT, EngineStatusDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP, Part.GROUP },
            new int[]{ EngineStatusDecoder.CountersDecoder.sbeBlockLength(),
                EngineStatusDecoder.RejectsDecoder.sbeBlockLength() });
        add(AdminResponseDecoder.TEMPLATE_ID, "AdminResponse", Kind.EVENT, AdminResponseDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA }, NO_GROUPS);
        add(BusinessRejectDecoder.TEMPLATE_ID, "BusinessReject", Kind.EVENT, BusinessRejectDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA }, NO_GROUPS);
        add(OrderStatusReportDecoder.TEMPLATE_ID, "OrderStatusReport", Kind.EVENT,
            OrderStatusReportDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(MassCancelReportDecoder.TEMPLATE_ID, "MassCancelReport", Kind.EVENT,
            MassCancelReportDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(LogonsUnlockedDecoder.TEMPLATE_ID, "LogonsUnlocked", Kind.EVENT, LogonsUnlockedDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(UserDefinitionDecoder.TEMPLATE_ID, "UserDefinition", Kind.EVENT, UserDefinitionDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP, Part.VAR_DATA, Part.VAR_DATA, Part.VAR_DATA },
            new int[]{ UserDefinitionDecoder.AccountsDecoder.sbeBlockLength() });
        add(UserDirectoryEndDecoder.TEMPLATE_ID, "UserDirectoryEnd", Kind.EVENT,
            UserDirectoryEndDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(EventBatchDecoder.TEMPLATE_ID, "EventBatch", Kind.EVENT, EventBatchDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA }, NO_GROUPS);

        add(ReplicatedCommandDecoder.TEMPLATE_ID, "ReplicatedCommand", Kind.REPLICATION,
            ReplicatedCommandDecoder.BLOCK_LENGTH, new Part[]{ Part.VAR_DATA }, NO_GROUPS);
        add(ReplicationAckDecoder.TEMPLATE_ID, "ReplicationAck", Kind.REPLICATION,
            ReplicationAckDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(ReplicationHeartbeatDecoder.TEMPLATE_ID, "ReplicationHeartbeat", Kind.REPLICATION,
            ReplicationHeartbeatDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(CatchUpRequestDecoder.TEMPLATE_ID, "CatchUpRequest", Kind.REPLICATION,
            CatchUpRequestDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(CatchUpResponseDecoder.TEMPLATE_ID, "CatchUpResponse", Kind.REPLICATION,
            CatchUpResponseDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(CatchUpStopDecoder.TEMPLATE_ID, "CatchUpStop", Kind.REPLICATION,
            CatchUpStopDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);

        // Post-trade corrections (the schema's ids 90-99)
        add(BustTradeDecoder.TEMPLATE_ID, "BustTrade", Kind.ADMIN, BustTradeDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);
        add(TradeBustedDecoder.TEMPLATE_ID, "TradeBusted", Kind.EVENT, TradeBustedDecoder.BLOCK_LENGTH,
            new Part[]{ Part.VAR_DATA, Part.VAR_DATA }, NO_GROUPS);

        // Market-data feed and recovery (the schema's ids 110-129)
        add(MarketStatisticsDecoder.TEMPLATE_ID, "MarketStatistics", Kind.EVENT, MarketStatisticsDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(BookOrdersDecoder.TEMPLATE_ID, "BookOrders", Kind.EVENT, BookOrdersDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP }, new int[]{ BookOrdersDecoder.OrdersDecoder.sbeBlockLength() });
        add(SnapshotRequestDecoder.TEMPLATE_ID, "SnapshotRequest", Kind.MARKET_DATA_REQUEST,
            SnapshotRequestDecoder.BLOCK_LENGTH, new Part[]{ Part.VAR_DATA }, NO_GROUPS);
        add(SnapshotResponseDecoder.TEMPLATE_ID, "SnapshotResponse", Kind.EVENT, SnapshotResponseDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(RetransmitRequestDecoder.TEMPLATE_ID, "RetransmitRequest", Kind.MARKET_DATA_REQUEST,
            RetransmitRequestDecoder.BLOCK_LENGTH, new Part[]{ Part.VAR_DATA }, NO_GROUPS);
        add(RetransmitResponseDecoder.TEMPLATE_ID, "RetransmitResponse", Kind.EVENT,
            RetransmitResponseDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);

        // Failover (the schema's ids 100-109): a gateway's barrier is journaled like SessionStatus.
        add(GatewayBarrierDecoder.TEMPLATE_ID, "GatewayBarrier", Kind.ADMIN, GatewayBarrierDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(GatewayBarrierReachedDecoder.TEMPLATE_ID, "GatewayBarrierReached", Kind.EVENT,
            GatewayBarrierReachedDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);

        // Report replay and drop copy (the schema's ids 105-109)
        add(ReportReplayRequestDecoder.TEMPLATE_ID, "ReportReplayRequest", Kind.REPLAY_REQUEST,
            ReportReplayRequestDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(ReportReplayResponseDecoder.TEMPLATE_ID, "ReportReplayResponse", Kind.EVENT,
            ReportReplayResponseDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(ReportReplayEndDecoder.TEMPLATE_ID, "ReportReplayEnd", Kind.EVENT, ReportReplayEndDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(DropCopySubscribeDecoder.TEMPLATE_ID, "DropCopySubscribe", Kind.SESSION,
            DropCopySubscribeDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(DropCopyStatusDecoder.TEMPLATE_ID, "DropCopyStatus", Kind.SESSION, DropCopyStatusDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);

        // Market makers (the schema's ids 120-139, version 3)
        add(MassQuoteDecoder.TEMPLATE_ID, "MassQuote", Kind.ORDER_ENTRY, MassQuoteDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP }, new int[]{ MassQuoteDecoder.EntriesDecoder.sbeBlockLength() });
        add(MassQuoteAckDecoder.TEMPLATE_ID, "MassQuoteAck", Kind.EVENT, MassQuoteAckDecoder.BLOCK_LENGTH,
            new Part[]{ Part.GROUP }, new int[]{ MassQuoteAckDecoder.EntriesDecoder.sbeBlockLength() });
        add(QuoteCancelDecoder.TEMPLATE_ID, "QuoteCancel", Kind.ORDER_ENTRY, QuoteCancelDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(QuoteCancelReportDecoder.TEMPLATE_ID, "QuoteCancelReport", Kind.EVENT,
            QuoteCancelReportDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(SetMarketMakerProtectionDecoder.TEMPLATE_ID, "SetMarketMakerProtection", Kind.ADMIN,
            SetMarketMakerProtectionDecoder.BLOCK_LENGTH, new Part[]{ Part.GROUP, Part.VAR_DATA, Part.VAR_DATA },
            new int[]{ SetMarketMakerProtectionDecoder.InstrumentsDecoder.sbeBlockLength() });
        add(ResetMarketMakerProtectionDecoder.TEMPLATE_ID, "ResetMarketMakerProtection", Kind.ORDER_ENTRY,
            ResetMarketMakerProtectionDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);
        add(MarketMakerProtectionEventDecoder.TEMPLATE_ID, "MarketMakerProtectionEvent", Kind.EVENT,
            MarketMakerProtectionEventDecoder.BLOCK_LENGTH, new Part[]{ Part.GROUP },
            new int[]{ MarketMakerProtectionEventDecoder.InstrumentsDecoder.sbeBlockLength() });
        add(CancelAllAfterDecoder.TEMPLATE_ID, "CancelAllAfter", Kind.ORDER_ENTRY, CancelAllAfterDecoder.BLOCK_LENGTH,
            NONE, NO_GROUPS);
        add(CancelAllAfterReportDecoder.TEMPLATE_ID, "CancelAllAfterReport", Kind.EVENT,
            CancelAllAfterReportDecoder.BLOCK_LENGTH, NONE, NO_GROUPS);

        // Root blocks that grew: their length at versions 1, 2, 3 (fields added later sit at the block's end; a later
        // version not named keeps the last length named).
        grew(LogonDecoder.TEMPLATE_ID, 9, LogonDecoder.BLOCK_LENGTH, LogonDecoder.BLOCK_LENGTH);
        grew(LogonResponseDecoder.TEMPLATE_ID, 31, LogonResponseDecoder.BLOCK_LENGTH,
            LogonResponseDecoder.BLOCK_LENGTH);
        grew(BookLevelUpdateDecoder.TEMPLATE_ID, 41, BookLevelUpdateDecoder.BLOCK_LENGTH,
            BookLevelUpdateDecoder.BLOCK_LENGTH);
        grew(InstrumentDefinitionDecoder.TEMPLATE_ID, InstrumentDefinitionDecoder.BLOCK_LENGTH - 8,
            InstrumentDefinitionDecoder.BLOCK_LENGTH, InstrumentDefinitionDecoder.BLOCK_LENGTH);
        // Order types and trading phases: fields added in schema version 2
        grew(NewOrderDecoder.TEMPLATE_ID, 61, NewOrderDecoder.BLOCK_LENGTH, NewOrderDecoder.BLOCK_LENGTH);
        grew(ReplaceOrderDecoder.TEMPLATE_ID, 84, ReplaceOrderDecoder.BLOCK_LENGTH, ReplaceOrderDecoder.BLOCK_LENGTH);
        grew(SetTradingStatusDecoder.TEMPLATE_ID, 13, SetTradingStatusDecoder.BLOCK_LENGTH,
            SetTradingStatusDecoder.BLOCK_LENGTH);
        grew(ExecutionReportDecoder.TEMPLATE_ID, 164, ExecutionReportDecoder.BLOCK_LENGTH,
            ExecutionReportDecoder.BLOCK_LENGTH);
        grew(TradeDecoder.TEMPLATE_ID, 77, TradeDecoder.BLOCK_LENGTH, TradeDecoder.BLOCK_LENGTH);
        // User roles: UpsertUser and UserDefinition carry the role, one byte at the end of the block.
        // Market makers (schema version 3): the cancel-on-disconnect grace, an int32 after it.
        grew(UpsertUserDecoder.TEMPLATE_ID, UpsertUserDecoder.BLOCK_LENGTH - 5, UpsertUserDecoder.BLOCK_LENGTH - 4,
            UpsertUserDecoder.BLOCK_LENGTH);
        grew(UserDefinitionDecoder.TEMPLATE_ID, UserDefinitionDecoder.BLOCK_LENGTH - 5,
            UserDefinitionDecoder.BLOCK_LENGTH - 4, UserDefinitionDecoder.BLOCK_LENGTH);
        grew(SessionStatusDecoder.TEMPLATE_ID, SessionStatusDecoder.BLOCK_LENGTH - 4,
            SessionStatusDecoder.BLOCK_LENGTH - 4, SessionStatusDecoder.BLOCK_LENGTH);
        // Parts added to a message later: the schema version of each part, in wire order.
        partsSince(AdjustBalanceDecoder.TEMPLATE_ID, 2, 2, 2);
        partsSince(AdminResponseDecoder.TEMPLATE_ID, 2);
        // Version 3: a market-data request names its requester's response channel and stream; BUSY says when to
        // ask again.
        grew(SnapshotRequestDecoder.TEMPLATE_ID, 12, 12, SnapshotRequestDecoder.BLOCK_LENGTH);
        grew(RetransmitRequestDecoder.TEMPLATE_ID, 20, 20, RetransmitRequestDecoder.BLOCK_LENGTH);
        grew(SnapshotResponseDecoder.TEMPLATE_ID, 33, 33, SnapshotResponseDecoder.BLOCK_LENGTH);
        grew(RetransmitResponseDecoder.TEMPLATE_ID, 21, 21, RetransmitResponseDecoder.BLOCK_LENGTH);
        partsSince(SnapshotRequestDecoder.TEMPLATE_ID, 3);
        partsSince(RetransmitRequestDecoder.TEMPLATE_ID, 3);
        // Version 4: every operator's change names its operator and reason (the journal's audit trail); before, only
        // the changes added from version 2 did. No root block grew.
        partsSince(AddInstrumentDecoder.TEMPLATE_ID, 4, 4);
        partsSince(AddAccountDecoder.TEMPLATE_ID, 4, 4);
        partsSince(SetLimitsDecoder.TEMPLATE_ID, 1, 4, 4);
        partsSince(SetTradingStatusDecoder.TEMPLATE_ID, 4, 4);
        partsSince(KillSwitchDecoder.TEMPLATE_ID, 4, 4);
        partsSince(TakeSnapshotDecoder.TEMPLATE_ID, 4, 4);
        partsSince(EndOfDayDecoder.TEMPLATE_ID, 4, 4);
        partsSince(SetDynamicBandDecoder.TEMPLATE_ID, 4, 4);
    }

    private MessageCatalog()
    {
    }

    private static void add(
        final int templateId,
        final String name,
        final Kind kind,
        final int blockLength,
        final Part[] parts,
        final int[] groupBlockLengths)
    {
        if (KINDS[templateId] != null)
        {
            throw new IllegalStateException("template id used twice: " + templateId);
        }
        KINDS[templateId] = kind;
        NAMES[templateId] = name;
        BLOCK_LENGTHS[templateId] = blockLength;
        PARTS[templateId] = parts;
        GROUP_BLOCK_LENGTHS[templateId] = groupBlockLengths;
    }

    private static void grew(final int templateId, final int... blockLengthByVersion)
    {
        if (blockLengthByVersion.length > MessageValidator.SCHEMA_VERSION ||
            blockLengthByVersion[blockLengthByVersion.length - 1] != BLOCK_LENGTHS[templateId])
        {
            throw new IllegalStateException("block lengths of " + NAMES[templateId] + " must end at the current one");
        }
        // Versions after the last named kept its length.
        final int[] lengths = java.util.Arrays.copyOf(blockLengthByVersion, MessageValidator.SCHEMA_VERSION);
        java.util.Arrays.fill(lengths, blockLengthByVersion.length, lengths.length,
            blockLengthByVersion[blockLengthByVersion.length - 1]);
        BLOCK_LENGTHS_BY_VERSION[templateId] = lengths;
    }

    private static void partsSince(final int templateId, final int... sinceVersions)
    {
        if (sinceVersions.length != PARTS[templateId].length)
        {
            throw new IllegalStateException("parts of " + NAMES[templateId] + " must each name their version");
        }
        PART_SINCE_VERSIONS[templateId] = sinceVersions;
    }

    /**
     * The parts after the root block that a message written at a schema version has: a part added in a later version
     * is absent (parts added later come after those of earlier versions).
     *
     * @param templateId a known template id.
     * @param version    the message's version.
     * @return how many of {@link #parts(int)} it carries.
     */
    static int partCount(final int templateId, final int version)
    {
        final int[] since = PART_SINCE_VERSIONS[templateId];
        if (null == since)
        {
            return PARTS[templateId].length;
        }
        int count = 0;
        while (count < since.length && since[count] <= version)
        {
            count++;
        }
        return count;
    }

    /**
     * Whether this build knows the template id.
     *
     * @param templateId from a message header.
     * @return true if known.
     */
    public static boolean isKnown(final int templateId)
    {
        return templateId >= 0 && templateId <= MAX_TEMPLATE_ID && KINDS[templateId] != null;
    }

    /**
     * The kind of a known message.
     *
     * @param templateId a known template id.
     * @return its kind, or null if unknown.
     */
    public static Kind kind(final int templateId)
    {
        return isKnown(templateId) ? KINDS[templateId] : null;
    }

    /**
     * Whether a message is a gateway's bookkeeping that travels as an admin message (SessionStatus, GatewayBarrier,
     * UserDirectoryRequest): the engine's ingress takes it from a gateway as it takes order entry, without a key.
     *
     * @param templateId a template id.
     * @return true for those three.
     */
    public static boolean isGatewayBookkeeping(final int templateId)
    {
        return templateId == SessionStatusDecoder.TEMPLATE_ID || templateId == GatewayBarrierDecoder.TEMPLATE_ID ||
            templateId == UserDirectoryRequestDecoder.TEMPLATE_ID;
    }

    /**
     * Whether a message is an operator's admin command: one the engine's ingress accepts only inside an
     * {@link Kind#AUTHENTICATED} message whose key it holds. Every {@link Kind#ADMIN} message but the gateways'
     * bookkeeping ({@link #isGatewayBookkeeping}) and NewEpoch, which a node journals itself on promotion and never
     * takes from the network.
     *
     * @param templateId a template id.
     * @return true if it needs a key.
     */
    public static boolean isOperatorCommand(final int templateId)
    {
        return kind(templateId) == Kind.ADMIN && !isGatewayBookkeeping(templateId) &&
            templateId != NewEpochDecoder.TEMPLATE_ID;
    }

    /**
     * The name of a known message, for logs and tools.
     *
     * @param templateId a template id.
     * @return its name, or "Unknown(id)".
     */
    public static String name(final int templateId)
    {
        return isKnown(templateId) ? NAMES[templateId] : "Unknown(" + templateId + ")";
    }

    /**
     * Root block length of a known message at this schema version.
     *
     * @param templateId a known template id.
     * @return its block length.
     */
    public static int blockLength(final int templateId)
    {
        return BLOCK_LENGTHS[templateId];
    }

    /**
     * Root block length of a known message as written at a schema version: what its header's blockLength must be.
     *
     * @param templateId a known template id.
     * @param version    a schema version from {@link MessageValidator#MIN_SUPPORTED_VERSION} to
     *                   {@link MessageValidator#SCHEMA_VERSION}.
     * @return its block length at that version.
     */
    public static int blockLength(final int templateId, final int version)
    {
        final int[] byVersion = BLOCK_LENGTHS_BY_VERSION[templateId];
        return null == byVersion ? BLOCK_LENGTHS[templateId] : byVersion[version - 1];
    }

    /**
     * The parts after the root block, in wire order.
     *
     * @param templateId a known template id.
     * @return the parts (do not modify).
     */
    public static Part[] parts(final int templateId)
    {
        return PARTS[templateId];
    }

    /**
     * The entry block length of each group, in wire order.
     *
     * @param templateId a known template id.
     * @return one entry per {@link Part#GROUP} (do not modify).
     */
    public static int[] groupBlockLengths(final int templateId)
    {
        return GROUP_BLOCK_LENGTHS[templateId];
    }
}
