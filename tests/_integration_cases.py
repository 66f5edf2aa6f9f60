"""The calls that the tests of every integration make: each function of the
table once, with options under which a row of SAMPLE fails, and the results
the single-value functions give (tests/test_integrations_*.py)."""
from pctcodec.integrations._functions import FUNCTIONS

BY_NAME = {f.name: f for f in FUNCTIONS}

# A null, an empty string, rows that fail under the options of CALLS.
SAMPLE = [
    "HTTP://Example.COM:80/a/./b c?utm_source=x&q=caf%c3%a9#f",
    None,
    "http://%ff/\u00e9?x=%ff&x=2",
    "",
    "%zz",
]

# (function name, options by position). The failing row of each: quote and
# quote_plus "é" under ascii/strict, unquote and unquote_plus "%ff" under
# strict, normalize the host "%ff" under strict_idna, check's offences at
# "%zz" and " " (positions, not failures), the domains' the host "%ff",
# url_href's "%zz", "" (no scheme) and the host "%ff";
# requote, query_param, clean_query and canonicalize fail on no str that
# Arrow can hold.
CALLS = [
    ("quote", ("", "ascii", "strict")),
    ("quote_plus", ("/", "ascii", "strict")),
    ("unquote", ("utf-8", "strict")),
    ("unquote_plus", ("utf-8", "strict")),
    ("requote", ()),
    ("normalize", (True, True, True)),
    ("check", ()),
    ("query_param", ("x",)),
    ("clean_query", (["utm_*"], None, True)),
    ("registered_domain", (False, False)),
    ("public_suffix", (True, True)),
    ("canonicalize", (True, True, False)),
    ("url_href", (None,)),
]
# Calls with a failing row, for the tests of on_error="raise" and "keep".
FAILING = [(name, args) for name, args in CALLS
           if name not in ("requote", "check", "query_param", "clean_query", "canonicalize")]


def expected(name, args, values=SAMPLE, on_error="null"):
    """What the single-value function gives row by row (None for None),
    a failed row as on_error says."""
    function = BY_NAME[name]
    kwargs = dict(zip([o.name for o in function.options], args))
    out = []
    for value in values:
        if value is None:
            out.append(None)
            continue
        try:
            out.append(function.single(value, **kwargs))
        except Exception:
            if on_error == "raise":
                raise
            out.append(None if on_error == "null" else value)
    return out
