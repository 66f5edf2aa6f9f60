"""The command line's clean-query and query-param: line by line as the
functions give, in table mode for clean-query, usage errors."""
import csv
import io

import pytest

from pctcodec import TRACKING_PARAMS, canonicalize, clean_query, query_param
from pctcodec.cli import main
from test_cli import run  # the command line on stdin data

LINES = [b"http://a/?utm_source=x&q=1#f", b"http://b/?fbclid=1", b"http://c/?Q=%C3%A9+x&q=2&q=3",
         b"plain", b"", b"http://d/?b=2&%61=1&utm%5Fmedium=m", "http://é/?q=€".encode(),
         b"http://e/?q=1&amp;utm_source=x&amp;b=2"]


@pytest.mark.parametrize("argv, func", [
    (["clean-query", "--tracking"], lambda s: clean_query(s, drop=TRACKING_PARAMS)),
    (["clean-query", "--drop", "utm_*", "--drop", "q"], lambda s: clean_query(s, drop=["utm_*", "q"])),
    (["clean-query", "--keep", "[a-z]", "--sort"], lambda s: clean_query(s, keep=["[a-z]"], sort=True)),
    (["clean-query", "--tracking", "--keep", "q", "--keep", "utm_*"],
     lambda s: clean_query(s, drop=TRACKING_PARAMS, keep=["q", "utm_*"])),
    (["clean-query"], lambda s: clean_query(s, drop=TRACKING_PARAMS)),  # a no-op before
    (["clean-query", "--keep", "q*"], lambda s: clean_query(s, drop=TRACKING_PARAMS, keep="q*")),
    (["clean-query", "--html-amp"], lambda s: clean_query(s, html_amp=True)),
    (["clean-query", "--html-amp", "--tracking", "--drop", "q"],
     lambda s: clean_query(clean_query(s, drop=["q"], html_amp=True), html_amp=True)),
    (["canonicalize", "--html-amp"], lambda s: canonicalize(s, ignore_case=True, html_amp=True)),
    (["query-param", "q"], lambda s: query_param(s, "q") or ""),
    (["query-param", "Q"], lambda s: query_param(s, "Q") or ""),
])
@pytest.mark.parametrize("ending", [b"\n", b"\r\n"])
def test_each_line(argv, func, ending, tmp_path, monkeypatch, capsysbinary):
    data = ending.join(LINES) + ending + b"http://z/?q=last"
    want = b"".join(func(line.decode()).encode() + ending for line in LINES)
    want += func("http://z/?q=last").encode()
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    assert main(argv + [str(path)]) == 0
    out, err = capsysbinary.readouterr()
    assert (out, err) == (want, b"")
    assert run(argv, data, monkeypatch, capsysbinary) == (0, want, b"")


def test_invalid_utf8(monkeypatch, capsysbinary):
    # clean-query writes such a byte as its escape, query-param reads it as U+FFFD
    data = b"http://a/\xff?utm_a=1&b=\xfe\n"
    assert run(["clean-query", "--tracking"], data, monkeypatch, capsysbinary) == (
        0, b"http://a/%FF?b=%FE\n", b"")
    assert run(["query-param", "b"], data, monkeypatch, capsysbinary) == (0, "\ufffd\n".encode(), b"")


def test_on_error_summary(monkeypatch, capsysbinary):
    status, out, err = run(["clean-query", "--tracking", "--on-error", "null"], b"?utm_a=1&b\n?x\n",
                           monkeypatch, capsysbinary)
    assert (status, out) == (0, b"?b\n?x\n")
    assert err == b"pctcodec: 2 rows, 0 failed\n"


def test_table(tmp_path, capsysbinary):
    data = (b'id,url,title\r\n1,"http://a/?utm_source=x&q=1",t\r\n2,http://b/?gclid=2&a=1,"u,v"\r\n'
            b'3,,w\r\n4,http://c/?%7A=1&utm%5Fid=2#f,x\r\n')
    path = tmp_path / "in.csv"
    path.write_bytes(data)
    assert main(["clean-query", "--tracking", "--column", "url", str(path)]) == 0
    out, err = capsysbinary.readouterr()
    assert err == b""
    assert out == (b'id,url,title\r\n1,"http://a/?q=1",t\r\n2,http://b/?a=1,"u,v"\r\n'
                   b'3,,w\r\n4,http://c/?%7A=1#f,x\r\n')
    want = [clean_query(r[1], drop=TRACKING_PARAMS) for r in csv.reader(io.StringIO(data.decode()))][1:]
    assert [r[1] for r in csv.reader(io.StringIO(out.decode()))][1:] == want


def test_parquet(tmp_path, capsysbinary):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    urls = ["http://a/?utm_source=x&q=%d" % i if i % 3 else None for i in range(50)]
    table = pa.table({"n": list(range(50)), "url": pa.array(urls, pa.large_string())})
    src, dst = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(table, src)
    assert main(["clean-query", "--drop", "utm_*", "--column", "url", str(src), "-o", str(dst)]) == 0
    result = pq.read_table(dst)
    assert result.schema.equals(table.schema)
    assert result.column("url").to_pylist() == [None if u is None else clean_query(u, drop="utm_*")
                                                for u in urls]


def test_query_param_adds_a_column(tmp_path, capsysbinary):
    data = (b'id,url,title\r\n1,"http://a/?q=caf%C3%A9&q=2",t\r\n2,http://b/?x,"u,v"\r\n'
            b'3,,w\r\n4,http://c/\xff?q=\xfe+,x\r\n')
    path = tmp_path / "in.csv"
    path.write_bytes(data)
    assert main(["query-param", "q", "--column", "url", str(path)]) == 0
    out, err = capsysbinary.readouterr()
    assert err == b""
    rows = list(csv.reader(io.StringIO(out.decode("utf-8", "surrogateescape"), newline="")))
    assert rows[0] == ["id", "url", "url_q", "title"]
    assert [r[2] for r in rows[1:]] == ["café", "", "", "\ufffd "]
    assert [r[1] for r in rows[1:]] == [r[1] for r in csv.reader(
        io.StringIO(data.decode("utf-8", "surrogateescape"), newline=""))][1:]
    # a column of that name already there: exit status 2
    assert main(["query-param", "title", "--column", "url", str(path)]) == 0
    capsysbinary.readouterr()
    taken = tmp_path / "taken.csv"
    taken.write_bytes(b"url,url_q\r\nhttp://a/?q=1,x\r\n")
    assert main(["query-param", "q", "--column", "url", str(taken)]) == 2
    assert b"url_q" in capsysbinary.readouterr().err


def test_query_param_parquet(tmp_path, capsysbinary):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    urls = ["http://a/?utm_source=s%d&q=%d" % (i, i) if i % 3 else None for i in range(40)] + ["http://b/"]
    table = pa.table({"url": pa.array(urls, pa.large_string()), "n": list(range(41))})
    src, dst = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(table, src)
    assert main(["query-param", "utm_source", "--column", "url", str(src), "-o", str(dst)]) == 0
    result = pq.read_table(dst)
    assert result.column_names == ["url", "url_utm_source", "n"]
    assert result.column("url_utm_source").type == pa.large_string()
    assert result.column("url_utm_source").to_pylist() == [query_param(u, "utm_source") if u else None
                                                           for u in urls]


@pytest.mark.parametrize("argv", [
    ["query-param"],                                  # no NAME
    ["quote", "--drop", "x"],
    ["normalize", "--tracking"],
    ["quote", "--sort"],
    ["query-param", "q", "--keep", "q"],
    ["clean-query", "a.txt", "b.txt"],
    ["clean-query", "--encoding", "latin-1"],
])
def test_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "pctcodec: error:" in capsys.readouterr().err


@pytest.mark.parametrize("argv, func", [
    (["canonicalize"], lambda s: canonicalize(s)),
    (["canonicalize", "--strip-www", "--same-scheme", "--strip-trailing-slash"],
     lambda s: canonicalize(s, strip_www=True, same_scheme=True, strip_trailing_slash=True)),
    (["canonicalize", "--drop", "Q"],
     lambda s: canonicalize(s, drop=TRACKING_PARAMS + ("Q",), ignore_case=True)),
    (["clean-query", "--tracking", "--drop", "b"],
     lambda s: clean_query(clean_query(s, drop=["b"]), drop=TRACKING_PARAMS)),
])
def test_canonicalize_lines(argv, func, monkeypatch, capsysbinary):
    lines = LINES + [b" HTTPS://www.A.com:80/x/?UTM_SOURCE=1&b=2&a=1#f", b"http://h/?Fbclid=1&Q=2"]
    data = b"\n".join(lines) + b"\n"
    want = b"".join(func(line.decode()).encode() + b"\n" for line in lines)
    assert run(argv, data, monkeypatch, capsysbinary) == (0, want, b"")


def test_canonicalize_table(tmp_path, capsysbinary):
    path = tmp_path / "in.csv"
    path.write_bytes(b'id,url\n1,"HTTP://A/?b=1&utm_source=x&a=2#f"\n2,\n')
    assert main(["canonicalize", "--column", "url", str(path)]) == 0
    out, err = capsysbinary.readouterr()
    assert out == b'id,url\n1,"http://a/?a=2&b=1"\n2,\n' and err == b""


def test_canonicalize_usage_errors(capsysbinary):
    with pytest.raises(SystemExit):
        main(["normalize", "--strip-www"])
    with pytest.raises(SystemExit):
        main(["canonicalize", "--tracking"])
