#!/usr/bin/env bash
# Builds and runs the fuzz targets: fuzz/run.sh SECONDS [TARGET...]
#
# Every target (default: all of fuzz_*.c and fuzz_api) runs SECONDS of
# wall time from a fresh copy of its seed corpus fuzz/corpus/<target>/ with
# the dictionary fuzz/pct.dict. Installs what is missing: clang with its
# sanitizer and libFuzzer runtimes (Debian packages), and atheris (PyPI, into
# a virtual environment under the work directory unless one is active).
#
# Environment: FUZZ_JOBS (targets run at once, default 1), FUZZ_WORK (work
# directory, default fuzz/build: binaries, grown corpora, logs, artifacts),
# FUZZ_PYTHON (interpreter for the atheris target, default python3),
# FUZZ_RSS_MB (default 2048), FUZZ_TIMEOUT (seconds per input, default 25).
# Exits non-zero on any finding (crash, leak, timeout, out of memory,
# sanitizer report, failed property); the inputs are kept in
# $FUZZ_WORK/artifacts/<target>/.
set -uo pipefail

usage() {
    echo "usage: $0 SECONDS [TARGET...]" >&2
    exit 2
}
[[ $# -ge 1 && $1 =~ ^[0-9]+$ ]] || usage
SECS=$1
shift

FUZZ=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$FUZZ")
WORK=${FUZZ_WORK:-$FUZZ/build}
JOBS=${FUZZ_JOBS:-1}
RSS_MB=${FUZZ_RSS_MB:-2048}
TIMEOUT=${FUZZ_TIMEOUT:-25}
DICT=$FUZZ/pct.dict
mkdir -p "$WORK"

C_TARGETS=()
for src in "$FUZZ"/fuzz_*.c; do
    C_TARGETS+=("$(basename "$src" .c)")
done
ALL_TARGETS=("${C_TARGETS[@]}" fuzz_api)
if [[ $# -gt 0 ]]; then
    TARGETS=("$@")
else
    TARGETS=("${ALL_TARGETS[@]}")
fi
for t in "${TARGETS[@]}"; do
    [[ " ${ALL_TARGETS[*]} " == *" $t "* ]] || { echo "unknown target: $t" >&2; exit 2; }
done

# ------------------------------------------------------------------ installs
as_root() {
    if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

clang_fuzzer_works() {
    command -v clang >/dev/null 2>&1 || return 1
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
        >"$WORK/probe.c"
    clang -fsanitize=fuzzer,address,undefined -o "$WORK/probe" "$WORK/probe.c" >/dev/null 2>&1
}

if ! clang_fuzzer_works; then
    echo "== installing clang and its runtimes (apt-get)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
    clang_fuzzer_works || { echo "clang cannot build libFuzzer targets" >&2; exit 1; }
fi
echo "== $(clang --version | head -1)"

need_api=0
[[ " ${TARGETS[*]} " == *" fuzz_api "* ]] && need_api=1
if ((need_api)); then
    if [[ -n ${VIRTUAL_ENV:-} ]]; then
        PY=$VIRTUAL_ENV/bin/python
    else
        PY=$WORK/venv/bin/python
        [[ -x $PY ]] || "${FUZZ_PYTHON:-python3}" -m venv "$WORK/venv" || exit 1
    fi
    # setuptools 77 or newer reads pyproject.toml's SPDX licence (a 3.11 venv
    # comes with an older one)
    if ! "$PY" -c 'import atheris, ada_url, setuptools, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' 2>/dev/null; then
        echo "== installing atheris (pip)"
        "$PY" -m pip install -q atheris ada-url 'setuptools>=77' || exit 1
    fi
fi

# ------------------------------------------------------------------ builds
SAN=(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
CFLAGS=(-std=c99 -g -O1 -Wall -Wextra -I"$ROOT/src/core")
echo "== building into $WORK"
mkdir -p "$WORK/obj" "$WORK/bin"
core_objs=()
for src in "$ROOT"/src/core/*.c; do
    obj=$WORK/obj/$(basename "$src" .c).o
    clang "${CFLAGS[@]}" -Wno-unused-function "${SAN[@]}" -fsanitize=fuzzer-no-link \
        -c "$src" -o "$obj" || exit 1
    core_objs+=("$obj")
done
for t in "${TARGETS[@]}"; do
    [[ $t == fuzz_api ]] && continue
    clang "${CFLAGS[@]}" "${SAN[@]}" -fsanitize=fuzzer -o "$WORK/bin/$t" \
        "$FUZZ/$t.c" "${core_objs[@]}" || exit 1
done
if ((need_api)); then
    # The extension instrumented for atheris and built with the sanitizers;
    # the Python files beside it in a package of their own.
    rm -rf "$WORK/py"
    mkdir -p "$WORK/py"
    (cd "$ROOT/src" && find pctcodec \( -name '*.py' -o -name '*.dat' \) -print0 |
        xargs -0 cp --parents -t "$WORK/py")
    (cd "$ROOT" && CC=clang LDSHARED="clang -shared" \
        CFLAGS="${SAN[*]} -fsanitize=fuzzer-no-link -g -O1" LDFLAGS="${SAN[*]}" \
        "$PY" setup.py -q build_ext --build-lib "$WORK/py" --build-temp "$WORK/pytmp" --force \
        >"$WORK/py-build.log" 2>&1) || { cat "$WORK/py-build.log"; exit 1; }
    # atheris ships the ASan runtime (with UBSan and libFuzzer) to preload
    ASAN_RT=$("$PY" -c 'import atheris; print(atheris.path())')/asan_with_fuzzer.so
    [[ -f $ASAN_RT ]] || { echo "atheris has no $ASAN_RT" >&2; exit 1; }
fi

# ------------------------------------------------------------------ runs
mkdir -p "$WORK/logs" "$WORK/stats"

run_one() {
    local t=$1 log=$WORK/logs/$1.log corpus=$WORK/corpus/$1 art=$WORK/artifacts/$1/
    rm -rf "$corpus" "$art" "$WORK/stats/$t".*
    mkdir -p "$corpus" "$art"
    cp "$FUZZ/corpus/$t"/* "$corpus"/ 2>/dev/null
    local args=(-max_total_time="$SECS" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB"
        -dict="$DICT" -artifact_prefix="$art" -print_final_stats=1 "$corpus")
    local rc
    (
        if [[ $t == fuzz_api ]]; then
            LD_PRELOAD=$ASAN_RT PYTHONPATH=$WORK/py PYTHONMALLOC=malloc \
                ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
                UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
                "$PY" "$FUZZ/fuzz_api.py" -max_len=512 "${args[@]}"
        else
            ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
                "$WORK/bin/$t" -max_len=4096 "${args[@]}"
        fi
        rc=$?
        times >"$WORK/stats/$t.times" # its second line: the fuzzer's user and sys time
        exit $rc
    ) >"$log" 2>&1
    rc=$?
    echo "$rc" >"$WORK/stats/$t.rc"
    report "$t"
}

# seconds of "XmY.Zs"
to_seconds() {
    local v=$1
    awk -v v="$v" 'BEGIN { split(v, a, "m"); sub("s", "", a[2]); printf "%.1f", a[1] * 60 + a[2] }'
}

# One line of results per target, also kept for the summary.
report() {
    local t=$1 log=$WORK/logs/$1.log rc cpu execs last cov ft corp finding=no
    rc=$(cat "$WORK/stats/$t.rc")
    read -r u s < <(tail -1 "$WORK/stats/$t.times")
    cpu=$(awk -v u="$(to_seconds "$u")" -v s="$(to_seconds "$s")" 'BEGIN { printf "%.1f", u + s }')
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+[[:space:]]+(DONE|NEW|REDUCE|pulse|INITED|RELOAD)' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
    if [[ $rc -ne 0 ]] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:|property failed|SUMMARY: ' "$log"; then
        finding=YES
    fi
    printf '%-15s %8s %12s %7s %7s %14s %6s %s\n' "$t" "$cpu" "${execs:-?}" "${cov:-?}" "${ft:-?}" \
        "${corp:-?}" "$rc" "$finding" | tee "$WORK/stats/$t.line"
    if [[ $finding == YES ]]; then
        echo "!! $t: finding; log $log, inputs in $WORK/artifacts/$t/:"
        ls -1 "$WORK/artifacts/$t/" | sed 's/^/!!   /'
        grep -m 5 -E 'ERROR:|runtime error:|property failed|Traceback|Error:' "$log" | sed 's/^/!!   /'
    fi
}

HEADER=$(printf '%-15s %8s %12s %7s %7s %14s %6s %s' target cpu_s execs cov ft corpus exit finding)
echo "== running ${#TARGETS[@]} targets for ${SECS}s each, $JOBS at a time"
echo "$HEADER"
running=0
for t in "${TARGETS[@]}"; do
    echo "-- $t: started $(date -u +%H:%M:%S)"
    run_one "$t" &
    running=$((running + 1))
    if ((running >= JOBS)); then
        wait -n
        running=$((running - 1))
    fi
done
wait

echo
echo "== summary (${SECS}s per target; cpu_s: user+sys seconds; corpus: files/bytes)"
echo "$HEADER"
status=0
for t in "${TARGETS[@]}"; do
    cat "$WORK/stats/$t.line"
    grep -q ' YES$' "$WORK/stats/$t.line" && status=1
done
if ((status)); then
    echo "FUZZ: findings above (artifacts under $WORK/artifacts)"
else
    echo "FUZZ: no findings in ${#TARGETS[@]} targets"
fi
exit $status
