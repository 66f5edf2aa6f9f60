"""check_many's one-pass check of runs of rows (pct_batch.c check_rows, the
kernels' uri_offence_bits) against a reading of RFC 3986 written here, under
every kernel this CPU runs (each in its own interpreter: PCTCODEC_KERNEL is
read at import), on the columns a run can get wrong: empty and null rows,
nulls whose offsets span bytes (Arrow allows any bytes under a null, even
'%' and hex digits that the row before would read as its escape), rows
around and past the 16 KiB of a run, '%' or '%X' in the last bytes of a row
followed by hex digits in the next, non-ASCII text (positions count
characters), arrays sliced to odd offsets, both offset widths and views."""
import pytest

import pctcodec._pctcodec as ext
from _child import run_python

KERNELS = ext._kernels()

CHILD = r'''
import array, random, sys
import pyarrow as pa
import pctcodec, pctcodec._pctcodec as ext

assert ext._kernel() == sys.argv[1], (ext._kernel(), sys.argv[1])
rng = random.Random(23)

# RFC 3986 2.1-2.3: unreserved, gen-delims, sub-delims, and '%' HEXDIG HEXDIG
ALLOWED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
              ":/?#[]@" "!$&'()*+,;=")
HEXDIG = set("0123456789ABCDEFabcdef")

def first_offence(s):
    i = 0
    while i < len(s):
        if s[i] == "%" and s[i + 1:i + 2] in HEXDIG and s[i + 2:i + 3] in HEXDIG:
            i += 3
        elif s[i] in ALLOWED:
            i += 1
        else:
            return i
    return None

PIECES = ["a", "/", "?", "%41", "%", "%4", "%zz", "4", "F", " ", "\u00e9", "\u4e2d", "\U0001f600",
          "\x7f", "\x00", "^", "{", "%%", "%a", "#", "[", "]"]

def text(n, pieces):
    s = ""
    while len(s) < n:
        s += rng.choice(pieces)
    return s[:n]

rows = []
for n in list(range(130)) + [16382, 16383, 16384, 16385, 20000, 40000]:
    rows.append(text(n, ["a"] * 40 + PIECES))
    rows.append(text(n, PIECES))
for n in (16383, 16384, 16385, 33000):
    rows += ["a" * n, "a" * (n - 1) + " ", "a" * (n - 2) + "%4", "a" * (n - 1) + "%"]
# a '%' or '%X' ending a row, hex digits starting the next
for _ in range(400):
    rows.append("a" * rng.randrange(130) + rng.choice(["%", "%4", "%A", "", "%41", "\u00e9%"]))
    rows.append(rng.choice(["41", "4", "1zz", "FF", "", "/x", "\u00e9"]))
    if rng.random() < 0.2:
        rows.append(None)
    if rng.random() < 0.1:
        rows.append("")

fails = 0
def compare(values, arr, what):
    global fails
    want = [None if v is None else first_offence(v) for v in values]
    for threads in (1, 2):
        got = pctcodec.check_many(arr, threads=threads)
        got = got.to_pylist() if hasattr(got, "to_pylist") else list(got)
        if got != want:
            fails += 1
            bad = [i for i in range(len(want)) if got[i] != want[i]][:3]
            print(what, threads, [(values[i][:40], len(values[i]), want[i], got[i]) for i in bad])

compare(rows, rows, "list")
for typ in (pa.string(), pa.large_string(), pa.string_view()):
    arr = pa.array(rows, typ)
    compare(rows, arr, typ)
    for offset in (1, 3, 5):
        compare(rows[offset:], arr.slice(offset), (typ, "slice", offset))
    compare(rows[2:-3], arr.slice(2, len(rows) - 5), (typ, "middle"))

# nulls over bytes: the text of a null row is there, and is any text
for trial in range(300):
    n = rng.randrange(1, 60)
    skip = rng.randrange(9)
    body, offsets, values = bytearray(b"q" * skip), [skip], []
    for i in range(n):
        s = rng.choice(rows[-1200:]) or ""
        if len(s) > 200:
            s = s[:200]
        body += s.encode()
        offsets.append(len(body))
        values.append(None if rng.random() < 0.3 else s)
    bits = bytearray((n + 7) // 8)
    for i, v in enumerate(values):
        if v is not None:
            bits[i // 8] |= 1 << (i % 8)
    for typ, code in ((pa.string(), "i"), (pa.large_string(), "q")):
        arr = pa.Array.from_buffers(typ, n, [pa.py_buffer(bytes(bits)),
                                             pa.py_buffer(array.array(code, offsets).tobytes()),
                                             pa.py_buffer(bytes(body))], null_count=values.count(None))
        arr.validate(full=True)
        assert arr.to_pylist() == values
        compare(values, arr, ("from_buffers", typ, trial))
print("done", len(rows), fails)
'''


@pytest.mark.parametrize("kernel", KERNELS)
def test_check_many_runs_match_the_grammar(kernel):
    pytest.importorskip("pyarrow")
    r = run_python(["-c", CHILD, kernel], extra_env={"PCTCODEC_KERNEL": kernel}, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip().endswith(" 0"), r.stdout
