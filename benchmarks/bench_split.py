"""Time split_many on a column of a million real-shaped URLs.

    python benchmarks/bench_split.py [--quick] [--rows N] [--repeats R]

The column is bench_batch.py's (make_urls: URLs drawn with a fixed seed from
benchmarks/urls_sample.txt and messy variants of them, half with a query
parameter of their own), held as a pyarrow ``string`` array and as a list.

Measured in one run (best of --repeats), by CPU time of the process for the
one-thread rows (what other jobs on a shared machine disturb least) and by
wall time for the default threads:
- ``split_many(array)`` (one C pass per row, seven string children written in
  place) against a Python loop ``[urllib.parse.urlsplit(u) for u in urls]``
  and a loop ``[split(u) for u in urls]`` (target: TARGET_LOOP x the
  urlsplit loop);
- ``split_many(urls)`` on the list (a URIParts per row) for context;
- chDB's ``protocol(u), domain(u), path(u)`` over the same Arrow table
  (``max_threads=1`` for the one-thread row; skipped when chdb is not
  installed), three of our seven columns (target: ahead on one thread);
- ``pyarrow.compute.ascii_upper``: a kernel that copies every string once,
  the floor of any pass that writes the strings out.

Outputs are checked before timing: ``split_many`` gives ``split`` row by
row; on the rows where urlsplit follows RFC 3986 Appendix B too (no
whitespace, no brackets, ASCII; see docs/split.md) its scheme (lowercased),
netloc, path, query and fragment are ours; chDB's domain and path are our
host and path on the rows with a scheme, an authority without userinfo, port
or '%', and no non-ASCII text, where domain() gives a host (it gives '' for
one without a dot), and the paths where ours is not empty (chDB's path()
of an empty path takes a '/' out of the query or fragment); the count of
those rows is printed.
"""
import argparse
import os
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402

import pctcodec  # noqa: E402
from bench_batch import _version, best_of, make_urls, python_loop  # noqa: E402

TARGET_LOOP = 20.0
TARGET_CHDB = 1.0


def chdb_peer():
    """f(array, threads) -> pyarrow table of protocol, domain, path; or None."""
    try:
        import chdb
    except ImportError:
        print("note: chdb is not installed: skipped", file=sys.stderr)
        return None, None

    def call(array, threads):
        urls = pa.table({"u": array})  # noqa: F841 (read by name: Python(urls))
        settings = " SETTINGS max_threads=%d" % threads if threads else ""
        return chdb.query("SELECT protocol(u), domain(u), path(u) FROM Python(urls)%s" % settings,
                          "ArrowTable")
    return "chDB %s" % chdb.__version__, call


def check_outputs(urls, array, chdb_call):
    parts = pctcodec.split_many(array)
    rows = [None if r is None else pctcodec.URIParts(**r) for r in parts.to_pylist()]
    assert rows == [pctcodec.split(u) for u in urls], "split_many(array) != split"
    assert pctcodec.split_many(urls) == rows, "split_many(list) != split"
    agree = 0
    for u, p in zip(urls, rows):
        if u[:1] <= " " or not u.isascii() or any(c in u for c in "[]\t\r\n"):
            continue
        theirs = urllib.parse.urlsplit(u)
        netloc = "" if p.host is None else pctcodec.URIParts(
            None, p.userinfo, p.host, p.port, "", None, None).geturl()[2:]
        assert (theirs.scheme, theirs.netloc, theirs.path, theirs.query, theirs.fragment) == (
            (p.scheme or "").lower(), netloc, p.path, p.query or "", p.fragment or ""), u
        agree += 1
    print("checked: split_many == split on %d rows; == urlsplit on the %d rows where the "
          "rules agree" % (len(urls), agree))
    if chdb_call is None:
        return
    table = chdb_call(array, 1)
    protocol, domain, path = (table.column(k).to_pylist() for k in range(3))
    compared = no_domain = 0
    for k, p in enumerate(rows):
        if (p.scheme is None or p.host is None or p.userinfo is not None or p.port is not None
                or "%" in p.host or not urls[k].isascii() or not p.host):
            continue
        if not domain[k]:  # a host domain() does not take (no dot, a trailing dot ...)
            no_domain += 1
            continue
        # an empty path: chDB's path() takes what follows a '/' in the query or fragment
        assert (protocol[k], domain[k]) == (p.scheme, p.host), urls[k]
        assert path[k] == p.path or not p.path, urls[k]
        compared += 1
    print("checked: chDB protocol, domain, path == scheme, host, path on %d rows (%d more "
          "where domain() gives '')" % (compared, no_domain))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="20,000 rows, one repeat")
    args = parser.parse_args()
    rows, repeats = (20_000, 1) if args.quick else (args.rows, args.repeats)
    urls = make_urls(rows)
    array = pa.array(urls, pa.string())
    label, chdb_call = chdb_peer()
    check_outputs(urls, array, chdb_call)

    timings = []  # (label, one-thread CPU seconds, default-threads wall seconds)

    def measure(name, func, *a, **kw):
        wall, cpu = best_of(repeats, func, *a, **kw)
        timings.append((name, cpu, wall))
        return cpu

    ours = measure("split_many(pa.array)", pctcodec.split_many, array)
    measure("split_many(list)", pctcodec.split_many, urls)
    loop = measure("[urlsplit(u) for u in urls]", python_loop(urllib.parse.urlsplit), urls)
    measure("[split(u) for u in urls]", python_loop(pctcodec.split), urls)
    chdb_cpu = None
    if chdb_call is not None:
        _, chdb_cpu = best_of(repeats, chdb_call, array, 1)
        chdb_wall, _ = best_of(repeats, chdb_call, array, None)
        timings.append(("%s protocol, domain, path" % label, chdb_cpu, chdb_wall))
    measure("pyarrow.compute.ascii_upper (floor)", pc.ascii_upper, array)

    print()
    print("split_many on %d rows, pctcodec %s, pyarrow %s, Python %s" % (
        rows, pctcodec.__version__, _version("pyarrow"), sys.version.split()[0]))
    print("%-44s %14s %14s %16s" % ("", "ns/row 1 thread", "ns/row default", "x (1-thread CPU)"))
    for name, cpu, wall in timings:
        print("%-44s %14.1f %14.1f %16.2f" % (name, cpu / rows * 1e9, wall / rows * 1e9,
                                             cpu / ours))
    print()
    ratio = loop / ours
    print("split_many(pa.array) vs urlsplit loop: %.1fx (target %gx): %s"
          % (ratio, TARGET_LOOP, "met" if ratio >= TARGET_LOOP else "NOT met"))
    if chdb_cpu is not None:
        ratio = chdb_cpu / ours
        print("split_many(pa.array) vs %s, one thread: %.2fx (target > %gx): %s"
              % (label, ratio, TARGET_CHDB, "met" if ratio > TARGET_CHDB else "NOT met"))


if __name__ == "__main__":
    main()
