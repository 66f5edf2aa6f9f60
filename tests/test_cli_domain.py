"""``pctcodec domain``: the parts of each URL's host by the Public Suffix
List, as new columns of a table (``--column``) or one part a line."""
import csv
import io
from pathlib import Path

import pytest

from pctcodec import domain_parts
from test_cli_tables import run, write

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "urls.csv"
PARTS = ["subdomain", "registered_domain", "public_suffix"]


def rows(data):
    return list(csv.reader(io.StringIO(data.decode("utf-8", "surrogateescape"), newline="")))


def test_example_row_by_row(capsysbinary):
    status, out, err = run(["domain", "--column", "url", "--on-error", "null", str(EXAMPLE)],
                           capsysbinary)
    assert status in (0, 1)
    before, after = rows(EXAMPLE.read_bytes()), rows(out)
    assert len(after) == len(before) > 200
    assert after[0] == ["id", "url", *("url_" + p for p in PARTS), "title"]
    for old, new in zip(before[1:], after[1:]):
        assert new[:2] == old[:2] and new[-1] == old[-1]
        try:
            expected = ["" if v is None else v for v in domain_parts(old[1])]
        except ValueError:
            expected = ["", "", ""]
        assert new[2:5] == expected


def test_parts_and_options(tmp_path, capsysbinary):
    path = write(tmp_path, "url\nhttps://x.user.github.io/\nhttp://食狮.公司.cn/\n".encode())
    status, out, err = run(["domain", "--column", "url", "--parts", "registered_domain",
                            "--private", "--unicode", path], capsysbinary)
    assert (status, err) == (0, b"")
    assert rows(out) == [["url", "url_registered_domain"], ["https://x.user.github.io/", "user.github.io"],
                         ["http://食狮.公司.cn/", "食狮.公司.cn"]]


def test_line_mode(tmp_path, capsysbinary):
    path = write(tmp_path, b"https://news.bbc.co.uk/x\n127.0.0.1\r\nuser.github.io", "in.txt")
    status, out, err = run(["domain", path], capsysbinary)
    assert (status, out, err) == (0, b"bbc.co.uk\n\r\ngithub.io", b"")
    status, out, err = run(["domain", "--parts", "public_suffix", "--private", path], capsysbinary)
    assert out == b"co.uk\n\r\ngithub.io"
    status, out, err = run(["domain", "--parts", "subdomain", path], capsysbinary)
    assert out == b"news\n\r\nuser"


def test_bad_rows_and_usage(tmp_path, capsysbinary):
    path = write(tmp_path, b"http://a b.com/\nexample.com\n", "in.txt")
    status, out, err = run(["domain", path], capsysbinary)
    assert status == 1 and b"no domain name" in err
    status, out, err = run(["domain", "--on-error", "null", path], capsysbinary)
    assert status == 1 and out == b"\nexample.com\n"
    for argv in (["domain", "--parts", "subdomain,public_suffix", path],
                 ["domain", "--parts", "nope", path],
                 ["domain", "--suffix-list", str(tmp_path / "missing.dat"), path]):
        assert run(argv, capsysbinary)[0] == 2
    with pytest.raises(SystemExit):
        run(["quote", "--private", path], capsysbinary)


def test_own_list(tmp_path, capsysbinary):
    lst = write(tmp_path, b"example\n", "list.dat")
    path = write(tmp_path, b"a.b.example\n", "in.txt")
    assert run(["domain", "--suffix-list", lst, path], capsysbinary)[1] == b"b.example\n"
