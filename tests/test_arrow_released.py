"""An Arrow array already released (moved into a consumer, so its
``release`` is NULL) is never read: every batch function, and each C entry
point that takes capsules, raises a clear ValueError naming the function.
Before the check, the engine read the released struct (under ASan a
heap-use-after-free in pct_arrow_kind)."""
import pytest

import pctcodec
from pctcodec import _pctcodec

pa = pytest.importorskip("pyarrow")

ROWS = ["http://a b.example.com/p?q=1", None, "c"]


def _consumed():
    """A (schema, array) capsule pair whose structs pyarrow has moved out."""
    capsules = pa.array(ROWS).__arrow_c_array__()
    pa.Array._import_from_c_capsule(*capsules)
    return capsules


class _Producer:
    """Hands over the same capsules at every request."""

    def __init__(self, capsules):
        self.capsules = capsules

    def __arrow_c_array__(self, requested_schema=None):
        return self.capsules


CALLS = {
    "quote_many": lambda v: pctcodec.quote_many(v),
    "normalize_many": lambda v: pctcodec.normalize_many(v, threads=2),
    "check_many": lambda v: pctcodec.check_many(v),
    "registered_domain_many": lambda v: pctcodec.registered_domain_many(v),
    "resolve_many": lambda v: pctcodec.resolve_many("http://x/", v),
    "split_many": lambda v: pctcodec.split_many(v),
    "parse_query_many": lambda v: pctcodec.parse_query_many(v),
    "query_params_many": lambda v: pctcodec.query_params_many(v, ["q"]),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_released_array_is_a_value_error(name):
    with pytest.raises(ValueError):
        CALLS[name](_Producer(_consumed()))


def test_same_capsules_twice():
    """The engine reads a column in place and leaves it to its owner: the
    same live capsules handed over twice give the same result twice."""
    producer = _Producer(pa.array(ROWS).__arrow_c_array__())
    first = pctcodec.quote_many(producer)
    assert pctcodec.quote_many(producer).equals(first)
    assert first.to_pylist() == ["http%3A//a%20b.example.com/p%3Fq%3D1", None, "c"]


@pytest.mark.parametrize("entry", ["_split_arrow", "_query_arrow", "_many_arrow"])
def test_entry_points_refuse_released_structs(entry):
    capsules = _consumed()
    if entry == "_split_arrow":
        call = lambda: _pctcodec._split_arrow(capsules, 0)  # noqa: E731
    elif entry == "_query_arrow":
        call = lambda: _pctcodec._query_arrow(capsules, None, False, 0)  # noqa: E731
    else:
        call = lambda: _pctcodec._many_arrow(capsules, 0, str, "/", None, None, 0, 0, None, 1, 0)  # noqa: E731
    with pytest.raises(ValueError, match="released already"):
        call()
