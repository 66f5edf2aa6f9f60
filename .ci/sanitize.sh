#!/usr/bin/env bash
# The whole pytest suite against the extension built with AddressSanitizer
# and UndefinedBehaviorSanitizer, or with SANITIZE=thread, ThreadSanitizer.
#
#   .ci/sanitize.sh [pytest arguments...]     (default: the whole tests/)
#   SANITIZE=thread .ci/sanitize.sh tests/test_threads.py
#
# ThreadSanitizer: the interpreter is not built with it and does not tell it
# about the GIL's hand-over, so every access the GIL orders would look like
# a race; the reports whose top frame is CPython's are suppressed
# (.ci/tsan.supp), never one whose accesses are both the extension's.
#
# The extension is built with gcc into build/sanitize (the source tree's own
# src/pctcodec/ and any in-place build are left alone) and imported from there by
# an interpreter that preloads the sanitizer runtimes. Every object is then
# allocated by malloc (PYTHONMALLOC=malloc), so that an out-of-bounds read of
# a str or bytes is caught too. Any sanitizer report ends the run with a
# non-zero exit status. Leak detection is off: CPython itself does not free
# everything at exit.
#
# PYTHON picks the interpreter (default python3); it needs pytest, hypothesis
# and the rest of the test extra (pip install '.[test]').
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$PWD
PYTHON=${PYTHON:-python3}
CC=${SANITIZE_CC:-gcc}
SANITIZE=${SANITIZE:-address}
if [[ $SANITIZE == thread ]]; then
    OUT=${SANITIZE_BUILD:-$REPO/build/sanitize-thread}
else
    OUT=${SANITIZE_BUILD:-$REPO/build/sanitize}
fi

if [[ $SANITIZE == thread ]]; then  # (the runtime: LD_PRELOAD below)
    SANFLAGS="-fsanitize=thread -fno-omit-frame-pointer"
    RUNTIMES=$($CC -print-file-name=libtsan.so)
else
    SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
    RUNTIMES="$($CC -print-file-name=libasan.so) $($CC -print-file-name=libubsan.so)"
fi

CC=$CC CFLAGS="$SANFLAGS -g -O1" LDFLAGS="$SANFLAGS" PYTHON=$PYTHON .ci/build-ext.sh "$OUT"

for lib in $RUNTIMES; do
    if [[ ! -e $lib ]]; then
        echo "error: sanitizer runtime $lib not found" >&2
        exit 1
    fi
done

if [[ $SANITIZE == thread ]]; then
    # Only the interpreter gets the TSan runtime: bash and other programs
    # the run starts crash with it preloaded.
    printf '#!/bin/sh\nLD_PRELOAD=%q exec %q "$@"\n' "$RUNTIMES" "$PYTHON" >"$OUT/python"
    chmod +x "$OUT/python"
    PYTHON=$OUT/python
else
    export LD_PRELOAD="$RUNTIMES"
fi
export PYTHONMALLOC=malloc
# Reports go to files (pytest captures stderr, and a child process's stderr
# is often read by its test): any file there fails the run, whatever the
# exit status of pytest.
REPORTS=$OUT/reports
rm -rf "$REPORTS"
mkdir -p "$REPORTS"
# TSan goes on after a report (exitcode=0): the file fails the run below.
export TSAN_OPTIONS="suppressions=$REPO/.ci/tsan.supp:log_path=$REPORTS/tsan:exitcode=0:report_signal_unsafe=0:history_size=4"
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:log_path=$REPORTS/asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$REPORTS/ubsan
# Tests that cannot run under the sanitizers read this (tests/test_memory_limits.py).
export PCTCODEC_SANITIZED=1
export PYTHONPATH=$OUT
export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
PYTHON=$PYTHON .ci/build-ext.sh --check "$OUT"

# Run from the build directory (see .ci/build-ext.sh).
cd "$OUT"
# Test paths are given relative to the repository.
# shellcheck source=.ci/repo-paths.sh
source "$REPO/.ci/repo-paths.sh"
repo_paths "$REPO" "$@"
if ((${#ARGS[@]} == 0)); then
    ARGS=("$REPO/tests")
fi
status=0
"$PYTHON" -m pytest -q -p no:cacheprovider --rootdir "$REPO" "${ARGS[@]}" || status=$?
if compgen -G "$REPORTS/*" >/dev/null; then
    echo "error: sanitizer reports:" >&2
    for report in "$REPORTS"/*; do
        echo "---------- $report" >&2
        cat "$report" >&2
    done
    status=1
fi
if ((status != 0)); then
    echo "error: the sanitized test run failed (exit status $status)" >&2
fi
exit "$status"
