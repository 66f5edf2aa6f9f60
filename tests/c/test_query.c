/* C unit tests of src/core/pct_query.c: the query found as pct_uri_split
 * finds it (every short string over the separators), parameters found by
 * decoded name, form-decoded names read as pct_utf8_repair reads their
 * bytes (every name of up to 3 escaped boundary bytes), shell-style
 * patterns, and the writing of a cleaned URI; the deduplication key of
 * pct_canon.c and the whitespace cleanup of pct_uri.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_canon.h"
#include "pct_query.h"
#include "pct_uri.h"

#include "check.h"

#define S(lit) (const uint8_t *)(lit), (sizeof(lit) - 1)

/* check(s, n) for every string s of up to max_len (<= 8) bytes of the alphabet. */
static void each_string(const uint8_t *alphabet, size_t na, size_t max_len,
                        void (*check)(const uint8_t *s, size_t n))
{
    uint8_t s[8];
    for (size_t n = 0; n <= max_len; n++) {
        size_t total = 1;
        for (size_t k = 0; k < n; k++)
            total *= na;
        for (size_t code = 0; code < total; code++) {
            size_t c = code;
            for (size_t k = 0; k < n; k++, c /= na)
                s[k] = alphabet[c % na];
            check(s, n);
        }
    }
}

static void locate_is_uri_split(const uint8_t *s, size_t n)
{
    pct_uri u;
    pct_range q = {99, 99};
    pct_uri_split(s, n, &u);
    int has = pct_query_locate(s, n, &q);
    CHECK(has == u.has_query);
    if (has)
        CHECK(q.start == u.query.start && q.len == u.query.len);
    else
        CHECK(q.start == 99 && q.len == 99);
}

static void test_locate_is_uri_split(void)
{
    static const uint8_t alphabet[] = {'?', '#', 'a', '/', ':', '&'};
    each_string(alphabet, sizeof alphabet, 7, locate_is_uri_split);
}

static int found(const char *query, const char *name, const char *want)
{
    pct_range v;
    size_t qn = strlen(query);
    if (!pct_query_find((const uint8_t *)query, qn, (const uint8_t *)name, strlen(name), &v))
        return want == NULL;
    return want && v.len == strlen(want) && memcmp(query + v.start, want, v.len) == 0;
}

static void test_find(void)
{
    CHECK(found("a=1&b=2", "b", "2"));
    CHECK(found("a=1&a=2", "a", "1"));
    CHECK(found("a&b", "a", ""));
    CHECK(found("a=&b", "a", ""));
    CHECK(found("", "", NULL));
    CHECK(found("&&", "", NULL));
    CHECK(found("=v", "", "v"));
    CHECK(found("a=b=c", "a", "b=c"));
    CHECK(found("a;b=1", "a;b", "1"));
    CHECK(found("a+b=1", "a b", "1"));
    CHECK(found("a%2Bb=1", "a+b", "1"));
    CHECK(found("a+b=1", "a+b", NULL));
    CHECK(found("utm%5Fsource=x&utm_source=y", "utm_source", "x"));
    CHECK(found("%C3%A9=1", "\xC3\xA9", "1"));
    CHECK(found("\xC3\xA9=1", "\xC3\xA9", "1"));
    CHECK(found("%FF=1", "\xEF\xBF\xBD", "1"));
    CHECK(found("x%=1&%zz=2&%4=3", "x%", "1"));
    CHECK(found("x%=1&%zz=2&%4=3", "%zz", "2"));
    CHECK(found("x%=1&%zz=2&%4=3", "%4", "3"));
    CHECK(found("ab=1", "a", NULL));
    CHECK(found("a=1", "ab", NULL));
}

static const uint8_t BYTES[] = {0x00, 0x2A, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
#define NB (sizeof BYTES)

/* A name of escaped bytes matches, as a literal pattern, exactly the text
 * pct_utf8_repair makes of the bytes (0x2A, '*', is matched by a '*'). */
static void test_names_decode_as_repair(void)
{
    uint8_t bytes[3], raw[10], text[9]; /* raw: snprintf's NUL too */
    for (size_t n = 0; n <= 3; n++) {
        size_t total = 1;
        for (size_t k = 0; k < n; k++)
            total *= NB;
        for (size_t code = 0; code < total; code++) {
            size_t c = code;
            for (size_t k = 0; k < n; k++, c /= NB) {
                bytes[k] = BYTES[c % NB];
                snprintf((char *)raw + 3 * k, 4, "%%%02X", bytes[k]);
            }
            size_t tn = pct_utf8_repair(bytes, n, 1, text);
            CHECK(pct_glob_match(text, tn, raw, 3 * n));
            CHECK(pct_query_find(raw, 3 * n, text, tn, &(pct_range){0, 0}) == (n > 0));
            /* and not one code point less (a '*' would match it) */
            if (tn && text[tn - 1] < 0x80 && !memchr(text, '*', tn))
                CHECK(!pct_glob_match(text, tn - 1, raw, 3 * n));
        }
    }
}

static int glob(const char *pat, const char *name)
{
    return pct_glob_match((const uint8_t *)pat, strlen(pat), (const uint8_t *)name, strlen(name));
}

static void test_glob(void)
{
    CHECK(glob("", ""));
    CHECK(!glob("", "a"));
    CHECK(glob("*", ""));
    CHECK(glob("**", "abc"));
    CHECK(glob("utm_*", "utm_source"));
    CHECK(glob("utm_*", "utm%5Fsource"));
    CHECK(!glob("utm_*", "utm"));
    CHECK(glob("*id", "fbclid"));
    CHECK(glob("a*b*c", "aXbYbZc"));
    CHECK(!glob("a*b*c", "aXbYbZ"));
    CHECK(glob("?", "\xC3\xA9"));      /* '?' takes a code point */
    CHECK(glob("?", "%C3%A9"));
    CHECK(!glob("??", "%C3%A9"));
    CHECK(glob("?", "%FF"));           /* one U+FFFD */
    CHECK(glob("??", "%C3x"));         /* U+FFFD, x */
    CHECK(glob("? ?", "a+b"));
    CHECK(glob("[ab]", "b"));
    CHECK(!glob("[ab]", "c"));
    CHECK(glob("[!ab]", "c"));
    CHECK(!glob("[!ab]", "a"));
    CHECK(glob("[]]", "]"));
    CHECK(glob("[!]]", "a"));
    CHECK(!glob("[!]]", "]"));
    CHECK(glob("[a-c]", "b"));
    CHECK(glob("[a-]", "-"));
    CHECK(glob("[-a]", "-"));
    CHECK(!glob("[c-a]", "b"));        /* an empty range and its ends */
    CHECK(!glob("[c-a]", "c"));
    CHECK(glob("[!c-a]", "c"));
    CHECK(glob("[c-ax]", "x"));
    CHECK(glob("[a-c-e]", "-"));       /* a-c, then '-' and 'e' */
    CHECK(glob("[a-c-e]", "e"));
    CHECK(!glob("[a-c-e]", "d"));
    CHECK(glob("[a-\xC3\xBC]", "\xC3\xA9")); /* ranges of code points */
    CHECK(glob("[", "["));             /* no ']': itself */
    CHECK(glob("a[", "a["));
    CHECK(glob("[\\]", "\\"));         /* no escapes */
    CHECK(glob("[^a]", "^"));
    /* a set of patterns */
    static const uint8_t set[] = "utm_*\xFF" "fbclid\xFF" "\xFF";
    CHECK(pct_globs_match(set, sizeof set - 1, S("utm_x")));
    CHECK(pct_globs_match(set, sizeof set - 1, S("fbclid")));
    CHECK(pct_globs_match(set, sizeof set - 1, S(""))); /* the empty pattern */
    CHECK(!pct_globs_match(set, sizeof set - 1, S("q")));
    CHECK(!pct_globs_match(NULL, 0, S("q")));
}

/* pct_query_keeps, with its first-bytes filter, decides as the patterns
 * tried one by one do, for every short name over bytes that meet the
 * patterns (escapes of them too), for sets with and without open patterns. */
static const pct_query_filter *keeps_filter;

static void keeps_is_no_match(const uint8_t *name, size_t n)
{
    CHECK(pct_query_keeps(keeps_filter, name, n)
          == !pct_globs_match(keeps_filter->drop, keeps_filter->drop_len, name, n));
}

static void test_keeps_prefilter(void)
{
    static const uint8_t sets[][40] = {
        "v\377ve\377u*\377ab\377\377", /* \377: PCT_GLOB_END */
        "vero\377utm_*\377a?\377[ab]x\377",
        "e\377\303\251\377",
        "*e\377",
    };
    static const uint8_t alphabet[] = {'v', 'e', 'u', 'a', 'b', 'x', '%', '7', '6', '5', '+', 0xC3, 0xA9};
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        pct_query_filter f;
        memset(&f, 0, sizeof f);
        f.drop = sets[k];
        f.drop_len = strlen((const char *)sets[k]);
        pct_query_filter_init(&f);
        keeps_filter = &f;
        each_string(alphabet, sizeof alphabet, 4, keeps_is_no_match);
    }
}

static int cleaned(const char *uri, const uint8_t *drop, size_t drop_len, int sort, const char *want)
{
    pct_query_filter f;
    memset(&f, 0, sizeof f);
    f.drop = drop;
    f.drop_len = drop_len;
    f.sort = sort;
    pct_query_filter_init(&f);
    size_t n = strlen(uri), len = 0;
    uint8_t *dst = malloc(n ? n : 1);
    int ok = dst && pct_query_clean((const uint8_t *)uri, n, &f, dst, &len) == PCT_OK
             && len == strlen(want) && memcmp(dst, want, len) == 0;
    free(dst);
    return ok;
}

#define TRACK "utm_*\xFF" "fbclid\xFF"

static void test_clean(void)
{
    CHECK(cleaned("http://a/?utm_source=x", S(TRACK), 0, "http://a/"));
    CHECK(cleaned("http://a/?utm_source=x#f?utm_a", S(TRACK), 0, "http://a/#f?utm_a"));
    CHECK(cleaned("http://a/?a=1&fbclid=2&b=%7E", S(TRACK), 0, "http://a/?a=1&b=%7E"));
    CHECK(cleaned("http://a/?&&", S(TRACK), 0, "http://a/?&&"));
    CHECK(cleaned("http://a/?", S(TRACK), 0, "http://a/?"));
    CHECK(cleaned("http://a/?&utm_a", S(TRACK), 0, "http://a/"));
    CHECK(cleaned("http://a/?q&&utm_a", S(TRACK), 0, "http://a/?q&"));
    CHECK(cleaned("", S(TRACK), 0, ""));
    CHECK(cleaned("?", S(TRACK), 0, "?"));
    CHECK(cleaned("?utm_a", S(TRACK), 0, "?"));
    CHECK(cleaned("?b=1&%61=2&a=3&utm_x=0#z", S(TRACK), 1, "?%61=2&a=3&b=1#z"));
    CHECK(cleaned("?b&a&&c", NULL, 0, 1, "?&a&b&c"));
}

static void clean_is_identity(const uint8_t *s, size_t n)
{
    uint8_t dst[8];
    size_t len = 99;
    pct_query_filter f;
    memset(&f, 0, sizeof f);
    pct_query_filter_init(&f);
    CHECK(pct_query_clean(s, n, &f, dst, &len) == PCT_OK && len == n && memcmp(dst, s, n) == 0);
}

/* With nothing to drop, every string over the separators is unchanged. */
static void test_clean_identity(void)
{
    static const uint8_t alphabet[] = {'?', '#', '&', '=', '%', 'u'};
    each_string(alphabet, sizeof alphabet, 7, clean_is_identity);
}

/* canonicalize's options with the drop set TRACK (in any case) and opts. */
static void track_canon(pct_canon *c, unsigned opts)
{
    memset(c, 0, sizeof *c);
    c->filter.drop = (const uint8_t *)TRACK;
    c->filter.drop_len = sizeof TRACK - 1;
    c->filter.sort = 1;
    c->filter.ignore_case = 1;
    c->filter.drop_empty = 1;
    c->opts = opts;
    pct_query_filter_init(&c->filter);
}

/* The key of the normalized URI `norm` with the drop set TRACK and opts,
 * and the key of the key is itself. */
static int keyed(const char *norm, unsigned opts, const char *want)
{
    pct_canon c;
    track_canon(&c, opts);
    size_t n = strlen(norm), len = 0, len2 = 0;
    uint8_t *dst = malloc(n ? n : 1), *again = malloc(n ? n : 1);
    int ok = dst && again && pct_canon_key((const uint8_t *)norm, n, &c, dst, &len) == PCT_OK
             && len == strlen(want) && memcmp(dst, want, len) == 0
             && pct_canon_key(dst, len, &c, again, &len2) == PCT_OK && len2 == len
             && memcmp(again, dst, len) == 0;
    free(dst);
    free(again);
    return ok;
}

static void test_canon_key(void)
{
    CHECK(keyed("http://h/?b=1&UTM_x=2&a=3&&", 0, "http://h/?a=3&b=1"));
    CHECK(keyed("http://h/?Fbclid=1", 0, "http://h/"));
    CHECK(keyed("http://h/?", 0, "http://h/?"));
    CHECK(keyed("http://h/?", PCT_CANON_EMPTY_QUERY, "http://h/"));
    CHECK(keyed("?utm_a=1", PCT_CANON_ALL, "?"));
    CHECK(keyed("https://www.www.h:80/a//", PCT_CANON_ALL, "http://h/a"));
    CHECK(keyed("https://www./", PCT_CANON_STRIP_WWW, "https://www./"));
    CHECK(keyed("ftp://h:80/", PCT_CANON_ONE_SCHEME, "ftp://h:80/"));
    CHECK(keyed("http://u@h/a/#f", PCT_CANON_TRAILING_SLASH, "http://u@h/a#f"));
    /* the "/." guard goes with the "//" it guarded: "http:/./" was no fixed point */
    CHECK(keyed("http:/.//", PCT_CANON_TRAILING_SLASH, "http:/"));
    CHECK(keyed("s:/.//a//", PCT_CANON_TRAILING_SLASH, "s:/.//a"));
    CHECK(keyed("a/..//", PCT_CANON_TRAILING_SLASH, "a/../"));
    CHECK(keyed("", PCT_CANON_ALL, ""));
}

/* pct_canon_tail_in_place of "?" + s (and of "?" + s without its '#'s,
 * told there is none) is pct_canon_tail's, with each option set. */
static void in_place_is_tail(const uint8_t *s, size_t n)
{
    for (unsigned opts = 0; opts <= PCT_CANON_EMPTY_QUERY; opts += PCT_CANON_EMPTY_QUERY) {
        pct_canon c;
        track_canon(&c, opts);
        for (int hash = 0; hash < 2; hash++) {
            uint8_t t[9], want[9], got[9], scratch[9];
            size_t m = 1, want_len = 0, got_len = 0;
            t[0] = '?';
            for (size_t i = 0; i < n; i++)
                if (hash || s[i] != '#')
                    t[m++] = s[i];
            memcpy(got, t, m);
            CHECK(pct_canon_tail(t, m, hash, &c, want, &want_len) == PCT_OK
                  && pct_canon_tail_in_place(got, m, hash, hash, &c, scratch, &got_len) == PCT_OK
                  && got_len == want_len && memcmp(got, want, want_len) == 0);
        }
    }
}

static void test_canon_tail_in_place(void)
{
    static const uint8_t alphabet[] = {'&', '=', '#', 'a', 'b', 'u', '%'};
    each_string(alphabet, sizeof alphabet, 6, in_place_is_tail);
}

/* pct_canon_host_unescape of s, and whether pct_canon_host_escapes names it. */
static int host_unescaped(const char *s, const char *want)
{
    uint8_t buf[64];
    size_t n = strlen(s), len;
    memcpy(buf, s, n);
    int named = pct_canon_host_escapes(buf, n);
    len = pct_canon_host_unescape(buf, n);
    return named == (strcmp(s, want) != 0) && len == strlen(want) && memcmp(buf, want, len) == 0;
}

static void test_canon_host_unescape(void)
{
    CHECK(host_unescaped("http://\xc3\xa9%21.com/%21?%21", "http://\xc3\xa9!.com/%21?%21"));
    CHECK(host_unescaped("HTTPS://u%21@%C3%A9%2a%3D.com:1/", "HTTPS://u%21@%C3%A9*=.com:1/"));
    CHECK(host_unescaped("http://a%21.com/", "http://a%21.com/"));           /* ASCII: the parser's */
    CHECK(host_unescaped("http://\xc3\xa9%2F.com/", "http://\xc3\xa9%2F.com/")); /* not a sub-delim */
    CHECK(host_unescaped("foo://\xc3\xa9%21.com/", "foo://\xc3\xa9%21.com/"));   /* no special scheme */
    CHECK(host_unescaped("file://\xc3\xa9%21/", "file://\xc3\xa9%21/"));
    CHECK(host_unescaped("http://\xc3\xa9%2", "http://\xc3\xa9%2"));
    CHECK(host_unescaped("", ""));
}

static int stripped(const char *s, const char *want)
{
    uint8_t dst[64];
    size_t n = strlen(s), len = pct_uri_strip((const uint8_t *)s, n, dst);
    return pct_uri_needs_strip((const uint8_t *)s, n) == (len != n || memcmp(dst, s, n) != 0)
           && len == strlen(want) && memcmp(dst, want, len) == 0;
}

static void test_strip(void)
{
    CHECK(stripped("", ""));
    CHECK(stripped("http://h/", "http://h/"));
    CHECK(stripped(" \x01http://h/ \x1f", "http://h/"));
    CHECK(stripped("http://h/a\tb\nc\rd", "http://h/abcd"));
    CHECK(stripped("http://h/a b", "http://h/a b"));
    CHECK(stripped("http://h/0123456789abcdef\n0123456789", "http://h/0123456789abcdef0123456789"));
    CHECK(stripped("http://h/0123456789abcdef\x0b" "0123456789", "http://h/0123456789abcdef\x0b" "0123456789"));
    CHECK(stripped("\t\n \r", ""));
}

int main(void)
{
    test_canon_key();
    test_canon_tail_in_place();
    test_canon_host_unescape();
    test_strip();
    test_locate_is_uri_split();
    test_find();
    test_names_decode_as_repair();
    test_glob();
    test_keeps_prefilter();
    test_clean();
    test_clean_identity();
    printf("test_query: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
