"""`import pctcodec` loads no optional dependency: each is imported on
first use (benchmarks/bench_import.py measures the time). Hosts are mapped
in C and load nothing."""
import json
import pickle

import pytest

from _child import run_python

LAZY = ["ada_url", "idna", "pyarrow", "pandas", "polars", "dask", "distributed", "numpy", "tqdm", "duckdb",
        "pyspark"]


def _loaded_after(code):
    script = "import sys, json; %s; print(json.dumps(sorted(sys.modules)))" % code
    out = run_python(["-c", script], text=True, check=True)
    loaded = {name.split(".")[0] for name in json.loads(out.stdout)}
    return [name for name in LAZY if name in loaded]


def test_import_loads_no_optional_dependency():
    assert _loaded_after("import pctcodec") == []


def test_integrations_load_only_their_engine():
    # pctcodec.integrations itself imports nothing; each module its engine.
    assert _loaded_after("import pctcodec.integrations") == []
    assert _loaded_after("import pctcodec.integrations._functions") == []
    script = ("import sys; import pctcodec; "
              "assert not [m for m in sys.modules if m.startswith('pctcodec.integrations')]")
    run_python(["-c", script], check=True)


def test_import_loads_only_the_package():
    # Not even the standard library's re or typing (a few ms each): what
    # `import pctcodec` adds to sys.modules is pctcodec's own.
    script = ("import sys, json; before = set(sys.modules); import pctcodec; "
              "print(json.dumps(sorted(set(sys.modules) - before)))")
    out = run_python(["-c", script], text=True, check=True)
    added = json.loads(out.stdout)
    assert "pctcodec._pctcodec" in added
    assert [name for name in added if name.split(".")[0] != "pctcodec"] == []


def test_host_mapping_on_first_non_ascii_host():
    assert _loaded_after("import pctcodec; pctcodec.normalize('http://example.com/')") == []
    code = "import pctcodec; assert pctcodec.normalize('http://B\\u00fccher.example/') == 'http://xn--bcher-kva.example/'"
    assert _loaded_after(code) == []
    code = "import pctcodec; assert pctcodec.uri_to_iri('http://xn--bcher-kva.example/') == 'http://b\\u00fccher.example/'"
    assert _loaded_after(code) == []


def test_command_line_imports_no_typing():
    # The command line's modules are annotated with typing's names in
    # quotes only (src/pctcodec/_typecheck.py): its start-up does not pay for typing.
    script = ("import sys, json; before = set(sys.modules); import pctcodec.cli, pctcodec.cli._tables; "
              "print(json.dumps(sorted(set(sys.modules) - before)))")
    out = run_python(["-c", script], text=True, check=True)
    added = json.loads(out.stdout)
    assert "pctcodec.cli._tables" in added
    assert "typing" not in added


def test_import_loads_only_the_codecs():
    # `import pctcodec` loads the extension and the modules of the drop-in
    # codecs; every other module loads on the first use of one of its names
    # (it loaded all 14 before, 3.7 ms over a bare interpreter).
    script = ("import sys, json; before = set(sys.modules); import pctcodec; "
              "print(json.dumps(sorted(set(sys.modules) - before)))")
    out = run_python(["-c", script], text=True, check=True)
    assert json.loads(out.stdout) == ["pctcodec", "pctcodec._errors", "pctcodec._pctcodec",
                                      "pctcodec.rfc3986"]
    # a name loads its own module only
    script = ("import sys, json; import pctcodec; pctcodec.split; before = set(sys.modules); "
              "pctcodec.clean_query; print(json.dumps(sorted(set(sys.modules) - before)))")
    out = run_python(["-c", script], text=True, check=True)
    assert json.loads(out.stdout) == ["pctcodec.query"]  # (split loaded batch)


def test_lazy_names_are_the_modules_names():
    script = ("import pctcodec, sys; names = sorted(pctcodec.__all__); "
              "assert set(names) <= set(dir(pctcodec)), set(names) - set(dir(pctcodec)); "
              "assert {'batch', 'domains', 'sets'} <= set(dir(pctcodec)); "
              "assert 'split_many' not in vars(pctcodec); "
              "from pctcodec import split_many, TRACKING_PARAMS; "
              "assert split_many is pctcodec.parts.split_many; "
              "assert pctcodec.TRACKING_PARAMS is pctcodec.query.TRACKING_PARAMS; "
              "assert all(getattr(pctcodec, n) is not None for n in names); "
              "assert '__getattr__' in vars(pctcodec); "  # sets is still to load
              "assert pctcodec.sets.UNRESERVED; "
              "assert '__getattr__' not in vars(pctcodec)")  # gone once all is loaded
    run_python(["-c", script], check=True)
    import pctcodec
    assert pickle.loads(pickle.dumps(pctcodec.split("a:b"))) == pctcodec.split("a:b")
    with pytest.raises(AttributeError, match="no_such_name"):
        pctcodec.no_such_name
