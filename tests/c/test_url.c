/* The URL Standard's parser (pct_url.h) on cases written from the Standard:
 * each state's branches, hosts in every form, the component offsets, the
 * origin, failures with their status and position, limits and reuse (the
 * web-platform-tests vectors run through the binding, tests/test_url_wpt.py). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pct_url.h"

static pct_url u, b, w;

static int eq(const uint8_t *p, size_t n, const char *want)
{
    return n == strlen(want) && memcmp(p, want, n) == 0;
}

/* href of `in` against `base` (NULL: none) is `want` (NULL: rejected). */
static int parses(const char *in, const char *base, const char *want)
{
    const pct_url *bp = NULL;
    if (base) {
        if (pct_url_parse(&b, (const uint8_t *)base, strlen(base), NULL, SIZE_MAX) != PCT_OK)
            return 0;
        bp = &b;
    }
    pct_status rc = pct_url_parse(&u, (const uint8_t *)in, strlen(in), bp, SIZE_MAX);
    if (!want)
        return PCT_URL_REJECTED(rc);
    return rc == PCT_OK && eq(u.href, u.len, want);
}

#define HREF(in, want) CHECK(parses(in, NULL, want))
#define REL(in, base, want) CHECK(parses(in, base, want))

static int part_is(pct_url_part part, const char *want)
{
    const uint8_t *p;
    size_t n;
    pct_url_component(&u, part, &p, &n);
    return eq(p, n, want);
}

static int origin_is(const char *want)
{
    const uint8_t *p;
    size_t n;
    return pct_url_origin(&u, &w, &p, &n) == PCT_OK && eq(p, n, want);
}

static void test_schemes_and_spelling(void)
{
    HREF("  HTTP://Example.COM  ", "http://example.com/");
    HREF("ht\ttp://exa\nmple.com/a\rb", "http://example.com/ab");
    HREF("http:\\\\example.com\\a\\b", "http://example.com/a/b");
    HREF("https:///github.com/x", "https://github.com/x");
    HREF("http:example.com", "http://example.com/");
    HREF("http://example.com:80/", "http://example.com/");
    HREF("wss://example.com:443/", "wss://example.com/");
    HREF("ftp://example.com:21/", "ftp://example.com/");
    HREF("http://example.com:0080/", "http://example.com/");
    HREF("http://example.com:8080/", "http://example.com:8080/");
    HREF("foo://example.com:80/", "foo://example.com:80/");
    HREF("non-spec:\\\\x\\y", "non-spec:\\\\x\\y"); /* an opaque path */
    HREF("sc://x\\y/z", NULL);                        /* '\' is a forbidden host code point */
    HREF("example.com", NULL);                        /* no scheme, no base */
    HREF("", NULL);
    HREF("1http://x/", NULL);
}

static void test_userinfo_and_ports(void)
{
    HREF("http://us er:p@ss:w@host/", "http://us%20er:p%40ss%3Aw@host/");
    HREF("http://:@host/", "http://host/");
    HREF("http://:pass@host/", "http://:pass@host/");
    HREF("http://example.com\\@evil.com/", "http://example.com/@evil.com/");
    HREF("http://a@b@c/", "http://a%40b@c/");
    HREF("http://user@/", NULL);
    HREF("http://host:65535/", "http://host:65535/");
    HREF("http://host:65536/", NULL);
    HREF("http://host:8x/", NULL);
    HREF("http://host:/", "http://host/");
    HREF("http://:80/", NULL);
    HREF("sc://:80/", NULL);
    HREF("sc://", "sc://");
    HREF("sc:///x", "sc:///x");
}

static void test_hosts(void)
{
    HREF("http://0x7f.1/", "http://127.0.0.1/");
    HREF("http://0177.0.0.1/", "http://127.0.0.1/");
    HREF("http://2130706433/", "http://127.0.0.1/");
    HREF("http://1.2.3.4./", "http://1.2.3.4/");
    HREF("http://0x/", "http://0.0.0.0/");
    HREF("http://4294967296/", NULL);
    HREF("http://1.2.3.256/", NULL);
    HREF("http://256.1.1.1/", NULL);
    HREF("http://1.2.3.4.5/", NULL);
    HREF("http://foo.09/", NULL);
    HREF("http://foo.0x1g/", "http://foo.0x1g/"); /* not a number: a domain */
    HREF("http://[::1]/", "http://[::1]/");
    HREF("http://[0:0:0:0:0:0:0:1]:81/", "http://[::1]:81/");
    HREF("http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/");
    HREF("http://[1:0:0:2:0:0:3:4]/", "http://[1::2:0:0:3:4]/");
    HREF("http://[::ffff:192.168.0.1]/", "http://[::ffff:c0a8:1]/");
    HREF("http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8]/");
    HREF("http://[1:2:3:4:5:6:7:8:9]/", NULL);
    HREF("http://[::1/", NULL);
    HREF("http://[:1]/", NULL);
    HREF("http://[1::2::3]/", NULL);
    HREF("http://[::1.2.3]/", NULL);
    HREF("http://example\xef\xbc\x8e" "com/", "http://example.com/"); /* fullwidth dot */
    HREF("http://B\xc3\xbc" "cher.de/", "http://xn--bcher-kva.de/");
    HREF("http://%41.com/", "http://a.com/");
    HREF("http://a%2Fb/", NULL);
    HREF("http://a b/", NULL);
    HREF("http://%C2%AD/", NULL); /* maps to nothing */
    HREF("sc://H%4F\xc3\xa9st/", "sc://H%4F%C3%A9st/"); /* opaque: not lowercased */
    HREF("sc://a^b/", NULL);
}

static void test_paths(void)
{
    HREF("http://h/a/./b/../c", "http://h/a/c");
    HREF("http://h/a/%2e/b/%2E%2e/c/.", "http://h/a/c/");
    HREF("http://h/..", "http://h/");
    HREF("http://h/a b/\"<>`{}^?q", "http://h/a%20b/%22%3C%3E%60%7B%7D%5E?q");
    HREF("http://h/?q='\"#f`", "http://h/?q=%27%22#f%60");
    HREF("sc://h/?q='", "sc://h/?q='");
    HREF("http://h/\xc3\xa9?\xc3\xa9#\xc3\xa9", "http://h/%C3%A9?%C3%A9#%C3%A9");
    HREF("http://h/\xff", "http://h/%FF"); /* a byte that is not UTF-8, as a byte */
    HREF("sc:/a/..//b", "sc:/.//b");
    HREF("web+demo:/.//not-a-host/", "web+demo:/.//not-a-host/");
    HREF("data:text/plain,a b ?x", "data:text/plain,a b%20?x");
    HREF("mailto:A@b.com", "mailto:A@b.com");
}

static void test_files(void)
{
    HREF("file:c:\\foo\\bar.html", "file:///c:/foo/bar.html");
    HREF("file:///C|/x/../..", "file:///C:/");
    HREF("file://localhost/x", "file:///x");
    HREF("file://LocalHost/x", "file:///x");
    HREF("file://example.com/x", "file://example.com/x");
    HREF("file://C:/x", "file:///C:/x");
    HREF("file:", "file:///");
    HREF("file://host:80/", NULL);
    REL("/x", "file:///C:/a/b", "file:///C:/x");
    REL("..", "file:///C:/", "file:///C:/");
    REL("x", "file://h/a/b", "file://h/a/x");
    REL("?q", "file:///a/b?p", "file:///a/b?q");
    REL("", "file:///a/b?p#f", "file:///a/b?p");
    REL("file:D|/x", "file:///C:/a", "file:///D:/x");
    REL("D:/x", "file:///C:/a", "d:/x"); /* a scheme */
}

static void test_relative(void)
{
    REL("g", "http://a/b/c/d;p?q", "http://a/b/c/g");
    REL("../../../g", "http://a/b/c/d;p?q", "http://a/g");
    REL("//g", "http://a/b/c/d;p?q", "http://g/");
    REL("\\\\g", "http://a/b/c/d;p?q", "http://g/");
    REL("?y", "http://a/b/c/d;p?q", "http://a/b/c/d;p?y");
    REL("#s", "http://a/b/c/d;p?q", "http://a/b/c/d;p?q#s");
    REL("", "http://a/b/c/d;p?q#f", "http://a/b/c/d;p?q");
    REL("http:g", "http://a/b/c/d", "http://a/b/c/g");
    REL("https:g", "http://a/b/c/d", "https://g/");
    REL("/x", "http://u:p@a:81/b", "http://u:p@a:81/x");
    REL("x", "sc:/a/b", "sc:/a/x");
    REL("//x/y", "sc://a/b", "sc://x/y");
    REL("#f", "data:text,x?q#g", "data:text,x?q#f");
    REL("x", "data:text,x", NULL);
    REL("x", "sc:opaque", NULL);
}

static void test_components(void)
{
    CHECK(parses("HTTPS://u:p@[::1]:8443/a/b?c=d#e", NULL, "https://u:p@[::1]:8443/a/b?c=d#e"));
    CHECK(part_is(PCT_URL_PROTOCOL, "https:"));
    CHECK(part_is(PCT_URL_USERNAME, "u"));
    CHECK(part_is(PCT_URL_PASSWORD, "p"));
    CHECK(part_is(PCT_URL_HOST, "[::1]:8443"));
    CHECK(part_is(PCT_URL_HOSTNAME, "[::1]"));
    CHECK(part_is(PCT_URL_PORT, "8443"));
    CHECK(part_is(PCT_URL_PATHNAME, "/a/b"));
    CHECK(part_is(PCT_URL_SEARCH, "?c=d"));
    CHECK(part_is(PCT_URL_HASH, "#e"));
    CHECK(u.port == 8443 && u.host_kind == PCT_URL_HOST_IPV6 && u.scheme == PCT_URL_HTTPS);
    CHECK(origin_is("https://[::1]:8443"));
    CHECK(parses("http://h/?#", NULL, "http://h/?#"));
    CHECK(part_is(PCT_URL_SEARCH, "") && part_is(PCT_URL_HASH, ""));
    CHECK(parses("sc:/.//x", NULL, "sc:/.//x"));
    CHECK(part_is(PCT_URL_PATHNAME, "//x") && part_is(PCT_URL_HOST, "") && u.host_kind == PCT_URL_HOST_NULL);
    CHECK(parses("blob:https://a.com:443/x", NULL, "blob:https://a.com:443/x"));
    CHECK(origin_is("https://a.com"));
    CHECK(parses("blob:ftp://a.com/x", NULL, "blob:ftp://a.com/x") && origin_is("null"));
    CHECK(parses("file:///x", NULL, "file:///x") && origin_is("null"));
    CHECK(parses("sc://h/x", NULL, "sc://h/x") && origin_is("null"));
}

static void test_failures(void)
{
    const char *in = " \thttp://exa mple.com/";
    CHECK(pct_url_parse(&u, (const uint8_t *)in, strlen(in), NULL, SIZE_MAX) == PCT_ERR_URL_FORBIDDEN_HOST);
    CHECK(u.error_pos == 12);
    in = "http://\th\tost:8\t0x/";
    CHECK(pct_url_parse(&u, (const uint8_t *)in, strlen(in), NULL, SIZE_MAX) == PCT_ERR_URL_PORT);
    CHECK(u.error_pos == 17);
    in = "x";
    CHECK(pct_url_parse(&u, (const uint8_t *)in, 1, NULL, SIZE_MAX) == PCT_ERR_URL_NO_SCHEME);
    in = "http://[1::2::3]/";
    CHECK(pct_url_parse(&u, (const uint8_t *)in, strlen(in), NULL, SIZE_MAX) == PCT_ERR_URL_IPV6);
    CHECK(u.error_pos == 7);
    in = "http://1.2.3.999/";
    CHECK(pct_url_parse(&u, (const uint8_t *)in, strlen(in), NULL, SIZE_MAX) == PCT_ERR_URL_IPV4);
    in = "http://\xe2\x80\x8d.com/"; /* a joiner alone: domain to ASCII fails */
    CHECK(pct_url_parse(&u, (const uint8_t *)in, strlen(in), NULL, SIZE_MAX) == PCT_ERR_URL_DOMAIN);
    CHECK(pct_url_reason(PCT_ERR_URL_PORT_RANGE)[0] != '\0' && pct_url_reason(PCT_OK)[0] == '\0');
}

static void test_limits(void)
{
    const char *in = "http://example.com/a b";
    size_t len = strlen("http://example.com/a%20b");
    CHECK(pct_url_parse(&u, (const uint8_t *)in, strlen(in), NULL, len) == PCT_OK);
    CHECK(pct_url_parse(&u, (const uint8_t *)in, strlen(in), NULL, len - 1) == PCT_ERR_TOO_LARGE);
    /* a long input, then a short one: the buffers are reused */
    size_t n = 100000;
    char *big = malloc(n + 1);
    CHECK(big != NULL);
    if (!big)
        return;
    memcpy(big, "http://h/", 9);
    memset(big + 9, ' ', n - 9);
    big[n - 1] = 'x';
    big[n] = 0;
    CHECK(pct_url_parse(&u, (const uint8_t *)big, n, NULL, SIZE_MAX) == PCT_OK && u.len == 9 + 3 * (n - 10) + 1);
    free(big);
    HREF("http://h/", "http://h/");
}

/* pct_url_refused_host gives what a parse of "http://" + host gives, for
 * hosts written as read (no escape) whose domain to ASCII fails. */
static void test_refused_host(void)
{
    static const char *hosts[] = {"a<b.com", "A^B", "a|b.c<d", "exa mple.com", "\xc3\xa4<b.com",
                                  "\xc3\xa4.xn--a.example", "xn--a.\xc3\xa4", "a.b.\x7f",
                                  "\xe4\xbe\x8b<.jp", "a>\xc3\xa4"};
    for (size_t k = 0; k < sizeof hosts / sizeof *hosts; k++) {
        char in[64] = "  http://";
        strcat(in, hosts[k]);
        strcat(in, "/x");
        size_t pos, n = strlen(hosts[k]);
        pct_status rc = pct_url_parse(&u, (const uint8_t *)in, strlen(in), NULL, SIZE_MAX);
        CHECK(PCT_URL_REJECTED(rc));
        CHECK(pct_url_refused_host((const uint8_t *)hosts[k], n, 9, &pos) == rc);
        CHECK(pos == u.error_pos);
    }
}

/* pct_url_ipv4_written: 1 exactly when a parse of "http://" + host keeps
 * the host as it is written and reads it as an IPv4 address. */
static void test_ipv4_written(void)
{
    static const char *hosts[] = {"127.0.0.1", "0.0.0.0", "255.255.255.255", "10.20.30.40",
                                  "1.2.3.4", "127.1", "127.0.0.01", "0x7f.0.0.1", "127.0.0.1.",
                                  "1.2.3.256", "1.2.3.4.5", "01.2.3.4", "1.2.3", "a.1.2.3",
                                  "1.2.3.4a", "1..2.3", "4294967295", "256.0.0.1", "1.2.3.0x4",
                                  "999.999.999.999", "1.2.3.-4", ""};
    for (size_t k = 0; k < sizeof hosts / sizeof *hosts; k++) {
        char in[64] = "http://";
        strcat(in, hosts[k]);
        strcat(in, "/");
        size_t n = strlen(hosts[k]);
        pct_status rc = pct_url_parse(&u, (const uint8_t *)in, strlen(in), NULL, SIZE_MAX);
        int kept = rc == PCT_OK && u.host_kind == PCT_URL_HOST_IPV4 && u.host_end - u.host_start == n
                   && memcmp(u.href + u.host_start, hosts[k], n) == 0;
        CHECK(pct_url_ipv4_written((const uint8_t *)hosts[k], n) == kept);
        CHECK(kept == (k < 5)); /* (the list: the written forms first) */
    }
}

int main(void)
{
    pct_url_init(&u);
    pct_url_init(&b);
    pct_url_init(&w);
    test_schemes_and_spelling();
    test_userinfo_and_ports();
    test_hosts();
    test_paths();
    test_files();
    test_relative();
    test_components();
    test_failures();
    test_limits();
    test_refused_host();
    test_ipv4_written();
    pct_url_free(&u);
    pct_url_free(&b);
    pct_url_free(&w);
    printf("test_url: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
