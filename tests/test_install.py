"""pctcodec in place of urllib.parse for a whole process: install(),
uninstall(), installed(), and plain assignment (urllib.parse.quote =
pctcodec.quote). Whatever urllib.parse holds, no input recurses and every
input gives urllib's own outcome; CPython's own tests of urllib.parse pass
with pctcodec in place."""
import importlib
import os
import pathlib
import sys
import threading
import unittest
import urllib.parse
import urllib.request

import pytest

import pctcodec
from _child import run_python
from _install_cases import CASES, NAMES, ORIGINAL, describe, expected, mismatches, put_back, put_in_place

MODES = ["install", "assign"]
HERE = str(pathlib.Path(__file__).resolve().parent)
WANT = expected()  # on urllib.parse's own functions, before anything is patched


@pytest.fixture
def in_place(request):
    put_in_place(request.param)
    try:
        yield request.param
    finally:
        put_back(request.param)
    assert all(getattr(urllib.parse, name) is ORIGINAL[name] for name in NAMES)


# ---------------------------------------------------------------------------
# Inputs handed to urllib's algorithm


@pytest.mark.parametrize("in_place", MODES, indirect=True)
@pytest.mark.parametrize("i", range(len(CASES)), ids=[describe(case) for case in CASES])
def test_input_gives_urllibs_outcome(in_place, i):
    case, want = CASES[i], WANT[i]
    name, args, kwargs = case
    for func in (getattr(urllib.parse, name), getattr(pctcodec, name)):
        try:
            got = ("ok", func(*args, **kwargs))
        except RecursionError:
            pytest.fail("%s recursed with pctcodec in place (%s)" % (describe(case), in_place))
        except Exception as e:
            got = ("raise", type(e))
        if want[0] == "ok":
            assert got[0] == "ok" and type(got[1]) is want[1] and got[1] == want[2], describe(case)
        else:
            assert got == want, describe(case)


@pytest.mark.parametrize("in_place", MODES, indirect=True)
def test_urllibs_own_urlencode_with_patched_quote_plus(in_place):
    # urllib's urlencode bound quote_plus as its default at definition: the
    # original one, whatever urllib.parse.quote_plus is now.
    query = {"q": "a b&c", "l": ["x", "y z"], "k": b"\xff "}
    want = ORIGINAL["urlencode"](query, doseq=True)
    assert ORIGINAL["urlencode"](query, True, quote_via=urllib.parse.quote_plus) == want
    assert urllib.parse.urlencode(query, doseq=True) == want
    assert pctcodec.urlencode(query, True, quote_via=ORIGINAL["quote_plus"]) == want


def test_delegation_uses_a_private_copy():
    from pctcodec import _urllib

    assert _urllib.parse is not urllib.parse
    assert _urllib.parse.__name__ not in sys.modules
    assert _urllib.parse.quote.__code__.co_filename == ORIGINAL["quote"].__code__.co_filename
    # its functions call each other, never the live module's
    assert _urllib.parse.quote_plus.__globals__ is vars(_urllib.parse)


def test_imported_after_urllib_was_patched():
    # A second pctcodec, imported when urllib.parse already holds the first
    # one's functions (a reload, a second import under a fresh sys.modules),
    # still hands arguments to urllib's algorithm, patched or installed.
    code = """
import sys, urllib.parse
sys.path.insert(0, %r)
import _install_cases as c
first = c.pctcodec
want = c.expected()
c.put_in_place("assign")
for name in [m for m in sys.modules if m.startswith("pctcodec")]:
    del sys.modules[name]
import pctcodec as second
assert second is not first and second.quote is not first.quote
c.pctcodec = second
bad = c.mismatches(want)
second.install()
bad += c.mismatches(want)
second.uninstall()
assert urllib.parse.quote is first.quote
print("\\n".join(bad) if bad else "ok")
""" % HERE
    r = run_python(["-c", code], timeout=120)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    assert r.stdout.decode().strip() == "ok"


# ---------------------------------------------------------------------------
# No crash where the recursion used to end in a segfault


CHILD = """
import sys, threading
sys.path.insert(0, {here!r})
import _install_cases as c
want = c.expected()
{setup}
bad = []
def run():
    for mode in ("install", "assign"):
        c.put_in_place(mode)
        try:
            bad.extend(mode + ": " + m for m in c.mismatches(want))
        finally:
            c.put_back(mode)
{run}
print("\\n".join(bad) if bad else "ok")
"""


@pytest.mark.parametrize(
    "setup,run",
    [
        ("threading.stack_size(65536)", "t = threading.Thread(target=run); t.start(); t.join()"),
        ("sys.setrecursionlimit(50000)", "run()"),
    ],
    ids=["64KiB-thread-stack", "recursion-limit-50000"],
)
def test_no_crash_in_child(setup, run):
    r = run_python(["-c", CHILD.format(here=HERE, setup=setup, run=run)], timeout=120)
    assert r.returncode == 0, "child died with %d: %s" % (r.returncode, r.stderr.decode()[-2000:])
    assert r.stdout.decode().strip() == "ok"


# ---------------------------------------------------------------------------
# install() / uninstall() / installed()


def _std_copies():
    """The standard library's module-level copies of urllib.parse's functions
    loaded in this process: (module, attribute, urllib.parse name)."""
    copies = [(urllib.request, attr, attr) for attr in ("quote", "unquote", "unquote_to_bytes")]
    if sys.version_info < (3, 13):
        copies.append((pathlib, "urlquote_from_bytes", "quote_from_bytes"))
    return copies


def test_install_reaches_the_standard_librarys_copies():
    copies = _std_copies()
    assert all(getattr(m, a) is ORIGINAL[n] for m, a, n in copies)
    # What this interpreter's own functions give (3.14's pathname2url adds
    # "//" before an absolute path, 3.13's does not).
    want_path = urllib.request.pathname2url("/a b/c")
    want_query = urllib.parse.parse_qsl("a=%C3%A9+x&b=1")
    pctcodec.install()
    try:
        assert all(getattr(urllib.parse, n) is getattr(pctcodec, n) for n in NAMES)
        assert all(getattr(m, a) is getattr(pctcodec, n) for m, a, n in copies)
        assert urllib.request.pathname2url("/a b/c") == want_path
        assert urllib.parse.parse_qsl("a=%C3%A9+x&b=1") == want_query == [("a", "é x"), ("b", "1")]
    finally:
        pctcodec.uninstall()
    assert all(getattr(urllib.parse, n) is ORIGINAL[n] for n in NAMES)
    assert all(getattr(m, a) is ORIGINAL[n] for m, a, n in copies)


def test_install_and_uninstall_are_idempotent():
    pctcodec.uninstall()  # not installed: nothing happens
    assert urllib.parse.quote is ORIGINAL["quote"]
    pctcodec.install()
    pctcodec.install()
    assert urllib.parse.quote is pctcodec.quote
    pctcodec.uninstall()
    assert urllib.parse.quote is ORIGINAL["quote"] and urllib.request.quote is ORIGINAL["quote"]
    pctcodec.uninstall()
    assert urllib.parse.quote is ORIGINAL["quote"]


def test_uninstall_puts_back_what_was_there_by_identity():
    # someone else's function, in place before install(), comes back
    def theirs(*args, **kwargs):
        return ORIGINAL["quote"](*args, **kwargs)

    urllib.parse.quote = theirs
    try:
        pctcodec.install()
        assert urllib.parse.quote is pctcodec.quote
        pctcodec.uninstall()
        assert urllib.parse.quote is theirs
    finally:
        urllib.parse.quote = ORIGINAL["quote"]


def test_uninstall_leaves_a_name_rebound_since():
    def later(*args, **kwargs):
        return "later"

    pctcodec.install()
    urllib.parse.unquote = later
    pctcodec.uninstall()
    try:
        assert urllib.parse.unquote is later
        assert urllib.parse.quote is ORIGINAL["quote"]
    finally:
        urllib.parse.unquote = ORIGINAL["unquote"]


def test_installed_context_manager_nests():
    with pctcodec.installed():
        assert urllib.parse.quote is pctcodec.quote
        with pctcodec.installed():
            assert urllib.parse.quote is pctcodec.quote
        assert urllib.parse.quote is pctcodec.quote  # the outer block still holds
    assert urllib.parse.quote is ORIGINAL["quote"]
    pctcodec.install()
    try:
        with pctcodec.installed():
            pass
        assert urllib.parse.quote is pctcodec.quote  # installed before: left installed
    finally:
        pctcodec.uninstall()


def test_installed_blocks_that_overlap_or_reuse_one_instance():
    # Blocks of two threads overlap (the first to open exits first), and one
    # instance is entered twice: pctcodec stays until the last block exits.
    first, second = pctcodec.installed(), pctcodec.installed()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert urllib.parse.quote is pctcodec.quote
    second.__exit__(None, None, None)
    assert urllib.parse.quote is not pctcodec.quote
    same = pctcodec.installed()
    with same:
        with same:
            pass
        assert urllib.parse.quote is pctcodec.quote
    assert urllib.parse.quote is not pctcodec.quote


def test_copies_bound_while_installed_are_put_back():
    # A standard library module imported while pctcodec is installed binds
    # pctcodec's functions; uninstall() gives it urllib's.
    code = (
        "import sys, urllib.parse\n"
        "original = urllib.parse.quote\n"
        "import pctcodec\n"
        "assert 'urllib.request' not in sys.modules\n"
        "pctcodec.install()\n"
        "import urllib.request\n"
        "assert urllib.request.quote is pctcodec.quote\n"
        "pctcodec.uninstall()\n"
        "assert urllib.request.quote is original is urllib.parse.quote\n"
        "print('ok')\n"
    )
    r = run_python(["-c", code], timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == b"ok", r.stderr.decode()[-2000:]


# Each install() walks the loaded modules for urllib's copies (slow in a full
# test session, thousands of modules): the default run toggles 15 times per
# thread, the slow run 200 times (60 in CI, in its time budget).
@pytest.mark.parametrize("rounds", [15, pytest.param(60 if os.environ.get("CI") else 200, marks=pytest.mark.slow)])
def test_install_from_many_threads(rounds):
    errors = []
    start = threading.Barrier(8)

    def toggle():
        start.wait()
        for _ in range(rounds):
            pctcodec.install()
            pctcodec.uninstall()

    def call():
        start.wait()
        for _ in range(rounds * 10):
            if urllib.parse.quote("a b") != "a%20b" or urllib.parse.unquote_plus("a+b") != "a b":
                errors.append("wrong result")

    threads = [threading.Thread(target=toggle) for _ in range(4)] + [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(getattr(urllib.parse, n) is ORIGINAL[n] for n in NAMES)
    assert all(getattr(m, a) is ORIGINAL[n] for m, a, n in _std_copies())


# ---------------------------------------------------------------------------
# CPython's own tests of urllib.parse, with pctcodec in place


def _cpython_suites():
    """CPython's tests of urllib.parse's quoting, from the test package the
    interpreter ships: test_urllib's quoting, unquoting, urlencode and
    pathname tests, all of test_urlparse (its parse_qs/parse_qsl tests
    run urllib.parse's unquote, so pctcodec's once it is in place), and
    test_urllib2's trivial tests (urllib's modules' names)."""
    try:
        test_urllib = importlib.import_module("test.test_urllib")
        test_urlparse = importlib.import_module("test.test_urlparse")
        test_urllib2 = importlib.import_module("test.test_urllib2")
    except ImportError as e:  # some distributions ship Python without its tests
        pytest.skip("this interpreter has no test package (%s)" % e)
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for name in ("QuotingTests", "UnquotingTests", "urlencode_Tests", "Pathname_Tests"):
        suite.addTests(loader.loadTestsFromTestCase(getattr(test_urllib, name)))
    suite.addTests(loader.loadTestsFromModule(test_urlparse))
    if hasattr(test_urllib2, "TrivialTests"):
        suite.addTests(loader.loadTestsFromTestCase(test_urllib2.TrivialTests))
    return suite


# Three of them look at the functions rather than call them, and no
# function written in C can pass (docs/compatibility.md names them):
# test_default_safe reads quote.__defaults__ (a Python function's
# attribute), test_all and test___all__ want every public function of
# urllib.parse to have __module__ == 'urllib.parse'.
INTROSPECTION = {
    "test.test_urllib.QuotingTests.test_default_safe",
    "test.test_urlparse.UrlParseTestCase.test_all",
    "test.test_urllib2.TrivialTests.test___all__",
}


def _run(suite):
    """The result, and {test id: last line of its error} for the failed."""
    result = unittest.TestResult()
    suite.run(result)
    problems = {test.id(): text.strip().splitlines()[-1] for test, text in result.errors + result.failures}
    return result, problems


@pytest.mark.parametrize("in_place", MODES, indirect=True)
def test_cpython_quoting_tests(in_place):
    suite = _cpython_suites()
    result, problems = _run(suite)
    unexpected = {test: text for test, text in problems.items() if test not in INTROSPECTION}
    assert not unexpected, "\n".join("%s: %s" % item for item in unexpected.items())
    assert result.testsRun > 80  # (a class skipped as a whole is not counted as run)
    print("\nCPython %s urllib.parse tests with pctcodec in place (%s): %d run, %d passed, %d skipped, "
          "%d introspection tests failed (%s)"
          % (sys.version.split()[0], in_place, result.testsRun,
             result.testsRun - len(result.skipped) - len(problems), len(result.skipped), len(problems),
             ", ".join(sorted(t.rsplit(".", 1)[1] for t in problems))))


def test_cpython_quoting_tests_call_what_urllib_parse_holds():
    # The check above is only worth something if those tests reach the
    # functions urllib.parse holds: with broken ones in place, they fail.
    suite = _cpython_suites()
    for name in NAMES:
        setattr(urllib.parse, name, lambda *args, **kwargs: "broken")
    try:
        result, problems = _run(suite)
    finally:
        put_back("assign")
    assert len(problems) > 40
