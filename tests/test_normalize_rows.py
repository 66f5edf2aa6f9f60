"""normalize_many's row path against the single call, under every kernel this
CPU runs (each in its own interpreter: PCTCODEC_KERNEL is read at import).

A kernel with the vector class pass (AVX2) splits and writes the rows of a
batch off its bit masks, rows of up to 256 bytes, one 64-bit word of masks
up to 64; the others, longer rows and the single call (pctcodec.normalize)
take the plain split and writer. So the single call is the reference: the
same value, or the same failure, for URL-shaped and random text at every
length 0-300 (across the 32-, 64- and 256-byte edges of the masks), dense
in delimiters, escapes (%2E that decodes to a dot segment), IP literals
with zones, ports, userinfo, uppercase and non-ASCII hosts (their IDNA
forms of every length up to 80), and rows with no byte to change (written
as block copies) with every kind of part."""
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
rng = random.Random(11)
PREFIXES = ["", "http://", "HTTPS://", "ftp://u:p@", "//", "a:", "s+v.1://", "x://[::1]",
            "ws://[fe80::1%25EtH0]:80", "http://%41b.COM:0443", "http://h:8%30", "HtTp://u@v@w:",
            "wss://\u00e9cole.fr", "http://\u4e2d.\u6587", "http://xn--cole-9oa.fr", "./", "/.", ".."]
PIECES = list(":/?#@%[].-_~!$&'()*+,;=aAzZ09 \"<>\\^`{|}\x7f\x00\u00e9\u4e2d") + [
    "%2e", "%2E", "%41", "%7e", "%3A", "%e4", "%C3%A9", "%", "%g", "%2", "//", "/./", "/../",
    "..", ".", "/.", "?", "#", "&b=1", "=", ":80", ":", "@", "%25", "/%2E%2E/", "/%2e"]
rows = []
for n in range(301):
    for _ in range(6):
        s = rng.choice(PREFIXES)
        while len(s.encode()) < n:
            s += rng.choice(PIECES)
        rows.append(s.encode()[:n].decode("utf-8", "ignore"))
# rows with no byte to change (the writer's block copies): every part,
# case, port (default, zeros, empty, not a number), userinfo, empty path
CLEAN = ["HTTP://", "https://", "//", "Ws://u:P@", "ftp://@", "A+b.C://"]
HOSTS = ["", "H", "Ex.COM", "[::1]", "[V1.Fe:8]", "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p"]
PORTS = ["", ":", ":80", ":0443", ":00", ":8a", ":21", "::"]
TAILS = ["", "/", "/A/b", "?", "?Q=1&A", "#", "#F/G", "/p?q#f", "/x/y.z?a.b#..", "?#", "/a//b"]
for n in range(200):
    s = rng.choice(CLEAN) + rng.choice(HOSTS) + rng.choice(PORTS) + rng.choice(TAILS)
    while len(s) < n:
        s += rng.choice(TAILS + ["Ab", "x" * 17, "/seg"])
    rows.append(s)
# hosts whose IDNA form replaces them, of every length 1-80 (the writer
# copies a form a word at a time, its last word overlapping), capitals,
# userinfo, ports
for k in range(81):
    label = ("\u00e9" + "Ab" * 40)[:max(k - 7, 1)]
    rows.append("http://" + label + "/p?q")
    rows.append("HTTPS://u:P@" + label[::-1] + ".De:443/" + "x" * (k % 9))
    rows.append("ws://" + "\u4e2d" * (1 + k % 5) + "." + "Q" * k + ":8080#f")
for k in (1, 2, 4, 8, 16, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 257):
    rows.append("http://h.com/" + "a/" * k + "./b")
    rows.append("http://H.COM" + ":" * (k % 3) + "/" + "%2E" * k)
    rows.append("http://" + "a" * k + "@B.c/" + "\u00e9" * k)

def single(s, **options):
    try:
        return pctcodec.normalize(s, **options)
    except ValueError:
        return None

fails = 0
for options in ({}, {"sort_query": True, "drop_fragment": True}, {"drop_fragment": True}):
    want = [single(s, **options) for s in rows]
    for got in (pctcodec.normalize_many(rows, on_error="null", threads=1, **options),
                pctcodec.normalize_many(pa.array(rows, pa.string()), on_error="null", **options).to_pylist()):
        for s, g, w in zip(rows, got, want):
            if g != w:
                fails += 1
                if fails < 10:
                    print(f"{s!r}: {g!r} != {w!r}")
print("done", len(rows), fails)
'''


@pytest.mark.parametrize("kernel", KERNELS)
def test_normalize_many_equals_single_calls(kernel):
    assert_kernel_child_clean(CHILD, kernel)
