"""The command line's resolve: the line mode against --base, the table mode
against --base or --base-column (CSV and Parquet), failed rows, usage errors."""
import pytest

from pctcodec import resolve
from pctcodec.cli import main
from test_cli import run  # the command line on stdin data

LINKS = [b"../x", b"/y", b"?q", b"#f", b"", b"//h/./z", "\u00e9/..".encode(), b"g h"]


@pytest.mark.parametrize("argv, func", [
    (["resolve", "--base", "http://a/b/c"], lambda s: resolve("http://a/b/c", s)),
    (["resolve", "--base", "HTTP://A/b/", "--normalize"],
     lambda s: resolve("HTTP://A/b/", s, normalize=True)),
    (["resolve", "--base", "http://a/b/c", "--non-strict"], lambda s: resolve("http://a/b/c", s, strict=False)),
])
@pytest.mark.parametrize("ending", [b"\n", b"\r\n"])
def test_each_line(argv, func, ending, monkeypatch, capsysbinary):
    data = ending.join(LINKS + [b"http:last"])
    want = ending.join(func(line.decode()).encode() for line in LINKS + [b"http:last"])
    assert run(argv, data, monkeypatch, capsysbinary) == (0, want, b"")


def test_invalid_utf8_is_an_escape(monkeypatch, capsysbinary):
    assert run(["resolve", "--base", "http://a/"], b"b\xff\n", monkeypatch, capsysbinary) == \
        (0, b"http://a/b%FF\n", b"")


CSV = (b"url,href,n\r\n"
       b"http://a/b/c,../d,1\r\n"
       b"https://e/f/,\"g h\",2\r\n"
       b"nope,x,3\r\n"
       b"http://q/,\"//r/./s\",4\r\n")


def test_csv_base_column(tmp_path, capsysbinary):
    path = tmp_path / "crawl.csv"
    path.write_bytes(CSV)
    argv = ["resolve", "--column", "href", "--base-column", "url", "--on-error", "keep", str(path)]
    assert main(argv) == 1
    out, err = capsysbinary.readouterr()
    assert out == (b"url,href,n\r\nhttp://a/b/c,http://a/d,1\r\nhttps://e/f/,\"https://e/f/g h\",2\r\n"
                   b"nope,x,3\r\nhttp://q/,\"http://r/s\",4\r\n")
    assert b"1 failed" in err
    assert main(argv[:-3] + [str(path)]) == 1  # stop at the row
    out, err = capsysbinary.readouterr()
    # the message shows the base that cannot be used, not only the link
    assert b":4: row 3: the base 'nope': base URI is not absolute" in err


def test_csv_empty_base_gives_an_empty_field(tmp_path, capsysbinary):
    # As resolve_many gives None for a None base: an empty base field (the
    # table mode's null) gives an empty field, not a failed row (it was one)
    path = tmp_path / "crawl.csv"
    path.write_bytes(b"url,href\nhttp://a/b,c\n,d\n\"\",e\nhttp://x/,\n")
    assert main(["resolve", "--column", "href", "--base-column", "url", str(path)]) == 0
    out, err = capsysbinary.readouterr()
    assert out == b"url,href\nhttp://a/b,http://a/c\n,\n\"\",\nhttp://x/,http://x/\n"
    assert err == b""


def test_csv_fixed_base(tmp_path, capsysbinary):
    path = tmp_path / "crawl.csv"
    path.write_bytes(CSV)
    assert main(["resolve", "--column", "href", "--base", "http://z/w/", str(path)]) == 0
    out, _ = capsysbinary.readouterr()
    assert out.split(b"\r\n")[1:5] == [b"http://a/b/c,http://z/d,1", b"https://e/f/,\"http://z/w/g h\",2",
                                       b"nope,http://z/w/x,3", b"http://q/,\"http://r/s\",4"]


def test_csv_base_column_missing(tmp_path, capsysbinary):
    path = tmp_path / "crawl.csv"
    path.write_bytes(b"href,url\r\nx,http://a/\r\ny\r\n")
    # a record without the header's fields is a failed row (status 1)
    assert main(["resolve", "--column", "href", "--base-column", "url", str(path)]) == 1
    assert b":3: row 2: 1 fields where the header has 2" in capsysbinary.readouterr()[1]
    assert main(["resolve", "--column", "href", "--base-column", "page", str(path)]) == 2
    assert b"no column 'page'" in capsysbinary.readouterr()[1]


def test_parquet_base_column(tmp_path, capsysbinary):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    src, dst = tmp_path / "crawl.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"url": ["http://a/b/c", "https://e/f/", None, "http://q/"],
                             "href": pa.array(["../d", "g h", "x", None], pa.large_string())}), src)
    argv = ["resolve", "--column", "href", "--base-column", "url", str(src), "-o", str(dst)]
    # the row with no base gives null, as resolve_many does (it failed before)
    assert main(argv + ["--on-error", "keep"]) == 0
    table = pq.read_table(dst)
    assert table.schema.field("href").type == pa.large_string()
    assert table.column("href").to_pylist() == ["http://a/d", "https://e/f/g h", None, None]
    assert b"0 failed" in capsysbinary.readouterr()[1]
    assert main(argv) == 0


@pytest.mark.parametrize("argv, message", [
    (["resolve"], b"resolve needs one of --base URI and --base-column NAME"),
    (["resolve", "--base", "http://a/", "--base-column", "u", "--column", "h"], b"resolve needs one of"),
    (["resolve", "--base-column", "u"], b"--base-column reads a table"),
    (["resolve", "--base", "a/b"], b"--base a/b: base URI is not absolute"),
    (["normalize", "--base", "http://a/"], b"--base applies to resolve and parse-url only"),
    (["quote", "--non-strict"], b"apply to resolve only"),
])
def test_usage_errors(argv, message, capsysbinary):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2 and message in capsysbinary.readouterr()[1]
