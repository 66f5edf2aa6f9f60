"""Time the URL Standard's parser over a column: url_href_many (href only)
and parse_url_many (the whole struct) against normalize_many on the same
column and a loop of ada-url's ``URL(u).href``.

    python benchmarks/bench_url.py [--rows N] [--repeats N]

The column: real URLs from urls_sample.txt (each made unique by a query
parameter on every other row, as bench_batch.py does), kept where the two
readings agree (``normalize(u)`` is ``parse_url(u).href``) and ada-url
gives that href too; the outputs are checked identical on the whole column
before any timing. Measured in one run, best of --repeats, by CPU time,
one thread, on a pyarrow ``string`` array (ada-url on a list). Targets:
href <= TARGET_HREF x normalize_many, >= TARGET_ADA x the ada-url loop;
struct <= TARGET_STRUCT x normalize_many. The machine may be shared: the
ratios are what holds.
"""
import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402

import pctcodec  # noqa: E402
from bench_batch import _version, best_of  # noqa: E402

TARGET_HREF = 1.8
TARGET_ADA = 20.0
TARGET_STRUCT = 3.0
CORPUS = os.path.join(HERE, "urls_sample.txt")


def make_column(rows, seed=1):
    """rows URLs on which normalize, parse_url and ada-url agree, and the
    number of corpus URLs each reading disagreed on."""
    from ada_url import URL

    with open(CORPUS, encoding="utf-8") as f:
        corpus = [line.strip() for line in f if line.strip()]
    pool, differ = [], {"normalize": 0, "ada": 0}
    for u in corpus:
        try:
            ours = pctcodec.parse_url(u).href
        except ValueError:
            continue
        try:
            theirs = URL(u).href
        except ValueError:
            theirs = None
        try:
            norm = pctcodec.normalize(u)
        except ValueError:
            norm = None
        differ["normalize"] += norm != ours
        differ["ada"] += theirs != ours
        if norm == ours == theirs:
            pool.append(u)
    rng = random.Random(seed)
    out = []
    for i, u in enumerate(rng.choices(pool, k=rows)):
        if i % 2 and "#" not in u:
            u = "%s%sv=%d" % (u, "&" if "?" in u else "?", rng.randrange(10**6))
        out.append(u)
    return out, len(corpus), differ


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    from ada_url import URL

    urls, n_corpus, differ = make_column(args.rows)
    array = pa.array(urls, pa.string())
    # the outputs first, on the whole column
    href = pctcodec.url_href_many(array, threads=1)
    norm = pctcodec.normalize_many(array, threads=1)
    ada = [URL(u).href for u in urls]
    assert href.to_pylist() == norm.to_pylist() == ada, "the outputs differ"
    struct = pctcodec.parse_url_many(array, threads=1)
    assert struct.field("href").to_pylist() == ada
    assert struct.field("pathname").to_pylist() == [URL(u).pathname for u in urls[:1000]] + \
        struct.field("pathname").to_pylist()[1000:]

    r = args.repeats
    t_norm = best_of(r, pctcodec.normalize_many, array, threads=1)[1]
    t_href = best_of(r, pctcodec.url_href_many, array, threads=1)[1]
    t_struct = best_of(r, pctcodec.parse_url_many, array, threads=1)[1]
    t_ada = best_of(r, lambda us: [URL(u).href for u in us], urls)[1]
    rows = len(urls)

    def ns(t):
        return "%.0f ns" % (t / rows * 1e9)

    print("pctcodec %s, ada-url %s, pyarrow %s; %d rows (%d corpus URLs: normalize differs "
          "from href on %d, ada-url on %d); one thread, CPU time, best of %d"
          % (_version("pctcodec"), _version("ada-url"), pa.__version__, rows, n_corpus,
             differ["normalize"], differ["ada"], r))
    print("| what | per URL | ratio | target |")
    print("| --- | ---: | ---: | --- |")
    print("| normalize_many(pa.array) | %s | 1.00x | |" % ns(t_norm))
    ok = t_href / t_norm <= TARGET_HREF
    print("| url_href_many(pa.array) | %s | %.2fx normalize_many | <= %.1fx: %s |"
          % (ns(t_href), t_href / t_norm, TARGET_HREF, "met" if ok else "missed"))
    ok = t_struct / t_norm <= TARGET_STRUCT
    print("| parse_url_many(pa.array), 11 fields | %s | %.2fx normalize_many | <= %.1fx: %s |"
          % (ns(t_struct), t_struct / t_norm, TARGET_STRUCT, "met" if ok else "missed"))
    ok = t_ada / t_href >= TARGET_ADA
    print("| [ada_url.URL(u).href for u in list] | %s | url_href_many %.1fx faster | >= %.0fx: %s |"
          % (ns(t_ada), t_ada / t_href, TARGET_ADA, "met" if ok else "missed"))


if __name__ == "__main__":
    main()
