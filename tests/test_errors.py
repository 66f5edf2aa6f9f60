"""The exception classes as objects: pickled (a process pool hands them
back so), copied and subclassed, with what was set on them since they were
made (a batch function's index and note, an assigned reason, notes)."""
import copy
import pickle

import pytest

import pctcodec
from pctcodec import HostError, PercentEncodingError, ResolveError, URLParseError
from pctcodec._errors import SuffixListError

COPIES = {
    "pickle": lambda e: pickle.loads(pickle.dumps(e)),
    "pickle0": lambda e: pickle.loads(pickle.dumps(e, protocol=0)),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}


def _state(e):
    return (type(e), e.args, str(e), e.reason, e.position, getattr(e, "index", None),
            getattr(e, "__notes__", None), vars(e))


def _note(err, text):
    """err.add_note(text), or on Python before 3.11 (no notes) the same list set."""
    if hasattr(err, "add_note"):
        err.add_note(text)
    else:
        err.__notes__ = getattr(err, "__notes__", []) + [text]


def _raised(call):
    with pytest.raises(ValueError) as info:
        call()
    return info.value


BATCH_ERRORS = {
    "registered_domain_many": lambda: pctcodec.registered_domain_many(["a.com", "http://a b/"]),
    "normalize_many": lambda: pctcodec.normalize_many(["http://a/", "http://bad\u00a0h/"], strict_idna=True),
    "requote_many": lambda: pctcodec.requote_many(["a", "b\udc80"]),
    "url_href_many": lambda: pctcodec.url_href_many(["http://a/", "http://a:99999/"]),
    "resolve_many": lambda: pctcodec.resolve_many(["http://h/", "no-scheme"], ["a", "b"]),
}


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("name", sorted(BATCH_ERRORS))
def test_a_batch_error_keeps_its_index_and_note(name, how):
    err = _raised(BATCH_ERRORS[name])
    assert isinstance(getattr(err, "index", None), int)
    assert getattr(err, "__notes__", None) or not hasattr(err, "add_note")  # (3.11 on: a note)
    assert _state(COPIES[how](err)) == _state(err)


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("cls", [HostError, PercentEncodingError, ResolveError, URLParseError])
def test_what_was_set_on_an_error_is_kept(cls, how):
    err = cls("bad", 3)
    _note(err, "a note")
    err.context_of_mine = {"url": "x"}
    err.reason = "changed"  # the message stays as it was made
    got = COPIES[how](err)
    assert _state(got) == _state(err)
    assert str(got) == "bad at position 3" and got.reason == "changed"


class AppError(HostError):
    """A subclass of an application, with an init of its own."""

    def __init__(self, url):
        super().__init__("bad url %r" % url, 0)
        self.url = url


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_subclass_with_its_own_init_is_copied(how):
    err = AppError("http://x/")
    got = COPIES[how](err)
    assert _state(got) == _state(err) and got.url == "http://x/"


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_reject_error_made_in_c_is_copied(how):
    rejects = []
    pctcodec.registered_domain_many(["http://a<b.com/"], on_error="null", rejects=rejects)
    err = rejects[0].error
    single = _raised(lambda: pctcodec.registered_domain("http://a<b.com/"))
    got = COPIES[how](err)
    assert _state(got) == _state(err)
    assert (got.args, got.reason, got.position) == (single.args, single.reason, single.position)


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_suffix_list_error_keeps_its_notes(how):
    err = SuffixListError("a label IDNA rejects", 3, "list.dat")
    _note(err, "a note")
    got = COPIES[how](err)
    assert (type(got), got.args, got.reason, got.position, got.source, got.__notes__) == (
        SuffixListError, err.args, err.reason, 3, "list.dat", ["a note"])


def test_errors_pickled_before_still_load():
    # the form pickles of these errors took until now: cls(reason, position)
    old = pickle.dumps(HostError("bad", 3))
    assert str(pickle.loads(old)) == "bad at position 3"
