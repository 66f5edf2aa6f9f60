"""An independent model of pctcodec.canonicalize and pctcodec.parse_query,
in plain Python on str, from the rules in their documentation: the model
normalize of tests/_uri_reference.py, then the query, host, scheme, path
and fragment rules one by one."""
import fnmatch
from urllib.parse import unquote, unquote_plus

import _query_reference as qref
import _uri_reference as uref

TRACKING = None  # set by the tests: pctcodec.TRACKING_PARAMS


def _lower(s):
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def parse_query(uri, keep_plus=False, html_amp=False):
    query = qref.split_query(uri)[1]
    if query is None:
        return []
    decode = unquote if keep_plus else unquote_plus
    out = []
    for seg in query.split("&"):
        while html_amp and seg.startswith("amp;"):  # "&amp;" is one separator
            seg = seg[4:]
        if seg:
            name, _, value = seg.partition("=")
            out.append((decode(name), decode(value)))
    return out


def query_params(uri, names, all=False, keep_plus=False, html_amp=False):
    pairs = parse_query(uri, keep_plus, html_amp)
    if all:
        return {n: [v for k, v in pairs if k == n] for n in names}
    return {n: next((v for k, v in pairs if k == n), None) for n in names}


def _matches(name, patterns, ignore_case):
    if ignore_case:
        name, patterns = _lower(name), [_lower(p) for p in patterns]
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


SPECIAL = ("http", "https", "ws", "wss", "ftp", "file")


def _web_slashes(uri, strip):
    """A special scheme's URL as a browser reads it: each '\\' before the
    query or fragment is a '/'."""
    if strip:
        uri = uref.strip_url_whitespace(uri)
    scheme, colon, rest = uri.partition(":")
    if not colon or not scheme.isascii() or scheme.lower() not in SPECIAL:
        return uri
    cut = min([k for k in (rest.find("?"), rest.find("#")) if k >= 0] or [len(rest)])
    return scheme + ":" + rest[:cut].replace("\\", "/") + rest[cut:]


def canonicalize(uri, drop=None, keep=None, ignore_case=None, sort_query=True, drop_fragment=True,
                 strip_www=False, same_scheme=False, strip_trailing_slash=False,
                 drop_empty_query=True, strip_whitespace=True, html_amp=False):
    drop_fold = keep_fold = ignore_case
    if ignore_case is None:  # drop's in any case when it is TRACKING_PARAMS itself
        drop_fold, keep_fold = drop is None or drop is TRACKING, False
    drop = TRACKING if drop is None else drop
    norm = uref.normalize(_web_slashes(uri, strip_whitespace), drop_fragment=drop_fragment,
                          strip_whitespace=strip_whitespace)
    p = uref.split(norm)
    scheme, path, query, fragment = p.scheme, p.path, p.query, p.fragment
    authority = p.authority
    web = scheme in ("http", "https")
    if authority is not None:
        userinfo, host, port = uref.split_authority(authority)
        if userinfo is not None and scheme in SPECIAL:
            # an empty password and an empty user name go (the URL Standard)
            user, colon, password = userinfo.partition(":")
            userinfo = user if colon and not password else userinfo
            userinfo = None if userinfo == "" else userinfo
        if strip_www:
            while len(host) > 4 and host.startswith("www.") and host[4] != "[":
                host = host[4:]
        if same_scheme and web and port == "80":
            port = None
        authority = ("" if userinfo is None else userinfo + "@") + host + (
            "" if port is None else ":" + port)
    if same_scheme and web:
        scheme = "http"
    if strip_trailing_slash:
        # With no host, a path that starts "//" is written after "/." (the
        # URL Standard's mark, not a segment of the path): stripped without it.
        mark = "/." if authority is None and path.startswith("/.//") else ""
        stripped = path[len(mark):]
        while len(stripped) > 1 and stripped.endswith("/"):
            stripped = stripped[:-1]
        if stripped != path[len(mark):] and stripped.rpartition("/")[2] in (".", ".."):
            stripped += "/"
        path = (mark if stripped.startswith("//") else "") + stripped
    if query is not None:
        kept, removed = [], 0
        for seg in query.split("&"):
            while html_amp and seg.startswith("amp;"):
                seg = seg[4:]
            name = unquote_plus(seg.partition("=")[0])
            if not seg:
                continue  # no parameter
            if (keep is not None and not _matches(name, keep, keep_fold)) \
                    or _matches(name, drop, drop_fold):
                removed += 1
            else:
                kept.append((name, seg))
        if sort_query:
            kept.sort(key=lambda t: t[0])
        query = "&".join(seg for _, seg in kept)
        before = uref.recompose(scheme, authority, path, None, None)
        if not query and before and (removed or drop_empty_query):
            query = None
    return uref.recompose(scheme, authority, path, query, fragment)
