"""Real URLs for the differential tests of pctcodec.domains: those written
in the files of the installed packages (site-packages) and of
/usr/share/doc, which are full of them. ``urls(limit)`` reads files until it
has `limit` distinct URLs (all of them for None), in a fixed order."""
import os
import re
import sysconfig

_URL = re.compile(rb"""https?://[^\s"'<>()\[\]{}\\`|^]+""")
_SUFFIXES = (".py", ".txt", ".md", ".rst", ".html", ".json", ".cfg", ".toml", "METADATA",
             "copyright", "changelog", "README", ".pyi")


def _files():
    roots = [sysconfig.get_paths()["purelib"], "/usr/share/doc"]
    for root in roots:
        for folder, dirs, names in os.walk(root):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(_SUFFIXES):
                    yield os.path.join(folder, name)


def urls(limit=None):
    seen = {}
    for path in _files():
        try:
            with open(path, "rb") as f:
                data = f.read(1 << 20)
        except OSError:
            continue
        for m in _URL.finditer(data):
            try:
                url = m.group().decode("utf-8").rstrip(".,;:")
            except UnicodeDecodeError:
                continue
            seen.setdefault(url, None)
            if limit is not None and len(seen) >= limit:
                return list(seen)
    return list(seen)
