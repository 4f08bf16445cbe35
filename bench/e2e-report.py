#!/usr/bin/env python3
"""Summarise bench/e2e-latency.sh results: per path and rate the MEDIAN over the measured rounds of p50, p90, p99 and
max, the venue's CPU per order (its threads' CPU time over the run, start-up of the generator included, divided by
the orders sent; the echo server's the same way; each thread's share is in the run's log.threads file), each venue
path's p50 and p99 as a ratio to the bare echo's (4 hops, the baseline the goals compare with, and 0 hops) from the
same invocation; the load sweep as a table with the highest rate sustained per path (all-in-one, distributed,
colocated); and, given a PNG name, the latency against offered load plot of those paths (gnuplot).

usage: bench/e2e-report.py RESULTS_CSV... [--plot PNG]   (several CSVs, e.g. one per threading profile)
"""
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict

PERCENTILES = ["p50us", "p90us", "p99us", "maxus"]
# A rate is sustained when every order is answered, at 98% of the offered rate or more, with no standing queue: a
# median under 10 ms (a venue falling behind shows a median that grows with the run, hundreds of ms in 8 s).
SUSTAINED_P50_US = 10_000


def rows_of(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        cells = line.strip().split(",")
        row = {"path": cells[0], "detail": cells[1], "round": cells[2], "rate": int(cells[3]),
               "load": f"{cells[4]}-{cells[5]}"}
        for kv in cells[6:]:
            if "=" in kv and not kv.startswith("rate="):
                k, v = kv.split("=", 1)
                row[k] = float(v)
        rows.append(row)
    return rows


def cpu_us(row):
    """The venue's (or the echo server's) CPU microseconds per order, or None when the row has no CPU figure: the
    sum of its threads' CPU over the run divided by the orders sent where the row has it (venueCpuUsPerOrder), else
    its processes' CPU divided by the orders answered."""
    if "venueCpuUsPerOrder" in row:
        return row["venueCpuUsPerOrder"]
    if "venueCpuPct" not in row or not row.get("answeredPerSec"):
        return None
    return row["venueCpuPct"] * 1e4 / row["answeredPerSec"]


def us(v):
    return f"{v / 1000:,.2f} ms" if v >= 1000 else f"{v:,.0f} us"


def main():
    args = sys.argv[1:]
    png = None
    if "--plot" in args:
        i = args.index("--plot")
        png = args[i + 1]
        del args[i:i + 2]
    rows = [r for a in args for r in rows_of(a)]
    measured = defaultdict(list)
    for r in rows:
        if r["round"].isdigit() and "p50us" in r:
            measured[(r["path"], r["detail"], r["rate"])].append(r)
    med = {k: {p: statistics.median(r[p] for r in g) for p in PERCENTILES} for k, g in measured.items()}
    cpu = {k: statistics.median(cpu_us(r) for r in g) for k, g in measured.items() if all(cpu_us(r) for r in g)}

    print("| path | profile / hops | offered/s | rounds | p50 | p90 | p99 | max | venue CPU per order "
          "| p50 / echo 4 hops | p99 / echo 4 hops | p50 / echo 0 hops | load1 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    order = {"echo": 0, "allinone": 1, "distributed": 2, "colocated": 3}
    for key in sorted(med, key=lambda k: (k[2], order.get(k[0], 9), k[1])):
        path, detail, rate = key
        m = med[key]
        e4 = med.get(("echo", "hops4", rate))
        e0 = med.get(("echo", "hops0", rate))
        ratios = ["", "", ""]
        if path != "echo" and e4 and e0:
            ratios = [f"{m['p50us'] / e4['p50us']:.2f}x", f"{m['p99us'] / e4['p99us']:.2f}x",
                      f"{m['p50us'] / e0['p50us']:.2f}x"]
        loads = ", ".join(r["load"] for r in measured[key])
        per_order = f"{cpu[key]:,.1f} us" if key in cpu else ""
        print(f"| {path} | {detail} | {rate:,} | {len(measured[key])} | " + " | ".join(us(m[p]) for p in PERCENTILES)
              + f" | {per_order} | " + " | ".join(ratios) + f" | {loads} |")

    sweeps = defaultdict(list)
    for r in rows:
        if r["path"].startswith("sweep-") and "p50us" in r:
            sweeps[r["path"][len("sweep-"):]].append(r)
    best = {}
    for path in sorted(sweeps, key=lambda p: order.get(p, 9)):
        sweep = sorted(sweeps[path], key=lambda r: r["rate"])
        print()
        print(f"{path}:")
        print()
        print("| offered/s | answered/s | p50 | p90 | p99 | max | CPU per order | sustained |")
        print("|---:|---:|---:|---:|---:|---:|---:|---|")
        best[path] = 0
        for r in sweep:
            sustained = (r.get("answeredPerSec", 0) >= 0.98 * r["rate"] and r["answered"] >= r["sent"]
                         and r["p50us"] <= SUSTAINED_P50_US)
            if sustained:
                best[path] = max(best[path], r["rate"])
            per_order = f"{cpu_us(r):,.1f} us" if cpu_us(r) else ""
            print(f"| {r['rate']:,} | {r.get('answeredPerSec', 0):,.0f} | " + " | ".join(us(r[p]) for p in PERCENTILES)
                  + f" | {per_order} | {'yes' if sustained else 'no'} |")
        print(f"\nhighest offered rate sustained (every order answered, at >= 98% of the offered rate, p50 under "
              f"{SUSTAINED_P50_US / 1000:.0f} ms): {best[path]:,}/s")
    if sweeps and png:
        plot({p: sorted(g, key=lambda r: r["rate"]) for p, g in sweeps.items()}, png, best)


def plot(sweeps, png, best):
    """p50 and p99 against offered load, one colour per path; the highest rate each sustained is in its legend."""
    files = {}
    for path, sweep in sweeps.items():
        with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as data:
            for r in sweep:
                data.write(f"{r['rate']} {r['p50us']} {r['p99us']}\n")
            files[path] = data.name
    colours = {"allinone": "#1f77b4", "distributed": "#d62728", "colocated": "#2ca02c"}
    lines = []
    for path, name in files.items():
        colour = colours.get(path, "#555555")
        lines.append(f"'{name}' using 1:2 with linespoints lw 2 pt 7 lc rgb '{colour}' "
                     f"title '{path} p50 (sustained to {best[path]:,}/s)'")
        lines.append(f"'{name}' using 1:3 with linespoints lw 1 dt 2 pt 6 lc rgb '{colour}' title '{path} p99'")
    script = f"""
set terminal pngcairo size 900,520 font 'sans,11'
set output '{png}'
set title 'SBE end to end: latency against offered load (open loop, 2 cores)'
set xlabel 'offered orders per second'
set ylabel 'latency (microseconds, log scale)'
set logscale y
set grid
set key top left
set format x '%.0s%c'
plot {", ".join(lines)}
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    for name in files.values():
        os.unlink(name)
    print(f"plot: {png}")


if __name__ == "__main__":
    main()
