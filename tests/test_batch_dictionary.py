"""Dictionary-encoded Arrow arrays (``pa.array(...).dictionary_encode()``,
what Parquet readers give): each dictionary entry is transformed once, each
row takes its entry's result; the result is a dictionary array of the same
type (check_many: int64 positions per row); nulls, errors and rejects name
the rows of the input, not the entries of the dictionary."""
import pytest

import pctcodec
from pctcodec import _pctcodec
from _batch_cases import check_position

pa = pytest.importorskip("pyarrow")

VALUE_TYPES = [pa.string(), pa.large_string()] + ([pa.string_view()] if hasattr(pa, "string_view") else [])
VALUES = ["http://A.example/%7e b?q=1&x=2", None, "a b", "http://A.example/%7e b?q=1&x=2",
          "é/ü", "a b", "", None, "%41%zz", "http://x.\u4f8b.jp/p?q=%7e"]

MANY = [
    (pctcodec.quote_many, lambda v: pctcodec.quote(v)),
    (pctcodec.quote_plus_many, lambda v: pctcodec.quote_plus(v)),
    (pctcodec.unquote_many, lambda v: pctcodec.unquote(v)),
    (pctcodec.unquote_plus_many, lambda v: pctcodec.unquote_plus(v)),
    (pctcodec.requote_many, lambda v: pctcodec.requote(v)),
    (pctcodec.normalize_many, lambda v: pctcodec.normalize(v)),
    (pctcodec.check_many, check_position),
    (lambda a, **k: pctcodec.query_param_many(a, "q", **k), lambda v: pctcodec.query_param(v, "q")),
    (lambda a, **k: pctcodec.clean_query_many(a, drop=["x"], **k),
     lambda v: pctcodec.clean_query(v, drop=["x"])),
]
IDS = ["quote", "quote_plus", "unquote", "unquote_plus", "requote", "normalize", "check",
       "query_param", "clean_query"]


def encoded(values, value_type=pa.string(), index_type=pa.int32()):
    arr = pa.array(values, type=value_type).dictionary_encode()
    return arr.cast(pa.dictionary(index_type, value_type))


@pytest.mark.parametrize("many, single", MANY, ids=IDS)
@pytest.mark.parametrize("value_type", VALUE_TYPES, ids=str)
def test_rows_as_the_single_value_function(many, single, value_type):
    arr = encoded(VALUES, value_type)
    want = [None if v is None else single(v) for v in VALUES]
    for threads in (1, 2):
        out = many(arr, threads=threads)
        if many is pctcodec.check_many:
            assert out.type == pa.int64()
        else:
            assert out.type == arr.type  # the same dictionary type: indices kept
            out.validate(full=True)
        assert out.to_pylist() == want


def test_index_types_and_null_entries():
    values = ["a b", None, "c", "a b"]
    for index_type in (pa.int8(), pa.int16(), pa.int64(), pa.uint8(), pa.uint32()):
        arr = encoded(values, index_type=index_type)
        out = pctcodec.quote_many(arr)
        assert out.type == pa.dictionary(index_type, pa.string())
        assert out.to_pylist() == ["a%20b", None, "c", "a%20b"]
    # a null in the dictionary itself: the rows that refer to it are null
    arr = pa.DictionaryArray.from_arrays(pa.array([0, 1, 1, None]), pa.array(["a b", None]))
    assert pctcodec.quote_many(arr).to_pylist() == ["a%20b", None, None, None]


def test_each_entry_transformed_once(monkeypatch):
    """A call the C engine leaves to the single-value function (an encoding
    other than UTF-8): one per dictionary entry, however many rows."""
    calls = []
    quote = _pctcodec.quote

    def counting(s, *args):
        calls.append(s)
        return quote(s, *args)

    monkeypatch.setattr(_pctcodec, "quote", counting)
    arr = encoded(["a b", "c d", "a b", None, "c d"] * 1000)
    out = pctcodec.quote_many(arr, encoding="latin-1")
    assert out.to_pylist() == ["a%20b", "c%20d", "a%20b", None, "c%20d"] * 1000
    assert sorted(calls) == ["a b", "c d"]


# unquote with errors="strict" fails on "%FF" (no UTF-8 character)
FAILING = ["ok", "%FF", "x", "%FF", None, "%FF"]


def test_errors_name_the_row():
    arr = encoded(FAILING)
    with pytest.raises(UnicodeDecodeError) as info:
        pctcodec.unquote_many(arr, errors="strict")
    assert info.value.index == 1
    chunked = pa.chunked_array([encoded(["a", "b"]), arr])
    with pytest.raises(UnicodeDecodeError) as info:
        pctcodec.unquote_many(chunked, errors="strict")
    assert info.value.index == 3


@pytest.mark.parametrize("on_error", ["null", "keep"])
def test_on_error_and_rejects_name_the_rows(on_error):
    arr = encoded(FAILING)
    rejects = []
    out = pctcodec.unquote_many(arr, errors="strict", on_error=on_error, rejects=rejects)
    kept = "%FF" if on_error == "keep" else None
    assert out.to_pylist() == ["ok", kept, "x", kept, None, kept]
    assert out.type == arr.type
    assert [(r.index, r.value) for r in rejects] == [(1, "%FF"), (3, "%FF"), (5, "%FF")]
    assert all(isinstance(r.error, UnicodeDecodeError) for r in rejects)
    if on_error == "null":
        assert out.null_count == 4  # the failed rows are null rows, not rows of a null entry
    rejects = []
    chunked = pa.chunked_array([encoded(["a"]), arr])
    out = pctcodec.unquote_many(chunked, errors="strict", on_error=on_error, rejects=rejects)
    assert out.to_pylist() == ["a", "ok", kept, "x", kept, None, kept]
    assert [r.index for r in rejects] == [2, 4, 6]


def test_entry_no_row_refers_to_never_fails():
    arr = pa.DictionaryArray.from_arrays(pa.array([0, 0, None]), pa.array(["a", "%FF"]))
    assert pctcodec.unquote_many(arr, errors="strict").to_pylist() == ["a", "a", None]


def test_index_outside_the_dictionary():
    arr = pa.DictionaryArray.from_arrays(pa.array([0, 1, 7, -1]), pa.array(["a", "b"]), safe=False)
    for many in (pctcodec.quote_many, pctcodec.check_many, pctcodec.split_many):
        with pytest.raises(ValueError, match="malformed Arrow array at index 2: ") as info:
            many(arr)
        assert info.value.index == 2


def test_chunked_keeps_its_type():
    chunked = pa.chunked_array([encoded(["a b", None]), encoded(["c d", "a b"])])
    out = pctcodec.quote_many(chunked)
    assert isinstance(out, pa.ChunkedArray) and out.type == chunked.type
    assert out.to_pylist() == ["a%20b", None, "c%20d", "a%20b"]
    assert pctcodec.check_many(chunked).type == pa.int64()


def test_split_many():
    arr = encoded(["http://a/p?q#f", None, "http://a/p?q#f", "x"])
    out = pctcodec.split_many(arr)
    assert out.to_pylist() == pctcodec.split_many(arr.dictionary_decode()).to_pylist()
    chunked = pa.chunked_array([arr, arr])
    assert len(pctcodec.split_many(chunked)) == 8


def test_parquet_column(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = str(tmp_path / "t.parquet")
    pq.write_table(pa.table({"url": ["a b", "c", "a b", None]}), path)
    column = pq.read_table(path, read_dictionary=["url"]).column("url")
    assert pa.types.is_dictionary(column.type)
    out = pctcodec.quote_many(column)
    assert out.type == column.type and out.to_pylist() == ["a%20b", "c", "a%20b", None]
