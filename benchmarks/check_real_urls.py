"""normalize, iri_to_uri, requote and equivalent over every URL on this machine.

Collects the URLs in /usr/share/doc and in the files of the running Python
(stdlib and installed packages), each also as text extraction gives it (the
rest of its line, no-break spaces included), then makes messy variants of
each: a non-ASCII, emoji, escaped or invalid host, no-break spaces, escapes
in the host. Every call must return; every output must pass check(), and
normalize must be idempotent; normalize_many must agree with normalize.

    python benchmarks/check_real_urls.py [ROOT...]
"""
import gzip
import os
import re
import sys
import sysconfig

import pctcodec

URL = re.compile(r"(?:https?|ftp|wss?)://[^\s\"'<>()\[\]{}`]+")
LINE = re.compile(r"https?://[^\n\r]{1,80}")
HOSTS = ["例え.jp", "i\u2764\ufe0f.ws", "\u20acxample.com", "£££.com", "bücher.DE", "%E4%BE%8B.jp", "例%41.jp",
         "a\u00a0b.com", "\U0001f600.com", "xn--zz.例", "\u0661a.com", "a\u200db.com", "ＥＸＡＭＰＬＥ.com",
         "%C2%A0.com", "%FF例.jp", "例%2F.jp", "[FE80::1%25Eth0]", "h:8%30"]


def urls_under(roots):
    found = set()
    for root in roots:
        for dirpath, _, files in os.walk(root):
            for name in files:
                path = os.path.join(dirpath, name)
                try:
                    if os.path.getsize(path) > 5_000_000:
                        continue
                    with (gzip.open if name.endswith(".gz") else open)(path, "rb") as f:
                        data = f.read()
                except (OSError, EOFError, gzip.BadGzipFile):
                    continue
                if b"://" in data:
                    text = data.decode("utf-8", "replace")
                    found.update(m.group(0) for m in URL.finditer(text))
                    found.update(m.group(0) for m in LINE.finditer(text))
    return sorted(found)


def messy(urls):
    for i, url in enumerate(urls):
        m = re.match(r"([a-z]+://)([^/?#]*)(.*)", url, re.S)
        if m:
            scheme, host, rest = m.groups()
            yield scheme + HOSTS[i % len(HOSTS)] + rest
            yield scheme + host + "\u00a0\u00a0Reporting\u00a0a\u00a0bug" + rest
            yield scheme + host.upper() + "%41%E2%82%AC" + rest + "\U0001f600"


def main(argv):
    paths = sysconfig.get_paths()
    roots = argv or ["/usr/share/doc", paths["stdlib"], paths["purelib"]]
    real = urls_under(roots)
    variants = list(messy(real))
    failures = 0
    for url in real + variants:
        try:
            out = pctcodec.normalize(url)
            pctcodec.check(out)
            pctcodec.check(pctcodec.iri_to_uri(url))
            pctcodec.check(pctcodec.requote(url))
            assert pctcodec.normalize(out) == out, "not idempotent"
            assert pctcodec.equivalent(url, out)
        except (ValueError, AssertionError) as e:
            failures += 1
            print("%s: %s: %s" % (ascii(url), type(e).__name__, e))
    assert pctcodec.normalize_many(real + variants) == [pctcodec.normalize(u) for u in real + variants]
    print("%d URLs found, %d messy variants: %d failures" % (len(real), len(variants), failures))
    return failures != 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
