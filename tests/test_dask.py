"""The batch functions on a Dask cluster of worker processes
(examples/dask_normalize.py), and that they pickle."""
import csv
import importlib.util
import os
import pickle
from pathlib import Path

import pytest

import pctcodec
from pctcodec import normalize, quote, quote_plus, requote, unquote, unquote_plus

ROOT = Path(__file__).resolve().parent.parent
BATCH = {
    "quote_many": quote,
    "quote_plus_many": quote_plus,
    "unquote_many": unquote,
    "unquote_plus_many": unquote_plus,
    "requote_many": requote,
    "normalize_many": normalize,
}
SAMPLE = ["HTTP://Example.COM:80/a/./b c", "http://h/%7euser?q=caf%c3%a9", None, ""]


def _load_example():
    spec = importlib.util.spec_from_file_location("dask_normalize", ROOT / "examples" / "dask_normalize.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(BATCH) + ["check_many"])
def test_batch_functions_pickle(name):
    cloudpickle = pytest.importorskip("cloudpickle")
    func = getattr(pctcodec, name)
    for dumps, loads in ((pickle.dumps, pickle.loads), (cloudpickle.dumps, cloudpickle.loads)):
        loaded = loads(dumps(func))
        assert loaded is func
    if name == "check_many":
        assert loaded(SAMPLE) == func(SAMPLE)
    else:
        single = BATCH[name]
        assert loaded(SAMPLE) == [None if v is None else single(v) for v in SAMPLE]


@pytest.mark.slow
def test_normalize_on_a_process_cluster():
    pytest.importorskip("dask.dataframe")
    pytest.importorskip("dask.distributed")
    import pandas as pd
    import dask.dataframe as dd
    from dask.distributed import Client

    example = _load_example()
    with open(ROOT / "examples" / "urls.csv", encoding="utf-8", newline="") as f:
        records = list(csv.DictReader(f))
    frame = pd.DataFrame(records).set_index("id")
    frame.index = frame.index.astype(int) * 10  # not the default index
    with example.local_cluster(2) as cluster, Client(cluster) as client:
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2 and os.getpid() not in pids  # two worker processes
        lazy = example.normalize_column(dd.from_pandas(frame, npartitions=4), "url")
        result = lazy.compute()
        sorted_query = example.normalize_column(dd.from_pandas(frame, npartitions=3), "url",
                                                sort_query=True).compute()
    assert list(result.index) == list(frame.index)
    assert list(result.columns) == list(frame.columns)
    assert list(result["title"]) == list(frame["title"])
    assert list(result["url"]) == [normalize(u) for u in frame["url"]]
    assert list(sorted_query["url"]) == [normalize(u, sort_query=True) for u in frame["url"]]
    assert list(sorted_query["url"]) != list(result["url"])


def test_pandas_accessor_in_map_partitions():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pctcodec.integrations.pandas")

    frame = pd.DataFrame({"url": SAMPLE * 3}, index=range(100, 100 + 3 * len(SAMPLE)), dtype=object)
    ddf = dd.from_pandas(frame, npartitions=3)
    lazy = ddf["url"].map_partitions(lambda s: s.pct.normalize(), meta=ddf["url"])
    result = lazy.compute(scheduler="sync")
    assert list(result.index) == list(frame.index)
    assert [u if isinstance(u, str) else None for u in result] == \
           [None if u is None else normalize(u) for u in frame["url"]]
