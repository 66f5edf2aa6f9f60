"""pctcodec.domains against its peers, each reading the same list file
offline: tldextract (its suffix_list_urls set to that file, no cache, no
fallback snapshot) and publicsuffixlist (its source that file). On real
URLs (tests/_real_urls.py) and adversarial hosts. Every difference from
tldextract must be one of the classes docs/domains.md lists, each with its
cause; publicsuffixlist must agree on every host both read."""
import ipaddress

import pytest

from pctcodec import HostError, domain_parts, suffix_list

import _psl_reference
import _real_urls
import _testdata

PSL = ("psl", "public_suffix_list.dat")
pytestmark = _testdata.needs(*PSL)

ADVERSARIAL = ["ck", "www.ck", "a.www.ck", "b.test.ck", "x.nom.br", "a.x.nom.br", "a.b.c.kobe.jp",
               "city.kobe.jp", "www.city.kobe.jp", "食狮.公司.cn", "www.食狮.公司.cn",
               "xn--85x722f.xn--55qx5d.cn", "a.github.io", "github.io", "x.s3.amazonaws.com",
               "a..b.com", ".example.com", "example.com.", "EXAMPLE.COM", "1.2.3.4",
               "x.unlisted", "localhost", "a" * 63 + "." + "b" * 63 + "." + "c" * 63 + ".com"]


@pytest.fixture(scope="module")
def listed():
    return suffix_list(_testdata.path(*PSL))


def _extractor(private):
    tldextract = pytest.importorskip("tldextract")
    return tldextract.TLDExtract(cache_dir=None, suffix_list_urls=("file://" + _testdata.path(*PSL),),
                                 fallback_to_snapshot=False, include_psl_private_domains=private)


def _theirs(result):
    """tldextract's result as (subdomain, registered domain, suffix), None
    where it has none."""
    registered = getattr(result, "top_domain_under_public_suffix", None)
    if registered is None:
        registered = result.registered_domain
    if not registered:
        return None, None, result.suffix or None
    return result.subdomain, registered, result.suffix


def difference_class(value, host, ours, theirs, model):
    """Why pctcodec and tldextract differ on value (host: urlsplit's reading
    of it, or None), or None when the difference has no known cause."""
    if host is None:
        return "IP literal"
    if host != host.lower() or not host.isascii():
        # ours is lowercase ASCII; tldextract keeps the input's case and form
        low = tuple(None if x is None else x.lower() for x in theirs)
        if low == ours or not host.isascii():
            return "case or Unicode kept by tldextract"
    labels = (host[:-1] if host.endswith(".") else host).split(".")  # one final dot: the root
    if "" in labels:
        return "empty label"
    try:
        ipaddress.ip_address(host)
        return "IPv4 address"
    except ValueError:
        pass
    if labels[-1].isdigit() or labels[-1].startswith("0x"):
        return "ends in a number"
    if theirs[2] is None and ours[2] is not None and "." not in ours[2]:
        # a TLD the list does not have, or one only listed under "*." (ck)
        return "only the default rule * matches"
    if "%" in value or host.endswith("."):
        return "escapes or trailing dot"
    return None


@pytest.fixture(scope="module")
def model():
    with open(_testdata.path(*PSL), encoding="utf-8") as f:
        return _psl_reference.Model(f.read())


def _host_as_written(value):
    """The host of value as written (case and escapes kept), where the
    core's host finder reads it; None for an IP literal."""
    from pctcodec import _pctcodec

    data = value.encode("utf-8", "surrogatepass")
    span = _pctcodec._domain_host(data)
    return None if span is None else data[span[0]:span[1]].decode("utf-8", "surrogatepass")


def _compare_tldextract(listed, model, values, private):
    extract = _extractor(private)
    classes = {}
    for value in values:
        try:
            ours = tuple(domain_parts(value, private=private, suffix_list=listed))
        except HostError:
            classes["a host pctcodec rejects"] = classes.get("a host pctcodec rejects", 0) + 1
            continue
        theirs = _theirs(extract(value))
        _psl_reference.COUNTS["tldextract"] += 1
        if ours == theirs:
            continue
        host = _host_as_written(value)
        why = difference_class(value, host, ours, theirs, model)
        assert why is not None, (value, ours, theirs)
        classes[why] = classes.get(why, 0) + 1
    return classes


@pytest.mark.parametrize("private", [False, True])
def test_tldextract_on_adversarial_hosts(listed, model, private):
    _compare_tldextract(listed, model, ADVERSARIAL, private)


@pytest.mark.parametrize("private", [False, True])
def test_tldextract_on_real_urls(listed, model, private):
    _compare_tldextract(listed, model, _real_urls.urls(3000), private)


@pytest.mark.slow
@pytest.mark.parametrize("private", [False, True])
def test_tldextract_on_all_real_urls(listed, model, private):
    classes = _compare_tldextract(listed, model, _real_urls.urls(), private)
    print("tldextract differences by class (private=%s): %r" % (private, classes))


def _hosts(values):
    import urllib.parse

    hosts = set()
    for value in values:
        try:
            host = urllib.parse.urlsplit(value).hostname
        except ValueError:
            continue
        if host and host.isascii() and "%" not in host:
            hosts.add(host)
    return sorted(hosts)


def _compare_psl(listed, hosts, private):
    publicsuffixlist = pytest.importorskip("publicsuffixlist")
    with open(_testdata.path(*PSL), "rb") as f:
        theirs = publicsuffixlist.PublicSuffixList(source=f, accept_unknown=True,
                                                   only_icann=not private)
    with open(_testdata.path(*PSL), encoding="utf-8") as f:
        wildcard_bases = {line.strip()[2:] for line in f if line.startswith("*.")}
    for host in hosts:
        # one trailing dot is the root; more make an empty label
        labels = (host[:-1] if host.endswith(".") else host).split(".")
        if "" in labels or labels[-1].isdigit():
            continue  # no domain name for pctcodec; publicsuffixlist reads them as one
        try:
            sub, reg, suf = domain_parts(host, private=private, suffix_list=listed)
        except HostError:
            continue
        name = host.rstrip(".").lower()
        if name in wildcard_bases and reg == name:
            continue  # publicsuffixlist makes a wildcard's base a suffix (docs/domains.md)
        _psl_reference.COUNTS["publicsuffixlist"] += 1
        assert (reg, suf) == (theirs.privatesuffix(name), theirs.publicsuffix(name)), host


@pytest.mark.parametrize("private", [False, True])
def test_publicsuffixlist_on_real_and_adversarial_hosts(listed, private):
    hosts = _hosts(_real_urls.urls(5000)) + [h for h in ADVERSARIAL if h.isascii()]
    _compare_psl(listed, hosts, private)


@pytest.mark.slow
@pytest.mark.parametrize("private", [False, True])
def test_publicsuffixlist_on_all_real_hosts(listed, private):
    _compare_psl(listed, _hosts(_real_urls.urls()), private)
