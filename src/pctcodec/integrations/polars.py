"""pctcodec's functions as a polars namespace: ``pl.col("url").pct.normalize()``.

Importing this module registers the namespace ``pct`` on polars expressions
(for ``select``, ``with_columns``, ``filter``, ``group_by().agg`` and lazy
and streaming queries) and on Series: one method per batch function of
``pctcodec``, with the batch function's signature and every one of its
options. The column goes to the batch function as Arrow (no Python
objects); the result is one column: String, Int64 (``check``), a Struct
for a record per row (``split``, ``domain_parts``, ``query_params``: one
field per name) or a List (``parse_query``). A second column (``resolve``'s
``base``) is an expression (``pl.col("base")``) or one str for every row.

``rejects`` is a list that gets a ``Reject`` per failed row when the query
runs; its ``index`` is the row's position in the column the method sees (the
whole column, or the group under ``group_by().agg``): a method given
``rejects`` sees the whole column at once, not batches.

For type checkers, which cannot see a namespace registered at run time,
``pct(expr)`` and ``pct(series)`` are the same namespaces with each method's
real signature: ``pct(pl.col("url")).normalize(sort_query=True)``.
See docs/integrations.md.
"""
from typing import Any, Callable, Dict, List, Sequence

from ._functions import FUNCTIONS, Function, arrow_array, describe, missing, output_type, with_message

try:
    import polars as pl
except ImportError as _exc:  # the engine is an optional dependency
    raise missing("polars", _exc) from _exc

__all__ = ["ExprNamespace", "SeriesNamespace", "pct"]


def _arrow(series: pl.Series) -> Any:
    """A column of strings as one pyarrow array (Categorical and Enum read
    as their strings, an all-null column as strings)."""
    if series.dtype != pl.String:
        series = series.cast(pl.String)
    import pyarrow as pa

    return arrow_array(pa, series.to_arrow())


def _apply(function: Function, kwargs: Dict[str, Any], series: pl.Series, others: Dict[str, pl.Series]) -> pl.Series:
    """The batch function on one batch of rows, through Arrow; ``others``
    holds the batches of the options that are columns."""
    given = dict(kwargs)
    given[function.column] = _arrow(series)
    given.update({name: _arrow(s) for name, s in others.items()})
    try:
        return pl.Series(series.name, function.batch(**given))
    except Exception as exc:
        raise with_message(exc) from exc


def _split(function: Function, args: Any, given: Any) -> Any:
    """(options, names of the options that are columns, their values, the
    output dtype) of one call, its errors raised here."""
    kwargs = function.bind(None, args, given)
    del kwargs[function.column]
    # an option of kind "column" given as a str is one value for every row,
    # and None is its default (no second column)
    names = [o.name for o in function.options if o.kind == "column" and o.name in kwargs
             and kwargs[o.name] is not None and not isinstance(kwargs[o.name], str)]
    others = [kwargs.pop(name) for name in names]
    import pyarrow as pa

    typ = output_type(function, dict(kwargs, **{name: None for name in names}))
    dtype = pl.Series(pa.array([], type=typ)).dtype
    return kwargs, names, others, dtype


def _expr_method(function: Function) -> Callable[..., pl.Expr]:
    def method(self: "ExprNamespace", *args: Any, **given: Any) -> pl.Expr:
        kwargs, names, others, dtype = _split(function, args, given)
        # rows collected into rejects are numbered in the whole column
        elementwise = kwargs.get("rejects") is None
        if not names:
            return self._expr.map_batches(lambda s: _apply(function, kwargs, s, {}),
                                          return_dtype=dtype, is_elementwise=elementwise)
        exprs: List[Any] = [o if isinstance(o, pl.Expr) else pl.lit(o) for o in others]

        def run(batches: Sequence[pl.Series]) -> pl.Series:
            return _apply(function, kwargs, batches[0], dict(zip(names, batches[1:])))

        return pl.map_batches([self._expr, *exprs], run, return_dtype=dtype, is_elementwise=elementwise)

    return _named(method, function, "ExprNamespace", "the expression's column")


def _series_method(function: Function) -> Callable[..., pl.Series]:
    def method(self: "SeriesNamespace", *args: Any, **given: Any) -> pl.Series:
        kwargs, names, others, _ = _split(function, args, given)
        return _apply(function, kwargs, self._series, dict(zip(names, others)))

    return _named(method, function, "SeriesNamespace", "the Series")


def _named(method: Any, function: Function, cls: str, how: str) -> Any:
    method.__name__ = function.name
    method.__qualname__ = "%s.%s" % (cls, function.name)
    method.__doc__ = describe(function, how)
    method.__signature__ = function.method_signature()
    return method


class ExprNamespace:
    """``pl.col(...).pct``: one method per batch function of pctcodec."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr


class SeriesNamespace:
    """``series.pct``: one method per batch function of pctcodec."""

    def __init__(self, series: pl.Series) -> None:
        self._series = series


for _function in FUNCTIONS:
    setattr(ExprNamespace, _function.name, _expr_method(_function))
    setattr(SeriesNamespace, _function.name, _series_method(_function))

pl.api.register_expr_namespace("pct")(ExprNamespace)
pl.api.register_series_namespace("pct")(SeriesNamespace)


def pct(column: Any) -> Any:
    """The ``pct`` namespace of an expression or Series, typed:
    ``pct(pl.col("url")).normalize()`` is ``pl.col("url").pct.normalize()``,
    with each method's signature seen by type checkers and editors.

    Parameters
    ----------
    column : polars.Expr or polars.Series
        A column of strings.

    Returns
    -------
    ExprNamespace or SeriesNamespace
        The namespace, one method per batch function.

    Raises
    ------
    TypeError
        ``column`` is neither a polars Expr nor a Series.

    Examples
    --------
    >>> import polars as pl
    >>> from pctcodec.integrations.polars import pct
    >>> pl.DataFrame({"u": ["a b"]}).select(pct(pl.col("u")).quote())["u"].to_list()
    ['a%20b']
    """
    if isinstance(column, pl.Expr):
        return ExprNamespace(column)
    if isinstance(column, pl.Series):
        return SeriesNamespace(column)
    raise TypeError("pct() takes a polars Expr or Series, not %.200s" % type(column).__name__)
