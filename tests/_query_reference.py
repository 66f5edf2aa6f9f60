"""An independent model of pctcodec.query's rules, in plain Python on str:
the query of RFC 3986 Appendix B, parameters as parse_qsl(...,
keep_blank_values=True) reads them, names matched with fnmatch.fnmatchcase."""
import fnmatch
from urllib.parse import unquote_plus


def split_query(uri):
    """(before, query, after): the query after the first '?' that comes
    before any '#', up to the next '#'; query None when there is none."""
    head, hash_, fragment = uri.partition("#")
    if "?" not in head:
        return uri, None, ""
    before, _, query = head.partition("?")
    return before, query, hash_ + fragment


def params(query):
    """(raw segment, decoded name, decoded value) of each non-empty segment."""
    out = []
    for seg in query.split("&"):
        if seg:
            name, _, value = seg.partition("=")
            out.append((seg, unquote_plus(name), unquote_plus(value)))
    return out


def query_param(uri, name):
    query = split_query(uri)[1]
    if query is None:
        return None
    for _, n, v in params(query):
        if n == name:
            return v
    return None


def _ascii_lower(s):
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def _matches(name, patterns, ignore_case=False):
    if ignore_case:
        name, patterns = _ascii_lower(name), [_ascii_lower(p) for p in patterns]
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def clean_query(uri, drop=(), keep=None, sort=False, ignore_case=False, html_amp=False):
    before, query, after = split_query(uri)
    if query is None:
        return uri
    kept, removed = [], 0
    for seg in query.split("&"):
        while html_amp and seg.startswith("amp;"):  # "&amp;" is one separator
            seg = seg[4:]
        name = unquote_plus(seg.partition("=")[0])
        if seg and ((keep is not None and not _matches(name, keep, ignore_case))
                    or _matches(name, drop, ignore_case)):
            removed += 1
        else:
            kept.append((name, seg))
    if sort:
        kept.sort(key=lambda t: t[0])  # stable
    rebuilt = "&".join(seg for _, seg in kept)
    if removed and not rebuilt and before:  # "?x" alone keeps its '?'
        return before + after
    return before + "?" + rebuilt + after
