"""Time the batch functions on a column of a million real-shaped URLs.

    python benchmarks/bench_batch.py [--quick] [--rows N] [--json PATH] [--png PATH]
    python benchmarks/bench_batch.py --dirty [--rows N]   # failed rows against good ones

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
  urls]`` over the same URLs as a list (target: TARGET_LOOP x), with its
  default threads and ``threads=1``, and on a list and a pandas Series;
- against ``Series.map(url_normalize)`` and ``Series.map(canonicalize_url)``
  (w3lib), timed on a seeded random subset of --peer-rows URLs that both
  accept (they take 20-100 us per URL) and compared per URL (target:
  TARGET_PEERS x);
- peak memory: ``normalize_many`` runs in a fresh subprocess on the array read
  from an Arrow IPC file; the growth of its peak RSS during the call is
  compared with the size of the input and output Arrow buffers (target: at
  most TARGET_MEMORY x);
- the table by size: at SIZES rows (the column cut or repeated), ns per row
  of every batch function (one thread by CPU time, default threads by wall
  time), the Python loop of its single-value function, the SQL engines that
  give the same values as optional peers (skipped when not installed):
  DuckDB's ``url_encode`` / ``url_decode`` (``quote(safe='')`` /
  ``unquote``) in-process (``duckdb.connect()``, ``SET threads=1`` for the
  one-thread rows) and chDB's ``encodeURLComponent`` /
  ``decodeURLComponent`` (``max_threads=1``), and the floor,
  ``pyarrow.compute.ascii_upper`` (a kernel that copies and transforms
  every string once). Every output is checked identical to the batch
  function's before it is timed. The targets read from it: ns per row at
  1 M rows (TARGET_NS), each batch function >= TARGET_LOOP x its loop, the
  default threads >= TARGET_THREADS x one thread's wall throughput, 4 M rows
  within TARGET_SCALING x of 100 k rows per row, >= TARGET_DUCKDB_ENCODE x /
  TARGET_DUCKDB_DECODE x DuckDB on one thread and ahead of it on default
  threads.

Prints a table of the ratios; --png writes them as a bar chart (matplotlib).
"""
import argparse
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
TARGET_MEMORY = 1.0  # peak RSS growth <= input + output
TARGET_DUCKDB_ENCODE = 4.0
TARGET_DUCKDB_DECODE = 5.0
TARGET_SCALING = 1.15
TARGET_THREADS = 1.7
# one thread, 1 M rows, CPU time
TARGET_NS = {"quote_many(safe='')": 50, "unquote_many(quoted)": 35, "check_many": 15,
             "normalize_many": 60}
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

    def add(*args, **kwargs):
        return add_result(results, *args, **kwargs)

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

    # every batch function against its loop, the SQL engines and the floor:
    # the table by size
    engines = sql_peers()
    sizes = measure_sizes(array, args.sizes, r, engines)
    memory = measure_memory(array)
    return {"rows": rows, "sizes": sizes, "repeats": r, "results": results, "memory": memory,
            "python": platform.python_version(), "machine": platform.machine(),
            "cores": pctcodec.batch._cores(), "pctcodec": pctcodec.__version__, "pyarrow": pa.__version__, "pandas": pd.__version__}


def column_of(array, rows):
    """rows values of array: its first rows, or it repeated, as one array."""
    if rows <= len(array):
        return pa.concat_arrays([array.slice(0, rows)])
    copies = [array] * (rows // len(array)) + [array.slice(0, rows % len(array))]
    return pa.concat_arrays(copies)


def size_calls(engines):
    """(name, call(column, threads), input, kind) for the table by size:
    every batch function, the Python loop of its single-value function, the
    SQL engines and the floor. input: "urls" or "quoted" (quote(safe='') of
    them); threads None is the default; a loop or the floor takes no
    threads (one thread)."""
    def many(func, **options):
        return lambda column, threads: func(column, threads=threads, **options)

    def loop(func, **options):
        return lambda values, threads: [func(u, **options) for u in values]

    calls = []
    for name, single, batch, options, source, loop_name in (
            ("quote_many(safe='')", pctcodec.quote, pctcodec.quote_many, {"safe": ""}, "urls",
             "quote(u, safe='')"),
            ("quote_plus_many", pctcodec.quote_plus, pctcodec.quote_plus_many, {}, "urls", "quote_plus(u)"),
            ("unquote_many(quoted)", pctcodec.unquote, pctcodec.unquote_many, {}, "quoted", "unquote(u)"),
            ("unquote_plus_many(quoted)", pctcodec.unquote_plus, pctcodec.unquote_plus_many, {}, "quoted",
             "unquote_plus(u)"),
            ("requote_many", pctcodec.requote, pctcodec.requote_many, {}, "urls", "requote(u)"),
            ("normalize_many", pctcodec.normalize, pctcodec.normalize_many, {}, "urls", "normalize(u)"),
            ("check_many", pctcodec.batch._check_position, pctcodec.check_many, {}, "urls",
             "check position(u)")):
        calls.append((name, many(batch, **options), source, "batch"))
        calls.append(("  [%s for u in list]" % loop_name, loop(single, **options), source, "loop:" + name))
    for label, ops in engines:
        calls.append(("%s encode" % label, ops["encode"], "urls", "engine:quote_many(safe='')"))
        calls.append(("%s decode" % label, ops["decode"], "quoted", "engine:unquote_many(quoted)"))
    import pyarrow.compute as pc
    calls.append(("pc.ascii_upper (floor)", lambda column, threads: pc.ascii_upper(column), "urls", "floor"))
    return calls


def _as_list(result):
    if isinstance(result, list):
        return result
    if isinstance(result, pa.ChunkedArray):
        result = result.combine_chunks()
    return result.to_pylist()


def measure_sizes(array, sizes, repeats, engines):
    """ns per row of every call at each size: one thread by CPU time
    ("cpu1"), one thread by wall time ("wall1") and default threads by wall
    time ("wall"). The outputs are checked identical to the batch
    function's (a loop's, an engine's) before they are timed."""
    calls = size_calls(engines)
    table = {name: {} for name, _, _, _ in calls}
    for rows in sizes:
        columns = {"urls": column_of(array, rows)}
        columns["quoted"] = pctcodec.quote_many(columns["urls"], safe="", threads=1)
        lists = {key: column.to_pylist() for key, column in columns.items()}
        wanted = {}
        for name, call, source, kind in calls:
            if kind == "floor":
                continue
            value = lists[source] if kind.startswith("loop") else columns[source]
            got = call(value, 1)
            if kind == "batch":
                wanted[name] = got
                same = same_values(call(value, None), got)
            elif kind.startswith("loop"):
                same = got == _as_list(wanted[kind.split(":", 1)[1]])
            else:
                same = same_values(got, wanted[kind.split(":", 1)[1]])
            if not same:
                raise SystemExit("%s at %d rows: its output differs from pctcodec's" % (name, rows))
        del wanted
        for name, call, source, kind in calls:
            value = lists[source] if kind.startswith("loop") else columns[source]
            # the long loops once or twice: they alone would take minutes
            reps = repeats if not kind.startswith("loop") or rows < 1_000_000 else min(repeats, 2)
            wall1, cpu1 = best_of(reps, call, value, 1)
            entry = {"cpu1": cpu1 / rows * 1e9, "wall1": wall1 / rows * 1e9}
            if kind in ("batch",) or kind.startswith("engine"):
                entry["wall"] = best_of(reps, call, value, None)[0] / rows * 1e9
            table[name][rows] = entry
        del columns, lists
    return {"sizes": list(sizes), "ns_per_row": table,
            "kinds": {name: kind for name, _, _, kind in calls}}


def size_targets(sizes_data):
    """(what, value, target, met) for the targets read from the table by
    size."""
    table, kinds, out = sizes_data["ns_per_row"], sizes_data["kinds"], []
    big, small, at = 4_000_000, 100_000, 1_000_000
    for name, per in table.items():
        kind = kinds[name]
        if at in per and name in TARGET_NS:
            ns = per[at]["cpu1"]
            out.append(("%s, 1 M rows, one thread" % name, "%.1f ns/row" % ns,
                        "<= %g ns/row" % TARGET_NS[name], ns <= TARGET_NS[name]))
        if at in per and kind == "batch":
            loop = next(table[n][at]["cpu1"] for n, k in kinds.items() if k == "loop:" + name)
            ratio = loop / per[at]["cpu1"]
            out.append(("%s vs its Python loop, 1 M rows, one thread" % name, "%.1fx" % ratio,
                        ">= %gx" % TARGET_LOOP, ratio >= TARGET_LOOP))
            ratio = per[at]["wall1"] / per[at]["wall"]
            out.append(("%s default threads vs one thread (wall), 1 M rows" % name, "%.2fx" % ratio,
                        ">= %gx" % TARGET_THREADS, ratio >= TARGET_THREADS))
        if big in per and small in per and kind == "batch":
            growth = per[big]["cpu1"] / per[small]["cpu1"]
            out.append(("%s ns/row 4 M / 100 k rows, one thread" % name, "%.2fx" % growth,
                        "<= %gx" % TARGET_SCALING, growth <= TARGET_SCALING))
        if at in per and kind.startswith("engine") and name.startswith("DuckDB"):
            ours = table[kind.split(":", 1)[1]][at]
            target = TARGET_DUCKDB_ENCODE if name.endswith("encode") else TARGET_DUCKDB_DECODE
            ratio = per[at]["cpu1"] / ours["cpu1"]
            out.append(("pctcodec vs %s, 1 M rows, one thread" % name, "%.1fx" % ratio,
                        ">= %gx" % target, ratio >= target))
            ratio = per[at]["wall"] / ours["wall"]
            out.append(("pctcodec vs %s, 1 M rows, default threads (wall)" % name, "%.1fx" % ratio,
                        "> 1x", ratio > 1))
    return out


def size_report(sizes_data):
    """The table by size: per call and size, one-thread CPU ns/row and
    default-thread wall ns/row ("cpu1 / wall")."""
    sizes, table = sizes_data["sizes"], sizes_data["ns_per_row"]
    width = 17
    lines = ["ns per row by the number of rows: one thread (CPU time) / default threads (wall time)",
             "%-40s" % "call" + "".join(("%s rows" % format(n, ",")).rjust(width) for n in sizes)]
    for name, per in table.items():
        cells = []
        for n in sizes:
            e = per.get(n)
            if e is None:
                cells.append("")
            elif "wall" in e:
                cells.append("%.1f / %.1f" % (e["cpu1"], e["wall"]))
            else:
                cells.append("%.1f" % e["cpu1"])
        lines.append("%-40s" % name + "".join(c.rjust(width) for c in cells))
    lines += ["", "targets read from this table:"]
    for what, value, target, met in size_targets(sizes_data):
        lines.append("  %-72s %13s  %-14s %s" % (what, value, target, "met" if met else "MISSED"))
    return "\n".join(lines)


def size_bars(sizes_data, rows=1_000_000):
    """Chart bars of the table by size at `rows` rows, one thread (CPU
    time): each batch function against its loop, pctcodec against each
    engine."""
    table, kinds, bars = sizes_data["ns_per_row"], sizes_data["kinds"], []
    for name, per in table.items():
        if rows not in per:
            continue
        kind = kinds[name]
        if kind == "batch":
            loop = next(table[n][rows]["cpu1"] for n, k in kinds.items() if k == "loop:" + name)
            bars.append({"name": "%s, threads=1" % name, "baseline": "loop", "target": TARGET_LOOP,
                         "ratio": loop / per[rows]["cpu1"]})
        elif kind.startswith("engine"):
            ours = table[kind.split(":", 1)[1]][rows]
            bars.append({"name": "%s, threads=1" % name, "baseline": ENGINE_BASELINE, "target": None,
                         "ratio": per[rows]["cpu1"] / ours["cpu1"]})
    return bars


def add_result(results, name, times, n, baseline=None, target=None, note="", clock="cpu"):
    """Append a timed call to results and return its entry; `baseline` names
    an earlier entry, which gives the speed-up (its time per URL / this one's).

    A single-threaded call is compared by the CPU time of the process, which
    other jobs on a shared machine disturb less than the wall time; a call on
    several threads (the batch functions' default) by the wall time, against
    the wall time of its baseline."""
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


def results_lines(results, width):
    """The table of calls: name, rows, time per URL, clock, speed-up, target."""
    row = "%%-%ds %%10s %%10s %%5s %%9s  %%s" % width
    header = row % ("call", "rows", "per URL", "clock", "speed-up", "target")
    lines = [header, "-" * len(header)]
    for r in results:
        ratio = "" if r["ratio"] is None else "%.1fx" % r["ratio"]
        target = ""
        if r["target"]:
            target = ">= %gx %s" % (r["target"], "met" if r["ratio"] >= r["target"] else "MISSED")
        lines.append(row % (r["name"], format(r["rows"], ","), _per_url(r["seconds"], r["rows"]), r["clock"],
                            ratio, target))
    return lines


def report(data):
    lines = ["pctcodec %s batch benchmark: %s URLs (pyarrow string array), best of %d"
             % (data["pctcodec"], format(data["rows"], ","), data["repeats"]),
             "Python %s, %s, pyarrow %s, pandas %s" % (data["python"], data["machine"], data["pyarrow"],
                                                      data["pandas"]),
             ""]
    lines += results_lines(data["results"], 48)
    lines += ["", size_report(data["sizes"])]
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

    bars = [r for r in data["results"] if r["ratio"] is not None] + size_bars(data["sizes"])
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


# ---------------------------------------------------------------- failed rows

# Bad rows of each kind a function can fail on, each row distinct (%d: its
# number), so that no cache of hosts answers for them. Lone surrogates
# exist in Python str only: those kinds run on lists alone.
SURROGATE = "http://example.com/%d\ud800b"
DIRTY_KINDS = {
    "registered_domain_many": ["http://exa<mple%d.com/a", "http://\u00e4%d.xn--a.example/a"],
    "public_suffix_many": ["http://exa<mple%d.com/a", "http://\u00e4%d.xn--a.example/a"],
    "domain_parts_many": ["http://exa<mple%d.com/a", "http://\u00e4%d.xn--a.example/a"],
    "quote_many": [SURROGATE],
    "requote_many": [SURROGATE],
    "normalize_many": [SURROGATE],
    "canonicalize_many": [SURROGATE],
    "clean_query_many": [SURROGATE],
}


def dirty_column(urls, kinds):
    """urls with 1% of the rows replaced by bad rows of each kind (row
    100k + j by kind j)."""
    out = list(urls)
    for i in range(0, len(out) - len(kinds), 100):
        for j, row in enumerate(kinds):
            out[i + j] = row % i
    return out


def measure_dirty(urls, repeats):
    """Per function and input: ns per row of the clean column; of a column
    of failed rows only (the kinds in turn); and the dirty column's time
    over the clean one's; under on_error="null", then with a rejects list
    too. One thread, CPU time."""
    lines = []
    for name, kinds in DIRTY_KINDS.items():
        func = getattr(pctcodec, name)
        n_bad = len(urls) // 10
        bad = [kinds[i % len(kinds)] % i for i in range(n_bad)]
        dirty = dirty_column(urls, kinds)
        holders = [("list", urls, bad, dirty)]
        if SURROGATE not in kinds:
            holders.append(("arrow", pa.array(urls), pa.array(bad), pa.array(dirty)))
        for holder, clean_col, bad_col, dirty_col in holders:
            row = [name, holder]
            for rejects in (False, True):
                def per_row(col, n):
                    return best_of(repeats, lambda: func(col, threads=1, on_error="null",
                                                         rejects=[] if rejects else None))[1] / n * 1e9
                good = per_row(clean_col, len(urls))
                failed = per_row(bad_col, n_bad)
                row += [good, failed, failed / good, per_row(dirty_col, len(urls)) / good]
            lines.append(row)
    return lines


def dirty_report(lines):
    out = ["failed rows, on_error='null' (threads=1, CPU ns per row; target failed/good <= 2x, "
           "<= 10x with rejects); dirty: 1% failed rows of each kind, its time / the clean one's",
           "%-24s %-6s %6s %7s %6s %6s | %6s %7s %6s %6s" % (
               "function", "input", "good", "failed", "ratio", "dirty", "good", "failed",
               "ratio", "dirty"),
           "%-31s %-29s | %s" % ("", "without rejects", "with rejects")]
    for name, holder, *v in lines:
        out.append("%-24s %-6s %6.0f %7.0f %5.1fx %5.2fx | %6.0f %7.0f %5.1fx %5.2fx"
                   % (name, holder, *v))
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 URLs, one repeat (CI smoke run)")
    parser.add_argument("--rows", type=int, help="number of URLs (default 1,000,000)")
    parser.add_argument("--peer-rows", type=int, help="URLs for the slow peers (default 20,000)")
    parser.add_argument("--repeats", type=int, help="repeats, best kept (default 3)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--dirty", action="store_true",
                        help="only the failed-row costs: the clean column against a dirty one")
    parser.add_argument("--png", metavar="PATH", help="write a bar chart of the speed-ups")
    args = parser.parse_args(argv)
    args.rows = args.rows or (20_000 if args.quick else 1_000_000)
    args.peer_rows = args.peer_rows or (1_000 if args.quick else 20_000)
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.sizes = QUICK_SIZES if args.quick else SIZES

    if args.dirty:
        print(dirty_report(measure_dirty(make_urls(args.rows), args.repeats)))
        return 0
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
