"""Time parse_query_many, query_params_many and canonicalize_many, and count
the keys each deduplicator leaves on a million messy URLs.

    python benchmarks/bench_canonicalize.py [--quick] [--rows N] [--peer-rows N]
                                            [--dedup-rows N] [--repeats N] [--json PATH]

Timing column: bench_query's (bench_batch.make_urls, real URLs from
urls_sample.txt and messy variants, a third with tracking parameters), a
pyarrow ``string`` array. One run, best of --repeats, one thread, by the
CPU time of the process; outputs checked before timing:

- ``parse_query_many(array)`` against the loop
  ``[parse_qsl(urlsplit(u).query, keep_blank_values=True) for u in urls]``
  (target TARGET_PARSE x), pairs compared on the rows where urlsplit finds
  the query Appendix B finds;
- ``query_params_many(array, NAMES)`` against ``query_param_many`` once per
  name (target TARGET_NAMES x), columns compared;
- ``canonicalize_many(array)`` against ``normalize_many(array)`` on the same
  column (target: at most TARGET_VS_NORMALIZE x its time per row), and on a
  --peer-rows subset against loops of w3lib's ``canonicalize_url`` (target
  TARGET_W3LIB x) and courlan's ``normalize_url`` (target TARGET_COURLAN x);
  canonicalize_many is checked equal to a loop of canonicalize.

Deduplication: --dedup-rows URLs made from distinct pages of urls_sample.txt,
each written in messy spellings of the same page (case of scheme and host,
escapes of unreserved characters, lowercase hex, tracking parameters in any
case, the order of the parameters, fragments, default ports, surrounding
whitespace and stray tabs). For each tool, how many distinct keys it leaves
(the pages: the ideal) and how long it takes. The machine is shared: read
the ratios, not the absolute times.
"""
import argparse
import json
import os
import platform
import random
import sys
import time
from urllib.parse import parse_qsl, quote, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402
import pyarrow.compute  # noqa: E402,F401

import pctcodec  # noqa: E402
from bench_batch import CORPUS, _version, add_result, best_of, make_urls, results_lines  # noqa: E402
from bench_query import with_tracking  # noqa: E402

TARGET_PARSE = 20.0
TARGET_NAMES = 1.5
TARGET_VS_NORMALIZE = 1.5  # canonicalize's time per row / normalize's, at most
TARGET_W3LIB = 50.0
TARGET_COURLAN = 200.0
NAMES = ["v", "utm_source", "q"]


def loop_parse(urls):
    return [parse_qsl(urlsplit(u).query, keep_blank_values=True) for u in urls]


def stable_failures(normalized, keys):
    """The groups of rows that normalize holds equal but that got different keys."""
    seen = {}
    bad = set()
    for n, k in zip(normalized.to_pylist(), keys.to_pylist()):
        if seen.setdefault(n, k) != k:
            bad.add(n)
    return len(bad)


def per_name(array):
    return [pctcodec.query_param_many(array, n, threads=1) for n in NAMES]


def peer_functions():
    """(label, function of one URL) of the installed peers."""
    out = []
    try:
        from w3lib.url import canonicalize_url

        out.append(("w3lib %s canonicalize_url" % _version("w3lib"), canonicalize_url))
    except ImportError:
        print("note: w3lib is not installed: skipped", file=sys.stderr)
    try:
        from courlan import normalize_url

        out.append(("courlan %s normalize_url" % _version("courlan"), normalize_url))
    except ImportError:
        print("note: courlan is not installed: skipped", file=sys.stderr)
    try:
        from url_normalize import url_normalize

        out.append(("url-normalize %s url_normalize" % _version("url-normalize"), url_normalize))
    except ImportError:
        print("note: url-normalize is not installed: skipped", file=sys.stderr)
    return out


def _safe(func):
    """A peer's function that gives the input back where it raises (a key
    all the same: the row stays its own)."""
    def call(u):
        try:
            return func(u)
        except Exception:
            return u
    return call


# ---------------------------------------------------------------- messy variants

TRACKING = ["utm_source=news", "UTM_SOURCE=Mail", "utm_medium=email", "Utm_Campaign=x",
            "fbclid=IwAR3", "Fbclid=IwAR4", "gclid=Cj0K", "_ga=2.1.2", "mc_eid=ab", "msclkid=7"]


def pages(n, seed=5):
    """n distinct pages: http(s) URLs of the corpus with an authority, each
    with a query of its own parameters (distinct names) made unique."""
    rng = random.Random(seed)
    with open(CORPUS, encoding="utf-8") as f:
        base = [line.strip() for line in f if line.strip().startswith(("http://", "https://"))]
    out, seen = [], set()
    while len(out) < n:
        u = rng.choice(base).partition("#")[0].partition("?")[0]
        try:
            parts = urlsplit(u)
        except ValueError:
            continue
        if not parts.hostname or not parts.hostname.isascii() or "%" in u or ":" in parts.netloc:
            continue
        params = ["id=%d" % rng.randrange(10**9)] + rng.sample(["lang=en", "page=2", "sort=asc", "q=x+y",
                                                                "ref=a%2Fb", "s="], rng.randint(0, 3))
        page = u + "?" + "&".join(params)
        key = pctcodec.canonicalize(page)
        if key not in seen:
            seen.add(key)
            out.append(page)
    return out


def _case(rng, s):
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in s)


def messy(rng, page):
    """A spelling of page that names the same page."""
    parts = urlsplit(page)
    scheme = _case(rng, parts.scheme) if rng.random() < 0.3 else parts.scheme
    host = _case(rng, parts.hostname) if rng.random() < 0.3 else parts.hostname
    port = {"http": ":80", "https": ":443"}[parts.scheme] if rng.random() < 0.2 else ""
    path = parts.path
    if rng.random() < 0.3:  # escapes of unreserved characters, in either hex case
        path = "".join("%%%02x" % ord(c) if c.isascii() and c.isalnum() and rng.random() < 0.2 else c
                       for c in path)
    if rng.random() < 0.2 and path.count("/") > 1:
        path = path.replace("/", "/./", 1)
    params = parts.query.split("&")
    if rng.random() < 0.5:
        rng.shuffle(params)
    for t in rng.sample(TRACKING, rng.randint(0, 2)) if rng.random() < 0.5 else ():
        params.insert(rng.randint(0, len(params)), t)
    u = "%s://%s%s%s?%s" % (scheme, host, port, path, "&".join(params))
    if rng.random() < 0.3:
        u += "#" + rng.choice(["top", "section-2", ""])
    if rng.random() < 0.1:
        u = " " + u + rng.choice(["", "\n", " ", "\t"])
    return u


def dedup_column(rows, seed=6):
    """The messy URLs, and how many distinct pages they spell."""
    rng = random.Random(seed)
    ps = pages(max(1, rows // 8))
    picks = [rng.choice(ps) for _ in range(rows)]
    return [messy(rng, p) for p in picks], len(set(picks))


def dedup_table(rows, peers):
    urls, distinct = dedup_column(rows)
    array = pa.array(urls, pa.string())
    table = [{"tool": "(the pages they spell: the ideal)", "keys": distinct, "seconds": None},
             {"tool": "(raw strings)", "keys": len(set(urls)), "seconds": None}]

    def timed(tool, func, *args, **kwargs):
        t0 = time.process_time()
        keys = func(*args, **kwargs)
        seconds = time.process_time() - t0
        keys = keys.to_pylist() if hasattr(keys, "to_pylist") else keys
        table.append({"tool": tool, "keys": len(set(keys)), "seconds": seconds})

    timed("pctcodec canonicalize_many, 1 thread", pctcodec.canonicalize_many, array, threads=1)
    timed("pctcodec canonicalize_many(strip_www, same_scheme, strip_trailing_slash), 1 thread",
          pctcodec.canonicalize_many, array, threads=1, strip_www=True, same_scheme=True,
          strip_trailing_slash=True)
    timed("pctcodec normalize_many(sort_query, drop_fragment), 1 thread", pctcodec.normalize_many,
          array, threads=1, sort_query=True, drop_fragment=True)
    for label, func in peers:
        call = _safe(func)
        timed(label + " loop", lambda us: [call(u) for u in us], urls)
    return {"rows": rows, "table": table}


# ---------------------------------------------------------------- timing

def _keyed(url):
    """canonicalize has a key for the URL (it refuses a special scheme's URL
    the URL Standard's parser refuses: a browser loads nothing there)."""
    try:
        pctcodec.canonicalize(url)
    except ValueError:
        return False
    return True


def run(args):
    urls = [u for u in with_tracking(make_urls(args.rows)) if _keyed(u)]
    array = pa.array(urls, pa.string())
    rows = len(urls)
    results, checks = [], {}
    r = args.repeats

    def add(name, times, n, baseline=None, target=None, **kwargs):
        return add_result(results, name, times, n, baseline and baseline["name"], target, **kwargs)

    # ---- parse_query_many: outputs first
    ours = pctcodec.parse_query_many(array)
    want = loop_parse(urls)
    agree = [i for i, u in enumerate(urls) if urlsplit(u).query == u.partition("#")[0].partition("?")[2]]
    got = ours.to_pylist()
    checks["parse_query_many vs parse_qsl"] = "%d of %d rows compared, %d differ" % (
        len(agree), rows, sum([(d["name"], d["value"]) for d in got[i]] != want[i] for i in agree))
    loop = add("[parse_qsl(urlsplit(u).query, keep_blank_values=True)]", best_of(r, loop_parse, urls), rows)
    add("parse_query_many(pa.array)", best_of(r, pctcodec.parse_query_many, array), rows, loop, TARGET_PARSE)

    # ---- several names at once
    cols = pctcodec.query_params_many(array, NAMES)
    one_by_one = per_name(array)
    checks["query_params_many vs query_param_many per name"] = "%d of %d columns equal" % (
        sum(cols.field(n).equals(c) for n, c in zip(NAMES, one_by_one)), len(NAMES))
    each = add("query_param_many(pa.array, name) x %d names" % len(NAMES), best_of(r, per_name, array), rows)
    add("query_params_many(pa.array, %d names)" % len(NAMES),
        best_of(r, pctcodec.query_params_many, array, NAMES), rows, each, TARGET_NAMES)

    # ---- canonicalize_many against normalize_many on the same column
    keys = pctcodec.canonicalize_many(array, threads=1)
    sample = random.Random(4).sample(range(rows), min(rows, 20000))
    checks["canonicalize_many vs canonicalize"] = "%d of %d sampled rows differ" % (
        sum(keys[i].as_py() != pctcodec.canonicalize(urls[i]) for i in sample), len(sample))
    again = pctcodec.canonicalize_many(keys, threads=1)
    checks["canonicalize idempotent"] = "%d of %d rows change on a second pass" % (
        sum(not x for x in pa.compute.equal(again, keys).to_pylist()), rows)
    checks["canonicalize equivalence-stable"] = "%d groups of normalize-equal rows with 2+ keys" % (
        stable_failures(pctcodec.normalize_many(array, threads=1), keys))
    norm = add("normalize_many(pa.array, threads=1)", best_of(r, pctcodec.normalize_many, array, threads=1),
               rows)
    canon = add("canonicalize_many(pa.array, threads=1)",
                best_of(r, pctcodec.canonicalize_many, array, threads=1), rows)
    canon["ratio"] = canon["per_url"] / norm["per_url"]
    canon["baseline"] = "its time per row / normalize_many's (at most %g)" % TARGET_VS_NORMALIZE
    checks["canonicalize / normalize time per row"] = "%.2fx (target <= %gx: %s)" % (
        canon["ratio"], TARGET_VS_NORMALIZE, "met" if canon["ratio"] <= TARGET_VS_NORMALIZE else "MISSED")
    canon["target"] = None
    # the rows that carry a query, where canonicalize has its query to rewrite
    queried = pa.array([u for u in urls if "?" in u], pa.string())
    qnorm = add("normalize_many(pa.array), rows with a query",
                best_of(r, pctcodec.normalize_many, queried, threads=1), len(queried))
    qcanon = add("canonicalize_many(pa.array), rows with a query",
                 best_of(r, pctcodec.canonicalize_many, queried, threads=1), len(queried))
    qcanon["ratio"] = qcanon["per_url"] / qnorm["per_url"]
    qcanon["baseline"] = "its time per row / normalize_many's (at most %g)" % TARGET_VS_NORMALIZE
    checks["canonicalize / normalize time per row, rows with a query"] = "%.2fx (target <= %gx: %s)" % (
        qcanon["ratio"], TARGET_VS_NORMALIZE,
        "met" if qcanon["ratio"] <= TARGET_VS_NORMALIZE else "MISSED")

    # ---- peers on a subset
    subset = random.Random(2).sample(urls, min(args.peer_rows, rows))
    sub_array = pa.array(subset, pa.string())
    mine = add("canonicalize_many(pa.array, threads=1), subset",
               best_of(r, pctcodec.canonicalize_many, sub_array, threads=1), len(subset))
    targets = {"w3lib": TARGET_W3LIB, "courlan": TARGET_COURLAN}
    peers = peer_functions()
    for label, func in peers:
        call = _safe(func)
        theirs = [call(u) for u in subset]
        mykeys = pctcodec.canonicalize_many(subset)
        checks[label + " same key"] = "%d of %d (the rules differ: docs/canonicalize.md)" % (
            sum(a == b for a, b in zip(theirs, mykeys)), len(subset))
        target = next((t for k, t in targets.items() if label.startswith(k)), None)
        e = add(label + " loop", best_of(1, lambda us: [call(u) for u in us], subset), len(subset),
                target=target)
        e["ratio"], e["baseline"] = e["per_url"] / mine["per_url"], "peer per URL / canonicalize_many per URL"

    dedup = dedup_table(args.dedup_rows, peers)
    return {"rows": rows, "repeats": r, "results": results, "checks": checks, "dedup": dedup,
            "python": platform.python_version(), "machine": platform.machine(),
            "pctcodec": pctcodec.__version__, "pyarrow": pa.__version__}


def report(data):
    lines = ["pctcodec %s query columns and canonicalize: %s URLs (pyarrow string array), best of %d"
             % (data["pctcodec"], format(data["rows"], ","), data["repeats"]),
             "Python %s, %s, pyarrow %s" % (data["python"], data["machine"], data["pyarrow"]), ""]
    lines += results_lines(data["results"], 62)
    lines += ["",
              "speed-up: per URL of the baseline / per URL of the call; for the peers, their per URL /",
              "canonicalize_many's (how many times faster pctcodec is); for canonicalize_many, its per",
              "URL / normalize_many's. clock: CPU time of the process, one thread.",
              "", "outputs:"]
    lines += ["  %s: %s" % kv for kv in data["checks"].items()]
    d = data["dedup"]
    lines += ["", "deduplication: %s messy URLs" % format(d["rows"], ","), "",
              "| tool | distinct keys | seconds (CPU) |", "|---|---:|---:|"]
    for t in d["table"]:
        lines.append("| %s | %s | %s |" % (t["tool"], format(t["keys"], ","),
                                           "" if t["seconds"] is None else "%.2f" % t["seconds"]))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 URLs, one repeat (smoke run)")
    parser.add_argument("--rows", type=int, help="number of URLs timed (default 1,000,000)")
    parser.add_argument("--peer-rows", type=int, help="URLs for the Python peers (default 20,000)")
    parser.add_argument("--dedup-rows", type=int, help="URLs of the deduplication table (default 1,000,000)")
    parser.add_argument("--repeats", type=int, help="repeats, best kept (default 3)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    args.rows = args.rows or (20_000 if args.quick else 1_000_000)
    args.peer_rows = args.peer_rows or (1_000 if args.quick else 20_000)
    args.dedup_rows = args.dedup_rows or (5_000 if args.quick else 1_000_000)
    args.repeats = args.repeats or (1 if args.quick else 3)
    data = run(args)
    print(report(data))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
