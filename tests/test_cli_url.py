"""``pctcodec parse-url``: the URL Standard's parser on the command line, a
column per getter of a table's URLs (``--column``) or each line's href."""
import re
import shlex
import shutil
from pathlib import Path

import pytest

from pctcodec import parse_url
from pctcodec.cli import main
from pctcodec.url import FIELDS
from test_cli_split import rows
from test_cli_tables import run, write

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "urls.csv"

# a good row, a row the parser rejects, an empty field, one with a space
TABLE = (b'id,url,note\n'
         b'1,HTTP://User:Pw@Example.COM:80/./a/../b?q=1#f,good\n'
         b'2,http://[::1,bad\n'
         b'3,,empty\n'
         b'4,"c d",relative\n')


def test_example_parsed_row_by_row(capsysbinary):
    # every getter, in URL's order, right after the column; each as parse_url gives it
    status, out, err = run(["parse-url", "--column", "url", str(EXAMPLE)], capsysbinary)
    assert (status, err) == (0, b"")
    before, after = rows(EXAMPLE.read_bytes()), rows(out)
    assert len(after) == len(before) > 200
    assert after[0] == ["id", "url", *("url_" + f for f in FIELDS), "title"]
    for old, new in zip(before[1:], after[1:]):
        assert new[:2] == old[:2] and new[-1] == old[-1]
        assert new[2:2 + len(FIELDS)] == list(parse_url(old[1]))


def test_parts_choose_and_order(tmp_path, capsysbinary):
    path = write(tmp_path, TABLE)
    status, out, err = run(["parse-url", "--column", "url", "--parts", "port,hostname,href",
                            "--on-error", "null", path], capsysbinary)
    assert status == 1
    assert rows(out) == [
        ["id", "url", "url_port", "url_hostname", "url_href", "note"],
        ["1", "HTTP://User:Pw@Example.COM:80/./a/../b?q=1#f", "", "example.com",
         "http://User:Pw@example.com/b?q=1#f", "good"],
        ["2", "http://[::1", "", "", "", "bad"],
        ["3", "", "", "", "", "empty"],  # new URL(""): no scheme, no base
        ["4", "c d", "", "", "", "relative"],
    ]
    assert err.endswith(b"pctcodec: 4 rows, 3 failed\n")


def test_base(tmp_path, capsysbinary):
    # relative rows read against --base; an empty field is the base itself
    path = write(tmp_path, TABLE)
    status, out, err = run(["parse-url", "--column", "url", "--parts", "href,pathname",
                            "--base", "https://h.example/docs/x?y#z", "--on-error", "null",
                            path], capsysbinary)
    assert status == 1
    assert [r[2:4] for r in rows(out)[1:]] == [
        ["http://User:Pw@example.com/b?q=1#f", "/b"], ["", ""],
        ["https://h.example/docs/x?y", "/docs/x"],
        ["https://h.example/docs/c%20d", "/docs/c%20d"]]
    status, out, err = run(["parse-url", "--column", "url", "--base", "nope", path], capsysbinary)
    assert (status, out) == (2, b"")
    assert b"--base nope: invalid base URL: no scheme" in err


@pytest.mark.parametrize("policy, field", [("null", ""), ("keep", "")])
def test_failed_rows_and_rejects(policy, field, tmp_path, capsysbinary):
    # a failed row keeps its URL and gets empty new fields under null and keep
    path = write(tmp_path, TABLE)
    rejects = tmp_path / "bad.csv"
    status, out, err = run(["parse-url", "--column", "url", "--parts", "hostname",
                            "--on-error", policy, "--rejects", str(rejects), path], capsysbinary)
    assert status == 1
    assert [r[1:3] for r in rows(out)[1:]] == [
        ["HTTP://User:Pw@Example.COM:80/./a/../b?q=1#f", "example.com"],
        ["http://[::1", field], ["", field], ["c d", field]]
    assert rows(rejects.read_bytes()) == [
        ["line", "row", "value", "reason"],
        ["3", "2", "http://[::1", "not an IPv6 address at position 7"],
        ["4", "3", "", "no scheme, and no base URL to resolve it against at position 0"],
        ["5", "4", "c d", "no scheme, and no base URL to resolve it against at position 0"]]
    assert err.endswith(b"pctcodec: 4 rows, 3 failed (see %s)\n" % str(rejects).encode())


def test_on_error_stop(tmp_path, capsysbinary):
    path = write(tmp_path, TABLE)
    status, out, err = run(["parse-url", "--column", "url", path], capsysbinary)
    assert status == 1
    assert err == (b"pctcodec: %s:3: row 2: not an IPv6 address at position 7 "
                   b"(value 'http://[::1')\n" % path.encode())
    good = write(tmp_path, b"url\nhttps://a.example\n", "good.csv")
    status, out, err = run(["parse-url", "--column", "url", "--parts", "origin", good],
                           capsysbinary)
    assert (status, out, err) == (0, b"url,url_origin\nhttps://a.example,https://a.example\n",
                                  b"")


def test_parquet_null_is_no_failure(tmp_path, capsysbinary):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    source, target = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"url": pa.array(["http://A/x:", None, "http://[::1", ""],
                                             pa.large_string())}), source)
    rejects = tmp_path / "bad.csv"
    status, out, err = run(["parse-url", "--column", "url", "--parts", "hostname,pathname",
                            "--on-error", "null", "--rejects", str(rejects), str(source),
                            "-o", str(target)], capsysbinary)
    assert (status, out) == (1, b"")
    table = pq.read_table(target)
    assert table.schema.field("url_hostname").type == pa.large_string()
    assert table.column("url_hostname").to_pylist() == ["a", None, None, None]
    assert table.column("url_pathname").to_pylist() == ["/x:", None, None, None]
    assert [r[:2] for r in rows(rejects.read_bytes())] == [["line", "row"], ["", "3"], ["", "4"]]


def test_line_mode_writes_href(tmp_path, capsysbinary):
    path = write(tmp_path, b"HTTP://Example.COM:80/./a\r\nhttp:\\\\x.org\\y\n\nhttp://[::1\n../c",
                 "in.txt")
    status, out, err = run(["parse-url", "--on-error", "keep", path], capsysbinary)
    assert status == 1
    assert out == b"http://example.com/a\r\nhttp://x.org/y\n\nhttp://[::1\n../c"
    status, out, err = run(["parse-url", "--base", "http://h/a/b", "--on-error", "null", path],
                           capsysbinary)
    assert status == 1  # only the bad IPv6 address
    assert out == b"http://example.com/a\r\nhttp://x.org/y\nhttp://h/a/b\n\nhttp://h/c"
    assert err == b"pctcodec: 5 rows, 1 failed\n"


def test_usage_errors(tmp_path, capsysbinary):
    path = write(tmp_path, b"url,url_href\nhttp://h/,x\n")
    status, out, err = run(["parse-url", "--column", "url", path], capsysbinary)
    assert (status, out) == (2, b"") and b"already has a column named 'url_href'" in err
    status, out, err = run(["parse-url", "--column", "url", "--parts", "host,scheme", path],
                           capsysbinary)
    assert (status, out) == (2, b"") and b"no part 'scheme'" in err
    status, out, err = run(["parse-url", "--parts", "host", path], capsysbinary)
    assert (status, out) == (2, b"") and b"the line mode writes each URL's href" in err
    for argv, message in (
            (["parse-url", "--base-column", "b", "--column", "url", path],
             b"--base-column, --normalize and --non-strict apply to resolve only"),
            (["parse-url", "--encoding", "ascii", path], b"parse-url works on UTF-8"),
            (["normalize", "--base", "http://a/", path],
             b"--base applies to resolve and parse-url only")):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2, argv
        assert message in capsysbinary.readouterr().err, argv


def test_help_page(capsys):
    assert main(["parse-url", "--help"]) == 0
    out = capsys.readouterr()[0]
    assert len(out.splitlines()) <= 60
    assert out.startswith("usage: pctcodec parse-url [--base URL] [FILE]\n")
    assert "  pctcodec parse-url --column url --parts hostname,pathname examples/urls.csv\n" in out
    assert "--private" not in out and "--sort-query" not in out


def test_docs_example_runs(tmp_path, monkeypatch, capsysbinary):
    # docs/cli.md's parse-url lines, on the bundled examples: the output it shows
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("<!-- parse-url example -->", 1)[1]
    command, shown = re.search(r"```sh\n(pctcodec parse-url [^\n]*)\n```\n\n```\n(.*?)```",
                               section, re.S).groups()
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command.split(" | ")[0])[1:]
    status, out, err = run(argv, capsysbinary)
    assert (status, err) == (0, b"")
    assert command.endswith(" | head -4")
    assert b"".join(out.splitlines(True)[:4]).decode() == shown


@pytest.mark.parametrize("argv, status", [
    (["parse-url", "--column", "url", "--base", "http://h/d/"], 0),
    (["parse-url", "--column", "url", "--parts", "search,hostname", "--on-error", "null"], 1),
])
def test_arrow_path_writes_what_the_rows_path_writes(argv, status, tmp_path, capsysbinary,
                                                     monkeypatch):
    # CSV chunks on Arrow and as lists: the same bytes, quotes, failures and all
    pytest.importorskip("pyarrow")
    from test_cli_columns import TRICKY, _both

    for data in (TRICKY, TRICKY.replace(b"\xc3\xa9?", b"\xff?")):  # a byte that is not UTF-8
        fast, slow = _both(argv, tmp_path, capsysbinary, monkeypatch, data)
        assert fast == slow
        assert fast[0] == status
        if status == 0:
            assert rows(fast[1])[3][:3] == ["3", "", "http://h/d/"]
