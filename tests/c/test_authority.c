/* C unit tests of src/core/pct_authority.c: schemes, the authority and host
 * of URLs read as RFC 3986 and as the web reads them ('\' in special
 * schemes), and every short string over the delimiters read without fault
 * and within its bounds (the sanitizers watch). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pct_authority.h"

#include "check.h"

static size_t len_of(const char *s) { return strlen(s); }
#define U8(s) ((const uint8_t *)(s))

static void test_schemes(void)
{
    CHECK(pct_scheme_length(U8("http://h"), 8) == 4);
    CHECK(pct_scheme_length(U8("a+b-c.d:x"), 9) == 7);
    CHECK(pct_scheme_length(U8("1a:x"), 4) == 0);
    CHECK(pct_scheme_length(U8("http"), 4) == 0);
    CHECK(pct_scheme_length(U8(""), 0) == 0);
    CHECK(pct_scheme_span(U8("ab1/"), 4) == 3);
    CHECK(pct_scheme_span(U8("/ab"), 3) == 0);
    static const char *const special[] = {"http", "HTTPS", "ws", "wSs", "ftp", "file"};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        CHECK(pct_scheme_special(U8(special[i]), len_of(special[i])));
    static const char *const other[] = {"", "h", "htt", "httpss", "wsx", "gopher", "fil", "ft"};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        CHECK(!pct_scheme_special(U8(other[i]), len_of(other[i])));
}

/* The host pct_authority_find reads in s with flags, as "host" or "[..]"
 * for an IP literal; "" when there is no authority. */
static int host_is(const char *s, unsigned flags, const char *want)
{
    pct_authority a;
    size_t n = strlen(s);
    if (!pct_authority_find(U8(s), n, flags, &a))
        return *want == 0;
    CHECK(a.start <= a.host && a.host <= a.host_end && a.host_end <= a.end && a.end <= n);
    return a.host_end - a.host == strlen(want) && memcmp(s + a.host, want, strlen(want)) == 0;
}

static void test_find(void)
{
    /* RFC 3986 */
    CHECK(host_is("http://u:p@Host:80/p", 0, "Host"));
    CHECK(host_is("http://a@b@c:1?x", 0, "c"));
    CHECK(host_is("http://example.com\\@evil.com/", 0, "evil.com"));
    CHECK(host_is("http://[::1]:8/", 0, "[::1]"));
    CHECK(host_is("http://[::1/", 0, "[::1/") == 0); /* ends at '/' */
    CHECK(host_is("http://[::1/", 0, "[::1"));
    CHECK(host_is("mailto:a@b", 0, ""));
    CHECK(host_is("//h#f", 0, "h"));
    CHECK(host_is(" http://h/", 0, "")); /* no scheme, no "//" at the start */
    /* PCT_AUTH_BACKSLASH: '\' ends it whatever the scheme */
    CHECK(host_is("foo://a\\@b/", PCT_AUTH_BACKSLASH, "a"));
    /* the web's reading */
    CHECK(host_is(" \tHTTP://example.com\\@evil.com/ \n", PCT_AUTH_WEB, "example.com"));
    CHECK(host_is("file://example.com\\x", PCT_AUTH_WEB, "example.com"));
    CHECK(host_is("foo://example.com\\@evil.com/", PCT_AUTH_WEB, "evil.com"));
    CHECK(host_is("//example.com\\@evil.com/", PCT_AUTH_WEB, "example.com"));
    CHECK(host_is("user@example.com:80", PCT_AUTH_WEB, "example.com"));
    CHECK(host_is("example.com\\@evil.com", PCT_AUTH_WEB, "example.com"));
    CHECK(host_is("mailto:joe@mail.example.org", PCT_AUTH_WEB, "mail.example.org"));
    CHECK(host_is("file:///etc", PCT_AUTH_WEB, ""));
    pct_authority a;
    pct_authority_find(U8("http://u@h:1%2"), 14, PCT_AUTH_WEB, &a);
    CHECK(a.has_userinfo && a.has_port && a.escaped && !a.ip_literal && a.end == 14);
    pct_authority_find(U8("http://u%40@h/"), 14, PCT_AUTH_WEB, &a);
    CHECK(a.has_userinfo && !a.escaped && !a.has_port);
    /* past the first eight bytes: the word-at-a-time scan */
    CHECK(host_is("http://abcdefghijklmnop.example.com\\x@evil.com/", PCT_AUTH_WEB,
                  "abcdefghijklmnop.example.com"));
    CHECK(host_is("http://aaaaaaaa:bbbbbbbb@cccccccccccccccc:1/", 0, "cccccccccccccccc"));
}

static void test_special_slashes(void)
{
    char s[] = "HTTP://a\\b\\c?d\\e#f\\g";
    size_t n = strlen(s);
    CHECK(pct_special_backslash(U8(s), n) == 8);
    CHECK(pct_special_slashes((uint8_t *)s, n) == 2);
    CHECK(strcmp(s, "HTTP://a/b/c?d\\e#f\\g") == 0);
    CHECK(pct_special_backslash(U8(s), n) == n);
    CHECK(pct_special_backslash(U8("foo://a\\b"), 9) == 9);
    CHECK(pct_special_backslash(U8("//a\\b"), 5) == 5);
    CHECK(pct_special_backslash(U8("http:?\\"), 7) == 7);
}

/* Every string of up to 5 bytes over the delimiters, under every flag:
 * offsets in order and within bounds. */
static void test_exhaustive(void)
{
    static const char alphabet[] = "/\\?#@:%[]ah";
    const size_t k = sizeof alphabet - 1;
    uint8_t s[16] = "http://";
    for (size_t len = 0; len <= 5; len++) {
        size_t total = 1;
        for (size_t i = 0; i < len; i++)
            total *= k;
        for (size_t code = 0; code < total; code++) {
            size_t c = code;
            for (size_t i = 0; i < len; i++, c /= k)
                s[7 + i] = (uint8_t)alphabet[c % k];
            for (unsigned flags = 0; flags < 4; flags++)
                for (size_t from = 0; from <= 7; from += 7) {
                    pct_authority a;
                    size_t n = 7 + len - from;
                    pct_authority_find(s + from, n, flags, &a);
                    CHECK(a.start <= a.host && a.host <= a.host_end && a.host_end <= a.end
                          && a.end <= n);
                }
        }
    }
}

/* The authority scan read a byte at a time, as pct_authority.h defines
 * it: the model the block-wise scan is checked against. */
static void model_scan(const uint8_t *s, size_t start, size_t n, unsigned flags, pct_authority *a)
{
    size_t host = start, colon = SIZE_MAX, i = start;
    int escaped = 0;
    for (; i < n; i++) {
        uint8_t c = s[i];
        if (c == '/' || c == '?' || c == '#' || (c == '\\' && (flags & PCT_AUTH_BACKSLASH)))
            break;
        if (c == '@') {
            host = i + 1;
            colon = SIZE_MAX;
            escaped = 0;
        } else if (c == ':' && colon == SIZE_MAX) {
            colon = i;
        } else if (c == '%') {
            escaped = 1;
        }
    }
    pct_authority_parts(s, start, host, colon, i, escaped, a);
}

/* Random texts of up to 70 bytes (several 16-byte blocks and a last
 * partial one), mostly plain bytes with a few delimiters, scanned from
 * every start: the same parts as the model's. */
static void test_scan_blocks(void)
{
    static const char alphabet[] = "/\\?#@:%[]abcdefgh";
    const size_t k = sizeof alphabet - 1;
    uint64_t state = 0x9E3779B97F4A7C15ull;
    uint8_t s[70];
    for (int round = 0; round < 4000; round++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        size_t n = (size_t)(state >> 33) % (sizeof s + 1);
        unsigned sparse = (unsigned)(state >> 20) % 8; /* how rare the delimiters are */
        for (size_t i = 0; i < n; i++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            size_t r = (size_t)(state >> 33);
            s[i] = (uint8_t)(r % (sparse + 1) ? alphabet[9 + r / 16 % 8] : alphabet[r / 16 % k]);
        }
        for (size_t start = 0; start <= n; start++)
            for (unsigned flags = 0; flags < 2; flags++) {
                pct_authority got, want;
                size_t end = pct_authority_scan(s, start, n, flags, &got);
                model_scan(s, start, n, flags, &want);
                CHECK(end == want.end && got.start == want.start && got.end == want.end
                      && got.host == want.host && got.host_end == want.host_end
                      && got.has_userinfo == want.has_userinfo && got.has_port == want.has_port
                      && got.ip_literal == want.ip_literal && got.escaped == want.escaped);
            }
    }
}

int main(void)
{
    test_schemes();
    test_find();
    test_special_slashes();
    test_exhaustive();
    test_scan_blocks();
    printf("test_authority: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
