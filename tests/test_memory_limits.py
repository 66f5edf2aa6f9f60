"""Inputs too large for the memory at hand: MemoryError, never a crash, and
the interpreter goes on working. Each case runs in a child process whose
address space is capped just above what it holds before the call."""
import os
import sys
import textwrap

import pytest

from _child import run_python

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc and RLIMIT_AS"),
    # .ci/sanitize.sh: AddressSanitizer reserves terabytes of address space for
    # its shadow memory, which no RLIMIT_AS cap can leave room for.
    pytest.mark.skipif(bool(os.environ.get("PCTCODEC_SANITIZED")),
                       reason="RLIMIT_AS cannot cap a process under AddressSanitizer"),
]

CHILD = textwrap.dedent(
    """
    import resource, sys
    import pctcodec

    big = {make}
    with open("/proc/self/statm") as f:
        used = int(f.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (used + 64 * 2**20, resource.RLIM_INFINITY))
    try:
        pctcodec.{call}
    except MemoryError:
        outcome = "MemoryError"
    else:
        outcome = "no error"
    del big
    assert pctcodec.quote("a b/\\u00e9") == "a%20b/%C3%A9"  # still sound afterwards
    print(outcome)
    """
)

CASES = [
    # (what is built before the cap, the call that needs far more than the cap)
    ("'\\u00e9' * 40_000_000", "quote(big)"),  # 6 bytes out per character
    ("'\\u4e2d' * 20_000_000", "quote_plus(big)"),
    ("b'\\xff' * 60_000_000", "quote_from_bytes(big)"),
    ("'%41' * 40_000_000", "unquote(big)"),
    ("'%41' * 40_000_000", "unquote_to_bytes(big)"),
    ("b' ' * 60_000_000", "encode(big)"),
    ("b'%41' * 40_000_000", "decode(big)"),
]


@pytest.mark.parametrize("make,call", CASES, ids=[c for _, c in CASES])
def test_memory_error_not_crash(make, call):
    proc = run_python(["-c", CHILD.format(make=make, call=call)], text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "MemoryError", proc.stdout
