"""The offsets of a batch result written chunk by chunk: a column of several
of the engine's chunks (at most 8192 rows each), on one thread and on
several, alone and as the arrays of a chunked column, gives a valid array
of the input's type equal to the list's result."""
import pytest

import pctcodec

pa = pytest.importorskip("pyarrow")

TYPES = {"string": pa.string(), "large_string": pa.large_string()}
if hasattr(pa, "string_view"):
    TYPES["string_view"] = pa.string_view()

ROWS = 3 * 8192 + 77  # four chunks, the last a short one


def column_values():
    # rows of many lengths (views inline and not), nulls, some rows that
    # quote makes longer and some check_many finds an offence in
    out = []
    for i in range(ROWS):
        if i % 97 == 0:
            out.append(None)
        elif i % 5 == 0:
            out.append("/p %d/ü" % i)
        else:
            out.append("http://example.com/" + "x" * (i % 23) + "?v=%d" % i)
    return out


VALUES = column_values()


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("tname", sorted(TYPES))
def test_quote_many_offsets_over_chunks(tname, threads):
    typ = TYPES[tname]
    arr = pa.array(VALUES, type=typ)
    want = pctcodec.quote_many(VALUES)
    got = pctcodec.quote_many(arr, threads=threads)
    assert got.type == typ
    got.validate(full=True)
    assert got.to_pylist() == want
    # the arrays of a chunked column are put together into one result
    col = pa.chunked_array([arr.slice(0, 10000), arr.slice(10000, 1), arr.slice(10001)])
    got = pctcodec.quote_many(col, threads=threads)
    got = got.combine_chunks() if isinstance(got, pa.ChunkedArray) else got
    got.validate(full=True)
    assert got.to_pylist() == want


@pytest.mark.parametrize("threads", [1, 2])
def test_check_many_values_over_chunks(threads):
    arr = pa.array(VALUES)
    got = pctcodec.check_many(arr, threads=threads)
    assert got.type == pa.int64()
    got.validate(full=True)
    assert got.to_pylist() == pctcodec.check_many(VALUES)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("on_error", ["null", "keep"])
def test_failed_rows_keep_their_offsets(on_error, threads):
    # rows that fail between good ones, in every chunk
    values = ["%%FF%d" % i if i % 1000 == 7 else "a%%20b%d" % i for i in range(ROWS)]
    arr = pa.array(values)
    rejects = []
    got = pctcodec.unquote_many(arr, errors="strict", on_error=on_error, rejects=rejects,
                                threads=threads)
    want_rejects = []
    want = pctcodec.unquote_many(values, errors="strict", on_error=on_error, rejects=want_rejects)
    got.validate(full=True)
    assert got.to_pylist() == want
    assert [r[0] for r in rejects] == [r[0] for r in want_rejects]
