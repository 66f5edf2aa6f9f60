"""The messages a new user meets first: each says what is wrong once, in the
user's terms (the character, not its bytes; the index once; the real reason
a file cannot be written), and the command line has the options the
documentation uses."""
import os

import pytest

import pctcodec
from pctcodec.cli import main


def run(argv, capsysbinary):
    status = main(argv)
    out, err = capsysbinary.readouterr()
    return status, out, err


def test_codec_error_shows_the_character(tmp_path, capsysbinary):
    path = tmp_path / "names.txt"
    path.write_bytes("café\n".encode("utf-8"))
    status, _, err = run(["quote", "--encoding", "ascii", str(path)], capsysbinary)
    assert status == 1
    assert "'ascii' codec cannot encode 'é' (at 3)" in err.decode("utf-8")
    assert b"\\xc3\\xa9" not in err


def test_undecodable_input_is_still_said_in_bytes(tmp_path, capsysbinary):
    # A byte that is not UTF-8 has no character to show: its byte is named.
    path = tmp_path / "names.txt"
    path.write_bytes(b"caf\xe9\n")
    status, _, err = run(["quote", "--encoding", "ascii", str(path)], capsysbinary)
    assert status == 1 and b"0xE9" in err


def test_type_error_names_the_index_once():
    with pytest.raises(TypeError) as info:
        pctcodec.quote_many(["ok", 5])
    assert str(info.value) == "quote_many() value at index 1 must be str or None, not int"
    assert info.value.index == 1


def test_type_error_of_a_pandas_row_names_it_once():
    pd = pytest.importorskip("pandas")
    for dtype in (object, "category"):
        with pytest.raises(TypeError) as info:
            pctcodec.normalize_many(pd.Series(["http://a/", 7], dtype=dtype))
        assert str(info.value).count("index 1") == 1, dtype


@pytest.mark.parametrize("argv, message", [
    (["-o", "x.csv"], "-o applies to tables only"),
    (["-o", "x.csv", "--threads", "2"], "-o, --threads apply to tables only"),
])
def test_table_options_without_column(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        main(["normalize", *argv, os.devnull])
    assert info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="needs Linux's /proc")
def test_output_in_a_folder_that_takes_no_file(tmp_path, capsysbinary):
    source = tmp_path / "in.csv"
    source.write_bytes(b"id,url\n1,http://a/\n")
    status, _, err = run(["normalize", "--column", "url", str(source), "-o", "/proc/version"],
                         capsysbinary)
    assert status == 2
    assert err.startswith(b"pctcodec: /proc/version: cannot write: no new file can be made in /proc")
    assert b"replaces the file" in err


def test_output_in_a_missing_folder(tmp_path, capsysbinary):
    source = tmp_path / "in.csv"
    source.write_bytes(b"id,url\n1,http://a/\n")
    target = tmp_path / "no" / "out.csv"
    status, _, err = run(["normalize", "--column", "url", str(source), "-o", str(target)], capsysbinary)
    assert status == 2
    assert b"no new file can be made in %s" % os.fsencode(target.parent) in err
    assert not target.parent.exists()


HOSTS = ["http://exa\u00admple.com/", "http://a\u200b\ufffd.com/", "http://ok.example/"]


def test_strict_idna_option(tmp_path, capsysbinary):
    source = tmp_path / "urls.txt"
    source.write_bytes("".join(h + "\n" for h in HOSTS).encode("utf-8"))
    want_strict = []
    for uri in HOSTS:
        try:
            want_strict.append(pctcodec.normalize(uri, strict_idna=True))
        except pctcodec.PercentEncodingError:
            want_strict.append("")
    status, out, _ = run(["normalize", "--strict-idna", "--on-error", "null", str(source)], capsysbinary)
    assert out.decode("utf-8").splitlines() == want_strict
    assert "" in want_strict and status == 1  # the option changes something
    status, out, _ = run(["normalize", str(source)], capsysbinary)
    assert status == 0 and out.decode("utf-8").splitlines() == [pctcodec.normalize(h) for h in HOSTS]


def test_strict_idna_on_a_table(tmp_path, capsysbinary):
    source = tmp_path / "in.csv"
    source.write_bytes(("id,url\n" + "".join("%d,%s\n" % (i, h) for i, h in enumerate(HOSTS))).encode())
    status, out, err = run(["normalize", "--strict-idna", "--column", "url", str(source)], capsysbinary)
    assert status == 1 and b"in.csv:3: row 2: host has no IDNA" in err


def test_strict_idna_is_for_normalize_only(capsys):
    with pytest.raises(SystemExit):
        main(["requote", "--strict-idna", os.devnull])
    assert "--strict-idna apply to normalize only" in capsys.readouterr().err


def test_a_table_as_a_stream_is_named_a_table():
    # a RecordBatchReader (any stream of record batches) is a whole table,
    # as a Table is: said so, not "not Arrow format '+s'"
    pa = pytest.importorskip("pyarrow")
    reader = pa.table({"u": ["a b"]}).to_reader()
    with pytest.raises(TypeError, match=r"quote_many\(\) takes one column \(such as "
                                        r"df\['url'\]\), not a whole table"):
        pctcodec.quote_many(reader)


def test_check_many_docstring_offers_no_keep():
    # check_many refuses on_error="keep": its docstring said "keep" gave the
    # input unchanged
    doc = " ".join(pctcodec.check_many.__doc__.split())  # (3.13 on dedent docstrings)
    assert "input unchanged" not in doc
    assert '"keep" is a ValueError' in doc
    with pytest.raises(ValueError):
        pctcodec.check_many(["a"], on_error="keep")


def test_utf16_header_gets_a_hint(tmp_path, capsysbinary):
    for codec in ("utf-16-le", "utf-16-be"):
        path = tmp_path / "u16.csv"
        bom = "\ufeff".encode(codec)
        path.write_bytes(bom + "url\nhttp://a/\n".encode(codec))
        status, out, err = run(["quote", "--column", "url", str(path)], capsysbinary)
        assert (status, out) == (2, b"")
        assert b"no column 'url'" in err
        assert b"UTF-16 byte order mark" in err and b"iconv -f UTF-16 -t UTF-8" in err
    path.write_bytes(b"uri\nhttp://a/\n")  # no hint where it does not apply
    status, _, err = run(["quote", "--column", "url", str(path)], capsysbinary)
    assert status == 2 and b"no column 'url'" in err and b"UTF-16" not in err
