"""The whole public API used as the README shows it, for mypy --strict and
pyright (tests/test_typing.py): every name of pctcodec.__all__, with the
types each call must give. Checked with and without the type information of
pandas (pandas-stubs), polars and pyarrow: what holds in both is written
without assert_type. Not a test module (pytest does not collect it); it also
runs as a script when pyarrow, pandas and polars are installed."""
import sys
import urllib.parse
from typing import Any, Dict, Hashable, Iterator, List, Optional, Tuple

import pandas as pd
import polars as pl
import pyarrow as pa

if sys.version_info >= (3, 11):
    from typing import assert_type
else:
    from typing_extensions import assert_type

import pctcodec
from pctcodec import (
    TRACKING_PARAMS,
    PercentEncodingError,
    Reject,
    canonicalize,
    canonicalize_many,
    check,
    check_many,
    clean_query,
    clean_query_many,
    decode,
    decode_uri,
    decode_uri_component,
    encode,
    encode_uri,
    encode_uri_component,
    install,
    installed,
    uninstall,
    equivalent,
    iri_to_uri,
    is_valid,
    js_escape,
    js_unescape,
    normalize,
    normalize_many,
    parse_query,
    parse_query_long,
    parse_query_many,
    query_params,
    query_params_many,
    quote,
    quote_from_bytes,
    quote_many,
    quote_plus,
    quote_plus_many,
    query_param,
    query_param_many,
    requote,
    requote_many,
    resolve,
    resolve_many,
    ResolveError,
    split,
    split_many,
    unquote,
    unquote_many,
    unquote_plus,
    unquote_plus_many,
    unquote_to_bytes,
    uri_to_iri,
    urlencode,
    URIParts,
)
from pctcodec.sets import PATH_SEGMENT, WHATWG_COMPONENT

# Python: the urllib.parse functions
assert_type(quote("/docs/Annual Report 2024.pdf"), str)
assert_type(quote("café", safe="", encoding="latin-1"), str)
assert_type(quote(b"a b", safe=PATH_SEGMENT), str)
assert_type(quote_plus("a b&c", safe=WHATWG_COMPONENT), str)
assert_type(quote_from_bytes(b"a b"), str)
assert_type(unquote("caf%C3%A9"), str)
assert_type(unquote_plus("q=fish+%26+chips"), str)
assert_type(unquote_to_bytes("caf%C3%A9"), bytes)
assert_type(urlencode({"q": "café du monde", "page": 2}), str)
assert_type(urlencode([("a", "1"), ("b", "2")], doseq=True), str)

# Raw buffers
assert_type(encode(b"a b/\xff"), bytes)
assert_type(encode(b"a b/c", safe="/", plus=True), bytes)
assert_type(decode(memoryview(b"caf%C3%A9+x"), plus=True), bytes)

# URIs (RFC 3986)
assert_type(requote("http://example.com/a b/100%/caf%c3%a9"), str)
assert_type(normalize("HTTP://Example.COM:80/a/./b/../%7Euser/%2f?q=%3d"), str)
assert_type(normalize("http://h/b?y&x#f", sort_query=True, drop_fragment=True), str)
assert_type(equivalent("http://h/~user", "http://h/%7Euser"), bool)
assert_type(is_valid("asdf%*.fred"), bool)
assert_type(iri_to_uri("http://例え.jp/引き出し"), str)
assert_type(uri_to_iri("http://xn--r8jz45g.jp/%E5%BC%95"), str)
try:
    assert_type(check("asdf%*.fred"), None)
except PercentEncodingError as e:
    assert_type(e.position, int)
    assert_type(e.reason, str)

# The JavaScript codecs
assert_type(encode_uri("http://h/a b"), str)
assert_type(encode_uri_component("a&b"), str)
assert_type(decode_uri("http://h/a%20b"), str)
assert_type(decode_uri_component("a%26b"), str)
assert_type(js_escape("ä b"), str)
assert_type(js_unescape("%E4%20b"), str)

# Batch functions: a list or any iterable gives a list ...
assert_type(normalize_many(["HTTP://Example.COM:80/a/./b", None, "http://h/%7euser"]), List[Optional[str]])
words: Iterator[str] = iter(["a b", "café"])
assert_type(quote_many(words, safe=""), List[Optional[str]])
assert_type(quote_plus_many(["a b"]), List[Optional[str]])
assert_type(unquote_many(("a%20b",)), List[Optional[str]])
assert_type(unquote_plus_many(["a+b"], encoding="utf-8", errors="strict", threads=1), List[Optional[str]])
assert_type(requote_many(["a b"]), List[Optional[str]])
assert_type(check_many(["http://ok/", "asdf%*.fred", None]), List[Optional[int]])

# ... a column gives a column of the same type (pyarrow and pandas have no
# type information of their own: there the result is Any).
urls = pl.Series("url", ["HTTP://A.example:80/x", None])
assert_type(normalize_many(urls), pl.Series)
assert_type(quote_many(urls, safe="/"), pl.Series)
assert_type(check_many(urls), pl.Series)
arrow = normalize_many(pa.array(["HTTP://A.example:80/x", None], pa.large_string()))
arrow_rows: List[Optional[str]] = arrow.to_pylist()
frame: Dict[Hashable, str] = unquote_many(pd.Series(["a%20b", "caf%C3%A9"], index=[10, 20])).to_dict()
# pandas in, pandas out, also where pandas-stubs declares no Arrow interface:
missing: "pd.Series[bool]" = normalize_many(pd.Series(["HTTP://A.example/", None])).isna()
positions = check_many(pd.Series(["ok", "%zz"])).tolist()
# Dirty data: rows that fail give None and a Reject each.
rejects: List[Reject] = []
cleaned = quote_many(["a b", "x\udc80"], on_error="null", rejects=rejects)
assert_type(cleaned, List[Optional[str]])
assert_type(rejects[0].index, int)
assert_type(rejects[0].error, BaseException)

# Query parameters
assert_type(query_param("http://a/s?q=caf%C3%A9+au+lait&page=2", "q"), Optional[str])
assert_type(clean_query("http://a/p?id=7&utm_source=mail#top", drop=TRACKING_PARAMS), str)
assert_type(clean_query("http://a/p?b=2&sid=9&a=1", keep=["a", "b"], sort=True), str)
assert_type(clean_query("http://a/p?utm_source=mail", drop="utm_*"), str)
assert_type(query_param_many(["http://a/?v=1", None, "http://a/"], "v"), List[Optional[str]])
assert_type(clean_query_many(["http://a/?x=1&gclid=2"], drop=TRACKING_PARAMS), List[Optional[str]])
assert_type(query_param_many(urls, "v", threads=1), pl.Series)
assert_type(clean_query_many(urls, drop="utm_*", on_error="null", rejects=[]), pl.Series)
# URI components: a named tuple per URI; a table for a column
parts = split("https://user@example.com:8443/a%20b?q=1#top")
assert_type(parts, URIParts)
assert_type(parts.host, Optional[str])
assert_type(parts.path, str)
assert_type(parts.geturl(), str)
assert_type(split_many(["http://h/p", None]), List[Optional[URIParts]])
hosts: Dict[int, Optional[str]] = split_many(pd.Series(["http://h/p"], index=[7]))["host"].to_dict()
tables = split_many(pl.Series("url", ["http://h/p"]))
# References made absolute (RFC 3986 5.2): one base, or a column of bases
assert_type(resolve("http://a/b/c/d;p?q", "../g"), str)
assert_type(resolve("http://a/b/", "c", normalize=True, strict=False), str)
assert_type(resolve_many("http://a/b/", ["c", None]), List[Optional[str]])
assert_type(resolve_many(["http://a/", None], ["c", "d"], on_error="null", rejects=[]), List[Optional[str]])
assert_type(resolve_many(pl.Series("url", ["http://a/"]), pl.Series("href", ["b"])), pl.Series)
links = resolve_many(pa.array(["http://a/"]), pa.array(["b"]), threads=1)
try:
    resolve("a/b", "c")
except ResolveError as exc:
    assert_type(exc.position, int)

# The drop-in for a whole process
install()
assert urllib.parse.quote is quote
uninstall()
with installed():
    assert_type(urllib.parse.urlencode({"q": "a b"}), str)
# Every parameter, a few named ones; the deduplication key
assert_type(parse_query("http://h/?a=1&b"), List[Tuple[str, str]])
assert_type(parse_query_many(["http://h/?a=1", None]), List[Optional[List[Tuple[str, str]]]])
assert_type(parse_query_long(["http://h/?a=1"]), List[Tuple[int, str, str]])
assert_type(query_params("http://h/?a=1", ["a", "b"], all=True), Dict[str, Any])
assert_type(query_params_many(["http://h/?a=1"], "a"), List[Optional[Dict[str, Any]]])
pairs_column = parse_query_many(pa.array(["http://h/?a=1"]))
assert_type(canonicalize(" HTTP://www.H/?utm_source=x#f", strip_www=True), str)
assert_type(canonicalize_many(["http://h/?b=1&a=2", None]), List[Optional[str]])
assert_type(canonicalize_many(urls, same_scheme=True, threads=1), pl.Series)

assert pctcodec.__all__ and pctcodec.__version__
