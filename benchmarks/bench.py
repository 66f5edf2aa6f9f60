"""Benchmark pctcodec against urllib.parse (and yarl, urlquote when installed).

    python benchmarks/bench.py [--quick] [--json PATH] [--kernel NAME|all]

--kernel runs on one kernel (PCTCODEC_KERNEL=NAME), or with `all` on each
kernel this CPU has in turn, one child process each, then sums them up.

Short calls are timed in nanoseconds per call, long inputs (256 KiB) in MB/s of
input, both in process CPU time (best of several runs). Every benchmarked input is first checked: pctcodec must return exactly
what urllib.parse returns. A peer library is timed only on the inputs where it
returns the same value as urllib.parse too.
"""
import argparse
import importlib.metadata
import json
import math
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
import timeit
import urllib.parse

import pctcodec

SHORT_CASES = [
    ("quote", ("abc",)),
    ("quote", ("/path/to/file name.html",)),
    ("quote", ("café du monde",)),
    ("quote", ("key=value & more",)),
    ("quote_plus", ("abc",)),
    ("quote_plus", ("/path/to/file name.html",)),
    ("quote_plus", ("café du monde",)),
    ("quote_plus", ("key=value & more",)),
    ("quote_from_bytes", (b"abc",)),
    ("quote_from_bytes", (b"/path/to/file name.html",)),
    ("quote_from_bytes", ("café du monde".encode(),)),
    ("unquote", ("abc",)),
    ("unquote", ("a%20b%2Fc",)),
    ("unquote", ("/path/to/file%20name.html",)),
    ("unquote", ("caf%C3%A9%20du%20monde",)),
    ("unquote_plus", ("abc",)),
    ("unquote_plus", ("a%20b%2Fc",)),
    ("unquote_plus", ("key%3Dvalue+%26+more",)),
    ("unquote_to_bytes", ("abc",)),
    ("unquote_to_bytes", ("a%20b%2Fc",)),
    ("unquote_to_bytes", ("caf%C3%A9%20du%20monde",)),
    ("urlencode", ({"q": "café du monde", "page": 2, "lang": "fr"},)),
    ("urlencode", ([("tag", "a&b"), ("tag", "c d"), ("sort", "date")],)),
]

LONG_SIZE = 256 * 1024
LIMIT_SIZE = 1 << 20


def long_cases():
    """(label, function, input) for the long inputs, built from a fixed seed."""
    rng = random.Random(1234)
    safe_ascii = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~/"
    all_safe = "".join(rng.choice(safe_ascii) for _ in range(LONG_SIZE))

    words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "index.html",
             "report", "2024", "data", "user", "id", "page"]
    foreign = ["café", "naïve", "東京", "Привет", "straße", "🎉", "São", "ñandú"]
    punct = [" ", " ", " ", "/", "&", "=", "?", ",", ":", "(", ")", "'", "#", "+"]
    parts = []
    size = 0
    while size < LONG_SIZE:
        word = rng.choice(foreign) if rng.random() < 0.1 else rng.choice(words)
        piece = word + rng.choice(punct)
        parts.append(piece)
        size += len(piece.encode())
    mixed = "".join(parts)

    random_bytes = bytes(rng.getrandbits(8) for _ in range(LONG_SIZE))

    heavy_text = []
    size = 0
    while size < LONG_SIZE:
        piece = urllib.parse.quote(rng.choice(foreign) + " ", safe="")
        heavy_text.append(piece)
        size += len(piece)
    heavy = "".join(heavy_text)

    light_text = []
    size = 0
    while size < LONG_SIZE:
        piece = rng.choice(words) + ("/" if rng.random() < 0.9 else " ")
        light_text.append(piece)
        size += len(piece)
    light = urllib.parse.quote("".join(light_text))  # a %20 every ten words or so

    pairs = []
    size = 0
    while size < LONG_SIZE:
        key = rng.choice(words)
        value = " ".join(rng.choice(words + foreign) for _ in range(rng.randint(1, 4)))
        pairs.append((key, value))
        size += len(key) + len(value) + 2
    form = urllib.parse.urlencode(pairs)

    return [
        ("quote: all-safe ASCII", "quote", (all_safe,)),
        ("quote: mixed text", "quote", (mixed,)),
        ("quote_from_bytes: random bytes", "quote_from_bytes", (random_bytes,)),
        ("unquote: heavily escaped", "unquote", (heavy,)),
        ("unquote: lightly escaped", "unquote", (light,)),
        ("unquote_plus: form data", "unquote_plus", (form,)),
    ]


# ---------------------------------------------------------------- peers
#
# Each peer maps a function name to a callable that takes the same positional
# arguments as the benchmarked call (default safe/encoding/errors), or to None
# when it has no such call.

NO_CALL = "no such call"
DIFFERS = "result differs"


def peer_yarl():
    from yarl._quoting_c import _Quoter, _Unquoter

    return {
        # requote=False: '%' is quoted like any other character, as urllib does.
        "quote": _Quoter(safe="/", requote=False),
        "quote_plus": _Quoter(qs=True, requote=False),
        "unquote": _Unquoter(replace_invalid=True),
        "unquote_plus": _Unquoter(plus=True, replace_invalid=True),
    }


def peer_urlquote():
    import urlquote
    from urlquote.quoting import PYTHON_3_7_QUOTING

    uq_quote, uq_unquote = urlquote.quote, urlquote.unquote

    # urlquote returns bytes; a drop-in needs the str, so the decode is timed too.
    def quote(s):
        return uq_quote(s, PYTHON_3_7_QUOTING).decode("ascii")

    def unquote(s):
        return uq_unquote(s).decode("utf-8")

    return {
        "quote": quote,
        "quote_from_bytes": quote,
        "unquote": unquote,
        "unquote_to_bytes": uq_unquote,
    }


PEERS = [("yarl", "yarl", peer_yarl), ("urlquote", "urlquote", peer_urlquote)]


def load_peers():
    peers = []
    for name, dist, factory in PEERS:
        try:
            calls = factory()
        except ImportError:
            continue
        peers.append((name, importlib.metadata.version(dist), calls))
    return peers


# ---------------------------------------------------------------- timing

def timer(func, args):
    names = ", ".join(f"a{i}" for i in range(len(args)))
    setup = "f = _f\n" + "".join(f"a{i} = _a[{i}]\n" for i in range(len(args)))
    # process CPU time: work of other processes on the machine does not count
    return timeit.Timer(f"f({names})", setup=setup, globals={"_f": func, "_a": args}, timer=time.process_time)


def best_time(func, args, target, repeat):
    """Minimum over `repeat` runs of the seconds one call takes."""
    t = timer(func, args)
    number = 1
    while True:
        elapsed = t.timeit(number)
        if elapsed >= target / 10:
            break
        number *= 10
    number = max(1, int(number * target / elapsed))
    return min(t.repeat(repeat, number)) / number


def same(a, b):
    return type(a) is type(b) and a == b


def check(name, args):
    """Raise unless pctcodec returns what urllib.parse returns; give the expected value."""
    expected = getattr(urllib.parse, name)(*args)
    got = getattr(pctcodec, name)(*args)
    if not same(got, expected):
        raise AssertionError(f"pctcodec.{name}{shorten(args)} = {got!r:.80}, urllib gives {expected!r:.80}")
    return expected


def peer_status(call, args, expected):
    if call is None:
        return NO_CALL
    try:
        result = call(*args)
    except Exception:  # the peer fails where urllib does not: not comparable here
        return DIFFERS
    return None if same(result, expected) else DIFFERS


def shorten(args, width=30):
    text = ", ".join(repr(a) for a in args)
    return text if len(text) <= width else text[: width - 3] + "..."


def input_size(args):
    value = args[0]
    return len(value.encode("utf-8")) if isinstance(value, str) else len(value)


def run_case(name, args, peers, target, repeat):
    expected = check(name, args)
    row = {
        "urllib": best_time(getattr(urllib.parse, name), args, target, repeat),
        "pctcodec": best_time(getattr(pctcodec, name), args, target, repeat),
    }
    for peer, _, calls in peers:
        call = calls.get(name)
        status = peer_status(call, args, expected)
        row[peer] = status if status else best_time(call, args, target, repeat)
    row["ratio"] = row["urllib"] / row["pctcodec"]
    return row


# ---------------------------------------------------------------- report

def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Hardware", "Model", "cpu model"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def cell(value, fmt):
    if value == NO_CALL:
        return "—"
    if value == DIFFERS:
        return "—*"
    return fmt(value)


def print_table(title, rows, columns, fmt):
    head = ["case"] + columns[:2] + ["ratio"] + columns[2:]
    table = [head]
    for row in rows:
        cells = [row["case"]] + [cell(row[c], fmt) for c in columns[:2]] + [f"{row['ratio']:.1f}x"]
        cells += [cell(row[c], fmt) for c in columns[2:]]
        table.append(cells)
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    print(title)
    for i, cells in enumerate(table):
        line = "  ".join(c.ljust(w) if j == 0 else c.rjust(w)
                         for j, (c, w) in enumerate(zip(cells, widths)))
        print("  " + line.rstrip())
        if i == 0:
            print("  " + "  ".join("-" * w for w in widths))
    print()


def speedups(rows, column):
    """urllib time / column time over the rows where the column was timed."""
    return [row["urllib"] / row[column] for row in rows if isinstance(row[column], float)]


def limit_ratio(target, repeat):
    """quote of 1 MiB of all-safe ASCII over str.find('%') on it (a memchr):
    how close quoting comes to a bare scan of memory."""
    rng = random.Random(99)
    safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~/"
    text = "".join(rng.choice(safe) for _ in range(LIMIT_SIZE))
    check("quote", (text,))
    quote = best_time(pctcodec.quote, (text,), target, repeat)
    scan = best_time(text.find, ("%",), target, repeat)
    return {"quote_s": quote, "find_s": scan, "ratio": quote / scan}


def versus_peers(rows, peer_names):
    """peer time / pctcodec time over the cases both compute: (min, geomean, count)."""
    out = {}
    for peer in peer_names:
        ratios = [r[peer] / r["pctcodec"] for r in rows if isinstance(r[peer], float)]
        out[peer] = {"min": min(ratios) if ratios else None, "geomean": geomean(ratios),
                     "cases": len(ratios)}
    return out


def run_all_kernels(argv):
    """This script once per kernel, each in a child with PCTCODEC_KERNEL set; then a summary."""
    kernels = pctcodec._pctcodec._kernels()
    rest, skip = [], False
    for a in argv:  # everything but --kernel and its value (and --json: each child has its own)
        if not skip and not a.startswith(("--kernel", "--json")):
            rest.append(a)
        skip = a in ("--kernel", "--json")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kernel in kernels:
            path = os.path.join(tmp, kernel + ".json")
            print(f"========== kernel {kernel}", flush=True)
            subprocess.run([sys.executable, os.path.abspath(__file__), *rest, "--json", path],
                           env=dict(os.environ, PCTCODEC_KERNEL=kernel), check=True)
            with open(path, encoding="utf-8") as f:
                results[kernel] = json.load(f)
    print("========== summary per kernel")
    print(f"CPU flags: {cpu_flags()}")
    for kernel, data in results.items():
        g = data["geomean"]["pctcodec"]
        peers = ", ".join(f"vs {p}: min {v['min']:.2f}x geomean {v['geomean']:.2f}x"
                          for p, v in data["versus"].items() if v["min"])
        print(f"  {kernel:<7} short {g['short']:.2f}x  long {g['long']:.2f}x  "
              f"1 MiB quote/find {data['limit']['ratio']:.2f}  {peers}")
    return 0


def cpu_flags():
    wanted = ["sse2", "ssse3", "sse4_2", "avx", "avx2", "bmi2", "avx512bw", "avx512_vbmi2", "asimd"]
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("flags", "Features"):
                    have = set(value.split())
                    return " ".join(w for w in wanted if w in have)
    except OSError:
        pass
    return "unknown"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few short runs: a smoke test, not a measurement")
    parser.add_argument("--json", metavar="PATH", help="also write the numbers to PATH as JSON")
    parser.add_argument("--kernel", metavar="NAME", help="kernel to run (PCTCODEC_KERNEL), or `all`")
    args = parser.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    if args.kernel == "all":
        return run_all_kernels(argv)
    if args.kernel and os.environ.get("PCTCODEC_KERNEL") != args.kernel:
        # the kernel is chosen when the module loads: start again with it set
        env = dict(os.environ, PCTCODEC_KERNEL=args.kernel)
        return subprocess.run([sys.executable, os.path.abspath(__file__), *argv], env=env).returncode
    target, repeat = (0.005, 2) if args.quick else (0.1, 7)

    peers = load_peers()
    peer_names = [p[0] for p in peers]
    columns = ["urllib", "pctcodec"] + peer_names

    print(f"pctcodec {pctcodec.__version__} benchmark{' (--quick: numbers are rough)' if args.quick else ''}")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}, {cpu_model()}")
    print("peers: " + (", ".join(f"{n} {v}" for n, v, _ in peers) if peers else "none installed"))
    print(f"kernel: {pctcodec._pctcodec._kernel()} (of {', '.join(pctcodec._pctcodec._kernels())}); "
          f"CPU flags: {cpu_flags()}")
    print()

    short = []
    for name, call_args in SHORT_CASES:
        row = run_case(name, call_args, peers, target, repeat)
        row["case"] = f"{name}({shorten(call_args)})"
        short.append(row)
    print_table("Short calls: ns per call (lower is better), ratio = urllib time / pctcodec time",
                short, columns, lambda s: f"{s * 1e9:,.0f}")

    long_rows = []
    for label, name, call_args in long_cases():
        row = run_case(name, call_args, peers, target, repeat)
        row["case"] = label
        row["bytes"] = input_size(call_args)
        long_rows.append(row)
    for row in long_rows:
        size = row["bytes"]
        row["mb_s"] = {c: size / row[c] / 1e6 for c in columns if isinstance(row[c], float)}
    print_table(f"Long inputs ({LONG_SIZE // 1024} KiB): MB/s of input (higher is better), "
                "ratio = urllib time / pctcodec time",
                [{**r, **r["mb_s"]} for r in long_rows], columns, lambda v: f"{v:,.1f}")

    print("Geometric mean of the speed-ups over urllib.parse (urllib time / time):")
    summary = {}
    for column in ["pctcodec"] + peer_names:
        fast, slow = speedups(short, column), speedups(long_rows, column)
        summary[column] = {"short": geomean(fast), "long": geomean(slow),
                           "short_cases": len(fast), "long_cases": len(slow)}
        parts = []
        for kind, values, total in (("short", fast, len(short)), ("long", slow, len(long_rows))):
            g = geomean(values)
            count = "" if len(values) == total else f" over {len(values)} of {total} cases"
            parts.append(f"{kind} {g:.2f}x{count}" if g else f"{kind} —")
        print(f"  {column:<9} " + ", ".join(parts))
    versus = versus_peers(short + long_rows, peer_names)
    for peer, v in versus.items():
        if v["min"]:
            print(f"  vs {peer} (its time / pctcodec time, {v['cases']} cases both compute): "
                  f"min {v['min']:.2f}x, geomean {v['geomean']:.2f}x")
    limit = limit_ratio(target, repeat)
    print()
    print(f"quote of 1 MiB of all-safe ASCII: {limit['quote_s'] * 1e6:,.1f} us, "
          f"str.find('%') on it: {limit['find_s'] * 1e6:,.1f} us, ratio {limit['ratio']:.2f}")
    if peers:
        print()
        print("— : the library has no such call.  —* : its result differs from urllib.parse's on")
        print("this input (checked before timing), so it is not timed. urlquote returns bytes;")
        print("its str results are timed with the .decode() a drop-in needs.")

    if args.json:
        data = {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "cpu": cpu_model(),
            "pctcodec": pctcodec.__version__,
            "peers": {n: v for n, v, _ in peers},
            "quick": args.quick,
            "short": [
                {"case": r["case"], "ns_per_call": {c: r[c] * 1e9 for c in columns if isinstance(r[c], float)},
                 "not_timed": {c: r[c] for c in columns if isinstance(r[c], str)},
                 "ratio": r["ratio"]}
                for r in short
            ],
            "long": [
                {"case": r["case"], "bytes": r["bytes"], "mb_per_s": r["mb_s"],
                 "not_timed": {c: r[c] for c in columns if isinstance(r[c], str)},
                 "ratio": r["ratio"]}
                for r in long_rows
            ],
            "geomean": summary,
            "kernel": pctcodec._pctcodec._kernel(),
            "versus": versus,
            "limit": limit,
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2, ensure_ascii=False)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
