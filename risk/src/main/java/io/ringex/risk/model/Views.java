package io.ringex.risk.model;

import io.ringex.protocol.codecs.UserRole;

import java.util.List;
import java.util.Map;

/**
 * The JSON shapes the read model hands out: immutable copies taken under the model's lock, safe to serialise on any
 * thread. Money is exact decimal text at 8 places ({@code FixedPoint.MONEY_SCALE}); prices are exact decimal text at
 * their instrument's price scale; quantities are whole units.
 */
public final class Views
{
    private Views()
    {
    }

    /**
     * One row of the accounts table.
     *
     * @param accountId        the account.
     * @param balance          cash, money.
     * @param reserved         held by open buy orders, money.
     * @param realisedPnl      money.
     * @param unrealisedPnl    money, marked at each instrument's last trade.
     * @param totalPnl         realised + unrealised, money.
     * @param exposure         sum of |position| x mark, money.
     * @param creditLimit      how far cash may go below zero, money.
     * @param openOrders       open orders now.
     * @param maxOpenOrders    limit on open orders.
     * @param killSwitch       the account's kill switch is on (orders refused and cancelled, whatever its standing).
     * @param status           its standing, ACTIVE, SUSPENDED or CLOSED, from the engine's AccountDefinition; null
     *                         before one arrived (a service started since the account last changed waits for the
     *                         engine's refresh).
     * @param positionsComplete the positions shown are every position the engine holds: false until the engine's
     *                         refresh has listed and named them all (a service that joined late, or just followed
     *                         another node), so usage and detail may then lack some.
     * @param creditUsage      max(0, reserved - balance) / creditLimit, 0..1+.
     * @param openOrdersUsage  openOrders / maxOpenOrders.
     * @param positionUsage    worst position (open orders counted) / its position limit.
     * @param utilisation      the largest of the three usages.
     * @param utilisationOf    which limit that is: CREDIT, OPEN_ORDERS or POSITION.
     * @param updatedNs        engine time of the last update, ns since the epoch.
     */
    public record AccountSummary(
        long accountId,
        String balance,
        String reserved,
        String realisedPnl,
        String unrealisedPnl,
        String totalPnl,
        String exposure,
        String creditLimit,
        int openOrders,
        int maxOpenOrders,
        boolean killSwitch,
        String status,
        boolean positionsComplete,
        double creditUsage,
        double openOrdersUsage,
        double positionUsage,
        double utilisation,
        String utilisationOf,
        long updatedNs)
    {
    }

    /**
     * An account with its positions and recent fills.
     *
     * @param summary          as in the table.
     * @param maxOrderQuantity limit per order, units.
     * @param maxOrderNotional limit per order, money.
     * @param limits           every limit and the standing, as {@code GET /api/accounts/{id}/limits} gives them.
     * @param positions        every position that is not flat (no position and no open orders), by instrument.
     * @param recentFills      newest first.
     */
    public record AccountDetail(
        AccountSummary summary,
        long maxOrderQuantity,
        String maxOrderNotional,
        AccountLimits limits,
        List<PositionView> positions,
        List<FillView> recentFills)
    {
    }

    /**
     * An account's limits and standing as the engine's last AccountDefinition gave them: every value a SetLimits
     * replaces, so a form can show them all and send back what it did not change. Before the engine's definition
     * arrived ({@code known} false) every other field is null: the service does not guess.
     *
     * @param accountId            the account.
     * @param known                an AccountDefinition of the account has arrived.
     * @param status               ACTIVE, SUSPENDED or CLOSED.
     * @param selfTradePrevention  the default of its orders: CANCEL_NEWEST, CANCEL_OLDEST, CANCEL_BOTH or
     *                             DECREMENT_AND_CANCEL.
     * @param maxOrderQuantity     units per order.
     * @param maxOrderNotional     money per order.
     * @param creditLimit          how far cash may go below zero, money.
     * @param defaultPositionLimit the absolute position limit of every instrument without its own, open orders
     *                             counted.
     * @param maxOpenOrders        open orders at once.
     * @param allowShort           sells beyond the position are allowed (within the limit).
     * @param positionLimits       the instruments with a limit of their own, by instrument.
     */
    public record AccountLimits(
        long accountId,
        boolean known,
        String status,
        String selfTradePrevention,
        Long maxOrderQuantity,
        String maxOrderNotional,
        String creditLimit,
        Long defaultPositionLimit,
        Integer maxOpenOrders,
        Boolean allowShort,
        List<PositionLimitView> positionLimits)
    {
    }

    /**
     * An instrument's own position limit.
     *
     * @param instrumentId  the instrument.
     * @param symbol        its symbol, or "#id" before its definition arrived.
     * @param positionLimit absolute units, open orders counted.
     */
    public record PositionLimitView(int instrumentId, String symbol, long positionLimit)
    {
    }

    /**
     * A position.
     *
     * @param instrumentId     the instrument.
     * @param symbol           its symbol, or "#id" before its definition arrived.
     * @param position         signed units.
     * @param averageCost      price text at the instrument's scale.
     * @param markPrice        price text, or null when there is no mark yet.
     * @param realisedPnl      money.
     * @param unrealisedPnl    money.
     * @param openBuyQuantity  units on open buy orders.
     * @param openSellQuantity units on open sell orders.
     * @param positionLimit    absolute limit, open orders counted.
     * @param usage            worst case of position with open orders, over the limit.
     */
    public record PositionView(
        int instrumentId,
        String symbol,
        long position,
        String averageCost,
        String markPrice,
        String realisedPnl,
        String unrealisedPnl,
        long openBuyQuantity,
        long openSellQuantity,
        long positionLimit,
        double usage)
    {
    }

    /**
     * One fill of an account, from a Trade carrying account ids.
     *
     * @param tradeId      the trade.
     * @param orderId      this account's order in it (its audit trail: {@code GET /api/audit?order=}).
     * @param instrumentId the instrument.
     * @param symbol       its symbol.
     * @param side         BUY or SELL from this account's point of view.
     * @param price        price text.
     * @param quantity     units.
     * @param aggressor    this account's order took liquidity.
     * @param timestampNs  engine time.
     */
    public record FillView(
        long tradeId,
        long orderId,
        int instrumentId,
        String symbol,
        String side,
        String price,
        long quantity,
        boolean aggressor,
        long timestampNs)
    {
    }

    /**
     * One row of the instruments table.
     *
     * @param instrumentId   the instrument.
     * @param symbol         its symbol.
     * @param priceScale     decimal places of its prices.
     * @param tickSize       price text.
     * @param lotSize        units.
     * @param referencePrice price text: the centre of the price band.
     * @param priceBandType  BASIS_POINTS or TICKS, UNKNOWN before the definition.
     * @param priceBand      the band's width either side of the reference, in its unit.
     * @param status         OPEN, HALTED, CLOSED, DELISTED.
     * @param lastPrice      price text or null.
     * @param bidPrice       price text or null.
     * @param bidQuantity    units.
     * @param askPrice       price text or null.
     * @param askQuantity    units.
     * @param volume         units traded since the service started.
     * @param tradeCount     trades seen since the service started.
     */
    public record InstrumentSummary(
        int instrumentId,
        String symbol,
        int priceScale,
        String tickSize,
        long lotSize,
        String referencePrice,
        String priceBandType,
        long priceBand,
        String status,
        String lastPrice,
        String bidPrice,
        long bidQuantity,
        String askPrice,
        long askQuantity,
        long volume,
        long tradeCount)
    {
    }

    /**
     * A user of the venue (who may log on to a gateway) as the engine holds it; its credential is never shown.
     *
     * @param username                  the login name.
     * @param enabled                   may log on.
     * @param accounts                  the accounts it may trade, the default first.
     * @param fixSenderCompId           its FIX SenderCompID, empty for no FIX access.
     * @param fixCancelOnDisconnect     its FIX sessions cancel their orders on disconnect.
     * @param throttleMessagesPerSecond 0 for the gateway's default.
     * @param passwordSet               a credential is set (without one it cannot log on).
     * @param commandSequence           the command that last changed it.
     * @param role                      TRADER, DROP_COPY or CLEARING.
     * @param cancelOnDisconnectGraceMs how long a session of it that asked for cancel-on-disconnect keeps its orders
     *                                  after it drops, waiting for it to log on again; 0: cancelled at once.
     */
    public record UserView(
        String username,
        boolean enabled,
        List<Long> accounts,
        String fixSenderCompId,
        boolean fixCancelOnDisconnect,
        int throttleMessagesPerSecond,
        boolean passwordSet,
        long commandSequence,
        UserRole role,
        int cancelOnDisconnectGraceMs)
    {
    }

    /**
     * The user directory.
     *
     * @param loaded  a directory answer from the followed engine has arrived (before that the list holds only the
     *                changes broadcast since the service started, or the previous engine's directory).
     * @param engine  the node whose directory answer the list is (its index in the configuration),
     *                -1 before any.
     * @param users   every user, by name.
     */
    public record UserList(boolean loaded, int engine, List<UserView> users)
    {
    }

    /**
     * An instrument with its ladder and tape.
     *
     * @param summary as in the table.
     * @param bids    best ten bid levels, best first.
     * @param asks    best ten ask levels, best first.
     * @param tape    last trades, newest first.
     * @param candles one-minute candles of the last hour with trades, oldest first.
     */
    public record InstrumentDetail(InstrumentSummary summary, List<LevelView> bids, List<LevelView> asks,
        List<TradeView> tape, List<CandleView> candles)
    {
    }

    /**
     * One minute of trades (OHLC), on the engine's clock.
     *
     * @param startNs the minute's start, ns since the epoch.
     * @param open    first trade's price.
     * @param high    highest price.
     * @param low     lowest price.
     * @param close   last trade's price.
     * @param volume  units traded.
     */
    public record CandleView(long startNs, String open, String high, String low, String close, long volume)
    {
    }

    /**
     * A price level.
     *
     * @param price      price text.
     * @param quantity   units.
     * @param orderCount orders at the level.
     */
    public record LevelView(String price, long quantity, int orderCount)
    {
    }

    /**
     * A public trade.
     *
     * @param tradeId       the trade.
     * @param price         price text.
     * @param quantity      units.
     * @param aggressorSide BUY or SELL.
     * @param timestampNs   engine time.
     */
    public record TradeView(long tradeId, String price, long quantity, String aggressorSide, long timestampNs)
    {
    }

    /**
     * The engine's health: its latest status and the history the charts draw.
     *
     * @param seen                    an EngineStatus has arrived since the service started.
     * @param up                      one arrived within the configured status timeout.
     * @param lastStatusAgeMs         how long ago the last one arrived, ms (-1 if never).
     * @param nodeId                  the reporting node.
     * @param role                    RECOVERING, PRIMARY, STANDBY, FENCED or DIVERGED.
     * @param epoch                   the epoch: a cluster's leadership term.
     * @param ringCapacity            input ring slots.
     * @param sequences               ingress, journal, replication (a cluster member's committed sequence; null
     *                                while the node replicates nothing),
     *                                processor, output, snapshot.
     * @param ringOccupancy           slots in use / capacity, 0..1.
     * @param journalLag              ingress - journal sequence.
     * @param replicationLag          journal - replication (committed) sequence; 0 while the node replicates nothing.
     * @param replicating             the node is a cluster member and reports a committed sequence: false with
     *                                replication off, so no lag is shown.
     * @param latencyNs               p50, p99, p999, max since the previous status.
     * @param counters                engine counters by name.
     * @param rejects                 reject counts by reason, non-zero only.
     * @param streams                 Aeron connection state of the risk, market-data and ingress streams.
     * @param history                 samples for the charts, oldest first.
     * @param followedEngine          index of the node followed, the cluster's leader (in configuration order),
     *                                -1 while no primary is known; the fields above are that node's (or, with none,
     *                                the last one followed).
     * @param nodes                   every configured node, in configuration order.
     */
    public record EngineView(
        boolean seen,
        boolean up,
        long lastStatusAgeMs,
        int nodeId,
        String role,
        long epoch,
        int ringCapacity,
        Map<String, Long> sequences,
        double ringOccupancy,
        long journalLag,
        long replicationLag,
        boolean replicating,
        Map<String, Long> latencyNs,
        Map<String, Long> counters,
        Map<String, Long> rejects,
        Map<String, Boolean> streams,
        History history,
        int followedEngine,
        List<NodeView> nodes)
    {
    }

    /**
     * One engine node of the configuration, as its last EngineStatus and the service's streams to it show it.
     *
     * @param engine             its index in the configuration (0 = {@code streams} or {@code members[0]}, ...).
     * @param name               "streams" (a single engine) or "members[n]": the configuration's name, not its
     *                           role.
     * @param followed           the dashboard shows and acts on this node now: the cluster's leader.
     * @param seen               an EngineStatus has arrived from it.
     * @param up                 one arrived within the status timeout (else it is stale: down, or cut off).
     * @param lastStatusAgeMs    how long ago, ms (-1 if never).
     * @param nodeId             the node id it reports.
     * @param role               its role (PRIMARY on the leader, STANDBY on a follower), UNKNOWN before a status.
     * @param epoch              its epoch: the cluster's leadership term.
     * @param committedSequence  the last command it knows committed (a majority holds it), or null when it
     *                           replicates nothing (a single engine).
     * @param journalSequence    the last command it journaled.
     * @param processorSequence  the last command it applied.
     * @param journalCommitLag   the leader's committed sequence minus this node's journal sequence, or null with no
     *                           leader followed.
     * @param processorCommitLag the leader's committed sequence minus this node's processor sequence, or null with
     *                           no leader followed.
     * @param stateHash          its last reported state hash, 16 hex digits (equal on nodes in step).
     * @param streams            connection state of its risk, market-data and ingress streams.
     */
    public record NodeView(
        int engine,
        String name,
        boolean followed,
        boolean seen,
        boolean up,
        long lastStatusAgeMs,
        int nodeId,
        String role,
        long epoch,
        Long committedSequence,
        long journalSequence,
        long processorSequence,
        Long journalCommitLag,
        Long processorCommitLag,
        String stateHash,
        Map<String, Boolean> streams)
    {
    }

    /**
     * Chart series, one entry per EngineStatus, oldest first.
     *
     * @param timeMs         wall time of each sample, ms since the epoch (engine time).
     * @param exposure       total exposure across accounts, in currency units (display only).
     * @param throughput     commands per second since the previous sample.
     * @param p50Us          latency p50, microseconds.
     * @param p99Us          latency p99, microseconds.
     * @param p999Us         latency p99.9, microseconds.
     * @param maxUs          latency max, microseconds.
     * @param ringOccupancy  0..1.
     * @param journalLag     slots.
     * @param replicationLag slots; -1 where the node replicated nothing.
     * @param rejects        reject total.
     */
    public record History(
        long[] timeMs,
        double[] exposure,
        double[] throughput,
        double[] p50Us,
        double[] p99Us,
        double[] p999Us,
        double[] maxUs,
        double[] ringOccupancy,
        long[] journalLag,
        long[] replicationLag,
        long[] rejects)
    {
    }
}
