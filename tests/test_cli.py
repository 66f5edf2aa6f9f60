"""The command line: one value per line, line endings kept, clear errors."""
import io
import sys
import urllib.parse
from pathlib import Path

import pytest

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
    assert err.startswith(b"pctcodec: 2: ") and b"Traceback" not in err


@pytest.mark.parametrize("argv", [
    ["quote", "--encoding", "no-such-codec"],
    ["quote", "--errors", "no-such-handler"],
    ["quote", "/no/such/file"],
])
def test_bad_setup_is_a_one_line_error(argv, capsysbinary):
    assert main(argv) == 1
    err = capsysbinary.readouterr().err
    assert err.startswith(b"pctcodec: ") and err.count(b"\n") == 1


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["unquote", "--safe", "/"]])
def test_usage_errors_exit_2(argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def test_python_dash_m():
    proc = run_python(["-m", "pctcodec", "quote-plus"], input=b"a b/c\n", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"a+b%2Fc\n"
