/* C unit tests of src/core/pct_psl.c and pct_domain.c: a small list with
 * wildcards, exceptions, both sections and a Unicode rule; the parts of
 * hosts and URLs by it; rules that do not compile; every short host over a
 * few labels read without fault (the sanitizers watch). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_domain.h"
#include "pct_psl.h"

#include "check.h"

static const char LIST[] =
    "// ===BEGIN ICANN DOMAINS===\n"
    "com\nuk\nco.uk\njp\nkobe.jp\n*.kobe.jp\n!city.kobe.jp\nck\n*.ck\n!www.ck\n"
    "cn\n\xe5\x85\xac\xe5\x8f\xb8.cn\n" /* 公司.cn */
    "// ===END ICANN DOMAINS===\n"
    "// ===BEGIN PRIVATE DOMAINS===\n"
    "io\ngithub.io   trailing text is ignored\n"
    "// ===END PRIVATE DOMAINS===\n";

static pct_psl *psl;

/* The part of s by flags as a C string in buf ("-" when none, "?" for the
 * caller, "I" for IDNA). */
static const char *part(const char *s, unsigned flags, char *buf)
{
    size_t n = strlen(s), len;
    uint8_t *dst = malloc(n + 1);
    int rc = pct_domain_part(psl, flags, (const uint8_t *)s, n, dst, &len);
    if (rc == PCT_DOMAIN_URL) { /* as the batch does: the parser's host, looked up as a host */
        pct_url u;
        const uint8_t *host;
        size_t hn;
        pct_url_init(&u);
        pct_status st = pct_domain_url_host(&u, (const uint8_t *)s, n, &host, &hn);
        if (st == PCT_OK) {
            free(dst);
            dst = malloc(hn + 1);
            rc = pct_domain_part(psl, flags | PCT_DOMAIN_IS_HOST, host, hn, dst, &len);
        } else {
            rc = st == PCT_DOMAIN_NONE ? PCT_DOMAIN_NONE : PCT_DOMAIN_CALLER;
        }
        pct_url_free(&u);
    }
    if (rc == PCT_OK) {
        memcpy(buf, dst, len);
        buf[len] = 0;
    } else {
        strcpy(buf, rc == PCT_DOMAIN_NONE ? "-" : rc == PCT_DOMAIN_IDNA ? "I" : "?");
    }
    free(dst);
    return buf;
}

#define PART(s, flags, expected)                                              \
    do {                                                                      \
        char buf[512];                                                        \
        CHECK(strcmp(part(s, flags, buf), expected) == 0);                    \
    } while (0)

static void test_parts(void)
{
    const unsigned R = PCT_DOMAIN_REGISTERED, S = PCT_DOMAIN_SUFFIX, D = PCT_DOMAIN_SUBDOMAIN;
    PART("www.example.co.uk", R, "example.co.uk");
    PART("www.example.co.uk", S, "co.uk");
    PART("www.example.co.uk", D, "www");
    PART("example.co.uk", D, "");
    PART("co.uk", R, "-");
    PART("co.uk", D, "-");
    PART("co.uk", S, "co.uk");
    PART("a.b.c.kobe.jp", R, "b.c.kobe.jp");
    PART("www.city.kobe.jp", R, "city.kobe.jp");
    PART("c.kobe.jp", R, "-");
    PART("ck", S, "ck");
    PART("test.ck", R, "-");
    PART("b.test.ck", R, "b.test.ck");
    PART("www.ck", R, "www.ck");
    PART("a.www.ck", R, "www.ck");
    PART("x.y.xn--55qx5d.cn", R, "y.xn--55qx5d.cn");
    PART("x.user.github.io", R, "github.io");
    PART("x.user.github.io", R | PCT_DOMAIN_PRIVATE, "user.github.io");
    PART("a.unlisted", R, "a.unlisted");
    PART("unlisted", S, "unlisted");
    /* URLs and authorities */
    PART(" HTTPS://u:p@WWW.Example.COM.:8080/p?q#f\n", R, "example.com");
    PART("//example.com?x@y", R, "example.com");
    PART("example.com:80", R, "example.com");
    PART("mailto:joe@example.com", R, "example.com");
    PART("http://[::1]:80/", R, "-");
    PART("http://1.2.3.4/", S, "-");
    PART("http://0x7f.1/", S, "-");
    PART("http://a..example.com/", S, "-");
    PART("http://.example.com/", S, "-");
    PART("http://example.com../", S, "-");
    PART("file:///x", S, "-");
    PART("", S, "-");
    PART("http://ex ample.com/", S, "?");
    /* escapes decoded first (the URL Standard's host parser), then only a
     * forbidden domain code point is refused */
    PART("http://ex%61mple.com/", S, "com");
    PART("http://ex%2Ample.com/", R, "ex*mple.com");
    PART("http://EX%2aMPLE.com/", R, "ex*mple.com");
    PART("http://a%2Fb.com/", R, "?");
    PART("http://a%25b.com/", R, "?");
    PART("http://a%zzb.com/", R, "?");
    PART("http://%C3%A9.com/", R, "I");
    /* '\' ends a special scheme's authority, and a scheme-less one's */
    PART("http://example.com\\@evil.com/", R, "example.com");
    PART("HTTPS://u@example.com:1\\@evil.com", R, "example.com");
    PART("//example.com\\@evil.com", R, "example.com");
    PART("example.com\\@evil.com", R, "example.com");
    PART("foo://example.com\\@evil.com/", R, "evil.com");
    /* a host itself (an IDNA form): nothing to find or decode */
    PART("www.Example.com", R | PCT_DOMAIN_IS_HOST, "example.com");
    PART("a\\b.com", R | PCT_DOMAIN_IS_HOST, "?");
    PART("ex%41mple.com", R | PCT_DOMAIN_IS_HOST, "?");
    PART("u@example.com", R | PCT_DOMAIN_IS_HOST, "?");
    PART("example.com:80", R | PCT_DOMAIN_IS_HOST, "?");
    PART("http://b\xc3\xbc" "cher.com/", S, "I");
    PART("http://xn--bcher-kva.com/", R | PCT_DOMAIN_UNICODE, "?");
    PART("http://www.example.com/", R | PCT_DOMAIN_UNICODE, "example.com");
    PART("http://www.example.com/", PCT_DOMAIN_HOST, "www.example.com");
}

static void test_counts_and_bad_rules(void)
{
    pct_psl *p;
    pct_psl_counts c;
    size_t line;
    CHECK(pct_psl_compile((const uint8_t *)LIST, sizeof LIST - 1, &p, &c, &line) == PCT_OK);
    CHECK(c.rules[0] == 12 && c.wildcards[0] == 2 && c.exceptions[0] == 2);
    CHECK(c.rules[1] == 2 && c.wildcards[1] == 0 && c.exceptions[1] == 0);
    pct_psl_free(p);
    static const char *const bad[] = {"a..b\n", "ok\nx.*.y\n", "!com\n", "ok\n\xff\n", ".a\n",
                                      "a.\n", "*.\n", "!*.a.b\n"};
    static const size_t lines[] = {1, 2, 1, 2, 1, 1, 1, 1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p = NULL;
        CHECK(pct_psl_compile((const uint8_t *)bad[i], strlen(bad[i]), &p, NULL, &line)
              == PCT_PSL_BAD_RULE);
        CHECK(p == NULL && line == lines[i]);
    }
    CHECK(pct_psl_compile((const uint8_t *)"", 0, &p, &c, &line) == PCT_OK);
    CHECK(c.rules[0] == 0 && pct_psl_suffix_labels(p, (const uint8_t *)"a.b", 3, 1) == 1);
    pct_psl_free(p);
}

/* Every host of up to 4 labels from a few: parts found without fault, and
 * the registered domain ends the host. */
static void test_label_strings(void)
{
    static const char *const labels[] = {"", "a", "ck", "www", "kobe", "jp", "city", "co", "uk",
                                         "1", "github", "io"};
    const size_t nl = sizeof labels / sizeof labels[0];
    char host[64], reg[64];
    for (size_t code = 0; code < nl * nl * nl * nl; code++) {
        size_t c = code;
        host[0] = 0;
        for (int k = 0; k < 4; k++, c /= nl) {
            if (k)
                strcat(host, ".");
            strcat(host, labels[c % nl]);
        }
        part(host, PCT_DOMAIN_REGISTERED, reg);
        size_t hn = strlen(host), rn = strlen(reg);
        if (strcmp(reg, "-") != 0)
            CHECK(rn <= hn && memcmp(host + hn - rn - (host[hn - 1] == '.'), reg, rn) == 0);
    }
}

/* The one-pass row (pct_domain_part_plain) gives what pct_domain_part
 * gives, or leaves the row to it: URLs (with and without a userinfo and a
 * port) and hosts of a few labels around the lengths where the pass
 * changes blocks, each in a buffer of its own length (the sanitizers
 * watch its reads), for every part; a host that needs IDNA is the one
 * pct_authority_find finds. */
static void test_plain_rows(void)
{
    static const char *const schemes[] = {"http://", "HTTPS://", "https://", "http:/", "ftp://",
                                          "http://u:p@", "https://a%41@", "HTTP://@",
                                          "http://\xc3\xa9 @x@"};
    static const char *const labels[] = {"com", "co.uk", "kobe.jp", "www.ck", "github.io", "Ab-c",
                                         "xn--p1ai", "1", "", "x.", "\xc3\xa9", "a<b", "u@h",
                                         "a%41"};
    static const char *const tails[] = {"", "/", "?q", "#f", "\\p", ":80/", ":", ":65536",
                                        ":8a/", ".", " ", "@x.com/", ":1@y.org/", "@", ":80:8/"};
    static const unsigned parts[] = {PCT_DOMAIN_REGISTERED, PCT_DOMAIN_SUFFIX,
                                     PCT_DOMAIN_SUBDOMAIN, PCT_DOMAIN_HOST,
                                     PCT_DOMAIN_REGISTERED | PCT_DOMAIN_PRIVATE,
                                     PCT_DOMAIN_REGISTERED | PCT_DOMAIN_UNICODE};
    const size_t nl = sizeof labels / sizeof labels[0];
    char text[256];
    for (size_t sc = 0; sc < sizeof schemes / sizeof schemes[0]; sc++)
        for (size_t code = 0; code < nl * nl; code++)
            for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++)
                for (size_t pad = 0; pad < 60; pad += 7) {
                    int host_only = sc == 0 && t == 0; /* also the host alone */
                    snprintf(text, sizeof text, "%s%.*s%s.%s%s", schemes[sc], (int)pad,
                             "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghij",
                             labels[code % nl], labels[code / nl], tails[t]);
                    for (int as_host = 0; as_host <= host_only; as_host++) {
                        const char *row = as_host ? text + strlen(schemes[sc]) : text;
                        size_t n = strlen(row), len1, len2;
                        uint8_t *src = malloc(n ? n : 1), *d1 = malloc(n + 1), *d2 = malloc(n + 1);
                        memcpy(src, row, n);
                        for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
                            unsigned flags = parts[k] | (as_host ? PCT_DOMAIN_IS_HOST : 0u);
                            size_t at;
                            int got = pct_domain_part_plain(psl, flags, src, n, d1, &len1, &at);
                            if (got == PCT_DOMAIN_CALLER)
                                continue;
                            if (got == PCT_DOMAIN_IDNA) {
                                pct_authority a;
                                pct_authority_find(src, n, PCT_AUTH_WEB, &a);
                                CHECK(!as_host && at == a.host && len1 == a.host_end - a.host);
                            }
                            int want = pct_domain_part(psl, flags, src, n, d2, &len2);
                            CHECK(got == want);
                            if (got == PCT_OK && want == PCT_OK)
                                CHECK(len1 == len2 && memcmp(d1, d2, len1) == 0);
                        }
                        free(src);
                        free(d1);
                        free(d2);
                    }
                }
}

/* Who reads a host: the finder alone (no special scheme), alike (the
 * parser's host is the finder's), or the parser; and a host refused for a
 * forbidden domain code point only when read alike. */
static void test_host_reader(void)
{
    static const struct {
        const char *url;
        int reader, refused;
    } cases[] = {
        {"example.com", PCT_DOMAIN_READ_FINDER, 0},
        {"a<b.com", PCT_DOMAIN_READ_FINDER, 0},
        {"git://a<b.com/", PCT_DOMAIN_READ_FINDER, 0},
        {"http://a<b.com/", PCT_DOMAIN_READ_ALIKE, 1},
        {"  HTTPS://u@a^b.com:80/x", PCT_DOMAIN_READ_ALIKE, 1},
        {"http://a_b.com/", PCT_DOMAIN_READ_ALIKE, 0},
        {"http://a b.com", PCT_DOMAIN_READ_ALIKE, 1},
        {"http://a%3Cb.com/", PCT_DOMAIN_READ_PARSER, 0},
        {"http://a\t<b.com/", PCT_DOMAIN_READ_PARSER, 0},
        {"http://a.com/\t<", PCT_DOMAIN_READ_ALIKE, 0},
        {"http://[a<b]/", PCT_DOMAIN_READ_PARSER, 0},
        {"file://a<b/", PCT_DOMAIN_READ_PARSER, 0},
        {"http:a<b.com", PCT_DOMAIN_READ_PARSER, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint8_t *u = (const uint8_t *)cases[i].url;
        size_t n = strlen(cases[i].url);
        CHECK(pct_domain_host_reader(u, n) == cases[i].reader);
        CHECK(pct_domain_host_refused(u, n) == cases[i].refused);
    }
}

int main(void)
{
    size_t line;
    if (pct_psl_compile((const uint8_t *)LIST, sizeof LIST - 1, &psl, NULL, &line) != PCT_OK) {
        fprintf(stderr, "the test list does not compile\n");
        return 1;
    }
    test_parts();
    test_counts_and_bad_rules();
    test_label_strings();
    test_host_reader();
    test_plain_rows();
    pct_psl_free(psl);
    printf("test_domain: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
