package io.ringex.bench.exchangecore;

import exchange.core2.core.ExchangeApi;
import exchange.core2.core.ExchangeCore;
import exchange.core2.core.common.CoreSymbolSpecification;
import exchange.core2.core.common.CoreWaitStrategy;
import exchange.core2.core.common.OrderAction;
import exchange.core2.core.common.OrderType;
import exchange.core2.core.common.SymbolType;
import exchange.core2.core.common.api.ApiAddUser;
import exchange.core2.core.common.api.ApiAdjustUserBalance;
import exchange.core2.core.common.api.ApiCancelOrder;
import exchange.core2.core.common.api.ApiCommand;
import exchange.core2.core.common.api.ApiMoveOrder;
import exchange.core2.core.common.api.ApiNop;
import exchange.core2.core.common.api.ApiPlaceOrder;
import exchange.core2.core.common.api.ApiReduceOrder;
import exchange.core2.core.common.api.ApiReset;
import exchange.core2.core.common.api.binary.BatchAddSymbolsCommand;
import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import exchange.core2.core.common.cmd.OrderCommandType;
import exchange.core2.core.common.config.ExchangeConfiguration;
import exchange.core2.core.common.config.InitialStateConfiguration;
import exchange.core2.core.common.config.LoggingConfiguration;
import exchange.core2.core.common.config.OrdersProcessingConfiguration;
import exchange.core2.core.common.config.PerformanceConfiguration;
import exchange.core2.core.common.config.ReportsQueriesConfiguration;
import exchange.core2.core.common.config.SerializationConfiguration;
import exchange.core2.core.orderbook.OrderBookDirectImpl;
import exchange.core2.core.processors.journaling.DiskSerializationProcessor;
import exchange.core2.core.processors.journaling.DiskSerializationProcessorConfiguration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Replays a Ringex workload file through exchange-core 0.5.3 the way its own throughput tests do, set up as they set it
 * up (docs/benchmarks-engine.md, "The harnesses"): its {@code RESULT} counts the commands not answered SUCCESS
 * (expected 0). Each round times {@code ExchangeApi.submitCommandsSync} over the timed commands, converted before the
 * clock starts.
 * <pre>
 * java ${ringex.jvm.flags} -Xms2g -Xmx2g -cp (this module's runtime classpath) \
 *     io.ringex.bench.exchangecore.ExchangeCorePeer --workload FILE [--journal DIR] [--rounds R] [--wait W]
 * </pre>
 */
public final class ExchangeCorePeer
{
    /** exchange-core currency of every instrument's quote side. */
    static final int QUOTE_CURRENCY = 1;

    /** Base currency of instrument {@code id} is this plus {@code id}. */
    static final int BASE_CURRENCY_OFFSET = 1000;

    private static final int RING_BUFFER_SIZE = 32 * 1024;
    private static final int MSGS_IN_GROUP_LIMIT = 1536;

    private final Map<CommandResultCode, long[]> failures = new EnumMap<>(CommandResultCode.class);
    private long orderResults;

    private ExchangeCorePeer()
    {
    }

    /**
     * @param args {@code --workload FILE [--journal DIR] [--rounds R]}.
     * @throws Exception on any failure; the process exits non-zero.
     */
    public static void main(final String[] args) throws Exception
    {
        Path workload = null;
        Path journal = null;
        int rounds = 3;
        CoreWaitStrategy waitStrategy = CoreWaitStrategy.YIELDING;
        for (int i = 0; i < args.length; i++)
        {
            final String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i])
            {
                case "--workload":
                    workload = Path.of(value);
                    i++;
                    break;
                case "--journal":
                    journal = Path.of(value);
                    i++;
                    break;
                case "--rounds":
                    rounds = Integer.parseInt(value);
                    i++;
                    break;
                case "--wait":
                    waitStrategy = CoreWaitStrategy.valueOf(value);
                    i++;
                    break;
                default:
                    usage(args[i].equals("--help") ? null : "unknown argument " + args[i]);
                    return;
            }
        }
        if (workload == null || rounds < 1)
        {
            usage("--workload is required and --rounds must be at least 1");
            return;
        }
        new ExchangeCorePeer().run(workload, journal, rounds, waitStrategy);
    }

    private static void usage(final String problem)
    {
        if (problem != null)
        {
            System.err.println(problem);
        }
        System.err.println(
            "usage: ExchangeCorePeer --workload FILE [--journal DIR] [--rounds R] " +
            "[--wait YIELDING|BUSY_SPIN|BLOCKING]");
        System.exit(problem == null ? 0 : 2);
    }

    private void run(
        final Path workload, final Path journal, final int rounds, final CoreWaitStrategy waitStrategy) throws Exception
    {
        final List<ApiCommand> prefill;
        final List<ApiCommand> timed;
        final int instruments;
        final int accounts;
        try (WorkloadFileReader reader = WorkloadFileReader.open(workload))
        {
            instruments = reader.instruments();
            accounts = reader.accounts();
            prefill = convert(reader, 0, reader.prefillCount());
            timed = convert(reader, reader.prefillCount(), reader.prefillCount() + reader.commandCount());
        }

        final ExchangeCore core = ExchangeCore.builder()
            .resultsConsumer((cmd, seq) -> onResult(cmd))
            .exchangeConfiguration(configuration(journal, waitStrategy))
            .build();
        core.startup();
        final ExchangeApi api = core.getApi();
        final double[] mcps = new double[rounds];
        long failed = 0;
        try
        {
            for (int round = 0; round < rounds; round++)
            {
                if (round > 0)
                {
                    expect(api.submitCommandAsync(ApiReset.builder().build()).join(), "reset");
                }
                setUp(api, instruments, accounts);
                api.submitCommandsSync(prefill);
                api.submitCommandAsync(ApiNop.builder().build()).join();
                failures.clear();
                orderResults = 0;

                // Quiesce the heap before the clock, as both sides' harnesses do: else the garbage of the passes
                // before starts G1's concurrent marking inside a timed one, on one of the machine's two cores.
                System.gc();
                final long start = System.nanoTime();
                api.submitCommandsSync(timed);
                final long durationNs = System.nanoTime() - start;

                api.submitCommandAsync(ApiNop.builder().build()).join();
                failed = 0;
                for (final long[] count : failures.values())
                {
                    failed += count[0];
                }
                mcps[round] = timed.size() * 1_000.0 / durationNs;
                System.out.printf(Locale.ROOT, "round=%d commands=%d ms=%.1f mcps=%.3f results=%d notSuccess=%d %s%n",
                    round, timed.size(), durationNs / 1e6, mcps[round], orderResults, failed, failures.keySet());
            }
        }
        finally
        {
            core.shutdown(3000, TimeUnit.MILLISECONDS);
        }

        final double[] sorted = mcps.clone();
        Arrays.sort(sorted);
        final StringBuilder perRound = new StringBuilder();
        for (final double m : mcps)
        {
            perRound.append(perRound.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.3f", m));
        }
        System.out.printf(Locale.ROOT, "RESULT peer=exchange-core version=0.5.3 journal=%s wait=%s instruments=%d " +
            "accounts=%d prefill=%d commands=%d rounds=%d mcps=%.3f best=%.3f perRound=%s notSuccess=%d%n",
            journal == null ? "off" : "on", waitStrategy, instruments, accounts, prefill.size(), timed.size(), rounds,
            sorted[rounds / 2], sorted[rounds - 1], perRound, failed);
    }

    private void onResult(final OrderCommand cmd)
    {
        final OrderCommandType type = cmd.command;
        if (type == OrderCommandType.PLACE_ORDER || type == OrderCommandType.MOVE_ORDER ||
            type == OrderCommandType.CANCEL_ORDER || type == OrderCommandType.REDUCE_ORDER)
        {
            orderResults++;
            if (cmd.resultCode != CommandResultCode.SUCCESS)
            {
                failures.computeIfAbsent(cmd.resultCode, c -> new long[1])[0]++;
            }
        }
    }

    private static ExchangeConfiguration configuration(final Path journal, final CoreWaitStrategy waitStrategy)
        throws IOException
    {
        final AtomicInteger threads = new AtomicInteger();
        final ThreadFactory threadFactory = runnable ->
        {
            final Thread thread = new Thread(runnable, "exchange-core-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        final PerformanceConfiguration performance = PerformanceConfiguration.throughputPerformanceBuilder()
            .ringBufferSize(RING_BUFFER_SIZE)
            .matchingEnginesNum(1)
            .riskEnginesNum(1)
            .msgsInGroupLimit(MSGS_IN_GROUP_LIMIT)
            .threadFactory(threadFactory)
            .waitStrategy(waitStrategy)
            .orderBookFactory(OrderBookDirectImpl::new)
            .build();

        final InitialStateConfiguration initialState;
        final SerializationConfiguration serialization;
        if (journal == null)
        {
            initialState = InitialStateConfiguration.CLEAN_TEST;
            serialization = SerializationConfiguration.DEFAULT;
        }
        else
        {
            Files.createDirectories(journal);
            final DiskSerializationProcessorConfiguration defaults =
                DiskSerializationProcessorConfiguration.createDefaultConfig();
            final DiskSerializationProcessorConfiguration disk = DiskSerializationProcessorConfiguration.builder()
                .storageFolder(journal.toString())
                .snapshotLz4CompressorFactory(defaults.getSnapshotLz4CompressorFactory())
                .journalFileMaxSize(defaults.getJournalFileMaxSize())
                .journalBufferSize(defaults.getJournalBufferSize())
                .journalBatchCompressThreshold(defaults.getJournalBatchCompressThreshold())
                .journalLz4CompressorFactory(defaults.getJournalLz4CompressorFactory())
                .build();
            initialState = InitialStateConfiguration.cleanStartJournaling(
                String.format("%012X", System.currentTimeMillis()));
            serialization = SerializationConfiguration.builder()
                .enableJournaling(true)
                .serializationProcessorFactory(cfg -> new DiskSerializationProcessor(cfg, disk))
                .build();
        }

        return ExchangeConfiguration.defaultBuilder()
            .initStateCfg(initialState)
            .performanceCfg(performance)
            .reportsQueriesCfg(ReportsQueriesConfiguration.createStandardConfig())
            .ordersProcessingCfg(OrdersProcessingConfiguration.DEFAULT)
            .loggingCfg(LoggingConfiguration.DEFAULT)
            .serializationCfg(serialization)
            .build();
    }

    private static void setUp(final ExchangeApi api, final int instruments, final int accounts) throws Exception
    {
        final List<CoreSymbolSpecification> symbols = new ArrayList<>(instruments);
        for (int id = 1; id <= instruments; id++)
        {
            symbols.add(CoreSymbolSpecification.builder()
                .symbolId(id)
                .type(SymbolType.CURRENCY_EXCHANGE_PAIR)
                .baseCurrency(BASE_CURRENCY_OFFSET + id)
                .quoteCurrency(QUOTE_CURRENCY)
                .baseScaleK(1)
                .quoteScaleK(1)
                .takerFee(0)
                .makerFee(0)
                .build());
        }
        expect(api.submitBinaryDataAsync(new BatchAddSymbolsCommand(symbols)).get(), "add symbols");

        final long amount = Long.MAX_VALUE / (accounts + 1);
        long transactionId = 1;
        for (long uid = 1; uid <= accounts; uid++)
        {
            api.submitCommand(ApiAddUser.builder().uid(uid).build());
            api.submitCommand(ApiAdjustUserBalance.builder()
                .uid(uid).currency(QUOTE_CURRENCY).amount(amount).transactionId(transactionId++).build());
            for (int id = 1; id <= instruments; id++)
            {
                api.submitCommand(ApiAdjustUserBalance.builder()
                    .uid(uid).currency(BASE_CURRENCY_OFFSET + id).amount(amount).transactionId(transactionId++)
                    .build());
            }
        }
        expect(api.submitCommandAsync(ApiNop.builder().build()).join(), "add users");
    }

    private static void expect(final CommandResultCode code, final String what)
    {
        if (code != CommandResultCode.SUCCESS)
        {
            throw new IllegalStateException(what + " failed: " + code);
        }
    }

    private static List<ApiCommand> convert(final WorkloadFileReader reader, final long from, final long to)
    {
        final long bidReservePrice = reader.maxPrice();
        final List<ApiCommand> commands = new ArrayList<>((int)(to - from));
        for (long i = from; i < to; i++)
        {
            final int symbol = reader.instrumentId(i);
            final long uid = reader.accountId(i);
            final long orderId = reader.orderId(i);
            final byte type = reader.type(i);
            switch (type)
            {
                case WorkloadFileReader.PLACE_GTC:
                case WorkloadFileReader.PLACE_IOC:
                    final boolean buy = reader.side(i) == WorkloadFileReader.SIDE_BUY;
                    commands.add(ApiPlaceOrder.builder()
                        .symbol(symbol)
                        .uid(uid)
                        .orderId(orderId)
                        .price(reader.price(i))
                        .reservePrice(buy ? bidReservePrice : 0)
                        .size(reader.size(i))
                        .action(buy ? OrderAction.BID : OrderAction.ASK)
                        .orderType(type == WorkloadFileReader.PLACE_GTC ? OrderType.GTC : OrderType.IOC)
                        .build());
                    break;
                case WorkloadFileReader.CANCEL:
                    commands.add(ApiCancelOrder.builder().symbol(symbol).uid(uid).orderId(orderId).build());
                    break;
                case WorkloadFileReader.MOVE:
                    commands.add(ApiMoveOrder.builder()
                        .symbol(symbol).uid(uid).orderId(orderId).newPrice(reader.newPrice(i)).build());
                    break;
                case WorkloadFileReader.REDUCE:
                    commands.add(ApiReduceOrder.builder()
                        .symbol(symbol).uid(uid).orderId(orderId).reduceSize(reader.size(i)).build());
                    break;
                default:
                    throw new IllegalArgumentException("record " + i + ": unknown type " + type);
            }
        }
        return commands;
    }
}
