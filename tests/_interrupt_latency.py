"""Ctrl-C latency of every batch function: run as a child process by
tests/test_interrupts.py, or alone to print the table
(``python tests/_interrupt_latency.py [ROWS [CASE ...]]``; CASE as printed,
``name:kind:threads``, measures only those).

Each case calls the function on rows sized to run well past the signal
(from a timed call on a tenth of them), with a real-time timer
(``signal.setitimer``) that delivers SIGALRM, whose handler is the default
SIGINT handler (KeyboardInterrupt), SIGNAL_AT seconds into the call (a
third into a shorter one). The
latency is the time from the signal to KeyboardInterrupt reaching the
caller. One line per case: ``case expected_s latency_s outcome``, where
expected_s is the call's estimated uninterrupted time and outcome is
"interrupted", or "finished" when the call returned (the signal lost, or
the call shorter than SIGNAL_AT).
"""
import signal
import sys
import time

import pyarrow as pa

import pctcodec
from pctcodec.domains import SuffixList

SIGNAL_AT = 0.2
TARGET = 1.0  # seconds the uninterrupted call should last, at most MAX_ROWS rows

# Every public batch function: a new one is measured without an entry here.
FUNCTIONS = [n for n in pctcodec.__all__ if n.endswith("_many")] + ["parse_query_long"]
EXTRA = {"query_param_many": ("q",), "query_params_many": (["q"],)}


def _call(name, column, threads):
    func = getattr(pctcodec, name)
    if name == "resolve_many":
        return func("http://a/b/c", column, threads=threads)
    return func(column, *EXTRA.get(name, ()), threads=threads)


def _interrupted(run, expected):
    """Seconds from the signal to KeyboardInterrupt, or None when run
    returned first. The signal comes SIGNAL_AT seconds into the call, or at
    a third of a shorter one."""
    at = min(SIGNAL_AT, expected / 3)
    signal.signal(signal.SIGALRM, signal.default_int_handler)
    start = time.monotonic()
    try:
        signal.setitimer(signal.ITIMER_REAL, at)
        try:
            run()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except KeyboardInterrupt:
        return time.monotonic() - start - at
    return None


def _sized(make, run, max_rows):
    """(input for a TARGET-second call of run, its estimated time), from a
    call on a tenth of max_rows rows (make(n): the input of n rows)."""
    probe_rows = max(1000, max_rows // 10)
    probe = make(probe_rows)
    t = time.perf_counter()
    run(probe)
    per_row = (time.perf_counter() - t) / probe_rows
    rows = min(max_rows, int(TARGET / per_row) if per_row else max_rows)
    return make(rows), rows * per_row


def main(max_rows, cases=()):
    # every host distinct and in need of IDNA, a space to escape, a query
    rows = ["http://x%d.\u4f8b.jp/a b?q=%%7e%d&r=%d" % (i, i, i) for i in range(max_rows)]
    columns = {"list": rows, "arrow": pa.array(rows)}
    for name in FUNCTIONS:
        for kind, column in columns.items():
            for threads in (1, 2):
                if cases and "%s:%s:%d" % (name, kind, threads) not in cases:
                    continue
                part, expected = _sized(lambda n: column[:n],
                                        lambda c: _call(name, c, threads), max_rows)
                latency = _interrupted(lambda: _call(name, part, threads), expected)
                print("%s:%s:%d %.3f %.3f %s" % (name, kind, threads, expected, latency or 0.0,
                                                 "finished" if latency is None else "interrupted"),
                      flush=True)
    # a custom list (suffix_list=): its compile runs without the GIL
    if cases and "SuffixList:text:1" not in cases:
        return
    rules = [b"a%d.b%d.example" % (i, i % 1000) for i in range(max_rows)]
    text, expected = _sized(lambda n: b"\n".join(rules[:n]), SuffixList, max_rows)
    latency = _interrupted(lambda: SuffixList(text), expected)
    print("SuffixList:text:1 %.3f %.3f %s" % (expected, latency or 0.0,
                                             "finished" if latency is None else "interrupted"),
          flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000, sys.argv[2:])
