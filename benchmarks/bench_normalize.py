"""Time pctcodec.normalize against other URL normalizers on a real-world corpus.

    python benchmarks/bench_normalize.py [--quick] [--json PATH] [--corpus FILE]

Each function runs over the whole corpus (benchmarks/urls_sample.txt, made by
make_corpus.py); the time per URL is the best of several repeats divided by
the number of URLs. The normalizers (pctcodec.normalize, url-normalize, w3lib's
canonicalize_url, rfc3986) are timed on the URLs that all of them accept, so
that each does the same work; a peer that raises on a URL is counted as a
failure there. pctcodec.requote, pctcodec.is_valid and yarl.URL are shown
for context, timed on the same URLs. A peer that is not installed is skipped
with a note.

The target: pctcodec.normalize at least TARGET times faster per URL than each
of url-normalize, w3lib and rfc3986.
"""
import argparse
import collections
import gc
import importlib.metadata
import json
import os
import platform
import sys
import time

import pctcodec

TARGET = 50.0
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "urls_sample.txt")


def _peers():
    """(name, package, function, is_normalizer); None for a missing peer."""
    out = [("pctcodec.normalize", "pctcodec", pctcodec.normalize, True)]
    try:
        from url_normalize import url_normalize

        out.append(("url_normalize.url_normalize", "url-normalize", url_normalize, True))
    except ImportError:
        out.append(("url_normalize.url_normalize", "url-normalize", None, True))
    try:
        from w3lib.url import canonicalize_url

        out.append(("w3lib.url.canonicalize_url", "w3lib", canonicalize_url, True))
    except ImportError:
        out.append(("w3lib.url.canonicalize_url", "w3lib", None, True))
    try:
        import rfc3986

        def rfc3986_normalize(u, _ref=rfc3986.uri_reference):
            return _ref(u).normalize().unsplit()

        out.append(("rfc3986 uri_reference().normalize()", "rfc3986", rfc3986_normalize, True))
    except ImportError:
        out.append(("rfc3986 uri_reference().normalize()", "rfc3986", None, True))
    out.append(("pctcodec.requote", "pctcodec", pctcodec.requote, False))
    out.append(("pctcodec.is_valid", "pctcodec", pctcodec.is_valid, False))
    try:
        import yarl

        out.append(("yarl.URL", "yarl", yarl.URL, False))
    except ImportError:
        out.append(("yarl.URL", "yarl", None, False))
    return out


def _version(package):
    if package == "pctcodec":
        return getattr(pctcodec, "__version__", "?")
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _accepts(func, url):
    try:
        func(url)
    except Exception:  # a peer's own failure: counted, not timed
        return False
    return True


def _time_per_url(func, urls, repeats):
    # map() into a zero-length deque: the least loop overhead Python offers,
    # the same for every function.
    consume = collections.deque(maxlen=0).extend
    consume(map(func, urls))  # warm-up
    best = float("inf")
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            consume(map(func, urls))
            best = min(best, time.perf_counter() - t0)
    finally:
        if gc_was_enabled:
            gc.enable()
    return best / len(urls)


def _fmt_time(seconds):
    ns = seconds * 1e9
    if ns < 10_000:
        return "%.0f ns" % ns
    return "%.1f us" % (ns / 1000)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a small subset and few repeats (CI smoke run)")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--repeats", type=int, default=None)
    args = ap.parse_args(argv)

    with open(args.corpus, encoding="utf-8") as f:
        urls = [line.rstrip("\n") for line in f if line.strip()]
    if args.quick:
        urls = urls[:300]
    repeats = args.repeats or (2 if args.quick else 7)

    peers = _peers()
    present = [p for p in peers if p[2] is not None]
    for name, package, func, _ in peers:
        if func is None:
            print("note: %s skipped (pip install %s)" % (name, package))

    failures = {name: [u for u in urls if not _accepts(func, u)] for name, _, func, _ in present}
    rejected = set()
    for name, _, _, is_normalizer in present:
        if is_normalizer:
            rejected.update(failures[name])
    common = [u for u in urls if u not in rejected]
    if not common:
        print("error: no URL is accepted by every normalizer", file=sys.stderr)
        return 1

    results = []
    for name, package, func, is_normalizer in present:
        per_url = _time_per_url(func, common, repeats)
        results.append({"name": name, "package": package, "version": _version(package),
                        "normalizer": is_normalizer, "failures": len(failures[name]), "seconds_per_url": per_url})
    ours = results[0]["seconds_per_url"]
    for r in results:
        r["ratio"] = r["seconds_per_url"] / ours

    print("pctcodec %s, %s %s, %s" % (_version("pctcodec"), platform.python_implementation(),
                                       platform.python_version(), platform.machine()))
    print("corpus: %s: %d URLs, %d timed (accepted by every normalizer), best of %d"
          % (os.path.basename(args.corpus), len(urls), len(common), repeats))
    print()
    header = "%-38s %-10s %8s %10s %10s" % ("function", "version", "failures", "per URL", "x normalize")
    print(header)
    print("-" * len(header))
    for r in results:
        print("%-38s %-10s %8d %10s %10.1f" % (r["name"], r["version"], r["failures"],
                                                _fmt_time(r["seconds_per_url"]), r["ratio"]))
    print()
    peers_timed = [r for r in results[1:] if r["normalizer"]]
    for r in peers_timed:
        verdict = "meets" if r["ratio"] >= TARGET else "MISSES"
        print("pctcodec.normalize is %.1fx faster than %s: %s the %gx target" % (r["ratio"], r["name"], verdict,
                                                                               TARGET))
    for r in results:
        if r["failures"]:
            print("note: %s raised on %d of %d URLs" % (r["name"], r["failures"], len(urls)))

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({
                "python": platform.python_version(),
                "implementation": platform.python_implementation(),
                "machine": platform.machine(),
                "corpus": os.path.basename(args.corpus),
                "urls": len(urls),
                "timed_urls": len(common),
                "repeats": repeats,
                "target_ratio": TARGET,
                "results": results,
            }, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
