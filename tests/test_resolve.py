"""resolve and resolve_many: RFC 3986 5.2 exactly (every example of 5.4),
against an independent model of the RFC (tests/_resolve_reference.py), its
properties, the batch form on every input kind, and the differences from
urllib.parse.urljoin, each in a class that docs/resolve.md lists."""
import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import _resolve_reference as model
import _resolve_urljoin as joins
import pctcodec
from _profiles import examples, search
from pctcodec import PercentEncodingError, ResolveError, normalize, resolve, resolve_many

BASE = "http://a/b/c/d;p?q"

# RFC 3986 5.4.1
NORMAL = [
    ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"),
    ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]
# RFC 3986 5.4.2 ("http:g" for a strict parser; the non-strict one is below)
ABNORMAL = [
    ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
    ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
]


@pytest.mark.parametrize("reference, target", NORMAL + ABNORMAL)
def test_rfc3986_examples(reference, target):
    assert resolve(BASE, reference) == target
    assert model.resolve(BASE, reference) == target
    assert resolve_many(BASE, [reference]) == [target]


def test_non_strict_parser():
    assert resolve(BASE, "http:g", strict=False) == "http://a/b/c/g"
    assert model.resolve(BASE, "http:g", strict=False) == "http://a/b/c/g"
    assert resolve(BASE, "HTTP:g", strict=False) == "http://a/b/c/g"  # schemes have no case
    assert resolve(BASE, "https:g", strict=False) == "https:g"
    assert resolve_many(BASE, ["http:g"], strict=False) == ["http://a/b/c/g"]


# ---------------------------------------------------------------- strategies

PIECES = ["http:", "HTTP:", "s:", "s+1.-:", "1s:", "file:", "mailto:", "//", "//a", "//u@h:80",
          "//[::1]:8", "//H%41", "/", ".", "..", "./", "../", "/.", "/..", "g", "g.", ".g", ";p",
          "?", "?q", "?/../", "#", "#f", "#/./", "%2e", "%2E%2e", "%", "%4", ":", "@", "a",
          "\u00e9", "\u4e2d", " ", "\t", "x/y"]
uri_texts = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=7).map("".join),
    st.text("ab:/?#.%;@[]2eE", max_size=12),
)
bases = st.tuples(st.sampled_from(["http", "s", "HTTP", "file", "mailto", "s.1"]),
                  uri_texts).map(lambda t: t[0] + ":" + t[1])


def _model_check(base, reference, strict):
    assert resolve(base, reference, strict=strict) == model.resolve(base, reference, strict)


@settings(max_examples=examples(400))
@given(bases, uri_texts, st.booleans())
def test_model(base, reference, strict):
    _model_check(base, reference, strict)


@pytest.mark.slow
@settings(max_examples=search(100000))
@given(bases, uri_texts, st.booleans())
def test_model_long(base, reference, strict):
    _model_check(base, reference, strict)


@settings(max_examples=examples(300))
@given(bases, bases)
def test_absolute_reference_comes_back_without_dot_segments(base, reference):
    scheme, authority, path, query, fragment = model.parse(reference)
    target = model.recompose((scheme, authority, model.remove_dot_segments(path), query, fragment))
    assert resolve(base, reference) == target


@settings(max_examples=examples(300))
@given(bases, uri_texts)
def test_stable_against_its_own_base(base, reference):
    target = resolve(base, reference)
    # the target is absolute: a base in its turn, its fragment not used
    assert resolve(target, "") == target.partition("#")[0]
    assert resolve(target, "#x") == target.partition("#")[0] + "#x"
    # resolved again, it comes back (after one pass for a base path with dot segments)
    again = resolve(base, target)
    assert resolve(base, again) == again
    if model.remove_dot_segments(model.parse(base)[2]) == model.parse(base)[2]:
        assert again == target
    assert resolve(target, target) == again


@settings(max_examples=examples(200))
@given(bases, uri_texts)
def test_normalize_in_the_same_pass(base, reference):
    assert resolve(base, reference, normalize=True) == normalize(resolve(base, reference))
    assert resolve_many(base, [reference], normalize=True) == [normalize(resolve(base, reference))]
    assert resolve_many([base], [reference], normalize=True) == [normalize(resolve(base, reference))]


def test_normalize_option():
    assert resolve("HTTP://Ex%41mple.COM:80/a/", "b/../%7e%zz c") == "HTTP://Ex%41mple.COM:80/a/%7e%zz c"
    assert resolve("HTTP://Ex%41mple.COM:80/a/", "b/../%7e%zz c", normalize=True) \
        == "http://example.com/a/~%25zz%20c"
    assert resolve("http://a/", "//b\u00fccher.example/x", normalize=True) == \
        normalize("http://b\u00fccher.example/x")
    assert resolve_many("http://a/", ["//b\u00fccher.example/x"] * 3, normalize=True) == \
        [normalize("http://b\u00fccher.example/x")] * 3


def test_characters_kept_as_written():
    # no escape read, added or repaired; %2E is no dot segment
    assert resolve("http://a/b/c", "%2e%2E/d e/\u00e9%/%zz") == "http://a/b/%2e%2E/d e/\u00e9%/%zz"
    assert resolve("http://h\u00e9/b/", "c") == "http://h\u00e9/b/c"
    assert resolve_many("http://a/b/", ["\u4e2d/../\u00e9"]) == ["http://a/b/\u00e9"]


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("base, position, reason", [
    ("", 0, "no ':' ends a scheme"),
    ("/a/b", 0, "a scheme starts with a letter"),
    (":x", 0, "its scheme is empty"),
    ("ht tp://a", 2, "character ' ' cannot be in a scheme"),
    ("example.com/a", 11, "character '/' cannot be in a scheme"),
    ("example.com", 11, "no ':' ends a scheme"),
    ("\u00e9x:/a", 0, "a scheme starts with a letter"),
    ("x\u00e9:/a", 1, "character '\u00e9' cannot be in a scheme"),
])
def test_base_not_absolute(base, position, reason):
    with pytest.raises(ResolveError) as info:
        resolve(base, "g")
    assert isinstance(info.value, ValueError)
    assert info.value.position == position
    assert info.value.reason == "base URI is not absolute: " + reason
    assert str(info.value) == "base URI is not absolute: %s at position %d" % (reason, position)
    copy = pickle.loads(pickle.dumps(info.value))
    assert (type(copy), copy.position, str(copy)) == (ResolveError, position, str(info.value))
    with pytest.raises(ResolveError):  # a single base: before any row
        resolve_many(base, [])


def test_argument_errors():
    with pytest.raises(PercentEncodingError) as info:
        resolve("http://a/", "b\ud800")
    assert info.value.position == 1
    with pytest.raises(PercentEncodingError):
        resolve("http://a/\ud800", "b")
    with pytest.raises(TypeError):
        resolve(b"http://a/", "b")
    with pytest.raises(TypeError):
        resolve("http://a/", None)
    with pytest.raises(TypeError):
        resolve("http://a/", "b", "c")
    with pytest.raises(ValueError, match="2 bases for 3 references"):
        resolve_many(["http://a", "http://b"], ["x", "y", "z"])
    with pytest.raises(TypeError, match="base at index 1"):
        resolve_many(["http://a", 7], ["x", "y"])
    with pytest.raises(TypeError, match="value at index 0"):
        resolve_many(["http://a"], [7])
    with pytest.raises(TypeError):
        resolve_many(b"http://a", ["x"])


def test_rows_that_fail():
    bases_ = ["http://a/", "nope", "http://c/", "/x"]
    refs = ["x", "y", "z", None]
    with pytest.raises(ResolveError) as info:
        resolve_many(bases_, refs)
    assert info.value.index == 1 and info.value.position == 4
    rejects = []
    assert resolve_many(bases_, refs, on_error="null", rejects=rejects) == \
        ["http://a/x", None, "http://c/z", None]
    assert [(r.index, r.value, type(r.error)) for r in rejects] == [(1, "y", ResolveError)]
    assert resolve_many(bases_, refs, on_error="keep") == ["http://a/x", "y", "http://c/z", None]


# ---------------------------------------------------------------- every input kind

ROWS_BASES = ["http://a/b/c", "HTTP://H/p/", "nope", "s:x/y", None, "http://a", "file:///e/f",
              "http://h/\u00e9/", "http://a/b/c"] * 3
ROWS_REFS = ["../d", "q?x#f", "g", "./", "x", None, "//h\u00e9/..", "%zz/../..", ""] * 3


def _loop(base, refs, **kw):
    out = []
    for i, r in enumerate(refs):
        b = base if isinstance(base, str) else base[i]
        if b is None or r is None:
            out.append(None)
            continue
        try:
            out.append(resolve(b, r, **kw))
        except ResolveError:
            out.append(None)
    return out


def _kinds():
    """(make a column of the refs or bases, read a result back to a list)."""
    yield "list", list, list
    yield "tuple", tuple, list
    yield "iterator", iter, list
    pa = pytest.importorskip("pyarrow")
    for typ in [pa.string(), pa.large_string()] + ([pa.string_view()] if hasattr(pa, "string_view") else []):
        yield str(typ), (lambda v, t=typ: pa.array(list(v), type=t)), (lambda a: a.to_pylist())
    yield "chunked", (lambda v: pa.chunked_array([list(v)[:5], [], list(v)[5:]], type=pa.string())), \
        (lambda a: a.to_pylist())


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("normalized", [False, True])
def test_many_is_a_loop(threads, normalized):
    want_col = _loop(ROWS_BASES, ROWS_REFS, normalize=normalized)
    want_one = _loop("http://a/b/c", ROWS_REFS, normalize=normalized)
    for name, make, read in _kinds():
        for bname, bmake, _ in _kinds():
            got = resolve_many(bmake(ROWS_BASES), make(ROWS_REFS), normalize=normalized,
                               threads=threads, on_error="null")
            assert read(got) == want_col, (name, bname)
        got = resolve_many("http://a/b/c", make(ROWS_REFS), normalize=normalized, threads=threads,
                           on_error="null")
        assert read(got) == want_one, name


@settings(max_examples=examples(80))
@given(st.lists(st.tuples(st.one_of(st.none(), bases, uri_texts), st.one_of(st.none(), uri_texts)),
                max_size=40),
       st.sampled_from([1, 2, 4]), st.booleans(), st.booleans())
def test_many_is_a_loop_everywhere(rows, threads, normalized, arrow):
    pages, links = [b for b, _ in rows], [r for _, r in rows]
    want = _loop(pages, links, normalize=normalized)
    if arrow:
        pa = pytest.importorskip("pyarrow")
        pages, links = pa.array(pages, pa.string()), pa.array(links, pa.large_string())
    got = resolve_many(pages, links, normalize=normalized, threads=threads, on_error="null")
    assert (got if isinstance(got, list) else got.to_pylist()) == want


def test_many_keeps_the_arrow_type():
    pa = pytest.importorskip("pyarrow")
    refs = pa.chunked_array([["a", None], ["b"]], type=pa.large_string())
    out = resolve_many(pa.array(["http://x/", "http://y/", "http://z/"]), refs)
    assert out.type == pa.large_string() and isinstance(out, pa.ChunkedArray)
    assert out.to_pylist() == ["http://x/a", None, "http://z/b"]


def test_many_pandas():
    pd = pytest.importorskip("pandas")
    refs = pd.Series(["a", None, "../b", "c"], index=[5, 6, 7, 8], name="href")
    pages = pd.Series(["http://x/y/", "http://x/", "http://x/y/z", float("nan")], name="url")
    out = resolve_many(pages, refs)
    assert out.index.tolist() == [5, 6, 7, 8] and out.name == "href"
    assert out.tolist()[::2] == ["http://x/y/a", "http://x/b"] and out.isna().tolist() == [0, 1, 0, 1]
    cat = refs.astype("category")
    assert resolve_many("http://x/y/", cat).tolist()[::2] == ["http://x/y/a", "http://x/b"]
    assert resolve_many(pages, cat).tolist()[::2] == ["http://x/y/a", "http://x/b"]
    pytest.importorskip("pyarrow")
    arrow = refs.astype("string[pyarrow]")
    out = resolve_many(pages, arrow)
    assert out.dtype == arrow.dtype and out.tolist()[::2] == ["http://x/y/a", "http://x/b"]
    assert out.isna().tolist() == [False, True, False, True]


def test_many_polars():
    pl = pytest.importorskip("polars")
    pytest.importorskip("pyarrow")
    refs = pl.Series("href", ["a", None, "../b"])
    pages = pl.Series("url", ["http://x/y/", "http://x/", "http://x/y/z"])
    assert resolve_many(pages, refs).to_list() == ["http://x/y/a", None, "http://x/b"]
    out = resolve_many("http://x/y/", refs.cast(pl.Categorical))
    assert out.name == "href" and out.to_list() == ["http://x/y/a", None, "http://x/b"]


# ---------------------------------------------------------------- urljoin

def _doc_table():
    """The classes of docs/resolve.md's table: name -> (base, reference)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "resolve.md").read_text("utf-8")
    rows = re.findall(r"^\| `(\w+)` \| .*? \| `([^`]*)` \| `([^`]*)` \|", text, re.MULTILINE)
    return {name: (b, r.replace("\\t", "\t")) for name, b, r in rows}


def test_urljoin_classes_are_documented():
    table = _doc_table()
    assert sorted(table) == sorted(joins.CLASSES)
    for name, (b, r) in table.items():
        assert name in joins.classify(b, r), name


def _check_difference(b, r):
    ours, theirs = resolve(b, r), joins.urljoin(b, r)
    if ours != theirs:
        assert joins.classify(b, r), (b, r, ours, theirs)


@pytest.mark.parametrize("reference, _", NORMAL + ABNORMAL)
def test_urljoin_rfc_examples(reference, _):
    _check_difference(BASE, reference)


@settings(max_examples=examples(600))
@given(bases, uri_texts)
def test_urljoin_differences_are_listed(base, reference):
    _check_difference(base, reference)


@pytest.mark.slow
@settings(max_examples=search(100000))
@given(bases, uri_texts)
def test_urljoin_differences_are_listed_long(base, reference):
    _check_difference(base, reference)


@settings(max_examples=examples(200))
@given(st.sampled_from(["http://a/b/c/d;p?q", "https://u@h:8/p/", "http://h", "ftp://h/a/b"]),
       st.lists(st.sampled_from(["g", "..", ".", "/", "?y", "#s", "h/", "%41"]), max_size=5).map("".join))
def test_urljoin_agrees_on_plain_references(base, reference):
    # no class applies: the two answers are the same
    if not joins.classify(base, reference):
        assert resolve(base, reference) == joins.urljoin(base, reference)
