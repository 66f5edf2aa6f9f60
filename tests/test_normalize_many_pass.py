"""normalize_many's one-pass path (the AVX-512 kernel's uri_normalize, IDNA
forms from the core's pct_host_cache) used the way a caller does, against
a loop of the single call (pctcodec.normalize, which never takes the pass),
under every kernel this CPU runs (each in its own interpreter:
PCTCODEC_KERNEL is read at import; the kernels without the pass are the
control).

The rows sit on the pass's edges: every length 0-300 around its 64/128/256
byte vectors with escapes straddling bytes 62-66, 126-130 and 254-258; the
authority ending at bytes 55-75 (the pass reads it off the first vector
alone); ports empty, zero, with leading zeros, default or not for http(s),
ws(s) and ftp, or not digits; '@' several times; empty paths before a query
or fragment; dot segments, also escaped (%2E, %2e%2E) and at the end; bytes
>= 0x80 in every part; uppercase schemes and hosts; IP literals; escapes in
hosts; non-ASCII hosts repeated (the cache), more than its 1024 slots of
distinct ones (evictions), with IDNA forms over 64 bytes (not taken by the
pass), and hosts IDNA rejects (a row error under strict_idna). Each set goes
through a list, the Arrow string types, slices starting at odd rows,
chunked arrays and 1 and 2 threads, with on_error "null", "keep" (and
rejects) and "raise"."""
import pytest

import pctcodec._pctcodec as ext
from _child import assert_kernel_child_clean

KERNELS = ext._kernels()
# The child process builds Arrow columns.
pytest.importorskip("pyarrow", reason="pyarrow is not installed (no wheel for this interpreter)")

CHILD = r'''
import random, sys
import pyarrow as pa
import pctcodec, pctcodec._pctcodec as ext

assert ext._kernel() == sys.argv[1], (ext._kernel(), sys.argv[1])
rng = random.Random(23)
rows = []

# every length around the vectors, escapes straddling their edges
for n in range(301):
    base = ("HTTP://Ex.COM/" + "p" * n)[:n]
    rows += [base, base[:-1] + "%", base[:-2] + "%4", base[:-1] + "\u00e9"]
    for at in (62, 63, 64, 65, 66, 126, 127, 128, 129, 130, 254, 255, 256, 257, 258):
        if at + 3 <= n:
            for esc in ("%7e", "%2E", "%2f", "%C3%A9", "%zz"):
                rows.append(base[:at] + esc + base[at + len(esc):])
            rows.append(base[:at] + "/./" + base[at + 3:])
            rows.append(base[:at] + "/../" + base[at + 4:])

# the authority ending around the end of the first vector
for end in range(55, 76):
    for user in ("", "u:p@", "a@b@", "%41@", "\u00e9@"):
        host = "H" * max(1, end - 7 - len(user.encode()))
        for tail in ("", "/", "/x/../y", "?q", "#f", ":80/p", ":/p", ":0080", "/.", "/..", "/%2e%2E"):
            rows.append("http://" + user + host + tail)
            rows.append("wss://" + user + host[:-1] + "\u00e9" + tail)

# ports, '@', empty paths, dot segments, non-ASCII and uppercase parts
SCHEMES = ["http", "HTTPS", "ws", "wss", "ftp", "Ftp", "h+t.t-p"]
USERS = ["", "u@", "u:p@", "a@b@c@", "@", "\u00e9:\u00e8@", "%7e%41@"]
HOSTS = ["ex.com", "EX.COM", "", "1.2.3.4", "[::1]", "[v1.x]", "ex%41.com", "ex%2e.com",
         "a%zz", "\u00e9.fr", "M\u00dcNCHEN.DE", "b%C3%BCcher.de", "xn--bcher-kva.de"]
PORTS = ["", ":", ":0", ":00", ":00080", ":80", ":443", ":21", ":8x", ":65536", ":-1"]
PATHS = ["", "/", "/a/./b/../c", "/./", "/../", "/%2E", "/%2e%2E/x", "/a/..", "/a/.", "/\u00e9/%7E",
         "/A%2fB", "//x", "/" + "s" * 70]
TAILS = ["", "?", "?b=2&a=1", "?\u00e9=%7e", "#", "#f%41", "?q#f", "#\u00e9", "?a/../b#./c"]
for _ in range(4000):
    rows.append(rng.choice(SCHEMES) + "://" + rng.choice(USERS) + rng.choice(HOSTS)
                + rng.choice(PORTS) + rng.choice(PATHS) + rng.choice(TAILS))

# IDNA: hosts repeated, more distinct than the cache's slots, long forms,
# hosts IDNA rejects
distinct = ["b\u00fccher%d.example" % i for i in range(1500)]
LONG = ["\u00e9" * 40 + ".fr", "\u00fc" * 12 + "." + "\u00e9" * 12 + "." + "\u00e8" * 12 + ".de"]
FAILING = ["\u00e9\u200d.com", "xn--zz\u00e9.com", "-\u00e9.com", "\u00e9" * 70, "a\uff1ab"]
for _ in range(4000):
    r = rng.random()
    host = (rng.choice(distinct) if r < .4 else rng.choice(distinct[:3]) if r < .7
            else rng.choice(LONG) if r < .85 else rng.choice(FAILING))
    rows.append(rng.choice(["http://", "HTTPS://", "ws://u@"]) + host + rng.choice(PORTS[:7])
                + rng.choice(PATHS) + rng.choice(TAILS))


def single(s, **options):
    try:
        return pctcodec.normalize(s, **options)
    except ValueError:
        return None


def arrays(values):
    types = [pa.string(), pa.large_string()] + ([pa.string_view()] if hasattr(pa, "string_view") else [])
    for t in types:
        whole = pa.array(values, t)
        yield str(t), whole, 0
        yield str(t) + " sliced", whole.slice(3, len(values) - 4), 3
    yield "chunked", pa.chunked_array([pa.array(values[:1001]), pa.array(values[1001:])]), 0


fails = 0


def expect(label, got, want, start=0):
    global fails
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            fails += 1
            if fails < 10:
                print(f"{label}: {rows[start + i]!r}: {g!r} != {w!r}")
    if len(got) != len(want):
        fails += 1
        print(f"{label}: {len(got)} rows, not {len(want)}")


for options in ({}, {"drop_fragment": True}, {"sort_query": True}, {"strict_idna": True}):
    want = [single(s, **options) for s in rows]
    failed = [i for i, w in enumerate(want) if w is None]
    assert failed or options != {"strict_idna": True}, "no row fails"
    for threads in (1, 2):
        run = dict(options, threads=threads)
        rejects = []
        expect(f"list null {run}", pctcodec.normalize_many(rows, on_error="null", rejects=rejects, **run), want)
        expect(f"rejects {run}", [r[0] for r in rejects], failed)
        kept = pctcodec.normalize_many(rows, on_error="keep", **run)
        expect(f"list keep {run}", kept, [s if w is None else w for s, w in zip(rows, want)])
        good = [s for s, w in zip(rows, want) if w is not None]
        expect(f"list raise {run}", pctcodec.normalize_many(good, **run), [w for w in want if w is not None])
        if failed:
            try:
                pctcodec.normalize_many(rows, **run)
                fails += 1
                print(f"list raise {run}: no error")
            except ValueError:
                pass
        for label, array, start in arrays(rows):
            got = pctcodec.normalize_many(array, on_error="null", **run).to_pylist()
            expect(f"{label} {run}", got, want[start:start + len(array)], start)
print("done", len(rows), fails)
'''


@pytest.mark.parametrize("kernel", KERNELS)
def test_normalize_many_pass_equals_single_calls(kernel):
    assert_kernel_child_clean(CHILD, kernel)
