/* Encoders of pct.h: pct_encoded_size / pct_encode on bytes (every kernel
 * against the scalar one and a reference), pct_span_safe, pct_find_escape,
 * and the UCS1/2/4 encoders. Checks: the size function gives exactly the
 * bytes written and honours its limit, the output matches a reference
 * encoder, and it decodes back to the input.
 *
 * Input: mode byte, offset byte, 2 limit bytes, 16 safe-set bytes, body. */
#include "fuzz_common.h"

/* Reference: the bytes and size of escaping code point c. */
static size_t ref_encode_cp(uint32_t c, const pct_set *keep, int plus, uint8_t *d)
{
    static const char hex[] = "0123456789ABCDEF";
    uint8_t u[4];
    size_t k;
    if (c < 0x80 && pct_set_has(keep, (uint8_t)c)) {
        if (d)
            d[0] = (plus && c == ' ') ? '+' : (uint8_t)c;
        return 1;
    }
    if (c < 0x80) {
        u[0] = (uint8_t)c;
        k = 1;
    } else if (c < 0x800) {
        u[0] = (uint8_t)(0xC0 | c >> 6);
        u[1] = (uint8_t)(0x80 | (c & 0x3F));
        k = 2;
    } else if (c < 0x10000) {
        u[0] = (uint8_t)(0xE0 | c >> 12);
        u[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
        u[2] = (uint8_t)(0x80 | (c & 0x3F));
        k = 3;
    } else {
        u[0] = (uint8_t)(0xF0 | c >> 18);
        u[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
        u[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
        u[3] = (uint8_t)(0x80 | (c & 0x3F));
        k = 4;
    }
    if (d)
        for (size_t j = 0; j < k; j++) {
            d[3 * j] = '%';
            d[3 * j + 1] = (uint8_t)hex[u[j] >> 4];
            d[3 * j + 2] = (uint8_t)hex[u[j] & 15];
        }
    return 3 * k;
}

/* Reference for the byte encoder: every byte >= 0x80 is escaped alone. */
static size_t ref_encode_bytes(const uint8_t *s, size_t n, const pct_set *keep, int plus,
                               uint8_t *d)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < 0x80) {
            o += ref_encode_cp(s[i], keep, plus, d ? d + o : NULL);
        } else {
            if (d) {
                d[o] = '%';
                d[o + 1] = (uint8_t)"0123456789ABCDEF"[s[i] >> 4];
                d[o + 2] = (uint8_t)"0123456789ABCDEF"[s[i] & 15];
            }
            o += 3;
        }
    }
    return o;
}

static void check_limit(pct_status st, size_t got, size_t want, size_t limit)
{
    if (want <= limit) {
        FUZZ_ASSERT(st == PCT_OK);
        FUZZ_ASSERT(got == want);
    } else {
        FUZZ_ASSERT(st == PCT_ERR_TOO_LARGE);
    }
}

/* Whether decoding gives the input back: not when '%' is kept (a kept "%41"
 * decodes), nor with plus when '+' is kept (it would then read as a space). */
static int decodable(const pct_set *keep, int plus)
{
    return !pct_set_has(keep, '%') && !(plus && pct_set_has(keep, '+'));
}

static void check_round_trip(const uint8_t *out, size_t len, const pct_set *keep, int plus,
                             const uint8_t *want, size_t want_len)
{
    if (!decodable(keep, plus))
        return;
    uint8_t *dec = alloc_exact(len);
    size_t m = pct_decode(out, len, plus, dec);
    FUZZ_ASSERT(m == want_len && memcmp(dec, want, m) == 0);
    free(dec);
}

static void fuzz_bytes(const uint8_t *src, size_t n, const pct_set *keep, int plus, size_t limit)
{
    size_t want = ref_encode_bytes(src, n, keep, plus, NULL);
    uint8_t *ref = alloc_exact(want);
    ref_encode_bytes(src, n, keep, plus, ref);
    for (size_t k = 0; k < fuzz_nkernels; k++) {
        fuzz_use_kernel(k);
        size_t size = 0;
        check_limit(pct_encoded_size(src, n, keep, limit, &size), size, want, limit);
        FUZZ_ASSERT(pct_encoded_size(src, n, keep, SIZE_MAX, &size) == PCT_OK && size == want);
        /* the kernels may store 4 bytes for a 3-byte escape: only into the
         * buffer, which is exact here */
        uint8_t *out = alloc_exact(want);
        FUZZ_ASSERT(pct_encode(src, n, keep, plus, out) == want);
        FUZZ_ASSERT(memcmp(out, ref, want) == 0);
        check_round_trip(out, want, keep, plus, src, n);
        free(out);

        size_t span = pct_span_safe(src, n, keep);
        FUZZ_ASSERT(span <= n);
        for (size_t i = 0; i < span; i++)
            FUZZ_ASSERT(pct_set_has(keep, src[i]));
        FUZZ_ASSERT(span == n || !pct_set_has(keep, src[span]));
        for (int p = 0; p < 2; p++) {
            size_t e = pct_find_escape(src, n, p);
            FUZZ_ASSERT(e <= n);
            for (size_t i = 0; i < e; i++)
                FUZZ_ASSERT(src[i] != '%' && !(p && src[i] == '+'));
            FUZZ_ASSERT(e == n || src[e] == '%' || (p && src[e] == '+'));
        }
    }
    free(ref);
}

/* The code points of a UCS encoder's input, for the reference. */
static void fuzz_text(const uint32_t *cps, size_t n, const void *units, int kind,
                      const pct_set *keep, int plus, size_t limit)
{
    size_t first_surrogate = n;
    for (size_t i = 0; i < n; i++)
        if (cps[i] >= 0xD800 && cps[i] <= 0xDFFF) {
            first_surrogate = i;
            break;
        }
    size_t size = 0;
    pct_status st = kind == 1 ? pct_encoded_size_ucs1(units, n, keep, limit, &size)
                    : kind == 2 ? pct_encoded_size_ucs2(units, n, keep, limit, &size)
                                : pct_encoded_size_ucs4(units, n, keep, limit, &size);
    size_t want = 0;
    for (size_t i = 0; i < first_surrogate; i++)
        want += ref_encode_cp(cps[i], keep, plus, NULL);
    if (first_surrogate < n) {
        /* the scan stops at the surrogate, or at the limit before it */
        if (want <= limit)
            FUZZ_ASSERT(st == PCT_ERR_SURROGATE && size == first_surrogate);
        else
            FUZZ_ASSERT(st == PCT_ERR_TOO_LARGE);
        return;
    }
    check_limit(st, size, want, limit);
    uint8_t *ref = alloc_exact(want), *out = alloc_exact(want);
    for (size_t i = 0, o = 0; i < n; i++)
        o += ref_encode_cp(cps[i], keep, plus, ref + o);
    size_t got = kind == 1 ? pct_encode_ucs1(units, n, keep, plus, out)
                 : kind == 2 ? pct_encode_ucs2(units, n, keep, plus, out)
                             : pct_encode_ucs4(units, n, keep, plus, out);
    FUZZ_ASSERT(got == want && memcmp(out, ref, want) == 0);
    for (size_t i = 0; i < want; i++)
        FUZZ_ASSERT(out[i] < 0x80);

    /* decode, check as UTF-8 and widen: the code points come back */
    if (decodable(keep, plus)) {
        uint8_t *dec = alloc_exact(want);
        pct_utf8_info info;
        size_t m = pct_decode_utf8(out, want, plus, dec, &info);
        FUZZ_ASSERT(info.valid && info.nchars == n);
        uint32_t *back = alloc_exact(n * sizeof *back);
        FUZZ_ASSERT(pct_utf8_to_ucs4(dec, m, back, n) == n);
        FUZZ_ASSERT(n == 0 || memcmp(back, cps, n * sizeof *back) == 0);
        free(back);
        free(dec);
    }
    free(ref);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_list_kernels();
    fuzz_input in = {data, size};
    uint8_t mode = take_byte(&in);
    uint8_t offset = take_byte(&in);
    size_t limit = (size_t)take_byte(&in) << 8 | take_byte(&in);
    pct_set keep;
    take_set(&in, &keep);
    int plus = mode & 1;
    static const int kinds[4] = {1, 2, 4, 1};
    int kind = kinds[mode >> 1 & 3];
    if (!(mode & 8))
        limit = SIZE_MAX - limit; /* near the top: no overflow in the sums */

    /* bytes, at a fuzzed alignment inside an exact buffer */
    uint8_t *buf = dup_exact(in.data, in.size);
    size_t off = in.size ? offset % (in.size + 1) : 0;
    fuzz_bytes(buf + off, in.size - off, &keep, plus, limit);
    free(buf);

    /* mostly text without surrogates */
    uint32_t *cps = alloc_exact((in.size / (size_t)kind) * sizeof *cps);
    size_t n;
    void *units = take_units(&in, kind, mode & 16, cps, &n);
    fuzz_text(cps, n, units, kind, &keep, plus, limit);
    free(units);
    free(cps);
    return 0;
}
