"""parse_url against ada-url (ada, the URL Standard parser of Node.js) on
real URLs (benchmarks/urls_sample.txt, examples/) and on the spellings
browsers accept that scraped pages hold, made from those URLs: every
getter compared, every difference counted by its class. Both must read
each the same: a difference is a bug on one side (docs/urls.md tables the
classes, none at the time of writing)."""
import collections
import csv
import os
import random

import pytest

import pctcodec

ada_url = pytest.importorskip("ada_url")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GETTERS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
           "pathname", "search", "hash")


def real_urls():
    with open(os.path.join(ROOT, "benchmarks", "urls_sample.txt"), encoding="utf-8") as f:
        urls = [line.strip() for line in f if line.strip()]
    with open(os.path.join(ROOT, "examples", "urls.txt"), encoding="utf-8") as f:
        urls += [line.strip() for line in f if line.strip()]
    with open(os.path.join(ROOT, "examples", "urls.csv"), encoding="utf-8", newline="") as f:
        urls += [row["url"] for row in csv.DictReader(f)]
    return urls


def spellings(url, rng):
    """(class, spelling) pairs a browser reads: url written the ways
    hand-made links and scraped pages have it."""
    if "://" not in url:
        return []
    scheme, rest = url.split("://", 1)
    host, sep, path = rest.partition("/")
    k = rng.randrange(1, len(scheme))
    a = [rng.randrange(256) for _ in range(4)]
    return [
        ("backslashes", scheme + ":\\\\" + host + ("\\" + path.replace("/", "\\") if sep else "")),
        ("extra slashes", scheme + ":///" + rest),
        ("no slashes", scheme + ":" + rest),
        ("tab in the scheme", scheme[:k] + "\t" + scheme[k:] + "://" + rest),
        ("newline in the path", url + "\n/x"),
        ("spaces and controls around", "  " + url + " \x01"),
        ("uppercase", scheme.upper() + "://" + host.upper() + sep + path),
        ("fullwidth dot", scheme + "://" + host.replace(".", "\uff0e", 1) + sep + path),
        ("ideographic dot", scheme + "://" + host.replace(".", "\u3002", 1) + sep + path),
        ("IPv4 in hex", scheme + "://0x%x.%d.0x%x.%d/" % tuple(a) + path),
        ("IPv4 as one number", scheme + "://%d/" % (a[0] << 24 | a[1] << 16 | a[2] << 8 | a[3]) + path),
        ("dot segments", scheme + "://" + host + "/a/%2e%2E/./b/.." + ("/" + path if path else "")),
        ("backslash before @", scheme + "://" + host + "\\@evil.example/" + path),
        ("userinfo to escape", scheme + "://us er:p@ss@" + host + sep + path),
        ("escaped dot in the host", scheme + "://" + host.replace(".", "%2E", 1) + sep + path),
        ("default port", scheme + "://" + host + (":443" if scheme == "https" else ":80") + sep + path),
        ("non-ASCII path, query, fragment", url + ("" if sep else "/") + "caf\u00e9 \u00fc?q=\u00e9 x#\u00e9"),
    ]


def _ada(value):
    try:
        u = ada_url.URL(value)
    except ValueError:
        return None
    return tuple(getattr(u, g) for g in GETTERS)


def _ours(value):
    try:
        return tuple(pctcodec.parse_url(value))
    except pctcodec.URLParseError:
        return None


def differences(pairs):
    """{class: count} of the (class, value) pairs the two read apart, and
    an example of each."""
    counts, examples = collections.Counter(), {}
    for cls, value in pairs:
        theirs, ours = _ada(value), _ours(value)
        if theirs != ours:
            kind = cls + (": rejected by one" if (theirs is None) != (ours is None) else "")
            counts[kind] += 1
            examples.setdefault(kind, (value, theirs, ours))
    return counts, examples


def test_real_urls():
    urls = real_urls()
    assert len(urls) >= 6000
    counts, examples = differences(("real", u) for u in urls)
    assert not counts, examples


def test_browser_spellings():
    rng = random.Random(1)
    pairs = [p for u in real_urls()[::6] for p in spellings(u, rng)]
    assert len(pairs) >= 15000
    assert len({cls for cls, _ in pairs}) == 17
    counts, examples = differences(pairs)
    assert not counts, examples
    # the spellings the issue names read as the browser reads them
    assert pctcodec.parse_url("http://example.com\\@evil.com/").hostname == "example.com"
    assert pctcodec.url_href_many(["http:\\\\example.com\\a", "https:///github.com/x",
                                   "ht\ttp://0x7f.1/", "http:example\uff0ecom"]) == \
        ["http://example.com/a", "https://github.com/x", "http://127.0.0.1/", "http://example.com/"]
