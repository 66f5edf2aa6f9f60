#!/usr/bin/env bash
# Coverage of src/core reached by the C fuzz targets' corpora:
#   fuzz/coverage.sh [TARGET...]
# Builds each target with clang's source-based coverage, runs it once over
# the corpus a run of fuzz/run.sh grew ($FUZZ_WORK/corpus/<target>, else the
# seed corpus fuzz/corpus/<target>), and prints llvm-cov's line, region,
# function and branch coverage per file of src/core: every target together,
# then each target alone. Needs clang (fuzz/run.sh installs it).
set -euo pipefail

FUZZ=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$FUZZ")
WORK=${FUZZ_WORK:-$FUZZ/build}
COV=$WORK/coverage

tool() {
    local name
    for name in "$1" "$1-14" "$1-15" "$1-16" "$1-13"; do
        command -v "$name" >/dev/null 2>&1 && { echo "$name"; return; }
    done
    echo "no $1 found (apt-get install llvm or clang)" >&2
    exit 1
}
PROFDATA=$(tool llvm-profdata)
LLVMCOV=$(tool llvm-cov)

TARGETS=("$@")
if [[ ${#TARGETS[@]} -eq 0 ]]; then
    for src in "$FUZZ"/fuzz_*.c; do
        TARGETS+=("$(basename "$src" .c)")
    done
fi

rm -rf "$COV"
mkdir -p "$COV"
objects=()
for t in "${TARGETS[@]}"; do
    clang -std=c99 -g -O1 -I"$ROOT/src/core" -Wno-unused-function \
        -fprofile-instr-generate -fcoverage-mapping -fsanitize=fuzzer \
        -o "$COV/$t" "$FUZZ/$t.c" "$ROOT"/src/core/*.c
    corpus=$WORK/corpus/$t
    [[ -d $corpus ]] || corpus=$FUZZ/corpus/$t
    echo "== $t over $corpus ($(find "$corpus" -type f | wc -l) inputs)"
    LLVM_PROFILE_FILE="$COV/$t.profraw" "$COV/$t" -runs=0 "$corpus" >"$COV/$t.log" 2>&1
    "$PROFDATA" merge -sparse "$COV/$t.profraw" -o "$COV/$t.profdata"
    objects+=(-object "$COV/$t")
done

"$PROFDATA" merge -sparse "$COV"/*.profraw -o "$COV/all.profdata"
echo
echo "== src/core covered by all targets together"
"$LLVMCOV" report "${objects[@]:1}" -instr-profile="$COV/all.profdata" "$ROOT"/src/core/*.[ch]
for t in "${TARGETS[@]}"; do
    echo
    echo "== $t alone (TOTAL over src/core)"
    "$LLVMCOV" report "$COV/$t" -instr-profile="$COV/$t.profdata" "$ROOT"/src/core/*.[ch] | tail -1
done
