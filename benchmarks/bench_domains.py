"""Time registered_domain_many on a column of a million real-shaped URLs.

    python benchmarks/bench_domains.py [--quick] [--rows N] [--repeats R] [--ours]

The column is bench_batch.py's (make_urls: URLs drawn with a fixed seed from
benchmarks/urls_sample.txt and messy variants of them: uppercase hosts,
ports, userinfo, IDN hosts...), held as a pyarrow ``string`` array. Every
peer reads the same list: the snapshot pctcodec ships
(src/pctcodec/data/public_suffix_list.dat), offline.

Measured in one run, by CPU time of the process (what other jobs on a shared
machine disturb least; the machine is shared and noisy: read the ratios):
- ``registered_domain_many(array, threads=1, on_error="null")`` against a Python loop of
  tldextract (a ``TLDExtract`` whose suffix_list_urls is the list file, no
  cache folder, no fallback snapshot): target TARGET_TLDEXTRACT x;
- the same with ``private=True`` against a loop of pydomainextractor's
  ``extract_from_url`` (which reads both sections of the list): target
  TARGET_PEERS x;
- against polars-tldextract's ``registrable_domain`` expression on a polars
  Series of the same URLs (``parallel=False``, the list loaded with
  ``load_psl``): target TARGET_PEERS x;
- the cold first call: a new interpreter imports pctcodec, then times its
  first ``registered_domain`` (the shipped list read and compiled): the
  median of COLD_RUNS runs, wall time (target under TARGET_COLD_MS) and
  CPU time.

Peers that are not installed are skipped with a note. Outputs are checked
before timing, row by row: ours against each peer's on the rows both read
alike (an ASCII host without escapes whose last label the list has, not an
IP address; the peer's result lowercased: they keep the input's case); any
difference stops the benchmark, but for the classes of pydomainextractor's
own readings (pydomainextractor_reasons), counted apart. The rows compared
are counted.
"""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402

import pctcodec  # noqa: E402
from pctcodec import _pctcodec  # noqa: E402
from pctcodec.domains import suffix_list  # noqa: E402
from bench_batch import _version, best_of, make_urls  # noqa: E402

TARGET_TLDEXTRACT = 100.0
TARGET_PEERS = 3.0
TARGET_COLD_MS = 20.0
COLD_RUNS = 7

LIST = os.path.join(os.path.dirname(pctcodec.__file__), "data", "public_suffix_list.dat")


def comparable(urls):
    """The indexes of the rows every peer reads as pctcodec does (see the
    module documentation)."""
    with open(LIST, encoding="utf-8") as f:
        tlds = {line.strip().lstrip("!*.").rsplit(".", 1)[-1] for line in f
                if line.strip() and not line.startswith("//")}
    rows = []
    for i, url in enumerate(urls):
        data = url.encode("utf-8", "surrogatepass")
        span = _pctcodec._domain_host(data)  # the core's host finder
        if span is None or _browser_refuses(url):
            continue
        host = data[span[0]:span[1]].decode("utf-8", "surrogatepass").rstrip(".")
        if (host.isascii() and "%" not in host and ".." not in host and host[:1] not in ("", ".")
                and host.rsplit(".", 1)[-1].lower() in tlds and not host.rsplit(".", 1)[-1].isdigit()):
            rows.append(i)
    return rows


def _browser_refuses(url):
    """A special scheme's URL the URL Standard's parser refuses (a port that
    is no number, a forbidden host code point): pctcodec reads it as the
    browser does, which loads nothing, where the peers still read a host."""
    scheme = url.lstrip("\x00\t\n\r ").partition(":")[0].lower()
    if scheme not in ("http", "https", "ws", "wss", "ftp", "file"):
        return False
    try:
        pctcodec.parse_url(url)
    except ValueError:
        return True
    return False


def _rules():
    """The list's rules (ASCII, lowercase; wildcards and exceptions as written)."""
    with open(LIST, encoding="utf-8") as f:
        return {".".join(label if label.isascii() else "xn--" + label.encode("punycode").decode()
                         for label in line.split()[0].lower().split("."))
                for line in f if line.strip() and not line.startswith("//")}


def pydomainextractor_reasons(rules):
    """Why pydomainextractor may give another result than ours (None: no
    known reason): it takes for a public suffix a name that is no rule of
    the list nor under a wildcard (an inner node of its tree of rules:
    amazonaws.com, which the list has only in longer rules); it reads a
    query or fragment that follows the host with no path as part of the
    authority (``http://a.org?x``, ``http://a.org#x@b.org``); it gives none:
    it rejects the URL (no scheme, an empty label)."""
    def reason(url, theirs):
        authority = url.partition("//")[2].partition("/")[0]
        if "?" in authority or "#" in authority:
            return "reads a query or fragment right after the host as the authority"
        if theirs is None:
            return "gives no domain"
        suffix = theirs.lower().split(".", 1)[-1]
        if suffix not in rules and "*." + suffix.split(".", 1)[-1] not in rules:
            return "takes a name that is no rule for a suffix"
        return None
    return reason


def check_same(name, urls, ours, theirs, rows, reason=None):
    """Stops unless the peer gives our results on `rows`, but where
    reason(url, theirs) names a known cause (those rows are counted)."""
    bad = [(i, ours[i], theirs[i]) for i in rows
           if ours[i] != (theirs[i].lower() if theirs[i] else None)]
    known = {}
    unknown = []
    for b in bad:
        why = reason(urls[b[0]], b[2]) if reason is not None else None
        if why is None:
            unknown.append(b)
        else:
            known[why] = known.get(why, 0) + 1
    if unknown:
        sys.exit("%s differs from registered_domain_many on %d of %d rows, e.g. %r"
                 % (name, len(unknown), len(rows), unknown[:3]))
    print("outputs checked: %s = registered_domain_many on %d rows%s"
          % (name, len(rows) - len(bad), "".join("; %d rows where it %s" % (n, why)
                                                 for why, n in known.items())))


def tldextract_peer(urls):
    try:
        import tldextract
    except ImportError:
        print("note: tldextract is not installed: skipped", file=sys.stderr)
        return None
    extract = tldextract.TLDExtract(cache_dir=None, suffix_list_urls=("file://" + LIST,),
                                    fallback_to_snapshot=False)
    attr = "top_domain_under_public_suffix" if hasattr(extract("a.com"), "top_domain_under_public_suffix") \
        else "registered_domain"

    def loop(urls):
        return [getattr(extract(u), attr) or None for u in urls]

    return loop


def pydomainextractor_peer():
    try:
        import pydomainextractor
    except ImportError:
        print("note: pydomainextractor is not installed: skipped", file=sys.stderr)
        return None
    with open(LIST, encoding="utf-8") as f:
        extractor = pydomainextractor.DomainExtractor(f.read())
    extract = extractor.extract_from_url

    def one(u):
        try:
            d = extract(u)
        except ValueError:
            return None  # a URL it rejects (no scheme, an empty label): not compared
        return d["domain"] + "." + d["suffix"] if d["suffix"] and d["domain"] else None

    def loop(urls):
        return [one(u) for u in urls]

    return loop


def polars_peer():
    try:
        import polars as pl
        import polars_tldextract as tld
    except ImportError:
        print("note: polars-tldextract is not installed: skipped", file=sys.stderr)
        return None
    tld.load_psl(LIST)

    def call(frame):
        return frame.select(tld.registrable_domain("u", parallel=False))

    return call


def cold_ms():
    """Median wall and CPU milliseconds of a first call in a new interpreter."""
    code = ("import time, pctcodec; t = time.perf_counter(); c = time.process_time(); "
            "pctcodec.registered_domain('https://www.example.co.uk/'); "
            "print((time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000)")
    runs = [tuple(map(float, subprocess.run([sys.executable, "-c", code], check=True,
                                            capture_output=True, text=True).stdout.split()))
            for _ in range(COLD_RUNS)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def run(args):
    urls = make_urls(args.rows)
    array = pa.array(urls, pa.string())
    rows = len(urls)
    lst = suffix_list()
    print("%d URLs; list: %r" % (rows, lst))
    rows_compared = comparable(urls)
    # a few hosts of the corpus are no domain names ('%s', ...): null, as a
    # pipeline over dirty data would have them
    many = pctcodec.registered_domain_many
    ours = many(array, threads=1, on_error="null").to_pylist()
    ours_private = many(array, private=True, threads=1, on_error="null").to_pylist()
    assert ours == many(urls, on_error="null")
    table = []
    _, cpu_ours = best_of(args.repeats, many, array, threads=1, on_error="null")
    _, cpu_private = best_of(args.repeats, many, array, private=True, threads=1, on_error="null")
    table.append(("registered_domain_many(array), 1 thread", cpu_ours, None, None))
    table.append(("registered_domain_many(array, private=True), 1 thread", cpu_private, None,
                  None))

    if args.ours:
        for name, cpu, _, _ in table:
            print("%s: %.1f ns/row" % (name, cpu / rows * 1e9))
        return
    loop = tldextract_peer(urls)
    if loop is not None:
        check_same("tldextract %s loop" % _version("tldextract"), urls, ours, loop(urls), rows_compared)
        _, cpu = best_of(1, loop, urls)
        table.append(("tldextract %s loop" % _version("tldextract"), cpu, cpu / cpu_ours,
                      TARGET_TLDEXTRACT))
    loop = pydomainextractor_peer()
    if loop is not None:
        name = "pydomainextractor %s loop (private=True)" % _version("pydomainextractor")
        rules = _rules()
        check_same(name, urls, ours_private, loop(urls), rows_compared, pydomainextractor_reasons(rules))
        _, cpu = best_of(1, loop, urls)
        table.append((name, cpu, cpu / cpu_private, TARGET_PEERS))
    call = polars_peer()
    if call is not None:
        import polars as pl

        frame = pl.from_arrow(pa.table({"u": array}))
        name = "polars-tldextract %s, parallel=False" % _version("polars-tldextract")
        check_same(name, urls, ours, call(frame).to_series().to_list(), rows_compared)
        _, cpu = best_of(args.repeats, call, frame)
        table.append((name, cpu, cpu / cpu_ours, TARGET_PEERS))

    print()
    print("| what | CPU s | per URL | pctcodec is | target |")
    print("|---|---:|---:|---:|---:|")
    for name, cpu, ratio, target in table:
        per = cpu / rows * 1e9
        print("| %s | %.3f | %.0f ns | %s | %s |" % (
            name, cpu, per, "" if ratio is None else "%.1fx faster" % ratio,
            "" if target is None else ">= %gx %s" % (target, "met" if ratio >= target else "MISSED")))
    wall, cpu = cold_ms()
    print()
    print("cold first call (import done, list read and compiled), median of %d runs: %.1f ms "
          "wall, %.1f ms CPU (target < %g ms: %s)" % (COLD_RUNS, wall, cpu, TARGET_COLD_MS,
                                                    "met" if wall < TARGET_COLD_MS else "MISSED"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="20 000 rows, one repeat (CI smoke)")
    parser.add_argument("--ours", action="store_true",
                        help="pctcodec's lines alone (no peer, no cold call): to compare builds")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.repeats = 20_000, 1
    run(args)


if __name__ == "__main__":
    main()
