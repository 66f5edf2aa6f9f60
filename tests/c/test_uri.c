/* C unit tests of src/core/pct_uri.c: the RFC 3986 side of the core.
 *
 * remove_dot_segments is checked against the RFC's algorithm written with
 * separate input and output buffers, exhaustively over short paths; requote
 * and normalize over every short string of an adversarial alphabet: sizes
 * agree with what is written, the bound holds, the output passes the check,
 * and both are idempotent. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_batch.h"
#include "pct_kernels.h"
#include "pct_uri.h"

#include "check.h"

/* ---- remove_dot_segments: RFC 3986 5.2.4 as written ---------------------- */

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void reference_dots(const char *path, char *out)
{
    char in[64];
    strcpy(in, path);
    out[0] = '\0';
    while (in[0]) {
        if (starts(in, "../")) {
            memmove(in, in + 3, strlen(in + 3) + 1);
        } else if (starts(in, "./")) {
            memmove(in, in + 2, strlen(in + 2) + 1);
        } else if (starts(in, "/./")) {
            memmove(in, in + 2, strlen(in + 2) + 1);
        } else if (strcmp(in, "/.") == 0) {
            strcpy(in, "/");
        } else if (starts(in, "/../") || strcmp(in, "/..") == 0) {
            if (strcmp(in, "/..") == 0)
                strcpy(in, "/");
            else
                memmove(in, in + 3, strlen(in + 3) + 1);
            char *slash = strrchr(out, '/');
            if (slash)
                *slash = '\0';
            else
                out[0] = '\0';
        } else if (strcmp(in, ".") == 0 || strcmp(in, "..") == 0) {
            in[0] = '\0';
        } else {
            size_t seg = in[0] == '/' ? 1 : 0;
            while (in[seg] && in[seg] != '/')
                seg++;
            size_t o = strlen(out);
            memcpy(out + o, in, seg);
            out[o + seg] = '\0';
            memmove(in, in + seg, strlen(in + seg) + 1);
        }
    }
}

static void test_dot_segments(void)
{
    static const char alphabet[] = "/.a";
    char path[48], want[64];
    uint8_t got[48];
    for (int len = 0; len <= 11; len++) {
        long total = 1;
        for (int i = 0; i < len; i++)
            total *= 3;
        for (long k = 0; k < total; k++) {
            long v = k;
            for (int i = 0; i < len; i++, v /= 3)
                path[i] = alphabet[v % 3];
            path[len] = '\0';
            reference_dots(path, want);
            memcpy(got, path, (size_t)len);
            size_t n = pct_remove_dot_segments(got, (size_t)len);
            CHECK(n == strlen(want) && memcmp(got, want, n) == 0);
        }
    }
    /* Longer paths, past the word-at-a-time search for the first "/.". */
    uint64_t x = 2463534242u;
    for (int k = 0; k < test_rounds(200000); k++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        size_t len = 12 + (size_t)(x % 29);
        for (size_t i = 0; i < len; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            path[i] = "/.aaa"[x % (k % 2 ? 5 : 3)]; /* odd k: dots sparser */
        }
        path[len] = '\0';
        reference_dots(path, want);
        memcpy(got, path, len);
        size_t n = pct_remove_dot_segments(got, len);
        CHECK(n == strlen(want) && memcmp(got, want, n) == 0);
    }
    uint8_t rfc[] = "/a/b/c/./../../g";
    size_t n = pct_remove_dot_segments(rfc, sizeof rfc - 1);
    CHECK(n == 4 && memcmp(rfc, "/a/g", 4) == 0); /* the RFC's own example */
}

/* ---- requote and normalize over every short adversarial string ---------- */

static const char *const TOKENS[] = {"%", "a", "F", "f", "2", "/", ".", ":", "@", "[",
                                     "?", "#", "&", "=", " ", "\xC3\xA9", "\xFF", "~", "E"};
#define N_TOKENS (sizeof TOKENS / sizeof TOKENS[0])

static uint8_t *normalize_bytes(const uint8_t *s, size_t n, unsigned flags, size_t *out_len)
{
    size_t bound = 0;
    CHECK(pct_uri_size_bound(n, 0, SIZE_MAX, &bound) == PCT_OK);
    uint8_t *out = malloc(bound ? bound : 1);
    pct_uri u;
    pct_uri_split(s, n, &u);
    CHECK(pct_uri_write(s, &u, NULL, 0, flags, out, out_len) == PCT_OK);
    CHECK(*out_len <= bound);
    /* A host given as it is (no zone id: no '%') takes the writer part by
     * part, never the block copy of a row left unchanged: the same result. */
    if (u.has_authority && !memchr(s + u.host.start, '%', u.host.len)) {
        size_t len;
        uint8_t *again = malloc(bound ? bound : 1);
        CHECK(pct_uri_write(s, &u, s + u.host.start, u.host.len, flags, again, &len) == PCT_OK);
        CHECK(len == *out_len && memcmp(again, out, len) == 0);
        free(again);
    }
    return out;
}

static void check_string(const uint8_t *s, size_t n)
{
    size_t pos, size;
    /* requote: exact size, valid output, idempotent, span agrees. */
    CHECK(pct_requoted_size(s, n, SIZE_MAX, &size) == PCT_OK);
    uint8_t *r = malloc(size ? size : 1);
    CHECK(pct_requote(s, n, PCT_URI_UPPER_HEX, r) == size);
    CHECK(pct_uri_check(r, size, &pos) == PCT_URI_VALID && pos == size);
    CHECK(pct_requote_span(r, size, PCT_URI_UPPER_HEX) == size);
    CHECK((pct_requote_span(s, n, PCT_URI_UPPER_HEX) == n) == (size == n && memcmp(r, s, n) == 0));
    /* A valid string needs nothing but (maybe) its hex in uppercase. */
    CHECK((pct_uri_check(s, n, &pos) == PCT_URI_VALID) == (pct_requote_span(s, n, 0) == n));
    free(r);

    /* normalize: within the bound, valid, idempotent, all flag combinations. */
    static const unsigned FLAGS[] = {PCT_URI_NORMALIZE, 0,
                                     PCT_URI_NORMALIZE | PCT_URI_SORT_QUERY | PCT_URI_DROP_FRAGMENT};
    for (size_t f = 0; f < sizeof FLAGS / sizeof FLAGS[0]; f++) {
        size_t len1, len2;
        uint8_t *once = normalize_bytes(s, n, FLAGS[f], &len1);
        CHECK(pct_uri_check(once, len1, &pos) == PCT_URI_VALID);
        uint8_t *twice = normalize_bytes(once, len1, FLAGS[f], &len2);
        CHECK(len1 == len2 && memcmp(once, twice, len1) == 0);
        if ((len1 != len2 || memcmp(once, twice, len1) != 0) && failures < 10)
            fprintf(stderr, "  not idempotent (flags %u): [%.*s] -> [%.*s] -> [%.*s]\n",
                    FLAGS[f], (int)n, s, (int)len1, once, (int)len2, twice);
        free(once);
        free(twice);
    }
}

static void test_exhaustive(void)
{
    uint8_t s[64];
    size_t idx[5];
    for (size_t len = 0; len <= 4; len++) {
        memset(idx, 0, sizeof idx);
        for (;;) {
            size_t n = 0;
            for (size_t i = 0; i < len; i++) {
                size_t t = strlen(TOKENS[idx[i]]);
                memcpy(s + n, TOKENS[idx[i]], t);
                n += t;
            }
            check_string(s, n);
            size_t i = 0;
            while (i < len && ++idx[i] == N_TOKENS)
                idx[i++] = 0;
            if (i == len)
                break;
        }
    }
}

/* Random URI-shaped strings built from URI pieces. */
static void test_random(void)
{
    static const char *const PIECES[] = {"http:", "HTTPS:", "a+b:", "1x:", "//", "/", "/./",
                                         "/../", "..", ".", "%2e", "%2E", "%41", "%7e", "%2F",
                                         "%3f", "%", "%2", "%zz", "u@", "@", ":", ":80",
                                         ":0443", "[FE80::1]", "Host.COM", "?", "#", "&", "=",
                                         "b=2", "a=1", " ", "\xE4\xB8\xAD", "\x7F", "\x01"};
    const size_t np = sizeof PIECES / sizeof PIECES[0];
    uint64_t x = 88172645463325252ull;
    uint8_t s[256];
    for (int k = 0; k < test_rounds(200000); k++) {
        size_t n = 0;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        int pieces = (int)(x % 12);
        for (int i = 0; i < pieces; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            const char *p = PIECES[x % np];
            memcpy(s + n, p, strlen(p));
            n += strlen(p);
        }
        check_string(s, n);
    }
}

/* ---- parts and splitting at every offset, against byte-at-a-time models -- */

/* One component written a byte at a time by the rules of pct_uri.h. */
static size_t reference_part(const char *s, size_t n, unsigned flags, int lower, char *out)
{
    static const char unreserved[] = "-._~", kept[] = "-._~:/?#[]@!$&'()*+,;=";
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (c == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
            isxdigit((unsigned char)s[i + 2])) {
            unsigned v = (unsigned)strtoul((char[]){s[i + 1], s[i + 2], 0}, NULL, 16);
            int v_alnum = (v >= '0' && v <= '9') || (v >= 'a' && v <= 'z') || (v >= 'A' && v <= 'Z');
            if ((flags & PCT_URI_DECODE_UNRESERVED) && (v_alnum || (v && strchr(unreserved, (int)v))))
                out[o++] = (char)(lower ? tolower((int)v) : (int)v);
            else if (flags & PCT_URI_UPPER_HEX)
                o += (size_t)sprintf(out + o, "%%%02X", v);
            else {
                memcpy(out + o, s + i, 3);
                o += 3;
            }
            i += 2;
        } else if (alnum || (c && c < 0x80 && strchr(kept, c))) {
            out[o++] = (char)(lower ? tolower(c) : c);
        } else {
            o += (size_t)sprintf(out + o, "%%%02X", c);
        }
    }
    return o;
}

/* Runs of kept bytes ending at every offset around the 8-byte words, with
 * an escape, a byte to escape or a bad '%' there: normalize and requote
 * agree with the model, for host (lowercased), path, query and fragment. */
static void test_part_boundaries(void)
{
    static const char *const SPECIAL[] = {"%41", "%7e", "%3f", "%3F", "%zz", "%4", "%", " ",
                                          "\xC3\xA9", "\x7F", "Z", "\"", "{"};
    const unsigned N = PCT_URI_NORMALIZE;
    char part[64], want[512], in[512];
    for (size_t len = 0; len <= 40; len++) {
        for (size_t sp = 0; sp < sizeof SPECIAL / sizeof SPECIAL[0]; sp++) {
            for (size_t at = 0; at <= len; at++) {
                /* len kept bytes (mixed case), SPECIAL[sp] inserted at `at` */
                size_t n = 0;
                for (size_t i = 0; i < len; i++) {
                    if (i == at)
                        n += (size_t)sprintf(part + n, "%s", SPECIAL[sp]);
                    part[n++] = "aB3-_~!$&'()*+,;="[i % 17];
                }
                if (at == len)
                    n += (size_t)sprintf(part + n, "%s", SPECIAL[sp]);
                size_t r = 0, w = 0;
                r += (size_t)sprintf(in, "http://%.*s/%.*s?%.*s#%.*s", (int)n, part, (int)n, part,
                                     (int)n, part, (int)n, part);
                w += (size_t)sprintf(want, "http://");
                w += reference_part(part, n, N, 1, want + w);
                want[w++] = '/';
                w += reference_part(part, n, N, 0, want + w);
                want[w++] = '?';
                w += reference_part(part, n, N, 0, want + w);
                want[w++] = '#';
                w += reference_part(part, n, N, 0, want + w);
                size_t got_len;
                uint8_t *got = normalize_bytes((const uint8_t *)in, r, N, &got_len);
                CHECK(got_len == w && memcmp(got, want, w) == 0);
                free(got);

                uint8_t rq[256];
                size_t rq_len = pct_requote((const uint8_t *)part, n, PCT_URI_UPPER_HEX, rq);
                w = reference_part(part, n, PCT_URI_UPPER_HEX, 0, want);
                CHECK(rq_len == w && memcmp(rq, want, w) == 0);
            }
        }
    }
}

/* RFC 3986 appendix B a byte at a time, with the host and port rules of pct_uri.h. */
static void reference_split(const char *s, size_t n, pct_uri *u)
{
    memset(u, 0, sizeof *u);
    size_t i = 0, k = 0;
    while (k < n && !strchr(":/?#", s[k]))
        k++;
    int scheme = k > 0 && k < n && s[k] == ':' && isalpha((unsigned char)s[0]);
    for (size_t j = 1; scheme && j < k; j++)
        scheme = isalnum((unsigned char)s[j]) || strchr("+-.", s[j]);
    if (scheme) {
        u->has_scheme = 1;
        u->scheme.len = k;
        i = k + 1;
    }
    if (n - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        size_t start = i + 2, end = start, at = 0, host = start;
        while (end < n && !strchr("/?#", s[end]))
            end++;
        for (size_t j = start; j < end; j++)
            if (s[j] == '@')
                at = j + 1;
        u->has_authority = 1;
        if (at) {
            u->has_userinfo = 1;
            u->userinfo.start = start;
            u->userinfo.len = at - 1 - start;
            host = at;
        }
        size_t colon = host;
        if (host < end && s[host] == '[') {
            while (colon < end && s[colon] != ']')
                colon++;
            colon = colon + 1 < end && s[colon + 1] == ':' ? colon + 1 : end;
        } else {
            while (colon < end && s[colon] != ':')
                colon++;
        }
        u->host.start = host;
        u->host.len = colon - host;
        if (colon < end) {
            u->has_port = 1;
            u->port.start = colon + 1;
            u->port.len = end - colon - 1;
        }
        i = end;
    }
    u->path.start = i;
    while (i < n && s[i] != '?' && s[i] != '#')
        i++;
    u->path.len = i - u->path.start;
    if (i < n && s[i] == '?') {
        u->has_query = 1;
        u->query.start = ++i;
        while (i < n && s[i] != '#')
            i++;
        u->query.len = i - u->query.start;
    }
    if (i < n) {
        u->has_fragment = 1;
        u->fragment.start = i + 1;
        u->fragment.len = n - i - 1;
    }
}

static int same_range(pct_range a, pct_range b)
{
    return a.start == b.start && a.len == b.len;
}

/* Random strings of delimiters among letters, up to 40 bytes: every
 * delimiter lands at every offset of the word-at-a-time searches. */
static void test_split_offsets(void)
{
    static const char alphabet[] = "aaaaAZ9+-.:/?#@[]";
    uint64_t x = 3141592653589793ull;
    char s[48];
    for (int k = 0; k < test_rounds(300000); k++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        size_t n = x % 41;
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            s[i] = alphabet[(x >> 8) % (k % 3 ? 6 : sizeof alphabet - 1)];
        }
        if (k % 4 == 0 && n >= 7) /* a scheme and an authority */
            memcpy(s, "ab:////", 5);
        pct_uri got, want;
        pct_uri_split((const uint8_t *)s, n, &got);
        reference_split(s, n, &want);
        int same = got.has_scheme == want.has_scheme && got.has_authority == want.has_authority &&
                   got.has_userinfo == want.has_userinfo && got.has_port == want.has_port &&
                   got.has_query == want.has_query && got.has_fragment == want.has_fragment;
        /* Ranges of absent parts are not specified. */
        same = same && (!want.has_scheme || same_range(got.scheme, want.scheme));
        same = same && (!want.has_userinfo || same_range(got.userinfo, want.userinfo));
        same = same && (!want.has_authority || same_range(got.host, want.host));
        same = same && (!want.has_port || same_range(got.port, want.port));
        same = same && same_range(got.path, want.path);
        same = same && (!want.has_query || same_range(got.query, want.query));
        same = same && (!want.has_fragment || same_range(got.fragment, want.fragment));
        CHECK(same);
        if (!same && failures < 10)
            fprintf(stderr, "  split differs: [%.*s]\n", (int)n, s);
    }
}

static void expect_normalize(const char *in, unsigned flags, const char *want)
{
    size_t len;
    uint8_t *got = normalize_bytes((const uint8_t *)in, strlen(in), flags, &len);
    CHECK(len == strlen(want) && memcmp(got, want, len) == 0);
    if (len != strlen(want) || memcmp(got, want, len) != 0)
        fprintf(stderr, "  normalize(%s) = %.*s, want %s\n", in, (int)len, got, want);
    free(got);
}

static void test_examples(void)
{
    const unsigned N = PCT_URI_NORMALIZE;
    expect_normalize("HTTP://www.Example.com/", N, "http://www.example.com/");
    expect_normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", N, "example://a/b/c/%7Bfoo%7D");
    expect_normalize("http://example.com", N, "http://example.com/");
    expect_normalize("http://example.com:/", N, "http://example.com/");
    expect_normalize("http://example.com:80/", N, "http://example.com/");
    expect_normalize("https://example.com:0443/", N, "https://example.com/");
    expect_normalize("http://example.com:8080", N, "http://example.com:8080/");
    expect_normalize("http://[FE80::1]:80/", N, "http://[fe80::1]/");
    expect_normalize("http://a/b/c/./../../g", N, "http://a/g");
    expect_normalize("mid/content=5/../6", N, "mid/content=5/../6");
    expect_normalize("a:/.//b", N, "a:/.//b");
    expect_normalize("path%3Fkey=value", N, "path%3Fkey=value");
    expect_normalize("%41b:c", N, "./Ab:c");
    expect_normalize("//h::x", N, "//h::x/");
    expect_normalize("http://h:%38%30/", N, "http://h/"); /* escapes decoded, then the port rule */
    expect_normalize("http://h:8%30%38/", N, "http://h:808/");
    expect_normalize("http://h:%30/", N, "http://h:0/");
    expect_normalize("http://h:8%30/", 0, "http://h:8%30/");
    /* RFC 6874: a zone id is an interface name, case kept */
    expect_normalize("http://[FE80::1%25Eth0]:80/", N, "http://[fe80::1%25Eth0]/");
    expect_normalize("http://[FE80::%41%25Eth0]/", N, "http://[fe80::a%25Eth0]/");
    expect_normalize("http://[FE80::1%Eth0]/", N, "http://[fe80::1%25Eth0]/");
    expect_normalize("http://[V1.A%22B]/", N, "http://[v1.a%22b]/"); /* an escape, not a zone */
    expect_normalize("/%7Euser/%2D/%2f", N, "/~user/-/%2F");
    expect_normalize("http://x/?b=2&a=1&b=1&a#f", N | PCT_URI_SORT_QUERY | PCT_URI_DROP_FRAGMENT,
                     "http://x/?a=1&a&b=2&b=1");
    expect_normalize("100%", N, "100%25");
    expect_normalize("100%2525", N, "100%2525");
    expect_normalize("http://User%41@HOST%41:81", N, "http://UserA@hosta:81/");
    expect_normalize("http://h/%7e?%7e#%7e", 0, "http://h/%7e?%7e#%7e");

    size_t pos;
    CHECK(pct_uri_check((const uint8_t *)"asdf%*.fred", 11, &pos) == PCT_URI_BAD_ESCAPE && pos == 4);
    CHECK(pct_uri_check((const uint8_t *)"12345667123%asdghfh", 19, &pos) == PCT_URI_BAD_ESCAPE &&
          pos == 11);
    CHECK(pct_uri_check((const uint8_t *)"a b", 3, &pos) == PCT_URI_BAD_CHAR && pos == 1);
    CHECK(pct_uri_check((const uint8_t *)"%4", 2, &pos) == PCT_URI_BAD_ESCAPE && pos == 0);
}

static int needs_idna(const char *host, int escapes)
{
    return pct_host_needs_idna((const uint8_t *)host, strlen(host), escapes);
}

static void test_needs_idna(void)
{
    CHECK(!needs_idna("example.com", 1) && !needs_idna("", 1) && !needs_idna("%41%2F%7f.com", 1));
    CHECK(needs_idna("\xE4\xBE\x8B.jp", 0) && needs_idna("a.\xC3\xA9", 1));
    CHECK(needs_idna("%E4%BE%8B.jp", 1) && needs_idna("%e4%be%8b.jp", 1) && needs_idna("a%80", 1));
    CHECK(!needs_idna("%E4%BE%8B.jp", 0)); /* iri_to_uri keeps escapes as written */
    CHECK(!needs_idna("%E", 1) && needs_idna("%E4", 1) && !needs_idna("%EG", 1));
    CHECK(!needs_idna("[\xC3\xA9]", 1) && !needs_idna("[%E4]", 1)); /* IP literals never */
}

static void test_size_limits(void)
{
    size_t bound, size;
    CHECK(pct_uri_size_bound(0, 0, SIZE_MAX, &bound) == PCT_OK && bound == 3);
    CHECK(pct_uri_size_bound(10, 5, 48, &bound) == PCT_OK && bound == 48);
    CHECK(pct_uri_size_bound(10, 5, 47, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_uri_size_bound(SIZE_MAX / 3, 0, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_uri_size_bound((SIZE_MAX - 3) / 3, 0, SIZE_MAX, &bound) == PCT_OK &&
          bound <= SIZE_MAX);
    CHECK(pct_uri_size_bound((SIZE_MAX - 3) / 3, 1, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_uri_size_bound(1, SIZE_MAX, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    /* a limit below the 3 spare bytes (found by fuzz_normalize) */
    CHECK(pct_uri_size_bound(0, 0, 3, &bound) == PCT_OK && bound == 3);
    for (size_t limit = 0; limit < 3; limit++)
        CHECK(pct_uri_size_bound(0, 0, limit, &bound) == PCT_ERR_TOO_LARGE);
    const uint8_t sp[] = "    %";
    CHECK(pct_requoted_size(sp, 5, 15, &size) == PCT_OK && size == 15);
    CHECK(pct_requoted_size(sp, 5, 14, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_requoted_size(sp, 0, 0, &size) == PCT_OK && size == 0);
}

/* ---- check and requote on every kernel, against a byte-at-a-time model ---
 * They scan with the kernels' span_safe (vectors of 16, 32 bytes and padded
 * short ones): every length 0..100, random rows and rows kept but for one
 * byte (each offending byte at each place). */

static int model_kept(unsigned c)
{
    return c && c < 0x80 && (isalnum((int)c) || strchr("-._~:/?#[]@!$&'()*+,;=", (int)c));
}

static pct_uri_problem model_check(const uint8_t *s, size_t n, size_t *pos)
{
    for (size_t i = 0; i < n; i++) {
        *pos = i;
        if (model_kept(s[i]))
            continue;
        if (s[i] != '%')
            return PCT_URI_BAD_CHAR;
        if (!(i + 2 < n && isxdigit(s[i + 1]) && isxdigit(s[i + 2])))
            return PCT_URI_BAD_ESCAPE;
        i += 2;
    }
    *pos = n;
    return PCT_URI_VALID;
}

static void check_scan_row(const uint8_t *s, size_t n)
{
    size_t pos, want_pos, size;
    char want[400];
    CHECK(pct_uri_check(s, n, &pos) == model_check(s, n, &want_pos) && pos == want_pos);
    size_t len = reference_part((const char *)s, n, PCT_URI_UPPER_HEX, 0, want);
    uint8_t got[400];
    CHECK(pct_requoted_size(s, n, SIZE_MAX, &size) == PCT_OK && size == len);
    CHECK(pct_requote(s, n, PCT_URI_UPPER_HEX, got) == len && memcmp(got, want, len) == 0);
    /* the span: the longest prefix requote leaves as it is */
    size_t span = pct_requote_span(s, n, PCT_URI_UPPER_HEX), same = 0;
    while (same < n && same < len && s[same] == (uint8_t)want[same])
        same++;
    CHECK(span <= same && (span == n) == (len == n && same == n));
    CHECK(span == n || span + 3 > n || s[span] != '%' || model_check(s + span, 3, &pos) != PCT_URI_VALID ||
          (s[span + 1] >= 'a' || s[span + 2] >= 'a'));
}

static void test_scans_on_every_kernel(void)
{
    pct_set kept;
    pct_set_clear(&kept);
    for (unsigned c = 0; c < 256; c++)
        if (model_kept(c))
            pct_set_add(&kept, (unsigned char)c);
    CHECK(memcmp(&kept, pct_uri_kept_set(), sizeof kept) == 0);

    static const uint8_t offenders[] = {'%', ' ', '"', '<', '\\', '^', '`', '{', '|', '}', 0, 0x7F, 0x80, 0xFF};
    static const char alphabet[] = "aZ09-._~:/?#[]@!$&'()*+,;=%%%fF \x01\xC3";
    uint8_t row[110];
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t k = 0; pct_kernel_available(k); k++) {
        CHECK(pct_kernel_select(pct_kernel_available(k)) == 0);
        for (size_t n = 0; n <= 100; n++) {
            for (size_t i = 0; i < n; i++)
                row[i] = (uint8_t)"abcXYZ019-._~/?=&:@"[i % 19];
            check_scan_row(row, n);
            for (size_t at = 0; at < n; at++) {
                for (size_t o = 0; o < sizeof offenders; o++) {
                    uint8_t keep = row[at];
                    row[at] = offenders[o];
                    check_scan_row(row, n);
                    if (offenders[o] == '%' && at + 2 < n) { /* an escape, upper and lower */
                        memcpy(row + at + 1, o & 1 ? "2f" : "2F", 2);
                        check_scan_row(row, n);
                        row[at + 1] = (uint8_t)"abcXYZ019-._~/?=&:@"[(at + 1) % 19];
                        row[at + 2] = (uint8_t)"abcXYZ019-._~/?=&:@"[(at + 2) % 19];
                    }
                    row[at] = keep;
                }
            }
            for (int r = 0; r < 200; r++) {
                for (size_t i = 0; i < n; i++) {
                    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                    /* mostly kept bytes: long runs between the offenders */
                    row[i] = x % 8 ? (uint8_t)"abcXYZ019-._~/?=&:@"[(x >> 8) % 19]
                                   : (uint8_t)alphabet[(x >> 8) % (sizeof alphabet - 1)];
                }
                check_scan_row(row, n);
            }
            if (failures > 20)
                break;
        }
    }
    CHECK(pct_kernel_select(NULL) == 0);
}

/* ---- pct_uri_offence: every kernel's one-pass entry ----------------------
 * Against the test at every position (fused_offence, what the vector
 * kernels compute) and the sequential scan that jumps over escapes (the
 * scalar kernel's), which agree because the digits of a valid escape are
 * kept bytes and not '%'. Rows are copied to a buffer of exactly their size,
 * so the sanitizer build sees any read past the end. */

/* The test at position i alone. */
static int offence_at(const uint8_t *s, size_t i, size_t n)
{
    return s[i] == '%' ? !(i + 2 < n && isxdigit(s[i + 1]) && isxdigit(s[i + 2])) : !model_kept(s[i]);
}

static size_t fused_offence(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (offence_at(s, i, n))
            return i;
    return n;
}

static void check_offence(const uint8_t *row, size_t n)
{
    uint8_t *s = malloc(n ? n : 1);
    if (n)
        memcpy(s, row, n);
    size_t want = fused_offence(s, n), got = pct_uri_offence(s, n);
    CHECK(got == want);
    CHECK(pct_scalar_uri_offence(s, n) == want);
    CHECK(pct_uri_offence_kernel()(s, n) == want);
    /* the kernel's bits for many rows: the test at every position */
    pct_uri_offence_bits_fn bits_of = pct_uri_offence_bits_kernel();
    if (bits_of) {
        uint64_t bits[5];
        memset(bits, 0xA5, sizeof bits);
        bits_of(s, n, bits);
        for (size_t i = 0; i < n; i++)
            CHECK((int)((bits[i / 64] >> (i % 64)) & 1) == offence_at(s, i, n));
        for (size_t i = n; i < (n + 63) / 64 * 64; i++)
            CHECK(((bits[i / 64] >> (i % 64)) & 1) == 0);
    }
    /* the byte offset is the code-point index: only ASCII comes before it */
    CHECK(pct_utf8_count(s, got) == got);
    size_t pos;
    pct_uri_problem p = pct_uri_check(s, n, &pos);
    CHECK(pos == want && p == (want == n ? PCT_URI_VALID : s[want] == '%' ? PCT_URI_BAD_ESCAPE
                                                                        : PCT_URI_BAD_CHAR));
    free(s);
}

static void test_escape_digits_are_kept(void)
{
    /* why skipping a valid escape's digits equals testing them */
    for (unsigned c = 0; c < 256; c++)
        if (isxdigit((int)c))
            CHECK(model_kept(c) && c != '%');
}

static void test_offence_on_every_kernel(void)
{
    static const uint8_t offenders[] = {'%', ' ', '"', '<', '>', '\\', '^', '`', '{', '|', '}',
                                        0, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xFF};
    static const char *const tails[] = {"%", "%A", "%AG", "%G", "%AF", "%af", "%%", "%A%", "%9z"};
    static const char *const pieces[] = {"a", "Z", "0", "f", "F", "%", "%4", "%41", "%4g", "/",
                                         "~", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                         "\x80", "\xC3", " ", "\"", "G", "9"};
    const char *base = "abcXYZ019-._~/?=&:@!$'()*+,;[]#";
    uint8_t row[260];
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t k = 0; pct_kernel_available(k); k++) {
        CHECK(pct_kernel_select(pct_kernel_available(k)) == 0);
        for (size_t n = 0; n <= 200; n++) {
            for (size_t i = 0; i < n; i++)
                row[i] = (uint8_t)base[i % 31];
            check_offence(row, n);
            /* each offender at each position, alone and after a valid escape */
            for (size_t at = 0; at < n; at++) {
                uint8_t keep = row[at];
                for (size_t o = 0; o < sizeof offenders; o++) {
                    row[at] = offenders[o];
                    check_offence(row, n);
                }
                if (at + 3 < n) {
                    memcpy(row + at, "%7E", 3);
                    row[at + 3] = '%';
                    check_offence(row, n);
                    for (size_t i = at; i < at + 4; i++)
                        row[i] = (uint8_t)base[i % 31];
                }
                row[at] = keep;
            }
            /* '%' and malformed escapes in the last bytes */
            for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
                size_t len = strlen(tails[t]);
                if (len > n)
                    continue;
                memcpy(row + n - len, tails[t], len);
                check_offence(row, n);
                for (size_t i = n - len; i < n; i++)
                    row[i] = (uint8_t)base[i % 31];
            }
            /* random rows of pieces (escapes, UTF-8, broken UTF-8) and of bytes */
            for (int r = 0; r < test_rounds(60); r++) {
                size_t len = 0;
                while (len < n) {
                    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                    const char *piece = x % 4 ? base + (x >> 8) % 31 : pieces[(x >> 8) % 20];
                    size_t m = x % 4 ? 1 : strlen(piece);
                    for (size_t i = 0; i < m && len < n; i++)
                        row[len++] = (uint8_t)piece[i];
                }
                check_offence(row, n);
                for (size_t i = 0; i < n; i++) {
                    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                    row[i] = r & 1 ? (uint8_t)(x >> 24) : (uint8_t)"%0aF/"[(x >> 24) % 5];
                }
                check_offence(row, n);
            }
            if (failures > 20)
                break;
        }
    }
    CHECK(pct_kernel_select(NULL) == 0);
}

/* ---- uri_scan: the class masks of normalize_many's rows, every kernel ----
 * Each kernel's pass (32 bytes a step with a padded copy for short rows,
 * 64 with masked loads) against the byte-at-a-time classes, at every
 * length up to PCT_URI_SCAN_MAX (each edge of a vector and a word): the
 * bits of the row's bytes, none past its end, and the copy with 32 zeros
 * after it. The row ends its allocation, so a read past it is caught under
 * AddressSanitizer; the scan struct starts dirty. */
static void check_uri_scan(const pct_kernel *k, const uint8_t *src, size_t n)
{
    static const uint8_t chars[PCT_SCAN_DOT + 1] = {':', '/', '?', '#', '@', '%', '.'};
    uint8_t *row = malloc(n);
    pct_uri_scan scan;
    CHECK(row != NULL);
    if (!row)
        return;
    memcpy(row, src, n);
    memset(&scan, 0xA5, sizeof scan);
    k->uri_scan(row, n, pct_uri_kept_set(), &scan);
    for (size_t w = 0; w * 64 < n; w++) {
        for (int c = 0; c < PCT_SCAN_CLASSES; c++) {
            uint64_t want = 0;
            for (size_t i = w * 64; i < n && i < w * 64 + 64; i++) {
                int in = c == PCT_SCAN_WORK ? !model_kept(row[i]) : row[i] == chars[c];
                want |= (uint64_t)in << (i - w * 64);
            }
            CHECK(scan.m[c][w] == want);
        }
    }
    CHECK(memcmp(scan.bytes, row, n) == 0);
    for (size_t i = n; i < n + 32; i++)
        CHECK(scan.bytes[i] == 0);
    free(row);
}

static void test_uri_scan_on_every_kernel(void)
{
    static const char alphabet[] = "aZ09-._~:/?#[]@!$&'()*+,;=%fF \"<>\\^`{|}\x01\x7F\x80\xC3\xFF";
    uint8_t row[PCT_URI_SCAN_MAX];
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (size_t k = 0; pct_kernel_available(k); k++) {
        CHECK(pct_kernel_select(pct_kernel_available(k)) == 0);
        const pct_kernel *kernel = pct_kernel_active();
        if (!kernel->uri_scan)
            continue;
        for (size_t n = 1; n <= PCT_URI_SCAN_MAX; n++) {
            for (int r = 0; r < 20; r++) {
                for (size_t i = 0; i < n; i++) {
                    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                    row[i] = r == 0 ? (uint8_t)(x >> 24) /* any byte */
                                    : (uint8_t)alphabet[(x >> 8) % (sizeof alphabet - 1)];
                }
                check_uri_scan(kernel, row, n);
            }
            if (failures > 20)
                break;
        }
    }
    CHECK(pct_kernel_select(NULL) == 0);
}

/* ---- uri_write: normalize's component writer, every kernel that has one --
 * Against a byte-at-a-time model of the documented rule, with every
 * combination of decoded set, lowercase and uppercase hex, at every length
 * up to 200 (escapes across the 62nd and 64th bytes). Input and output are
 * allocated exactly, so a read or a write past them is caught under
 * AddressSanitizer. */
static int model_unreserved(unsigned c)
{
    return isalnum((int)c) || c == '-' || c == '.' || c == '_' || c == '~';
}

static size_t model_write(const uint8_t *s, size_t n, int decode, int lower, int upper, uint8_t *d)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c == '%' && i + 2 < n && isxdigit(s[i + 1]) && isxdigit(s[i + 2])) {
            unsigned v = (unsigned)strtol((const char[]){(char)s[i + 1], (char)s[i + 2], 0}, NULL, 16);
            if (decode && model_unreserved(v)) {
                d[o++] = (uint8_t)(lower ? tolower((int)v) : (int)v);
            } else {
                d[o++] = '%';
                d[o++] = (uint8_t)(upper ? toupper(s[i + 1]) : s[i + 1]);
                d[o++] = (uint8_t)(upper ? toupper(s[i + 2]) : s[i + 2]);
            }
            i += 3;
        } else if (model_kept(c)) {
            d[o++] = (uint8_t)(lower ? tolower((int)c) : (int)c);
            i++;
        } else {
            d[o++] = '%';
            d[o++] = (uint8_t)hex[c >> 4];
            d[o++] = (uint8_t)hex[c & 15];
            i++;
        }
    }
    return o;
}

static void test_uri_write_on_every_kernel(void)
{
    static const char alphabet[] = "aZfF09-._~:/?#@!$&'+=%%%%%% \"<>\x7F\x80\xC3\xA9\xFF";
    pct_set unreserved;
    pct_set_clear(&unreserved);
    pct_set_add_unreserved(&unreserved);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    uint8_t src[200], want[600];
    for (size_t k = 0; pct_kernel_available(k); k++) {
        CHECK(pct_kernel_select(pct_kernel_available(k)) == 0);
        const pct_kernel *kernel = pct_kernel_active();
        if (!kernel->uri_write)
            continue;
        for (size_t n = 1; n <= sizeof src; n++) {
            for (int r = 0; r < 24; r++) {
                for (size_t i = 0; i < n; i++) {
                    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                    src[i] = r == 0 ? (uint8_t)(x >> 24) : (uint8_t)alphabet[(x >> 8) % (sizeof alphabet - 1)];
                }
                int decode = r & 1, lower = r >> 1 & 1, upper = r >> 2 & 1;
                size_t len = model_write(src, n, decode, lower, upper, want);
                uint8_t *row = malloc(n), *got = malloc(len ? len : 1);
                CHECK(row && got);
                if (!row || !got)
                    return;
                memcpy(row, src, n);
                size_t w = kernel->uri_write(row, n, pct_uri_kept_set(), decode ? &unreserved : NULL, lower,
                                             upper, got);
                CHECK(w == len && memcmp(got, want, len) == 0);
                free(row);
                free(got);
            }
        }
    }
    CHECK(pct_kernel_select(NULL) == 0);
}

/* pct_uri_write_row with a host form given equals pct_uri_write, a form
 * in uppercase too (lowered under PCT_URI_LOWER_CASE as write_part does),
 * on every kernel. */
static void test_row_write_with_a_given_host(void)
{
    static const char *rows[] = {"ttps://E%44", "http://u@h:80/a?b#c", "HTTP://X/", "s://h"};
    static const char *forms[] = {"80-Ah", "xn--9ca.example", "ABC"};
    for (size_t k = 0; pct_kernel_available(k); k++) {
        CHECK(pct_kernel_select(pct_kernel_available(k)) == 0);
        for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
            for (size_t f = 0; f < sizeof forms / sizeof *forms; f++)
                for (unsigned flags = 0; flags < 64; flags++) {
                    const uint8_t *s = (const uint8_t *)rows[r], *h = (const uint8_t *)forms[f];
                    size_t n = strlen(rows[r]), hl = strlen(forms[f]), bound = 0, la = 0, lb = 0;
                    pct_uri u;
                    pct_uri_row row;
                    pct_uri_split(s, n, &u);
                    pct_uri_split_row(s, n, &row);
                    CHECK(pct_uri_size_bound(n, hl, SIZE_MAX, &bound) == PCT_OK);
                    uint8_t *a = malloc(bound + PCT_URI_WRITE_ROOM), *b = malloc(bound + PCT_URI_WRITE_ROOM);
                    CHECK(a && b);
                    if (!a || !b)
                        return;
                    CHECK(pct_uri_write(s, &u, h, hl, flags, a, &la) == PCT_OK);
                    CHECK(pct_uri_write_row(s, &row, h, hl, flags, b, &lb) == PCT_OK);
                    CHECK(la == lb && memcmp(a, b, la) == 0);
                    free(a);
                    free(b);
                }
    }
    CHECK(pct_kernel_select(NULL) == 0);
}

/* ---- pct_uri_normalize_fast: the kernel's pass over whole rows ------------
 * Against pct_uri_split and pct_uri_write for URL-shaped rows of every
 * length up to 300 (past the pass's 64, 128 and 256): the same bytes where it
 * takes a row, and, where it asks for a host's IDNA form, the same bytes
 * again with a form given. It must take a good part of them (with and
 * without escapes, ports, dot segments, empty paths). Rows and outputs are
 * allocated to their size (the output to the writer's bound and room). */
static const uint8_t fast_form[] = "xn--Form.Example";

/* A store that holds one form, fast_form, for every host. */
static const uint8_t *one_form(const void *forms, const uint8_t *host, size_t n, size_t *form_len)
{
    (void)host;
    (void)n;
    *form_len = sizeof fast_form - 1;
    return forms;
}

static void check_fast_row(const uint8_t *src, size_t n, unsigned flags, long *taken)
{
    uint8_t *row = malloc(n ? n : 1);
    size_t bound = 0, len = 0, want_len = 0;
    CHECK(row && pct_uri_size_bound(n, PCT_URI_FAST_FORM_MAX, SIZE_MAX, &bound) == PCT_OK);
    uint8_t *got = malloc(bound + PCT_URI_WRITE_ROOM), *want = malloc(bound);
    CHECK(got && want);
    if (!row || !got || !want) {
        free(row);
        free(got);
        free(want);
        return;
    }
    memcpy(row, src, n);
    pct_uri u;
    pct_uri_split(row, n, &u);
    pct_uri_fast fast = {NULL, 0, NULL, NULL, {0, 0}, 0, 0, 0};
    int r = pct_uri_normalize_fast(row, n, flags, got, &len, &fast);
    if (r == PCT_URI_FAST_HOST) {
        /* the form given, then the form from a store: the same bytes */
        CHECK(u.has_authority && fast.idna_host.start == u.host.start && fast.idna_host.len == u.host.len
              && pct_host_needs_idna(row + u.host.start, u.host.len, 0));
        CHECK(pct_uri_write(row, &u, fast_form, sizeof fast_form - 1, flags, want, &want_len) == PCT_OK);
        pct_uri_fast given = {fast_form, sizeof fast_form - 1, NULL, NULL, {0, 0}, 0, 0, 0};
        pct_uri_fast stored = {NULL, 0, one_form, fast_form, {0, 0}, 0, 0, 0};
        r = pct_uri_normalize_fast(row, n, flags, got, &len, &given);
        CHECK(r != PCT_URI_FAST_HOST); /* NOT: a port it leaves */
        CHECK(r != PCT_URI_FAST_DONE || (len == want_len && memcmp(got, want, len) == 0));
        int again = pct_uri_normalize_fast(row, n, flags, got, &len, &stored);
        CHECK(again == r);
        r = again;
    } else {
        CHECK(pct_uri_write(row, &u, NULL, 0, flags, want, &want_len) == PCT_OK);
        CHECK(r == PCT_URI_FAST_NOT || !u.has_authority
              || !pct_host_needs_idna(row + u.host.start, u.host.len, 0));
    }
    if (r == PCT_URI_FAST_DONE) {
        CHECK(len == want_len && memcmp(got, want, len) == 0);
        ++*taken;
    }
    free(row);
    free(got);
    free(want);
}

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x >> 8;
}

static void test_normalize_fast_on_every_kernel(void)
{
    static const char *const heads[] = {"http://", "HTTPS://", "ws://u:P@", "ftp://a@b@", "wss://",
                                        "s+v.1://", "x://", "h://[::1]", "ab:/", "1a://", "//", ""};
    static const char *const hosts[] = {"ex.com", "Ex.COM", "h", "", ("\xC3\xA9" "cole.fr"), "a%41.b",
                                        "x y", "\xE4\xB8\xAD.cn"};
    static const char *const ports[] = {"", "", "", ":80", ":0443", ":", ":00", ":8a", ":21", ":443"};
    static const char *const pieces[] = {"a", "Z", "%41", "%2e", "%2E", "%7E", "%3a", "%C3%A9", "%",
                                         "%g", "%2", ".", "..", "/", "/./", "/../", "?", "#", ":",
                                         "@", " ", "\xC3\xA9", "\xE4\xB8\xAD", "&b=1", "=", "~", "[",
                                         "%25", "%2F", "/seg", "/x.y"};
    uint64_t x = 0x2545F4914F6CDD1Dull;
    uint8_t src[320];
#define PICK(list) list[next_random(&x) % (sizeof list / sizeof *list)]
    for (size_t k = 0; pct_kernel_available(k); k++) {
        CHECK(pct_kernel_select(pct_kernel_available(k)) == 0);
        if (!pct_kernel_active()->uri_normalize)
            continue;
        long taken = 0, rows = 0;
        for (size_t n = 0; n <= 300; n++) {
            for (int r = 0; r < test_rounds(60); r++) {
                /* a head, a host and a port (from the second row on), most often a
                 * '/', then pieces, cut at n */
                char start[64];
                const char *head = PICK(heads), *host = r ? PICK(hosts) : "", *port = r ? PICK(ports) : "";
                snprintf(start, sizeof start, "%s%s%s%s", head, host, port, r % 4 ? "/" : "");
                size_t len = strlen(start) < n ? strlen(start) : n;
                memcpy(src, start, len);
                while (len < n) {
                    const char *piece = PICK(pieces);
                    size_t m = strlen(piece) < n - len ? strlen(piece) : n - len;
                    memcpy(src + len, piece, m);
                    len += m;
                }
                check_fast_row(src, n, PCT_URI_NORMALIZE, &taken);
                check_fast_row(src, n, PCT_URI_NORMALIZE | PCT_URI_DROP_FRAGMENT, &taken);
                rows += 2;
            }
        }
        CHECK(taken > rows / 4); /* about 30%: the others have no authority, an escape in the host, ... */
    }
#undef PICK
    CHECK(pct_kernel_select(NULL) == 0);
}

int main(void)
{
    test_escape_digits_are_kept();
    test_offence_on_every_kernel();
    test_scans_on_every_kernel();
    test_uri_scan_on_every_kernel();
    test_uri_write_on_every_kernel();
    test_normalize_fast_on_every_kernel();
    test_row_write_with_a_given_host();
    test_dot_segments();
    test_examples();
    test_size_limits();
    test_needs_idna();
    test_part_boundaries();
    test_split_offsets();
    test_exhaustive();
    test_random();
    printf("test_uri: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
