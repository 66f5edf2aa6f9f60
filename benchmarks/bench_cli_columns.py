"""The command line's commands that add columns against normalize, on the same CSV.

    python benchmarks/bench_cli_columns.py [--rows N] [--rounds R] [--quick]

Writes a CSV of N rows (id, url, n; the URLs of benchmarks/urls_sample.txt
over and over) to a temporary folder, then runs `pctcodec normalize --column
url`, `split --column url`, `domain --column url --on-error null` and
`query-param q --column url` on it, each R times, output to /dev/null, and
prints each one's best wall time and CPU time (user + system of the child,
all its threads) and their ratios to normalize's. Target: at most 1.5x.
"""
import argparse
import csv
import itertools
import os
import resource
import subprocess
import sys
import tempfile
import time

COMMANDS = [
    ["normalize", "--column", "url"],
    ["split", "--column", "url"],
    ["domain", "--column", "url", "--on-error", "null"],
    ["query-param", "q", "--column", "url"],
    ["query-param", "q,page", "--column", "url"],
]
TARGET = 1.5


def write_csv(path, rows):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "urls_sample.txt"), encoding="utf-8") as f:
        urls = f.read().splitlines()
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["id", "url", "n"])
        for i, url in zip(range(rows), itertools.cycle(urls)):
            out.writerow([i, url, i % 7])


def run(argv, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pctcodec", *argv, path], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="10,000 rows, one round (a smoke test)")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.rounds = 10_000, 1
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "urls.csv")
        write_csv(path, args.rows)
        best = {}
        for _ in range(args.rounds):
            for argv in COMMANDS:
                wall, cpu = run(argv, path)
                key = " ".join(argv)
                old = best.get(key, (float("inf"), float("inf")))
                best[key] = (min(old[0], wall), min(old[1], cpu))
    base = best[" ".join(COMMANDS[0])]
    print(f"pctcodec COMMAND on a CSV of {args.rows:,} rows, best of {args.rounds}:")
    for key, (wall, cpu) in best.items():
        ratio = cpu / base[1]
        mark = "" if key == " ".join(COMMANDS[0]) else (
            "  met" if ratio <= TARGET else f"  MISSED (target <= {TARGET}x)")
        print(f"  {key:40} wall {wall:6.2f} s ({wall / base[0]:.2f}x)  "
              f"cpu {cpu:6.2f} s ({ratio:.2f}x){mark}")


if __name__ == "__main__":
    main()
