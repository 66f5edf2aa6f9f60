"""pctcodec where data people work: a polars namespace, a pandas accessor,
DuckDB SQL functions and Spark Column functions, each offering every public
batch function of pctcodec with every option, derived from the functions
themselves (``_functions.FUNCTIONS``: their signatures, docstrings and
Arrow output types).

Each integration is a module of its own, imported only when asked for (its
engine is an optional dependency, and importing the module without it is an
ImportError naming the extra to install; ``import pctcodec`` loads none of
them):

- ``import pctcodec.integrations.polars``: ``pl.col("url").pct.normalize()``
  (typed: ``pct(pl.col("url")).normalize()``);
- ``import pctcodec.integrations.pandas``: ``df["url"].pct.normalize()``
  (typed: ``pct(df["url"]).normalize()``);
- ``pctcodec.integrations.duckdb.register(con)``: ``SELECT pct_normalize(url)``;
- ``from pctcodec.integrations.spark import normalize``: ``df.select(normalize("url"))``.

See docs/integrations.md.
"""
