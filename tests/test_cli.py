"""The command line: one value per line, line endings kept, clear errors."""
import io
import sys
import urllib.parse
from pathlib import Path

import pytest

import pctcodec
from _child import run_python
from pctcodec.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "urls.txt"
LINES = [b"/a path/caf\xc3\xa9?x=1&y=2", b"100%", b"%zz and %41", b"", b"a+b c", b"\xe6\x9d\xb1\xe4\xba\xac"]


def run(argv, data, monkeypatch, capsysbinary):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status = main(argv)
    out, err = capsysbinary.readouterr()
    return status, out, err


@pytest.mark.parametrize("command,func", [
    ("quote", lambda b: urllib.parse.quote(b.decode())),
    ("quote-plus", lambda b: urllib.parse.quote_plus(b.decode())),
    ("unquote", lambda b: urllib.parse.unquote(b.decode())),
    ("unquote-plus", lambda b: urllib.parse.unquote_plus(b.decode())),
])
@pytest.mark.parametrize("ending", [b"\n", b"\r\n"])
def test_each_line_as_urllib_does(command, func, ending, tmp_path, capsysbinary):
    path = tmp_path / "in.txt"
    path.write_bytes(ending.join(LINES) + ending + b"last-without-newline")
    assert main([command, str(path)]) == 0
    out, err = capsysbinary.readouterr()
    want = b"".join(func(line).encode() + ending for line in LINES) + func(b"last-without-newline").encode()
    assert out == want
    assert err == b""


def test_stdin_and_options(monkeypatch, capsysbinary):
    status, out, _ = run(["quote", "--safe", "", "-"], b"a/b c\n", monkeypatch, capsysbinary)
    assert (status, out) == (0, b"a%2Fb%20c\n")
    status, out, _ = run(["quote-plus", "--safe=/"], b"a/b c\n", monkeypatch, capsysbinary)
    assert (status, out) == (0, b"a/b+c\n")
    status, out, _ = run(["quote", "--encoding", "latin-1"], "café\n".encode(), monkeypatch, capsysbinary)
    assert (status, out) == (0, b"caf%E9\n")
    status, out, _ = run(["unquote", "--encoding", "latin-1"], b"caf%E9\n", monkeypatch, capsysbinary)
    assert (status, out) == (0, "café\n".encode())


def test_invalid_utf8_is_kept(monkeypatch, capsysbinary):
    raw = b"a\xffb\n"
    status, out, _ = run(["quote"], raw, monkeypatch, capsysbinary)
    assert (status, out) == (0, b"a%FFb\n")
    status, out, _ = run(["unquote"], raw, monkeypatch, capsysbinary)
    assert (status, out) == (0, raw)  # passed through byte for byte


def test_round_trip_of_the_example(tmp_path, capsysbinary):
    example = EXAMPLE.read_bytes()
    assert main(["quote", str(EXAMPLE)]) == 0
    quoted = capsysbinary.readouterr().out
    assert quoted.count(b"\n") == example.count(b"\n")
    (tmp_path / "q.txt").write_bytes(quoted)
    assert main(["unquote", str(tmp_path / "q.txt")]) == 0
    assert capsysbinary.readouterr().out == example


def test_errors_name_the_line(monkeypatch, capsysbinary):
    status, out, err = run(["quote", "--encoding", "ascii"], "ok\ncafé\n".encode(), monkeypatch, capsysbinary)
    assert status == 1
    assert out == b"ok\n"
    # the input's name (<stdin> here), the line, the bytes of the value
    assert err.startswith("pctcodec: <stdin>:2: 'ascii' codec cannot encode 'é'".encode())
    assert b"Traceback" not in err


@pytest.mark.parametrize("argv", [
    ["quote", "--encoding", "no-such-codec"],
    ["quote", "--errors", "no-such-handler"],
    ["quote", "/no/such/file"],
])
def test_bad_setup_is_a_one_line_error(argv, capsysbinary):
    assert main(argv) == 2
    err = capsysbinary.readouterr().err
    assert err.startswith(b"pctcodec: ") and err.count(b"\n") == 1


URI_LINES = [
    "HTTP://Example.COM:80/a/./b/../%7Euser?q=%3d#top",
    "http://例え.jp/引き出し",
    "asdf%*.fred",
    "http://x/?b=2&a=1#f",
    "",
]


@pytest.mark.parametrize("command,func", [
    ("requote", pctcodec.requote),
    ("normalize", pctcodec.normalize),
])
@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_uri_commands_line_by_line(command, func, ending, monkeypatch, capsysbinary):
    data = ending.join(URI_LINES) + ending + "last"
    status, out, err = run([command], data.encode(), monkeypatch, capsysbinary)
    assert (status, err) == (0, b"")
    want = "".join(func(line) + ending for line in URI_LINES) + func("last")
    assert out == want.encode()


def test_normalize_options(monkeypatch, capsysbinary):
    status, out, _ = run(["normalize", "--sort-query", "--drop-fragment"], b"http://x/?b=2&a=1#f\n",
                         monkeypatch, capsysbinary)
    assert (status, out) == (0, b"http://x/?a=1&b=2\n")


def test_uri_commands_escape_invalid_utf8(monkeypatch, capsysbinary):
    status, out, _ = run(["requote"], b"a\xffb c\xc3\xa9\n", monkeypatch, capsysbinary)
    assert (status, out) == (0, b"a%FFb%20c%C3%A9\n")
    status, out, _ = run(["normalize"], b"HTTP://H/\xfe%7e\n", monkeypatch, capsysbinary)
    assert (status, out) == (0, b"http://h/%FE~\n")


def test_check_reports_each_invalid_line(monkeypatch, capsysbinary):
    data = "ok%20\nasdf%*.fred\nfine\n12345667123%asdghfh\na b\ncafé\n".encode()
    status, out, err = run(["check"], data, monkeypatch, capsysbinary)
    assert status == 1
    assert err == b""
    lines = out.decode().splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == ["2:4", "4:11", "5:1", "6:3"]
    assert "'%'" in lines[0] and "' '" in lines[2] and "U+00E9" in lines[3]


def test_check_of_valid_input_is_silent(monkeypatch, capsysbinary):
    status, out, err = run(["check"], b"http://a/b?c=%41\n~\n", monkeypatch, capsysbinary)
    assert (status, out, err) == (0, b"", b"")


def test_normalize_gets_through_hosts_without_ascii_form(monkeypatch, capsysbinary):
    # No IDNA form (a bidi-less combining start, a no-break space): written
    # as percent-encoded UTF-8, the other lines go on.
    status, out, err = run(["normalize"], "http://a/\nhttp://\u0301x.com/\nhttp://a\u00a0b/\n".encode(),
                           monkeypatch, capsysbinary)
    assert (status, err) == (0, b"")
    assert out == b"http://a/\nhttp://%CC%81x.com/\nhttp://a%C2%A0b/\n"


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["unquote", "--safe", "/"],
                                  ["normalize", "--safe", "/"], ["quote", "--sort-query"]])
def test_usage_errors_exit_2(argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def test_python_dash_m():
    proc = run_python(["-m", "pctcodec", "quote-plus"], input=b"a b/c\n", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"a+b%2Fc\n"
