/* Every size computation of the core at the edge of size_t: lengths and
 * limits near SIZE_MAX and near a PY_SSIZE_T_MAX-like SIZE_MAX / 2 give
 * PCT_ERR_TOO_LARGE (or a size that fits), never a wrapped size.
 *
 * A huge length is passed with a small buffer only to a function that must
 * fail before reading past that buffer (the limit is smaller than the length,
 * or the limit is passed within the first units); the sanitized build of this
 * test proves that it does. Elsewhere the limit forces the overflow branch:
 * one byte short of the exact size fails, the exact size passes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pct.h"
#include "pct_ecma.h"
#include "pct_uri.h"

#define SSIZE_LIKE_MAX (SIZE_MAX / 2) /* what PY_SSIZE_T_MAX is as a size_t */

static const size_t HUGE_LIMITS[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 2, SIZE_MAX - 3,
                                     SSIZE_LIKE_MAX, SSIZE_LIKE_MAX + 1, SSIZE_LIKE_MAX - 1};
#define N_HUGE (sizeof HUGE_LIMITS / sizeof HUGE_LIMITS[0])

static pct_set unreserved(void)
{
    pct_set s;
    pct_set_clear(&s);
    pct_set_add_unreserved(&s);
    return s;
}

/* pct_encoded_size: n + 2 * escapes against the limit. */
static void test_encoded_size(void)
{
    pct_set keep = unreserved();
    const uint8_t text[] = "a b\xff/c"; /* 3 kept, 3 escaped: 12 bytes */
    size_t size = 0;
    for (size_t k = 0; k < N_HUGE; k++)
        CHECK(pct_encoded_size(text, 6, &keep, HUGE_LIMITS[k], &size) == PCT_OK && size == 12);
    CHECK(pct_encoded_size(text, 6, &keep, 12, &size) == PCT_OK && size == 12);
    CHECK(pct_encoded_size(text, 6, &keep, 11, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size(text, 6, &keep, 5, &size) == PCT_ERR_TOO_LARGE); /* n > limit */
    CHECK(pct_encoded_size(text, 6, &keep, 0, &size) == PCT_ERR_TOO_LARGE);
    /* A length past the limit fails before the input is read. */
    CHECK(pct_encoded_size(text, SIZE_MAX, &keep, SIZE_MAX - 1, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size(text, SSIZE_LIKE_MAX + 1, &keep, SSIZE_LIKE_MAX, &size) == PCT_ERR_TOO_LARGE);
    /* limit - n is odd: one escape (2 more bytes) does not fit in 1 */
    CHECK(pct_encoded_size(text, 6, &keep, 13, &size) == PCT_OK && size == 12);
    CHECK(pct_encoded_size((const uint8_t *)" ", 1, &keep, 2, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size((const uint8_t *)" ", 1, &keep, 3, &size) == PCT_OK && size == 3);
}

/* The UCS encoders grow the size per code point: 1, 3, 6, 9 or 12 bytes. */
static void test_encoded_size_ucs(void)
{
    pct_set keep = unreserved();
    size_t size = 0;
    uint8_t u1[16];
    uint16_t u2[16];
    uint32_t u4[16];
    for (int i = 0; i < 16; i++) {
        u1[i] = 0xE9;    /* 6 bytes out each */
        u2[i] = 0x4E2D;  /* 9 */
        u4[i] = 0x1F600; /* 12 */
    }
    for (size_t k = 0; k < N_HUGE; k++) {
        CHECK(pct_encoded_size_ucs1(u1, 16, &keep, HUGE_LIMITS[k], &size) == PCT_OK && size == 96);
        CHECK(pct_encoded_size_ucs2(u2, 16, &keep, HUGE_LIMITS[k], &size) == PCT_OK && size == 144);
        CHECK(pct_encoded_size_ucs4(u4, 16, &keep, HUGE_LIMITS[k], &size) == PCT_OK && size == 192);
    }
    CHECK(pct_encoded_size_ucs1(u1, 16, &keep, 96, &size) == PCT_OK && size == 96);
    CHECK(pct_encoded_size_ucs1(u1, 16, &keep, 95, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size_ucs2(u2, 16, &keep, 144, &size) == PCT_OK && size == 144);
    CHECK(pct_encoded_size_ucs2(u2, 16, &keep, 143, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size_ucs4(u4, 16, &keep, 192, &size) == PCT_OK && size == 192);
    CHECK(pct_encoded_size_ucs4(u4, 16, &keep, 191, &size) == PCT_ERR_TOO_LARGE);
    /* A huge length: the limit is passed within the 16 units held (the 9th
     * unit passes 8 * 12 = 96 < 100), so nothing past them is read. */
    CHECK(pct_encoded_size_ucs1(u1, SIZE_MAX, &keep, 90, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size_ucs2(u2, SIZE_MAX, &keep, 130, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size_ucs4(u4, SIZE_MAX, &keep, 100, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_encoded_size_ucs4(u4, SSIZE_LIKE_MAX + 1, &keep, 0, &size) == PCT_ERR_TOO_LARGE);
}

/* requote: n + 2 * (bytes to escape); valid escapes keep their length. */
static void test_requoted_size(void)
{
    const uint8_t uri[] = "http://a/b c%zz%41\xc3\xa9"; /* ' ', '%', 0xC3, 0xA9 escaped */
    size_t n = sizeof uri - 1, want = n + 2 * 4, size = 0;
    for (size_t k = 0; k < N_HUGE; k++)
        CHECK(pct_requoted_size(uri, n, HUGE_LIMITS[k], &size) == PCT_OK && size == want);
    CHECK(pct_requoted_size(uri, n, want, &size) == PCT_OK && size == want);
    CHECK(pct_requoted_size(uri, n, want - 1, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_requoted_size(uri, n, n - 1, &size) == PCT_ERR_TOO_LARGE); /* n > limit */
    CHECK(pct_requoted_size(uri, n, 0, &size) == PCT_ERR_TOO_LARGE);
}

/* normalize's bound: 3 * (n + host_len) + 3, computed without wrapping. */
static void test_uri_size_bound(void)
{
    size_t bound = 0;
    const size_t top = (SIZE_MAX - 3) / 3; /* the largest n + host_len that fits */
    CHECK(pct_uri_size_bound(top, 0, SIZE_MAX, &bound) == PCT_OK && bound == 3 * top + 3);
    CHECK(pct_uri_size_bound(top - 5, 5, SIZE_MAX, &bound) == PCT_OK && bound == 3 * top + 3);
    CHECK(pct_uri_size_bound(top - 5, 6, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_uri_size_bound(0, top + 1, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_uri_size_bound(SIZE_MAX, SIZE_MAX, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_uri_size_bound(SIZE_MAX, 0, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_uri_size_bound(0, SIZE_MAX, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    /* n + host_len would wrap to a small number */
    CHECK(pct_uri_size_bound(SIZE_MAX - 1, 2, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    const size_t ptop = (SSIZE_LIKE_MAX - 3) / 3;
    CHECK(pct_uri_size_bound(ptop, 0, SSIZE_LIKE_MAX, &bound) == PCT_OK && bound <= SSIZE_LIKE_MAX);
    CHECK(pct_uri_size_bound(ptop + 1, 0, SSIZE_LIKE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_uri_size_bound(ptop, 1, SSIZE_LIKE_MAX, &bound) == PCT_ERR_TOO_LARGE);
    /* limits below the 3 bytes of an empty URI's bound */
    for (size_t limit = 0; limit < 3; limit++) {
        CHECK(pct_uri_size_bound(0, 0, limit, &bound) == PCT_ERR_TOO_LARGE);
        CHECK(pct_uri_size_bound(SIZE_MAX, 0, limit, &bound) == PCT_ERR_TOO_LARGE);
    }
    CHECK(pct_uri_size_bound(0, 0, 3, &bound) == PCT_OK && bound == 3);
    CHECK(pct_uri_size_bound(1, 0, 5, &bound) == PCT_ERR_TOO_LARGE);
    CHECK(pct_uri_size_bound(1, 0, 6, &bound) == PCT_OK && bound == 6);
}

/* js escape: 1, 3, 6 or 12 bytes per code point. */
static void test_js_escaped_size(void)
{
    static const uint8_t k1[4] = {'a', 0xE9, 'b', ' '};      /* 1 + 3 + 1 + 3 = 8 */
    static const uint16_t k2[4] = {'a', 0x4E2D, 0xD800, 'b'}; /* 1 + 6 + 6 + 1 = 14 */
    static const uint32_t k4[4] = {0x1F600, 'a', 0x10FFFF, 0}; /* 12 + 1 + 12 + 3 = 28 */
    const pct_text texts[3] = {{k1, 4, 1}, {k2, 4, 2}, {k4, 4, 4}};
    const size_t want[3] = {8, 14, 28};
    size_t size = 0;
    for (int t = 0; t < 3; t++) {
        for (size_t k = 0; k < N_HUGE; k++)
            CHECK(pct_js_escaped_size(texts[t], HUGE_LIMITS[k], &size) == PCT_OK && size == want[t]);
        CHECK(pct_js_escaped_size(texts[t], want[t], &size) == PCT_OK && size == want[t]);
        CHECK(pct_js_escaped_size(texts[t], want[t] - 1, &size) == PCT_ERR_TOO_LARGE);
        CHECK(pct_js_escaped_size(texts[t], 0, &size) == PCT_ERR_TOO_LARGE);
        /* A huge length whose first units already pass the limit. */
        pct_text huge = texts[t];
        huge.len = SIZE_MAX;
        CHECK(pct_js_escaped_size(huge, want[t] - 1, &size) == PCT_ERR_TOO_LARGE);
        huge.len = SSIZE_LIKE_MAX + 1;
        CHECK(pct_js_escaped_size(huge, 2, &size) == PCT_ERR_TOO_LARGE);
    }
}

/* The UTF-8 writers never write past `cap` units, whatever the input says;
 * the decoders never write more bytes than they read. Each output buffer is
 * allocated at its exact size so that the sanitizer sees an overrun. */
static void test_utf8_caps(void)
{
    const uint8_t utf8[] = "ab\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80xyz"; /* 8 code points */
    size_t n = sizeof utf8 - 1;
    for (size_t cap = 0; cap <= 9; cap++) {
        uint8_t *d1 = malloc(cap ? cap : 1);
        uint16_t *d2 = malloc((cap ? cap : 1) * sizeof *d2);
        uint32_t *d4 = malloc((cap ? cap : 1) * sizeof *d4);
        CHECK(d1 && d2 && d4);
        if (d1 && d2 && d4) {
            size_t want = cap < 8 ? cap : 8;
            CHECK(pct_utf8_to_ucs1(utf8, n, d1, cap) == want);
            CHECK(pct_utf8_to_ucs2(utf8, n, d2, cap) == want);
            CHECK(pct_utf8_to_ucs4(utf8, n, d4, cap) == want);
        }
        free(d1);
        free(d2);
        free(d4);
    }
    /* malformed UTF-8 (a lead byte at the end, stray continuations) stays in bounds */
    const uint8_t bad[] = "\x80\x80\xe4\xb8\xf0";
    uint32_t *d4 = malloc(5 * sizeof *d4);
    CHECK(d4 != NULL);
    if (d4)
        CHECK(pct_utf8_to_ucs4(bad, 5, d4, 5) <= 5);
    free(d4);

    const uint8_t esc[] = "%E4%B8%AD%zz%4";
    size_t m = sizeof esc - 1;
    uint8_t *dst = malloc(m);
    CHECK(dst != NULL);
    if (dst) {
        pct_utf8_info info;
        CHECK(pct_decode(esc, m, 1, dst) <= m);
        CHECK(pct_decode_utf8(esc, m, 0, dst, &info) <= m);
        /* U+4E2D, then the malformed escapes as they are */
        CHECK(info.valid && info.nchars == 6 && info.maxchar == 0xFFFF);
    }
    free(dst);
}

int main(void)
{
    test_encoded_size();
    test_encoded_size_ucs();
    test_requoted_size();
    test_uri_size_bound();
    test_js_escaped_size();
    test_utf8_caps();
    printf("test_limits: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
