"""Result buffers of 1 MiB and more are kept when the caller drops a result
and reused for the next one (src/_pctcodec_memory.c). A buffer must never be
handed out while a result still uses it, and a reused one must hold the new
result only: results kept alive across later calls stay as they were, on one
thread and on several, for arrays, chunked arrays and large_string.
"""
import gc
import random

import pytest

import pctcodec

pa = pytest.importorskip("pyarrow")

# about 40 MB of text: results of quote(safe='') are well over the pooled size
ROWS = 300_000


def _urls(seed):
    rng = random.Random(seed)
    words = ["a", "b/c", "é", "%41", "x y", "q=1&r", "~", "%zz", "日本", "::"]
    return ["https://h%d.example/%s?%d" % (i % 97, "/".join(rng.choices(words, k=rng.randint(4, 24))), i)
            for i in range(ROWS)]


@pytest.fixture(scope="module")
def columns():
    return [_urls(seed) for seed in (1, 2)]


def _quoted(urls):
    return pa.array([pctcodec.quote(u, safe="") for u in urls], pa.string())


@pytest.fixture(scope="module")
def expected(columns):
    """Per column: its quote(safe='') and the unquote of that, from the
    single-value functions."""
    out = []
    for urls in columns:
        quoted = _quoted(urls)
        out.append((quoted, pa.array([pctcodec.unquote(q) for q in quoted.to_pylist()], pa.string())))
    return out


def _same(result, want):
    if isinstance(result, pa.ChunkedArray):
        result = result.combine_chunks()
    return result.cast(pa.string()).equals(want)


@pytest.mark.parametrize("kind, threads", [("string", 1), ("large_string", 2), ("chunked", 2)])
def test_results_kept_alive_stay_intact(columns, expected, threads, kind):
    def column(urls):
        if kind == "chunked":
            third = len(urls) // 3
            return pa.chunked_array([urls[:third], urls[third:2 * third], urls[2 * third:]], pa.string())
        return pa.array(urls, getattr(pa, kind)())

    assert expected[0][0].nbytes > 1 << 20  # the size that is pooled
    kept = []
    for round_ in range(2):
        for urls, (want, unquoted) in zip(columns, expected):
            result = pctcodec.quote_many(column(urls), safe="", threads=threads)
            assert _same(result, want)
            # a result dropped at once frees its buffers for the next call
            dropped = pctcodec.quote_many(column(urls), safe="", threads=threads)
            del dropped
            gc.collect()
            if round_ == 0:
                kept.append((result, want))
            back = pctcodec.unquote_many(result, threads=threads)
            assert _same(back, unquoted)
            del back
    for result, want in kept:  # untouched by every later call
        assert _same(result, want)


def test_smaller_result_after_a_bigger_one(columns):
    big = pctcodec.quote_many(pa.array(columns[0] * 2), safe="", threads=1)
    del big
    urls = columns[1][: ROWS // 2]
    small = pctcodec.quote_many(pa.array(urls), safe="", threads=1)
    assert _same(small, _quoted(urls))
    # the values end where the offsets say: nothing of the earlier result shows
    offsets = small.buffers()[1]
    data = small.buffers()[2]
    assert data.size >= int.from_bytes(offsets.to_pybytes()[-4:], "little", signed=True)


@pytest.mark.parametrize("name", ["split_many", "parse_query_many", "query_params_many"])
def test_columns_of_several_buffers_reused_by_size(columns, name):
    """These ask for each buffer at its size in the last call (to take their
    own back from the pool): a call on a bigger column, then a smaller and a
    different one, each equal to the single calls, and every result kept
    alive unchanged by the calls after it."""
    fn = getattr(pctcodec, name)
    args = (["q", "r", "x y"],) if name == "query_params_many" else ()

    def want(urls):
        if name == "split_many":
            return [pctcodec.split(u)._asdict() for u in urls]
        if name == "parse_query_many":
            return [pctcodec.parse_query(u) for u in urls]
        return [pctcodec.query_params(u, *args) for u in urls]

    def got(result):
        if name == "parse_query_many":
            return [[tuple(p.values()) for p in row] for row in result.to_pylist()]
        return result.to_pylist()

    sizes = [columns[0] * 2, columns[1][: ROWS // 3], columns[0][: ROWS // 2], columns[1]]
    kept = []
    for urls in sizes:
        result = fn(pa.array(urls), *args)
        dropped = fn(pa.array(urls), *args)
        del dropped
        gc.collect()
        kept.append((result, urls))
    for result, urls in kept:
        assert got(result) == want(urls)


@pytest.mark.parametrize("threads", [1, 2])
def test_result_that_outgrows_its_first_buffer(threads):
    """A result is first given room for about its input's size, and a thread
    maps those pages ahead of the writer; a result three times longer moves
    its buffer while that thread runs, and must still be every row's own."""
    rows = ["é" * (40 + i % 50) + "/%d" % i for i in range(120_000)]  # 10 MB of UTF-8
    got = pctcodec.quote_many(pa.array(rows), safe="", threads=threads)
    assert got.nbytes > 3 * pa.array(rows).nbytes // 2
    assert got.to_pylist() == [pctcodec.quote(r, safe="") for r in rows]
