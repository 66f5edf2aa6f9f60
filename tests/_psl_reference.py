"""An independent model of the Public Suffix List algorithm, written from the
list's published rules (publicsuffix.org/list, "Formal Algorithm"), for the
differential tests of pctcodec.domains. Plain Python, slow and obvious:

1. Match the domain against all the rules and take note of the matching ones.
2. If no rules match, the prevailing rule is "*".
3. If more than one rule matches, the prevailing rule is the one which is an
   exception rule.
4. If there is no matching exception rule, the prevailing rule is the one
   with the most labels.
5. If the prevailing rule is an exception rule, modify it by removing the
   leftmost label.
6. The public suffix is the set of labels from the domain which match the
   labels of the prevailing rule, using the matching algorithm above.
7. The registered or registrable domain is the public suffix plus one
   additional label.

A rule matches when, label by label from the right, each rule label equals
the domain's label or is "*"; the domain needs at least as many labels as
the rule. Rules in Unicode are compared in their xn-- form, made here with
Python's own punycode codec.
"""


def _ascii_label(label):
    if label.isascii():
        return label.lower()
    return "xn--" + label.encode("punycode").decode("ascii")


class Model:
    def __init__(self, text):
        # (labels reversed, exception, private) by the rule's last label,
        # which every matching rule shares with the domain (no rule of the
        # list ends in "*"): only a shortcut past rules that cannot match
        self.rules = {}
        private = False
        for line in text.splitlines():
            if line.startswith("//"):
                if "===BEGIN PRIVATE DOMAINS===" in line:
                    private = True
                elif "===END PRIVATE DOMAINS===" in line:
                    private = False
                continue
            token = line.split()[0] if line.split() and not line[0].isspace() else ""
            if not token:
                continue
            exception = token.startswith("!")
            labels = [_ascii_label(x) if x != "*" else "*"
                      for x in token.lstrip("!").split(".")]
            self.rules.setdefault(labels[-1], []).append((labels[::-1], exception, private))

    def suffix_labels(self, host, private):
        """The number of labels of the public suffix of an ASCII lowercase
        host with no empty label."""
        labels = host.split(".")[::-1]
        matching = []
        for rule, exception, in_private in self.rules.get(labels[0], []) + self.rules.get("*", []):
            if in_private and not private:
                continue
            if len(rule) > len(labels):
                continue
            if all(r == "*" or r == d for r, d in zip(rule, labels)):
                matching.append((rule, exception))
        exceptions = [rule for rule, exception in matching if exception]
        if exceptions:
            return len(exceptions[0]) - 1
        if not matching:
            return 1  # the default rule "*"
        return max(len(rule) for rule, _ in matching)

    def parts(self, host, private=False):
        """(subdomain, registered domain, public suffix) of an ASCII host
        (any case, maybe one trailing dot) as pctcodec.domains defines them,
        None for each when the host has an empty label or is an IPv4
        address (its last label a decimal or 0x hex number)."""
        host = host.lower()
        if host.endswith("."):
            host = host[:-1]
        labels = host.split(".")
        if "" in labels:
            return None, None, None
        last = labels[-1]
        if last.isdigit() or (last.startswith("0x") and all(c in "0123456789abcdef" for c in last[2:])):
            return None, None, None
        n = self.suffix_labels(host, private)
        suffix = ".".join(labels[-n:])
        if len(labels) <= n:
            return None, None, suffix
        registered = ".".join(labels[-n - 1:])
        return ".".join(labels[:-n - 1]), registered, suffix


# Cases compared in the differential runs of this session, by what they are
# compared with; conftest.py prints them.
COUNTS = {"model": 0, "tldextract": 0, "publicsuffixlist": 0}
