"""Calls of every public function of pctcodec on valid and on invalid input:
the table that tests/test_leaks.py runs 10^5 times and that the thread test
checks for completeness.

Each row is (function, args, kwargs). `function` names an attribute of
pctcodec ("quote") or of one of its modules ("batch.quote_many" is
pctcodec.batch.quote_many). A new public function gets rows by appending
them to _valid() (calls that return) and _invalid() (calls that raise);
test_every_public_function_has_rows fails until both lists hold one.

Arguments are built fresh on each call of calls(): strings are neither
interned nor immortal, so their reference counts say something.
"""
import importlib

import pctcodec


def fresh(s):
    """A new, non-interned copy of a str or bytes."""
    return "".join(list(s)) if isinstance(s, str) else bytes(bytearray(s))


class StrSub(str):
    pass


def resolve(name):
    """The function a row names."""
    owner, _, attr = name.rpartition(".")
    module = importlib.import_module("pctcodec." + owner) if owner else pctcodec
    return getattr(module, attr)


def _valid(f):
    return [
        ("quote", (f("a b/c\u00e9\U0001f600%"),), {}),
        ("quote", (f("abc"), f("/:")), {}),
        ("quote", (f(""),), {}),
        ("quote", (f("x\u4e2d"), [47, 58], "latin-1", "xmlcharrefreplace"), {}),
        ("quote", (f(b"a b\xff"), bytearray(b"/")), {}),
        ("quote", (StrSub(f("a b")),), {"safe": f(b"")}),
        ("quote_plus", (f("a b+c/d\u00e9"),), {}),
        ("quote_plus", (f(b"a b"), f("+")), {}),
        ("quote_from_bytes", (f(b"a b\x00\xff"),), {}),
        ("quote_from_bytes", (bytearray(b"abc/"), f("/")), {}),
        ("unquote", (f("a%41%e4%b8%ad%zz%\u00e9+"),), {}),
        ("unquote", (f("abc"),), {}),
        ("unquote", (f("%FF%41"), f("latin-1"), f("strict")), {}),
        ("unquote", (f(b"a%41%FF"),), {}),
        ("unquote", (StrSub(f("a%41")),), {}),
        # text of each width, short and long (the vector check and writer)
        ("unquote", (f("%C3%A9t%C3%A9 %E6%9D%B1%E4%BA%AC %F0%9F%8E%89"),), {}),
        ("unquote", (f("caf%C3%A9/%E6%9D%B1%E4%BA%AC/" * 40),), {}),
        ("unquote", (f("caf%C3%A9/" * 80 + "%ED%A0%80"),), {}),
        ("unquote_plus", (f("a+b%2B%20"),), {}),
        ("unquote_to_bytes", (f("a%41%zz\u00e9"),), {}),
        ("unquote_to_bytes", (bytearray(b"a+b"),), {}),
        ("unquote_to_bytes", (f(b"abc%41"),), {}),
        ("urlencode", ({f("a b"): [f("c"), f(b"d\xff"), 5]}, True), {}),
        ("urlencode", ([(f("k"), f("v \u00e9"))],), {"safe": f("/")}),
        ("urlencode", ({f("a"): [], f("b"): (10**30, f("\U0001f389"), f(b"")), f("c"): 2}, True), {}),
        ("encode", (f(b"a b\xff%"),), {}),
        ("encode", (memoryview(f(b"a b/")), f(b"/")), {"plus": True}),
        ("encode", (bytearray(b"x y"), bytearray(b" ")), {}),
        ("decode", (f(b"a%41+%zz"),), {"plus": True}),
        ("decode", (bytearray(b"%E4%B8%AD"),), {}),
        ("requote", (f("http://a/b c%zz%e4\u00e9"),), {}),
        ("requote", (f("http://a/ok"),), {}),
        ("normalize", (f("HTTP://User@a\u00e9b.COM:80/%7e/./x/../y?b=1&a=2#f"),), {"sort_query": True}),
        ("normalize", (f("http://a/b%2f"),), {"drop_fragment": True}),
        ("normalize", (f("http://\u00e9 b.com/"),), {}),  # no ASCII form: percent-encoded
        ("equivalent", (f("http://a/%7E"), f("HTTP://A/~")), {}),
        ("check", (f("http://a/b%20c"),), {}),
        ("is_valid", (f("a b%zz"),), {}),
        ("is_valid", (f("http://a/"),), {}),
        ("iri_to_uri", (f("http://\u00e9.com/\u00e9 x?q=\u4e2d"),), {}),
        ("iri_to_uri", (f("http://\u00e9.com/"),), {"strict_idna": True}),
        ("uri_to_iri", (f("http://xn--9ca.com/%C3%A9%20x%zz"),), {}),
        ("encode_uri", (f("http://a/\u00e9 x?#"),), {}),
        ("encode_uri_component", (f("a/b \U0001f600"),), {}),
        ("decode_uri", (f("%E4%B8%AD%2F%41"),), {}),
        ("decode_uri_component", (f("%E4%B8%AD%2F"),), {}),
        ("js_escape", (f("a b\u00e9\u4e2d\U0001f600"),), {}),
        ("js_unescape", (f("%u4E2D%zz%41"),), {}),
        ("quote_many", ([f("a b"), None, f("\u00e9/")],), {}),
        ("quote_many", ((f("a b"),), f(":/")), {"encoding": f("latin-1"), "errors": f("replace")}),
        ("quote_plus_many", (iter([f("a b+c")]),), {"safe": f("/")}),
        ("unquote_many", ([f("a%41"), None, f("%FF%e4%b8%ad")],), {}),
        ("unquote_plus_many", ([f("a+b%20")],), {}),
        ("requote_many", ([f("http://a/b c%zz"), None],), {}),
        ("normalize_many", ([f("HTTP://A/./b?b&a"), f("http://\u00e9.com/")],), {"sort_query": True}),
        ("check_many", ([f("http://a/%zz"), f("ok"), None],), {}),
        ("query_param", (f("http://a/?utm%5Fx=%C3%A9+1&b"), f("utm_x")), {}),
        ("query_param", (f("http://a/?b"), f("\u00e9")), {}),
        ("clean_query", (f("http://a/?utm_a=1&b=%zz&c#f"),), {"drop": [f("utm_*"), f("[bd]")]}),
        ("clean_query", (f("http://a/?b=1&a=\u00e9"),), {"keep": f("*"), "sort": True}),
        ("query_param_many", ([f("?a=1"), None, f("?b")], f("a")), {}),
        ("clean_query_many", ((f("?a=1&fbclid=2"), None),), {"drop": pctcodec.TRACKING_PARAMS}),
        ("split", (f("http://u@h:1/p?q#f"),), {}),
        ("split", (f("x\ud800://\u00e9?"),), {}),
        ("split_many", ([f("http://u@h:1/p?q#f"), None, f("\u4e2d")],), {}),
        ("split_many", ([f("a"), 5],), {"on_error": "keep"}),
        ("registered_domain", (f("https://u@News.BBC.co.uk.:80/p"),), {}),
        ("registered_domain", (f("http://\u98df\u72ee.\u516c\u53f8.cn/"),), {"unicode": True}),
        ("public_suffix", (f("x.github.io"),), {"private": True}),
        ("domain_parts", (f("//www.ex%61mple.com/"),), {}),
        ("registered_domain_many", ([f("a.b.com"), None, f("\u00e9.com"), f("1.2.3.4")],), {}),
        ("public_suffix_many", ((f("a.b.co.uk"), f("a b.com")),), {"on_error": "null"}),
        ("domain_parts_many", ([f("a.b.com"), None, f("a b")],), {"on_error": "keep"}),
        ("suffix_list", (), {}),
        ("resolve", (f("http://a/b/c"), f("../d?e#f")), {}),
        ("resolve", (f("HTTP://\u00e9/b/"), f("./%7e%zz \u4e2d")), {"normalize": True, "strict": False}),
        ("resolve_many", (f("http://a/b/"), [f("c"), None, f("\u00e9")]), {"normalize": True}),
        ("resolve_many", ([f("http://a/"), f("nope"), None], (f("c"), f("d"), f("e"))),
         {"on_error": "keep"}),
        ("parse_query", (f("http://a/?a=1&b&a=%C3%A9+x&&c=%zz#f"),), {}),
        ("parse_query", (f("?a=1&amp;b=+"),), {"keep_plus": True, "html_amp": True}),
        ("query_params", (f("?a=1&b=2&a=3"), [f("a"), f("c")]), {}),
        ("query_params", (f("?a=1&b=2&a=3"), f("a")), {"all": True}),
        ("parse_query_many", ([f("?a=1"), None, f("x")],), {}),
        ("parse_query_long", ((f("?a=1&b"), None),), {}),
        ("query_params_many", ([f("?a=1"), None], [f("a")]), {"all": True}),
        ("canonicalize", (f(" HTTP://www.A\u00e9.com:80/a/?Utm_x=1&b=2&a#f "),), {}),
        ("canonicalize", (f("https://www.a.com/a/"),), {"strip_www": True, "same_scheme": True,
                                                       "strip_trailing_slash": True}),
        ("canonicalize_many", ([f("http://a/?b=1&a=2"), None, f("\u00e9")],), {}),
        ("parse_url", (f(" HTTP://u:p@\u00e9x\uff0eorg:80/a/../b c?q#f\ud800"),), {}),
        ("parse_url", (f("../x"),), {"base": f("http://a/b/c")}),
        ("url_href", (f("http:\\\\x\\y"),), {}),
        ("url_href_many", ([f("http://a/"), None, f("%zz"), f("b")],), {"base": f("http://h/"), "on_error": "null"}),
        ("url_href_many", ([f("c"), f("d")], [f("http://a/"), None]), {}),
        ("parse_url_many", ([f("http://a/x?y#z"), None, f("%zz")],), {"on_error": "keep"}),
    ] + _arrow_valid(f)


def _arrow_valid(f):
    """Batch calls on Arrow arrays, when pyarrow is there."""
    try:
        import pyarrow as pa
    except ImportError:
        return []
    urls = [f("HTTP://A/./b c%7e"), None, f("http://\u00e9.com/%zz")]
    return [
        ("normalize_many", (pa.array(urls),), {"threads": 2}),
        ("quote_many", (pa.array(urls, pa.large_string()),), {"safe": f("")}),
        ("unquote_many", (pa.chunked_array([pa.array(urls[:1]), pa.array(urls[1:])]),), {}),
        ("check_many", (pa.array(urls),), {}),
        ("query_param_many", (pa.array([f("?q=%FF+x"), None] * 3, pa.large_string()), f("q")), {}),
        ("clean_query_many", (pa.array(urls),), {"drop": f("b*"), "sort": True, "threads": 2}),
        ("split_many", (pa.array(urls),), {}),
        ("split_many", (pa.chunked_array([pa.array(urls, pa.large_string())]),), {}),
        ("registered_domain_many", (pa.array(urls),), {"threads": 2, "on_error": "null"}),
        ("domain_parts_many", (pa.chunked_array([pa.array(urls[:1])]),), {"unicode": True}),
        ("resolve_many", (pa.array([f("http://a/b/"), None, f("nope")]), pa.array(urls)),
         {"on_error": "null", "threads": 2}),
        ("resolve_many", (f("http://a/b/"), pa.chunked_array([pa.array(urls[:1]), pa.array(urls[1:])])),
         {"normalize": True}),
        ("parse_query_many", (pa.array(urls),), {}),
        ("parse_query_long", (pa.array(urls),), {}),
        ("query_params_many", (pa.array(urls), [f("a"), f("b")]), {}),
        ("query_params_many", (pa.array(urls, pa.large_string()), f("a")), {"all": True}),
        ("canonicalize_many", (pa.array(urls),), {"threads": 2}),
        ("url_href_many", (pa.array(urls),), {"threads": 2, "on_error": "null"}),
        ("url_href_many", (pa.array(urls), pa.array([f("http://a/b/")] * len(urls))), {"on_error": "keep"}),
        ("parse_url_many", (pa.chunked_array([pa.array(urls)]),), {"base": f("http://a/"), "on_error": "null"}),
    ]


def _arrow_invalid(f):
    try:
        import pyarrow as pa
    except ImportError:
        return []
    return [
        ("normalize_many", (pa.array([f("http://a/"), f("http://\u00e9 b.com/")]),), {"threads": 0}),
        ("unquote_many", (pa.array([f("%FF")]),), {"errors": f("strict")}),
        ("quote_many", (pa.array([1, 2]),), {}),
        ("query_param_many", (pa.array([1, 2]), f("a")), {}),
        ("resolve_many", (pa.array([f("http://a/"), f("b")]), pa.array([f("c"), f("d")])), {}),
        ("url_href_many", (pa.array([f("http://a/"), f("%zz")]),), {}),
    ]


def _invalid(f):
    return [
        ("quote", (f("\ud800"),), {}),                                # UnicodeEncodeError
        ("quote", (f("abc"),), {"encoding": f("bogus-codec")}),       # LookupError
        ("quote", (f("abc"),), {"encoding": 123}),                    # TypeError
        ("quote", (f("abc"), [-1]), {}),                              # ValueError
        ("quote", (f("abc"), [f("/")]), {}),                          # TypeError in safe
        ("quote", (f(b"abc"),), {"encoding": f("utf-8")}),            # TypeError
        ("quote", (None,), {}),
        ("quote", (f("a"),), {"bogus": 1}),
        ("quote_plus", (f("a b"), None), {}),
        ("quote_from_bytes", (f("abc"),), {}),
        ("quote_from_bytes", (memoryview(b"abc"),), {}),
        ("unquote", (f("%FF"), f("utf-8"), f("strict")), {}),         # UnicodeDecodeError
        ("unquote", (f("%41"), f("bogus-codec")), {}),
        ("unquote", (f("%FF"), f("utf-8"), f("xmlcharrefreplace")), {}),
        ("unquote", (bytearray(b"%41"),), {}),
        ("unquote", (5,), {}),
        ("unquote_plus", (f(b"a+b"),), {}),
        ("unquote_to_bytes", (5,), {}),
        ("unquote_to_bytes", (f("\ud800%41"),), {}),
        ("unquote_to_bytes", (memoryview(b"a%41"),), {}),
        ("unquote_to_bytes", (bytearray(b"a%41"),), {}),             # as urllib: unhashable
        ("urlencode", (f("abc"),), {}),
        ("urlencode", ([[f("a"), f("b")]],), {}),
        ("urlencode", ({f("a"): f("\ud800")},), {}),
        ("encode", (5,), {}),
        ("encode", (f(b"a b"),), {"safe": 5}),
        ("decode", (f("a%41"),), {}),
        ("decode", (f(b"a"), f(b"b"), 1), {}),
        ("requote", (f("a\ud800"),), {}),
        ("requote", (5,), {}),
        ("normalize", (f("http://\u00e9 b.com/"),), {"strict_idna": True}),  # no ASCII form
        ("normalize", (f("http://\ud800/"),), {}),
        ("normalize", (f("http://a/"),), {"bogus": 1}),
        ("equivalent", (f("http://a/"), 5), {}),
        ("equivalent", (f("http://a/"), f("http://\ud800/")), {}),
        ("check", (f("http://a/%zz"),), {}),                         # PercentEncodingError
        ("check", (f("a b"),), {}),
        ("is_valid", (5,), {}),
        ("iri_to_uri", (f("http://a/\ud800"),), {}),
        ("iri_to_uri", (f(b"http://a/"),), {}),
        ("uri_to_iri", (5,), {}),
        ("encode_uri", (f("a\ud800"),), {}),
        ("encode_uri_component", (5,), {}),
        ("decode_uri", (f("%E4%B8"),), {}),
        ("decode_uri_component", (f("%zz"),), {}),
        ("js_escape", (5,), {}),
        ("js_unescape", (f(b"x"),), {}),
        ("quote_many", ([f("a"), 5],), {}),                           # TypeError naming the index
        ("quote_many", ([f("\ud800")],), {}),
        ("quote_plus_many", ([f("a")],), {"bogus": 1}),
        ("unquote_many", ([f("%FF")],), {"errors": f("strict")}),
        ("unquote_plus_many", (5,), {}),
        ("requote_many", ([f(b"x")],), {}),
        ("normalize_many", ([f("http://a/"), f("http://\ud800/")],), {}),
        ("check_many", ([None, 3],), {}),
        ("query_param", (f("?a=\ud800"), f("a")), {}),               # PercentEncodingError
        ("query_param", (f("?a=1"), f(b"a")), {}),
        ("query_param", (f("?a=1"), f("\udc80")), {}),                # ValueError: no UTF-8 form
        ("clean_query", (5,), {}),
        ("clean_query", (f("?a=1"),), {"drop": 5}),
        ("clean_query", (f("?a=1"),), {"keep": [f("\ud800")]}),
        ("query_param_many", ([f("?a=1"), f("?a=\ud800")], f("a")), {}),
        ("clean_query_many", ([f("?a=1"), 3],), {}),
        ("split", (f(b"http://h/"),), {}),
        ("split_many", ([f("a"), 5],), {}),
        ("registered_domain", (f("http://a b.com/"),), {}),          # HostError
        ("registered_domain", (f(b"a.com"),), {}),
        ("public_suffix", (f("http://\ud800.com/"),), {}),
        ("domain_parts", (f("a.com"),), {"suffix_list": 5}),
        ("registered_domain_many", ([f("a.com"), f("a<b.com")],), {}),
        ("public_suffix_many", (f("a.com"),), {}),
        ("domain_parts_many", ([f("a.com"), 5],), {}),
        ("suffix_list", (f("/nonexistent/list.dat"),), {}),
        ("resolve", (f("a/b"), f("c")), {}),                         # ResolveError
        ("resolve", (f("http://a/"), f("\ud800")), {}),              # PercentEncodingError
        ("resolve", (f("http://a/"), None), {}),
        ("resolve_many", ([f("http://a/"), f("/x")], [f("c"), f("d")]), {}),
        ("resolve_many", ([f("http://a/")], [f("c"), f("d")]), {}),
        ("resolve_many", (f("x"), [f("c")]), {}),
        ("parse_query", (5,), {}),
        ("parse_query", (f("?a=\ud800"),), {}),
        ("query_params", (f("?a=1"), [5]), {}),
        ("parse_query_many", ([f("?a=1"), 3],), {}),
        ("parse_query_long", (f("?a=1"),), {}),
        ("query_params_many", ([f("?a=1")], []), {}),
        ("canonicalize", (5,), {}),
        ("canonicalize", (f("?a=\ud800"),), {}),
        ("canonicalize_many", ([f("?a=1"), 3],), {}),
        ("parse_url", (f("http://[::1/"),), {}),
        ("parse_url", (f("x"),), {"base": f("\ud800:")}),
        ("parse_url", (5,), {}),
        ("url_href", (f("http://h:99999/"),), {}),
        ("url_href_many", ([f("http://a/"), f("http://\u00e9 b/")],), {}),
        ("url_href_many", ([f("x")],), {"base": f("nope")}),
        ("parse_url_many", ([f("http://a/"), 3],), {}),
        ("parse_url_many", ([f("http://a/")],), {"fields": [f("nope")]}),
    ] + _arrow_invalid(f)


def calls(valid=True, invalid=True):
    """The rows, with fresh arguments."""
    return (_valid(fresh) if valid else []) + (_invalid(fresh) if invalid else [])


# install(), uninstall() and installed() change urllib.parse for the whole
# process, which the other tests compare pctcodec with: tests/test_install.py
# calls them (from threads too), never this table.
PROCESS_WIDE = ("install", "uninstall", "installed")


def public_functions():
    """Every public function of pctcodec on values (the exception class is
    not one, nor the process-wide switches)."""
    return [
        name for name in pctcodec.__all__
        if callable(getattr(pctcodec, name)) and not isinstance(getattr(pctcodec, name), type)
        and name not in PROCESS_WIDE
    ]
