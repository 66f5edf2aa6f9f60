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

static int failures = 0, checks = 0;

#define CHECK(cond)                                                        \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                  \
    } while (0)

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

static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void test_against_model(void)
{
    static const char alphabet[] = "%%%+ aF9zZ/~\x80\xff";
    uint8_t src[300], got[1000], want[1000];
    for (int round = 0; round < 200000; round++) {
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
        default: b[i] = (uint8_t)hexy[rng() % (sizeof hexy - 1)]; break;
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
#define N_STYLES 5

/* A copy of src ending exactly at the end of its own allocation, starting
 * `align` bytes into it. */
static uint8_t *placed(const uint8_t *src, size_t n, size_t align, uint8_t **block)
{
    *block = malloc(align + n + !(align + n));
    memcpy(*block + align, src, n);
    return *block + align;
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

    got = malloc(n + !n);
    size_t w = ref->decode(src, n, plus, want);
    CHECK(k->decode(src, n, plus, got) == w && memcmp(got, want, w) == 0);
    /* in place */
    CHECK(k->decode(src, n, plus, src) == w && memcmp(src, want, w) == 0);
    free(got);
    free(want);
    free(block);
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
        int before = failures;
        CHECK(pct_kernel_select(name) == 0);
        test_sets();
        test_encode();
        test_encode_ucs();
        test_decode();
        test_size_limits();
        test_against_model();
        test_kernels_against_scalar(pct_kernel_active());
        printf("kernel %-6s %s\n", name, failures == before ? "ok" : "FAILED");
    }
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
