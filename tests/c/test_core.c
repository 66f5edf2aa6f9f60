/* Unit tests of the pure C core: behaviour, size limits, and agreement with a
 * byte-at-a-time reference model on random buffers, run on every kernel this
 * CPU has; then every kernel against the scalar one on all lengths 0-300 at
 * all alignments. Buffers are allocated to their exact size, so that the
 * sanitizer build catches any read or write past either end. Plain C99. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct.h"
#include "pct_kernels.h"

#include "check.h"

static pct_set make_set(const char *extra)
{
    pct_set s;
    pct_set_clear(&s);
    pct_set_add_unreserved(&s);
    pct_set_add_bytes(&s, (const uint8_t *)extra, strlen(extra));
    return s;
}

/* Encodes NUL-terminated text with the bytes encoder; returns a malloc'd string. */
static char *encode_str(const char *in, const char *extra, int plus)
{
    pct_set s = make_set(extra);
    size_t n = strlen(in), size = 0;
    CHECK(pct_encoded_size((const uint8_t *)in, n, &s, SIZE_MAX, &size) == PCT_OK);
    char *out = malloc(size + 1);
    size_t w = pct_encode((const uint8_t *)in, n, &s, plus, (uint8_t *)out);
    CHECK(w == size);
    out[w] = 0;
    return out;
}

static char *decode_str(const char *in, int plus)
{
    size_t n = strlen(in);
    char *out = malloc(n + 1);
    size_t w = pct_decode((const uint8_t *)in, n, plus, (uint8_t *)out);
    CHECK(w <= n);
    out[w] = 0;
    return out;
}

static void expect_encode(const char *in, const char *extra, int plus, const char *want)
{
    char *got = encode_str(in, extra, plus);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "encode(\"%s\") = \"%s\", want \"%s\"\n", in, got, want);
    CHECK(strcmp(got, want) == 0);
    free(got);
}

static void expect_decode(const char *in, int plus, const char *want)
{
    char *got = decode_str(in, plus);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "decode(\"%s\") = \"%s\", want \"%s\"\n", in, got, want);
    CHECK(strcmp(got, want) == 0);
    free(got);
}

static void test_sets(void)
{
    pct_set s = make_set("");
    const char *unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
    for (unsigned c = 0; c < 256; c++)
        CHECK(pct_set_has(&s, (unsigned char)c) == (c != 0 && strchr(unreserved, (int)c) != NULL));
    pct_set_add(&s, 0xE9); /* ignored: safe sets are ASCII */
    CHECK(!pct_set_has(&s, 0xE9));
    pct_set_add(&s, 0);
    CHECK(pct_set_has(&s, 0));
}

static void test_encode(void)
{
    expect_encode("", "", 0, "");
    expect_encode("abc", "", 0, "abc");
    expect_encode("a b", "", 0, "a%20b");
    expect_encode("a b", " ", 1, "a+b");
    expect_encode("a b", "", 1, "a%20b"); /* plus only rewrites kept spaces */
    expect_encode("a+b", " ", 1, "a%2Bb");
    expect_encode("/x?y", "/", 0, "/x%3Fy");
    expect_encode("100%", "", 0, "100%25");
    expect_encode("\xe4\xb8\xad", "", 0, "%E4%B8%AD");
    expect_encode("~-._", "", 0, "~-._");
    expect_encode("\xff", "", 0, "%FF");
}

static void test_encode_ucs(void)
{
    pct_set s = make_set("/");
    const uint16_t u2[] = {'a', 0xE9, 0x4E2D, '/', ' '};
    uint8_t out[64];
    size_t size = 0;
    CHECK(pct_encoded_size_ucs2(u2, 5, &s, SIZE_MAX, &size) == PCT_OK);
    CHECK(size == 1 + 6 + 9 + 1 + 3);
    size_t w = pct_encode_ucs2(u2, 5, &s, 0, out);
    CHECK(w == size && memcmp(out, "a%C3%A9%E4%B8%AD/%20", w) == 0);

    const uint32_t u4[] = {0x1F600, 'x'};
    CHECK(pct_encoded_size_ucs4(u4, 2, &s, SIZE_MAX, &size) == PCT_OK && size == 13);
    w = pct_encode_ucs4(u4, 2, &s, 0, out);
    CHECK(w == 13 && memcmp(out, "%F0%9F%98%80x", 13) == 0);

    const uint8_t u1[] = {'a', 0xE9};
    CHECK(pct_encoded_size_ucs1(u1, 2, &s, SIZE_MAX, &size) == PCT_OK && size == 7);
    w = pct_encode_ucs1(u1, 2, &s, 0, out);
    CHECK(w == 7 && memcmp(out, "a%C3%A9", 7) == 0);

    const uint16_t sur[] = {'a', 'b', 0xDC80};
    CHECK(pct_encoded_size_ucs2(sur, 3, &s, SIZE_MAX, &size) == PCT_ERR_SURROGATE && size == 2);
    const uint32_t sur4[] = {0xD800};
    CHECK(pct_encoded_size_ucs4(sur4, 1, &s, SIZE_MAX, &size) == PCT_ERR_SURROGATE && size == 0);
}

static void expect_utf8(const char *in, int plus, int valid, size_t nchars, uint32_t maxchar)
{
    size_t n = strlen(in);
    uint8_t *out = malloc(n + 1);
    pct_utf8_info info;
    size_t w = pct_decode_utf8((const uint8_t *)in, n, plus, out, &info);
    uint8_t *want = malloc(n + 1);
    CHECK(w == pct_decode((const uint8_t *)in, n, plus, want) && memcmp(out, want, w) == 0);
    if (info.valid != valid || (valid && (info.nchars != nchars || info.maxchar != maxchar))) {
        fprintf(stderr, "decode_utf8(\"%s\"): valid %d nchars %zu maxchar %lx\n", in, info.valid,
                info.nchars, (unsigned long)info.maxchar);
        failures++;
    }
    checks++;
    free(out);
    free(want);
}

static void test_decode_utf8(void)
{
    expect_utf8("", 0, 1, 0, 0);
    expect_utf8("abc", 0, 1, 3, 0);
    expect_utf8("a%20b", 0, 1, 3, 0);
    expect_utf8("caf%C3%A9%20du%20monde", 0, 1, 13, 0xFF);
    expect_utf8("%e6%9d%b1%E4%BA%AC", 0, 1, 2, 0xFFFF);
    expect_utf8("%F0%9F%8E%89", 0, 1, 1, 0x10FFFF);
    expect_utf8("%F4%8F%BF%BF", 0, 1, 1, 0x10FFFF);
    expect_utf8("%EF%BF%BF+", 1, 1, 2, 0xFFFF);
    expect_utf8("%", 0, 1, 1, 0);
    expect_utf8("%4", 0, 1, 2, 0);
    expect_utf8("%zz", 0, 1, 3, 0);
    expect_utf8("%C3", 0, 0, 0, 0);           /* truncated at the end */
    expect_utf8("%C3a", 0, 0, 0, 0);          /* by a literal */
    expect_utf8("%C3+%A9", 1, 0, 0, 0);       /* by a '+' as space */
    expect_utf8("%C3%", 0, 0, 0, 0);          /* by a malformed escape */
    expect_utf8("%C3%A", 0, 0, 0, 0);
    expect_utf8("%C0%AF", 0, 0, 0, 0);        /* overlong */
    expect_utf8("%E0%9F%BF", 0, 0, 0, 0);
    expect_utf8("%F0%8F%BF%BF", 0, 0, 0, 0);
    expect_utf8("%ED%A0%80", 0, 0, 0, 0);     /* surrogate */
    expect_utf8("%ED%9F%BF", 0, 1, 1, 0xFFFF);
    expect_utf8("%F4%90%80%80", 0, 0, 0, 0);  /* past U+10FFFF */
    expect_utf8("%F5%80%80%80", 0, 0, 0, 0);
    expect_utf8("%A9", 0, 0, 0, 0);           /* stray continuation */
    expect_utf8("a\xc3\xa9", 0, 1, 2, 0xFF); /* literal bytes are checked as well */
    expect_utf8("\xc3%A9%C3\xa9", 0, 1, 2, 0xFF);
    expect_utf8("%C3\xff", 0, 0, 0, 0);
    expect_utf8("0123456789abcdef0123456789abcdef0123456789\x80", 0, 0, 0, 0);
    expect_utf8("%C2%80%c3%bf+%C3%80", 1, 1, 4, 0xFF);
    expect_utf8("%C3%A9%C4%80", 0, 1, 2, 0xFFFF); /* U+0100: past Latin-1 */
    expect_utf8("%C2%C3", 0, 0, 0, 0);
    expect_utf8("%C3%A9%C3", 0, 0, 0, 0);
    /* literal runs of 8 bytes and more, stopped by each kind of byte */
    expect_utf8("key%3Dvalue+%26+more+than+a+word", 1, 1, 28, 0);
    expect_utf8("key%3Dvalue+%26+more+than+a+word", 0, 1, 28, 0);
    expect_utf8("abcdefgh\xc3\xa9ijklmnop%C3%A9qrstuvwx", 0, 1, 26, 0xFF);
    expect_utf8("abcdefghijklm\xe6\x9d\xb1", 0, 1, 14, 0xFFFF);
    expect_utf8("abcdefghijklmnop\xc3", 0, 0, 0, 0);
}

static void test_decode(void)
{
    expect_decode("", 0, "");
    expect_decode("abc", 0, "abc");
    expect_decode("a%20b", 0, "a b");
    expect_decode("%e4%B8%aD", 0, "\xe4\xb8\xad");
    expect_decode("%", 0, "%");
    expect_decode("%4", 0, "%4");
    expect_decode("%zz", 0, "%zz");
    expect_decode("%%41", 0, "%A");
    expect_decode("100%2525", 0, "100%25"); /* one level only */
    expect_decode("a+b%2B", 0, "a+b+");
    expect_decode("a+b%2B", 1, "a b+");
    expect_decode("+%", 1, " %");
    /* in place */
    char buf[] = "x%41%42y";
    size_t w = pct_decode((uint8_t *)buf, strlen(buf), 0, (uint8_t *)buf);
    CHECK(w == 4 && memcmp(buf, "xABy", 4) == 0);
    CHECK(pct_find_escape((const uint8_t *)"ab+c%", 5, 0) == 4);
    CHECK(pct_find_escape((const uint8_t *)"ab+c%", 5, 1) == 2);
    CHECK(pct_find_escape((const uint8_t *)"abc", 3, 1) == 3);
}

/* Sizes at their limits: the check happens before any multiplication can wrap. */
static void test_size_limits(void)
{
    pct_set s = make_set("");
    const uint8_t unsafe[4] = {' ', ' ', ' ', ' '};
    const uint8_t safe4[4] = {'a', 'b', 'c', 'd'};
    size_t size = 0;
    CHECK(pct_encoded_size(unsafe, 4, &s, 12, &size) == PCT_OK && size == 12);
    CHECK(pct_encoded_size(unsafe, 4, &s, 11, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size(safe4, 4, &s, 4, &size) == PCT_OK && size == 4);
    CHECK(pct_encoded_size(safe4, 4, &s, 3, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size(unsafe, 0, &s, 0, &size) == PCT_OK && size == 0);
    /* A limit near SIZE_MAX never wraps: n + 2*escapes is compared by division. */
    CHECK(pct_encoded_size(unsafe, 4, &s, SIZE_MAX, &size) == PCT_OK && size == 12);
    CHECK(pct_encoded_size(unsafe, 4, &s, SIZE_MAX / 2, &size) == PCT_OK);

    const uint32_t astral[2] = {0x10000, 0x10FFFF};
    CHECK(pct_encoded_size_ucs4(astral, 2, &s, 24, &size) == PCT_OK && size == 24);
    CHECK(pct_encoded_size_ucs4(astral, 2, &s, 23, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size_ucs4(astral, 2, &s, 12, &size) == PCT_ERR_TOO_LARGE);
    const uint16_t bmp[1] = {0x4E2D};
    CHECK(pct_encoded_size_ucs2(bmp, 1, &s, 8, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size_ucs2(bmp, 1, &s, SIZE_MAX, &size) == PCT_OK && size == 9);
    const uint8_t latin[1] = {0xE9};
    CHECK(pct_encoded_size_ucs1(latin, 1, &s, 5, &size) == PCT_ERR_TOO_LARGE);
}

/* The reference model: one byte at a time, no cleverness. */
static size_t ref_encode(const uint8_t *src, size_t n, const pct_set *keep, int plus, uint8_t *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (pct_set_has(keep, src[i])) {
            dst[o++] = (plus && src[i] == ' ') ? '+' : src[i];
        } else {
            o += (size_t)sprintf((char *)dst + o, "%%%02X", src[i]);
        }
    }
    return o;
}

static int ref_hex(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static size_t ref_decode(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (src[i] == '%' && i + 2 < n && ref_hex(src[i + 1]) >= 0 &&
            ref_hex(src[i + 2]) >= 0) {
            dst[o++] = (uint8_t)(ref_hex(src[i + 1]) * 16 + ref_hex(src[i + 2]));
            i += 2;
        } else if (plus && src[i] == '+') {
            dst[o++] = ' ';
        } else {
            dst[o++] = src[i];
        }
    }
    return o;
}

/* Strict UTF-8 of b[0:n] as code points into cps (if not NULL); -1 if malformed. */
static long ref_utf8(const uint8_t *b, size_t n, uint32_t *cps, uint32_t *maxchar)
{
    size_t i = 0;
    long count = 0;
    *maxchar = 0;
    while (i < n) {
        uint32_t cp = b[i];
        size_t len = cp < 0x80 ? 1 : (cp & 0xE0) == 0xC0 ? 2 : (cp & 0xF0) == 0xE0 ? 3 : (cp & 0xF8) == 0xF0 ? 4 : 0;
        static const uint32_t lead_mask[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (!len || i + len > n)
            return -1;
        cp &= lead_mask[len];
        for (size_t k = 1; k < len; k++) {
            if ((b[i + k] & 0xC0) != 0x80)
                return -1;
            cp = cp << 6 | (b[i + k] & 0x3F);
        }
        if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return -1;
        if (cp > *maxchar)
            *maxchar = cp;
        if (cps)
            cps[count] = cp;
        count++;
        i += len;
    }
    /* as pct_utf8_info: the end of the narrowest range that holds it */
    *maxchar = *maxchar < 0x80 ? 0 : *maxchar < 0x100 ? 0xFF : *maxchar < 0x10000 ? 0xFFFF : 0x10FFFF;
    return count;
}

static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* The reference of a text encoder: each code point's UTF-8, then each byte
 * as ref_encode does it. */
static size_t ref_encode_text(const uint32_t *cps, size_t n, const pct_set *keep, int plus,
                              uint8_t *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = cps[i];
        uint8_t u[4];
        size_t len;
        if (c < 0x80) {
            u[0] = (uint8_t)c;
            len = 1;
        } else if (c < 0x800) {
            u[0] = (uint8_t)(0xC0 | c >> 6);
            u[1] = (uint8_t)(0x80 | (c & 0x3F));
            len = 2;
        } else if (c < 0x10000) {
            u[0] = (uint8_t)(0xE0 | c >> 12);
            u[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
            u[2] = (uint8_t)(0x80 | (c & 0x3F));
            len = 3;
        } else {
            u[0] = (uint8_t)(0xF0 | c >> 18);
            u[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
            u[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
            u[3] = (uint8_t)(0x80 | (c & 0x3F));
            len = 4;
        }
        o += ref_encode(u, len, keep, plus, dst + o);
    }
    return o;
}

/* A random code point below `top`, mostly ASCII or in runs of one kind, never
 * a surrogate. */
static uint32_t random_cp(uint32_t top)
{
    static const uint32_t spans[][2] = {{0, 0x80}, {0x20, 0x7F}, {0x80, 0x100}, {0x100, 0x800},
                                        {0x800, 0xD800}, {0xE000, 0x10000}, {0x10000, 0x110000}};
    for (;;) {
        const uint32_t *sp = spans[rng() % 7];
        uint32_t c = sp[0] + (uint32_t)(rng() % (sp[1] - sp[0]));
        if (c < top)
            return c;
    }
}

/* The three text encoders against the reference, on lengths that cross
 * their chunks (1024 code units) and words, with surrogates placed
 * anywhere for the sizing. Buffers are exact: the sanitizer build checks
 * the bounds. */
static void test_encode_text_against_model(void)
{
    static const uint32_t tops[] = {0x100, 0x10000, 0x110000};
    for (int round = 0; round < test_rounds(3000); round++) {
        size_t n = round % 10 == 0 ? 900 + rng() % 1400 : rng() % 80;
        int width = round % 3, plus = (int)(rng() & 1);
        uint32_t *cps = malloc((n + 1) * sizeof *cps);
        int ascii_bias = (int)(rng() % 4);
        for (size_t i = 0; i < n; i++)
            cps[i] = (int)(rng() % 4) < ascii_bias ? (uint32_t)(rng() % 128) : random_cp(tops[width]);
        pct_set s = make_set(round % 3 == 0 ? "/ " : (round % 3 == 1 ? "" : "%+"));
        void *units = malloc((n + 1) * 4);
        for (size_t i = 0; i < n; i++) {
            if (width == 0)
                ((uint8_t *)units)[i] = (uint8_t)cps[i];
            else if (width == 1)
                ((uint16_t *)units)[i] = (uint16_t)cps[i];
            else
                ((uint32_t *)units)[i] = cps[i];
        }
        uint8_t *want = malloc(12 * n + 1);
        size_t rw = ref_encode_text(cps, n, &s, plus, want), size = 0, w = 0;
        uint8_t *got = malloc(rw + 1);
        pct_status st = width == 0   ? pct_encoded_size_ucs1(units, n, &s, SIZE_MAX, &size)
                        : width == 1 ? pct_encoded_size_ucs2(units, n, &s, SIZE_MAX, &size)
                                     : pct_encoded_size_ucs4(units, n, &s, SIZE_MAX, &size);
        CHECK(st == PCT_OK && size == rw);
        w = width == 0   ? pct_encode_ucs1(units, n, &s, plus, got)
            : width == 1 ? pct_encode_ucs2(units, n, &s, plus, got)
                         : pct_encode_ucs4(units, n, &s, plus, got);
        CHECK(w == rw && memcmp(got, want, w) == 0);
        if (rw) { /* one byte short of the limit */
            st = width == 0   ? pct_encoded_size_ucs1(units, n, &s, rw - 1, &size)
                 : width == 1 ? pct_encoded_size_ucs2(units, n, &s, rw - 1, &size)
                              : pct_encoded_size_ucs4(units, n, &s, rw - 1, &size);
            CHECK(st == PCT_ERR_TOO_LARGE);
        }
        if (width && n) { /* a surrogate anywhere is reported at its index */
            size_t at = rng() % n;
            uint32_t sur = 0xD800 + (uint32_t)(rng() % 0x800);
            if (width == 1)
                ((uint16_t *)units)[at] = (uint16_t)sur;
            else
                ((uint32_t *)units)[at] = sur;
            st = width == 1 ? pct_encoded_size_ucs2(units, n, &s, SIZE_MAX, &size)
                            : pct_encoded_size_ucs4(units, n, &s, SIZE_MAX, &size);
            CHECK(st == PCT_ERR_SURROGATE && size == at);
            /* the limit comes first when the output before the surrogate passes it */
            size_t before = ref_encode_text(cps, at, &s, plus, want);
            st = width == 1 ? pct_encoded_size_ucs2(units, n, &s, before, &size)
                            : pct_encoded_size_ucs4(units, n, &s, before, &size);
            CHECK(st == PCT_ERR_SURROGATE && size == at);
            if (before) {
                st = width == 1 ? pct_encoded_size_ucs2(units, n, &s, before - 1, &size)
                                : pct_encoded_size_ucs4(units, n, &s, before - 1, &size);
                CHECK(st == PCT_ERR_TOO_LARGE);
            }
        }
        if (width == 1) { /* the kernel's transcoder against the scalar one, halves too */
            uint8_t *a = malloc(3 * n + 32), *b = malloc(3 * n + 32);
            int ha = -1, hb = -1;
            size_t la = pct_kernel_active()->utf8_of_ucs2(units, n, a, &ha);
            size_t lb = pct_scalar_utf8_of_ucs2(units, n, b, &hb);
            CHECK(la == lb && memcmp(a, b, la) == 0 && !ha == !hb && (ha != 0) == (n != 0));
            free(a);
            free(b);
        }
        free(cps);
        free(units);
        free(want);
        free(got);
        if (failures > 20)
            return;
    }
}

static void test_against_model(void)
{
    static const char alphabet[] = "%%%+ aF9zZ/~\x80\xff";
    uint8_t src[300], got[1000], want[1000];
    for (int round = 0; round < test_rounds(200000); round++) {
        size_t n = rng() % 300;
        int mostly_alphabet = round & 1;
        for (size_t i = 0; i < n; i++)
            src[i] = mostly_alphabet ? (uint8_t)alphabet[rng() % (sizeof alphabet - 1)] : (uint8_t)rng();
        int plus = (int)(rng() & 1);
        pct_set s = make_set(round % 3 == 0 ? "/ " : (round % 3 == 1 ? "" : "%+"));
        size_t size = 0;
        CHECK(pct_encoded_size(src, n, &s, SIZE_MAX, &size) == PCT_OK);
        size_t w = pct_encode(src, n, &s, plus, got);
        size_t rw = ref_encode(src, n, &s, plus, want);
        CHECK(w == size && w == rw && memcmp(got, want, w) == 0);
        /* decoding the encoding gives the input back unless '%' was kept
         * literally or a space was written as '+' */
        if (!pct_set_has(&s, '%') && (!plus || !pct_set_has(&s, ' '))) {
            size_t d = pct_decode(got, w, 0, got);
            CHECK(d == n && memcmp(got, src, n) == 0);
        }
        w = pct_decode(src, n, plus, got);
        rw = ref_decode(src, n, plus, want);
        CHECK(w == rw && memcmp(got, want, w) == 0);
        if (failures > 20)
            return;
    }
}

/* pct_decode_room against the model at every length 0..100, with and without
 * plus: escapes of every kind (ASCII, >= 0x80, ill-formed UTF-8 and cut-off
 * or malformed '%'), within exact buffers (src n bytes, dst n + room) so that
 * the sanitizer build catches a read or write past them. */
static void test_decode_room_against_model(void)
{
    static const char *const pieces[] = {"%41", "%2f", "%2B", "%C3%A9", "%E4%B8%AD", "%80", "%ff", "%C3",
                                         "%", "%4", "%G1", "%%41", "+", "a", "/", "\xC3\xA9", "\xff", "%0"};
    const size_t n_pieces = sizeof pieces / sizeof pieces[0];
    uint8_t want[110];
    for (size_t n = 0; n <= 100; n++) {
        for (int round = 0; round < 300; round++) {
            uint8_t *src = malloc(n ? n : 1), *dst = malloc(n + PCT_DECODE_ROOM);
            CHECK(src && dst);
            if (!src || !dst)
                return;
            /* pieces at random, the last cut to fit; some rounds plain ASCII */
            for (size_t i = 0; i < n;) {
                const char *p = round % 5 == 0 ? "x" : pieces[rng() % n_pieces];
                size_t len = strlen(p);
                if (len > n - i)
                    len = n - i;
                memcpy(src + i, p, len);
                i += len;
            }
            for (int plus = 0; plus <= 1; plus++) {
                int high = -1;
                size_t w = pct_decode_room(src, n, plus, dst, &high);
                size_t rw = ref_decode(src, n, plus, want);
                int rhigh = 0;
                for (size_t i = 0; i < rw; i++)
                    rhigh |= want[i] >= 0x80;
                CHECK(w == rw && memcmp(dst, want, w) == 0 && (high != 0) == rhigh);
            }
            free(src);
            free(dst);
            if (failures > 20)
                return;
        }
    }
}

/* One decode of src[0..n) by the active kernel against the model: the
 * kernel's decode apart and in place, and pct_decode_room with its high
 * flag, in exact buffers (the sanitizer build catches a byte past them). */
static void check_decode_at(const uint8_t *data, size_t n, int plus)
{
    const pct_kernel *k = pct_kernel_active();
    uint8_t *src = malloc(n ? n : 1), *dst = malloc(n + PCT_DECODE_ROOM), *want = malloc(n ? n : 1);
    CHECK(src && dst && want);
    if (src && dst && want) {
        memcpy(src, data, n);
        size_t rw = ref_decode(src, n, plus, want);
        int rhigh = 0, high = -1;
        for (size_t i = 0; i < rw; i++)
            rhigh |= want[i] >= 0x80;
        CHECK(pct_decode_room(src, n, plus, dst, &high) == rw && memcmp(dst, want, rw) == 0
              && (high != 0) == rhigh);
        memset(dst, 0xAA, n);
        CHECK(k->decode(src, n, plus, dst) == rw && memcmp(dst, want, rw) == 0);
        CHECK(k->decode(src, n, plus, src) == rw && memcmp(src, want, rw) == 0);
        /* and the check of what was decoded */
        pct_utf8_info info;
        uint32_t maxchar;
        long count = ref_utf8(want, rw, NULL, &maxchar);
        pct_utf8_check(want, rw, &info);
        CHECK(info.valid == (count >= 0) && (count < 0 || (info.nchars == (size_t)count && info.maxchar == maxchar)));
        if (k->decode_utf8_room) { /* both at once: 0 ASCII, 1 UTF-8, 2 not */
            memcpy(src, data, n);
            int state = -1;
            CHECK(k->decode_utf8_room(src, n, plus, dst, &state) == rw && memcmp(dst, want, rw) == 0
                  && state == (!rhigh ? 0 : count >= 0 ? 1 : 2));
        }
    }
    free(src);
    free(dst);
    free(want);
}

/* Decoding across the 64-byte steps of the widest kernel (and the 32- and
 * 16-byte ones): at every length 0..200, '%', '%X', '%XY' (ASCII and
 * >= 0x80), escaped and raw UTF-8 (whole and cut) and '+' at every
 * position, on ASCII, on valid UTF-8 and on text with stray bytes >= 0x80;
 * then random bytes dense in '%' and hex digits. */
static void test_decode_blocks(void)
{
    static const char *const pieces[] = {"%", "%4", "%41", "%e9", "%C3%A9", "+", "%%41", "%4%41", "%G1",
                                         "%E4%B8%AD", "%E4%B8", "\xE4\xB8\xAD", "%F0%9F%8E%89", "\xC3"};
    const size_t n_pieces = sizeof pieces / sizeof pieces[0];
    uint8_t buf[210];
    for (size_t n = 0; n <= 200; n++) {
        for (int base = 0; base < 3; base++) {
            for (size_t p = 0; p < n_pieces; p++) {
                size_t len = strlen(pieces[p]);
                for (size_t at = 0; at < n; at++) {
                    for (size_t i = 0; i < n; i++)
                        buf[i] = base == 2 ? (uint8_t)"\xE4\xB8\xAD"[i % 3] /* valid UTF-8 */
                               : base ? (uint8_t)(i % 3 ? 'b' : 0xC3 + (i & 1)) : (uint8_t)('a' + i % 26);
                    memcpy(buf + at, pieces[p], len > n - at ? n - at : len);
                    check_decode_at(buf, n, (int)(at & 1));
                }
            }
        }
        for (int round = 0; round < 40; round++) {
            static const char dense[] = "%%%%++09afAFgG/\x80\xff";
            for (size_t i = 0; i < n; i++)
                buf[i] = round % 4 == 0 ? (uint8_t)rng() : (uint8_t)dense[rng() % (sizeof dense - 1)];
            check_decode_at(buf, n, round & 1);
        }
        if (failures > 20)
            return;
    }
}

/* ---- every kernel against the scalar one -------------------------------- */

/* Sets that exercise each way a kernel tests membership: the defaults, empty,
 * full ASCII, NUL and DEL, and more ranges than the SSE2 kernel takes. */
static pct_set diff_set(int which)
{
    pct_set s;
    pct_set_clear(&s);
    switch (which) {
    case 0: s = make_set("/"); break;
    case 1: s = make_set(""); break;
    case 2: break;
    case 3:
        for (unsigned c = 0; c < 256; c++)
            pct_set_add(&s, (unsigned char)c);
        break;
    case 4: s = make_set("/ "); break;
    case 5: s = make_set("%+"); break;
    case 6:
        pct_set_add(&s, 0);
        pct_set_add(&s, 0x7F);
        pct_set_add(&s, ' ');
        break;
    default:
        for (unsigned c = 1; c < 128; c += 3)
            pct_set_add(&s, (unsigned char)c);
        break;
    }
    return s;
}
#define N_DIFF_SETS 8

/* Percent-encoded UTF-8 for decode_utf8: mostly valid sequences of every
 * length, then each kind of flaw (overlong, surrogate, past U+10FFFF,
 * truncated, stray continuation, C0/F5 leads), with ASCII and '+' between
 * them; escapes cut short where they would not fit in the n bytes left.
 * Returns the bytes written (1 to n). */
static size_t put_escaped_utf8(uint8_t *b, size_t n)
{
    static const uint8_t seqs[][4] = {
        {0x41}, {0xC3, 0xA9}, {0xE6, 0x9D, 0xB1}, {0xF0, 0x9F, 0x8E, 0x89}, {0xC2, 0x80},
        {0xDF, 0xBF}, {0xEF, 0xBF, 0xBF}, {0xF4, 0x8F, 0xBF, 0xBF}, {0xE0, 0xA0, 0x80},
        {0xC0, 0xAF}, {0xE0, 0x9F, 0xBF}, {0xED, 0xA0, 0x80}, {0xF4, 0x90, 0x80, 0x80},
        {0xF0, 0x8F, 0xBF, 0xBF}, {0xE6, 0x9D}, {0x9D}, {0xF5, 0x80, 0x80, 0x80}, {0xC1, 0xBF},
    };
    static const size_t lens[] = {1, 2, 3, 4, 2, 2, 3, 4, 3, 2, 3, 3, 4, 4, 2, 1, 4, 2};
    uint32_t r = rng();
    if (r % 4 == 0) {
        b[0] = (uint8_t)"a+Z%"[(r >> 8) % 4];
        return 1;
    }
    size_t which = (r >> 8) % 64;
    which = which < 48 ? which % 9 : which % 18; /* three in four valid */
    size_t o = 0;
    for (size_t k = 0; k < lens[which] && o < n; k++) {
        const char *hex = (r >> (16 + k)) & 1 ? "0123456789abcdef" : "0123456789ABCDEF";
        uint8_t esc[3] = {'%', (uint8_t)hex[seqs[which][k] >> 4], (uint8_t)hex[seqs[which][k] & 15]};
        for (size_t e = 0; e < 3 && o < n; e++)
            b[o++] = esc[e];
    }
    return o;
}

/* Long runs of well-formed escapes (the block decoders' input), broken now
 * and then by a malformed one ("%4", "%zz", "%"), a '+' or a literal.
 * Returns the bytes written (1 to n). */
static size_t put_escape_run(uint8_t *b, size_t n)
{
    static const char hex[] = "0123456789abcdefABCDEF";
    static const char *const odd[] = {"%4", "%zz", "%", "+", "a", "%%", "%g1"};
    uint32_t r = rng();
    const char *piece = odd[(r >> 8) % 7];
    uint8_t esc[3] = {'%', (uint8_t)hex[(r >> 12) % 22], (uint8_t)hex[(r >> 20) % 22]};
    const uint8_t *from = r % 16 ? esc : (const uint8_t *)piece;
    size_t len = r % 16 ? 3 : strlen(piece), o = 0;
    for (; o < len && o < n; o++)
        b[o] = from[o];
    return o;
}

/* Inputs: random bytes, escape-dense text, all kept, all escaped, and
 * malformed escapes placed around vector boundaries and at the very end. */
static void fill(uint8_t *b, size_t n, int style)
{
    static const char dense[] = "%%%+ aF9zZ/~\x80\xff-.";
    static const char hexy[] = "%%%%0123456789abcdefABCDEFgz+";
    for (size_t i = 0; i < n; i++) {
        switch (style) {
        case 0: b[i] = (uint8_t)rng(); break;
        case 1: b[i] = (uint8_t)dense[rng() % (sizeof dense - 1)]; break;
        case 2: b[i] = (uint8_t)"abcXYZ019-._~"[rng() % 13]; break;
        case 3: b[i] = (uint8_t)(0x80 | rng()); break;
        case 4: b[i] = (uint8_t)hexy[rng() % (sizeof hexy - 1)]; break;
        case 5: i += put_escaped_utf8(b + i, n - i) - 1; break;
        default: i += put_escape_run(b + i, n - i) - 1; break;
        }
    }
    if (n && style == 4) {
        /* a lone '%' or '%X' right at the end */
        b[n - 1] = '%';
        if (n >= 2 && (rng() & 1)) {
            b[n - 2] = '%';
            b[n - 1] = 'A';
        }
    }
}
#define N_STYLES 7

/* A copy of src ending exactly at the end of its own allocation, starting
 * `align` bytes into it. */
static uint8_t *placed(const uint8_t *src, size_t n, size_t align, uint8_t **block)
{
    *block = malloc(align + n + !(align + n));
    memcpy(*block + align, src, n);
    return *block + align;
}

/* decode_utf8 of src gives pct_decode's `want` and the reference verdict on
 * it; when valid, the code units of each width that holds it are the
 * reference code points, written into buffers of exactly nchars units. */
static void check_decode_utf8(const pct_kernel *k, const uint8_t *src, size_t n, int plus,
                              const uint8_t *want, size_t w)
{
    uint8_t *got = malloc(n + !n);
    pct_utf8_info info;
    CHECK(k == pct_kernel_active());
    CHECK(pct_decode_utf8(src, n, plus, got, &info) == w && memcmp(got, want, w) == 0);
    uint32_t *cps = malloc(sizeof *cps * (w + 1)), maxchar;
    long count = ref_utf8(want, w, cps, &maxchar);
    CHECK(info.valid == (count >= 0));
    /* pct_decode_text: the same, but Latin-1 text as its code points */
    pct_utf8_info tinfo;
    size_t tw = pct_decode_text(src, n, plus, got, &tinfo);
    CHECK(tinfo.valid == info.valid && tinfo.nchars == info.nchars && tinfo.maxchar == info.maxchar);
    if (count >= 0 && maxchar <= 0xFF) {
        CHECK(tw == (size_t)count);
        for (size_t i = 0; i < tw && i < (size_t)count; i++)
            CHECK(got[i] == cps[i]);
    } else {
        CHECK(tw == w && memcmp(got, want, w) == 0);
    }
    if (info.valid) {
        size_t m = (size_t)count;
        CHECK(info.nchars == m && info.maxchar == maxchar);
        uint32_t *u4 = malloc(sizeof *u4 * (m + !m));
        CHECK(pct_utf8_to_ucs4(want, w, u4, m) == m && memcmp(u4, cps, sizeof *u4 * m) == 0);
        if (maxchar < 0x10000) {
            uint16_t *u2 = malloc(sizeof *u2 * (m + !m));
            CHECK(pct_utf8_to_ucs2(want, w, u2, m) == m);
            for (size_t i = 0; i < m; i++)
                CHECK(u2[i] == cps[i]);
            free(u2);
        }
        if (maxchar < 0x100) {
            uint8_t *u1 = malloc(m + !m);
            CHECK(pct_utf8_to_ucs1(want, w, u1, m) == m);
            for (size_t i = 0; i < m; i++)
                CHECK(u1[i] == cps[i]);
            free(u1);
        }
        free(u4);
    } else if (w) {
        /* any input: bounded by cap, never past either buffer */
        uint32_t *u4 = malloc(sizeof *u4 * (w / 2 + 1));
        CHECK(pct_utf8_to_ucs4(want, w, u4, w / 2 + 1) <= w / 2 + 1);
        free(u4);
    }
    free(cps);
    free(got);
}

static void diff_one(const pct_kernel *k, const uint8_t *data, size_t n, size_t align,
                     const pct_set *set, int plus)
{
    const pct_kernel *ref = &pct_kernel_scalar;
    uint8_t *block;
    uint8_t *src = placed(data, n, align, &block);
    CHECK(k->span_safe(src, n, set) == ref->span_safe(src, n, set));
    CHECK(k->find_escape(src, n, plus) == ref->find_escape(src, n, plus));
    size_t escapes = ref->count_unsafe(src, n, set);
    CHECK(k->count_unsafe(src, n, set) == escapes);

    size_t size = n + 2 * escapes;
    uint8_t *want = malloc(size + !size), *got = malloc(size + !size);
    CHECK(ref->encode(src, n, set, plus, want) == size);
    CHECK(k->encode(src, n, set, plus, got) == size);
    CHECK(memcmp(got, want, size) == 0);
    free(got);
    /* with room: the same output, stores past it inside the room */
    got = malloc(3 * n + PCT_ENCODE_ROOM);
    CHECK(k->encode_room(src, n, set, plus, got) == size && memcmp(got, want, size) == 0);
    free(got);

    got = malloc(n + !n);
    size_t w = ref->decode(src, n, plus, want);
    CHECK(k->decode(src, n, plus, got) == w && memcmp(got, want, w) == 0);
    check_decode_utf8(k, src, n, plus, want, w);
    /* in place */
    CHECK(k->decode(src, n, plus, src) == w && memcmp(src, want, w) == 0);
    free(got);
    free(want);
    free(block);
}

/* ---- UTF-8 against the model: every length, every class of error ------ */

/* Code points at the edges of each UTF-8 length and of the surrogates. */
static const uint32_t edge_cps[] = {0x00, 0x41, 0x7F, 0x80, 0xE9, 0xFF, 0x100, 0x7FF, 0x800, 0x4E2D,
                                    0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F389, 0x10FFFF};
#define N_EDGE_CPS (sizeof edge_cps / sizeof edge_cps[0])

/* One ill-formed piece of each class. */
static const struct {
    const char *bytes;
    size_t len;
} bad_pieces[] = {
    {"\x80", 1}, {"\xBF", 1},                                     /* a continuation with no lead */
    {"\xC0\x80", 2}, {"\xC1\xBF", 2},                             /* overlong 2-byte forms */
    {"\xE0\x80\x80", 3}, {"\xE0\x9F\xBF", 3},                     /* overlong 3-byte forms */
    {"\xF0\x80\x80\x80", 4}, {"\xF0\x8F\xBF\xBF", 4},             /* overlong 4-byte forms */
    {"\xED\xA0\x80", 3}, {"\xED\xBF\xBF", 3},                     /* lone surrogates */
    {"\xED\xA0\xBD\xED\xB2\xA9", 6},                              /* a surrogate pair (CESU-8) */
    {"\xF4\x90\x80\x80", 4}, {"\xF5\x80\x80\x80", 4},             /* past U+10FFFF */
    {"\xF8\x88\x80\x80\x80", 5}, {"\xFE", 1}, {"\xFF", 1},        /* bytes that lead nothing */
    {"\xC3", 1}, {"\xE4\xB8", 2}, {"\xF0\x9F\x98", 3},            /* cut short (at the end: truncated) */
    {"\xC3\x41", 2}, {"\xE4\x41\xAD", 3}, {"\xF0\x9F\x41\x80", 4}, /* ASCII where a continuation is due */
    {"\xC3\xA9\xA9", 3},                                          /* one continuation too many */
};
#define N_BAD_PIECES (sizeof bad_pieces / sizeof bad_pieces[0])

/* Valid UTF-8 of exactly n bytes: edge code points up to `widest` (an
 * index into edge_cps), ASCII where the next one does not fit. */
static void valid_text(uint8_t *b, size_t n, size_t widest)
{
    size_t i = 0;
    while (i < n) {
        uint8_t tmp[4];
        size_t len = test_put_utf8(tmp, edge_cps[rng() % (widest + 1)]);
        if (len > n - i)
            len = test_put_utf8(tmp, 'a' + rng() % 26);
        memcpy(b + i, tmp, len);
        i += len;
    }
}

/* The UTF-8 at b, checked raw and decoded from its escapes (every byte
 * >= 0x80 and some ASCII escaped, with and without plus), against the model. */
static void check_utf8_text(const pct_kernel *k, const uint8_t *b, size_t n)
{
    pct_utf8_info info;
    uint32_t maxchar;
    long count = ref_utf8(b, n, NULL, &maxchar);
    pct_utf8_check(b, n, &info);
    CHECK(info.valid == (count >= 0));
    if (info.valid)
        CHECK(info.nchars == (size_t)count && info.maxchar == maxchar);
    uint8_t esc[3 * 110];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] >= 0x80 || b[i] == '%' || b[i] == '+' || rng() % 4 == 0)
            m = (size_t)(pct_put_escape(esc + m, b[i]) - esc);
        else
            esc[m++] = b[i];
    }
    /* apart and in place */
    for (int plus = 0; plus <= 1; plus++) {
        uint8_t *block;
        uint8_t *src = placed(esc, m, rng() % 32, &block);
        check_decode_utf8(k, src, m, plus, b, n);
        CHECK(pct_decode_utf8(src, m, plus, src, &info) == n && memcmp(src, b, n) == 0);
        CHECK(info.valid == (count >= 0));
        /* pct_decode_text in place: Latin-1 narrowed, anything else as UTF-8 */
        memcpy(src, esc, m);
        size_t tw = pct_decode_text(src, m, plus, src, &info);
        CHECK(info.valid == (count >= 0));
        if (count >= 0 && maxchar <= 0xFF) {
            uint8_t narrow[110];
            CHECK(tw == (size_t)count && pct_utf8_to_ucs1(b, n, narrow, tw) == tw && memcmp(src, narrow, tw) == 0);
        } else {
            CHECK(tw == n && memcmp(src, b, n) == 0);
        }
        free(block);
    }
}

static void test_utf8_against_model(const pct_kernel *k)
{
    uint8_t text[110], bad[120];
    for (size_t n = 0; n <= 100; n++) {
        for (size_t widest = 0; widest < N_EDGE_CPS; widest += 3) {
            valid_text(text, n, widest);
            check_utf8_text(k, text, n);
        }
        valid_text(text, n, N_EDGE_CPS - 1);
        /* each ill-formed piece at every place, the end included */
        for (size_t p = 0; p < N_BAD_PIECES; p++) {
            for (size_t at = 0; at <= n; at++) {
                memcpy(bad, text, at);
                memcpy(bad + at, bad_pieces[p].bytes, bad_pieces[p].len);
                memcpy(bad + at + bad_pieces[p].len, text + at, n - at);
                check_utf8_text(k, bad, n + bad_pieces[p].len);
            }
        }
        if (failures > 20)
            return;
    }
    /* U+10FFFF, the largest, decodes; one past it and the surrogates do not */
    const uint8_t top[] = {0xF4, 0x8F, 0xBF, 0xBF}, past[] = {0xF4, 0x90, 0x80, 0x80};
    pct_utf8_info info;
    pct_utf8_check(top, 4, &info);
    CHECK(info.valid && info.nchars == 1 && info.maxchar == 0x10FFFF);
    pct_utf8_check(past, 4, &info);
    CHECK(!info.valid);
}

/* pct_utf8_check at every length 0..200 (past the 64-byte steps of the
 * widest kernel): valid text of each width, then with one byte changed or
 * cut at every place, against the model. */
static void test_utf8_lengths(void)
{
    uint8_t text[200];
    for (size_t n = 0; n <= 200; n++) {
        for (size_t widest = 0; widest < N_EDGE_CPS; widest += 2) {
            valid_text(text, n, widest);
            for (size_t at = 0; at <= n; at++) {
                uint8_t saved = at < n ? text[at] : 0;
                if (at < n)
                    text[at] = (uint8_t)rng();
                pct_utf8_info info;
                uint32_t maxchar;
                size_t len = at < n ? n : n - (n > 0 && rng() % 2); /* or the last byte cut */
                long count = ref_utf8(text, len, NULL, &maxchar);
                pct_utf8_check(text, len, &info);
                CHECK(info.valid == (count >= 0)
                      && (count < 0 || (info.nchars == (size_t)count && info.maxchar == maxchar)));
                if (at < n)
                    text[at] = saved;
            }
        }
        if (failures > 20)
            return;
    }
}

static void test_kernels_against_scalar(const pct_kernel *k)
{
    uint8_t data[300];
    unsigned variant = 0;
    for (size_t n = 0; n <= 300; n++) {
        for (size_t align = 0; align < 64; align++, variant++) {
            fill(data, n, (int)(variant % N_STYLES));
            pct_set set = diff_set((int)((variant / N_STYLES) % N_DIFF_SETS));
            diff_one(k, data, n, align, &set, (int)((variant / (N_STYLES * N_DIFF_SETS)) & 1));
            if (failures > 20)
                return;
        }
    }
}

static void test_kernel_selection(void)
{
    CHECK(pct_kernel_select("no such kernel") == -1);
    CHECK(pct_kernel_select("scalar") == 0 && strcmp(pct_kernel_name(), "scalar") == 0);
    CHECK(pct_kernel_select(NULL) == 0 && strcmp(pct_kernel_name(), pct_kernel_available(0)) == 0);
    CHECK(pct_kernel_select("auto") == 0 && strcmp(pct_kernel_name(), pct_kernel_available(0)) == 0);
    size_t count = 0;
    while (pct_kernel_available(count))
        count++;
    CHECK(count >= 1 && strcmp(pct_kernel_available(count - 1), "scalar") == 0);
}

int main(void)
{
    test_kernel_selection();
    for (size_t i = 0; pct_kernel_available(i); i++) {
        const char *name = pct_kernel_available(i);
        long before = failures;
        CHECK(pct_kernel_select(name) == 0);
        test_sets();
        test_encode();
        test_encode_ucs();
        test_encode_text_against_model();
        test_decode();
        test_decode_utf8();
        test_size_limits();
        test_against_model();
        test_decode_room_against_model();
        test_decode_blocks();
        test_kernels_against_scalar(pct_kernel_active());
        test_utf8_against_model(pct_kernel_active());
        test_utf8_lengths();
        printf("kernel %-6s %s\n", name, failures == before ? "ok" : "FAILED");
    }
    printf("%ld passed, %ld failed\n", checks - failures, failures);
    return failures != 0;
}
