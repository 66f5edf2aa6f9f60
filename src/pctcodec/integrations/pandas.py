"""pctcodec's functions as a pandas Series accessor: ``df["url"].pct.normalize()``.

Importing this module registers the accessor ``pct`` on pandas Series: one
method per batch function of ``pctcodec`` (``s.pct.quote`` is
``quote_many(s, ...)``), with the batch function's signature and every one
of its options, ``rejects`` included (a list that gets a ``Reject`` per
failed row, its ``index`` the row's position in the Series). The result is
the batch function's for a Series: the same index, name and dtype for a
column of strings, a DataFrame for a record per row (``split``,
``domain_parts``, ``query_params``). A second column (``resolve``'s
``base``) is a Series aligned on the index (as pandas aligns two Series:
a label it lacks gives a null base), or one str for every row.

For type checkers, which cannot see an accessor (pandas-stubs types
``s.pct`` as the Series' element type), ``pct(s)`` is the same accessor
with each method's real signature: ``pct(s).normalize(sort_query=True)``.
See docs/integrations.md.
"""
from typing import Any, Callable

from ._functions import FUNCTIONS, Function, describe, missing

try:
    import pandas as pd
except ImportError as _exc:  # the engine is an optional dependency
    raise missing("pandas", _exc) from _exc

__all__ = ["SeriesAccessor", "pct"]


def _aligned(series: Any, other: Any, name: str) -> Any:
    """A second column aligned on the Series' index, as pandas aligns two
    Series (a label the other lacks gives a null there); positions are not
    trusted when the indexes differ."""
    if not isinstance(other, pd.Series) or other.index.equals(series.index):
        return other
    if not (series.index.is_unique and other.index.is_unique):
        raise ValueError("%s: the index of the second column differs from the Series' and is not "
                         "unique, so its rows cannot be matched; align it first (e.g. "
                         "other.set_axis(s.index))" % name)
    return other.reindex(series.index)


def _method(function: Function) -> Callable[..., Any]:
    columns = [o.name for o in function.options if o.kind == "column"]

    def method(self: "SeriesAccessor", *args: Any, **given: Any) -> Any:
        kwargs = function.bind(self._series, args, given)
        for name in columns:
            if name in kwargs:
                kwargs[name] = _aligned(self._series, kwargs[name], "s.pct.%s(%s=...)" % (function.name, name))
        return function.batch(**kwargs)

    method.__name__ = function.name
    method.__qualname__ = "SeriesAccessor." + function.name
    method.__doc__ = describe(function, "the Series")
    method.__signature__ = function.method_signature()  # type: ignore[attr-defined]
    return method


class SeriesAccessor:
    """``series.pct``: one method per batch function of pctcodec."""

    def __init__(self, series: Any) -> None:
        self._series = series


for _function in FUNCTIONS:
    setattr(SeriesAccessor, _function.name, _method(_function))

pd.api.extensions.register_series_accessor("pct")(SeriesAccessor)


def pct(series: Any) -> SeriesAccessor:
    """The ``pct`` accessor of a Series, typed: ``pct(s).normalize()`` is
    ``s.pct.normalize()``, with each method's signature seen by type
    checkers and editors.

    Parameters
    ----------
    series : pandas.Series
        A column of strings.

    Returns
    -------
    SeriesAccessor
        The accessor, one method per batch function.

    Raises
    ------
    TypeError
        ``series`` is not a pandas Series.

    Examples
    --------
    >>> import pandas as pd
    >>> from pctcodec.integrations.pandas import pct
    >>> pct(pd.Series(["a b"])).quote().tolist()
    ['a%20b']
    """
    if not isinstance(series, pd.Series):
        raise TypeError("pct() takes a pandas Series, not %.200s" % type(series).__name__)
    return SeriesAccessor(series)
