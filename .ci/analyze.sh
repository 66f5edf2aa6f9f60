#!/usr/bin/env bash
# Static analysis of the C sources: gcc -fanalyzer and clang --analyze over
# src/core/*.c and the binding src/*.c (with the Python headers).
#
#   .ci/analyze.sh [gcc|clang ...]      (default: both)
#
# Each warning either is fixed or has a line in .ci/analyzer.supp naming the
# tool, the file, the checker, a piece of the message and why it is a false
# positive; any other warning fails the run, and so does a suppression that
# no longer matches anything (it is then stale: remove it).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
PYINC=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
TOOLS=("$@")
((${#TOOLS[@]})) || TOOLS=(gcc clang)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/pctcodec-analyze.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
SOURCES=(src/core/*.c src/*.c)
# The build's own flags (setup.py), with the analyzers' diagnostics only.
FLAGS=(-std=c11 -O1 -Isrc/core "-I$PYINC" -DNDEBUG)

for tool in "${TOOLS[@]}"; do
    : >"$OUT/$tool.log"
    for f in "${SOURCES[@]}"; do
        case $tool in
        gcc)
            gcc "${FLAGS[@]}" -fanalyzer -fdiagnostics-plain-output -c "$f" -o /dev/null \
                >>"$OUT/$tool.log" 2>&1 || true
            ;;
        clang)
            clang "${FLAGS[@]}" --analyze -Xanalyzer -analyzer-output=text \
                -Xanalyzer -analyzer-disable-checker=deadcode.DeadStores "$f" -o /dev/null \
                >>"$OUT/$tool.log" 2>&1 || true
            ;;
        *)
            echo "error: unknown analyzer $tool" >&2
            exit 2
            ;;
        esac
    done
    echo "$tool: $(grep -c ': warning: ' "$OUT/$tool.log" || true) warnings before suppressions"
    # A file the tool cannot compile is not analysed at all: that fails the run.
    if grep ': error: ' "$OUT/$tool.log"; then
        echo "error: $tool could not compile every file (above): nothing of it was analysed" >&2
        exit 1
    fi
done

"$PYTHON" - .ci/analyzer.supp "${TOOLS[@]/#/$OUT/}" <<'PY'
import re, sys

supp_path, logs = sys.argv[1], sys.argv[2:]
rules = []  # (tool, file, checker, text, line of the file)
for n, line in enumerate(open(supp_path, encoding="utf-8"), 1):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    parts = [p.strip() for p in line.split("|")]
    if len(parts) != 5 or not parts[4]:
        sys.exit("%s:%d: want tool | file | checker | message text | why" % (supp_path, n))
    rules.append((parts[0], parts[1], parts[2], parts[3], n))
used = set()
left = []
warning = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: warning: (?P<msg>.*?) \[(?P<checker>[^\]]+)\]$")
for log in logs:
    tool = log.rsplit("/", 1)[-1].split(".")[0]
    seen = set()
    for raw in open(log + ".log", encoding="utf-8", errors="replace"):
        m = warning.match(raw.rstrip("\n"))
        if not m:
            continue
        key = (m["file"], m["line"], m["checker"], m["msg"])
        if key in seen:  # a header's warning once, whatever includes it
            continue
        seen.add(key)
        hit = [r for r in rules if r[0] == tool and m["file"].endswith(r[1]) and r[2] == m["checker"]
               and r[3] in m["msg"]]
        if hit:
            used.update(r[4] for r in hit)
        else:
            left.append("%s: %s" % (tool, raw.rstrip()))
stale = [r for r in rules if r[4] not in used and r[0] in {l.rsplit("/", 1)[-1] for l in logs}]
for l in left:
    print(l)
for r in stale:
    print("%s:%d: suppression matches no warning (stale): %s" % (supp_path, r[4], " | ".join(r[:4])))
print("%d warnings suppressed as false positives, %d left, %d stale suppressions"
      % (len(used), len(left), len(stale)))
sys.exit(1 if left or stale else 0)
PY
