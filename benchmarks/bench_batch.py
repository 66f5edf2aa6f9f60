"""Time the batch functions on a column of a million real-shaped URLs.

    python benchmarks/bench_batch.py [--quick] [--rows N] [--json PATH] [--png PATH]

The column: N URLs (default 1,000,000) drawn with a fixed seed from
benchmarks/urls_sample.txt (real-world URLs, 40% made messy) and from messy
variants of them (make_corpus.messy), half of them with a query parameter of
their own, so that few values repeat. It is held as a pyarrow ``string``
array.

Measured in one run (best of --repeats). The batch calls run with their
default threads (one per core) and are compared by wall time; the same calls
with ``threads=1`` are compared by the CPU time of the process, which other
jobs on a shared machine disturb less than the wall time:
- ``normalize_many(array)`` against a Python loop ``[normalize(u) for u in
  urls]`` over the same URLs as a list (target: TARGET_LOOP x), with
  ``threads=1``, and on a list and a pandas Series for context;
- against ``Series.map(url_normalize)`` and ``Series.map(canonicalize_url)``
  (w3lib), timed on a seeded random subset of --peer-rows URLs that both
  accept (they take 20-100 us per URL) and compared per URL (target:
  TARGET_PEERS x);
- the other batch functions against their own Python loops;
- peak memory: ``normalize_many`` runs in a fresh subprocess on the array read
  from an Arrow IPC file; the growth of its peak RSS during the call is
  compared with the size of the input and output Arrow buffers (target: at
  most TARGET_MEMORY x);
- the SQL engines that give the same values, as optional peers (skipped when
  not installed, their outputs checked identical to ours before timing):
  DuckDB's ``url_encode`` / ``url_decode`` (``quote(safe='')`` / ``unquote``)
  in-process (``duckdb.connect()``, ``SET threads=1`` for the one-thread rows)
  and chDB's ``encodeURLComponent`` / ``decodeURLComponent``
  (``max_threads=1``), one thread by CPU time and default threads by wall
  time (targets: TARGET_DUCKDB_ENCODE x / TARGET_DUCKDB_DECODE x on one
  thread);
- the floor: ``pyarrow.compute.ascii_upper``, a kernel that copies and
  transforms every string once;
- ns per row of quote_many / unquote_many (one thread) and the peers at
  SIZES rows (the column cut or repeated), which tells how the cost grows
  with the size of the output (target: 4 M rows within TARGET_SCALING x of
  100 k rows).

Prints a table of the ratios; --png writes them as a bar chart (matplotlib).
"""
import argparse
import functools
import gc
import importlib.metadata
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402

import pctcodec  # noqa: E402
from make_corpus import messy  # noqa: E402

TARGET_LOOP = 3.0
TARGET_PEERS = 100.0
TARGET_MEMORY = 3.0
TARGET_DUCKDB_ENCODE = 4.0
TARGET_DUCKDB_DECODE = 5.0
TARGET_SCALING = 1.15
SIZES = (10_000, 100_000, 1_000_000, 4_000_000)
QUICK_SIZES = (10_000, 20_000)
ENGINE_BASELINE = "engine per row / pctcodec per row"
CORPUS = os.path.join(HERE, "urls_sample.txt")


def make_urls(rows, seed=1):
    """rows real-shaped URLs that normalize accepts, few of them repeated."""
    rng = random.Random(seed)
    with open(CORPUS, encoding="utf-8") as f:
        base = [line.rstrip("\n") for line in f if line.strip()]
    pool = base + [messy(rng, u) for u in base if "://" in u]
    # normalize raises on a few (a host IDNA rejects): one failing value
    # stops a batch call, so they are left out.
    pool = [u for u in pool if _accepted([pctcodec.normalize], u)]
    picks = rng.choices(pool, k=rows)
    tags = rng.choices(range(10**6), k=rows)
    out = []
    for i, (url, tag) in enumerate(zip(picks, tags)):
        if i % 2:
            url, hash_, fragment = url.partition("#")
            url = "%s%sv=%d%s%s" % (url, "&" if "?" in url else "?", tag, hash_, fragment)
        out.append(url)
    return out


def best_of(repeats, func, *args, **kwargs):
    """The best wall time and the best CPU time of the process over repeats
    calls (after one warm-up), gc off."""
    func(*args, **kwargs)
    wall = cpu = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            c0, t0 = time.process_time(), time.perf_counter()
            func(*args, **kwargs)
            t1, c1 = time.perf_counter(), time.process_time()
            wall, cpu = min(wall, t1 - t0), min(cpu, c1 - c0)
    finally:
        if enabled:
            gc.enable()
    return wall, cpu


def python_loop(func, **options):
    def loop(urls):
        return [func(u, **options) for u in urls]
    return loop


def _accepted(funcs, url):
    for func in funcs:
        try:
            func(url)
        except Exception:  # a peer's own failure: the URL is not timed
            return False
    return True


def peers():
    """(label, package, function) for the normalizers that are installed."""
    found = []
    try:
        from url_normalize import url_normalize
        found.append(("Series.map(url_normalize)", "url-normalize", url_normalize))
    except ImportError:
        print("note: url-normalize is not installed: skipped", file=sys.stderr)
    try:
        from w3lib.url import canonicalize_url
        found.append(("Series.map(w3lib canonicalize_url)", "w3lib", canonicalize_url))
    except ImportError:
        print("note: w3lib is not installed: skipped", file=sys.stderr)
    return found


def sql_peers():
    """(label, {"encode": f, "decode": f}) for the SQL engines that are
    installed; f(array, threads) gives the column of results as a pyarrow
    array, threads None meaning the engine's default."""
    found = []
    try:
        import duckdb
    except ImportError:
        print("note: duckdb is not installed: skipped", file=sys.stderr)
    else:
        con = duckdb.connect()
        default_threads = con.sql("SELECT current_setting('threads')").fetchall()[0][0]

        def duck(func):
            def call(array, threads):
                con.execute("SET threads=%d" % (threads or default_threads))
                con.register("urls", pa.table({"u": array}))
                try:
                    return con.sql("SELECT %s(u) FROM urls" % func).to_arrow_table().column(0)
                finally:
                    con.unregister("urls")
            return call
        found.append(("DuckDB %s" % duckdb.__version__, {"encode": duck("url_encode"),
                                                         "decode": duck("url_decode")}))
    try:
        import chdb
    except ImportError:
        print("note: chdb is not installed: skipped", file=sys.stderr)
    else:
        def ch(func):
            def call(array, threads):
                urls = pa.table({"u": array})  # noqa: F841 (read by name: Python(urls))
                settings = " SETTINGS max_threads=%d" % threads if threads else ""
                return chdb.query("SELECT %s(u) FROM Python(urls)%s" % (func, settings),
                                  "ArrowTable").column(0)
            return call
        found.append(("chDB %s" % chdb.__version__, {"encode": ch("encodeURLComponent"),
                                                     "decode": ch("decodeURLComponent")}))
    return found


def same_values(got, want):
    """The two columns hold the same strings (whatever their Arrow types)."""
    got = pa.chunked_array([got]) if isinstance(got, pa.Array) else got
    got = got.cast(pa.large_string()).combine_chunks()
    want = want.cast(pa.large_string())
    return len(got) == len(want) and got.equals(want)


MEMORY_CHILD = r"""
import gc, json, resource, sys
sys.path.insert(0, sys.argv[2])  # the parent's pctcodec
import pyarrow as pa
import pctcodec

def rss(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return None

with pa.memory_map(sys.argv[1]) as source:
    array = pa.ipc.open_file(source).read_all().column(0).combine_chunks()
    array = pa.concat_arrays([array])  # own copy, in memory
pctcodec.normalize_many(array[:10])  # imports and caches loaded
gc.collect()
before = rss("VmRSS")
try:  # reset the peak (Linux >= 4.0); else the peak so far is the current size
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    reset = True
except OSError:
    reset = False
result = pctcodec.normalize_many(array)
peak = rss("VmHWM") if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"before": before, "peak": peak, "input": array.nbytes, "output": result.nbytes,
                  "peak_reset": reset}))
"""


def measure_memory(array):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "urls.arrow")
        table = pa.table({"url": array})
        with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
            writer.write_table(table)
        # Run from the temporary folder, so that the child imports the
        # pctcodec the parent runs, not a source tree in the current folder.
        package_root = os.path.dirname(os.path.dirname(os.path.abspath(pctcodec.__file__)))
        done = subprocess.run([sys.executable, "-c", MEMORY_CHILD, path, package_root], cwd=folder,
                              capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError("the memory measurement failed:\n" + done.stderr)
    data = json.loads(done.stdout)
    data["growth"] = max(0, data["peak"] - data["before"])
    data["ratio"] = data["growth"] / (data["input"] + data["output"])
    return data


def _version(package):
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _per_url(seconds, rows):
    ns = seconds / rows * 1e9
    return "%.0f ns" % ns if ns < 10_000 else "%.1f us" % (ns / 1000)


def run(args):
    import pandas as pd

    urls = make_urls(args.rows)
    array = pa.array(urls, pa.string())
    rows = len(urls)
    results = []  # dicts: name, rows, seconds, baseline name, ratio, target

    def add(name, times, n, baseline=None, target=None, note="", clock="cpu"):
        # A single-threaded call is compared by the CPU time of the process,
        # which other jobs on a shared machine disturb less than the wall
        # time; a call on several threads (the batch functions' default) by
        # the wall time, against the wall time of its baseline.
        wall, cpu = times
        seconds = cpu if clock == "cpu" else wall
        entry = {"name": name, "rows": n, "seconds": seconds, "per_url": seconds / n, "clock": clock,
                 "wall": wall, "cpu": cpu, "baseline": baseline, "ratio": None, "target": target,
                 "note": note}
        if baseline is not None:
            base = next(r for r in results if r["name"] == baseline)
            entry["ratio"] = (base[clock] / base["rows"]) / (seconds / n)
        results.append(entry)
        return entry

    r = args.repeats
    loop = add("[normalize(u) for u in list]", best_of(r, python_loop(pctcodec.normalize), urls), rows)
    add("normalize_many(pa.array)", best_of(r, pctcodec.normalize_many, array), rows,
        loop["name"], TARGET_LOOP, clock="wall", note="default threads: one per core")
    add("normalize_many(pa.array, threads=1)", best_of(r, pctcodec.normalize_many, array, threads=1), rows,
        loop["name"])
    add("normalize_many(list)", best_of(r, pctcodec.normalize_many, urls), rows, loop["name"])
    series = pd.Series(array.to_pandas(types_mapper=pd.ArrowDtype))
    add("normalize_many(pd.Series[pyarrow])", best_of(r, pctcodec.normalize_many, series), rows, loop["name"],
        clock="wall")

    found = peers()
    if found:
        rng = random.Random(2)
        sample = rng.sample(urls, min(args.peer_rows * 2, rows))
        subset = [u for u in sample if _accepted([f for _, _, f in found], u)][:args.peer_rows]
        subset_series = pd.Series(subset, dtype=object)
        subset_array = pa.array(subset, pa.string())
        ours = add("normalize_many(pa.array), peer subset", best_of(r, pctcodec.normalize_many, subset_array),
                   len(subset), note="same URLs as the peers")
        for label, package, func in found:
            seconds = best_of(1, subset_series.map, func)
            entry = add("%s %s" % (label, _version(package)), seconds, len(subset),
                        note="%d-URL subset" % len(subset))
            # ratio of the peer to normalize_many on the whole column, per URL
            entry["ratio"] = entry["per_url"] / results[1]["per_url"]
            entry["ratio_same_urls"] = entry["per_url"] / ours["per_url"]
            entry["target"] = TARGET_PEERS
            entry["baseline"] = "peer per URL / normalize_many(pa.array) per URL"

    for name, single, many in (("quote", pctcodec.quote, pctcodec.quote_many),
                               ("unquote", pctcodec.unquote, pctcodec.unquote_many),
                               ("requote", pctcodec.requote, pctcodec.requote_many),
                               ("check", pctcodec.is_valid, pctcodec.check_many)):
        label = "[%s(u) for u in list]" % ("is_valid" if name == "check" else name)
        add(label, best_of(r, python_loop(single), urls), rows)
        add("%s_many(pa.array)" % name, best_of(r, many, array), rows, label, clock="wall")
        add("%s_many(pa.array, threads=1)" % name, best_of(r, many, array, threads=1), rows, label)

    import pyarrow.compute as pc
    add("pc.ascii_upper(pa.array) (floor)", best_of(r, pc.ascii_upper, array), rows,
        note="copies and transforms each string once")

    # The SQL engines, against quote_many(safe='') / unquote_many of the same column.
    ops = {"encode": (functools.partial(pctcodec.quote_many, safe=""), array),
           "decode": (pctcodec.unquote_many, pctcodec.quote_many(array, safe=""))}
    targets = {"encode": TARGET_DUCKDB_ENCODE, "decode": TARGET_DUCKDB_DECODE}
    engines = sql_peers()
    for op, (ours, column) in ops.items():
        name = "quote_many(safe='')" if op == "encode" else "unquote_many(quoted)"
        one = add("%s, threads=1" % name, best_of(r, ours, column, threads=1), rows)
        default = add("%s, default threads" % name, best_of(r, ours, column), rows, clock="wall")
        want = ours(column, threads=1)
        for label, calls in engines:
            if not same_values(calls[op](column, 1), want):
                add("%s %s: output differs, not timed" % (label, op), (float("nan"),) * 2, rows)
                continue
            for threads, mine, clock in ((1, one, "cpu"), (None, default, "wall")):
                entry = add("%s %s, %s" % (label, op, "threads=1" if threads else "default threads"),
                            best_of(r, calls[op], column, threads), rows, clock=clock)
                # how many times faster pctcodec is than the engine
                entry["ratio"] = entry["per_url"] / mine["per_url"]
                entry["baseline"] = ENGINE_BASELINE
                if threads and label.startswith("DuckDB"):
                    entry["target"] = targets[op]

    scaling = measure_scaling(array, args.sizes, r, engines)
    memory = measure_memory(array)
    return {"rows": rows, "scaling": scaling, "repeats": r, "results": results, "memory": memory,
            "python": platform.python_version(), "machine": platform.machine(),
            "cores": pctcodec.batch._cores(), "pctcodec": pctcodec.__version__, "pyarrow": pa.__version__, "pandas": pd.__version__}


def column_of(array, rows):
    """rows values of array: its first rows, or it repeated, as one array."""
    if rows <= len(array):
        return pa.concat_arrays([array.slice(0, rows)])
    copies = [array] * (rows // len(array)) + [array.slice(0, rows % len(array))]
    return pa.concat_arrays(copies)


def measure_scaling(array, sizes, repeats, engines):
    """ns per row, one thread (CPU time), of each call at each size."""
    calls = [("quote_many(safe='')", lambda a: pctcodec.quote_many(a, safe="", threads=1), False),
             ("unquote_many(quoted)", lambda a: pctcodec.unquote_many(a, threads=1), True)]
    for label, ops in engines:
        calls.append(("%s encode" % label, functools.partial(ops["encode"], threads=1), False))
        calls.append(("%s decode" % label, functools.partial(ops["decode"], threads=1), True))
    table = {name: {} for name, _, _ in calls}
    for rows in sizes:
        column = column_of(array, rows)
        quoted = pctcodec.quote_many(column, safe="", threads=1)
        for name, call, decodes in calls:
            cpu = best_of(repeats, call, quoted if decodes else column)[1]
            table[name][rows] = cpu / rows * 1e9
        del column, quoted
    return {"sizes": list(sizes), "ns_per_row": table}


def report(data):
    lines = ["pctcodec %s batch benchmark: %s URLs (pyarrow string array), best of %d"
             % (data["pctcodec"], format(data["rows"], ","), data["repeats"]),
             "Python %s, %s, pyarrow %s, pandas %s" % (data["python"], data["machine"], data["pyarrow"],
                                                      data["pandas"]),
             ""]
    header = "%-48s %10s %10s %5s %9s  %s" % ("call", "rows", "per URL", "clock", "speed-up", "target")
    lines += [header, "-" * len(header)]
    for r in data["results"]:
        ratio = "" if r["ratio"] is None else "%.1fx" % r["ratio"]
        target = ""
        if r["target"]:
            target = ">= %gx %s" % (r["target"], "met" if r["ratio"] >= r["target"] else "MISSED")
        lines.append("%-48s %10s %10s %5s %9s  %s" % (r["name"], format(r["rows"], ","),
                                                       _per_url(r["seconds"], r["rows"]), r["clock"],
                                                       ratio, target))
    sc = data["scaling"]
    lines += ["", "ns per row, one thread (CPU time), by the number of rows:",
              "%-36s" % "call" + "".join("%11s" % format(n, ",") for n in sc["sizes"])
              + "   4M / 100k"]
    for name, per in sc["ns_per_row"].items():
        row = "%-36s" % name + "".join("%11.1f" % per[n] for n in sc["sizes"])
        if 100_000 in per and 4_000_000 in per:
            growth = per[4_000_000] / per[100_000]
            row += "   %.2fx (target <= %gx %s)" % (growth, TARGET_SCALING,
                                                   "met" if growth <= TARGET_SCALING else "MISSED")
        lines.append(row)
    m = data["memory"]
    mib = 1024 * 1024
    verdict = "met" if m["ratio"] <= TARGET_MEMORY else "MISSED"
    lines += ["",
              "speed-up: time per URL of the call it is compared with (the loop above it; for the",
              "peers, the peer's per URL on its subset / normalize_many(pa.array)'s per URL on all rows)",
              "clock: cpu = CPU time of the process (single-threaded calls: less disturbed by other",
              "jobs on the machine than wall time), wall = wall time (calls on several threads,",
              "the default: %d cores here)" % data.get("cores", 1),
              "",
              "memory (normalize_many in a fresh process): peak RSS growth %.1f MiB for %.1f MiB of "
              "input + %.1f MiB of output Arrow buffers: %.2fx (target <= %gx %s)"
              % (m["growth"] / mib, m["input"] / mib, m["output"] / mib, m["ratio"], TARGET_MEMORY, verdict)]
    return "\n".join(lines)


def chart(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bars = [r for r in data["results"] if r["ratio"] is not None]
    labels, colors = [], []
    for r in bars:
        if r["baseline"] == ENGINE_BASELINE:
            labels.append("pctcodec vs " + r["name"])
            colors.append("#55a868")
        elif r["target"] == TARGET_PEERS:
            labels.append("normalize_many vs " + r["name"])
            colors.append("#c44e52")
        else:
            labels.append("%s vs loop" % r["name"])
            colors.append("#4c72b0" if r["target"] else "#8c8c8c")
    values = [r["ratio"] for r in bars]
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(bars) + 1.8), dpi=110)
    y = range(len(bars))[::-1]
    ax.barh(list(y), values, color=colors)
    ax.set_xscale("log")
    ax.set_yticks(list(y))
    ax.set_yticklabels(labels, fontsize=9)
    for yi, v in zip(y, values):
        ax.text(v * 1.05, yi, "%.1fx" % v, va="center", fontsize=9)
    for target, style in ((TARGET_LOOP, ":"), (TARGET_PEERS, "--")):
        ax.axvline(target, color="black", linestyle=style, linewidth=1)
        ax.text(target, len(bars) - 0.4, " target %gx" % target, fontsize=8, va="bottom")
    ax.axvline(1, color="grey", linewidth=0.8)
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(color="#4c72b0", label="vs Python loop, target %gx" % TARGET_LOOP),
                       Patch(color="#c44e52", label="vs Series.map of a peer, target %gx" % TARGET_PEERS),
                       Patch(color="#55a868", label="vs a SQL engine on the same column"),
                       Patch(color="#8c8c8c", label="for context")],
              loc="lower right", fontsize=8)
    ax.set_xlim(min(0.5, min(values) / 2), max(max(values), TARGET_PEERS) * 3)
    ax.grid(axis="x", which="major", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_xlabel("speed-up (time per URL of the baseline / time per URL of the batch call), log scale")
    ax.set_title("pctcodec batch functions, %s URLs in a pyarrow array (Python %s)"
                 % (format(data["rows"], ","), data["python"]), fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 URLs, one repeat (CI smoke run)")
    parser.add_argument("--rows", type=int, help="number of URLs (default 1,000,000)")
    parser.add_argument("--peer-rows", type=int, help="URLs for the slow peers (default 20,000)")
    parser.add_argument("--repeats", type=int, help="repeats, best kept (default 3)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--png", metavar="PATH", help="write a bar chart of the speed-ups")
    args = parser.parse_args(argv)
    args.rows = args.rows or (20_000 if args.quick else 1_000_000)
    args.peer_rows = args.peer_rows or (1_000 if args.quick else 20_000)
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.sizes = QUICK_SIZES if args.quick else SIZES

    data = run(args)
    print(report(data))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
    if args.png:
        chart(data, args.png)
        print("chart: %s" % args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
