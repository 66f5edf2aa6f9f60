"""canonicalize's C pass against the URL Standard parser's reading of the
same row (pctcodec.canonical._parser_key, the path of the rows the pass
leaves to Python): on every row the pass keys itself, the two keys are one.
Dirty rows: IPv4 hosts written every way the parser reads (and the one way
it writes them), tabs and newlines, '#' before '?', '?' in a fragment,
escaped and '+' names, empty segments, ';' and '&' separators, escapes in
either case; under every option the pass reads."""
import pyarrow as pa
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from _profiles import examples
from pctcodec import _pctcodec, canonicalize_many
from pctcodec.canonical import _options, _parser_key

HOSTS = ["127.0.0.1", "0.0.0.0", "255.255.255.255", "10.20.30.40", "127.1", "0x7f.0.0.1",
         "127.0.0.01", "127.0.0.1.", "1.2.3.256", "1.2.3.4.5", "01.2.3.4", "1.2.3", "4294967295",
         "\uff11\uff12\uff17.0.0.1", "127.0.0.%31", "1.2.3.4%2e", "example.com", "Example.COM",
         "a.1.2.3.4", "1.2.3.4a", "www.1.2.3.4", "[::1]", "xn--n3h.net", "b\u00fccher.de", "h",
         # hosts the parser keeps as they are that are not plain: its domain
         # to ASCII decides (empty labels, '_', sub-delims, ASCII xn-- labels)
         "..", "...", "a..b", ".a", "a.", "a..", "ww_winreg.x.com", "&lt;alias&gt;.awsapps.com",
         "*.amazon.com", "foo.com,bar.com", "server=sde", "(", "example.org$", "a'b!c", "a+b~c",
         "xn--g6w251d", "XN--N3H.net", "xn--a.com", "xn--.com", "xn--bcher-kva.de",
         "www.xn--80ak6aa92e.com", "xn--a", "a.xn--zz", "_.1", "a_b.0x1", "a`b", "a{b}", "a\"b",
         "a^b", "a|b", "a%2Cb", "A_B.COM"]
PRE = ["", "u:p@", "u:@", "@", "U%40x@", "1.2.3.4@"]
PORTS = ["", ":80", ":8080", ":", ":0x50", ":%38%30", ":443"]
PIECES = ["/", "/a", "/./", "/../", "?", "#", "&", "&&", ";", "=", "+", "a=1", "b=2", "A=3",
          "%61=1", "%2B=2", "a+b=3", "utm_source=x", "UTM_Medium=1", "utm%5Fsource=y", "Fbclid=2",
          "%7e", "%7E", "%2f", "%2F", "%zz", "%C3%A9", "\u00e9", "\t", "\n", "\r", " ", "\\",
          "amp;", "&amp;", "x?y", "#?a=1"]

rows = st.builds(lambda s, pre, h, port, rest: s + pre + h + port + "".join(rest),
                 st.sampled_from(["http://", "https://", "HTTP://", "ws://", "ftp://", "foo://",
                                  "file://", "http:\t//", "http:/"]),
                 st.sampled_from(PRE), st.sampled_from(HOSTS), st.sampled_from(PORTS),
                 st.lists(st.sampled_from(PIECES), max_size=10))

OPTIONS = [
    {},
    {"strip_www": True, "same_scheme": True, "strip_trailing_slash": True},
    {"drop_empty_query": False, "sort_query": False, "drop_fragment": False},
    {"strip_whitespace": False},
    {"strip_whitespace": False, "drop_fragment": False, "html_amp": True},
    {"drop": ["a", "B*", ""], "keep": ["*"], "ignore_case": False},
    {"keep": ["a", "q", "%*"], "drop": None, "drop_empty_query": False},
]


def _sets(opts):
    o = {"drop": None, "keep": None, "ignore_case": None, "sort_query": True,
         "drop_fragment": True, "strip_www": False, "same_scheme": False,
         "strip_trailing_slash": False, "drop_empty_query": True, "strip_whitespace": True,
         "html_amp": False}
    if "drop" not in opts:
        from pctcodec import TRACKING_PARAMS
        o["drop"] = TRACKING_PARAMS
    o.update(opts)
    return _options(o["drop"], o["keep"], o["ignore_case"], o["sort_query"], o["drop_fragment"],
                    o["strip_www"], o["same_scheme"], o["strip_trailing_slash"],
                    o["drop_empty_query"], o["strip_whitespace"], o["html_amp"])


def _parser(uri, sets):
    try:
        return _parser_key(uri, *sets)
    except ValueError as e:
        return type(e)


@pytest.mark.parametrize("opts", OPTIONS)
@settings(max_examples=examples(1500))
@given(rows)
@example("http://127.0.0.1/a?b=1&a=2#x?utm_source=1")
@example("http://127.0.0.1/a\t?b=1")  # tab: the parser removes it, normalize keeps it unstripped
@example("http://127.1/?a=1")  # the parser writes 127.0.0.1: Python's row
@example("http://127.0.0.1./?a=1")
@example("http://u:@10.20.30.40:8080/#a?b")
@example("http://\uff11\uff12\uff17.0.0.1/?a")
@example("http://xn--a.com/?a=1")  # no punycode: the parser refuses it
@example("http://a_b.0x1/?a")  # ends in a number that is no IPv4 address
def test_the_pass_keys_a_row_as_the_parser_reads_it(opts, uri):
    sets = _sets(opts)
    fast = _pctcodec._canonicalize(uri, *sets)
    if fast is None:
        return  # (Python's row: the parser's reading itself)
    assert fast == _parser(uri, sets), uri


@pytest.mark.parametrize("opts", OPTIONS)
def test_ipv4_rows_in_a_batch(opts):
    # a column of IPv4 rows (written as the parser writes them or not): the
    # batch, the single call and the parser's reading agree
    import random
    rng = random.Random(5)
    column = []
    for h in HOSTS:
        for _ in range(20):
            column.append("http://" + rng.choice(PRE) + h + rng.choice(PORTS)
                          + "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 8))))
    sets = _sets(opts)
    got = canonicalize_many(pa.array(column, pa.string()), threads=1, on_error="null",
                            **opts).to_pylist()
    want = [_parser(u, sets) for u in column]
    assert [g if g is not None else ValueError for g in got] == \
           [w if isinstance(w, str) else ValueError for w in want]
