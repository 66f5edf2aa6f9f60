"""Pooled result buffers (src/_pctcodec_memory.c: a dropped Arrow result of
32 MiB or more is kept and its buffer reused) as results are really held:
a pandas Series over the Arrow result, a polars Series, a NumPy view of
check_many's int64 values, a pickled and unpickled copy, a result dropped on
another thread, and a forked child that calls again. None of them may
change while later calls reuse the pool; and a loop of calls on 1-3 M rows
does not grow the process (test_batch_reuse.py has the bare arrays)."""
import gc
import hashlib
import os
import pickle
import random
import sys
import threading
import warnings

import pytest

import pctcodec

pa = pytest.importorskip("pyarrow")

ROWS = 400_000  # quote(safe='') of these: about 48 MB, past the 32 MiB pooled


def _column(seed, rows=ROWS):
    rng = random.Random(seed)
    words = ["a", "b/c", "\u00e9", "%41", "x y", "q=1&r", "~", "\u65e5\u672c", "::"]
    return pa.array(["https://h%d.example/%s?%d" % (i % 89, "/".join(rng.choices(words, k=rng.randint(3, 9))), i)
                     for i in range(rows)], pa.string())


def _digest(buffers):
    h = hashlib.sha256()
    for b in buffers:
        if b is not None:
            h.update(memoryview(b))
    return h.hexdigest()


def _arrow_digest(arr):
    if isinstance(arr, pa.ChunkedArray):
        return _digest([b for chunk in arr.chunks for b in chunk.buffers()])
    return _digest(arr.buffers())


def _churn(column):
    """Calls whose big results are dropped at once: each takes and gives back
    pooled buffers."""
    for threads in (1, 2):
        r = pctcodec.quote_many(column, safe="", threads=threads)
        pctcodec.unquote_many(r, threads=threads)
        del r
        pctcodec.check_many(column, threads=threads)
        gc.collect()


@pytest.fixture(scope="module")
def column():
    return _column(7)


def test_held_results_never_change(column):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    held = []  # (what, a way to read its bytes now, their digest at the start)

    def hold(what, read):
        held.append((what, read, read()))

    series = pd.Series(pd.arrays.ArrowExtensionArray(pctcodec.quote_many(column, safe="")))
    hold("pandas", lambda: _arrow_digest(series.array._pa_array))
    frame = pl.from_arrow(pctcodec.quote_many(column, safe="", threads=2))
    hold("polars", lambda: _digest([frame.to_arrow().cast(pa.large_string()).buffers()[2]]))
    values = pctcodec.check_many(pa.array(["a b"] * 4_500_000))  # 36 MB of int64, no null
    view = values.to_numpy(zero_copy_only=True)
    del values
    hold("numpy", lambda: hashlib.sha256(view.tobytes()).hexdigest())
    unpickled = pickle.loads(pickle.dumps(pctcodec.quote_many(column, safe="")))
    hold("unpickled", lambda: _arrow_digest(unpickled))
    kept = pctcodec.quote_many(column, safe="")
    hold("array", lambda: _arrow_digest(kept))
    want = pctcodec.quote_many(column, safe="").to_pylist()
    assert kept.to_pylist() == want

    # a result dropped on another thread goes to the pool from there
    elsewhere = [pctcodec.quote_many(column, safe="")]
    t = threading.Thread(target=elsewhere.clear)
    t.start()
    t.join()

    for _ in range(2):
        _churn(column)
        for what, read, digest in held:
            assert read() == digest, what
    assert kept.to_pylist() == want
    assert view.shape == (4_500_000,) and (view == 1).all()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_forked_child_calls_without_touching_the_parent(column):
    kept = pctcodec.quote_many(column, safe="")
    digest = _arrow_digest(kept)
    dropped = pctcodec.quote_many(column, safe="")
    del dropped  # the pool holds a buffer as the child starts
    gc.collect()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads around
        pid = os.fork()
    if pid == 0:  # the child: the inherited pool serves its calls
        ok = False
        try:
            _churn(column)
            again = pctcodec.quote_many(column, safe="")
            ok = _arrow_digest(again) == digest and _arrow_digest(kept) == digest
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    _churn(column)
    assert _arrow_digest(kept) == digest


@pytest.mark.slow  # 24 calls on 1-3 M rows: about 10 s, run once in CI (pytest -m slow)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
def test_rss_stays_flat_over_a_loop_of_big_calls():
    base = _column(3, rows=3_000_000)
    rng = random.Random(5)

    def rss_mib():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20

    calls = []
    for _ in range(12):
        n = rng.randrange(1_000_000, 3_000_000)
        calls.append((rng.choice([pctcodec.quote_many, pctcodec.unquote_many, pctcodec.requote_many]),
                      rng.randrange(3_000_000 - n), n))
    seen = []
    for _ in range(2):  # the same calls twice
        for func, start, n in calls:
            result = func(base.slice(start, n))
            del result
            seen.append(rss_mib())
    # The pool (at most 4 buffers, a bigger one replacing the smallest) holds
    # after the first pass what these calls need: the second pass reuses it
    # and the process grows no more.
    first, second = seen[:12], seen[12:]
    assert max(second) <= max(first) + 64, seen
