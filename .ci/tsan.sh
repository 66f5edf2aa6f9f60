#!/usr/bin/env bash
# tests/test_threads.py against the extension built with ThreadSanitizer.
#
#   .ci/tsan.sh [pytest arguments...]     (default: tests/test_threads.py)
#
# The extension is built with gcc -fsanitize=thread into build/tsan (the
# source tree is left alone) and imported from there by the interpreter with
# the TSan runtime preloaded: the interpreter itself is not instrumented, so
# TSan sees the extension's own memory accesses (the worker pool, the Arrow
# builders, the shared caches) and the lock and thread calls of everything.
# What it reports inside CPython is suppressed (.ci/tsan.supp); any report
# left fails the run.
#
# PYTHON picks the interpreter (default python3); it needs pytest and
# hypothesis (pip install '.[test]').
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$PWD
PYTHON=${PYTHON:-python3}
CC=${TSAN_CC:-gcc}
OUT=${TSAN_BUILD:-$REPO/build/tsan}

SANFLAGS="-fsanitize=thread -fno-omit-frame-pointer"
CC=$CC CFLAGS="$SANFLAGS -g -O1" LDFLAGS="$SANFLAGS" PYTHON=$PYTHON .ci/build-ext.sh "$OUT"

RUNTIME=$($CC -print-file-name=libtsan.so)
if [[ ! -e $RUNTIME ]]; then
    echo "error: ThreadSanitizer runtime $RUNTIME not found" >&2
    exit 1
fi
export LD_PRELOAD=$RUNTIME
REPORTS=$OUT/reports
rm -rf "$REPORTS"
mkdir -p "$REPORTS"
# Reports to files (pytest captures stderr); exitcode=0: a report fails the
# run below, after every test ran, rather than killing the interpreter.
export TSAN_OPTIONS="suppressions=$REPO/.ci/tsan.supp:log_path=$REPORTS/tsan:exitcode=0:report_signal_unsafe=0:second_deadlock_stack=1:history_size=4"
export PCTCODEC_SANITIZED=1
export PYTHONPATH=$OUT
export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
PYTHON=$PYTHON .ci/build-ext.sh --check "$OUT"

cd "$OUT"
# shellcheck source=.ci/repo-paths.sh
source "$REPO/.ci/repo-paths.sh"
repo_paths "$REPO" "$@"
if ((${#ARGS[@]} == 0)); then
    ARGS=("$REPO/tests/test_threads.py")
fi
status=0
"$PYTHON" -m pytest -q -p no:cacheprovider --rootdir "$REPO" "${ARGS[@]}" || status=$?
if compgen -G "$REPORTS/*" >/dev/null; then
    echo "error: ThreadSanitizer reports:" >&2
    for report in "$REPORTS"/*; do
        echo "---------- $report" >&2
        cat "$report" >&2
    done
    status=1
fi
if ((status != 0)); then
    echo "error: the ThreadSanitizer run failed (exit status $status)" >&2
fi
exit "$status"
