"""The integrations as a type-checked code base uses them, for mypy --strict
and pyright with pandas-stubs and polars installed (tests/test_typing.py):
``pct(s)`` and ``pct(pl.col(c))`` (the typed spelling of ``s.pct`` and
``pl.col(c).pct``, which type checkers cannot see: they are registered at
run time) with each method's real signature, and the Spark functions. A
line marked ``# type: ignore[...]`` must be an error (mypy --strict warns
of an unused ignore; pyright runs with reportUnnecessaryTypeIgnoreComment).
Not a test module; it also runs as a script."""
import sys
from typing import Any, Dict, List, Optional

import pandas as pd
import polars as pl

if sys.version_info >= (3, 11):
    from typing import assert_type
else:
    from typing_extensions import assert_type

from pctcodec import Reject, domain_parts_many, query_params_many
from pctcodec.integrations.pandas import SeriesAccessor, pct as pd_pct
from pctcodec.integrations.polars import ExprNamespace, SeriesNamespace, pct as pl_pct

urls = pd.Series(["HTTP://Example.COM/a?utm_source=x&id=7", None, "http://x.example/"], dtype="str")
bases = pd.Series(["http://a/b/", "http://c/", "http://d/"], dtype="str")

# pandas: the accessor with the batch functions' signatures
assert_type(pd_pct(urls), SeriesAccessor)
assert_type(pd_pct(urls).normalize(sort_query=True, strip_whitespace=False), "pd.Series[str]")
assert_type(pd_pct(urls).quote("", "utf-8", "strict", threads=1), "pd.Series[str]")
assert_type(pd_pct(urls).check(on_error="null"), "pd.Series[int]")
assert_type(pd_pct(urls).domain_parts(private=True), pd.DataFrame)
assert_type(pd_pct(urls).query_params(["id", "q"], all=True), pd.DataFrame)
assert_type(pd_pct(urls).resolve(bases, normalize=True, on_error="null"), "pd.Series[str]")
assert_type(pd_pct(urls).resolve("http://base/"), "pd.Series[str]")
rejects: List[Reject] = []
cleaned = pd_pct(urls).canonicalize(drop=["utm_*"], strip_www=True, on_error="null", rejects=rejects)


def pandas_errors() -> None:  # checked, never run
    pd_pct(urls).quote(sfe="")  # type: ignore[call-arg]
    pd_pct(urls).normalize(on_error="skip")  # type: ignore[arg-type]
    pd_pct(urls).check(on_error="keep")  # type: ignore[arg-type]
    pd_pct(urls).query_param()  # type: ignore[call-arg]
    pd_pct(["a"])  # type: ignore[arg-type]


# polars: the namespaces on an expression and on a Series
assert_type(pl_pct(pl.col("url")), ExprNamespace)
assert_type(pl_pct(pl.col("url")).normalize(drop_fragment=True), pl.Expr)
assert_type(pl_pct(pl.col("url")).resolve(pl.col("base"), strict=False), pl.Expr)
assert_type(pl_pct(pl.col("url")).clean_query(drop="utm_*", ignore_case=True), pl.Expr)
assert_type(pl_pct(pl.Series("url", ["a b"])), SeriesNamespace)
assert_type(pl_pct(pl.Series("url", ["a b"])).split(on_error="keep"), pl.Series)
frame = pl.DataFrame({"url": ["http://h/?a=1"], "base": ["http://b/"]}).with_columns(
    pl_pct(pl.col("url")).query_params("a").alias("params"),
    pl_pct(pl.col("url")).registered_domain(unicode=True).alias("domain"),
)


def polars_errors() -> None:  # checked, never run
    pl_pct(pl.col("url")).normalize(sort=True)  # type: ignore[call-arg]
    pl_pct(pl.col("url")).resolve(7)  # type: ignore[arg-type]


# The batch functions on a pandas Series: a table, not a list
assert_type(domain_parts_many(urls), Any)
assert_type(query_params_many(urls, ["id"]), Any)
listed: List[Optional[Dict[str, Any]]] = query_params_many(["http://h/?id=1"], "id")
