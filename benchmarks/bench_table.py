"""Time the table mode of the command line against its line mode.

    python benchmarks/bench_table.py [--mb 200] [--command requote] [--source DIR]
    python benchmarks/bench_table.py --unclosed 1000,2000,5000,100000

The first form writes a CSV of about --mb megabytes (columns id, url, note:
real-shaped URLs from benchmarks/urls_sample.txt, some quoted, a note with a
quoted comma) and a text file of its url column, one value per line; then
runs ``pctcodec COMMAND --column url --threads 1 FILE`` and ``pctcodec COMMAND VALUES``
(the line mode on the same values) as subprocesses, output to /dev/null,
and prints each one's wall and CPU time (best of --repeats; the CPU time is
less disturbed by other jobs on a shared machine) and peak RSS, and the
ratios line time / table time (target: at least TARGET_RATIO).

--unclosed times the table mode on a header, a row whose quoted field never
closes, and N ordinary rows (an input that was quadratic), per N.

--source DIR runs the pctcodec found in DIR (a built checkout), to compare
two versions on the same files.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "urls_sample.txt")
TARGET_RATIO = 0.8


def write_files(folder, megabytes):
    """A CSV of about `megabytes` MB and the text file of its url column."""
    with open(CORPUS, encoding="utf-8") as f:
        urls = [line.rstrip("\n") for line in f if line.strip()]
    # no value may need CSV quoting for the line file to hold the same values
    urls = [u for u in urls if not any(c in u for c in ',"\r')]
    csv_path = os.path.join(folder, "table.csv")
    txt_path = os.path.join(folder, "values.txt")
    target = megabytes * 1_000_000
    size = 0
    row = 0
    with open(csv_path, "wb") as table, open(txt_path, "wb") as values:
        table.write(b"id,url,note\n")
        while size < target and urls:
            lines, vals = [], []
            for url in urls:
                row += 1
                value = f"{url}?row={row}&q=a b" if row % 3 else url
                data = value.encode("utf-8")
                field = b'"' + data + b'"' if row % 5 == 0 else data
                lines.append(b"%d,%s,\"note %d, ok\"\n" % (row, field, row))
                vals.append(data + b"\n")
            chunk = b"".join(lines)
            table.write(chunk)
            values.write(b"".join(vals))
            size += len(chunk)
    return csv_path, txt_path, row


def run(argv, source):
    """(wall seconds, peak RSS in MB) of `python -m pctcodec argv`, output to /dev/null."""
    env = dict(os.environ)
    # standard output buffered, as a user has it (not line by line)
    env.pop("PYTHONUNBUFFERED", None)
    if source:
        env["PYTHONPATH"] = source
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "pctcodec", *argv], stdout=null,
                                stderr=subprocess.PIPE, env=env,
                                cwd=source or tempfile.gettempdir())
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        err = proc.stderr.read()
        proc.stderr.close()
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"pctcodec {' '.join(argv)} failed: {err.decode(errors='replace')}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best(argv, source, repeats):
    """(wall seconds, CPU seconds, peak RSS MB): the best times of `repeats` runs."""
    runs = [run(argv, source) for _ in range(repeats)]
    return min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)


def bench_csv(args):
    with tempfile.TemporaryDirectory() as folder:
        csv_path, txt_path, rows = write_files(folder, args.mb)
        mb = os.path.getsize(csv_path) / 1e6
        print(f"{mb:.0f} MB CSV, {rows} rows; command {args.command}; best of {args.repeats}")
        table = best([args.command, "--column", "url", "--threads", "1", csv_path], args.source,
                     args.repeats)
        line = best([args.command, txt_path], args.source, args.repeats)
        print(f"{'mode':<24}{'wall s':>9}{'CPU s':>9}{'MB/s (CPU)':>12}{'peak RSS MB':>13}")
        for name, (wall, cpu, rss) in (("table (--column url)", table), ("line (same values)", line)):
            print(f"{name:<24}{wall:>9.2f}{cpu:>9.2f}{mb / cpu:>12.1f}{rss:>13.0f}")
        print(f"table speed / line speed: {line[0] / table[0]:.2f}x wall, "
              f"{line[1] / table[1]:.2f}x CPU (target >= {TARGET_RATIO}x)")


def bench_unclosed(args):
    print(f"{'N rows':>10}{'seconds':>10}")
    with tempfile.TemporaryDirectory() as folder:
        for n in args.unclosed:
            path = os.path.join(folder, f"unclosed{n}.csv")
            with open(path, "wb") as f:
                f.write(b"id,url\n1,\"http://a/ b,t\n")
                f.write(b"".join(b"%d,http://a.example/p%d\n" % (i, i) for i in range(n)))
            start = time.perf_counter()
            env = dict(os.environ, PYTHONPATH=args.source) if args.source else None
            try:
                subprocess.run([sys.executable, "-m", "pctcodec", "requote", "--column", "url", path],
                               capture_output=True, env=env, timeout=args.timeout,
                               cwd=args.source or folder)
                elapsed = f"{time.perf_counter() - start:.3f}"
            except subprocess.TimeoutExpired:
                elapsed = f">{args.timeout:.0f}"
            print(f"{n:>10}{elapsed:>10}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--command", default="requote")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--source", help="a pctcodec checkout to run instead of the installed one")
    parser.add_argument("--unclosed", type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    if args.source:
        args.source = os.path.abspath(args.source)
    if args.unclosed:
        bench_unclosed(args)
    else:
        bench_csv(args)


if __name__ == "__main__":
    main()
