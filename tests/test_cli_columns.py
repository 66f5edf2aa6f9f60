"""The commands that add columns on CSV (split, domain, query-param
--column): the Arrow path gives the bytes the row-by-row path gives;
query-param with several names; a UTF-8 byte order mark in the line mode."""
import csv
import io

import pytest

from pctcodec import query_param, split
from pctcodec.cli import main
from pctcodec.cli import _tables
from test_cli import run  # the command line on stdin data

# quoted fields, a plain field holding a quote, new fields that need quotes
# (a delimiter, a quote, a line break in the part), empty and absent parts,
# non-ASCII text
TRICKY = (b"id,url,n\r\n"
          b"1,\"http://a/\"\"q\"\"?x=1,2\",a\r\n"
          b"2,plain\"quote,b\r\n"
          b"3,,c\r\n"
          b"4,\"http://h/p?q=a%2Cb&q=2&page=\",d\r\n"
          b"5,\"http://x/\nnl?q=1#f,g\",e\r\n"
          b"6,https://b\xc3\xbccher.example/\xc3\xa9?q=\xc3\xa9,f\r\n"
          b"7,//u:p@h:8/?,g\r\n")


def _both(argv, tmp_path, capsysbinary, monkeypatch, data=TRICKY, chunk="3"):
    """The output with the Arrow (or list) path and with the row-by-row one."""
    path = tmp_path / "in.csv"
    path.write_bytes(data)
    outs = []
    for arrow in (True, False):
        if not arrow:
            monkeypatch.setattr(_tables, "_added_columns", lambda *args: None)
        status = main([*argv, "--chunk-size", chunk, str(path)])
        out, err = capsysbinary.readouterr()
        outs.append((status, out, err))
    monkeypatch.undo()
    return outs


@pytest.mark.parametrize("argv", [
    ["split", "--column", "url"],
    ["split", "--column", "url", "--parts", "query,host"],
    ["domain", "--column", "url", "--on-error", "null"],
    ["query-param", "q", "--column", "url"],
    ["query-param", "q,page", "--column", "url"],
    ["domain", "--column", "url", "--parts", "registered_domain", "--on-error", "null"],
    ["split", "--column", "url", "--delimiter", ";"],
])
def test_arrow_path_writes_what_the_rows_path_writes(argv, tmp_path, capsysbinary, monkeypatch):
    pytest.importorskip("pyarrow")
    data = TRICKY if "--delimiter" not in argv else TRICKY.replace(b",", b";")
    (status, out, err), slow = _both(argv, tmp_path, capsysbinary, monkeypatch, data)
    assert (status, out, err) == slow
    assert status == 0
    rows = list(csv.reader(io.StringIO(out.decode(), newline=""),
                           delimiter=";" if "--delimiter" in argv else ","))
    urls = [r[1] for r in csv.reader(io.StringIO(data.decode(), newline=""),
                                     delimiter=";" if "--delimiter" in argv else ",")][1:]
    if argv[0] == "split" and "--parts" not in argv:
        assert [r[2:9] for r in rows[1:]] == [[p or "" for p in split(u)] for u in urls]
        assert rows[1][:2] == ["1", urls[0]]
    if argv[1] == "q,page":
        assert rows[0] == ["id", "url", "url_q", "url_page", "n"]
        assert [r[2:4] for r in rows[1:]] == [[query_param(u, "q") or "", query_param(u, "page") or ""]
                                              for u in urls]


def test_arrow_path_falls_back_on_bytes_that_are_not_utf8(tmp_path, capsysbinary, monkeypatch):
    pytest.importorskip("pyarrow")
    data = b"url\nhttp://a/\xff?q=1\nhttp://b/?q=2\n"
    fast, slow = _both(["split", "--column", "url", "--parts", "host,query", "--on-error", "null"],
                       tmp_path, capsysbinary, monkeypatch, data, "10")
    assert fast == slow
    assert fast[1].splitlines()[2] == b"http://b/?q=2,b,q=2"


def test_query_param_several_names(tmp_path, capsysbinary):
    # `query-param q,page` made one column named url_q,page
    path = tmp_path / "in.csv"
    path.write_bytes(b"url\nhttp://a/?page=2&q=x\nhttp://b/\n")
    assert main(["query-param", "q,page", "--column", "url", str(path)]) == 0
    assert capsysbinary.readouterr()[0] == b"url,url_q,url_page\nhttp://a/?page=2&q=x,x,2\nhttp://b/,,\n"


@pytest.mark.parametrize("name, message", [
    ("q,", b"an empty name"),
    ("q,q", b"a name is given twice"),
])
def test_query_param_bad_names(name, message, tmp_path, capsysbinary):
    path = tmp_path / "in.csv"
    path.write_bytes(b"url\nhttp://a/\n")
    assert main(["query-param", name, "--column", "url", str(path)]) == 2
    assert message in capsysbinary.readouterr()[1]


def test_query_param_several_names_need_a_table(monkeypatch, capsysbinary):
    with pytest.raises(SystemExit) as exited:
        run(["query-param", "q,page"], b"http://a/?q=1\n", monkeypatch, capsysbinary)
    assert exited.value.code == 2
    assert b"several names need --column" in capsysbinary.readouterr()[1]


BOM = b"\xef\xbb\xbf"


@pytest.mark.parametrize("argv, data, want", [
    # the BOM was read as part of the first value: %EF%BB%BFhttp... or a failed check
    (["requote"], BOM + b"http://a/b c\r\nx y\r\n", BOM + b"http://a/b%20c\r\nx%20y\r\n"),
    (["normalize"], BOM + b"HTTP://A/\n", BOM + b"http://a/\n"),
    (["quote"], BOM + b"a b\n", BOM + b"a%20b\n"),
    (["domain"], BOM + b"http://www.example.co.uk/\n", BOM + b"example.co.uk\n"),
    (["check"], BOM + b"http://a/\n", b""),  # a report, not the lines: no BOM written
    (["check"], BOM + b"a b\n", b"1:1: character ' ' (U+0020) not allowed in a URI\n"),
    (["quote"], b"a" + BOM + b"\n", b"a%EF%BB%BF\n"),  # not at the start: data
    (["quote"], b"\n" + BOM + b"\n", b"\n%EF%BB%BF\n"),
])
def test_a_byte_order_mark_at_the_start_is_no_data(argv, data, want, monkeypatch, capsysbinary):
    status, out, err = run(argv, data, monkeypatch, capsysbinary)
    assert out == want
    assert status == (1 if b"U+0020" in want else 0), err
