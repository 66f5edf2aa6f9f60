"""pctcodec's functions as a pandas Series accessor: ``df["url"].pct.normalize()``.

Importing this module registers the accessor ``pct`` on pandas Series. Every
function of the table in ``pctcodec.integrations._functions`` is a method;
the result keeps the Series' index, name and dtype (object, ``string`` of
either storage, pandas 3's ``str``, ``pd.ArrowDtype`` strings, category),
as the batch functions do. See docs/integrations.md.
"""
from typing import Any, Callable

import pandas as pd

from ._functions import FUNCTIONS, Function, describe, options

__all__ = ["SeriesAccessor"]


def _method(function: Function) -> Callable[..., Any]:
    def method(self: "SeriesAccessor", *args: Any, **given: Any) -> Any:
        return function.batch(self._series, **options(function, args, given))

    method.__name__ = function.name
    method.__doc__ = describe(function, "the Series")
    return method


@pd.api.extensions.register_series_accessor("pct")
class SeriesAccessor:
    """``series.pct``: one method per function of pctcodec's table."""

    def __init__(self, series: Any) -> None:
        self._series = series


for _function in FUNCTIONS:
    setattr(SeriesAccessor, _function.name, _method(_function))
