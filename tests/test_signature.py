"""Each pctcodec function has urllib.parse's signature: names, kinds, defaults."""
import inspect
import urllib.parse

import pytest

import pctcodec
from _diff import FUNCTIONS


@pytest.mark.parametrize("name", FUNCTIONS)
def test_signature_matches_urllib(name):
    ref = inspect.signature(getattr(urllib.parse, name))
    try:
        ours = inspect.signature(getattr(pctcodec, name))
    except ValueError as e:
        pytest.fail("pctcodec.%s has no introspectable signature (__text_signature__ missing?): %s" % (name, e))
    ref_params = list(ref.parameters.values())
    our_params = list(ours.parameters.values())
    assert [p.name for p in our_params] == [p.name for p in ref_params], (str(ours), str(ref))
    assert [p.kind for p in our_params] == [p.kind for p in ref_params], (str(ours), str(ref))
    for r, o in zip(ref_params, our_params):
        if name == "urlencode" and r.name == "quote_via":
            assert r.default is urllib.parse.quote_plus
            assert o.default is pctcodec.quote_plus, o.default
            continue
        assert type(o.default) is type(r.default), (name, r.name, o.default, r.default)
        assert o.default == r.default, (name, r.name, o.default, r.default)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_has_docstring(name):
    doc = getattr(pctcodec, name).__doc__
    assert doc and doc.strip(), name
