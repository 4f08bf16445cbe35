package io.ringex.bench.workload;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Command line: generate a workload file.
 * <pre>
 * java ${ringex.jvm.flags} -cp bench/ringex/target/classes:... io.ringex.bench.workload.GenerateWorkload \
 *     --commands 1000000 --instruments 1 --accounts 2000 --seed 1 --out /tmp/workload-1.bin [--resting-orders 1000]
 *     [--stop-percent 10 --iceberg-percent 10]
 * </pre>
 * or {@code mvn -B -q -pl bench/ringex exec:exec -Dbench.main=io.ringex.bench.workload.GenerateWorkload
 * -Dbench.args="--commands ... --out ..."}. Prints the mix and
 * the book shape it produced.
 */
public final class GenerateWorkload
{
    private GenerateWorkload()
    {
    }

    /**
     * @param args see the class comment.
     * @throws IOException if the file cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        long commands = 1_000_000;
        int instruments = 1;
        int accounts = WorkloadSpec.DEFAULT_ACCOUNTS;
        long seed = 1;
        int resting = WorkloadSpec.DEFAULT_RESTING_ORDERS;
        int stopPercent = 0;
        int icebergPercent = 0;
        Path out = null;
        for (int i = 0; i < args.length; i++)
        {
            final String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i])
            {
                case "--commands":
                    commands = Long.parseLong(value);
                    break;
                case "--instruments":
                    instruments = Integer.parseInt(value);
                    break;
                case "--accounts":
                    accounts = Integer.parseInt(value);
                    break;
                case "--seed":
                    seed = Long.parseLong(value);
                    break;
                case "--resting-orders":
                    resting = Integer.parseInt(value);
                    break;
                case "--stop-percent":
                    stopPercent = Integer.parseInt(value);
                    break;
                case "--iceberg-percent":
                    icebergPercent = Integer.parseInt(value);
                    break;
                case "--out":
                    out = Path.of(value);
                    break;
                default:
                    usage("unknown argument " + args[i]);
                    return;
            }
            i++;
        }
        if (out == null)
        {
            usage("--out is required");
            return;
        }

        final WorkloadSpec spec = new WorkloadSpec(commands, instruments, accounts, seed, resting, stopPercent,
            icebergPercent);
        final long start = System.nanoTime();
        final WorkloadStats stats = WorkloadGenerator.generate(spec, out);
        System.out.printf("WORKLOAD out=%s instruments=%d accounts=%d seed=%d %s generatedMs=%d%n",
            out, instruments, accounts, seed, stats, (System.nanoTime() - start) / 1_000_000);
    }

    private static void usage(final String problem)
    {
        System.err.println(problem);
        System.err.println("usage: GenerateWorkload --commands N --instruments K --accounts A --seed S --out FILE " +
            "[--resting-orders R] [--stop-percent P --iceberg-percent P: a Ringex-only workload]");
        System.exit(2);
    }
}
