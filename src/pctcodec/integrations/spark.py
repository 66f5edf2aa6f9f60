"""pctcodec's functions as Spark Column functions:
``from pctcodec.integrations.spark import normalize; df.select(normalize("url"))``.

Each function of the table in ``pctcodec.integrations._functions`` is a
function of this module that takes a column (a name or a ``Column``) and
the batch function's options, and gives a ``Column``. It runs on the
executors as a vectorized UDF: an Arrow UDF (``arrow_udf``, Spark 4.1 and
later: the batch function reads the Arrow batch in place), a pandas UDF
before. Spark, pyarrow and pctcodec must be installed where the executors
run. See docs/integrations.md.
"""
import inspect
from typing import Any, Callable, Dict, List

from pyspark.sql import Column, functions as F

from ._functions import FUNCTIONS, OUTPUTS, Function, describe, options

# arrow_udf came with Spark 4.1; before it, a pandas UDF does the same.
ARROW_UDF = hasattr(F, "arrow_udf")

# The Column functions are made from the table below (one per entry, named
# as it); __all__ names what is written here.
__all__ = ["ARROW_UDF"]


def _udf(function: Function, opts: Dict[str, Any], columns: List[str]) -> Callable[..., Column]:
    """The vectorized UDF of one call: the batch function with ``opts``
    bound; the options in ``columns`` come as further columns."""

    def run(values: Any, *others: Any) -> Any:
        return function.batch(values, **opts, **dict(zip(columns, others)))

    # Spark reads the kind of UDF from the type hints.
    if ARROW_UDF:
        import pyarrow

        vector = pyarrow.Array
    else:
        import pandas

        vector = pandas.Series
    params = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=vector)
              for name in ["values"] + columns]
    run.__signature__ = inspect.Signature(params, return_annotation=vector)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: vector for p in params}
    run.__annotations__["return"] = vector
    run.__name__ = function.name
    make = getattr(F, "arrow_udf" if ARROW_UDF else "pandas_udf")
    return make(run, OUTPUTS[function.output]["spark"])  # type: ignore[no-any-return]


def _column_function(function: Function) -> Callable[..., Column]:
    kinds = {o.name: o.kind for o in function.options}

    def column_function(col: Any, *args: Any, **given: Any) -> Column:
        opts = options(function, args, given)
        # an option of kind "column" given as a str is one value for every row
        columns = [name for name in opts if kinds.get(name) == "column" and not isinstance(opts[name], str)]
        others = [opts.pop(name) for name in columns]
        return _udf(function, opts, columns)(col, *others)

    column_function.__name__ = function.name
    column_function.__doc__ = describe(function, "a Spark column (a name or a Column)")
    return column_function


for _function in FUNCTIONS:
    globals()[_function.name] = _column_function(_function)
