"""pctcodec's functions as a polars namespace: ``pl.col("url").pct.normalize()``.

Importing this module registers the namespace ``pct`` on polars expressions
(for ``select``, ``with_columns``, ``filter``, ``group_by().agg`` and lazy
and streaming queries) and on Series. Every function of the table in
``pctcodec.integrations._functions`` is a method; see docs/integrations.md.
"""
from typing import Any, Callable, Dict, Sequence

import polars as pl

from ._functions import FUNCTIONS, OUTPUTS, Function, describe, options, with_message

__all__ = ["ExprNamespace", "SeriesNamespace"]


def _strings(series: pl.Series) -> pl.Series:
    """A Categorical column is read as its strings: the declared output
    dtype is String whatever the input's."""
    return series.cast(pl.String) if series.dtype == pl.Categorical else series


def _apply(function: Function, opts: Dict[str, Any], series: pl.Series, others: Dict[str, Any]) -> pl.Series:
    """The batch function on one batch of rows; ``others`` holds the
    batches of the options that are columns."""
    given = dict(opts)
    given.update({name: _strings(s) for name, s in others.items()})
    try:
        return function.batch(_strings(series), **given)  # type: ignore[no-any-return]
    except Exception as exc:
        raise with_message(exc) from exc


def _expr_method(function: Function) -> Callable[..., pl.Expr]:
    dtype = getattr(pl, OUTPUTS[function.output]["polars"])
    columns = [o.name for o in function.options if o.kind == "column"]

    def method(self: "ExprNamespace", *args: Any, **given: Any) -> pl.Expr:
        opts = options(function, args, given)
        # an option of kind "column" given as a str is one value for every row
        names = [name for name in columns if name in opts and not isinstance(opts[name], str)]
        if not names:
            # elementwise: polars may cut the column into batches (streaming)
            return self._expr.map_batches(lambda s: _apply(function, opts, s, {}),
                                          return_dtype=dtype, is_elementwise=True)
        others = [opts.pop(name) for name in names]

        def run(batches: Sequence[pl.Series]) -> pl.Series:
            return _apply(function, opts, batches[0], dict(zip(names, batches[1:]))).alias(batches[0].name)

        return pl.map_batches([self._expr, *others], run, return_dtype=dtype, is_elementwise=True)

    method.__name__ = function.name
    method.__doc__ = describe(function, "the expression's column")
    return method


def _series_method(function: Function) -> Callable[..., pl.Series]:
    def method(self: "SeriesNamespace", *args: Any, **given: Any) -> pl.Series:
        return _apply(function, options(function, args, given), self._series, {})

    method.__name__ = function.name
    method.__doc__ = describe(function, "the Series")
    return method


@pl.api.register_expr_namespace("pct")
class ExprNamespace:
    """``pl.col(...).pct``: one method per function of pctcodec's table."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr


@pl.api.register_series_namespace("pct")
class SeriesNamespace:
    """``series.pct``: one method per function of pctcodec's table."""

    def __init__(self, series: pl.Series) -> None:
        self._series = series


for _function in FUNCTIONS:
    setattr(ExprNamespace, _function.name, _expr_method(_function))
    setattr(SeriesNamespace, _function.name, _series_method(_function))
