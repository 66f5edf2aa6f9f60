"""What pctcodec.install() gains end to end: real library calls, before and after.

    python benchmarks/bench_install.py [--quick] [--json PATH]

Each workload runs in two child interpreters: one with urllib.parse as it is,
one where pctcodec.install() ran before requests and httpx were imported
(they bind urllib.parse's functions at their import, as most libraries do).
Both children must produce the same results, checked before anything is
timed; the two run in turn, five times each, and the time is the best of all
their repeats, in CPU time of the child (all workloads are single-threaded). A library that is not
installed is skipped with a note (`pip install -e '.[bench]'` brings them).

Workloads:
- requests: Request(...).prepare() of a GET with query parameters, and of a
  POST of a form (URL requoting, params and body encoding, auth from the URL).
- httpx: URL(...) with params, its path and query as text; QueryParams.
- urllib.parse: urlencode of realistic forms, and parse_qsl of their bodies.
"""
import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
import timeit

SEARCH_FORM = {
    "q": "café au lait near Gare du Nord, Paris",
    "lang": "fr-FR",
    "page": 3,
    "per_page": 50,
    "sort": "relevance desc",
    "filters[price][min]": "2.50",
    "filters[price][max]": "12.00",
    "tags": ["coffee & tea", "vegan/organic", "wi-fi"],
    "utm_source": "newsletter 2024-06",
    "ref": "https://example.com/landing?x=1&y=2",
}
SIGNUP_FORM = {
    "username": "jürgen.müller",
    "email": "jurgen+test@example.org",
    "password": "p@ss w0rd!#$%^&*()",
    "display_name": "Jürgen Müller 🚀",
    "bio": "Hi! I write about URLs, percent-encoding & other fun things.\nSecond line; with ümlauts.",
    "country": "DE",
    "newsletter": "on",
    "csrf_token": "b0c2f8a4e1d94c3bb5a1f0e9d8c7b6a5",
    "redirect": "/welcome?step=2&from=signup",
    "timezone": "Europe/Berlin",
}
URL = "https://user:p%40ss@api.example.com/v2/search/caf%C3%A9 menus/index.html"


def _workloads():
    """(name, function, what it returns for the check); libraries imported here,
    after the parent decided whether pctcodec is installed."""
    import urllib.parse

    out = []
    search_body = urllib.parse.urlencode(SEARCH_FORM, doseq=True)
    signup_body = urllib.parse.urlencode(SIGNUP_FORM)
    out.append(("urllib.parse.urlencode(search form, doseq)",
                lambda: urllib.parse.urlencode(SEARCH_FORM, doseq=True)))
    out.append(("urllib.parse.urlencode(signup form)", lambda: urllib.parse.urlencode(SIGNUP_FORM)))
    out.append(("urllib.parse.parse_qsl(search body)", lambda: urllib.parse.parse_qsl(search_body)))
    out.append(("urllib.parse.parse_qsl(signup body)", lambda: urllib.parse.parse_qsl(signup_body)))
    try:
        import requests
    except ImportError:
        out.append(("requests", None))
    else:
        def get():
            p = requests.Request("GET", URL, params=SEARCH_FORM).prepare()
            return p.url, requests.utils.get_auth_from_url(p.url)

        def post():
            p = requests.Request("POST", "https://example.com/signup", data=SIGNUP_FORM).prepare()
            return p.url, p.body

        out.append(("requests GET with params: prepare()", get))
        out.append(("requests POST form: prepare()", post))
    try:
        import httpx
    except ImportError:
        out.append(("httpx", None))
    else:
        def build():
            u = httpx.URL(URL, params=SEARCH_FORM)
            return str(u), u.path, u.username, u.password

        out.append(("httpx URL(..., params) + path, userinfo", build))
        out.append(("httpx QueryParams(search form) as text", lambda: str(httpx.QueryParams(SEARCH_FORM))))
    return out


def child(installed, quick):
    """Run in a child: time every workload; print JSON."""
    if installed:
        import pctcodec

        pctcodec.install()
    results = {}
    for name, *rest in _workloads():
        func = rest[0] if rest else None
        if func is None:
            results[name] = None
            continue
        digest = hashlib.sha256(repr(func()).encode()).hexdigest()
        # CPU time of this process: on a shared machine, the time it waits
        # for a core is not the workload's
        timer = timeit.Timer(func, timer=time.process_time)
        number, _ = timer.autorange()  # about 0.2 s a repeat
        number = max(1, number // (10 if quick else 2))
        best = min(timer.repeat(repeat=3, number=number)) / number
        results[name] = {"seconds": best, "digest": digest}
    json.dump(results, sys.stdout)


def _run_child(installed, quick):
    args = [sys.executable, os.path.abspath(__file__), "--child", "installed" if installed else "plain"]
    if quick:
        args.append("--quick")
    r = subprocess.run(args, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        sys.exit("child failed:\n" + r.stderr)
    return json.loads(r.stdout)


def _versions():
    import importlib.metadata

    out = {}
    for dist in ("pctcodec", "requests", "httpx"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = None
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few short repeats (a smoke run, not a measurement)")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    ap.add_argument("--child", choices=["plain", "installed"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child == "installed", args.quick)
        return 0

    # rounds of short runs, the two sides alternating, the best of each side
    # kept: whatever else the machine runs weighs on both alike
    rounds = 1 if args.quick else 5
    plain, installed = {}, {}
    for _ in range(rounds):
        for side, store in ((False, plain), (True, installed)):
            for name, res in _run_child(side, args.quick).items():
                if res is None or name not in store or store[name] is None:
                    store[name] = res
                else:
                    store[name]["seconds"] = min(store[name]["seconds"], res["seconds"])

    versions = _versions()
    print("pctcodec.install() end to end%s" % (" (--quick: numbers are rough)" if args.quick else ""))
    print("Python %s (%s), %s; %s" % (platform.python_version(), platform.python_implementation(),
                                      platform.machine(),
                                      ", ".join("%s %s" % (k, v or "not installed") for k, v in versions.items())))
    print()
    rows = []
    header = ("workload", "urllib.parse us", "installed us", "speed-up")
    for name, res in plain.items():
        if res is None:
            print("  (%s not installed: skipped)" % name)
            continue
        other = installed[name]
        if other["digest"] != res["digest"]:
            sys.exit("%s: the results differ with pctcodec installed" % name)
        rows.append((name, res["seconds"] * 1e6, other["seconds"] * 1e6, res["seconds"] / other["seconds"]))
    width = max(len(header[0]), *(len(r[0]) for r in rows))
    print("  %-*s  %15s  %12s  %8s" % (width, *header))
    print("  %s  %s  %s  %s" % ("-" * width, "-" * 15, "-" * 12, "-" * 8))
    for name, a, b, ratio in rows:
        print("  %-*s  %15.2f  %12.2f  %7.2fx" % (width, name, a, b, ratio))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"python": platform.python_version(), "versions": versions, "quick": args.quick,
                       "rows": [dict(zip(("workload", "urllib_us", "installed_us", "speedup"), r)) for r in rows]},
                      f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
