"""The batch functions, their single-value twins and option sets to test with."""
import pctcodec


def check_position(s):
    """What check_many gives for one value: check()'s position, or None."""
    try:
        pctcodec.check(s)
    except pctcodec.PercentEncodingError as exc:
        return exc.position
    return None


# (batch function, single-value twin, keyword options)
CASES = [
    (pctcodec.quote_many, pctcodec.quote, {}),
    (pctcodec.quote_many, pctcodec.quote, {"safe": ""}),
    (pctcodec.quote_many, pctcodec.quote, {"safe": "/:?=&", "encoding": "latin-1", "errors": "replace"}),
    (pctcodec.quote_many, pctcodec.quote, {"safe": b"~ ", "encoding": "utf-16"}),
    (pctcodec.quote_plus_many, pctcodec.quote_plus, {}),
    (pctcodec.quote_plus_many, pctcodec.quote_plus, {"safe": "/ "}),
    (pctcodec.unquote_many, pctcodec.unquote, {}),
    (pctcodec.unquote_many, pctcodec.unquote, {"encoding": "latin-1"}),
    (pctcodec.unquote_many, pctcodec.unquote, {"errors": "surrogateescape"}),
    (pctcodec.unquote_many, pctcodec.unquote, {"encoding": "cp1252", "errors": "ignore"}),
    (pctcodec.unquote_plus_many, pctcodec.unquote_plus, {}),
    (pctcodec.unquote_plus_many, pctcodec.unquote_plus, {"errors": "backslashreplace"}),
    (pctcodec.requote_many, pctcodec.requote, {}),
    (pctcodec.normalize_many, pctcodec.normalize, {}),
    (pctcodec.normalize_many, pctcodec.normalize, {"sort_query": True, "drop_fragment": True}),
    (pctcodec.check_many, check_position, {}),
    (pctcodec.query_param_many, pctcodec.query_param, {"name": "q"}),
    (pctcodec.clean_query_many, pctcodec.clean_query, {"drop": pctcodec.TRACKING_PARAMS}),
    (pctcodec.clean_query_many, pctcodec.clean_query, {"keep": ["a", "q*"], "sort": True}),
]

CASE_IDS = ["%s%s" % (many.__name__, sorted(opts.items()) if opts else "") for many, _, opts in CASES]


def expected(single, values, opts):
    """The single-value function over values, None kept."""
    return [None if v is None else single(v, **opts) for v in values]


def outcome(func, *args, **kwargs):
    """('ok', result) or ('raise', exception class)."""
    try:
        return "ok", func(*args, **kwargs)
    except Exception as exc:  # the class is what is compared
        return "raise", type(exc)


# Values for the element-wise comparisons: URLs good and bad, escapes,
# non-ASCII text and hosts, empty strings, long values.
SAMPLE = [
    "",
    "a",
    "http://Example.COM:80/a/./b/../c%7e?q=1&b=%2f#Frag",
    "HTTPS://user:pw@WWW.Bücher.de:443/päth?z=1&a=2#x",
    "http://例え.jp/ä ö?q=ü+x&a=%e4%b8%ad",
    "%",
    "%4",
    "%zz%41%4a",
    "100% sure",
    "a+b c",
    "%C3%A9%FF%80%E4%B8",
    "\x00\x7f\t\n",
    "\U0001f600 smile",
    "/path/with/ÿ/Ā/中",
    "mailto:someone@example.com",
    "//host/only",
    "?q=%20%2B+",
    "x" * 300 + "%2F" + "é" * 50,
    "http://[::1]:8080/%7Euser/",
]


def first_unstorable(results):
    """Index of the first result with no UTF-8 form (lone surrogates), or None:
    such a result cannot be stored in an Arrow string."""
    for i, r in enumerate(results):
        if isinstance(r, str):
            try:
                r.encode("utf-8")
            except UnicodeEncodeError:
                return i
    return None


def engines(request_param):
    """Sets pctcodec.batch's engine for a test module: "c", or "python" (the
    reference of tests/_batch_reference.py in the C engine's place); the old
    one is restored by the generator's end."""
    import pctcodec.batch as batch

    old = batch._many_list, batch._many_arrow
    if request_param == "python":
        import _batch_reference

        batch._many_list, batch._many_arrow = _batch_reference.many_list, _batch_reference.many_arrow
    yield request_param
    batch._many_list, batch._many_arrow = old
