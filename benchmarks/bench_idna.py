"""Time the C host mapping (the URL Standard's domain to ASCII) against the
ada-url path the package used before, and normalize_many on columns of
internationalized hosts.

    python benchmarks/bench_idna.py [--quick] [--json PATH]

1. Mapping one non-ASCII host, cold: every host is new (no cache on either
   side). pctcodec's C mapping (pctcodec._pctcodec._domain_to_ascii) against
   ada-url as the package called it (its escapes decoded, ada_url.idna.encode,
   the forbidden code points: what pctcodec._idna.to_ascii did without its
   cache, less its Bidi check in Python). The outputs are checked identical
   first. Target: 5x.
2. normalize_many on a column (a pyarrow array; a list without pyarrow)
   whose every row has an internationalized host, against the same column
   with ASCII hosts of the same lengths (one thread each). Real columns
   repeat their hosts: the column has 2,000 distinct hosts; a second line
   has every host distinct (each one mapped). Target: at most 2x the ns/row
   of the ASCII column.
3. normalize_many on the internationalized column with two threads against
   one. Target: 1.7x.
4. registered_domain_many on the same two columns (every host distinct
   too), IDN against ASCII, one thread, outputs checked equal to the single
   calls first. Target: at most 1.5x the ns/row of the ASCII column.

Ratios are measured in one run, each time the best of several repeats; the
machine may be shared and noisy, so read the ratios, not the nanoseconds.
"""
import argparse
import json
import re
import sys
import time
import unicodedata

import pctcodec
from pctcodec import _pctcodec

TARGET_COLD = 5.0
TARGET_COLUMN = 2.0
TARGET_THREADS = 1.7
TARGET_DOMAIN = 1.5

WORDS = ["b\u00fccher", "m\u00fcnchen", "\u4f8b\u3048", "\u0442\u0435\u0441\u0442", "caf\u00e9", "\u00e9cole",
         "\u65e5\u672c", "\u0645\u062b\u0627\u0644", "\u0dbd\u0d82\u0d9a\u0dcf", "\u00fcber", "stra\u00dfe",
         "\u03b5\u03bb\u03bb\u03ac\u03b4\u03b1", "\ud55c\uad6d", "\u0e44\u0e17\u0e22", "\u05e2\u05d1\u05e8\u05d9\u05ea"]
TLDS = ["de", "jp", "\u0440\u0444", "com", "\u4e2d\u56fd", "fr", "\u0645\u0635\u0631", "org"]


def idn_hosts(n):
    """n distinct hosts with a non-ASCII label."""
    out = []
    i = 0
    while len(out) < n:
        w, t = WORDS[i % len(WORDS)], TLDS[(i // len(WORDS)) % len(TLDS)]
        rtl = any(unicodedata.bidirectional(c) in ("R", "AL") for c in w + t)
        # a label of digits would break the Bidi rule in an RTL name
        out.append(("%s.x%d.%s" if rtl else "%s%d.%s") % (w, i, t))
        i += 1
    return out


# ---------------------------------------------------------------- the ada-url path

_ESCAPE = re.compile(rb"%[0-9A-Fa-f]{2}")
_KEPT = frozenset(b":/?#[]@!$&'()*+,;=%")
_FORBIDDEN = re.compile(r"[\x00-\x20#%/:<>?@\[\\\]^|\x7f]")
def ada_path(host, _ada=[]):
    """pctcodec._idna.to_ascii as it was, without its cache, and without its
    Bidi rule check in Python (which only made it slower: the hosts here
    follow the rule)."""
    if not _ada:
        import ada_url

        _ada.append(ada_url)
    ada = _ada[0]
    raw = _ESCAPE.sub(lambda m: m[0] if int(m[0][1:], 16) in _KEPT else bytes((int(m[0][1:], 16),)),
                      host.encode("utf-8"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\x00" in text:
        return None
    mapped = ada.idna.encode(text)
    if not mapped:
        return None
    out = mapped.decode("ascii")
    return None if _FORBIDDEN.search(out) else out


# ---------------------------------------------------------------- timing

def best(*fns, repeats):
    """The best time of each function, their runs interleaved (a burst of
    load from elsewhere hits both sides of a ratio alike)."""
    times = [[] for _ in fns]
    for _ in range(repeats):
        for fn, out in zip(fns, times):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return [min(t) for t in times]


def column(hosts, rows):
    values = ["http://%s/a/b?q=%d#f" % (hosts[i % len(hosts)], i) for i in range(rows)]
    try:
        import pyarrow
    except ImportError:
        return values
    return pyarrow.array(values, pyarrow.large_string())


def as_list(col):
    return col if isinstance(col, list) else col.to_pylist()


def ascii_like(host):
    # an ASCII host of the same length in bytes as the UTF-8 one
    return "h" * (len(host.encode("utf-8")) - 4) + ".com"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few hosts, one repeat")
    parser.add_argument("--json", help="write the results to this file")
    parser.add_argument("--rows", type=int, help="rows of the columns (default 400,000)")
    args = parser.parse_args()
    n_hosts = 2_000 if args.quick else 20_000
    rows = args.rows or (20_000 if args.quick else 400_000)
    repeats = 1 if args.quick else 9
    lines, results = [], {}

    # 1. one host, cold
    hosts = idn_hosts(n_hosts)
    c_map = _pctcodec._domain_to_ascii
    try:
        ours = [c_map(h) for h in hosts]
        theirs = [ada_path(h) for h in hosts]
    except ImportError:
        theirs = None
    if theirs is not None:
        assert ours == theirs, [(h, a, b) for h, a, b in zip(hosts, ours, theirs) if a != b][:5]
        t_c, t_ada = (t / len(hosts) for t in best(lambda: [c_map(h) for h in hosts],
                                                    lambda: [ada_path(h) for h in hosts], repeats=repeats))
        ratio = t_ada / t_c
        results["cold"] = {"c_ns": t_c * 1e9, "ada_ns": t_ada * 1e9, "ratio": ratio}
        lines.append("one non-ASCII host, cold: C %.0f ns, ada-url path %.0f ns: %.1fx (target %.0fx)"
                     % (t_c * 1e9, t_ada * 1e9, ratio, TARGET_COLD))
    else:
        lines.append("one non-ASCII host, cold: ada-url not installed, skipped")
    t_norm = best(lambda: [pctcodec.normalize("http://" + h + "/") for h in hosts], repeats=repeats)[0] / len(hosts)
    lines.append("  (normalize('http://<host>/') with the mapping: %.0f ns a URL)" % (t_norm * 1e9))

    # 2. normalize_many, IDN against ASCII hosts, one thread
    for label, distinct in (("2,000 distinct hosts", 2_000), ("every host distinct", rows)):
        idn = idn_hosts(distinct)
        col_idn = column(idn, rows)
        col_ascii = column([ascii_like(h) for h in idn], rows)
        head = col_idn[:2000]
        assert as_list(pctcodec.normalize_many(head, threads=1)) == [pctcodec.normalize(u) for u in as_list(head)]
        assert as_list(pctcodec.normalize_many(head, threads=2)) == as_list(pctcodec.normalize_many(head))
        t_idn, t_ascii, t2 = (t / rows for t in best(lambda: pctcodec.normalize_many(col_idn, threads=1),
                                                     lambda: pctcodec.normalize_many(col_ascii, threads=1),
                                                     lambda: pctcodec.normalize_many(col_idn, threads=2),
                                                     repeats=repeats))
        ratio = t_idn / t_ascii
        key = "column_repeating" if distinct < rows else "column_distinct"
        results[key] = {"idn_ns": t_idn * 1e9, "ascii_ns": t_ascii * 1e9, "ratio": ratio, "rows": rows,
                        "distinct_hosts": distinct}
        lines.append("normalize_many, %d rows, %s: IDN %.0f ns/row, ASCII %.0f ns/row: %.2fx (target <= %.0fx)"
                     % (rows, label, t_idn * 1e9, t_ascii * 1e9, ratio, TARGET_COLUMN))

        # 3. two threads against one, on the IDN column
        results[key]["threads_ratio"] = t_idn / t2
        lines.append("  two threads against one: %.2fx (target %.1fx)" % (t_idn / t2, TARGET_THREADS))

        # 4. registered_domain_many, IDN against ASCII hosts, one thread
        domain = pctcodec.registered_domain_many
        assert as_list(domain(head, threads=1)) == [pctcodec.registered_domain(u) for u in as_list(head)]
        d_idn, d_ascii = (t / rows for t in best(lambda: domain(col_idn, threads=1),
                                                 lambda: domain(col_ascii, threads=1), repeats=repeats))
        results[key]["domain"] = {"idn_ns": d_idn * 1e9, "ascii_ns": d_ascii * 1e9, "ratio": d_idn / d_ascii}
        lines.append("registered_domain_many, %d rows, %s: IDN %.0f ns/row, ASCII %.0f ns/row: %.2fx "
                     "(target <= %.1fx)" % (rows, label, d_idn * 1e9, d_ascii * 1e9, d_idn / d_ascii,
                                            TARGET_DOMAIN))

    print("bench_idna (Python %s; ratios in one run, the machine may be shared)" % sys.version.split()[0])
    for line in lines:
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
