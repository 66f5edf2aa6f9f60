"""Time the table mode's CSV reader on every shape of docs/csv.md, per MB.

    python benchmarks/bench_csv_shapes.py [--quick] [--mb N] [--repeats R]

Each shape is a file of about --mb MB (default 20; the long field: --mb
times 5, so 100 MB by default; --quick: 2 MB and 10 MB), read whole by the reader
(src/pctcodec/cli/_csv.py: the header, then every row cut around one column,
in the blocks of 1 MB the command line reads) and, as a peer, by Python's
``csv.reader`` over the same bytes decoded (its field size limit lifted).
Printed: the reader's seconds per MB, that time over the one of ordinary
rows (a single linear pass: the wide header and the long field cost per MB
what ordinary rows do), and the reader's time over csv's. Before timing,
the rows counted by both are checked equal, and the reader's gaps and
fields checked to give back the input byte for byte. CPU time of the
process, best of --repeats: the machine is shared, so read ratios, not
absolute times.
"""
import argparse
import csv
import io
import sys
import time

from pctcodec import _pctcodec
from pctcodec.cli._csv import Reader

csv.field_size_limit(sys.maxsize)


def ordinary(mb, end=b"\n"):
    row = b"%d,https://example.com/a/path/%d?q=%d&utm_source=x,a short note" + end
    rows = [row % (i, i, i) for i in range(mb * (1 << 20) // len(row % (0, 0, 0)) + 1)]
    return b"id,url,note" + end + b"".join(rows)


def mixed(mb):
    ends = [b"\n", b"\r\n", b"\r"]
    row = b"%d,https://example.com/a/path/%d?q=%d,note%s"
    count = mb * (1 << 20) // len(row % (0, 0, 0, b"\n")) + 1
    return b"id,url,note\n" + b"".join(row % (i, i, i, ends[i % 3]) for i in range(count))


def every_tenth(mb, bad):
    data = ordinary(mb).split(b"\n")
    data[1::10] = [bad] * len(data[1::10])
    return b"\n".join(data)


def wide_header(mb):
    fields = 100_000
    header = b",".join(b"column_%d" % i for i in range(fields)) + b"\n"
    row = b",".join(b"v%d" % i for i in range(fields)) + b"\n"
    return header + row * max(1, (mb * (1 << 20) - len(header)) // len(row))


def long_field(mb):
    field = b'"' + b"a, \nb\"\"" * (mb * (1 << 20) // 8) + b'"'
    return b"id,url,note\n1,https://example.com/," + field + b"\n2,https://example.com/b,x\n"


SHAPES = [
    ("ordinary rows, LF", lambda mb: ordinary(mb)),
    ("CRLF", lambda mb: ordinary(mb, b"\r\n")),
    ("CR", lambda mb: ordinary(mb, b"\r")),
    ("mixed line ends", mixed),
    ("a BOM", lambda mb: b"\xef\xbb\xbf" + ordinary(mb)),
    ("NUL bytes", lambda mb: ordinary(mb).replace(b"note", b"n\x00te")),
    ("quoted newlines", lambda mb: ordinary(mb).replace(b"a short note", b'"a\nshort, ""note"""')),
    ("ragged rows (1 in 10)", lambda mb: every_tenth(mb, b"short")),
    ("stray quotes (1 in 10)", lambda mb: every_tenth(mb, b'1,"https://e.com/"x"y,z')),
    ("header of 10^5 fields", wide_header),
    ("a 100 MB field", long_field),
]


def read(data):
    """The reader over data: (rows, the input rebuilt from gaps and fields)."""
    reader = Reader(io.BytesIO(data), b",")
    raw, names = reader.header()
    parts = [reader.bom, raw]
    rows = 0
    for gaps, values, flags, _, _ in reader.chunks(1, len(names), 32768):
        rows += len(values)
        fields = [v if isinstance(v, bytes) else
                  (b'"%s"' % v.encode("utf-8", "surrogateescape").replace(b'"', b'""')
                   if f == 1 else v.encode("utf-8", "surrogateescape"))
                  for v, f in zip(values, flags)]
        parts.append(_pctcodec._csv_join(gaps, fields, flags, b","))
    return rows, b"".join(parts)


def count(data):
    reader = Reader(io.BytesIO(data), b",")
    names = reader.header()[1]
    return sum(len(chunk[1]) for chunk in reader.chunks(1, len(names), 32768))


def peer_count(data):
    text = data.decode("utf-8", "surrogateescape").lstrip("\ufeff")
    return sum(1 for row in csv.reader(io.StringIO(text, newline="")) if row) - 1


def best(function, data, repeats):
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function(data)
        times.append(time.process_time() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small files, one repeat (CI smoke run)")
    parser.add_argument("--mb", type=int, default=20, help="size of each file in MB (default 20)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    mb, repeats = (2, 1) if args.quick else (args.mb, args.repeats)
    print(f"CSV reader, seconds per MB (CPU time, best of {repeats}); files of about {mb} MB, "
          f"the long field {mb * 5} MB")
    print(f"{'shape':26} {'MB':>6} {'s/MB':>8} {'x ordinary':>11} {'x csv':>7}")
    base = None
    for name, make in SHAPES:
        data = make(mb * 5 if make is long_field else mb)
        rows, rebuilt = read(data)
        assert rebuilt == data, name  # the input back byte for byte
        peer = peer_count(data)
        assert rows == peer, (name, rows, peer)  # the same rows as Python's csv
        ours = best(count, data, repeats) / (len(data) / 1e6)
        theirs = best(peer_count, data, repeats) / (len(data) / 1e6)
        base = base or ours
        print(f"{name:26} {len(data) / 1e6:6.1f} {ours:8.4f} {ours / base:11.2f} {ours / theirs:7.2f}")


if __name__ == "__main__":
    main()
