"""The line mode on hostile input: one output line per input line whatever a
decoded value holds, LF, CRLF and CR line ends, a line far longer than the
read block, memory bounded by the longest line; and command-line values
that are not UTF-8."""
import io
import sys
import types
import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _child import run_python
from _profiles import examples
from pctcodec.cli import main


def run(argv, data, monkeypatch, capsysbinary):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status = main(argv)
    out, err = capsysbinary.readouterr()
    return status, out, err


def test_decoded_line_ends_are_escaped(monkeypatch, capsysbinary):
    data = b"http://a/?q=a%0Ab&r=1\nhttp://b/?q=%0D%0A\r\nhttp://c/?q=x%0d\rhttp://d/?q=plain"
    status, out, err = run(["query-param", "q"], data, monkeypatch, capsysbinary)
    assert (status, err) == (0, b"")
    assert out == b"a%0Ab\n%0D%0A\r\nx%0D\rplain"
    status, out, _ = run(["unquote"], b"a%0Ab%0d\nc%0A", monkeypatch, capsysbinary)
    assert (status, out) == (0, b"a%0Ab%0D\nc%0A")


def test_blank_lines_and_empty_results_are_rows(monkeypatch, capsysbinary):
    # a blank line is a row (the empty value) and an empty result an empty
    # line (docs/csv.md, the line mode): the rows after them stay in place
    data = b"http://a/\n\nhttp://bad\xc2\xa0host/\n \nhttp://c/\n"
    status, out, err = run(["normalize", "--strict-idna", "--on-error", "null"], data,
                           monkeypatch, capsysbinary)
    assert (status, out) == (1, b"http://a/\n\n\n\nhttp://c/\n")
    assert err == b"pctcodec: 5 rows, 1 failed\n"


LINE_PIECES = st.lists(st.sampled_from(["%0A", "%0D", "%0d%0a", "a", "+", "=", "&", "q=",
                                        "\u00e9", "%C3%A9", "%ZZ", "?"]), max_size=8)


@settings(max_examples=examples(100), deadline=None)
@given(lines=st.lists(st.builds("".join, LINE_PIECES), min_size=1, max_size=6),
       ends=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=6, max_size=6),
       command=st.sampled_from(["unquote", "unquote-plus", "query-param", "requote",
                                "normalize", "quote"]))
def test_one_output_line_per_input_line(lines, ends, command):
    data = "".join(line + end for line, end in zip(lines, ends)).encode()
    argv = [command, "q", "-"] if command == "query-param" else [command, "-"]
    out = io.BytesIO()
    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin = types.SimpleNamespace(buffer=io.BytesIO(data))
    sys.stdout = types.SimpleNamespace(buffer=out)
    try:
        main(argv)
    finally:
        sys.stdin, sys.stdout = stdin, stdout
    got = out.getvalue()
    def line_ends(data):
        return [line[len(line.rstrip(b"\r\n")):] for line in data.splitlines(keepends=True)]

    if command == "query-param":
        # Its result can be empty: an empty result after a line ended by a
        # lone CR, itself ended by LF, reads back as one CRLF. So the bytes
        # are compared, line by line, with what each line must give.
        from pctcodec import query_param
        want = b"".join((query_param(line, "q") or "").replace("\r", "%0D").replace("\n", "%0A").encode()
                        + end.encode() for line, end in zip(_lines(data.decode()), _ends(data.decode())))
        assert got == want
        return
    # the same line ends, in the same order: one output line per input line
    assert line_ends(got) == line_ends(data)
    if command == "unquote":
        want = [urllib.parse.unquote(line).replace("\r", "%0D").replace("\n", "%0A")
                for line in data.decode().splitlines()]
        assert got.decode().splitlines() == want


def _lines(text):
    return [line.rstrip("\r\n") for line in text.splitlines(keepends=True)]


def _ends(text):
    return [line[len(line.rstrip("\r\n")):] for line in text.splitlines(keepends=True)]


@pytest.mark.parametrize("block", [1, 2, 3, 7, 1 << 20])
def test_line_reader_whatever_the_block(block):
    from pctcodec.cli._streams import LineReader

    data = b"a\r\nbc\rd\n\r\n\r\rlong" + b"x" * 50 + b"\r\nend\r"
    reader = LineReader(io.BytesIO(data), block=block)
    lines = [bytes(line) for line in reader]
    assert lines == data.splitlines(keepends=True)


def test_line_mode_cr_line_ends_kept(tmp_path, capsysbinary):
    path = tmp_path / "in.txt"
    path.write_bytes(b"HTTP://A/%7e\rhttp://b/ c\r\nhttp://d/\n\rlast")
    assert main(["normalize", str(path)]) == 0
    assert capsysbinary.readouterr().out == b"http://a/~\rhttp://b/%20c\r\nhttp://d/\n\rlast"
    assert main(["check", str(path)]) == 1
    assert capsysbinary.readouterr().out == b"2:9: character ' ' (U+0020) not allowed in a URI\n"


# ---------------------------------------------------------------- arguments

@pytest.mark.parametrize("argv", [
    ["query-param", "\udcff", "--column", "url", "{csv}"],
    ["query-param", "q\udce9", "{txt}"],
    ["clean-query", "--drop", "\udcff", "{txt}"],
    ["clean-query", "--keep", "a", "--keep", "\udcff", "--column", "url", "{csv}"],
    ["quote", "--safe", "\udcff", "{txt}"],
    ["requote", "--column", "u\udcffrl", "{csv}"],
])
def test_arguments_not_utf8_are_usage_errors(argv, tmp_path, capsysbinary):
    # a value given on the command line whose bytes are not UTF-8 (a lone
    # surrogate in sys.argv): status 2 before any output
    (tmp_path / "t.csv").write_bytes(b"url\nhttp://a/?q=1\n")
    (tmp_path / "t.txt").write_bytes(b"http://a/?q=1\n")
    argv = [a.format(csv=tmp_path / "t.csv", txt=tmp_path / "t.txt") for a in argv]
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsysbinary.readouterr()
    assert (info.value.code, out) == (2, b"")
    assert b"not valid UTF-8" in err


def test_arguments_not_utf8_from_the_shell(tmp_path):
    # the bytes as a shell passes them; a file name that is not UTF-8 is fine
    name = tmp_path / b"\xff.csv".decode("utf-8", "surrogateescape")
    name.write_bytes(b"url\nhttp://a/?q=1\n")
    code = "import sys; from pctcodec.cli import main; sys.exit(main())"
    bad = run_python(["-c", code, "query-param", b"\xff", "--column", "url", bytes(name)])
    assert (bad.returncode, bad.stdout) == (2, b"")
    assert b"NAME b'\\xff': not valid UTF-8" in bad.stderr
    good = run_python(["-c", code, "query-param", "q", "--column", "url", bytes(name)])
    assert (good.returncode, good.stdout) == (0, b"url,url_q\nhttp://a/?q=1,1\n")


# ---------------------------------------------------------------- memory

# VmHWM, the peak of this process image (ru_maxrss also holds the parent's
# peak at the fork before exec)
PEAK = """
import os, sys
from pctcodec.cli import main
sys.stdout = open(os.devnull, "w")
status = main(sys.argv[1:])
with open("/proc/self/status") as f:
    kb = [line.split()[1] for line in f if line.startswith("VmHWM:")][0]
print(int(kb) * 1024, file=sys.stderr)
"""


def peak(command, path):
    r = run_python(["-c", PEAK, command, str(path)])
    assert r.returncode in (0, 1), r.stderr
    return int(r.stderr.split()[-1])


@settings(max_examples=examples(100), deadline=None)
@given(line=st.builds("".join, st.lists(st.sampled_from(["%", "%4", "%41", "%C3%A9", "%C3", "a",
                                                         "+", "\u00e9", "\udcff", "%ZZ"]))),
       command=st.sampled_from(["quote", "quote-plus", "unquote", "unquote-plus"]))
def test_long_lines_in_pieces_as_whole(line, command):
    # a long line goes through quote and unquote in pieces cut outside
    # escapes: the same bytes as the whole line at once
    import pctcodec.cli as cli

    def output(big):
        out = io.BytesIO()
        stdin, stdout, saved = sys.stdin, sys.stdout, cli._BIG
        data = line.encode("utf-8", "surrogateescape") + b"\n"
        sys.stdin = types.SimpleNamespace(buffer=io.BytesIO(data))
        sys.stdout = types.SimpleNamespace(buffer=out)
        cli._BIG = big
        try:
            main([command, "--on-error", "keep", "-"])
        finally:
            sys.stdin, sys.stdout, cli._BIG = stdin, stdout, saved
        return out.getvalue()

    assert output(3) == output(1 << 20)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.parametrize("command, bound", [("requote", 2.2), ("unquote", 2.2), ("check", 2.2),
                                            ("quote", 2.5)])
def test_long_line_memory(command, bound, tmp_path):
    # a 64 MB line: the peak grows by about twice the line (its bytes, then
    # its text beside the result, or beside the pieces of the result for
    # quote, whose result is 1.25 times the line here), not by four or five
    # times as when the line was held in several copies
    size = 64 << 20
    small, big = tmp_path / "small.txt", tmp_path / "big.txt"
    small.write_bytes(b"http://a/b\n")
    big.write_bytes(b"http://a/" + b"ab%41c/d" * (size // 8) + b"\nhttp://b/\n")
    base = peak(command, small)
    grown = peak(command, big)
    assert grown - base <= bound * size, (grown - base) / size
