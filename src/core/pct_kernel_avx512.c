/* The AVX-512 kernel (F, BW, VL, VBMI, VBMI2), chosen at run time on CPUs
 * that have it: decoding 64 bytes a step, the digits of escapes removed by
 * one byte compress (VBMI2), and short rows and tails read and written with
 * byte masks instead of padded copies or a scalar loop. The entries it does
 * not speed up are the AVX2 kernel's. Only this file's functions are
 * compiled for AVX-512 (target attribute), so the rest of the module runs
 * on any x86-64. */
#include "pct_kernels.h"

#ifdef PCT_AVX512
#include <immintrin.h>

#define AVX512_ATTR PCT_TARGET_AVX512

static int avx512_usable(void)
{
    return pct_cpu_avx512();
}

/* The mask of the first k bytes of a vector (all 64 from k = 64 on). */
static inline AVX512_ATTR __mmask64 first_bytes(size_t k)
{
    return k >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << k) - 1;
}

/* Hex digit values of the bytes of x, and a mask of those that are not hex
 * digits: one two-table byte permute (VBMI) over 0-127, whose entry 0x80
 * marks a non-digit; bytes >= 0x80 (the index ignores their top bit) are
 * never digits. */
static inline AVX512_ATTR __m512i hex_values(__m512i x, __mmask64 *bad)
{
#define X 0x80
#define DIGITS 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
#define LETTERS 10, 11, 12, 13, 14, 15
#define NONE16 X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X
    static const uint8_t table[128] = {
        NONE16, NONE16, NONE16, DIGITS, X, X, X, X, X, X,                      /* 0x00-0x3F */
        X, LETTERS, X, X, X, X, X, X, X, X, X, NONE16,                         /* 0x40-0x5F */
        X, LETTERS, X, X, X, X, X, X, X, X, X, NONE16,                         /* 0x60-0x7F */
    };
#undef NONE16
#undef LETTERS
#undef DIGITS
#undef X
    const __m512i low = _mm512_loadu_si512((const void *)table);
    const __m512i high = _mm512_loadu_si512((const void *)(table + 64));
    const __m512i v = _mm512_permutex2var_epi8(low, x, high);
    *bad = _mm512_movepi8_mask(_mm512_or_si512(x, v));
    return v;
}

/* Decodes the n bytes at src into dst (dst may be src: each store ends at
 * or before the input consumed so far, whose loads came first). Steps of
 * 64 bytes: the '%' followed by two hex digits are found at once (loads at
 * +1 and +2 give the digits), their bytes formed from the digit values and
 * blended in, with plus '+' made ' ', the digits dropped by a compress and
 * the rest stored under a byte mask. A hex digit is never '%', so escapes
 * cannot overlap: the steps follow at a fixed stride (no load waits on the
 * step before), and only `carry` (the digits of an escape at byte 62 or 63
 * that fall in the next step, as its low bits) and the output length pass
 * from one to the next. Loads and stores are masked to the input and the
 * output: nothing is read past src + n or written past the output's end.
 * Sets *high when a byte >= 0x80 is written. */
static inline AVX512_ATTR size_t decode_masked(const uint8_t *src, size_t n, int plus, uint8_t *dst,
                                               int *high)
{
    const __m512i pct = _mm512_set1_epi8('%'), plus_sign = _mm512_set1_epi8('+');
    const __m512i space = _mm512_set1_epi8(' '), high_nibble = _mm512_set1_epi8((char)0xF0);
    __mmask64 any = 0, carry = 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 64) {
        const size_t left = n - i;
        const __mmask64 in = first_bytes(left);
        const __m512i v = _mm512_maskz_loadu_epi8(in, src + i);
        __m512i lit = v;
        if (plus)
            lit = _mm512_mask_mov_epi8(v, _mm512_cmpeq_epi8_mask(v, plus_sign), space);
        const __mmask64 pcts = _mm512_cmpeq_epi8_mask(v, pct); /* the zeros past n are no '%' */
        if (!(pcts | carry)) {
            _mm512_mask_storeu_epi8(dst + o, in, lit);
            any |= _mm512_movepi8_mask(lit);
            o += left < 64 ? left : 64;
            continue;
        }
        /* the bytes 1 and 2 after each, zero (no digit) past n */
        __mmask64 bad1, bad2;
        const __m512i hi = hex_values(_mm512_maskz_loadu_epi8(first_bytes(left - 1), src + i + 1), &bad1);
        const __m512i lo = hex_values(_mm512_maskz_loadu_epi8(left > 2 ? first_bytes(left - 2) : 0,
                                                              src + i + 2),
                                      &bad2);
        const __mmask64 esc = pcts & ~(bad1 | bad2);
        /* hi << 4 | lo; the bits the 16-bit shift moves across bytes are cleared */
        const __m512i byte = _mm512_ternarylogic_epi32(_mm512_slli_epi16(hi, 4), high_nibble, lo, 0xEA);
        const __m512i out = _mm512_mask_mov_epi8(lit, esc, byte);
        const __mmask64 keep = in & ~(esc << 1 | esc << 2 | carry);
        carry = esc >> 63 | esc >> 62;
        const size_t w = (size_t)pct_popcount64(keep);
        _mm512_mask_storeu_epi8(dst + o, first_bytes(w), _mm512_maskz_compress_epi8(keep, out));
        any |= _mm512_movepi8_mask(out) & keep;
        o += w;
    }
    *high = any != 0;
    return o;
}

/* pct_decode_room: the masked stores need none of the room. */
static AVX512_ATTR size_t avx512_decode_room(const uint8_t *src, size_t n, int plus, uint8_t *dst,
                                             int *high)
{
    return decode_masked(src, n, plus, dst, high);
}

static AVX512_ATTR size_t avx512_decode(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    int high;
    return decode_masked(src, n, plus, dst, &high);
}

/* Designated: entries added to pct_kernel later are NULL (their scalar
 * fallback) until this kernel names one. */
const pct_kernel pct_kernel_avx512 = {
    .name = "avx512",
    .span_safe = avx2_span_safe,
    .count_unsafe = avx2_count_unsafe,
    .find_escape = avx2_find_escape,
    .encode = avx2_encode,
    .encode_room = avx2_encode_room,
    .decode = avx512_decode,
    .utf8_of_ucs2 = avx2_utf8_of_ucs2,
    .escaped_size_ucs2 = avx2_escaped_size_ucs2,
    .utf8_check = avx2_utf8_check,
    .utf8_to_ucs2 = avx2_utf8_to_ucs2,
    .usable = avx512_usable,
    .decode_room = avx512_decode_room,
};

#endif /* PCT_AVX512 */
