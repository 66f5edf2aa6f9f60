"""What the API reference renders from the docstrings: each parameter its
own entry with its own type (a grouped entry, ``threads, on_error,
rejects``, rendered every name with the first one's type and default:
``on_error`` as ``Optional[int]``, ``suffix_list`` as ``bool``)."""
import inspect
import re

import pytest

import pctcodec

ENTRY = re.compile(r"^    (\S[^\n]*)$", re.M)


def _parameter_entries(doc):
    section = doc.split("Parameters\n    ----------\n", 1)
    if len(section) == 1:
        return []
    body = re.split(r"\n\n    [A-Z][a-z]+\n    -+\n", section[1], maxsplit=1)[0]
    return ENTRY.findall(body)


@pytest.mark.parametrize("name", [n for n in pctcodec.__all__
                                  if inspect.isfunction(getattr(pctcodec, n))])
def test_each_parameter_is_its_own_typed_entry(name):
    func = getattr(pctcodec, name)
    entries = _parameter_entries(inspect.getdoc(func) and "    " + func.__doc__.strip() or "")
    params = inspect.signature(func).parameters
    for entry in entries:
        names, _, kind = entry.partition(" : ")
        assert kind, (name, entry)  # a type, not the annotation of another parameter
        group = names.split(", ")
        # a group is rendered with its first name's default: only one of
        # names whose defaults are the same
        assert len({repr(params[n].default) for n in group}) == 1, (name, entry)


def test_package_docstring_names_no_private_module():
    assert "_install" not in pctcodec.__doc__
