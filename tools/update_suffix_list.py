"""Regenerates the Public Suffix List snapshot that pctcodec ships.

    pip install -U publicsuffixlist && python tools/update_suffix_list.py

The snapshot is the list file of the PyPI package ``publicsuffixlist``
(which republishes the list, dated, every few days), copied byte for byte
to src/pctcodec/data/public_suffix_list.dat: its Mozilla Public License
notice stays at its head. src/pctcodec/_suffix_snapshot.py gets where it
came from (package and version), the list's own VERSION and COMMIT lines,
the day it was taken and its SHA-256. Nothing is fetched by pctcodec at run
time; this script reads the installed package only (pip is the one that
downloads).
"""
import datetime
import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(os.path.dirname(HERE), "src", "pctcodec")


def main():
    try:
        import publicsuffixlist
        from importlib.metadata import version
    except ImportError:
        sys.exit("install the package first: pip install -U publicsuffixlist")
    with open(publicsuffixlist.PSLFILE, "rb") as f:
        data = f.read()
    text = data.decode("utf-8")
    list_version = re.search(r"^// VERSION: (\S+)", text, re.M)
    commit = re.search(r"^// COMMIT: (\S+)", text, re.M)
    if "Mozilla Public" not in text[:500] or "===BEGIN PRIVATE DOMAINS===" not in text:
        sys.exit("%s does not look like the Public Suffix List" % publicsuffixlist.PSLFILE)
    with open(os.path.join(PACKAGE, "data", "public_suffix_list.dat"), "wb") as f:
        f.write(data)
    meta = {
        "SOURCE": "publicsuffixlist %s (PyPI)" % version("publicsuffixlist"),
        "VERSION": list_version.group(1) if list_version else None,
        "COMMIT": commit.group(1) if commit else None,
        "TAKEN": datetime.date.today().isoformat(),
        "SHA256": hashlib.sha256(data).hexdigest(),
    }
    lines = ['"""The shipped Public Suffix List snapshot (data/public_suffix_list.dat):',
             "written by tools/update_suffix_list.py, do not edit."
             '"""']
    lines += ["%s = %r" % item for item in meta.items()]
    with open(os.path.join(PACKAGE, "_suffix_snapshot.py"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("snapshot: %(SOURCE)s, list version %(VERSION)s" % meta)


if __name__ == "__main__":
    main()
