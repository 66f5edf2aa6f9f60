"""pctcodec where data people work: a polars namespace, a pandas accessor,
DuckDB SQL functions and Spark Column functions, all built from one table of
functions (``_functions.FUNCTIONS``).

Each integration is a module of its own, imported only when asked for (its
engine is an optional dependency; ``import pctcodec`` loads none of them):

- ``import pctcodec.integrations.polars``: ``pl.col("url").pct.normalize()``;
- ``import pctcodec.integrations.pandas``: ``df["url"].pct.normalize()``;
- ``pctcodec.integrations.duckdb.register(con)``: ``SELECT pct_normalize(url)``;
- ``from pctcodec.integrations.spark import normalize``: ``df.select(normalize("url"))``.

See docs/integrations.md.
"""
