"""The command line on tables: one column of a CSV, TSV or Parquet file changes,
everything else stays as it was."""
import csv
import io
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pctcodec import check, normalize, quote, unquote, PercentEncodingError
from pctcodec.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "urls.csv"


def run(argv, capsysbinary):
    status = main(argv)
    out, err = capsysbinary.readouterr()
    return status, out, err


def rows(data):
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def write(tmp_path, data, name="in.csv"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_example_normalized_row_by_row(capsysbinary):
    status, out, err = run(["normalize", "--column", "url", str(EXAMPLE)], capsysbinary)
    assert (status, err) == (0, b"")
    before, after = rows(EXAMPLE.read_bytes()), rows(out)
    assert len(after) == len(before) > 200
    assert after[0] == before[0] == ["id", "url", "title"]
    for old, new in zip(before[1:], after[1:]):
        assert new[0] == old[0] and new[2] == old[2]
        assert new[1] == normalize(old[1])
    assert any(new != old for old, new in zip(before, after))


def test_unchanged_values_give_the_same_bytes(tmp_path, capsysbinary):
    # The URLs are normalized already, so every byte must come back as it was,
    # whatever the quoting of the other fields (needless quotes, doubled quotes,
    # a quote inside an unquoted field, empty and multi-line fields).
    data = (b'id,"url",note,x\r\n'
            b'1,http://a.example/,"plain",\r\n'
            b'2,"http://b.example/p",,"say ""hi"", ok"\r\n'
            b'3,http://c.example/?q=1,ab"c,"two\r\nlines"\r\n'
            b'\r\n'
            b'4,,"",""\r\n'
            b'5,"",x,"\xe6\x9d\xb1, \xff raw"')  # no terminator on the last record
    path = write(tmp_path, data)
    status, out, err = run(["normalize", "--column", "url", path], capsysbinary)
    assert (status, out, err) == (0, data, b"")


def test_quoting_kept_and_added(tmp_path, capsysbinary):
    data = (b"id,value,other\n"
            b'1,"a%2Cb",x\n'        # quoted: stays quoted
            b"2,a%2Cb,y\n"          # unquoted, but the result has a comma: quoted
            b"3,say %22hi%22,z\n"   # a quote in the result: quoted, doubled
            b'4,"multi%0Aline","q"\n'
            b"5,plain,w\n")
    path = write(tmp_path, data)
    status, out, _ = run(["unquote", "--column", "value", path], capsysbinary)
    assert status == 0
    assert out == (b"id,value,other\n"
                   b'1,"a,b",x\n'
                   b'2,"a,b",y\n'
                   b'3,"say ""hi""",z\n'
                   b'4,"multi\nline","q"\n'
                   b"5,plain,w\n")
    assert [r[1] for r in rows(out)[1:]] == [unquote(r[1]) for r in rows(data)[1:]]


def test_crlf_and_embedded_newlines_in_the_column(tmp_path, capsysbinary):
    data = b'name,path\r\n"x","a b\r\nc"\r\ny,d e\r\n'
    path = write(tmp_path, data)
    status, out, _ = run(["quote", "--column", "path", path], capsysbinary)
    assert status == 0
    assert out == b'name,path\r\n"x","' + quote("a b\r\nc").encode() + b'"\r\ny,d%20e\r\n'


def test_invalid_utf8_handled_as_in_line_mode(tmp_path, capsysbinary):
    data = b"u,v\na\xffb,\xfe\n"
    path = write(tmp_path, data)
    assert run(["quote", "--column", "u", path], capsysbinary) == (0, b"u,v\na%FFb,\xfe\n", b"")
    assert run(["unquote", "--column", "u", path], capsysbinary) == (0, data, b"")
    assert run(["requote", "--column", "u", path], capsysbinary) == (0, b"u,v\na%FFb,\xfe\n", b"")


def test_header_only_and_empty_file(tmp_path, capsysbinary):
    path = write(tmp_path, b"id,url\r\n")
    assert run(["normalize", "--column", "url", path], capsysbinary) == (0, b"id,url\r\n", b"")
    path = write(tmp_path, b"", "empty.csv")
    status, out, err = run(["normalize", "--column", "url", path], capsysbinary)
    assert (status, out) == (2, b"")
    assert b"no header" in err


def test_errors_exit_2_with_a_clear_message(tmp_path, capsysbinary):
    path = write(tmp_path, b"id,url\n1,x\n")
    status, out, err = run(["normalize", "--column", "URL", path], capsysbinary)
    assert (status, out) == (2, b"")
    assert b"no column 'URL'" in err and b"'id', 'url'" in err
    # a header byte that is not UTF-8 is shown as \xNN (it was a surrogate escape)
    path = write(tmp_path, b"id,\xffurl\n1,x\n", "bad_header.csv")
    status, out, err = run(["normalize", "--column", "url", path], capsysbinary)
    assert (status, out) == (2, b"")
    assert b"'id', '\\xffurl'" in err and b"udc" not in err
    # a ragged row and an unclosed quote are failed rows (status 1), named by their line
    path = write(tmp_path, b"id,url\n1,x\n2\n", "ragged.csv")
    status, _, err = run(["normalize", "--column", "url", path], capsysbinary)
    assert status == 1 and f"{path}:3: row 2: 1 fields where the header has 2".encode() in err
    path = write(tmp_path, b'id,url\n1,"x\n', "open.csv")
    status, _, err = run(["normalize", "--column", "url", path], capsysbinary)
    assert status == 1 and f"{path}:2: row 1: the quoted field 2 is not closed".encode() in err
    path = write(tmp_path, b'id,"url\n1,x\n', "open-header.csv")
    status, _, err = run(["normalize", "--column", "url", path], capsysbinary)
    assert status == 2 and b"the header: line 1: a quoted field of this record is not closed" in err
    path = write(tmp_path, b"id,url\n", "data.txt")
    status, _, err = run(["normalize", "--column", "url", path], capsysbinary)
    assert (status, err) == (2, f"pctcodec: {path}: unknown extension .txt; "
                                "give --format {csv,tsv,parquet}\n".encode())
    for option in (["-o", "x.csv"], ["--progress"], ["--chunk-size", "3"], ["--delimiter", ";"]):
        with pytest.raises(SystemExit) as info:
            main(["normalize", *option, path])  # table options without --column
        assert info.value.code == 2
    capsysbinary.readouterr()
    path = write(tmp_path, b"id,url\n", "data.csv")
    status, _, err = run(["normalize", "--column", "url", "--chunk-size", "0", path], capsysbinary)
    assert (status, err) == (2, f"pctcodec: {path}: --chunk-size must be at least 1\n".encode())


@pytest.mark.parametrize("chunk", ["2", "100"])
def test_failing_value_names_its_row_and_leaves_no_output(chunk, tmp_path, capsysbinary):
    path = write(tmp_path, "id,t\n1,abc\n\n2,ok\n3,café\n4,thé\n".encode())
    out_path = tmp_path / "out.csv"
    status, _, err = run(["quote", "--encoding", "ascii", "--errors", "strict", "--column", "t",
                          path, "-o", str(out_path), "--chunk-size", chunk], capsysbinary)
    assert status == 1
    with pytest.raises(UnicodeEncodeError) as info:
        quote("café", encoding="ascii", errors="strict")
    # file line 5, data row 3 (the blank line is not counted), with the single-value message
    assert err == (f"pctcodec: {path}:5: row 3: 'ascii' codec cannot encode 'é' (at 3): "
                   f"{info.value.reason} (value 'café')\n").encode()
    assert not out_path.exists() and list(tmp_path.iterdir()) == [Path(path)]


def test_check_reports_row_and_position(capsysbinary):
    status, out, err = run(["check", "--column", "url", str(EXAMPLE)], capsysbinary)
    want = []
    data = EXAMPLE.read_bytes()
    # one record a line: the file line is the record's number + 1
    assert all("\n" not in field for record in rows(data) for field in record)
    for row, record in enumerate(rows(data)[1:], 2):
        try:
            check(record[1])
        except PercentEncodingError as exc:
            want.append(f"{row}:{exc.position}: {exc.reason}")
    assert want and out.decode().splitlines() == want
    assert (status, err) == (1, b"")
    # The normalized table is all valid: no report, status 0.
    run(["normalize", "--column", "url", str(EXAMPLE)], capsysbinary)


def test_check_of_valid_values(tmp_path, capsysbinary):
    path = write(tmp_path, b"url\nhttp://a/\n\n%41\n")
    assert run(["check", "--column", "url", path], capsysbinary) == (0, b"", b"")


@pytest.mark.parametrize("chunk", ["1", "2", "7"])
def test_small_chunks_give_the_same_result(chunk, capsysbinary):
    whole = run(["normalize", "--column", "url", str(EXAMPLE)], capsysbinary)
    chunked = run(["normalize", "--column", "url", "--chunk-size", chunk, str(EXAMPLE)], capsysbinary)
    assert chunked == whole
    whole = run(["check", "--column", "url", str(EXAMPLE)], capsysbinary)
    chunked = run(["check", "--column", "url", "--chunk-size", chunk, str(EXAMPLE)], capsysbinary)
    assert chunked == whole


def test_delimiters_tsv_stdin_and_output_file(tmp_path, monkeypatch, capsysbinary):
    path = write(tmp_path, b"a;b\nx y;1\n", "semi.csv")
    assert run(["quote", "--column", "a", "--delimiter", ";", path], capsysbinary) == (0, b"a;b\nx%20y;1\n", b"")
    path = write(tmp_path, b"a\tb\nx;y\t1\n", "t.tsv")
    assert run(["quote-plus", "--column", "a", path], capsysbinary) == (0, b"a\tb\nx%3By\t1\n", b"")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a,b\n%41,1\n")))
    assert run(["unquote", "--column", "a", "-"], capsysbinary) == (0, b"a,b\nA,1\n", b"")
    out_path = tmp_path / "out.csv"
    assert run(["unquote", "--column", "a", path, "--format", "tsv", "-o", str(out_path)],
               capsysbinary) == (0, b"", b"")
    assert out_path.read_bytes() == b"a\tb\nx;y\t1\n"


def test_progress_without_tqdm(monkeypatch, capsysbinary):
    plain = run(["normalize", "--column", "url", str(EXAMPLE)], capsysbinary)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm fails
    status, out, err = run(["normalize", "--column", "url", "--progress", str(EXAMPLE)], capsysbinary)
    assert (status, out) == plain[:2]
    assert b"tqdm is not installed" in err
    size = EXAMPLE.stat().st_size
    assert err.rstrip().endswith(f"{size} of {size} B (100%)".encode())


def test_progress_with_tqdm(capsysbinary):
    pytest.importorskip("tqdm")
    plain = run(["normalize", "--column", "url", str(EXAMPLE)], capsysbinary)
    status, out, err = run(["normalize", "--column", "url", "--progress", str(EXAMPLE)], capsysbinary)
    assert (status, out) == plain[:2]
    assert b"100%" in err and b"tqdm" not in err


# ---------------------------------------------------------------- Parquet


@pytest.fixture
def parquet_file(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    urls = [line for line in rows(EXAMPLE.read_bytes())[1:]]
    n = len(urls)
    table = pa.table({
        "id": pa.array(range(n), pa.int32()),
        "url": pa.array([None if i % 17 == 3 else r[1] for i, r in enumerate(urls)], pa.large_string()),
        "title": pa.array([r[2] for r in urls], pa.string()),
        "score": pa.array([None if i % 5 == 0 else i / 3 for i in range(n)], pa.float64()),
    }).replace_schema_metadata({b"origin": b"examples/urls.csv"})
    path = tmp_path / "urls.parquet"
    pq.write_table(table, path, compression="zstd", row_group_size=100)
    return path, table


@pytest.mark.parametrize("chunk", ["32768", "7"])
def test_parquet_round_trip(parquet_file, tmp_path, chunk, capsysbinary):
    import pyarrow.parquet as pq

    path, table = parquet_file
    out_path = tmp_path / "out.parquet"
    status, out, err = run(["normalize", "--column", "url", str(path), "-o", str(out_path),
                            "--chunk-size", chunk], capsysbinary)
    assert (status, out, err) == (0, b"", b"")
    result = pq.read_table(out_path)
    assert result.schema.equals(table.schema, check_metadata=True)
    for name in ("id", "title", "score"):
        assert result.column(name).equals(table.column(name))
    want = [None if u is None else normalize(u) for u in table.column("url").to_pylist()]
    assert result.column("url").to_pylist() == want
    assert want.count(None) > 10
    assert pq.ParquetFile(out_path).metadata.row_group(0).column(1).compression == "ZSTD"


def test_parquet_check_and_errors(parquet_file, tmp_path, capsysbinary):
    path, table = parquet_file
    status, out, _ = run(["check", "--column", "url", str(path)], capsysbinary)
    want = []
    for row, url in enumerate(table.column("url").to_pylist(), 1):
        if url is not None:
            try:
                check(url)
            except PercentEncodingError as exc:
                want.append(f"{row}:{exc.position}: {exc.reason}")
    assert status == 1 and want and out.decode().splitlines() == want
    status, _, err = run(["normalize", "--column", "url", str(path)], capsysbinary)
    assert status == 2 and b"-o OUT" in err
    status, _, err = run(["normalize", "--column", "score", str(path), "-o", str(tmp_path / "o.parquet")],
                         capsysbinary)
    assert status == 2 and b"not a string type" in err
    assert not (tmp_path / "o.parquet").exists()
    bad = write(tmp_path, b"PAR1 but not Parquet", "bad.parquet")
    status, _, err = run(["check", "--column", "url", bad, "--progress"], capsysbinary)
    assert status == 2 and b"not a readable Parquet file" in err


@pytest.mark.parametrize("chunk", ["32768", "7"])
def test_parquet_dictionary_and_null_columns(parquet_file, tmp_path, chunk, capsysbinary):
    # A pandas categorical is written as a dictionary-encoded column; a column
    # with no value at all may be of type null. Both keep their type, and
    # failures name rows, not dictionary entries.
    import pyarrow as pa
    import pyarrow.parquet as pq

    path, table = parquet_file
    urls = table.column("url").to_pylist()
    urls[5] = urls[9] = "http://a/%FF"  # not UTF-8 once unquoted: fails under errors=strict
    dict_table = pa.table({"url": pa.array(urls, pa.string()).dictionary_encode(),
                           "none": pa.nulls(len(urls))})
    src = tmp_path / "dict.parquet"
    pq.write_table(dict_table, src, row_group_size=50)
    out_path = tmp_path / "out.parquet"
    rejects = tmp_path / "rejects.txt"
    status, _, _ = run(["unquote", "--column", "url", str(src), "-o", str(out_path), "--chunk-size", chunk,
                        "--errors", "strict", "--on-error", "keep", "--rejects", str(rejects)], capsysbinary)
    result = pq.read_table(out_path)
    assert status == 1 and result.schema.equals(dict_table.schema)
    want = [u if i in (5, 9) or u is None else unquote(u, errors="strict") for i, u in enumerate(urls)]
    assert result.column("url").to_pylist() == want
    assert [r[:2] for r in csv.reader(io.StringIO(rejects.read_text()))] == [
        ["line", "row"], ["", "6"], ["", "10"]]  # Parquet has no lines
    status, _, _ = run(["split", "--column", "none", str(src), "-o", str(out_path), "--parts", "host"],
                       capsysbinary)
    result = pq.read_table(out_path)
    assert status == 0 and result.column_names == ["url", "none", "none_host"]
    assert result.column("none").type == pa.null() and result.column("none_host").null_count == len(urls)
    status, _, _ = run(["normalize", "--column", "none", str(src), "-o", str(out_path)], capsysbinary)
    assert status == 0 and pq.read_table(out_path).schema.equals(dict_table.schema)


def test_parquet_without_pyarrow(tmp_path, monkeypatch, capsysbinary):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    path = write(tmp_path, b"PAR1", "x.parquet")
    status, _, err = run(["normalize", "--column", "url", path, "-o", str(tmp_path / "o.parquet")], capsysbinary)
    assert status == 2 and b"need pyarrow" in err


FIELD_TEXT = st.text(alphabet=st.sampled_from(list('ab %2Fé,"\r\n;')), max_size=8)


# Each example runs the command on a file: a fifth of the profile's examples.
@settings(deadline=None, max_examples=max(10, settings.default.max_examples // 5))
@given(records=st.lists(st.lists(FIELD_TEXT, min_size=3, max_size=3), max_size=6),
       crlf=st.booleans(), chunk=st.integers(1, 4))
def test_any_csv_round_trips(records, crlf, chunk):
    # Tables written by Python's csv module, read back by it: the column is
    # unquoted value by value, every other field comes back as it was.
    text = io.StringIO(newline="")
    csv.writer(text, lineterminator="\r\n" if crlf else "\n").writerows([["a", "b", "c"], *records])
    data = text.getvalue().encode("utf-8")
    # csv.writer leaves a lone '\r' unquoted when it is not in the line
    # terminator: a table that does not read back is not a CSV table.
    assume(rows(data) == [["a", "b", "c"], *records])
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "t.csv")
        out_path = os.path.join(folder, "out.csv")
        with open(path, "wb") as f:
            f.write(data)
        assert main(["unquote", "--column", "b", path, "-o", out_path, "--chunk-size", str(chunk)]) == 0
        with open(out_path, "rb") as f:
            out = f.read()
    assert rows(out) == [["a", "b", "c"]] + [[x, unquote(y), z] for x, y, z in records]
