"""The CSV reader of the table mode on every shape of input that docs/csv.md
lists: each test named there is here, and test_every_shape_has_its_test
checks that the table names only tests that exist. Outputs are compared with
the input byte for byte (the table mode changes only the column's fields) and
row splits with Python's csv module where its rules agree."""
import csv
import io
import re
from pathlib import Path

import pytest

from pctcodec import _pctcodec
from pctcodec.cli import _csv
from pctcodec.cli._csv import Reader
from test_cli_dirty import run, write

DOCS = Path(__file__).resolve().parent.parent / "docs" / "csv.md"


def rejects_of(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return list(csv.reader(f))[1:]


def requote(tmp_path, data, on_error, capsysbinary):
    """requote --column url on data under on_error with --rejects: (status,
    out, err, the rejected rows, the rejects path)."""
    path = write(tmp_path, data)
    rejects = str(tmp_path / "r.csv")
    status, out, err = run(["requote", "--column", "url", "--on-error", on_error,
                            "--rejects", rejects, path], capsysbinary)
    return status, out, err, rejects_of(rejects), rejects


def test_every_shape_has_its_test():
    names = re.findall(r"`(test_\w+)`", DOCS.read_text(encoding="utf-8"))
    assert len(names) >= 14
    missing = [name for name in names if name not in globals()]
    assert missing == []


# ---------------------------------------------------------------- ragged rows

def test_ragged_rows_are_failed_rows(tmp_path, capsysbinary):
    data = (b"url,x\nhttp://a/ b,1\nonly\nhttp://c/ d,2,extra\n\n"
            b"http://e/ f,3\n,\nhttp://g/ h,4\n")
    for on_error in ("keep", "null"):
        status, out, err, rejected, rejects = requote(tmp_path, data, on_error, capsysbinary)
        # the rows around them done; a ragged record written as it was
        assert status == 1
        assert out == (b"url,x\nhttp://a/%20b,1\nonly\nhttp://c/ d,2,extra\n\n"
                       b"http://e/%20f,3\n,\nhttp://g/%20h,4\n")
        assert err == f"pctcodec: 6 rows, 2 failed (see {rejects})\n".encode()
        assert rejected == [
            ["3", "2", "only", "1 fields where the header has 2"],
            ["4", "3", "http://c/ d,2,extra", "3 fields where the header has 2"]]
    # --on-error stop: the first one stops the run, named by its line
    path = str(tmp_path / "in.csv")
    status, out, err = run(["requote", "--column", "url", path], capsysbinary)
    assert status == 1
    assert err == (f"pctcodec: {path}:3: row 2: 1 fields where the header has 2 "
                   "(value 'only')\n").encode()


def test_ragged_rows_get_no_added_columns(tmp_path, capsysbinary):
    # split and query-param add fields after the column: a record without
    # the header's fields is written back as it was, without them
    data = b'url,n\nhttp://a/?q=1,1\nshort\n"http://b/?q=2"x,2\nhttp://c/,3,4\n"http://d/,5\n'
    path = write(tmp_path, data)
    status, out, err = run(["split", "--column", "url", "--parts", "host", "--on-error", "keep",
                            path], capsysbinary)
    assert status == 1 and err == b"pctcodec: 5 rows, 4 failed\n"
    assert out == (b'url,url_host,n\nhttp://a/?q=1,a,1\nshort\n"http://b/?q=2"x,,2\n'
                   b'http://c/,3,4\n"http://d/,5\n')
    status, out, _ = run(["query-param", "q", "--column", "url", "--on-error", "null", path],
                         capsysbinary)
    assert status == 1
    assert out.splitlines()[:3] == [b"url,url_q,n", b"http://a/?q=1,1,1", b"short"]


def test_ragged_row_after_many_rows(tmp_path, capsysbinary):
    # one short row after 10^5 good ones: the summary counts every row
    data = b"url,n\n" + b"HTTP://A/%7e,1\n" * 100_000 + b"x\n"
    path = write(tmp_path, data)
    out_path = tmp_path / "out.csv"
    rejects = str(tmp_path / "r.csv")
    status, _, err = run(["normalize", "--column", "url", "--on-error", "keep", "--rejects",
                          rejects, path, "-o", str(out_path)], capsysbinary)
    assert status == 1
    assert err == f"pctcodec: 100001 rows, 1 failed (see {rejects})\n".encode()
    assert out_path.read_bytes() == b"url,n\n" + b"http://a/~,1\n" * 100_000 + b"x\n"
    assert rejects_of(rejects) == [["100002", "100001", "x", "1 fields where the header has 2"]]


# ---------------------------------------------------------------- quotes

def test_stray_quote_costs_its_field_only(tmp_path, capsysbinary):
    # text after a closing quote: the field goes on to the next delimiter
    # (quotes in it are text), the record keeps its fields, as in Python's csv
    data = b'url,n\n"http://d/?q=3"x"y,3\nhttp://a/ b,4\n'
    assert [len(r) for r in csv.reader(io.StringIO(data.decode(), newline=""))] == [2, 2, 2]
    status, out, err, rejected, rejects = requote(tmp_path, data, "keep", capsysbinary)
    assert status == 1
    assert out == b'url,n\n"http://d/?q=3"x"y,3\nhttp://a/%20b,4\n'
    assert err == f"pctcodec: 2 rows, 1 failed (see {rejects})\n".encode()
    assert rejected == [
        ["2", "1", '"http://d/?q=3"x"y', "text after the closing quote of a quoted field"]]


def test_unclosed_quote_costs_its_line_only(tmp_path, capsysbinary):
    # a quote that never closes: its record is cut at the end of its line,
    # the next line is read as the next record
    data = b'url,n\nhttp://a/ b,1\n"http://c/ d,2\nhttp://e/ f,3\r\nhttp://g/ h,4'
    status, out, err, rejected, rejects = requote(tmp_path, data, "null", capsysbinary)
    assert status == 1
    assert out == data.replace(b"/ ", b"/%20").replace(b'"http://c/%20d', b'"http://c/ d')
    assert err == f"pctcodec: 4 rows, 1 failed (see {rejects})\n".encode()
    assert rejected == [
        ["3", "2", '"http://c/ d,2', "the quoted field 1 is not closed by the end of the file "
         "(the row is read to the end of its line)"]]


def test_quoted_newlines(tmp_path, capsysbinary):
    # quoted fields hold delimiters and every line end; lines are counted in them
    data = (b'id,url,note\n1,"http://a/ b","x\ny\r\nz\rw"\n2,"http://c/\n d",q\n'
            b'3,"bad"x,r\n')
    status, out, _, rejected, _ = requote(tmp_path, data, "keep", capsysbinary)
    assert status == 1
    assert out == data.replace(b"http://a/ b", b"http://a/%20b").replace(b"\n d", b"%0A%20d")
    assert rejected[0][:2] == ["8", "3"]  # file line 8, data row 3


# ---------------------------------------------------------------- line ends

LINE_ENDS = {
    "lf": b"url,x\nHTTP://A.example/%7e,1\nhttp://b/ c,2\n",
    "crlf": b"url,x\r\nHTTP://A.example/%7e,1\r\nhttp://b/ c,2\r\n",
    "cr": b"url,x\rHTTP://A.example/%7e,1\rhttp://b/ c,2\r",
    "mixed": b"url,x\r\nHTTP://A.example/%7e,1\rhttp://b/ c,2\n\r\rhttp://b/ c,3\r\n",
}


@pytest.mark.parametrize("kind", sorted(LINE_ENDS))
def test_line_ends_kept(kind, tmp_path, capsysbinary):
    data = LINE_ENDS[kind]
    # Python's csv reads these as the same rows
    records = [r for r in csv.reader(io.StringIO(data.decode(), newline="")) if r]
    path = write(tmp_path, data)
    status, out, err = run(["normalize", "--column", "url", path], capsysbinary)
    assert (status, err) == (0, b"")
    want = data.replace(b"HTTP://A.example/%7e", b"http://a.example/~").replace(b"/ c", b"/%20c")
    assert out == want  # every line end written back as it was
    status, out, _ = run(["check", "--column", "url", path], capsysbinary)
    assert status == 1
    # one report per failing row, named by its file line (blank lines counted)
    lines = [i + 1 for i, line in enumerate(data.splitlines()) if line.startswith(b"http://b/ c")]
    assert [int(line.split(b":")[0]) for line in out.splitlines()] == lines
    assert len(lines) == sum(1 for r in records[1:] if r[0].startswith("http://b/ c"))


def test_no_final_newline(tmp_path, capsysbinary):
    for end in (b"", b"\r"):
        path = write(tmp_path, b"url\nhttp://a/ b\nhttp://c/ d" + end)
        status, out, _ = run(["requote", "--column", "url", path], capsysbinary)
        assert (status, out) == (0, b"url\nhttp://a/%20b\nhttp://c/%20d" + end)


def test_empty_result_in_one_column_is_a_row(tmp_path, capsysbinary):
    # a record of one empty field is written "" (as csv.writer writes it): a
    # blank line would be no record when read back, the rows after it shifted
    one = b"url\nhttp://a/\nhttp://bad\xc2\xa0host/\nhttp://c/\n"
    path = write(tmp_path, one)
    status, out, err = run(["normalize", "--strict-idna", "--column", "url", "--on-error",
                            "null", path], capsysbinary)
    assert (status, out) == (1, b'url\nhttp://a/\n""\nhttp://c/\n')
    rows = list(csv.reader(io.StringIO(out.decode(), newline="")))
    assert rows == [["url"], ["http://a/"], [""], ["http://c/"]]
    assert list(_csv_rows(out)) == ["http://a/", "", "http://c/"]
    # normalize(" ") is "": each line end kept, the last record without one too
    path = write(tmp_path, b"url\r\n \r\n\n \r \n ")
    status, out, _ = run(["normalize", "--column", "url", path], capsysbinary)
    assert (status, out) == (0, b'url\r\n""\r\n\n""\r""\n""')
    # a field beside others stays empty (the record is no blank line)
    path = write(tmp_path, b"url,n\n ,1\nn,url\n1, \n")
    status, out, _ = run(["normalize", "--column", "url", path], capsysbinary)
    assert (status, out) == (0, b"url,n\n,1\nn,url\n1, \n")


def _csv_rows(data):
    """The url column of data as pctcodec's own reader reads it."""
    reader = Reader(io.BytesIO(data), b",")
    reader.header()
    for _, values, _, _, _ in reader.chunks(0, 1, 100):
        yield from values


# ---------------------------------------------------------------- bytes

def test_bom_kept_and_not_in_the_header(tmp_path, capsysbinary):
    data = b'\xef\xbb\xbfurl,n\rhttp://a/ b,1\r'
    path = write(tmp_path, data)
    status, out, _ = run(["requote", "--column", "url", path], capsysbinary)
    assert (status, out) == (0, b'\xef\xbb\xbfurl,n\rhttp://a/%20b,1\r')


def test_nul_bytes_are_data(tmp_path, capsysbinary):
    data = b'url,n\x00m\nhttp://a/\x00 b,1\x002\n"\x00",3\n'
    path = write(tmp_path, data)
    status, out, _ = run(["requote", "--column", "url", path], capsysbinary)
    assert (status, out) == (0, b'url,n\x00m\nhttp://a/%00%20b,1\x002\n"%00",3\n')


def test_empty_file(tmp_path, capsysbinary):
    for data in (b"", b"\n\r\n\r"):
        path = write(tmp_path, data)
        status, out, err = run(["requote", "--column", "url", path], capsysbinary)
        assert (status, out) == (2, b"") and b"no header" in err


def test_header_only(tmp_path, capsysbinary):
    for data in (b"url", b"url\r", b"\n\nid,url\r\n"):
        path = write(tmp_path, data)
        assert run(["requote", "--column", "url", path], capsysbinary) == (0, data, b"")


# ---------------------------------------------------------------- size: one pass

class Scanned:
    """The reader's C calls, counting the bytes each is given to scan."""

    def __init__(self):
        self.total = 0

    def __getattr__(self, name):
        function = getattr(_pctcodec, name)

        def counted(buf, pos, *args):
            self.total += len(buf) - pos
            return function(buf, pos, *args)

        return counted


def read_all(data, index, block):
    reader = Reader(io.BytesIO(data), b",", block=block)
    names = reader.header()[1]
    rows = sum(len(chunk[1]) for chunk in reader.chunks(index, len(names), 1000))
    return names, rows


@pytest.mark.parametrize("block", [1 << 12, 1 << 20])
def test_wide_header_is_one_pass(block, monkeypatch):
    # a header of 20 000 fields: the bytes given to the C reader stay a small
    # multiple of the header (each field once, not the header again for each
    # field, as when reading it was quadratic); then its row is read
    header = b",".join(b"c%d" % i for i in range(20_000)) + b"\n"
    data = header + b"x," * 19_999 + b"y\n"
    scanned = Scanned()
    monkeypatch.setattr(_csv, "_pctcodec", scanned)
    reader = Reader(io.BytesIO(data), b",", block=block)
    raw, names = reader.header()
    assert (raw, len(names), names[-1]) == (header, 20_000, "c19999")
    assert scanned.total <= 4 * len(data)
    monkeypatch.undo()
    assert read_all(data, 19_999, block) == (names, 1)


@pytest.mark.parametrize("block", [1 << 12, 1 << 20])
def test_long_field_is_one_pass(block, monkeypatch):
    # a quoted field of 4 MB read in blocks of 4 kB: each read at least
    # doubles what is pending, so the bytes scanned stay linear
    field = b'"' + b"a, \n\r\"\"" * (1 << 19) + b'"'
    data = b"n,url\n" + field + b",http://a/\n1,http://b/\n"
    scanned = Scanned()
    monkeypatch.setattr(_csv, "_pctcodec", scanned)
    assert read_all(data, 1, block) == (["n", "url"], 2)
    assert scanned.total <= 4 * len(data)


@pytest.mark.slow
def test_wide_header_of_100k_fields(tmp_path, capsysbinary):
    data = (b",".join(b"c%d" % i for i in range(100_000)) + b",url\n"
            + b"," * 100_000 + b"http://a/ b\n")
    path = write(tmp_path, data)
    status, out, _ = run(["requote", "--column", "url", path], capsysbinary)
    assert (status, out) == (0, data.replace(b"/ b", b"/%20b"))


@pytest.mark.slow
def test_field_of_100_mb(tmp_path, capsysbinary):
    big = b'"' + b"x," * (50 << 20) + b'"'
    data = b"note,url\n" + big + b",http://a/ b\n1,http://c/\n"
    path = write(tmp_path, data)
    out_path = tmp_path / "out.csv"
    status, _, _ = run(["requote", "--column", "url", path, "-o", str(out_path)], capsysbinary)
    assert status == 0
    assert out_path.read_bytes() == data.replace(b"/ b", b"/%20b")
