"""Time resolve_many on a crawl's (page URL, href) pairs against loops of
urllib.parse.urljoin and yarl's URL.join.

    python benchmarks/bench_resolve.py [--quick] [--rows N] [--repeats N]

The pairs: page URLs from urls_sample.txt (http and https, with a host)
beside links of every kind a page holds (a relative file, ``./`` and
``../`` paths, an absolute path, a query, a fragment, a ``//host`` link, an
absolute URL), picked with a fixed seed. A pair is kept only where the
three give the same string (the classes of docs/resolve.md where urljoin
differs, and yarl's own rewriting of some URLs, are left out), and the
outputs are checked identical again on the whole column before any timing.

Measured in one run, best of --repeats, by the CPU time of the process:
``resolve_many(pages, links, threads=1)`` on two pyarrow ``string`` arrays
(and on two lists), against ``[urljoin(p, l) for p, l in zip(...)]`` and
``[str(URL(p).join(URL(l))) ...]`` over lists (targets: TARGET_URLJOIN x
and TARGET_YARL x). The machine may be shared: the ratios are what holds.
"""
import argparse
import os
import random
import sys
from urllib.parse import urljoin

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402

import pctcodec  # noqa: E402
from bench_batch import _version, best_of  # noqa: E402

TARGET_URLJOIN = 30.0
TARGET_YARL = 10.0
CORPUS = os.path.join(HERE, "urls_sample.txt")
LINKS = ["index.html", "about/team.html", "./a/b.html", "../up.html", "../../x/y.css", "/", "/abs/path",
         "/img/logo.png?v=3", "?page=2", "?q=a+b&lang=en", "#top", "#section-4", "page.html#frag",
         "//cdn.example.net/lib.js", "https://other.example.org/p?x=1", "http://example.com/",
         "..", ".", "./", "sub/dir/", "a/./b/../c.html"]


def _pages():
    pages = []
    with open(CORPUS, encoding="utf-8") as f:
        for line in f:
            u = line.strip()
            if not u.startswith(("http://", "https://")) or not u.isascii():
                continue
            if any(c in u for c in " \t;[]") or "//" in u.split("://", 1)[1]:
                continue
            pages.append(u)
    return pages


def make_pairs(rows, seed=1):
    """rows (page, link) pairs on which urljoin, yarl and resolve agree; and
    how many candidate pairs each peer disagreed on."""
    from yarl import URL

    rng = random.Random(seed)
    pages = _pages()
    pool, dropped = [], {"urljoin": 0, "yarl": 0}
    for _ in range(4000):
        page = rng.choice(pages)
        link = rng.choice(LINKS)
        ours = pctcodec.resolve(page, link)
        ok = True
        if urljoin(page, link) != ours:
            dropped["urljoin"] += 1
            ok = False
        try:
            theirs = str(URL(page).join(URL(link)))
        except ValueError:
            theirs = None
        if theirs != ours:
            dropped["yarl"] += 1
            ok = False
        if ok:
            pool.append((page, link))
    picks = rng.choices(pool, k=rows)
    return [p for p, _ in picks], [l for _, l in picks], dropped, len(pool)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke test: few rows, one repeat")
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.quick:
        args.rows, args.repeats = 2000, 1
    from yarl import URL

    pages, links, dropped, kept = make_pairs(args.rows)
    page_arr, link_arr = pa.array(pages), pa.array(links)

    def loop_urljoin():
        return [urljoin(p, l) for p, l in zip(pages, links)]

    def loop_yarl():
        return [str(URL(p).join(URL(l))) for p, l in zip(pages, links)]

    def ours_arrow():
        return pctcodec.resolve_many(page_arr, link_arr, threads=1)

    def ours_list():
        return pctcodec.resolve_many(pages, links)

    want = ours_list()
    assert ours_arrow().to_pylist() == want, "resolve_many: Arrow and list differ"
    assert loop_urljoin() == want, "urljoin differs on the pairs it agrees on"
    assert loop_yarl() == want, "yarl differs on the pairs it agrees on"

    times = {}
    for name, func in (("resolve_many (Arrow, 1 thread)", ours_arrow),
                       ("resolve_many (lists)", ours_list),
                       ("urljoin loop", loop_urljoin),
                       ("yarl URL.join loop", loop_yarl)):
        times[name] = best_of(args.repeats, func)[1]
    ours = times["resolve_many (Arrow, 1 thread)"]
    print("resolve: %d (page, href) pairs, best CPU time of %d; Python %s, pyarrow %s, yarl %s"
          % (args.rows, args.repeats, sys.version.split()[0], _version("pyarrow"), _version("yarl")))
    print("candidate pairs kept: %d of 4000 (dropped where urljoin differs: %d, where yarl "
          "differs: %d); outputs checked identical" % (kept, dropped["urljoin"], dropped["yarl"]))
    print("| what | per row | resolve_many (Arrow) is |")
    print("|---|---|---|")
    for name, t in times.items():
        print("| %s | %.0f ns | %.1fx |" % (name, t / args.rows * 1e9, t / ours))
    for peer, target in (("urljoin loop", TARGET_URLJOIN), ("yarl URL.join loop", TARGET_YARL)):
        ratio = times[peer] / ours
        print("target %s: >= %.0fx, measured %.1fx: %s"
              % (peer, target, ratio, "met" if ratio >= target else "MISSED"))


if __name__ == "__main__":
    main()
