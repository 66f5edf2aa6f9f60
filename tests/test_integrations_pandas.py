"""The pandas accessor (pctcodec.integrations.pandas): every function of the
table on every string dtype, index and name kept, against the single-value
functions."""
import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pctcodec.integrations.pandas")

import pctcodec.batch  # noqa: E402
from pctcodec.integrations._functions import FUNCTIONS  # noqa: E402

from _integration_cases import CALLS, FAILING, SAMPLE, expected  # noqa: E402


def dtypes():
    """Every string dtype of the running pandas (with pyarrow: the Arrow-backed ones)."""
    kinds = [object, "category", pd.StringDtype("python")]
    try:
        import pyarrow as pa
    except ImportError:
        return kinds
    kinds += [pd.StringDtype("pyarrow"), pd.ArrowDtype(pa.string()), pd.ArrowDtype(pa.large_string())]
    try:
        kinds.append(pd.StringDtype("pyarrow", na_value=float("nan")))  # pandas 3's default "str"
    except TypeError:
        pass  # pandas < 2.3
    return kinds


def series(dtype):
    return pd.Series(SAMPLE, index=[10, 30, 20, 50, 40], name="links", dtype=dtype)


def plain(values):
    """Missing values of any kind as None."""
    return [None if v is None or v is pd.NA or v != v else v for v in values]


def test_every_function_is_a_method():
    s = series(object)
    for function in FUNCTIONS:
        assert getattr(s.pct, function.name).__doc__.startswith(function.name + "(")


@pytest.mark.parametrize("dtype", dtypes(), ids=str)
@pytest.mark.parametrize("name, args", CALLS)
def test_every_dtype(name, args, dtype):
    s = series(dtype)
    out = getattr(s.pct, name)(*args, on_error="null")
    assert list(out.index) == list(s.index) and out.name == "links"
    assert plain(out) == expected(name, args)
    if name != "check":
        assert out.dtype == s.dtype or isinstance(s.dtype, pd.CategoricalDtype)


@pytest.mark.parametrize("name, args", FAILING)
def test_keep_and_raise(name, args):
    s = series(object)
    assert plain(getattr(s.pct, name)(*args, on_error="keep")) == expected(name, args, on_error="keep")
    with pytest.raises(ValueError) as info:
        getattr(s.pct, name)(*args)
    assert info.value.index == 2


def test_same_as_the_batch_function():
    s = series(object)
    for name, args in CALLS:
        function = next(f for f in FUNCTIONS if f.name == name)
        kwargs = dict(zip([o.name for o in function.options], args))
        pd.testing.assert_series_equal(getattr(s.pct, name)(*args, on_error="null"),
                                       function.batch(s, **kwargs, on_error="null"))


def test_arrow_backed_str_read_in_place(monkeypatch):
    pa = pytest.importorskip("pyarrow")
    s = pd.Series(["a b", None, "c/d"], dtype=pd.StringDtype("pyarrow"))
    held = getattr(s.array, "_pa_array", None)  # the Series' own Arrow data
    if held is None:
        pytest.skip("this pandas keeps its Arrow data elsewhere")
    seen = []
    real = pctcodec.batch._map_arrow

    def spy(op, values):
        seen.append(values)
        return real(op, values)

    monkeypatch.setattr(pctcodec.batch, "_map_arrow", spy)
    assert s.pct.quote("").tolist() == ["a%20b", s[1], "c%2Fd"]
    (given,) = seen
    # the engine was handed the very buffers of the Series: no copy
    assert [b.address for b in given.chunk(0).buffers() if b is not None] == \
           [b.address for b in held.chunk(0).buffers() if b is not None]
