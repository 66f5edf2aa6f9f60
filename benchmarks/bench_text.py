"""Time the single calls on whole texts that issue 14 names, in one run.

    python benchmarks/bench_text.py [--quick]

Each call is timed as a plain call statement (timeit, no lambda) in process
CPU time, best of several repeats, after its result is checked against
urllib.parse:
- quote of 1 MB of mixed ASCII/Latin-1/CJK text and of 1 MB of CJK text, in
  GB/s of UTF-8 input (target TARGET_QUOTE_GBS each);
- unquote of 1 MB of escaped mixed text, in GB/s of input (target
  TARGET_UNQUOTE_GBS);
- unquote of 1 MB with no '%' against Python's own ``'%' not in s`` (the
  check urllib makes first; target at most TARGET_NO_ESCAPE x its time);
- unquote of short escaped CJK text against yarl's C unquoter, when yarl is
  installed (target TARGET_YARL x); both are called by a bare name, as
  bench.py times every library (``pctcodec.unquote(s)`` adds a module
  attribute lookup that ``yarl_unquote(s)`` does not have).
"""
import argparse
import random
import sys
import time
import timeit
import urllib.parse

import pctcodec

TARGET_QUOTE_GBS = 1.0
TARGET_UNQUOTE_GBS = 2.0
TARGET_NO_ESCAPE = 1.1
TARGET_YARL = 2.0
MB = 1 << 20


def text(rng, pieces, size):
    """Pieces drawn at random up to `size` bytes of UTF-8."""
    out, n = [], 0
    while n < size:
        piece = rng.choice(pieces)
        out.append(piece)
        n += len(piece.encode())
    return "".join(out)


def best(stmt, env, repeat, target):
    """CPU seconds per execution of stmt: the best of `repeat` runs of about
    `target` seconds each (process CPU time: other work on the machine
    does not count)."""
    timer = timeit.Timer(stmt, globals=env, timer=time.process_time)
    number = 1
    while timer.timeit(number) < target / 5:
        number *= 4
    return min(timer.repeat(repeat, number)) / number


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs: a smoke test")
    args = parser.parse_args(argv)
    repeat, target = (2, 0.01) if args.quick else (7, 0.1)
    rng = random.Random(14)
    mixed = text(rng, ["the ", "quick/", "brown ", "fox=", "café ", "naïve ", "東京 ", "straße&", "São ",
                       "データ "], MB)
    cjk = text(rng, ["東京", "大阪", "データ", "検索", "日本語", "中文", "한국어"], MB)
    escaped = urllib.parse.quote(mixed)
    plain = text(rng, ["abc/", "def.", "ghi-", "path/", "x_y"], MB)
    short = urllib.parse.quote("東京タワー")
    for call, arg in (("quote", mixed), ("quote", cjk), ("unquote", escaped), ("unquote", plain),
                      ("unquote", short)):
        got, want = getattr(pctcodec, call)(arg), getattr(urllib.parse, call)(arg)
        if type(got) is not type(want) or got != want:
            raise AssertionError("pctcodec.%s differs from urllib.parse on %r..." % (call, arg[:40]))
    env = {"pctcodec": pctcodec, "mixed": mixed, "cjk": cjk, "escaped": escaped, "plain": plain,
           "short": short}

    rows = []
    for label, stmt, size, goal in (
            ("quote: 1 MB mixed ASCII/Latin-1/CJK", "pctcodec.quote(mixed)", len(mixed.encode()),
             TARGET_QUOTE_GBS),
            ("quote: 1 MB CJK", "pctcodec.quote(cjk)", len(cjk.encode()), TARGET_QUOTE_GBS),
            ("unquote: 1 MB escaped mixed text", "pctcodec.unquote(escaped)", len(escaped),
             TARGET_UNQUOTE_GBS)):
        gbs = size / best(stmt, env, repeat, target) / 1e9
        rows.append((label, "%.2f GB/s" % gbs, ">= %g GB/s" % goal, gbs >= goal))
    ours = best("pctcodec.unquote(plain)", env, repeat, target)
    check = best("'%' not in plain", env, repeat, target)
    ratio = ours / check
    rows.append(("unquote: 1 MB, no '%' / '%' not in s",
                 "%.2fx (%.1f / %.1f us)" % (ratio, ours * 1e6, check * 1e6), "<= %gx" % TARGET_NO_ESCAPE,
                 ratio <= TARGET_NO_ESCAPE))
    try:
        from yarl._quoting_c import _Unquoter
    except ImportError:
        print("note: yarl is not installed: the short CJK case is skipped", file=sys.stderr)
    else:
        env["yarl_unquote"] = _Unquoter(replace_invalid=True)
        if env["yarl_unquote"](short) != urllib.parse.unquote(short):
            raise AssertionError("yarl differs from urllib.parse on the short CJK case")
        # both called by a bare name, as bench.py times every library
        env["unquote"] = pctcodec.unquote
        ours = best("unquote(short)", env, repeat, target)
        theirs = best("yarl_unquote(short)", env, repeat, target)
        rows.append(("unquote: short escaped CJK, yarl / pctcodec", "%.2fx (%.0f / %.0f ns)"
                     % (theirs / ours, theirs * 1e9, ours * 1e9), ">= %gx" % TARGET_YARL,
                     theirs / ours >= TARGET_YARL))

    print("pctcodec %s text benchmark%s, kernel %s" % (pctcodec.__version__, " (--quick)" if args.quick else "",
                                                      pctcodec._pctcodec._kernel()))
    for label, value, goal, met in rows:
        print("  %-46s %-28s %-12s %s" % (label, value, goal, "met" if met else "MISSED"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
