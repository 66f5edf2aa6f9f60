/* The AVX-512 kernel (F, BW, VL, VBMI, VBMI2), chosen at run time on CPUs
 * that have it: decoding 64 bytes a step, the digits of escapes removed by
 * one byte compress (VBMI2), and short rows and tails read and written with
 * byte masks instead of padded copies or a scalar loop. The entries it does
 * not speed up are the AVX2 kernel's. Only this file's functions are
 * compiled for AVX-512 (target attribute), so the rest of the module runs
 * on any x86-64. */
#include "pct_kernels.h"
#include "pct_utf8_lookup.h"

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

/* Every entry of this kernel calls this on its way out, back to code
 * built for any x86-64. The compiler's VZEROUPPER clears the upper halves
 * of ZMM0-15 alone; one of ZMM16-31 left nonzero (the compiler uses them
 * where it runs out of the first sixteen) keeps the CPU in the state in
 * which each legacy SSE instruction of the caller pays a transition:
 * about 20 ns a row measured here. Zeroing an XMM register by an EVEX
 * instruction clears its whole ZMM register. */
static inline AVX512_ATTR void clear_high_registers(void)
{
    __asm__ volatile("vpxord %%xmm16, %%xmm16, %%xmm16\n\tvpxord %%xmm17, %%xmm17, %%xmm17\n\t"
                     "vpxord %%xmm18, %%xmm18, %%xmm18\n\tvpxord %%xmm19, %%xmm19, %%xmm19\n\t"
                     "vpxord %%xmm20, %%xmm20, %%xmm20\n\tvpxord %%xmm21, %%xmm21, %%xmm21\n\t"
                     "vpxord %%xmm22, %%xmm22, %%xmm22\n\tvpxord %%xmm23, %%xmm23, %%xmm23\n\t"
                     "vpxord %%xmm24, %%xmm24, %%xmm24\n\tvpxord %%xmm25, %%xmm25, %%xmm25\n\t"
                     "vpxord %%xmm26, %%xmm26, %%xmm26\n\tvpxord %%xmm27, %%xmm27, %%xmm27\n\t"
                     "vpxord %%xmm28, %%xmm28, %%xmm28\n\tvpxord %%xmm29, %%xmm29, %%xmm29\n\t"
                     "vpxord %%xmm30, %%xmm30, %%xmm30\n\tvpxord %%xmm31, %%xmm31, %%xmm31\n\t"
                     "vzeroupper"
                     :
                     :
                     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                       "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18",
                       "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
                       "xmm28", "xmm29", "xmm30", "xmm31");
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
 * the rest stored: whole where dst has room or the step is (o <= i: the
 * store ends inside the bytes already loaded), else under a byte mask. A hex
 * digit is never '%', so escapes cannot overlap: the steps follow at a
 * fixed stride (no load waits on the step before), and only `carry` (the
 * digits of an escape at byte 62 or 63 that fall in the next step, as its
 * low bits) and the output length pass from one to the next. Loads are
 * masked to the input (nothing is read past src + n), and so are stores
 * without room. Sets *high when a byte >= 0x80 is written. */
static inline AVX512_ATTR __m512i u8_block_errors(__m512i input, __m512i prev);
static inline AVX512_ATTR __m512i u8_incomplete(void);

/* The UTF-8 check of a decode's output as it is written (`check`): each
 * step's w bytes (zeros after them) against the three written before
 * them, which `tail` holds in its last lanes; errors past the w bytes are
 * left out (the bytes after come in the next step). Only once a byte >=
 * 0x80 has been written. */
static inline AVX512_ATTR void check_step(__m512i written, size_t w, __mmask64 any, __m512i *tail,
                                          __m512i *errors)
{
    const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
                                         47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
                                         31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                         15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    if (any)
        *errors = _mm512_or_si512(*errors, _mm512_maskz_mov_epi8(first_bytes(w), u8_block_errors(written, *tail)));
    /* the tail after these w bytes: lane k takes byte w + k of tail ++ written */
    *tail = _mm512_permutex2var_epi8(*tail, _mm512_add_epi8(iota, _mm512_set1_epi8((char)w)), written);
}

static PCT_ALWAYS_INLINE AVX512_ATTR size_t decode_masked(const uint8_t *src, size_t n, int plus,
                                                          uint8_t *dst, int *high, int room, int check)
{
    const __m512i pct = _mm512_set1_epi8('%'), plus_sign = _mm512_set1_epi8('+');
    const __m512i space = _mm512_set1_epi8(' '), high_nibble = _mm512_set1_epi8((char)0xF0);
    __mmask64 any = 0, carry = 0;
    __m512i tail = _mm512_setzero_si512(), errors = tail;
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
            if (room || left >= 64)
                _mm512_storeu_si512((void *)(dst + o), lit);
            else
                _mm512_mask_storeu_epi8(dst + o, in, lit);
            any |= _mm512_movepi8_mask(lit);
            if (check)
                check_step(lit, left < 64 ? left : 64, any, &tail, &errors);
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
        const __m512i packed = _mm512_maskz_compress_epi8(keep, out);
        if (room || left >= 64)
            _mm512_storeu_si512((void *)(dst + o), packed);
        else
            _mm512_mask_storeu_epi8(dst + o, first_bytes(w), packed);
        any |= _mm512_movepi8_mask(out) & keep;
        if (check)
            check_step(packed, w, any, &tail, &errors);
        o += w;
    }
    *high = any != 0;
    if (check && any) { /* 2: not UTF-8, a sequence at the end left open included */
        errors = _mm512_or_si512(errors, _mm512_subs_epu8(tail, u8_incomplete()));
        *high = _mm512_test_epi8_mask(errors, errors) ? 2 : 1;
    }
    return o;
}

/* pct_decode_room: whole vectors stored, the bytes past the output's end
 * (up to 64, as o + w <= i + 64) into the room. */
static AVX512_ATTR size_t avx512_decode_room(const uint8_t *src, size_t n, int plus, uint8_t *dst,
                                             int *high)
{
    const size_t o = decode_masked(src, n, plus, dst, high, 1, 0);
    clear_high_registers();
    return o;
}

/* decode_room with the UTF-8 check of what it writes (decode_utf8_room):
 * the check never loads the output back, which waits for the compressed
 * stores to reach the cache. */
static AVX512_ATTR size_t avx512_decode_utf8_room(const uint8_t *src, size_t n, int plus, uint8_t *dst,
                                                  int *state)
{
    const size_t o = decode_masked(src, n, plus, dst, state, 1, 1);
    clear_high_registers();
    return o;
}

static AVX512_ATTR size_t avx512_decode(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    int high;
    const size_t o = decode_masked(src, n, plus, dst, &high, 0, 0);
    clear_high_registers();
    return o;
}

/* ---- encoding: each 16 bytes spread to 48 places (byte k to 3k, 3k+1,
 * 3k+2 by one two-table byte permute), where 3k takes the byte as written
 * or '%' and the two after it its hex digits; a compress then keeps, of a
 * kept byte, its first place alone. */

/* Bits 0, 3, 6, ... 45: the first place of each of 16 bytes. */
#define FIRST_PLACES 0x249249249249u

/* For the 16 bytes from 16j on: where each of the 48 places comes from, the
 * bytes as written (0-63) or the second table, which holds the high digits
 * of 32 bytes (16j & 16 on) and then their low ones (64-127). */
#define PLACES3(j, k) 16 * (j) + (k), 64 + 16 * ((j) & 1) + (k), 96 + 16 * ((j) & 1) + (k)
#define PLACES(j)                                                                                  \
    {PLACES3(j, 0), PLACES3(j, 1), PLACES3(j, 2), PLACES3(j, 3), PLACES3(j, 4), PLACES3(j, 5),     \
     PLACES3(j, 6), PLACES3(j, 7), PLACES3(j, 8), PLACES3(j, 9), PLACES3(j, 10), PLACES3(j, 11),   \
     PLACES3(j, 12), PLACES3(j, 13), PLACES3(j, 14), PLACES3(j, 15)}
static const uint8_t places[4][64] = {PLACES(0), PLACES(1), PLACES(2), PLACES(3)};
#undef PLACES
#undef PLACES3

/* The output of the 16 bytes from 16j on, of which `unsafe` (16 bits) are
 * escaped and `real` (16 bits) are input: `written` holds the bytes as
 * written ('%' where escaped), `digits` the digits of the 32 from 16j & 16
 * on. Stored at d as a whole vector (64 bytes) where dst has room or the
 * output of the `after` input bytes still to come covers the part past
 * this output (it is at least as long as they are), else under a byte
 * mask. Returns the bytes of output. */
static inline AVX512_ATTR size_t encode16(__m512i written, __m512i digits, unsigned j, uint64_t unsafe,
                                          uint64_t real, uint8_t *d, int room, size_t after)
{
    const __m512i out = _mm512_permutex2var_epi8(written, _mm512_loadu_si512((const void *)places[j]), digits);
    if (unsafe == 0xFFFFu) {
        /* all escaped (text past ASCII): the 48 places in order, no compress */
        if (room || after >= 64 - 48)
            _mm512_storeu_si512((void *)d, out);
        else
            _mm512_mask_storeu_epi8(d, first_bytes(48), out);
        return 48;
    }
    const uint64_t pcts = _pdep_u64(unsafe, FIRST_PLACES);
    const uint64_t keep = _pdep_u64(real, FIRST_PLACES) | pcts << 1 | pcts << 2;
    const size_t w = (size_t)pct_popcount64(keep);
    const __m512i packed = _mm512_maskz_compress_epi8((__mmask64)keep, out);
    if (room || after + w >= 64)
        _mm512_storeu_si512((void *)d, packed);
    else
        _mm512_mask_storeu_epi8(d, first_bytes(w), packed);
    return w;
}

/* pct_encode 64 bytes a step: which bytes are unsafe by the two-nibble
 * lookup of the set (as the AVX2 kernel; bytes >= 0x80 never in it), a
 * step with none stored whole, the others 16 bytes at a time by encode16
 * from the hex digits of the step's 64 bytes. The last step is a masked
 * load. Stores are whole vectors where dst has room (3n + PCT_ENCODE_ROOM
 * bytes) or the output still to come covers them, else under a byte mask. */
/* 65: the literal's NUL too (GCC 15's -Wextra), though no load reads it. */
static const char hex_upper64[65] = "0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF";

/* The high and the low hex digits of the 64 bytes of v, as encode16 takes
 * them: of bytes 0-31 (digits[0]), then of 32-63 (digits[1]). */
static inline AVX512_ATTR void hex_digits_of(__m512i v, __m512i digits[2])
{
    const __m512i nibble = _mm512_set1_epi8(0x0F), hex = _mm512_loadu_si512((const void *)hex_upper64);
    const __m512i hi = _mm512_permutexvar_epi8(_mm512_and_si512(_mm512_srli_epi16(v, 4), nibble), hex);
    const __m512i lo = _mm512_permutexvar_epi8(_mm512_and_si512(v, nibble), hex);
    digits[0] = _mm512_shuffle_i64x2(hi, lo, _MM_SHUFFLE(1, 0, 1, 0));
    digits[1] = _mm512_shuffle_i64x2(hi, lo, _MM_SHUFFLE(3, 2, 3, 2));
}

static PCT_ALWAYS_INLINE AVX512_ATTR size_t encode_masked(const uint8_t *src, size_t n, const pct_set *keep,
                                                          int plus, uint8_t *dst, int room)
{
    const __m512i lut = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)keep->nibbles));
    const __m512i high_bit = _mm512_broadcast_i32x4(_mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0));
    const __m512i nibble = _mm512_set1_epi8(0x0F);
    const __m512i space = _mm512_set1_epi8(' '), plus_sign = _mm512_set1_epi8('+'), pct = _mm512_set1_epi8('%');
    size_t o = 0;
    for (size_t i = 0; i < n; i += 64) {
        const size_t left = n - i, step = left < 64 ? left : 64;
        const __mmask64 in = first_bytes(left);
        const __m512i v = _mm512_maskz_loadu_epi8(in, src + i);
        const __m512i high = _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble), low = _mm512_and_si512(v, nibble);
        const __m512i rows = _mm512_shuffle_epi8(lut, low);
        const __m512i cols = _mm512_shuffle_epi8(high_bit, high);
        const uint64_t unsafe = (uint64_t)_mm512_testn_epi8_mask(rows, cols) & in;
        __m512i lit = v;
        if (plus) /* kept spaces as '+' */
            lit = _mm512_mask_mov_epi8(v, _mm512_cmpeq_epi8_mask(v, space) & ~unsafe, plus_sign);
        if (!unsafe) {
            if (room || left >= 64)
                _mm512_storeu_si512((void *)(dst + o), lit);
            else
                _mm512_mask_storeu_epi8(dst + o, in, lit);
            o += step;
            continue;
        }
        const __m512i written = _mm512_mask_mov_epi8(lit, (__mmask64)unsafe, pct);
        __m512i digits[2];
        hex_digits_of(v, digits);
        for (unsigned j = 0; 16 * j < step; j++) {
            const size_t after = left > 16 * j + 16 ? left - 16 * j - 16 : 0;
            o += encode16(written, digits[j >> 1], j, unsafe >> 16 * j & 0xFFFFu, in >> 16 * j & 0xFFFFu,
                          dst + o, room, after);
        }
    }
    return o;
}

static AVX512_ATTR size_t avx512_encode(const uint8_t *src, size_t n, const pct_set *keep, int plus,
                                        uint8_t *dst)
{
    const size_t o = encode_masked(src, n, keep, plus, dst, 0);
    clear_high_registers();
    return o;
}

static AVX512_ATTR size_t avx512_encode_room(const uint8_t *src, size_t n, const pct_set *keep, int plus,
                                             uint8_t *dst)
{
    const size_t o = encode_masked(src, n, keep, plus, dst, 1);
    clear_high_registers();
    return o;
}

/* ---- the UTF-8 check: the AVX2 kernel's method (pct_utf8_lookup.h) on
 * 64 bytes a step, the last step (all of a short row) by a masked load
 * whose zeros past the end are ASCII: a sequence the input leaves open is
 * then followed by ASCII, an error. */

/* The bytes N places before each byte of `input`, `prev` the vector before
 * it: one two-table byte permute (VBMI) across the whole vector. */
static inline AVX512_ATTR __m512i u8_prev(__m512i input, __m512i prev, unsigned n)
{
    const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
                                         47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
                                         31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                         15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    /* index k - n: from k = n on a byte of input, below it (k - n + 128,
     * bit 6 set) one of prev's last n */
    return _mm512_permutex2var_epi8(input, _mm512_sub_epi8(iota, _mm512_set1_epi8((char)n)), prev);
}

static inline AVX512_ATTR __m512i u8_table(const uint8_t table[16])
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)table));
}

/* The error bits of the 64 bytes `input`, after `prev`. */
static inline AVX512_ATTR __m512i u8_block_errors(__m512i input, __m512i prev)
{
    const __m512i nibble = _mm512_set1_epi8(0x0F);
    const __m512i prev1 = u8_prev(input, prev, 1);
    const __m512i byte_1_high = _mm512_shuffle_epi8(u8_table(pct_u8_byte_1_high),
                                                    _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble));
    const __m512i byte_1_low = _mm512_shuffle_epi8(u8_table(pct_u8_byte_1_low), _mm512_and_si512(prev1, nibble));
    const __m512i byte_2_high = _mm512_shuffle_epi8(u8_table(pct_u8_byte_2_high),
                                                    _mm512_and_si512(_mm512_srli_epi16(input, 4), nibble));
    /* 0x80 where a byte must continue a 3- or 4-byte sequence: 2 after an
     * E0-FF or 3 after an F0-FF */
    const __m512i third = _mm512_subs_epu8(u8_prev(input, prev, 2), _mm512_set1_epi8((char)(0xE0 - 0x80)));
    const __m512i fourth = _mm512_subs_epu8(u8_prev(input, prev, 3), _mm512_set1_epi8((char)(0xF0 - 0x80)));
    const __m512i must23 = _mm512_and_si512(_mm512_or_si512(third, fourth), _mm512_set1_epi8((char)0x80));
    /* (byte_1_high & byte_1_low & byte_2_high) ^ must23 */
    return _mm512_xor_si512(_mm512_ternarylogic_epi32(byte_1_high, byte_1_low, byte_2_high, 0x80), must23);
}

/* Saturating-subtracted from a vector, nonzero where its last bytes start
 * a sequence it does not end. */
static inline AVX512_ATTR __m512i u8_incomplete(void)
{
    return _mm512_set_epi8(
        (char)(0xC0 - 1), (char)(0xE0 - 1), (char)(0xF0 - 1), -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
}

static AVX512_ATTR void avx512_utf8_check(const uint8_t *src, size_t n, pct_utf8_info *info)
{
    const __m512i below_c0 = _mm512_set1_epi8(-64), incomplete = u8_incomplete();
    __m512i prev = _mm512_setzero_si512(), errors = _mm512_setzero_si512(), pending = errors;
    __mmask64 high = 0, wide = 0, astral = 0; /* bytes >= 0x80, >= 0xC4, >= 0xF0 seen */
    size_t cont = 0;
    for (size_t i = 0; i < n; i += 64) {
        const __m512i v = _mm512_maskz_loadu_epi8(first_bytes(n - i), src + i);
        const __mmask64 h = _mm512_movepi8_mask(v);
        if (!h) {
            /* ASCII: an error only if the vector before left a sequence open */
            errors = _mm512_or_si512(errors, pending);
            pending = _mm512_setzero_si512();
        } else {
            errors = _mm512_or_si512(errors, u8_block_errors(v, prev));
            pending = _mm512_subs_epu8(v, incomplete);
            cont += (size_t)pct_popcount64(_mm512_cmplt_epi8_mask(v, below_c0)); /* 80-BF */
            high |= h;
            wide |= _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8((char)0xC4));
            astral |= _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8((char)0xF0));
        }
        prev = v;
    }
    /* input that ends with a whole vector: a sequence it leaves open */
    errors = _mm512_or_si512(errors, pending);
    const int valid = !_mm512_test_epi8_mask(errors, errors);
    clear_high_registers();
    /* as pct_utf8_maxchar of the largest byte */
    info->valid = valid;
    info->maxchar = !valid ? 0 : astral ? 0x10FFFF : wide ? 0xFFFF : high ? 0xFF : 0;
    info->nchars = valid ? n - cont : 0;
}

/* The class masks of pct_uri_scan, 64 bytes a step: each delimiter one
 * compare straight into a mask register, the bytes to change (not in
 * `kept`, which holds no byte >= 0x80) one two-table byte permute (VBMI)
 * of the set's bits spread to bytes. Loads are masked to the row (the
 * zeros past its end are in no class), so no padded copy; each vector is
 * stored whole into the copy, whose 32 zero bytes after the row are
 * stored first. */
static AVX512_ATTR void avx512_uri_scan(const uint8_t *src, size_t n, const pct_set *kept,
                                        pct_uri_scan *scan)
{
    static const char chars[PCT_SCAN_DOT + 1] = {':', '/', '?', '#', '@', '%', '.'};
    const uint64_t low_bits = kept->bits[0] | (uint64_t)kept->bits[1] << 32;
    const uint64_t high_bits = kept->bits[2] | (uint64_t)kept->bits[3] << 32;
    /* 0xFF in the bytes of the table not kept: OR'd with the byte, its top bit is WORK */
    const __m512i change_lo = _mm512_movm_epi8(~low_bits), change_hi = _mm512_movm_epi8(~high_bits);
    _mm256_storeu_si256((__m256i *)(void *)(scan->bytes + n), _mm256_setzero_si256());
    for (size_t at = 0, w = 0; at < n; at += 64, w++) {
        const __mmask64 in = first_bytes(n - at);
        const __m512i v = _mm512_maskz_loadu_epi8(in, src + at);
        _mm512_storeu_si512((void *)(scan->bytes + at), v);
        for (int c = 0; c <= PCT_SCAN_DOT; c++)
            scan->m[c][w] = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(chars[c]));
        const __m512i change = _mm512_permutex2var_epi8(change_lo, v, change_hi);
        scan->m[PCT_SCAN_WORK][w] = _mm512_movepi8_mask(_mm512_or_si512(v, change)) & in;
    }
    clear_high_registers();
}

/* ---- normalize's writer: a component (pct_uri_write_fn) or a whole row
 * (the kernel's uri_normalize). A vector's valid escapes are found at once (the
 * digits loaded at +1 and +2, masked to the input, so a '%' whose digits it
 * lacks is no escape), their bytes formed, those of `decoded` put in and
 * their digits dropped by a compress, the digits of the others uppercased
 * and letters lowercased under masks; the bytes to escape are spread to
 * three places 16 at a time as encode does. Stores are under byte masks:
 * nothing is written past the output. */

/* Two tables for one two-table byte permute that gives, of a byte below
 * 0x80, 0xFF when it is in `set` (bytes >= 0x80 are the caller's). */
static inline AVX512_ATTR void set_tables(const pct_set *set, __m512i table[2])
{
    table[0] = _mm512_movm_epi8(set->bits[0] | (uint64_t)set->bits[1] << 32);
    table[1] = _mm512_movm_epi8(set->bits[2] | (uint64_t)set->bits[3] << 32);
}

static inline AVX512_ATTR __mmask64 in_set(const __m512i table[2], __m512i v)
{
    return _mm512_movepi8_mask(_mm512_permutex2var_epi8(table[0], v, table[1])) & ~_mm512_movepi8_mask(v);
}

/* The valid escapes of v, the `left` >= 1 bytes at s (zero past them),
 * and their bytes in *byte. */
static inline AVX512_ATTR __mmask64 escapes_of(const uint8_t *s, size_t left, __m512i v, __m512i *byte)
{
    __mmask64 bad1, bad2;
    const __m512i hi = hex_values(_mm512_maskz_loadu_epi8(first_bytes(left - 1), s + 1), &bad1);
    const __m512i lo = hex_values(_mm512_maskz_loadu_epi8(left > 2 ? first_bytes(left - 2) : 0, s + 2), &bad2);
    /* hi << 4 | lo; the bits the 16-bit shift moves across bytes are cleared */
    *byte = _mm512_ternarylogic_epi32(_mm512_slli_epi16(hi, 4), _mm512_set1_epi8((char)0xF0), lo, 0xEA);
    return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('%')) & ~(bad1 | bad2);
}

/* The bytes of v in place: `dec` escapes' bytes put in, `upper` bytes
 * (digits a-f of kept escapes) uppercased, letters of `lower` lowercased. */
static inline AVX512_ATTR __m512i changed(__m512i v, __m512i byte, __mmask64 dec, __mmask64 upper,
                                          __mmask64 lower)
{
    const __m512i case_bit = _mm512_set1_epi8(0x20);
    __m512i out = _mm512_mask_mov_epi8(v, dec, byte);
    const __mmask64 capital = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(out, _mm512_set1_epi8('A')),
                                                     _mm512_set1_epi8(26));
    out = _mm512_mask_add_epi8(out, capital & lower, out, case_bit);
    /* the digits a-f, the only ones at or above 'a' */
    return _mm512_mask_sub_epi8(out, upper & _mm512_cmpge_epu8_mask(out, _mm512_set1_epi8('a')), out, case_bit);
}

/* put_changed with bytes to escape: out of line, as most rows have none. */
static __attribute__((noinline)) AVX512_ATTR size_t put_spread(__m512i out, __m512i v, __mmask64 keep,
                                                               __mmask64 expand, uint8_t *d)
{
    __m512i hex[2];
    hex_digits_of(v, hex);
    const __m512i written = _mm512_mask_mov_epi8(out, expand, _mm512_set1_epi8('%'));
    size_t o = 0;
    for (unsigned j = 0; j < 4; j++)
        if (keep >> 16 * j & 0xFFFFu)
            o += encode16(written, hex[j >> 1], j, expand >> 16 * j & 0xFFFFu, keep >> 16 * j & 0xFFFFu, d + o,
                          0, 0);
    return o;
}

/* Writes the `keep` bytes of out (their order kept), those of `expand`
 * among them as %XX of v's byte; returns the bytes written. */
static inline AVX512_ATTR size_t put_changed(__m512i out, __m512i v, __mmask64 keep, __mmask64 expand,
                                             uint8_t *d)
{
    if (expand)
        return put_spread(out, v, keep, expand, d);
    const size_t w = (size_t)pct_popcount64(keep);
    _mm512_mask_storeu_epi8(d, first_bytes(w), _mm512_maskz_compress_epi8(keep, out));
    return w;
}

/* A step ends before an escape at byte 62 or 63 whose digits it would
 * cut, so steps share nothing but the output length. */
static AVX512_ATTR size_t avx512_uri_write(const uint8_t *s, size_t n, const pct_set *kept,
                                           const pct_set *decoded, int lower_case, int upper_hex,
                                           uint8_t *d)
{
    __m512i keep_table[2], decode_table[2];
    set_tables(kept, keep_table);
    if (decoded)
        set_tables(decoded, decode_table);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        const size_t left = n - i;
        __mmask64 in = first_bytes(left);
        const __m512i v = _mm512_maskz_loadu_epi8(in, s + i);
        __m512i byte;
        __mmask64 esc = escapes_of(s + i, left, v, &byte);
        const __mmask64 cut = esc >> 62;
        if (cut) { /* digits past this step: the escape starts the next */
            in = first_bytes(cut & 1 ? 62 : 63);
            esc &= in;
        }
        const __mmask64 dec = decoded ? esc & in_set(decode_table, byte) : 0;
        const __mmask64 digits = (esc & ~dec) << 1 | (esc & ~dec) << 2;
        const __mmask64 work = ~in_set(keep_table, v) & in;
        const __m512i out = changed(v, byte, dec, upper_hex ? digits : 0, lower_case ? ~digits : 0);
        o += put_changed(out, v, in & ~(dec << 1 | dec << 2), work & ~esc, d + o);
        i += (size_t)pct_popcount64(in);
    }
    clear_high_registers();
    return o;
}

/* ---- a whole row of normalize_many of up to 256 bytes, in up to four
 * vectors (64-bit class masks each): the split of pct_uri_split (scheme, "//",
 * userinfo to the last '@', host, port, path, query, fragment) read off the
 * masks, then the row written from the same vectors: in one range, or
 * around the host (IDNA), the port, the '/' of an empty path, the path
 * (dot segments). Rows it leaves to the caller (PCT_URI_FAST_NOT): no
 * scheme or no authority, an authority past the first 64 bytes, an IP
 * literal, a host with a byte to change other than non-ASCII ones (escapes),
 * a port with any or that is not digits, an IDNA form with one or longer
 * than 64 bytes, flags other than PCT_URI_NORMALIZE (and
 * PCT_URI_DROP_FRAGMENT). */

/* Bits [0, k) (all of them from k = 64 on). */
static inline AVX512_ATTR uint64_t low_bits(size_t k)
{
    return _bzhi_u64(~0ull, (unsigned)(k < 255 ? k : 255));
}

/* The bits of positions [a, b) of the row in its word that starts at `base`. */
static inline AVX512_ATTR uint64_t row_span(size_t a, size_t b, size_t base)
{
    return low_bits(b > base ? b - base : 0) & ~low_bits(a > base ? a - base : 0);
}

static inline AVX512_ATTR uint64_t bytes_equal64(__m512i v, char c)
{
    return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c));
}

/* The default port of a scheme (RFC 3986 6.2.3) as the bytes of a 32-bit
 * word, its length in *len; 0 for none. A scheme byte | 0x20 is its
 * lowercase (letters; the digits, '+', '-', '.' have the bit). */
static inline uint32_t default_port_of(const uint8_t *s, size_t c, size_t *len)
{
    uint8_t w[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < 4 && i < c; i++)
        w[i] = (uint8_t)(s[i] | 0x20u);
    const int http = w[0] == 'h' && w[1] == 't' && w[2] == 't' && w[3] == 'p';
    const int ws = w[0] == 'w' && w[1] == 's';
    *len = 2;
    if ((c == 4 && http) || (c == 2 && ws))
        return '8' | '0' << 8;
    if (c == 3 && w[0] == 'f' && w[1] == 't' && w[2] == 'p')
        return '2' | '1' << 8;
    *len = 3;
    if ((c == 5 && http && (s[4] | 0x20u) == 's') || (c == 3 && ws && w[2] == 's'))
        return '4' | '4' << 8 | '3' << 16;
    return 0;
}

/* Writes the `keep` bytes of out (of the row's vector v); a run from the
 * vector's first byte with nothing to escape is stored as it is. */
/* The port s[he + 1, e) after its ':' at s[he], written at o when it is
 * digits: no leading zeros, nothing when it is empty or the scheme's
 * default (s[0, c)). Returns the bytes written, SIZE_MAX when it is not
 * digits (the caller's). Out of line: most rows have no port. */
static __attribute__((noinline)) AVX512_ATTR size_t put_port(const uint8_t *s, size_t c, size_t he, size_t e,
                                                             __m512i v0, uint8_t *o)
{
    const uint64_t port = row_span(he + 1, e, 0);
    const uint64_t digits = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v0, _mm512_set1_epi8('0')), _mm512_set1_epi8(10));
    if ((digits & port) != port)
        return SIZE_MAX;
    size_t at = he + 1, len = e - at, dlen;
    while (len > 1 && s[at] == '0') {
        at++;
        len--;
    }
    const uint32_t want = default_port_of(s, c, &dlen);
    uint32_t have = 0;
    if (len <= 4)
        memcpy(&have, s + at, len);
    if (!len || (want && len == dlen && have == want))
        return 0;
    o[0] = ':';
    memcpy(o + 1, s + at, len);
    return len + 1;
}

/* The pass over a row in nv vectors (1, 2 or 4: a constant in each
 * inlined copy); vector k holds bytes [64k, 64k + 64), zero past n. */
static PCT_ALWAYS_INLINE AVX512_ATTR int normalize_vectors(const uint8_t *s, size_t n, unsigned flags,
                                                           const pct_set *kept, const pct_set *unreserved,
                                                           uint8_t *d, size_t *out_len, pct_uri_fast *fast,
                                                           const int nv)
{
    /* 0xFF for the bytes of a scheme: ALPHA DIGIT "+" "-" "." */
    static const uint8_t scheme_chars[128] = {
        ['+'] = 0xFF, ['-'] = 0xFF, ['.'] = 0xFF,
        ['0'] = 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        ['A'] = 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        ['a'] = 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    };
    __m512i v[4], byte[4], out[4];
    uint64_t in[4], slash[4], qh[4], hash[4], work[4], esc[4], dec[4], digits[4], drop[4];
    for (int k = 0; k < nv; k++) {
        in[k] = first_bytes(n > 64 * (size_t)k ? n - 64 * (size_t)k : 0);
        v[k] = _mm512_maskz_loadu_epi8(in[k], s + 64 * k);
        slash[k] = bytes_equal64(v[k], '/');
        hash[k] = bytes_equal64(v[k], '#');
        qh[k] = bytes_equal64(v[k], '?') | hash[k];
    }
    /* the scheme, "//" after it */
    const uint64_t colon0 = bytes_equal64(v[0], ':');
    const size_t c = colon0 ? pct_ctz64(colon0) : 64;
    if (c == 0 || c > 60 || ((slash[0] >> (c + 1)) & 3) != 3 || (uint8_t)((s[0] | 0x20) - 'a') >= 26)
        return PCT_URI_FAST_NOT;
    const __m512i scheme_table[2] = {_mm512_loadu_si512((const void *)scheme_chars),
                                     _mm512_loadu_si512((const void *)(scheme_chars + 64))};
    if (~in_set(scheme_table, v[0]) & low_bits(c))
        return PCT_URI_FAST_NOT;
    /* the authority (in the first vector) up to the first '/', '?', '#'
     * after it: userinfo up to its last '@', the host, the port after the
     * host's first ':' */
    const size_t a = c + 3;
    const uint64_t after_a = (slash[0] | qh[0]) & ~low_bits(a);
    if (!after_a && nv > 1)
        return PCT_URI_FAST_NOT;
    const size_t e = after_a ? pct_ctz64(after_a) : n;
    const uint64_t ats = bytes_equal64(v[0], '@') & row_span(a, e, 0);
    const size_t h = ats ? 64 - (size_t)__builtin_clzll(ats) : a;
    if (h < e && s[h] == '[')
        return PCT_URI_FAST_NOT;
    const uint64_t colons = colon0 & row_span(h, e, 0);
    const size_t he = colons ? pct_ctz64(colons) : e;
    __m512i keep_table[2];
    set_tables(kept, keep_table);
    for (int k = 0; k < nv; k++)
        work[k] = ~in_set(keep_table, v[k]) & in[k];
    const uint64_t host_work = work[0] & row_span(h, he, 0);
    if (work[0] & row_span(he, e, 0))
        return PCT_URI_FAST_NOT; /* the port */
    /* a host's IDNA form: the one given, or the caller's from before */
    const uint8_t *host = fast->host;
    size_t host_len = host ? fast->host_len : 0;
    if (!host && host_work) {
        if (host_work & ~_mm512_movepi8_mask(v[0]))
            return PCT_URI_FAST_NOT; /* an escape or ASCII to escape */
        if (fast->lookup) { /* the caller's code: see clear_high_registers */
            clear_high_registers();
            host = fast->lookup(fast->forms, s + h, he - h, &host_len);
        }
        if (!host) {
            fast->idna_host.start = h;
            fast->idna_host.len = he - h;
            return PCT_URI_FAST_HOST;
        }
    }
    __m512i host_bytes = v[0];
    if (host) {
        /* the form: kept bytes, lowercased */
        if (host_len > PCT_URI_FAST_FORM_MAX)
            return PCT_URI_FAST_NOT;
        host_bytes = _mm512_maskz_loadu_epi8(first_bytes(host_len), host);
        if (~in_set(keep_table, host_bytes) & first_bytes(host_len))
            return PCT_URI_FAST_NOT;
        host_bytes = changed(host_bytes, host_bytes, 0, 0, ~0ull);
    }
    /* the path up to the first '?' or '#' after it; the end of what is
     * written (the first '#' with DROP_FRAGMENT): the lowest vector's hit */
    const uint64_t after_e = ~low_bits(e);
    size_t p = n, end = n;
    for (int k = nv - 1; k >= 0; k--) {
        const uint64_t q = qh[k] & (k ? ~0ull : after_e), f = hash[k] & (k ? ~0ull : after_e);
        if (q)
            p = 64 * (size_t)k + pct_ctz64(q);
        if (f && (flags & PCT_URI_DROP_FRAGMENT))
            end = 64 * (size_t)k + pct_ctz64(f);
    }
    /* the valid escapes, and those of unreserved bytes, decoded: with no
     * branch on whether there are any (rows with and without mix); a '.'
     * after a '/' in the path, or decoded there, may make a dot segment */
    __m512i decode_table[2];
    set_tables(unreserved, decode_table);
    int dots = 0;
    for (int k = 0; k < nv; k++) {
        byte[k] = v[k];
        esc[k] = k == 0 || n > 64 * (size_t)k ? escapes_of(s + 64 * k, n - 64 * (size_t)k, v[k], &byte[k]) : 0;
        dec[k] = esc[k] & in_set(decode_table, byte[k]);
        const uint64_t path = row_span(e, p, 64 * (size_t)k);
        const uint64_t after_slash = slash[k] << 1 | (k ? slash[k - 1] >> 63 : 0);
        dots |= ((bytes_equal64(v[k], '.') & after_slash) | (dec[k] & bytes_equal64(byte[k], '.'))) & path ? 1 : 0;
    }
    /* kept escapes' digits (uppercased), decoded escapes' digits (dropped);
     * those of an escape at byte 62 or 63 of a vector reach into the next */
    for (int k = 0; k < nv; k++) {
        const uint64_t kept_k = esc[k] & ~dec[k], kept_before = k ? esc[k - 1] & ~dec[k - 1] : 0;
        digits[k] = kept_k << 1 | kept_k << 2 | (k ? kept_before >> 62 | kept_before >> 63 : 0);
        drop[k] = dec[k] << 1 | dec[k] << 2 | (k ? dec[k - 1] >> 62 | dec[k - 1] >> 63 : 0);
        /* scheme and host in lowercase (both in the first vector) */
        const uint64_t lower = k ? 0 : (low_bits(c) | row_span(h, he, 0)) & ~digits[0];
        out[k] = changed(v[k], byte[k], dec[k], digits[k], lower);
    }
#define EXPAND(k) (work[k] & ~esc[k])
    uint8_t *o = d;
    size_t from = 0; /* the start of the rest to write */
    if (host || he < e || e == p || dots) {
        /* up to the host or port, then the IDNA form, the port, the '/' of an empty path */
        const size_t head = host ? h : he;
        o += put_changed(out[0], v[0], low_bits(head) & ~drop[0], EXPAND(0) & low_bits(head), o);
        if (host) {
            _mm512_mask_storeu_epi8(o, first_bytes(host_len), host_bytes);
            o += host_len;
        }
        if (he < e) {
            const size_t w = put_port(s, c, he, e, v[0], o);
            if (w == SIZE_MAX)
                return PCT_URI_FAST_NOT;
            o += w;
        }
        if (e == p)
            *o++ = '/';
        from = e;
        if (dots) { /* the path alone, for the caller's remove_dot_segments */
            fast->path = (size_t)(o - d);
            for (int k = 0; k < nv; k++) {
                const uint64_t keep = row_span(e, p, 64 * (size_t)k) & ~drop[k];
                if (keep)
                    o += put_changed(out[k], v[k], keep, EXPAND(k) & keep, o);
            }
            fast->path_len = (size_t)(o - d) - fast->path;
            from = p;
        }
    }
    fast->dots = dots;
    for (int k = 0; k < nv; k++) {
        const uint64_t keep = row_span(from, end, 64 * (size_t)k) & ~drop[k];
        if (keep)
            o += put_changed(out[k], v[k], keep, EXPAND(k) & keep, o);
    }
#undef EXPAND
    *out_len = (size_t)(o - d);
    return PCT_URI_FAST_DONE;
}

static AVX512_ATTR int avx512_uri_normalize(const uint8_t *s, size_t n, unsigned flags, const pct_set *kept,
                                            const pct_set *unreserved, uint8_t *d, size_t *out_len,
                                            pct_uri_fast *fast)
{
    if (n == 0 || n > 256 || (flags & ~(unsigned)PCT_URI_DROP_FRAGMENT) != PCT_URI_NORMALIZE)
        return PCT_URI_FAST_NOT;
    const int r = n <= 64    ? normalize_vectors(s, n, flags, kept, unreserved, d, out_len, fast, 1)
                : n <= 128 ? normalize_vectors(s, n, flags, kept, unreserved, d, out_len, fast, 2)
                           : normalize_vectors(s, n, flags, kept, unreserved, d, out_len, fast, 4);
    clear_high_registers();
    return r;
}

/* Designated: entries added to pct_kernel later are NULL (their scalar
 * fallback) until this kernel names one. */
const pct_kernel pct_kernel_avx512 = {
    .name = "avx512",
    .span_safe = pct_avx2_span_safe,
    .count_unsafe = pct_avx2_count_unsafe,
    .find_escape = pct_avx2_find_escape,
    .encode = avx512_encode,
    .encode_room = avx512_encode_room,
    .decode = avx512_decode,
    .utf8_of_ucs2 = pct_avx2_utf8_of_ucs2,
    .escaped_size_ucs2 = pct_avx2_escaped_size_ucs2,
    .utf8_check = avx512_utf8_check,
    .utf8_to_ucs2 = pct_avx2_utf8_to_ucs2,
    .usable = avx512_usable,
    .decode_room = avx512_decode_room,
    .uri_offence = pct_avx2_uri_offence,
    .uri_offence_bits = pct_avx2_uri_offence_bits,
    .uri_scan = avx512_uri_scan,
    .uri_write = avx512_uri_write,
    .uri_normalize = avx512_uri_normalize,
    .decode_utf8_room = avx512_decode_utf8_room,
};

#endif /* PCT_AVX512 */
