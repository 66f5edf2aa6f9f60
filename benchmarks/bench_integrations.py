"""The integrations against the batch functions they wrap, and DuckDB's SQL
functions against DuckDB's own.

    python benchmarks/bench_integrations.py [--quick] [--rows N] [--spark-rows N] [--repeats N] [--json PATH]

The column: bench_batch.make_urls (real URLs from urls_sample.txt, messy
variants). Measured in one run; each pair of timings interleaved, best of
--repeats by the CPU time of the process (one thread everywhere; Spark by
wall time). The machine is shared and noisy: read the ratios.

- polars: ``df.lazy().select(pl.col("url").pct.F()).collect()`` against
  ``F_many(df["url"])`` (target: <= TARGET_POLARS x), threads=1 both;
- pandas: ``s.pct.F()`` against ``F_many(s)`` on pandas' default string
  dtype (target: <= TARGET_PANDAS x), threads=1 both;
- pandas and polars, two columns: ``resolve_many(bases, refs)`` on two
  pandas ``str`` Series (and two polars Series, and the accessor
  ``refs.pct.resolve(bases)``) against two Arrow arrays (target: <=
  TARGET_RESOLVE x), threads=1;
- DuckDB SQL, one thread: ``SELECT count(pct_quote(url, '')) FROM t``
  against DuckDB's ``SELECT count(url_encode(url)) FROM t`` (target: >=
  TARGET_DUCKDB x faster), outputs checked identical first; then each
  function against its closest SQL expression,
  with the number of rows where the two outputs differ (the SQL ones are
  approximations: see their notes);
- Spark (when pyspark and Java are there), local[1]: each Column function
  over --spark-rows rows against a plain Python UDF calling the batch
  function row by row, every output checked equal to the batch function's
  on the Arrow column first.
"""
import argparse
import gc
import json
import os
import platform
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pyarrow as pa  # noqa: E402

import pctcodec  # noqa: E402
from bench_batch import make_urls  # noqa: E402

TARGET_POLARS = 1.10
TARGET_PANDAS = 1.05
TARGET_DUCKDB = 2.0
TARGET_RESOLVE = 1.3
FUNCTIONS = [("normalize", ()), ("quote", ("",)), ("unquote", ())]

# (pctcodec SQL, the closest DuckDB SQL, a note on how they differ)
SQL_PEERS = [
    ("pct_quote(url, '')", "url_encode(url)", "the target: same output"),
    ("pct_unquote(url)", "try(url_decode(url))", "url_decode fails on bytes that are not UTF-8 (ours: U+FFFD)"),
    ("pct_quote_plus(url)", "replace(url_encode(url), '%20', '+')", ""),
    ("pct_unquote_plus(url)", "try(url_decode(replace(url, '+', ' ')))", "as above"),
    ("pct_query_param(url, 'v')",
     "try(url_decode(replace(regexp_extract(url, '[?&]v=([^&#]*)', 1), '+', ' ')))",
     "regexp: '' where there is no v, v after '#' matched"),
    ("pct_clean_query(url, ['utm_*'])",
     "regexp_replace(regexp_replace(url, '([?&])utm_[^&#]*&?', '\\1', 'g'), '[?&](#|$)', '\\1')",
     "the usual REGEXP_REPLACE chain: escaped names missed"),
    ("pct_normalize(url)", None, "no SQL equivalent"),
    ("pct_check(url)", None, "no SQL equivalent"),
]


def paired(repeats, *funcs, clock=time.process_time):
    """The best time of each function by ``clock``, run in turns (after one
    warm-up each), so that the load of the machine falls on all of them
    alike; gc off."""
    for f in funcs:
        f()
    best = [float("inf")] * len(funcs)
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            for k, f in enumerate(funcs):
                t0 = clock()
                f()
                best[k] = min(best[k], clock() - t0)
    finally:
        if enabled:
            gc.enable()
    return best


def bench_polars(urls, repeats):
    import polars as pl

    import pctcodec.integrations.polars  # noqa: F401

    df = pl.DataFrame({"url": urls})
    rows = []
    for name, args in FUNCTIONS:
        batch = getattr(pctcodec, name + "_many")
        lazy = df.lazy().select(getattr(pl.col("url").pct, name)(*args, threads=1))
        direct = batch(df["url"], *args, threads=1)
        assert lazy.collect()["url"].equals(direct)
        t_direct, t_lazy, t_stream = paired(repeats, lambda: batch(df["url"], *args, threads=1), lazy.collect,
                                            lambda: lazy.collect(engine="streaming"))
        rows.append({"function": name, "direct_s": t_direct, "lazy_s": t_lazy, "streaming_s": t_stream,
                     "ratio": t_lazy / t_direct, "streaming_ratio": t_stream / t_direct})
    return rows


def bench_pandas(urls, repeats):
    import pandas as pd

    import pctcodec.integrations.pandas  # noqa: F401

    rows = []
    for dtype in ("str", object):
        s = pd.Series(urls, dtype=dtype)
        for name, args in FUNCTIONS:
            batch = getattr(pctcodec, name + "_many")
            method = getattr(s.pct, name)
            pd.testing.assert_series_equal(method(*args, threads=1), batch(s, *args, threads=1))
            t_direct, t_accessor = paired(repeats, lambda: batch(s, *args, threads=1),
                                          lambda: method(*args, threads=1))
            rows.append({"function": name, "dtype": str(s.dtype), "direct_s": t_direct,
                         "accessor_s": t_accessor, "ratio": t_accessor / t_direct})
    return rows


def bench_resolve(urls, repeats):
    import pandas as pd
    import polars as pl

    import pctcodec.integrations.pandas  # noqa: F401

    refs = urls
    bases = [u if u and u.startswith("http") else "http://example.com/a/b" for u in reversed(urls)]
    arrow_pair = (pa.array(bases), pa.array(refs))
    pandas_pair = (pd.Series(bases, dtype="str"), pd.Series(refs, dtype="str"))
    polars_pair = (pl.Series(bases), pl.Series(refs))
    want = pctcodec.resolve_many(*arrow_pair, threads=1, on_error="null").to_pylist()
    got = pctcodec.resolve_many(*pandas_pair, threads=1, on_error="null")
    assert [None if v is None or v != v else v for v in got.tolist()] == want
    calls = [("resolve_many(pandas str, pandas str)", lambda: pctcodec.resolve_many(*pandas_pair, threads=1, on_error="null")),
             ("refs.pct.resolve(bases), pandas str",
              lambda: pandas_pair[1].pct.resolve(pandas_pair[0], threads=1, on_error="null")),
             ("resolve_many(polars, polars)", lambda: pctcodec.resolve_many(*polars_pair, threads=1, on_error="null"))]
    times = paired(repeats, lambda: pctcodec.resolve_many(*arrow_pair, threads=1, on_error="null"),
                   *[f for _, f in calls])
    return [{"call": name, "arrow_s": times[0], "s": t, "ratio": t / times[0]}
            for (name, _), t in zip(calls, times[1:])]


def bench_duckdb(urls, repeats):
    import duckdb

    from pctcodec.integrations import duckdb as pct_duckdb

    con = pct_duckdb.register(duckdb.connect())
    con.execute("SET threads=1")
    con.register("urls", pa.table({"url": pa.array(urls)}))
    con.execute("CREATE TABLE t AS SELECT * FROM urls")
    rows = []
    for ours, theirs, note in SQL_PEERS:
        run_ours = lambda: con.execute("SELECT count(%s) FROM t" % ours).fetchall()  # noqa: E731
        if theirs is None:
            (t_ours,) = paired(repeats, run_ours)
            rows.append({"ours": ours, "sql": None, "ours_s": t_ours, "note": note})
            continue
        differ = con.execute("SELECT count(*) FILTER (WHERE (%s) IS DISTINCT FROM (%s)) FROM t"
                             % (ours, theirs)).fetchall()[0][0]
        t_ours, t_theirs = paired(repeats, run_ours,
                                  lambda: con.execute("SELECT count(%s) FROM t" % theirs).fetchall())
        rows.append({"ours": ours, "sql": theirs, "ours_s": t_ours, "sql_s": t_theirs,
                     "speedup": t_theirs / t_ours, "rows_differ": differ, "note": note})
    return rows


def bench_spark(urls, repeats):
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return None, "pyspark is not installed"
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return None, "no Java runtime"
    from pyspark.sql import SparkSession, functions as F

    from pctcodec.integrations import spark as pct_spark

    spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "1").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    calls = [("quote", {"safe": ""}), ("quote_plus", {}), ("unquote", {}), ("unquote_plus", {}), ("requote", {}),
             ("normalize", {}), ("check", {}), ("query_param", {"name": "v"}), ("clean_query", {"drop": ["utm_*"]}),
             ("registered_domain", {}), ("canonicalize", {})]
    df = spark.createDataFrame(pa.table({"url": pa.array(urls)}).to_pandas()).cache()
    df.count()
    rows = []
    for name, kwargs in calls:
        batch = getattr(pctcodec, name + "_many")
        ours = getattr(pct_spark, name)("url", **kwargs, on_error="null")
        got = [r[0] for r in df.select(ours).collect()]
        want = batch(pa.array(urls), **kwargs, on_error="null").to_pylist()
        assert got == want, name
        # a plain Python UDF, row by row
        plain = F.udf(lambda u, f=batch, kw=kwargs: f([u], **kw, on_error="null")[0],
                      "bigint" if name == "check" else "string")
        # wall time: the work is in the JVM and its Python workers
        t_ours, t_plain = paired(repeats, lambda: df.select(F.count(ours)).collect(),
                                 lambda: df.select(F.count(plain("url"))).collect(), clock=time.perf_counter)
        rows.append({"function": name, "ours_s": t_ours, "python_udf_s": t_plain,
                     "speedup": t_plain / t_ours, "equal_to_batch": True})
    version = spark.version
    spark.stop()
    return rows, "Spark %s, %s" % (version, "arrow_udf" if pct_spark.ARROW_UDF else "pandas_udf")


def report(data):
    n = data["rows"]
    print("pctcodec integrations, %d URLs, Python %s (%s); best of %d, CPU time, one run on a shared machine"
          % (n, data["python"], data["machine"], data["repeats"]))
    print("\npolars: lazy select with pl.col('url').pct.F() against F_many(series)  (target <= %.2fx)"
          % TARGET_POLARS)
    for r in data["polars"]:
        print("  %-10s direct %7.1f ms  lazy %7.1f ms  %.3fx  %s | streaming %7.1f ms  %.3fx"
              % (r["function"], r["direct_s"] * 1e3, r["lazy_s"] * 1e3, r["ratio"],
                 "met" if r["ratio"] <= TARGET_POLARS else "MISSED", r["streaming_s"] * 1e3, r["streaming_ratio"]))
    print("\npandas: s.pct.F() against F_many(s)  (target <= %.2fx)" % TARGET_PANDAS)
    for r in data["pandas"]:
        print("  %-10s %-7s direct %7.1f ms  accessor %7.1f ms  %.3fx  %s"
              % (r["function"], r["dtype"], r["direct_s"] * 1e3, r["accessor_s"] * 1e3, r["ratio"],
                 "met" if r["ratio"] <= TARGET_PANDAS else "MISSED"))
    print("\nresolve_many, two columns, threads=1, against two Arrow arrays  (target <= %.2fx)" % TARGET_RESOLVE)
    for r in data["resolve"]:
        print("  %-40s arrow %7.1f ms  this %7.1f ms  %.3fx  %s"
              % (r["call"], r["arrow_s"] * 1e3, r["s"] * 1e3, r["ratio"],
                 "met" if r["ratio"] <= TARGET_RESOLVE else "MISSED"))
    print("\nDuckDB %s SQL, SET threads=1: SELECT count(expr) FROM t  (pct_quote target >= %.1fx url_encode)"
          % (data["duckdb_version"], TARGET_DUCKDB))
    for r in data["duckdb"]:
        if r["sql"] is None:
            print("  %-32s %7.1f ms  (%s)" % (r["ours"], r["ours_s"] * 1e3, r["note"]))
            continue
        target = ""
        if r["ours"] == "pct_quote(url, '')":
            target = "  %s" % ("met" if r["speedup"] >= TARGET_DUCKDB and r["rows_differ"] == 0 else "MISSED")
        print("  %-32s %7.1f ms | %7.1f ms  %s\n  %32s %.2fx faster, %d rows differ%s%s"
              % (r["ours"], r["ours_s"] * 1e3, r["sql_s"] * 1e3, r["sql"], "", r["speedup"], r["rows_differ"],
                 target, " (%s)" % r["note"] if r["note"] else ""))
    print("\nSpark (%s), local[1], %s rows: Column function against a Python UDF calling the batch function per row"
          % (data["spark_note"], data["spark_rows"]))
    for r in data["spark"] or []:
        print("  %-13s %8.1f ms | python udf %8.1f ms  %.2fx faster; every output equal to the "
              "batch function" % (r["function"], r["ours_s"] * 1e3, r["python_udf_s"] * 1e3, r["speedup"]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke test: few rows, one repeat")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--spark-rows", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--no-spark", action="store_true")
    parser.add_argument("--only", choices=["polars", "pandas", "resolve", "duckdb"], action="append",
                        help="run only these parts (repeatable); Spark runs unless --no-spark")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.spark_rows, args.repeats = 20_000, 2_000, 1
    import duckdb

    urls = make_urls(args.rows)
    data = {"rows": args.rows, "repeats": args.repeats, "python": platform.python_version(),
            "machine": platform.machine(), "duckdb_version": duckdb.__version__}
    parts = {"polars": bench_polars, "pandas": bench_pandas, "resolve": bench_resolve, "duckdb": bench_duckdb}
    for part, bench in parts.items():
        data[part] = bench(urls, args.repeats) if not args.only or part in args.only else []
    data["spark_rows"] = args.spark_rows
    if args.no_spark:
        data["spark"], data["spark_note"] = None, "not run (--no-spark)"
    else:
        data["spark"], data["spark_note"] = bench_spark(urls[:args.spark_rows], max(1, args.repeats // 2))
    report(data)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)


if __name__ == "__main__":
    main()
