#!/usr/bin/env bash
# Builds pctcodec into OUT, apart from the source tree, for the checking runs
# (.ci/sanitize.sh, .ci/valgrind.sh):
#
#   PYTHON=python3 CC=gcc CFLAGS=... LDFLAGS=... .ci/build-ext.sh OUT
#   PYTHON=python3 .ci/build-ext.sh --check OUT
#
# OUT/pctcodec then holds the Python package and the extension built with
# those flags; put OUT first on PYTHONPATH and run from outside the source
# tree (`python -m pytest` puts the current directory first on sys.path).
# --check imports pctcodec that way, in the caller's environment (with the
# runtime the build needs preloaded), and fails unless OUT's build is found.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
if [[ ${1:-} == --check ]]; then
    OUT=${2:?usage: build-ext.sh --check OUT}
    cd "$OUT"
    exec env PYTHONPATH="$OUT${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON" - "$OUT" <<'PY'
import sys
import pctcodec._pctcodec as m
assert m.__file__.startswith(sys.argv[1]), "imported %s, not the build in %s" % (m.__file__, sys.argv[1])
print("pctcodec from", m.__file__)
PY
fi
OUT=${1:?usage: build-ext.sh OUT}
CC=${CC:-gcc}

# setup.py reads pyproject.toml's SPDX licence: setuptools 77 or newer (a
# 3.12+ venv has no setuptools at all, older venvs an older one).
if ! "$PYTHON" -c "import setuptools, sys; sys.exit(int(setuptools.__version__.split('.')[0]) < 77)" 2>/dev/null; then
    "$PYTHON" -m pip install -q 'setuptools>=77'
fi
# Debug information for the sanitizers' and valgrind's reports.
export PCTCODEC_DEBUG=1
echo "building pctcodec with $CC ${CFLAGS:-} into $OUT"
rm -rf "$OUT"
mkdir -p "$OUT"
# The package's Python files and data, subpackages included (no build left in src/).
(cd src && find pctcodec \( -name '*.py' -o -name '*.pyi' -o -name py.typed -o -name '*.dat' \) -print0 |
    xargs -0 cp --parents -t "$OUT")
CC=$CC LDSHARED="$CC -shared" \
    "$PYTHON" -W ignore setup.py -q build_ext --build-lib "$OUT" --build-temp "$OUT/tmp" --force
