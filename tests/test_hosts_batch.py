"""normalize_many on columns of internationalized hosts: the same values as
normalize, with every host mapped in C (no row goes back to Python, but
those whose host has no form under strict_idna, which raise)."""
import sys

import pytest

import pctcodec

HOSTS = ["b\u00fccher.example", "BÜCHER.example", "\u4f8b\u3048.\u30c6\u30b9\u30c8", "%E4%BE%8B.jp",
         "\u0627\u0644\u0639\u0631\u0628\u064a\u0629.com", "fa\u00df.de", "a b.\u00e9", "1.\u05d0",
         "xn--a.\u00e9", "\u00e9" * 300 + ".com", "a\u200cb.\u00e9", "%C3.com", "i\u2764\ufe0f.ws"]
ROWS = ["http://%s/p?q=%d" % (h, i) for i in range(40) for h in HOSTS]


def _python_calls(fn):
    """The Python functions called while fn() runs on this thread."""
    calls = []

    def profile(frame, event, arg):
        if event == "call":
            calls.append((frame.f_code.co_filename.rsplit("/", 1)[-1], frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        out = fn()
    finally:
        sys.setprofile(None)
    return out, calls


def test_same_as_normalize_with_no_python_per_row():
    out, calls = _python_calls(lambda: pctcodec.normalize_many(ROWS, threads=1))
    assert out == [pctcodec.normalize(r) for r in ROWS]
    assert ("batch.py", "normalize_many") in calls  # the profile sees the call
    assert ("batch.py", "<lambda>") not in calls  # the per-row fallback


def test_strict_idna_rows_fail_alone():
    rejects = []
    out = pctcodec.normalize_many(ROWS, strict_idna=True, on_error="null", rejects=rejects)
    expected = []
    for r in ROWS:
        try:
            expected.append(pctcodec.normalize(r, strict_idna=True))
        except pctcodec.PercentEncodingError:
            expected.append(None)
    assert out == expected
    assert len(rejects) == expected.count(None) > 0


@pytest.mark.parametrize("threads", [2, 4])
def test_threads(threads):
    rows = ROWS * 50
    assert pctcodec.normalize_many(rows, threads=threads) == pctcodec.normalize_many(rows, threads=1)
