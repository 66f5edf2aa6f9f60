#!/usr/bin/env bash
# A subset of the tests under valgrind memcheck: no invalid read or write, no
# use of uninitialised memory, and no block allocated in pctcodec's extension
# definitely lost.
#
#   .ci/valgrind.sh [pytest arguments...]     (default: the subset below)
#
# The extension is built into build/valgrind (see .ci/build-ext.sh) and run
# by the interpreter's real binary (not a pyenv shim or a venv's symlink)
# with PYTHONMALLOC=malloc, so that memcheck sees every object. The
# interpreter's own packages (pytest, hypothesis, ada-url) stay importable
# through PYTHONPATH. CPython itself does not free everything at exit: leaks
# count only when the extension itself allocated the block (see below).
# .ci/valgrind-python.supp silences reports about CPython 3.11 and glibc
# themselves (none whose first frame is in the extension).
#
# PYTHON picks the interpreter (default python3).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$PWD
PYTHON=${PYTHON:-python3}
OUT=${VALGRIND_BUILD:-$REPO/build/valgrind}
LOG=$OUT/memcheck.log

if ! command -v valgrind >/dev/null; then
    if command -v apt-get >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
    else
        echo "error: valgrind is not installed and there is no apt-get" >&2
        exit 1
    fi
fi

CFLAGS="-g -O2" PYTHON=$PYTHON .ci/build-ext.sh "$OUT"

REAL_PYTHON=$(readlink -f "$("$PYTHON" -c 'import sys; print(sys.executable)')")
SEARCH_PATH=$("$PYTHON" -c 'import os, sys; print(os.pathsep.join(p for p in sys.path if p))')
export PYTHONPATH=$OUT:$SEARCH_PATH
export PYTHONMALLOC=malloc
export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
export PCTCODEC_LEAK_CALLS=${PCTCODEC_LEAK_CALLS:-200}
# tests/test_leaks.py: resident memory is valgrind's own here (see there)
export PCTCODEC_VALGRIND=1
PYTHON=$REAL_PYTHON .ci/build-ext.sh --check "$OUT"

# The subset: every public function on valid and invalid input (the leak
# test's rows, 200 calls each) and the example-based tests of the C paths;
# not the property tests' thousands of examples, nor the tests that run
# child interpreters (memcheck does not follow them).
if (($# == 0)); then
    # (the leak loops are marked slow: -m selects them too)
    set -- -m "slow or not slow" tests/test_leaks.py tests/test_extension.py tests/test_exotic.py tests/test_rfc3986.py
fi
# shellcheck source=.ci/repo-paths.sh
source "$REPO/.ci/repo-paths.sh"
repo_paths "$REPO" "$@"

cd "$OUT"
echo "valgrind memcheck: $REAL_PYTHON -m pytest ${ARGS[*]}"
status=0
valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes \
    --suppressions="$REPO/.ci/valgrind-python.supp" \
    --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=none \
    --num-callers=40 --log-file="$LOG" \
    "$REAL_PYTHON" -m pytest -q -p no:cacheprovider --rootdir "$REPO" "${ARGS[@]}" || status=$?
grep -E "ERROR SUMMARY|definitely lost:" "$LOG" || true

# Definitely lost blocks that the extension allocated: walking the stack
# up from the allocator, a frame of the extension's sources comes before
# any frame where CPython calls code or keeps a cache of its own (a call, the
# interning of a str or of a key given as a C string, a codec lookup):
# blocks lost past such a frame are the
# interpreter's, which does not free everything at exit. (An object the
# extension forgets to release is the business of tests/test_leaks.py.)
ours=$(awk '
    function judge(line) {
        if (line ~ /\((_pctcodec[a-z_]*\.[ch]|pct_[a-z0-9_]*\.[ch]):[0-9]+\)/) return 1
        if (line ~ /[Cc]all|Eval|Intern|Import|vacall|codec|Codec|ItemString|AttrString/) return -1
        return 0
    }
    /definitely lost in loss record/ { record = $0 "\n"; inrec = 1; verdict = 0; next }
    inrec && /^==[0-9]+== *$/ { if (verdict == 1) print record; inrec = 0; next }
    inrec {
        record = record $0 "\n"
        if (verdict == 0 && $0 ~ / by 0x/) verdict = judge($0)
    }
' "$LOG")
if [[ -n $ours ]]; then
    echo "error: memory allocated by pctcodec definitely lost:" >&2
    echo "$ours" >&2
    status=1
fi
if ((status != 0)); then
    echo "error: memcheck found errors (exit status $status); see $LOG" >&2
    grep -B2 -A30 -E "Invalid (read|write)|uninitialised|Conditional jump" "$LOG" | head -120 >&2 || true
fi
exit "$status"
