"""``pctcodec split --column``: the components of a URI column added as new
columns right after it, every other byte of the table as it was."""
import csv
import io
from pathlib import Path

import pytest

from pctcodec import split
from pctcodec.cli import main
from test_cli_tables import run, write

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "urls.csv"
PARTS = ["scheme", "userinfo", "host", "port", "path", "query", "fragment"]


def rows(data):
    """The records of a CSV output, a byte that is not UTF-8 as its surrogate."""
    return list(csv.reader(io.StringIO(data.decode("utf-8", "surrogateescape"), newline="")))


def test_example_split_row_by_row(capsysbinary):
    status, out, err = run(["split", "--column", "url", str(EXAMPLE)], capsysbinary)
    assert (status, err) == (0, b"")
    before, after = rows(EXAMPLE.read_bytes()), rows(out)
    assert len(after) == len(before) > 200
    assert after[0] == ["id", "url", *("url_" + p for p in PARTS), "title"]
    for old, new in zip(before[1:], after[1:]):
        assert new[:2] == old[:2] and new[-1] == old[-1]
        assert new[2:9] == ["" if v is None else v for v in split(old[1])]


@pytest.mark.parametrize("chunk", ["1", "3", "32768"])
def test_other_bytes_kept(chunk, tmp_path, capsysbinary):
    # needless quotes, doubled quotes, a quote inside an unquoted field,
    # multi-line fields, CRLF, a blank line, a byte that is not UTF-8 (its
    # escape in a new field), no final terminator: all as they were; the new
    # fields quoted only when
    # they must be (a delimiter, a quote or a line break in them).
    data = (b'id,"url",note\r\n'
            b'1,"http://a.example/p?x=1,2#f",plain\r\n'
            b'2,http://u@b.example:8/a"b,"two\r\nlines"\r\n'
            b'\r\n'
            b'3,,""\r\n'
            b'4,"h\xff://x\r\ny?q",x')
    path = write(tmp_path, data)
    status, out, err = run(["split", "--column", "url", "--parts", "host,query,path",
                            "--chunk-size", chunk, path], capsysbinary)
    assert (status, err) == (0, b"")
    assert out == (b'id,"url",url_host,url_query,url_path,note\r\n'
                   b'1,"http://a.example/p?x=1,2#f",a.example,"x=1,2",/p,plain\r\n'
                   b'2,http://u@b.example:8/a"b,b.example,,"/a""b","two\r\nlines"\r\n'
                   b'\r\n'
                   b'3,,,,,""\r\n'
                   b'4,"h\xff://x\r\ny?q",,q,"h%FF://x\r\ny",x')
    table = rows(out)
    assert table[5] == ["4", "h\udcff://x\r\ny?q", "", "q", "h%FF://x\r\ny", "x"]


def test_tsv_and_output_file(tmp_path, capsysbinary):
    path = write(tmp_path, b"url\tn\nhttps://h.example/a?b#c\t1\n", "in.tsv")
    target = tmp_path / "out.tsv"
    status, out, err = run(["split", "--column", "url", "--parts", "fragment,scheme", path,
                            "-o", str(target)], capsysbinary)
    assert (status, out, err) == (0, b"", b"")
    assert target.read_bytes() == b"url\turl_fragment\turl_scheme\tn\nhttps://h.example/a?b#c\tc\thttps\t1\n"


def test_usage_errors(tmp_path, capsysbinary):
    path = write(tmp_path, b"url,url_host\nhttp://h/,x\n")
    status, out, err = run(["split", "--column", "url", path], capsysbinary)
    assert (status, out) == (2, b"")
    assert b"already has a column named 'url_host'" in err
    status, out, err = run(["split", "--column", "url", "--parts", "scheme", path], capsysbinary)
    assert (status, out) == (0, b"url,url_scheme,url_host\nhttp://h/,http,x\n")
    with pytest.raises(SystemExit) as info:
        main(["split", path])
    assert info.value.code == 2
    assert b"split adds columns to a table: give --column" in capsysbinary.readouterr().err
    status, out, err = run(["split", "--column", "url", "--parts", "host,nope", path], capsysbinary)
    assert (status, out) == (2, b"") and b"no part 'nope'" in err
    with pytest.raises(SystemExit):
        main(["normalize", "--parts", "host", path])
    assert b"--parts applies to split, domain and parse-url only" in capsysbinary.readouterr().err
    status, out, err = run(["split", "--column", "nope", path], capsysbinary)
    assert status == 2 and b"no column 'nope'" in err


def test_malformed_field_is_a_failed_row(tmp_path, capsysbinary):
    path = write(tmp_path, b'url,n\n"http://a/"x,1\nhttp://b/,2\n')
    rejects = tmp_path / "bad.csv"
    status, out, err = run(["split", "--column", "url", "--parts", "host", "--on-error", "null",
                            "--rejects", str(rejects), path], capsysbinary)
    assert status == 1
    assert out == b'url,url_host,n\n"http://a/"x,,1\nhttp://b/,b,2\n'
    assert b"2 rows, 1 failed" in err
    assert rows(rejects.read_bytes())[1][:3] == ["2", "1", '"http://a/"x']
    out_path = tmp_path / "out.csv"
    status, out, err = run(["split", "--column", "url", path, "-o", str(out_path)], capsysbinary)
    assert (status, out) == (1, b"") and not out_path.exists()
    assert err.startswith(f"pctcodec: {path}:2: row 1: text after the closing quote".encode())


def test_parquet(tmp_path, capsysbinary):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    urls = ["https://u@a.example:8/p?q#f", None, "rel", "mailto:x@y", ""] * 50
    for typ in (pa.string(), pa.large_string()):
        table = pa.table({"id": pa.array(range(len(urls))), "url": pa.array(urls, typ)},
                         metadata={b"k": b"v"})
        src, dst = tmp_path / "in.parquet", tmp_path / "out.parquet"
        pq.write_table(table, src, row_group_size=100, compression="zstd")
        status, out, err = run(["split", "--column", "url", "--chunk-size", "7", str(src),
                                "-o", str(dst)], capsysbinary)
        assert (status, out, err) == (0, b"", b"")
        got = pq.read_table(dst)
        assert got.column_names == ["id", "url", *("url_" + p for p in PARTS)]
        assert got.schema.metadata == {b"k": b"v"}
        assert all(got.schema.field("url_" + p).type == typ for p in PARTS)
        assert got.column("url").to_pylist() == urls
        for k, part in enumerate(PARTS):
            assert got.column("url_" + part).to_pylist() == \
                [None if u is None else split(u)[k] for u in urls], part
        meta = pq.ParquetFile(dst).metadata
        assert meta.num_row_groups == 3
        assert meta.row_group(0).column(4).compression.lower() == "zstd"


def test_bytes_not_utf8_give_the_parts_parquet_gives(tmp_path, capsysbinary):
    # a byte that is not UTF-8 is written as its escape in the new fields, as
    # split on a Parquet column (split_many on Arrow) writes it: CSV wrote it
    # raw (the column itself stays as it was)
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import struct

    from pctcodec import split_many
    raw = [b"http://h\xff.com/p\xfe?q=\xe9", b"x\xc3/\xed\xa0\x80#\xc3\xa9"]
    path = write(tmp_path, b"url\n" + b"\n".join(raw) + b"\n")
    status, out, err = run(["split", "--column", "url", path], capsysbinary)
    assert (status, err) == (0, b"")
    assert out.splitlines()[1:] == [raw[0] + b",http,,h%FF.com,,/p%FE,q=%E9,",
                                    raw[1] + b",,,,,x%C3/%ED%A0%80,,\xc3\xa9"]
    offsets = struct.pack("<3i", 0, len(raw[0]), len(raw[0]) + len(raw[1]))
    column = pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(offsets),
                                                    pa.py_buffer(b"".join(raw))])
    src, dst = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"url": column}), src)
    status, _, err = run(["split", "--column", "url", str(src), "-o", str(dst)], capsysbinary)
    assert (status, err) == (0, b"")
    got = pq.read_table(dst).drop_columns(["url"]).to_pylist()
    from_csv = [dict(zip(["url_" + p for p in PARTS], r[1:])) for r in rows(out)[1:]]
    assert [{k: v or "" for k, v in r.items()} for r in got] == from_csv
    assert [dict(zip(PARTS, (p or "" for p in r.values()))) for r in
            split_many(column).to_pylist()] == [{k[4:]: v for k, v in r.items()} for r in from_csv]
