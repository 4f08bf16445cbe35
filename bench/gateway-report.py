#!/usr/bin/env python3
"""Summarise bench/gateway-bench.sh results: per path, acceptor and rate, the MEDIAN of the measured rounds
(warm-up and JFR runs excluded) of each column, every round listed too, as Markdown; and a latency-percentile
plot (gnuplot, PNG).

usage: bench/gateway-report.py RESULTS_CSV... [PNG]   (several CSVs: their runs are pooled)
"""
import statistics
import subprocess
import sys
from collections import defaultdict

KEYS = ["answeredPct", "p50us", "p90us", "p99us", "p999us", "p9999us", "maxus"]
LABELS = ["p50", "p90", "p99", "p99.9", "p99.99", "max"]


def parse(path, tag):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        cells = line.strip().split(",")
        row = {"path": cells[0], "acceptor": cells[1], "round": cells[2], "run": f"{tag}.{cells[2]}",
               "rate": int(cells[3]),
               "load_before": float(cells[4]), "load_after": float(cells[5])}
        for kv in cells[6:]:
            if "=" in kv and not kv.startswith("rate="):
                k, v = kv.split("=", 1)
                row[k] = float(v)
        if "sent" in row and row["sent"] > 0:
            row["answeredPct"] = 100.0 * row["answered"] / row["sent"]
        rows.append(row)
    return rows


def fmt_us(v):
    return f"{v / 1000:,.1f} ms" if v >= 1000 else f"{v:,.0f} us"


def main():
    csvs = [a for a in sys.argv[1:] if a.endswith(".csv")]
    pngs = [a for a in sys.argv[1:] if a.endswith(".png")]
    rows = [r for i, c in enumerate(csvs) for r in parse(c, i + 1)]
    png = pngs[0] if pngs else None
    groups = defaultdict(list)
    for r in rows:
        if r["round"].isdigit() and "p50us" in r:
            groups[(r["path"], r["acceptor"], r["rate"])].append(r)
    print("| path | acceptor | offered/s | runs | answered % | p50 | p90 | p99 | p99.9 | p99.99 | max | load1 "
          "before-after |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    medians = {}
    for key in sorted(groups, key=lambda k: (k[0] != "sbe", k[2], k[1])):
        g = groups[key]
        m = {k: statistics.median(r[k] for r in g) for k in KEYS}
        medians[key] = m
        loads = ", ".join(f"{r['load_before']:.1f}-{r['load_after']:.1f}" for r in g)
        print(f"| {key[0]} | {key[1]} | {key[2]:,} | {len(g)} | {m['answeredPct']:.3f} | "
              + " | ".join(fmt_us(m[k]) for k in KEYS[1:]) + f" | {loads} |")
    print()
    print("Every run (invocation.round: p99 / answered of sent / load1 before-after):")
    print()
    for key in sorted(groups, key=lambda k: (k[0] != "sbe", k[2], k[1])):
        runs = "; ".join(f"{r['run']}: {fmt_us(r['p99us'])} / {int(r['answered']):,} of {int(r['sent']):,} / "
                        f"{r['load_before']:.1f}-{r['load_after']:.1f}" for r in groups[key])
        print(f"- {key[0]} {key[1]} {key[2]:,}/s: {runs}")
    if png:
        dat = png.rsplit(".", 1)[0] + ".dat"
        series = sorted(medians, key=lambda k: (k[0] != "sbe", k[1], k[2]))
        with open(dat, "w") as f:
            for key in series:
                f.write(f'"{key[0].upper()} {key[1] if key[0] != "sbe" else ""} {key[2] // 1000}K/s"\n')
                for i, k in enumerate(KEYS[1:]):
                    f.write(f"{i} {LABELS[i]} {max(medians[key][k], 1) / 1000:.4f}\n")
                f.write("\n\n")
        plots = ", ".join(f"'{dat}' index {i} using 1:3:xtic(2) with linespoints title columnheader(1)"
                          for i in range(len(series)))
        script = (f"set terminal pngcairo size 1000,600 font 'sans,10'; set output '{png}';"
                  "set title 'Ringex gateway: latency by percentile, coordinated-omission corrected "
                  "(median of rounds, journal on)';"
                  "set logscale y; set ylabel 'latency (ms, log)'; set xlabel 'percentile'; set grid;"
                  "set key outside right; set yrange [0.01:*];"
                  f"plot {plots}")
        subprocess.run(["gnuplot", "-e", script], check=True)


if __name__ == "__main__":
    main()
