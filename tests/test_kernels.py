"""Every kernel this CPU runs, each in its own interpreter (PCTCODEC_KERNEL is
read once, at import), against urllib.parse on inputs placed around the
vector widths: all lengths 0-300 of escape-dense, all-safe, all-escaped and
malformed text, '%' and '%X' at the very end, non-ASCII, and random bytes;
escaped text of each str width at the sizes where unquote changes paths."""
import pytest

import pctcodec._pctcodec as ext
from _child import run_python

KERNELS = ext._kernels()

# Runs in the child: prints one line per disagreement with urllib.parse, then "done".
CHILD = r'''
import random, sys, urllib.parse
import pctcodec, pctcodec._pctcodec as ext

assert ext._kernel() == sys.argv[1], (ext._kernel(), sys.argv[1])
rng = random.Random(5)
ALPHABETS = [
    "abcXYZ019-._~/",
    "%%%+ aF9zZ/~-.\x7f\x00",
    "%%%%0123456789abcdefABCDEFgz+",
    " <>#&=?+\x01\x7f",
    "a%/ \xe9\u4e2d\U0001f600+",
]
inputs = []
for n in range(301):
    for alphabet in ALPHABETS:
        s = "".join(rng.choice(alphabet) for _ in range(n))
        inputs.append(s)
        if n:
            inputs.append(s[:-1] + "%")
            inputs.append(s[:-2] + "%A" if n >= 2 else "%")
fails = 0
def check(name, *args):
    global fails
    want = getattr(urllib.parse, name)(*args)
    got = getattr(pctcodec, name)(*args)
    if type(got) is not type(want) or got != want:
        fails += 1
        if fails < 10:
            print(f"{name}{args!r:.200}: {got!r:.200} != {want!r:.200}")
for s in inputs:
    b = s.encode("utf-8", "surrogatepass")
    for safe in ("/", "", "/ %+", "".join(map(chr, range(1, 128, 3)))):
        check("quote", s, safe)
        check("quote_plus", s, safe)
        check("quote_from_bytes", b, safe)
    check("unquote", s)
    check("unquote_plus", s)
    check("unquote_to_bytes", s)
    check("unquote", b)
    check("unquote_to_bytes", b)
# the batch path (pct_decode_room, then the vector UTF-8 check): every
# input a row, escaped UTF-8 among them
rows = inputs + [urllib.parse.quote(s) for s in inputs if s]
for name, many in (("unquote", pctcodec.unquote_many), ("unquote_plus", pctcodec.unquote_plus_many)):
    want = [getattr(urllib.parse, name)(s) for s in rows]
    got = many(rows, threads=1)
    bad = [(s, g, w) for s, g, w in zip(rows, got, want) if g != w]
    if bad or len(got) != len(want):
        fails += 1
        print(f"{name}_many: {len(bad)} rows differ, e.g. {bad[:1]!r:.300}")
for n in range(301):
    raw = bytes(rng.getrandbits(8) for _ in range(n))
    check("quote_from_bytes", raw)
    check("unquote_to_bytes", raw)
    if ext.encode(raw, b"/") != urllib.parse.quote_from_bytes(raw, "/").encode():
        fails += 1
        print("encode", raw)
    if ext.decode(raw, plus=True) != urllib.parse.unquote_to_bytes(raw.replace(b"+", b" ")):
        fails += 1
        print("decode", raw)
# Escaped text of each width (Latin-1, BMP, astral), cut at every length up
# to 80 and around the sizes where unquote changes paths (one fused pass
# below 32 bytes, the vector check from 64, short calls up to 512, the GIL
# released from 64 KiB), so also inside an escape or a character; then
# ill-formed UTF-8 inside long text.
for t in ("caf\xe9 \xff/", "\u4e2d\u6587 \u0416/", "\U0001f600 \U0010ffff x/"):
    esc = urllib.parse.quote(t * 3000)
    for n in [*range(80), 500, 511, 512, 513, 514, 1000, 70000, len(esc)]:
        s = esc[:n]
        for errors in ("replace", "ignore", "surrogateescape", "backslashreplace"):
            check("unquote", s, "utf-8", errors)
        check("unquote_plus", s.replace("%20", "+"))
        check("unquote", s.encode())
    for bad in ("%80", "%ED%A0%80", "%ED%A0%BD%ED%B2%A9", "%C0%AF", "%F4%90%80%80", "%E4%B8", "%F0%9F%98"):
        for s in (esc[:600] + bad + esc[:600], esc[:70000] + bad, bad + esc[:40]):
            check("unquote", s)
            check("unquote", s, "utf-8", "surrogateescape")
print("done", fails)
'''


@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_matches_urllib(kernel):
    r = run_python(["-c", CHILD, kernel], extra_env={"PCTCODEC_KERNEL": kernel}, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("done 0"), r.stdout


def test_kernel_list():
    assert KERNELS[-1] == "scalar"
    assert ext._kernel() in KERNELS


@pytest.mark.parametrize("value", ["", "auto"])
def test_default_kernel(value):
    r = run_python(["-c", "import pctcodec._pctcodec as m; print(m._kernel(), m._kernels()[0])"],
                   extra_env={"PCTCODEC_KERNEL": value}, text=True)
    assert r.returncode == 0, r.stderr
    chosen, best = r.stdout.split()
    assert chosen == best


def test_unknown_kernel_fails_loudly():
    r = run_python(["-c", "import pctcodec"], extra_env={"PCTCODEC_KERNEL": "mmx"}, text=True)
    assert r.returncode != 0
    assert "ImportError: PCTCODEC_KERNEL=mmx: no such kernel" in r.stderr
