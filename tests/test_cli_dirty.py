"""The command line on dirty data and in real pipelines: --on-error and
--rejects, the streaming CSV reader on hostile input, output files and
streams that fail, and the exit statuses (0 all good, 1 some rows invalid or
failed, 2 usage or malformed input)."""
import csv
import io
import os
import stat
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _child import child_env
from _profiles import examples
from pctcodec.cli._csv import Reader
from pctcodec import _pctcodec
from pctcodec.cli import main


def run(argv, capsysbinary):
    status = main(argv)
    out, err = capsysbinary.readouterr()
    return status, out, err


def write(tmp_path, data, name="in.csv"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


# ---------------------------------------------------------------- --on-error, --rejects

LINES = "a b\ncaf\u00e9\n\xff x\nok\n".encode("utf-8").replace(b"\xc3\xbf", b"\xff")


def read_rejects(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return list(csv.reader(f))


@pytest.mark.parametrize("on_error, expected", [
    ("null", b"a%20b\n\n\nok\n"),
    ("keep", b"a%20b\ncaf\xc3\xa9\n\xff x\nok\n"),
])
def test_line_mode_on_error(on_error, expected, tmp_path, capsysbinary):
    path = write(tmp_path, LINES, "in.txt")
    rejects = str(tmp_path / "rejects.csv")
    status, out, err = run(["quote", "--encoding", "ascii", "--on-error", on_error,
                            "--rejects", rejects, path], capsysbinary)
    assert status == 1  # some rows failed
    assert out == expected
    assert err == f"pctcodec: 4 rows, 2 failed (see {rejects})\n".encode()
    rows = read_rejects(rejects)
    assert rows[0] == ["line", "row", "value", "reason"]
    # the line and row numbers (one in line mode), the values as their input bytes, the reasons
    assert [(r[0], r[1], r[2].encode("utf-8", "surrogateescape")) for r in rows[1:]] == [
        ("2", "2", b"caf\xc3\xa9"), ("3", "3", b"\xff x")]
    assert "'ascii' codec cannot encode 'é'" in rows[1][3]
    assert rows[2][3].startswith("input byte 0xFF (at 0) is not valid UTF-8") and "udcff" not in rows[2][3]


def test_stop_is_the_default_and_names_file_line_and_bytes(tmp_path, capsysbinary):
    path = write(tmp_path, LINES, "in.txt")
    status, out, err = run(["quote", "--encoding", "ascii", path], capsysbinary)
    assert status == 1
    assert out == b"a%20b\n"
    assert err.startswith(f"pctcodec: {path}:2: 'ascii' codec cannot encode 'é'".encode())


def test_messages_show_input_bytes_not_surrogates(tmp_path, capsysbinary):
    path = write(tmp_path, b"ok\n\xe9t\xe9\n", "in.txt")
    status, _, err = run(["quote", "--encoding", "ascii", path], capsysbinary)
    assert status == 1
    assert err.startswith(f"pctcodec: {path}:2: input byte 0xE9 (at 0) is not valid UTF-8".encode())
    assert b"(value '\\xe9t\\xe9')" in err and b"udce9" not in err and b"\\udc" not in err


def test_a_host_in_a_message_shows_input_bytes_not_surrogates(tmp_path, capsysbinary):
    # the domain's message quotes the host it refuses: a byte that is not
    # UTF-8 is shown as the value is, in the message and the rejects file
    path = write(tmp_path, b"http://a\xfeb.com/\nhttp://x.com/\n", "in.txt")
    status, out, err = run(["domain", path], capsysbinary)
    assert status == 1 and out == b""
    assert b"the host 'a\\xfeb.com' is no domain name" in err and b"udcfe" not in err
    rejects = str(tmp_path / "rejects.csv")
    status, out, err = run(["domain", "--on-error", "null", "--rejects", rejects, path], capsysbinary)
    assert status == 1 and out == b"\nx.com\n"
    with open(rejects, "rb") as f:
        said = f.read()
    assert b"the host 'a\\xfeb.com' is no domain name" in said and b"udcfe" not in said


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "cp1252"])
def test_an_input_byte_not_utf8_is_named_not_the_codec(encoding, tmp_path, capsysbinary):
    # The input is read as UTF-8 whatever --encoding says (the encoding of
    # the text behind the escapes): an invalid byte is the input's fault,
    # not "the codec cannot encode" it.
    path = write(tmp_path, b"ok\ncaf\xe9 \xff\xfe\n", "in.txt")
    status, out, err = run(["quote", "--encoding", encoding, path], capsysbinary)
    assert status == 1
    assert out == b"ok\n"
    assert err.decode() == (f"pctcodec: {path}:2: input byte 0xE9 (at 3) is not valid UTF-8 (the input is "
                            f"read as UTF-8 whatever --encoding says) (value 'caf\\xe9 \\xff\\xfe')\n")
    rejects = str(tmp_path / "rejects.csv")
    status, out, _ = run(["quote", "--encoding", encoding, "--on-error", "null", "--rejects", rejects,
                          path], capsysbinary)
    assert (status, out) == (1, b"ok\n\n")
    # the reason names the first bad byte of the value
    assert read_rejects(rejects)[1][3].startswith("input byte 0xE9 (at 3) is not valid UTF-8")
    # a run of bad bytes is named whole; a character the encoding lacks stays the codec's error
    path = write(tmp_path, b"\xff\xfe x\n\xe2\x82\xac\n", "in2.txt")
    status, out, err = run(["quote", "--encoding", encoding, "--on-error", "keep", "--rejects", rejects,
                            path], capsysbinary)
    reasons = [row[3] for row in read_rejects(rejects)[1:]]
    assert reasons[0].startswith("input bytes 0xFF 0xFE (at 0) are not valid UTF-8")
    if encoding == "cp1252":  # it has the euro sign
        assert len(reasons) == 1
    else:
        assert reasons[1].startswith(f"{encoding!r} codec cannot encode '€' (at 0)"), reasons


@pytest.mark.parametrize("on_error, field", [("null", b""), ("keep", b"caf\xc3\xa9")])
def test_table_mode_on_error(on_error, field, tmp_path, capsysbinary):
    data = "id,t,x\n1,a b,p\n2,caf\u00e9,q\n\n3,\"x \"\"y\"\"\",r\n4,\"bad\"tail,s\n".encode()
    path = write(tmp_path, data)
    rejects = str(tmp_path / "rejects.csv")
    status, out, err = run(["quote", "--encoding", "ascii", "--column", "t", "--on-error", on_error,
                            "--rejects", rejects, path], capsysbinary)
    assert status == 1
    bad = b'"bad"tail' if on_error == "keep" else b'""'
    assert out == (b"id,t,x\n1,a%20b,p\n2," + field + b",q\n\n3,\"x%20%22y%22\",r\n4," + bad + b",s\n")
    assert err == f"pctcodec: 4 rows, 2 failed (see {rejects})\n".encode()
    rows = read_rejects(rejects)
    # the file line (blank lines counted), the data row, the value
    assert [r[:3] for r in rows[1:]] == [["3", "2", "caf\u00e9"], ["6", "4", '"bad"tail']]
    assert "closing quote" in rows[2][3]


def test_table_mode_stop_names_the_row(tmp_path, capsysbinary):
    path = write(tmp_path, "id,t\n1,a\n2,caf\u00e9\n".encode())
    status, out, err = run(["quote", "--encoding", "ascii", "--column", "t", path], capsysbinary)
    assert status == 1
    assert err.startswith(f"pctcodec: {path}:3: row 2: ".encode())


def test_parquet_on_error_keep_and_row_groups(tmp_path, capsysbinary):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    src, dst = tmp_path / "in.parquet", tmp_path / "out.parquet"
    table = pa.table({"id": list(range(10)), "t": ["a b", "caf\u00e9", None, "x", "y"] * 2})
    pq.write_table(table, src, row_group_size=3)
    status, _, err = run(["quote", "--encoding", "ascii", "--column", "t", "--on-error", "keep",
                          str(src), "-o", str(dst), "--chunk-size", "2"], capsysbinary)
    assert status == 1
    assert err == b"pctcodec: 10 rows, 2 failed\n"
    out = pq.ParquetFile(dst)
    # the row groups as they were (3, 3, 3, 1), not re-chunked by --chunk-size
    assert [out.metadata.row_group(i).num_rows for i in range(out.num_row_groups)] == [3, 3, 3, 1]
    assert out.read().column("t").to_pylist() == ["a%20b", "caf\u00e9", None, "x", "y"] * 2


def test_parquet_input_never_silently_written_as_csv(tmp_path, capsysbinary):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"t": ["a b"]}), src)
    for out in ("out.csv", "out.tsv"):
        status, _, err = run(["quote", "--column", "t", str(src), "-o", str(tmp_path / out)],
                             capsysbinary)
        assert status == 2 and b"written as PARQUET" in err
        assert not (tmp_path / out).exists()
    csv_in = write(tmp_path, b"t\na b\n")
    status, _, err = run(["quote", "--column", "t", csv_in, "-o", str(tmp_path / "o.parquet")],
                         capsysbinary)
    assert status == 2 and b"written as CSV" in err


def test_rejects_needs_null_or_keep(capsysbinary):
    with pytest.raises(SystemExit) as info:
        main(["quote", "--rejects", "r.csv", "-"])
    assert info.value.code == 2


# ---------------------------------------------------------------- the CSV reader

def unclosed(n):
    return b"id,url\n1,\"http://a/ b,t\n" + b"".join(b"%d,http://a/%d\n" % (i, i) for i in range(n))


def test_unclosed_quote_with_many_rows_is_linear_and_names_its_line(tmp_path, capsysbinary):
    # 10^5 rows after the open quote: this never finished when the reader
    # was quadratic (33 s at 2000 rows); no timing is asserted. The quote's
    # row is cut at the end of its line and fails; the rows after it are done.
    data = unclosed(100_000)
    path = write(tmp_path, data)
    status, out, err = run(["requote", "--column", "url", path], capsysbinary)
    assert status == 1
    assert err == (f"pctcodec: {path}:2: row 1: the quoted field 2 is not closed by the end of "
                   "the file (the row is read to the end of its line) "
                   "(value '1,\"http://a/ b,t')\n").encode()
    status, out, err = run(["requote", "--column", "url", "--on-error", "keep", path], capsysbinary)
    assert (status, out, err) == (1, data, b"pctcodec: 100001 rows, 1 failed\n")


def test_long_quoted_multiline_field(tmp_path, capsysbinary):
    note = b"\n".join(b"line %d, with a comma" % i for i in range(1000))
    data = b'id,url,note\n1,http://a/ b,"' + note + b'"\n2,http://c/,x\n'
    path = write(tmp_path, data)
    status, out, err = run(["requote", "--column", "url", path], capsysbinary)
    assert (status, err) == (0, b"")
    assert out == data.replace(b"http://a/ b", b"http://a/%20b")


def test_bom_before_quoted_header(tmp_path, capsysbinary):
    # what spreadsheet exports write: the BOM stays, the header is recognised
    data = b'\xef\xbb\xbf"url","id"\r\n"http://a/ b",1\r\n'
    path = write(tmp_path, data)
    status, out, err = run(["requote", "--column", "url", path], capsysbinary)
    assert (status, err) == (0, b"")
    assert out == b'\xef\xbb\xbf"url","id"\r\n"http://a/%20b",1\r\n'


SAMPLES = [
    b'id,url,note\r\n1,"a\r\nb",x\r\n\r\n2,c,"q ""r"", s"\r\n3,d"e,"multi\nline\n"\n4,,\n5,"",z',
    b'\xef\xbb\xbfurl\n"x"\n\n\ny',
    b'a,b\n"1,2",3\n"4""5","6\n7"\n',
    b'a,b\n1,\xff\xfe"\n"\xe9",2\r\n',
]


@pytest.mark.parametrize("data", SAMPLES)
def test_reader_gives_the_same_records_whatever_the_block_size(data):
    check_reader(data)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from([b"a", b",", b'"', b'""', b"\r", b"\n", b"\r\n", b"\xc3\xa9",
                                 b"\xff", b"\xef\xbb\xbf"]), max_size=40))
def test_reader_on_any_bytes(parts):
    # whatever the bytes: the same cut for every block size, the input back
    # byte for byte, or the same error (an unclosed quote, a missing field)
    check_reader(b"".join(parts))


def check_reader(data):
    def cut(block, index, expect):
        reader = Reader(io.BytesIO(data), b",", block=block)
        header = reader.header()
        return reader.bom, header, [chunk for chunk in reader.chunks(index, expect, 2)], reader.line

    for index, expect in ((0, 0), (1, 0), (0, 2)):
        try:
            whole = cut(1 << 20, index, expect)
        except ValueError as exc:  # a header with an unclosed or malformed quoted field
            for block in range(1, 9):
                with pytest.raises(type(exc)):
                    cut(block, index, expect)
            continue
        for block in range(1, 9):
            assert cut(block, index, expect) == whole, block
        # the gaps and the fields (as they were: nothing changed) give the
        # input back, byte for byte; the last line is the input's line count
        bom, header, chunks, last = whole
        if header is None:  # nothing but blank lines
            assert chunks == [] and not data.replace(bom, b"", 1).strip(b"\r\n")
            continue
        assert last == len((data[len(bom):] + b"x").splitlines())
        rebuilt = bom + header[0]
        for gaps, values, flags, lines, counts in chunks:
            assert len(gaps) == len(values) + 1 == len(flags) + 1 == len(lines) // 8 + 1
            assert len(counts) == sum(f >= 3 for f in flags)
            fields = [v if isinstance(v, bytes) else
                      (b'"%s"' % v.encode("utf-8", "surrogateescape").replace(b'"', b'""')
                       if f == 1 else v.encode("utf-8", "surrogateescape"))
                      for v, f in zip(values, flags)]
            rebuilt += _pctcodec._csv_join(gaps, fields, flags, b",")
        assert rebuilt == data


def test_rows_missing_the_field_fail_with_their_row(tmp_path, capsysbinary):
    path = write(tmp_path, b"a,b\n1,x\n\n2\n")
    status, _, err = run(["requote", "--column", "b", path], capsysbinary)
    assert status == 1 and f"{path}:4: row 2: 1 fields where the header has 2".encode() in err


# ---------------------------------------------------------------- files and streams

@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_output_mode_follows_umask(umask, mode, tmp_path, capsysbinary):
    path = write(tmp_path, b"u\nx\n")
    old = os.umask(umask)
    try:
        out = tmp_path / "out.csv"
        assert main(["requote", "--column", "u", path, "-o", str(out)]) == 0
        assert stat.S_IMODE(out.stat().st_mode) == mode
    finally:
        os.umask(old)


def test_in_place_rewrite_keeps_the_mode(tmp_path, capsysbinary):
    path = write(tmp_path, b"u\nhttp://a/ b\n")
    os.chmod(path, 0o640)
    assert main(["requote", "--column", "u", path, "-o", path]) == 0
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    with open(path, "rb") as f:
        assert f.read() == b"u\nhttp://a/%20b\n"


def test_output_through_a_symlink_replaces_its_target_and_keeps_the_link(tmp_path, capsysbinary):
    path = write(tmp_path, b"u\nhttp://a/ b\n")
    target = tmp_path / "target.csv"
    target.write_bytes(b"old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    assert main(["requote", "--column", "u", path, "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == b"u\nhttp://a/%20b\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pctcodec-")] == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_output_to_a_fifo_is_written_into_not_replaced(tmp_path, capsysbinary):
    import threading

    path = write(tmp_path, b"u\nhttp://a/ b\n")
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main(["requote", "--column", "u", path, "-o", str(fifo)]) == 0
    reader.join(timeout=60)
    assert got == [b"u\nhttp://a/%20b\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("table", [False, True])
def test_check_reports_bytes_that_are_not_utf8(tmp_path, capsysbinary, table):
    # a raw byte that is not UTF-8 is no URI character: check does not read
    # it as its escape, as requote and normalize do
    path = write(tmp_path, (b"u\n" if table else b"") + b"http://h/caf\xe9\nhttp://ok/\nhttp://\xff/\n")
    status, out, _ = run(["check", *(["--column", "u"] if table else []), path], capsysbinary)
    assert status == 1
    first = 2 if table else 1  # the file line: the header is line 1
    assert out == (b"%d:12: byte 0xE9 is not valid UTF-8 (no URI character)\n"
                   b"%d:7: byte 0xFF is not valid UTF-8 (no URI character)\n" % (first, first + 2))


def test_rejects_and_output_cannot_be_one_file(tmp_path, capsysbinary):
    path = write(tmp_path, b"u\nx\n")
    out = str(tmp_path / "same.csv")
    with pytest.raises(SystemExit) as info:
        main(["quote", "--encoding", "ascii", "--column", "u", "--on-error", "keep", "--rejects", out,
              path, "-o", out])
    assert info.value.code == 2
    assert b"--rejects and -o name the same file" in capsysbinary.readouterr().err


@pytest.mark.parametrize("table", [False, True])
def test_rejects_cannot_be_the_input_file(tmp_path, capsysbinary, table):
    data = (b"u\n" if table else b"") + b"a b\ncaf\xc3\xa9\n"
    path = write(tmp_path, data)
    with pytest.raises(SystemExit) as info:
        main(["quote", "--encoding", "ascii", *(["--column", "u"] if table else []),
              "--on-error", "keep", "--rejects", path, path])
    assert info.value.code == 2
    assert b"--rejects and the input FILE name the same file" in capsysbinary.readouterr().err
    with open(path, "rb") as f:
        assert f.read() == data


@pytest.mark.parametrize("flag", ["-o", "--rejects"])
def test_an_empty_output_name_is_a_usage_error(tmp_path, capsysbinary, flag):
    path = write(tmp_path, b"u\nx\n")
    with pytest.raises(SystemExit) as info:
        main(["quote", "--column", "u", "--on-error", "keep", path, flag, ""])
    assert info.value.code == 2
    assert f"{flag} needs a file name".encode() in capsysbinary.readouterr().err


def test_output_path_errors_name_the_users_path(tmp_path, capsysbinary):
    path = write(tmp_path, b"u\nx\n")
    target = str(tmp_path / "no" / "such" / "out.csv")
    status, _, err = run(["requote", "--column", "u", path, "-o", target], capsysbinary)
    assert status == 2
    assert err.startswith(f"pctcodec: {target}: ".encode()) and b".pctcodec-" not in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("table", [False, True])
def test_output_error_is_an_output_error(tmp_path, table):
    path = write(tmp_path, b"u\n" + b"http://a/ b\n" * 50000)
    argv = ["requote", *(["--column", "u"] if table else []), path]
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "pctcodec", *argv], stdout=full,
                              stderr=subprocess.PIPE, timeout=120, cwd=tmp_path, env=child_env())
    assert proc.returncode == 2
    assert b"standard output: cannot write: No space left on device" in proc.stderr
    assert b"Traceback" not in proc.stderr and b":1:" not in proc.stderr


@pytest.mark.parametrize("table", [False, True])
def test_check_into_a_closed_pipe_exits_1(tmp_path, table):
    # `pctcodec check ... | head -1`: invalid rows exist, so the status is 1
    path = write(tmp_path, b"u\n" + b"http://a/ b\n" * 200000)
    argv = [sys.executable, "-m", "pctcodec", "check", *(["--column", "u"] if table else []), path]
    # from outside the source tree: the installed pctcodec, not the unbuilt sources
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=child_env())
    proc.stdout.readline()
    proc.stdout.close()  # what head does after its line
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 1
    assert b"Traceback" not in err and b"Broken pipe" not in err


def test_threads_zero_is_rejected_before_any_output(tmp_path, capsysbinary):
    path = write(tmp_path, b"u\nx\n")
    for threads in ("0", "-1", str(2 ** 70)):
        with pytest.raises(SystemExit) as info:
            main(["requote", "--column", "u", "--threads", threads, path])
        out, err = capsysbinary.readouterr()
        assert info.value.code == 2 and out == b""
        assert b"--threads" in err


@pytest.mark.parametrize("command", ["requote", "normalize", "check"])
@pytest.mark.parametrize("flag", [["--encoding", "latin-1"], ["--errors", "strict"]])
def test_encoding_and_errors_rejected_where_meaningless(command, flag, capsysbinary):
    with pytest.raises(SystemExit) as info:
        main([command, *flag, "-"])
    assert info.value.code == 2
    assert b"%s applies to quote and unquote only" % flag[0].encode() in capsysbinary.readouterr().err
    with pytest.raises(SystemExit) as info:
        main([command, "--encoding", "latin-1", "--errors", "strict", "-"])
    assert info.value.code == 2
    assert b"--encoding and --errors apply to quote and unquote only" in capsysbinary.readouterr().err


def test_exit_statuses_are_documented():
    from pctcodec.cli import EPILOG

    assert "exit status:" in EPILOG
    for line in ("0  every value done", "1  some values failed", "2  usage error"):
        assert line in EPILOG


@pytest.mark.parametrize("table", [False, True])
@pytest.mark.parametrize("closed", ["stdin", "stdout"])
def test_a_closed_standard_stream_is_an_error_not_a_traceback(tmp_path, capsysbinary, monkeypatch,
                                                              table, closed):
    # started with `<&-` or `>&-`: Python has None for that stream
    path = "-" if closed == "stdin" else write(tmp_path, b"u\na b\n")
    monkeypatch.setattr(sys, closed, None)
    status, _, err = run(["quote", *(["--column", "u", "--format", "csv"] if table else []), path],
                         capsysbinary)
    assert status == 2
    assert err == (b"pctcodec: <stdin>: standard input is closed\n" if closed == "stdin"
                   else b"pctcodec: standard output: cannot write: it is closed\n")
