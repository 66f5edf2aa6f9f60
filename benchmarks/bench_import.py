"""Import time of pctcodec, as `python -X importtime -c "import pctcodec"` reports it.

    python benchmarks/bench_import.py [--runs N] [--json FILE]

warm: the median over N fresh interpreters of the package's own cumulative
import time (pctcodec and everything it imports that was not yet loaded),
with the bytecode cached as after any first run. cold: the same in an
interpreter whose bytecode cache is empty (-X pycache_prefix= a new folder),
as on the first import after an install: every module is compiled. The
target is 2 ms warm. Run it from outside the source tree, so that the
installed package is measured (the script changes directory itself).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

TARGET_MS = 2.0


def import_us(extra_args=()):
    """pctcodec's cumulative import time in microseconds, and the modules it loaded."""
    code = "import sys; before = set(sys.modules); import pctcodec; print(' '.join(sorted(set(sys.modules) - before)))"
    out = subprocess.run(
        [sys.executable, "-X", "importtime", *extra_args, "-c", code],
        capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(),
    )
    for line in out.stderr.splitlines():
        # "import time: self [us] | cumulative | imported package"
        fields = [f.strip() for f in line.split(":", 1)[-1].split("|")]
        if len(fields) == 3 and fields[2] == "pctcodec":
            return int(fields[1]), out.stdout.split()
    raise RuntimeError("no import time for pctcodec in:\n" + out.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()

    import_us()  # fill the bytecode cache
    warm = [import_us()[0] for _ in range(args.runs)]
    cold = []
    for _ in range(max(3, args.runs // 5)):
        with tempfile.TemporaryDirectory() as prefix:
            cold.append(import_us(["-X", "pycache_prefix=" + prefix])[0])
    _, modules = import_us()

    result = {
        "python": sys.version.split()[0],
        "warm_ms": statistics.median(warm) / 1000,
        "cold_ms": statistics.median(cold) / 1000,
        "target_warm_ms": TARGET_MS,
        "modules": modules,
    }
    print("import pctcodec (CPython %s), median of %d runs:" % (result["python"], args.runs))
    print("  warm: %.2f ms  (target %.1f ms: %s)" % (
        result["warm_ms"], TARGET_MS, "met" if result["warm_ms"] <= TARGET_MS else "NOT met"))
    print("  cold: %.2f ms  (empty bytecode cache: every module compiled)" % result["cold_ms"])
    print("  modules loaded: %d: %s" % (len(modules), " ".join(modules)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
