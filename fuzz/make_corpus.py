"""Writes the seed corpora fuzz/corpus/<target>/ (committed; rerun after
changing a target's input layout): strings from the shared seed texts, the
WPT vectors in tests/data/wpt, and the string literals of the C and RFC 3986
tests, each behind the parameter bytes its target reads first.

    python3 fuzz/make_corpus.py [SEEDS_DIR]
"""
import hashlib
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MAX_FILES = 150
MAX_BYTES = 300


def seed_strings(seeds_dir):
    """Lines of the seed texts that hold URL syntax or escapes, cut short."""
    out = []
    if not os.path.isdir(seeds_dir):
        return out
    for name in sorted(os.listdir(seeds_dir)):
        with open(os.path.join(seeds_dir, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if line and re.search(r"%|://|[?#@]", line):
                    out.append(line[:MAX_BYTES])
    return out


def wpt_strings():
    out = []
    data = os.path.join(ROOT, "tests", "data", "wpt")
    with open(os.path.join(data, "percent-encoding.json"), encoding="utf-8") as f:
        for case in json.load(f):
            if isinstance(case, dict):
                out.append(case["input"])
                out.extend(case["output"].values())
    with open(os.path.join(data, "urlencoded-parser-data.json"), encoding="utf-8") as f:
        for case in json.load(f):
            out.append(case["input"])
    return out


def test_literals():
    """Double-quoted literals of the C tests and the RFC 3986 tests."""
    out = []
    for rel in ("tests/c/test_uri.c", "tests/c/test_ecma.c", "tests/c/test_core.c",
                "tests/test_rfc3986.py", "tests/test_ecmascript.py"):
        path = os.path.join(ROOT, rel)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r'"((?:[^"\\\n]|\\.){2,200})"', text):
            s = m.group(1)
            if re.search(r"%|/|:|\?|#|@", s) and "\\" not in s:
                out.append(s)
    return out


def uniq(items):
    seen, out = set(), []
    for s in items:
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def utf8(s):
    return s.encode("utf-8", "surrogatepass")


# The parameter bytes each target reads before its body (see the targets).
def set_bytes(chars):
    """The 16 bytes of fuzz_encode's safe set: bit c % 8 of byte c // 8."""
    bits = bytearray(16)
    for c in chars.encode("ascii"):
        bits[c // 8] |= 1 << (c % 8)
    return bytes(bits)


UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
UNRESERVED_SET = set_bytes(UNRESERVED)
SLASH_SET = set_bytes(UNRESERVED + "/ ")


def encode_inputs(s, i):
    mode = (i % 8) << 1 | (i & 1) | 16  # width, plus, surrogates mostly away
    keep = (UNRESERVED_SET, SLASH_SET, bytes(16))[i % 3]
    body = s.encode(("latin-1", "utf-16-le", "utf-32-le", "utf-8")[mode >> 1 & 3], "replace")
    return bytes([mode, i % 17, 0, 0]) + keep + body


def ecma_inputs(s, i):
    mode = i % 4 | 4
    body = s.encode(("latin-1", "utf-16-le", "utf-32-le", "latin-1")[mode & 3], "replace")
    return bytes([mode, 0, 0]) + body


TARGETS = {
    "fuzz_encode": encode_inputs,
    "fuzz_decode": lambda s, i: bytes([i & 1, i % 13, 255]) + utf8(s),
    "fuzz_requote": lambda s, i: bytes([i % 4, 0, 0]) + utf8(s),
    "fuzz_check": lambda s, i: utf8(s),
    "fuzz_normalize": lambda s, i: bytes([(i * 37) & 0xFF, 0xFF, 0, 0]) + utf8(s),
    "fuzz_ecma": ecma_inputs,
    "fuzz_api": lambda s, i: bytes([i & 0xFF]) + utf8(s),
    # op (5 kinds, plus, malformed mode), flags, no output limit, a safe set, rows
    "fuzz_batch": lambda s, i: bytes([i % 5 | (i // 5 % 2) << 3 | (i // 10 % 3) << 4, (i * 37) & 0xFF, 255])
    + (UNRESERVED_SET, SLASH_SET)[i % 2] + utf8(s) + b"\n" + utf8(s[::-1]),
}


def main():
    seeds = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "seeds")
    # a share of each source, every one spread over its whole list
    parts = (uniq(wpt_strings()), uniq(test_literals()), uniq(seed_strings(seeds)))
    share = MAX_FILES // len(parts)
    strings = uniq(s for part in parts for s in part[:: max(1, len(part) // share)][:share])
    for target, make in TARGETS.items():
        d = os.path.join(HERE, "corpus", target)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for i, s in enumerate(strings):
            data = make(s, i)
            name = hashlib.sha1(data).hexdigest()
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        print("%s: %d files" % (target, len(os.listdir(d))))


if __name__ == "__main__":
    main()
