"""The calls that the tests of every integration make: every batch function
(as pctcodec.integrations._functions derives them) at least once, with
options under which a row of SAMPLE fails, and the results the batch
function gives for the same rows as an Arrow array (tests/test_integrations_*.py)."""
import pctcodec
from pctcodec.integrations._functions import FUNCTIONS, REQUIRED

BY_NAME = {f.name: f for f in FUNCTIONS}

# A null, an empty string, rows that fail under the options of CALLS.
SAMPLE = [
    "HTTP://Example.COM:80/a/./b c?utm_source=x&q=caf%c3%a9#f",
    None,
    "http://%ff/\u00e9?x=%ff&x=2",
    "",
    "%zz",
]
# A base per row of SAMPLE (resolve's second column).
BASES = ["http://a/b/c", "http://x/", "http://y/", None, "http://z/d/"]

# A value of each kind for a required option.
_REQUIRED = {"str": "x", "strings": ["x", "q"], "column": "http://base/dir/", "object": "x",
             "bool": True, "int": 1}


def required(function):
    return {o.name: _REQUIRED[o.kind] for o in function.options if o.default is REQUIRED}


# Calls with options by name. The failing row of each: quote and quote_plus
# "é" under ascii/strict, unquote and unquote_plus "%ff" under strict,
# normalize the host "%ff" under strict_idna, the domains' the host "%ff";
# check's offences at "%zz" and " " are positions, not failures.
SPECIAL = [
    ("quote", {"safe": "", "encoding": "ascii", "errors": "strict"}),
    ("quote_plus", {"safe": "/", "encoding": "ascii", "errors": "strict"}),
    ("unquote", {"encoding": "utf-8", "errors": "strict"}),
    ("unquote_plus", {"encoding": "utf-8", "errors": "strict"}),
    ("normalize", {"sort_query": True, "drop_fragment": True, "strict_idna": True}),
    ("clean_query", {"drop": ["utm_*"], "keep": None, "sort": True}),
    ("registered_domain", {"private": False, "unicode": False}),
    ("public_suffix", {"private": True, "unicode": True}),
    ("domain_parts", {"private": True}),
    ("canonicalize", {"strip_www": True, "same_scheme": True}),
    ("query_params", {"names": ["x", "q"], "all": True}),
    ("resolve", {"base": "http://base/dir/", "normalize": True}),
]
# Every function with its required options only, then the special calls.
CALLS = [(f.name, required(f)) for f in FUNCTIONS] + SPECIAL
# Calls with a failing row, for the tests of on_error="raise" and "keep".
FAILING = [(name, kwargs) for name, kwargs in SPECIAL
           if name in ("quote", "quote_plus", "unquote", "unquote_plus", "normalize", "registered_domain",
                       "public_suffix")]


def expected(name, kwargs, values=SAMPLE, on_error="null"):
    """What the batch function gives for the rows as an Arrow array, as
    Python values (records as dicts, lists as lists)."""
    import pyarrow as pa

    function = BY_NAME[name]
    column = pa.array(values, type=pa.string())
    given = dict(kwargs, on_error=on_error)
    given[function.column] = column
    return function.batch(**given).to_pylist()


def resolve_with_bases(values=SAMPLE, bases=BASES, on_error="null"):
    import pyarrow as pa

    return pctcodec.resolve_many(pa.array(bases, type=pa.string()), pa.array(values, type=pa.string()),
                                 on_error=on_error).to_pylist()
