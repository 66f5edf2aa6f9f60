"""Normalize a column of URLs with Dask, on a cluster of worker processes.

    pip install 'dask[dataframe]' distributed
    python examples/dask_normalize.py [CSV] [--column url] [--workers 2] [-o OUT.csv]

``normalize_many`` takes a pandas Series and gives back a Series with the same
index, name and dtype, so it is the function of ``map_partitions`` as it is:
each worker normalizes its partitions in one C call per partition. The batch
functions are plain module-level functions: they pickle by reference (with
pickle and cloudpickle), so Dask ships them to the workers unchanged, and the
workers import pctcodec themselves. The same holds for ``quote_many``,
``unquote_many``, ``requote_many`` and the others, with their options as
keyword arguments.

On a real cluster, pass the scheduler's address to ``Client`` instead of
starting a ``LocalCluster``, and read the data from shared storage
(``dd.read_parquet("s3://...")``); pctcodec must be installed on the workers.
"""
import argparse
import os

import dask.dataframe as dd
from dask.distributed import Client, LocalCluster

from pctcodec import normalize_many

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "urls.csv")


def normalize_column(frame, column="url", **options):
    """The Dask dataframe with `column` normalized (lazy: call .compute()).

    options are those of normalize: sort_query=True, drop_fragment=True.
    """
    urls = frame[column]
    normalized = urls.map_partitions(normalize_many, **options, meta=urls._meta)
    return frame.assign(**{column: normalized})


def local_cluster(workers=2):
    """A cluster of `workers` processes with one thread each, on free ports."""
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                        scheduler_port=0, dashboard_address=None)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="?", default=EXAMPLE, help="CSV file (default: examples/urls.csv)")
    parser.add_argument("--column", default="url")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sort-query", action="store_true")
    parser.add_argument("-o", "--output", help="write the result as one CSV file")
    args = parser.parse_args(argv)

    with local_cluster(args.workers) as cluster, Client(cluster):
        # Every column as text, empty fields as empty strings (not NaN).
        frame = dd.read_csv(args.csv, dtype=str, keep_default_na=False, blocksize="16MB")
        result = normalize_column(frame, args.column, sort_query=args.sort_query)
        if args.output:
            result.to_csv(args.output, single_file=True, index=False)
        else:
            print(result.head(10, npartitions=-1).to_string(index=False))


if __name__ == "__main__":
    main()
