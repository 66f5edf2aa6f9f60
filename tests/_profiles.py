"""The hypothesis profile of the run (registered in conftest.py) and the
example counts of the tests that set their own.

A test whose examples are slow to make sets its own count, written for the
``ci`` profile (1000 per test otherwise): ``@settings(max_examples=examples(500))``.
``examples`` keeps it under ``ci`` (what CI runs on the default interpreter),
and scales it like the profile's own count under ``dev`` (a quarter),
``sample`` and ``sanitize`` (a tenth) and ``long``.
"""
import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")

CI_EXAMPLES = 1000
DEV_EXAMPLES = 250
SAMPLE_EXAMPLES = 100
SANITIZE_EXAMPLES = 100
LONG_EXAMPLES = 25000
_SCALE = {"dev": DEV_EXAMPLES / CI_EXAMPLES, "sample": SAMPLE_EXAMPLES / CI_EXAMPLES,
          "sanitize": SANITIZE_EXAMPLES / CI_EXAMPLES, "long": LONG_EXAMPLES / CI_EXAMPLES}


def examples(count):
    """A test's own example count (as for ``ci``) under the profile of the run."""
    return max(10, round(count * _SCALE.get(PROFILE, 1)))


def search(count):
    """A slow test's long search: count examples on a developer's machine,
    a tenth in CI (env CI set), where the slow tests run once in a time
    budget; the whole search is run locally (pytest -m slow)."""
    return max(10, count // 10) if os.environ.get("CI") else count
