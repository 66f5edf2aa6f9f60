"""Shared test configuration: hypothesis profiles and the differential count.

Profiles (select with env HYPOTHESIS_PROFILE; default ``ci`` when env CI is
set, else ``dev``):

* ``ci``   - derandomized, bounded, no example database: reproducible and fast.
* ``sample`` - ``ci`` with a tenth of its examples: CI's other interpreters
  (the default one runs ``ci``; what differs between versions is mostly the
  running urllib, which the fixed cases and a sample of the search cover).
* ``dev``  - random, a quarter of ``ci``'s examples; the default on a
  developer's machine (the README's ``pytest``: see tests/_profiles.py).
* ``long`` - 25000 examples per test, for local bug hunts.
* ``sanitize`` - ``ci`` with a tenth of its examples, for the sanitized run.
"""
import os
import platform
import sys

from hypothesis import HealthCheck, settings

# Make ``import _diff`` work whatever pytest's import mode is.
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import _diff  # noqa: E402
from _profiles import (CI_EXAMPLES, DEV_EXAMPLES, LONG_EXAMPLES, PROFILE,  # noqa: E402
                       SAMPLE_EXAMPLES, SANITIZE_EXAMPLES)

_QUIET_CHECKS = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    max_examples=CI_EXAMPLES,
    deadline=None,
    print_blob=True,
    suppress_health_check=_QUIET_CHECKS,
)
# The ci profile with fewer examples, for the whole suite under ASan + UBSan
# (.ci/sanitize.sh in CI), which runs every example many times slower: the
# sanitizers check the code paths, fuzzing searches the inputs.
settings.register_profile("sanitize", settings.get_profile("ci"), max_examples=SANITIZE_EXAMPLES)
settings.register_profile("sample", settings.get_profile("ci"), max_examples=SAMPLE_EXAMPLES)
settings.register_profile(
    "dev",
    max_examples=DEV_EXAMPLES,
    deadline=None,
    suppress_health_check=_QUIET_CHECKS,
)
settings.register_profile(
    "long",
    max_examples=LONG_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=_QUIET_CHECKS,
)

_profile = PROFILE
settings.load_profile(_profile)


def pytest_report_header(config):
    return "hypothesis profile: %s; pctcodec from: %s" % (
        _profile,
        getattr(_diff.pctcodec, "__file__", "?"),
    )


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    terminalreporter.write_line(
        "differential cases vs urllib.parse: %d (%s %s, hypothesis profile %s)"
        % (
            _diff.COUNT[0],
            platform.python_implementation(),
            platform.python_version(),
            _profile,
        )
    )
    _summary_of_domains(terminalreporter)


def _summary_of_domains(terminalreporter):
    import _psl_reference

    if any(_psl_reference.COUNTS.values()):
        terminalreporter.write_line(
            "differential cases of pctcodec.domains: "
            + ", ".join("%s %d" % item for item in _psl_reference.COUNTS.items()))
