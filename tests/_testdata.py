"""Other projects' test data (web-platform-tests vectors, the Public Suffix
List and its test cases), read where it is kept beside this repository and
never copied into it.

The folder is env PCTCODEC_TESTDATA when set (CI sets it: its tests run from
an unpacked sdist in a temporary folder), else ``../shared/testdata`` beside
the repository. Where it is absent (an unpacked sdist on its own), the tests
that read it skip with ``MISSING`` as their reason.
"""
import json
import os

import pytest

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.environ.get("PCTCODEC_TESTDATA") or os.path.join(os.path.dirname(_REPO), "shared", "testdata")


def path(*parts):
    """The path of a file or folder of the test data, or None if absent."""
    p = os.path.join(ROOT, *parts)
    return p if os.path.exists(p) else None


def reason(*parts):
    return "test data %s not found (set PCTCODEC_TESTDATA to the folder that holds %s)" % (
        os.path.join(ROOT, *parts), os.path.join(*parts))


def load_json(*parts):
    """The parsed JSON file, or None if absent."""
    p = path(*parts)
    if p is None:
        return None
    with open(p, encoding="utf-8") as f:
        return json.load(f)


def needs(*parts):
    """A mark that skips a test, with a clear reason, when the file is absent."""
    return pytest.mark.skipif(path(*parts) is None, reason=reason(*parts))
