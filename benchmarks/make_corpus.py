"""Build benchmarks/urls_sample.txt, the URL corpus of bench_normalize.py.

How the committed file was made (Debian 12 image, CPython 3.11):

    python benchmarks/make_corpus.py /usr/share/doc /usr/lib/python3 \\
        /root/.pyenv/versions/3.11.7/lib/python3.11 --out benchmarks/urls_sample.txt

1. Every http(s) URL found in the text files (and .gz files) under the given
   folders is collected: real-world hosts, paths, queries and fragments.
2. No host gives more than PER_HOST URLs, so that one changelog full of links
   to a single site does not make up the corpus.
3. A seeded sample of them is kept as found; the rest are made messy the way
   URLs met in logs, crawls and user input are: uppercase schemes and hosts,
   default ports, escaped unreserved characters, lowercase hex, dot segments,
   spaces, non-ASCII paths and queries, IDN hosts, query strings with repeated
   keys, empty queries and fragments, userinfo, stray '%'.

The output depends only on the files found and the seed; one URL per line,
UTF-8, kept under MAX_BYTES.
"""
import argparse
import gzip
import os
import random
import re
import sys
from urllib.parse import urlsplit

URL_RE = re.compile(r"https?://[^\s)>\"'<\\`\]\[{}|^]+")
TRAILING = ".,;:!?*"
PER_HOST = 25
MAX_FILE = 4 * 1024 * 1024
MAX_BYTES = 1000 * 1000

IDN_HOSTS = ["例え.jp", "bücher.de", "пример.рф", "münchen.de", "δοκιμή.gr", "中文.cn", "café.fr",
             "ñandú.com.ar", "zürich.ch", "ÉCOLE.fr"]
WORDS = ["café", "naïve", "東京", "Привет", "straße", "São Paulo", "résumé", "日本語", "ñandú", "Zürich",
         "emoji 🎉", "a b", "100%", "x y z"]
PARAMS = ["utm_source=news", "utm_medium=email", "utm_campaign=spring", "page=2", "sort=desc",
          "q=hello+world", "q=caf%C3%A9", "lang=en", "id=42", "ref=", "a=1&a=2", "flag", "x=%2F%3F",
          "redirect=http%3A%2F%2Fexample.com%2F", "s=a%20b"]
DEFAULT_PORTS = {"http": "80", "https": "443"}


def iter_files(roots):
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                yield os.path.join(dirpath, name)


def read_text(path):
    try:
        if os.path.islink(path) or os.path.getsize(path) > MAX_FILE:
            return ""
        if path.endswith(".gz"):
            with gzip.open(path, "rb") as f:
                data = f.read(MAX_FILE)
        else:
            with open(path, "rb") as f:
                data = f.read()
    except (OSError, EOFError):
        return ""
    if b"\0" in data[:4096]:
        return ""
    return data.decode("utf-8", "replace")


def collect(roots):
    found = set()
    for path in iter_files(roots):
        for url in URL_RE.findall(read_text(path)):
            url = url.rstrip(TRAILING)
            if len(url) > 12 and url.isprintable() and "\ufffd" not in url and len(url) < 400:
                found.add(url)
    by_host = {}
    for url in sorted(found):
        try:
            host = urlsplit(url).hostname or ""
        except ValueError:
            continue
        if host:
            by_host.setdefault(host.lower(), []).append(url)
    urls = []
    rng = random.Random(1)
    for host in sorted(by_host):
        group = by_host[host]
        urls.extend(rng.sample(group, min(PER_HOST, len(group))))
    return urls


def escape_unreserved(rng, s):
    out = []
    for c in s:
        if c.isascii() and (c.isalnum() or c in "-._~") and rng.random() < 0.15:
            esc = "%%%02X" % ord(c)
            out.append(esc.lower() if rng.random() < 0.5 else esc)
        else:
            out.append(c)
    return "".join(out)


def lower_hex(s):
    return re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), s)


def messy(rng, url):
    scheme, rest = url.split("://", 1)
    authority, sep, tail = rest.partition("/")
    tail = sep + tail
    path, qsep, query = tail.partition("?")
    query_part = qsep + query
    changes = rng.sample(range(12), rng.randint(1, 4))
    for change in changes:
        if change == 0:
            scheme = scheme.upper()
        elif change == 1:
            authority = authority.upper() if rng.random() < 0.5 else authority.title()
        elif change == 2 and ":" not in authority and scheme.lower() in DEFAULT_PORTS:
            authority += ":" + rng.choice(["", "0"]) + DEFAULT_PORTS[scheme.lower()]
        elif change == 3:
            path = escape_unreserved(rng, path)
        elif change == 4:
            path, query_part = lower_hex(path), lower_hex(query_part)
        elif change == 5 and path.count("/") >= 1:
            parts = path.split("/")
            i = rng.randrange(1, len(parts) + 1)
            parts[i:i] = rng.choice([["."], ["x", ".."], ["..", parts[-1]], [".", "."]])
            path = "/".join(parts)
        elif change == 6:
            path = path.rstrip("/") + "/" + rng.choice(WORDS)
        elif change == 7:
            authority = rng.choice(IDN_HOSTS)
        elif change == 8:
            params = rng.sample(PARAMS, rng.randint(1, 4))
            query_part = (query_part + "&" if query_part else "?") + "&".join(params)
        elif change == 9:
            query_part += rng.choice(["?", "#", "#top", "#section-2.1", "#%7Eanchor", "?#"]) if not query_part else "#frag"
        elif change == 10 and "@" not in authority:
            authority = rng.choice(["user", "User:Pass", "j%2Edoe", "anonymous:"]) + "@" + authority
        elif change == 11:
            stray = rng.choice(["%", "&pct=100%", "&q=a%2", "&term=C++ %zz"])
            if not query_part:
                stray = "?" + stray.lstrip("&")
            query_part += stray
    return scheme + "://" + authority + path + query_part


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "urls_sample.txt"))
    ap.add_argument("--count", type=int, default=6000)
    ap.add_argument("--messy", type=float, default=0.4, help="share of URLs made messy")
    ap.add_argument("--seed", type=int, default=3986)
    args = ap.parse_args(argv)

    urls = collect(args.roots)
    collected = len(urls)
    rng = random.Random(args.seed)
    if len(urls) > args.count:
        urls = rng.sample(urls, args.count)
    rng.shuffle(urls)
    out = [messy(rng, u) if rng.random() < args.messy else u for u in urls]
    lines = []
    size = 0
    for u in out:
        size += len(u.encode("utf-8")) + 1
        if size > MAX_BYTES:
            break
        lines.append(u)
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("%d URLs (%d collected), %d bytes -> %s" % (len(lines), collected, size, args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
