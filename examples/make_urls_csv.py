"""Build examples/urls.csv, the messy URL table of the README's first command.

    python examples/make_urls_csv.py            # writes examples/urls.csv

Columns: ``id``; ``url``, real-world URLs from benchmarks/urls_sample.txt, a
share of them made messy the way benchmarks/make_corpus.py does it (spaces,
non-ASCII text, lowercase hex, stray '%' and '%zz', IDN hosts, dot segments,
default ports, uppercase schemes and hosts), plus a few written by hand so
that every kind of mess is present; ``title``, free text with commas and
quotes, so that the CSV has quoted fields. The output depends only on the
seed.
"""
import csv
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.join(HERE, os.pardir, "benchmarks")
sys.path.insert(0, BENCHMARKS)

from make_corpus import messy  # noqa: E402

ROWS = 300
MESSY = 0.5
HAND_WRITTEN = [
    "HTTP://Example.COM:80/a/./b/../c/Annual Report 2024.pdf",
    "https://bücher.de/suche?q=café crème&sort=asc",
    "http://www.example.org/%7euser/caf%c3%a9/index.html",
    "https://例え.jp/引き出し/./x?q=東京#top",
    "https://shop.example.com:443/cart/../checkout?discount=100%&ref=mail",
    "http://example.net/search?q=%zz+bad+escape&page=2",
    "HTTPS://API.Example.com/v1/items/./42/?fields=name,price",
    "http://münchen.de:80/stadt plan/",
    "https://example.com/docs/a%2Fb%2fc/%41%42%43",
    "ftp://Files.Example.COM/pub/../pub/file name.tar.gz",
]
SUBJECTS = ["Annual report", "Release notes", "Install guide", "FAQ", "Price list", "Search results",
            "Project page", "Changelog", "Mailing list archive", "Bug tracker"]
DETAILS = ["final, signed", "draft", 'the "new" edition', "v2, v3 and v4", "mirror", "",
           "see also: section 2, 3", "copy", 'quoted "as is", with commas']


def main():
    rng = random.Random(2024)
    with open(os.path.join(BENCHMARKS, "urls_sample.txt"), encoding="utf-8") as f:
        corpus = [line.rstrip("\n") for line in f if line.strip()]
    urls = [messy(rng, u) if rng.random() < MESSY and "://" in u else u
            for u in rng.sample(corpus, ROWS - len(HAND_WRITTEN))]
    for url in HAND_WRITTEN:
        urls.insert(rng.randrange(len(urls) + 1), url)
    path = os.path.join(HERE, "urls.csv")
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["id", "url", "title"])
        for i, url in enumerate(urls, 1):
            detail = rng.choice(DETAILS)
            title = rng.choice(SUBJECTS) + (", " + detail if detail else "")
            writer.writerow([i, url, title])
    print(f"{len(urls)} rows -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
