"""The help texts of the command line: the program's page (``pctcodec
--help``) and each command's own (``pctcodec COMMAND --help``), from one
table, ``COMMANDS``: a command's summary (the program's list of commands),
its usage lines, the options that apply to it and its examples.
"""
import textwrap

TAGLINE = ("Percent-encoding and URL cleanup for text and tables: quote and unquote as "
           "urllib.parse does, normalize, requote and check URIs, clean query strings, "
           "canonicalize URLs for deduplication, split URLs into columns, parse them as "
           "browsers do, find registered domains and resolve links, one value per line or "
           "one column of a CSV, TSV or Parquet file.")

# name: (summary, usage lines after "pctcodec NAME", examples)
COMMANDS = {
    "quote": (
        "percent-encode each line, like urllib.parse.quote",
        ["[--safe CHARS] [--encoding ENC] [--errors ERR] [FILE]"],
        ["pctcodec quote examples/urls.txt",
         "pctcodec quote --safe=/: --column path logs.csv > quoted.csv"]),
    "quote-plus": (
        "the same, with spaces as '+', like urllib.parse.quote_plus",
        ["[--safe CHARS] [--encoding ENC] [--errors ERR] [FILE]"],
        ["pctcodec quote-plus --safe=/: < values.txt > quoted.txt"]),
    "unquote": (
        "decode the %XX escapes of each line, like urllib.parse.unquote",
        ["[--encoding ENC] [--errors ERR] [FILE]"],
        ["echo 'caf%C3%A9 du monde' | pctcodec unquote",
         "pctcodec unquote --column path logs.parquet -o decoded.parquet --progress"]),
    "unquote-plus": (
        "the same, with '+' as a space, like urllib.parse.unquote_plus",
        ["[--encoding ENC] [--errors ERR] [FILE]"],
        ["echo 'q=fish+%26+chips' | pctcodec unquote-plus"]),
    "requote": (
        "make each line a valid URI without changing what it denotes",
        ["[FILE]"],
        ["pctcodec requote scraped-links.txt"]),
    "normalize": (
        "normalize each line as a URI (RFC 3986 6.2.2 and 6.2.3)",
        ["[--sort-query] [--drop-fragment] [--strict-idna] [FILE]"],
        ["pctcodec normalize --sort-query urls.txt",
         "pctcodec normalize --column url examples/urls.csv > clean.csv",
         "pctcodec normalize --on-error null --rejects bad.csv --column url visits.csv"]),
    "check": (
        "print LINE:POSITION: message for each line that is not a valid URI;\n"
        "exit status 1 if there is one",
        ["[FILE]"],
        ["pctcodec check urls.txt",
         "pctcodec check --column url examples/urls.csv"]),
    "clean-query": (
        "remove query parameters by name or shell-style pattern (--drop, --keep,\n"
        "--tracking), everything else kept as it is; without --drop, the\n"
        "tracking parameters (TRACKING_PARAMS, in any case: UTM_SOURCE too)",
        ["[--drop PAT]... [--keep PAT]... [--tracking] [--sort] [--html-amp] [FILE]"],
        ["pctcodec clean-query urls.txt",
         "pctcodec clean-query --drop 'utm_*' --drop ref --sort --column url visits.csv"]),
    "canonicalize": (
        "a key for deduplication: normalize, drop the tracking parameters\n"
        "(--drop adds patterns, all in any case; --keep keeps only those), sort\n"
        "the query, drop the fragment; --strip-www, --same-scheme (https as\n"
        "http), --strip-trailing-slash",
        ["[--drop PAT]... [--keep PAT]... [--strip-www] [--same-scheme]\n"
         "         [--strip-trailing-slash] [--html-amp] [FILE]"],
        ["pctcodec canonicalize --column url visits.csv > keyed.csv",
         "pctcodec canonicalize --strip-www --same-scheme urls.txt | sort -u"]),
    "query-param": (
        "print the first value of query parameter NAME of each line, decoded\n"
        "(an empty line where it is absent); with --column COL, add the column\n"
        "COL_NAME right after COL (an empty field, null in Parquet, where the\n"
        "parameter is absent); NAME may be several names, comma-separated\n"
        "(tables only: one column each)",
        ["NAME [FILE]", "NAME[,NAME...] --column COL FILE [-o OUT]"],
        ["pctcodec query-param q search-urls.txt | sort | uniq -c",
         "pctcodec query-param utm_source,utm_medium --column url visits.csv > with-source.csv"]),
    "split": (
        "tables only (--column NAME): add the URI components of column NAME as\n"
        "the columns NAME_scheme, NAME_userinfo, NAME_host, NAME_port,\n"
        "NAME_path, NAME_query, NAME_fragment right after it (--parts to\n"
        "choose), as written (RFC 3986 Appendix B; an absent part is an empty\n"
        "field, null in Parquet)",
        ["--column NAME FILE [--parts host,path] [-o OUT]"],
        ["pctcodec split --column url --parts host,path examples/urls.csv > parts.csv"]),
    "domain": (
        "the registered domain of each line's URL or host by the Public Suffix\n"
        "List (an empty line where there is none), or the one part --parts\n"
        "names; with --column NAME, add the columns NAME_subdomain,\n"
        "NAME_registered_domain, NAME_public_suffix right after it (--parts to\n"
        "choose)",
        ["[--parts PART] [--private] [--unicode] [--suffix-list FILE] [FILE]",
         "--column NAME FILE [--parts LIST] [--private] [--unicode] [-o OUT]"],
        ["pctcodec domain urls.txt | sort | uniq -c | sort -rn | head",
         "pctcodec domain --column url examples/urls.csv > with-domains.csv",
         "pctcodec domain --parts public_suffix --private urls.txt"]),
    "parse-url": (
        "read each line as a browser does (the URL Standard's parser) and print\n"
        "its href; with --column NAME, add the getters as the columns\n"
        "NAME_href, NAME_origin, NAME_protocol, NAME_username, NAME_password,\n"
        "NAME_host, NAME_hostname, NAME_port, NAME_pathname, NAME_search,\n"
        "NAME_hash right after it (--parts to choose); --base URL reads\n"
        "relative URLs against it",
        ["[--base URL] [FILE]",
         "--column NAME FILE [--parts hostname,pathname] [--base URL] [-o OUT]"],
        ["pctcodec parse-url --column url --parts hostname,pathname examples/urls.csv",
         "pctcodec parse-url --base https://example.com/docs/ links.txt"]),
    "resolve": (
        "make each line (a link) absolute against --base URI (RFC 3986 5.2);\n"
        "with --column COL, against --base URI or the URL of the same row in\n"
        "--base-column NAME (a row whose base is empty gets an empty field)",
        ["--base URI [--normalize] [--non-strict] [FILE]",
         "--column COL (--base URI | --base-column NAME) FILE [-o OUT]"],
        ["pctcodec resolve --base https://example.com/docs/ links.txt",
         "pctcodec resolve --column href --base-column url crawl.csv > absolute.csv"]),
}

SEE_ALSO = ("See `pctcodec --help` for how lines and tables are read, dirty data and the exit "
            "status, and docs/cli.md.")


def command_list() -> str:
    """The program page's list of commands."""
    lines = ["commands:"]
    for name, (summary, _, _) in COMMANDS.items():
        text = textwrap.wrap(summary.replace("\n", " "), 79 - 15, break_on_hyphens=False)
        if len(name) <= 12:
            text[0] = f"{name:<13}{text[0]}"
        else:
            text.insert(0, name)
        lines += ["  " + text[0], *(" " * 15 + line for line in text[1:])]
    return "\n".join(lines)


def command_usage(name: str) -> str:
    """The usage lines of command `name` (argparse's usage=)."""
    _, usages, _ = COMMANDS[name]
    first, *rest = [f"pctcodec {name} {usage}" for usage in usages]
    return "\n".join([first, *("       " + line for line in rest)])


def command_description(name: str) -> str:
    summary, _, _ = COMMANDS[name]
    return textwrap.fill(summary[0].upper() + summary[1:].replace("\n", " ") + ".", 79,
                         break_on_hyphens=False)


def command_epilog(name: str) -> str:
    _, _, examples = COMMANDS[name]
    return "\n".join(["examples:", *("  " + example for example in examples), "",
                      textwrap.fill(SEE_ALSO, 79)])
