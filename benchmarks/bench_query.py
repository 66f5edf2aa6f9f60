"""Time query_param_many and clean_query_many on a million real-shaped URLs.

    python benchmarks/bench_query.py [--quick] [--rows N] [--peer-rows N] [--repeats N] [--json PATH]

The column: bench_batch.make_urls (real URLs from urls_sample.txt, messy
variants, half with a parameter ``v`` of their own) where, with a fixed
seed, a third of the URLs get tracking parameters (``utm_source``,
``utm_medium``, ``fbclid``, ``gclid`` ..., some spelled with escapes) before,
among or after their own. A pyarrow ``string`` array.

Measured in one run, best of --repeats, one thread, by the CPU time of the
process (the batch functions also at their default threads, by wall time):

- ``query_param_many(array, "v")`` against the Python loop
  ``[first value of "v" in parse_qsl(urlsplit(u).query, keep_blank_values=True)]``
  (target: TARGET_LOOP x), outputs checked equal on the rows where urlsplit
  finds the query Appendix B finds (all but a few messy ones);
- ``clean_query_many(array, drop=TRACKING_PARAMS)`` against the Python loop
  that splits, filters ``parse_qsl``'s pairs with fnmatch and rebuilds with
  ``urlencode`` + ``urlunsplit`` (target: TARGET_LOOP x); its output is not
  ours (urlencode re-escapes every kept parameter, drops empty segments), so
  only the kept names are compared;
- w3lib ``url_query_cleaner(u, names, remove=True, keep_fragments=True)``
  (exact names: TRACKING_PARAMS with ``utm_*`` spelled out) and courlan
  ``clean_url(u)`` (its own list of tracking parameters, and it also sorts
  the query and lowercases the host) as Python peers, on a --peer-rows
  subset, per URL;
- chDB ``extractURLParameter(u, 'v')`` and ``cutURLParameter(u, [names])``
  with ``max_threads=1`` (target: ahead of chDB, TARGET_CHDB x). chDB works
  on raw bytes: it returns the value undecoded and '' for an absent
  parameter, and matches names exactly as written (``utm%5Fsource`` is not
  ``utm_source``); the rows where both give the same string are counted.
"""
import argparse
import fnmatch
import json
import os
import platform
import random
import sys
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402

import pctcodec  # noqa: E402
from bench_batch import _version, add_result, best_of, make_urls, results_lines  # noqa: E402

TARGET_LOOP = 20.0
TARGET_CHDB = 1.0
NAME = "v"
# TRACKING_PARAMS as exact names, for the peers that take no patterns.
UTM = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "utm_id"]
TRACKING_NAMES = UTM + [p for p in pctcodec.TRACKING_PARAMS if "*" not in p]
ADDED = ["utm_source=newsletter", "utm_medium=email", "utm_campaign=spring%202026", "fbclid=IwAR3xyz",
         "gclid=Cj0KCQjw", "utm%5Fcontent=hero", "_ga=2.1234.5678", "mc_eid=abc123", "msclkid=77"]


def with_tracking(urls, seed=3):
    """A third of the URLs with 1-3 tracking parameters put among their own."""
    rng = random.Random(seed)
    out = []
    for u in urls:
        if rng.random() < 1 / 3:
            head, hash_, fragment = u.partition("#")
            base, q, query = head.partition("?")
            params = [p for p in query.split("&") if p] if q else []
            for added in rng.sample(ADDED, rng.randint(1, 3)):
                params.insert(rng.randint(0, len(params)), added)
            u = base + "?" + "&".join(params) + hash_ + fragment
        out.append(u)
    return out


def loop_query_param(urls):
    out = []
    for u in urls:
        value = None
        for n, v in parse_qsl(urlsplit(u).query, keep_blank_values=True):
            if n == NAME:
                value = v
                break
        out.append(value)
    return out


def loop_clean(urls):
    patterns = pctcodec.TRACKING_PARAMS
    out = []
    for u in urls:
        parts = urlsplit(u)
        pairs = [(n, v) for n, v in parse_qsl(parts.query, keep_blank_values=True)
                 if not any(fnmatch.fnmatchcase(n, p) for p in patterns)]
        out.append(urlunsplit(parts._replace(query=urlencode(pairs))))
    return out


def chdb_calls():
    try:
        import chdb
    except ImportError:
        print("note: chdb is not installed: skipped", file=sys.stderr)
        return None

    def call(expr):
        def run(array, threads=1):
            urls = pa.table({"u": array})  # noqa: F841 (read by name: Python(urls))
            return chdb.query("SELECT %s FROM Python(urls) SETTINGS max_threads=%d" % (expr, threads),
                              "ArrowTable").column(0)
        return run
    names = "[%s]" % ", ".join("'%s'" % n for n in TRACKING_NAMES)
    return ("chDB %s" % chdb.__version__, call("extractURLParameter(u, '%s')" % NAME),
            call("cutURLParameter(u, %s)" % names))


def run(args):
    urls = with_tracking(make_urls(args.rows))
    array = pa.array(urls, pa.string())
    rows = len(urls)
    results = []
    r = args.repeats

    def add(name, times, n, baseline=None, target=None, **kwargs):
        return add_result(results, name, times, n, baseline and baseline["name"], target, **kwargs)

    checks = {}
    drop = pctcodec.TRACKING_PARAMS

    # ---- query_param
    loop = add("[parse_qsl(urlsplit(u).query) first 'v']", best_of(r, loop_query_param, urls), rows)
    one = add("query_param_many(pa.array, 'v', threads=1)",
              best_of(r, pctcodec.query_param_many, array, NAME, threads=1), rows, loop, TARGET_LOOP)
    add("query_param_many(pa.array, 'v')", best_of(r, pctcodec.query_param_many, array, NAME), rows,
        loop, clock="wall", note="default threads")
    add("query_param_many(list, 'v')", best_of(r, pctcodec.query_param_many, urls, NAME), rows, loop)
    ours = pctcodec.query_param_many(array, NAME, threads=1).to_pylist()
    want = loop_query_param(urls)
    agree = [i for i, u in enumerate(urls) if urlsplit(u).query == (u.partition("#")[0].partition("?")[2])]
    checks["query_param vs parse_qsl"] = "%d of %d rows compared (urlsplit finds the same query), %d differ" % (
        len(agree), rows, sum(ours[i] != want[i] for i in agree))

    # ---- clean_query
    cloop = add("urlsplit+parse_qsl+fnmatch+urlencode rebuild", best_of(r, loop_clean, urls), rows)
    cone = add("clean_query_many(pa.array, drop=TRACKING, threads=1)",
               best_of(r, pctcodec.clean_query_many, array, drop=drop, threads=1), rows, cloop, TARGET_LOOP)
    add("clean_query_many(pa.array, drop=TRACKING)",
        best_of(r, pctcodec.clean_query_many, array, drop=drop), rows, cloop, clock="wall",
        note="default threads")
    add("clean_query_many(list, drop=TRACKING)", best_of(r, pctcodec.clean_query_many, urls, drop=drop),
        rows, cloop)
    cleaned = pctcodec.clean_query_many(array, drop=drop, threads=1).to_pylist()
    rebuilt = loop_clean(urls)
    names = lambda u: [n for n, _ in parse_qsl(urlsplit(u).query, keep_blank_values=True)]  # noqa: E731
    compared = [i for i in agree if urlsplit(urls[i]).query]
    checks["clean_query kept names vs the rebuild"] = "%d rows with a query compared, %d differ" % (
        len(compared), sum(names(cleaned[i]) != names(rebuilt[i]) for i in compared))

    # ---- Python peers, on a subset
    rng = random.Random(2)
    subset = rng.sample(urls, min(args.peer_rows, rows))
    sub_array = pa.array(subset, pa.string())
    mine = add("clean_query_many(pa.array, drop=TRACKING, threads=1), subset",
               best_of(r, pctcodec.clean_query_many, sub_array, drop=drop, threads=1), len(subset))
    try:
        from w3lib.url import url_query_cleaner

        def w3(us):
            return [url_query_cleaner(u, TRACKING_NAMES, remove=True, keep_fragments=True) for u in us]
        e = add("w3lib %s url_query_cleaner loop" % _version("w3lib"), best_of(1, w3, subset), len(subset))
        e["ratio"], e["baseline"] = e["per_url"] / mine["per_url"], "peer per URL / clean_query_many per URL"
        got = pctcodec.clean_query_many(subset, drop=drop)
        checks["w3lib same output"] = "%d of %d" % (sum(a == b for a, b in zip(w3(subset), got)), len(subset))
    except ImportError:
        print("note: w3lib is not installed: skipped", file=sys.stderr)
    try:
        from courlan import clean_url

        def cour(us):
            return [clean_url(u) for u in us]
        e = add("courlan %s clean_url loop" % _version("courlan"), best_of(1, cour, subset), len(subset),
                note="also sorts, lowercases")
        e["ratio"], e["baseline"] = e["per_url"] / mine["per_url"], "peer per URL / clean_query_many per URL"
    except ImportError:
        print("note: courlan is not installed: skipped", file=sys.stderr)

    # ---- chDB, one thread
    ch = chdb_calls()
    if ch:
        label, extract, cut = ch
        e = add("%s extractURLParameter(u, 'v'), 1 thread" % label, best_of(r, extract, array), rows,
                target=TARGET_CHDB)
        e["ratio"], e["baseline"] = e["per_url"] / one["per_url"], "chDB per URL / pctcodec per URL"
        theirs = extract(array).to_pylist()
        checks["chDB extractURLParameter same string"] = "%d of %d rows (chDB: raw value, '' when absent)" % (
            sum(a == ("" if b is None else b) for a, b in zip(theirs, ours)), rows)
        e = add("%s cutURLParameter(u, names), 1 thread" % label, best_of(r, cut, array), rows,
                target=TARGET_CHDB)
        e["ratio"], e["baseline"] = e["per_url"] / cone["per_url"], "chDB per URL / pctcodec per URL"
        theirs = cut(array).to_pylist()
        checks["chDB cutURLParameter same string"] = "%d of %d rows" % (
            sum(a == b for a, b in zip(theirs, cleaned)), rows)

    return {"rows": rows, "repeats": r, "results": results, "checks": checks,
            "python": platform.python_version(), "machine": platform.machine(),
            "pctcodec": pctcodec.__version__, "pyarrow": pa.__version__}


def report(data):
    lines = ["pctcodec %s query benchmark: %s URLs (pyarrow string array), best of %d"
             % (data["pctcodec"], format(data["rows"], ","), data["repeats"]),
             "Python %s, %s, pyarrow %s" % (data["python"], data["machine"], data["pyarrow"]), ""]
    lines += results_lines(data["results"], 58)
    lines += ["",
              "speed-up: per URL of the loop above it / per URL of the call; for the peers and chDB,",
              "their per URL / pctcodec's one-thread per URL (how many times faster pctcodec is)",
              "clock: cpu = CPU time of the process (one thread), wall = wall time (default threads)",
              "", "outputs:"]
    lines += ["  %s: %s" % kv for kv in data["checks"].items()]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 URLs, one repeat (smoke run)")
    parser.add_argument("--rows", type=int, help="number of URLs (default 1,000,000)")
    parser.add_argument("--peer-rows", type=int, help="URLs for w3lib and courlan (default 20,000)")
    parser.add_argument("--repeats", type=int, help="repeats, best kept (default 3)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    args.rows = args.rows or (20_000 if args.quick else 1_000_000)
    args.peer_rows = args.peer_rows or (1_000 if args.quick else 20_000)
    args.repeats = args.repeats or (1 if args.quick else 3)
    data = run(args)
    print(report(data))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
