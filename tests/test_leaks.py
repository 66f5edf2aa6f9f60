"""No memory or reference leaks: every public function of pctcodec called
many times on valid and on invalid input (the rows of tests/_calls.py).

After a warm-up (caches, free lists, lazily built tables), the calls must
not grow the interpreter's allocated blocks, the process's resident memory,
or the reference count of any argument. PCTCODEC_LEAK_CALLS sets the
number of calls per function (default 10^5; more for a local hunt).
"""
import gc
import os
import sys

import pytest

import _calls

CALLS = int(os.environ.get("PCTCODEC_LEAK_CALLS", "100000"))
BLOCK_SLACK = 1000         # blocks: caches filled on first use, interned names (a leak of one
                           # block a call is CALLS blocks; 331 were seen once from first-use caches)
RSS_SLACK = 4 * 2**20      # bytes: one more arena or malloc page run, not a leak per call


def _rss():
    """Resident memory of this process in bytes, or None off Linux and under
    .ci/sanitize.sh: AddressSanitizer keeps freed memory in quarantine (up to
    256 MB) so that it can catch a use after free, and resident memory grows
    until the quarantine is full, leak or not. Nor under .ci/valgrind.sh:
    the process's memory is valgrind's, which keeps the stacks of the batch
    functions' finished threads (valgrind checks the extension's own blocks
    itself)."""
    if os.environ.get("PCTCODEC_SANITIZED") or os.environ.get("PCTCODEC_VALGRIND"):
        return None
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return None


def _table_names():
    names = []
    for row in _calls.calls():
        if row[0] not in names:
            names.append(row[0])
    return names


def test_every_public_function_has_rows():
    valid = {row[0] for row in _calls.calls(invalid=False)}
    invalid = {row[0] for row in _calls.calls(valid=False)}
    public = _calls.public_functions()
    assert public and not set(public) - valid, "no valid call of %s" % sorted(set(public) - valid)
    assert not set(public) - invalid, "no invalid call of %s" % sorted(set(public) - invalid)


def test_rows_return_or_raise_as_listed():
    for name, args, kwargs in _calls.calls(invalid=False):
        _calls.resolve(name)(*args, **kwargs)
    for name, args, kwargs in _calls.calls(valid=False):
        with pytest.raises(Exception):
            _calls.resolve(name)(*args, **kwargs)


def _watched(rows):
    """The arguments whose reference counts mean something (not ints, None)."""
    objs = [o for _, args, kwargs in rows for o in list(args) + list(kwargs.values())]
    return [o for o in objs if isinstance(o, (str, bytes, bytearray, list, dict, memoryview))]


@pytest.mark.slow
@pytest.mark.parametrize("name", _table_names())
def test_no_leak(name):
    func = _calls.resolve(name)
    rows = [row for row in _calls.calls() if row[0] == name]
    calls = [(args, kwargs) for _, args, kwargs in rows]

    def run(n):
        # Whole rounds, so that every run ends on the same row (a remembered
        # `safe` then holds the same reference before and after).
        for _ in range(max(1, n // len(calls))):
            for args, kwargs in calls:
                try:
                    func(*args, **kwargs)
                except Exception:
                    pass

    watched = _watched(rows)
    run(min(CALLS // 10, 10000))
    gc.collect()
    refs_before = [sys.getrefcount(o) for o in watched]
    blocks_before = sys.getallocatedblocks()
    rss_before = _rss()
    run(CALLS)
    gc.collect()
    blocks_after = sys.getallocatedblocks()
    rss_after = _rss()
    refs_after = [sys.getrefcount(o) for o in watched]

    grown = blocks_after - blocks_before
    assert grown < BLOCK_SLACK, "%s: %d memory blocks more after %d calls" % (name, grown, CALLS)
    if rss_before is not None:
        assert rss_after - rss_before < RSS_SLACK, "%s: resident memory grew by %d bytes after %d calls" % (
            name, rss_after - rss_before, CALLS)
    leaked = [(ascii(o)[:60], b, a) for o, b, a in zip(watched, refs_before, refs_after) if a != b]
    assert not leaked, "%s: reference counts of arguments changed: %r" % (name, leaked)
