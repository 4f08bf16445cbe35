#!/usr/bin/env python3
"""Summarise a JFR recording of BlpBenchmark: execution samples whose stack is inside the business-logic processor
(set-up excluded), by top frame (with line) and inclusive per method.

    bench/jfr-blp-summary.py blp.jfr [N]

Record with bench/blp-profile.jfc (1 ms samples), see docs/benchmarks-engine.md.
"""
import collections
import json
import subprocess
import sys

recording = sys.argv[1]
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 40
out = subprocess.run(['jfr', 'print', '--json', '--events', 'jdk.ExecutionSample', recording],
                     capture_output=True, text=True, check=True).stdout
total = 0
top = collections.Counter()
inclusive = collections.Counter()
for event in json.loads(out)['recording']['events']:
    frames = event['values']['stackTrace']['frames']
    names = [f['method']['type']['name'].split('/')[-1] + '.' + f['method']['name'] for f in frames]
    if not any('BusinessLogicProcessor.' in n for n in names) or any('setUp' in n for n in names):
        continue
    total += 1
    top[names[0] + ':' + str(frames[0].get('lineNumber'))] += 1
    for name in set(names):
        inclusive[name] += 1
print('samples in the BLP', total)
for name, count in top.most_common(limit):
    print(f'{count:6d} {100 * count / max(1, total):5.1f}% {name}')
print('--- inclusive')
for name, count in inclusive.most_common(limit):
    print(f'{count:6d} {100 * count / max(1, total):5.1f}% {name}')
