"""Eight threads calling every public function of pctcodec at once.

Inputs of 64 KiB and more (the C code releases the GIL on them), short calls
with `safe` values that change from call to call (the cached safe set is
contended), and bytearrays that another thread rewrites while they are
encoded. Every result is checked against the result of the same call made
before the threads start (itself checked against urllib.parse where there
is a twin); a call on a bytearray under rewrite must give the result of one
of the states it is rewritten between. On a free-threaded build the same
test runs without a GIL.
"""
import random
import sys
import threading
import urllib.parse

import pytest

import _calls
import pctcodec

THREADS = 8
ROUNDS = 6
LONG = 70000  # characters: above the 64 KiB from which the GIL is released

URLLIB_TWINS = {"quote", "quote_plus", "quote_from_bytes", "unquote", "unquote_plus",
                "unquote_to_bytes", "urlencode"}

CHUNKS = ["abc", "path/to", " ", "+", "%", "%41", "%e4%b8%ad", "%zz", "~", "-_.", "?a=b&c=d#",
          "\u00e9", "\u4e2d", "\U0001f600", ":", "@", "[", "\x7f"]


def _long_text(seed, chunks=CHUNKS):
    rnd = random.Random(seed)
    parts, n = [], 0
    while n < LONG:
        c = rnd.choice(chunks)
        parts.append(c)
        n += len(c)
    return "".join(parts)


def _jobs():
    """(function, args, kwargs) rows: every public function on long input,
    and short quoting calls with many different `safe` values."""
    text = _long_text(1)
    data = text.encode("utf-8")
    quoted = pctcodec.quote(text)
    ascii_text = _long_text(2, [c for c in CHUNKS if c.isascii()])
    uri = "http://\u00e9x.com/" + text
    jobs = []
    for safe in ("/", "", ":/?&=", b"/%", bytearray(b" "), "\u00e9/"):
        jobs += [
            ("quote", (text, safe), {}),
            ("quote_plus", (text, safe), {}),
            ("quote_from_bytes", (data, safe), {}),
            ("encode", (data, safe), {}),
            ("quote", ("a b/c:d?e&f=g\u00e9", safe), {}),
            ("quote", (b"a b/c:d?e&f=g", safe), {}),
        ]
    jobs += [
        ("quote", (data,), {}),
        ("quote_plus", (ascii_text,), {}),
        ("unquote", (quoted,), {}),
        ("unquote", (text,), {}),
        ("unquote", (data,), {}),
        ("unquote", (quoted, "latin-1"), {}),
        ("unquote_plus", (text,), {}),
        ("unquote_to_bytes", (quoted,), {}),
        ("unquote_to_bytes", (ascii_text,), {}),
        ("urlencode", ({"k": text, "b": data},), {}),
        ("urlencode", ([("a", [text, ascii_text])], True), {}),
        ("encode", (memoryview(data),), {"plus": True}),
        ("decode", (quoted.encode("ascii"),), {"plus": True}),
        ("decode", (bytearray(quoted.encode("ascii")),), {}),
        ("requote", (text,), {}),
        ("requote", (ascii_text,), {}),
        ("normalize", (uri,), {"sort_query": True}),
        ("normalize", ("HTTP://A.COM/" + ascii_text,), {}),
        ("equivalent", (uri, pctcodec.iri_to_uri(uri)), {}),
        ("check", (text,), {}),
        ("check", ("http://a/" + quoted,), {}),
        ("is_valid", (quoted,), {}),
        ("is_valid", (text,), {}),
        ("iri_to_uri", (uri,), {}),
        ("uri_to_iri", (pctcodec.iri_to_uri(uri),), {}),
        ("encode_uri", (text,), {}),
        ("encode_uri_component", (text,), {}),
        ("decode_uri", (pctcodec.encode_uri(text),), {}),
        ("decode_uri", (text,), {}),
        ("decode_uri_component", (pctcodec.encode_uri_component(text),), {}),
        ("js_escape", (text,), {}),
        ("js_unescape", (pctcodec.js_escape(text) + text,), {}),
        ("quote_many", ([text, None, ascii_text],), {"safe": ""}),
        ("quote_plus_many", ([ascii_text],), {}),
        ("unquote_many", ([quoted, text],), {}),
        ("unquote_plus_many", ((text,),), {}),
        ("requote_many", ([uri, None],), {}),
        ("normalize_many", ([uri, "HTTP://A.COM/" + ascii_text],), {}),
        ("check_many", ([text, quoted],), {}),
        ("query_param", ("http://a/?x=" + quoted + "&q=" + text, "q"), {}),
        ("clean_query", ("http://a/?utm_a=1&q=" + text + "#f",), {"drop": pctcodec.TRACKING_PARAMS}),
        ("query_param_many", ([uri + "?q=" + quoted, None], "q"), {}),
        ("clean_query_many", ([uri + "?fbclid=" + text + "&a=1"],), {"drop": "fbclid", "sort": True}),
        ("split", (uri + "?" + quoted + "#" + text,), {}),
        ("split_many", ([uri, None, "//u@" + ascii_text],), {}),
        ("registered_domain", (uri,), {"unicode": True}),
        ("public_suffix", ("HTTP://A.B.CO.UK/" + ascii_text,), {}),
        ("domain_parts", ("//x.y.github.io/" + quoted,), {"private": True}),
        ("registered_domain_many", ([uri, None, "http://a.b.com/" + ascii_text],), {}),
        ("public_suffix_many", ([uri, "a.kobe.jp"],), {}),
        ("domain_parts_many", ([uri, "www.example.com"],), {}),
        ("suffix_list", (), {}),
        ("resolve", (uri, "../" + quoted + "?" + text), {"normalize": True}),
        ("resolve_many", ([uri, None, "x"], ["a/../" + text, "b", "c"]), {"on_error": "null"}),
        ("parse_query", ("http://a/?x=" + quoted + "&q=" + text,), {}),
        ("query_params", ("http://a/?x=" + quoted + "&q=" + text, ["q", "x"]), {}),
        ("parse_query_many", ([uri + "?q=" + quoted, None],), {}),
        ("parse_query_long", ([uri + "?q=" + quoted, None],), {}),
        ("query_params_many", ([uri + "?q=" + quoted, None], "q"), {}),
        ("canonicalize", (" " + uri + "?utm_a=1&q=" + text + "#f",), {}),
        ("canonicalize_many", ([uri + "?fbclid=" + text + "&a=1", None],), {}),
        ("parse_url", (" " + uri + "/" + text + "?" + quoted + "#" + text,), {}),
        ("url_href", ("../" + quoted, uri), {}),
        ("url_href_many", ([uri, None, "http://\\" + ascii_text], "http://b/"), {"on_error": "null"}),
        ("parse_url_many", ([uri, None, "x"],), {"base": uri}),
    ]
    try:
        import pyarrow as pa
    except ImportError:
        return jobs
    urls = pa.array([uri, None, "HTTP://A.COM/" + ascii_text] * 4)
    return jobs + [
        ("normalize_many", (urls,), {"threads": 2}),
        ("quote_many", (pa.array([text, ascii_text] * 4, pa.large_string()),), {"threads": 3}),
        ("unquote_many", (pa.array([quoted, text] * 4),), {}),
        ("check_many", (urls,), {"threads": 2}),
        ("query_param_many", (pa.array(["?q=" + text, None] * 4),), {"name": "q", "threads": 2}),
        ("clean_query_many", (pa.array(["?utm_q=1&q=" + text] * 4),), {"drop": "utm_*", "threads": 2}),
        ("split_many", (urls,), {}),
        ("registered_domain_many", (urls,), {"threads": 2}),
        ("domain_parts_many", (urls,), {}),
        ("resolve_many", (urls, pa.array([text, "b", "../" + ascii_text] * 4)), {"threads": 2}),
        ("parse_query_many", (urls,), {}),
        ("query_params_many", (urls, ["a", "q"]), {}),
        ("canonicalize_many", (urls,), {"threads": 2}),
        ("url_href_many", (urls,), {"threads": 2}),
        ("parse_url_many", (urls,), {"threads": 2}),
    ]


def _outcome(func, args, kwargs):
    """The result, or the class and message of the exception."""
    try:
        return ("ok", func(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - the outcome itself is compared
        return ("raised", type(e), str(e))


def _expected(jobs):
    out = []
    for name, args, kwargs in jobs:
        expect = _outcome(_calls.resolve(name), args, kwargs)
        if name in URLLIB_TWINS:
            twin = _outcome(getattr(urllib.parse, name), args, kwargs)
            assert twin[:2] == expect[:2] and (twin[0] != "ok" or twin[1] == expect[1]), name
        out.append(expect)
    return out


@pytest.fixture
def busy_switching():
    """Switch threads often on a GIL build, so that calls interleave."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(old)


def _run_threads(target, n):
    errors = []
    start = threading.Barrier(n)

    def body(i):
        try:
            start.wait()
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append((i, e))

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_jobs_cover_every_public_function():
    names = {row[0] for row in _jobs()}
    missing = set(_calls.public_functions()) - names
    assert not missing, "no threaded call of %s" % sorted(missing)


def test_every_function_from_eight_threads(busy_switching):
    jobs = _jobs()
    expected = _expected(jobs)
    funcs = [_calls.resolve(name) for name, _, _ in jobs]

    def work(i):
        order = list(range(len(jobs)))
        rnd = random.Random(i)
        for _ in range(ROUNDS):
            rnd.shuffle(order)
            for j in order:
                _, args, kwargs = jobs[j]
                got = _outcome(funcs[j], args, kwargs)
                assert got == expected[j], "thread %d: %s differs" % (i, jobs[j][0])

    errors = _run_threads(work, THREADS)
    assert not errors, errors[:3]


# --- bytearrays rewritten while they are read ----------------------------------

STATES = [
    bytes(range(256)) * 300,                          # every byte value, 76800 bytes
    b"%41 " * 19200,                                  # the same length
    (b"%41%zz %E4%B8%AD+/" * 4500)[:70001],           # another length
]


# Few readers, so that the writer often holds the GIL between a reader's passes.
BYTEARRAY_READERS = 3
BYTEARRAY_ROUNDS = 100


def _calls_on(buf):
    # no memoryview: one held here would keep the bytearray from resizing
    return [
        ("quote_from_bytes", (buf,), {}),
        ("quote_from_bytes", (buf, b"% "), {}),
        ("quote", (buf, "/"), {}),
        ("quote_plus", (buf,), {}),
        ("encode", (buf,), {"plus": True}),
        ("encode", (buf, buf), {}),
        ("decode", (buf,), {}),
        ("decode", (buf,), {"plus": True}),
    ]


def test_bytearray_rewritten_while_encoded(busy_switching):
    shared = bytearray(STATES[0])
    # what each call gives on each state, on bytearrays of their own
    outcomes = {}
    for state in STATES:
        for k, (name, args, kwargs) in enumerate(_calls_on(bytearray(state))):
            outcomes.setdefault(k, []).append(_outcome(_calls.resolve(name), args, kwargs))
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    stop = threading.Event()

    def rewrite():
        k = 0
        while not stop.is_set():
            k = (k + 1) % len(STATES)
            try:
                shared[:] = STATES[k]   # in place when the length is the same
            except BufferError:
                pass  # exported by a reader at this moment (another length)

    writer = threading.Thread(target=rewrite)
    writer.start()

    def read(i):
        calls = _calls_on(shared)
        for _ in range(BYTEARRAY_ROUNDS):
            for k, (name, args, kwargs) in enumerate(calls):
                got = _outcome(_calls.resolve(name), args, kwargs)
                if gil:
                    assert got in outcomes[k], "thread %d: %s on a rewritten bytearray" % (i, name)
                else:
                    # without a GIL a read may see a mix of both states: only
                    # the kind of outcome is fixed
                    assert got[0] == outcomes[k][0][0], name

    try:
        errors = _run_threads(read, BYTEARRAY_READERS)
    finally:
        stop.set()
        writer.join()
    assert not errors, errors[:3]
