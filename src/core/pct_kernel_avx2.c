/* The AVX2 kernel, chosen at run time on CPUs that have it: set membership by
 * the two-nibble table lookup, escapes formed with byte shuffles. Only this
 * file's functions are compiled for AVX2 (target attribute), so the rest of
 * the module runs on any x86-64. */
#include "pct_kernels.h"

#ifdef PCT_X86_64
#include <immintrin.h>

#define PK_W 32
#define PK_SHIFT 0
#define PK_FULL 0xFFFFFFFFu
#define PK_CTZ(m) ((size_t)pct_ctz32(m))
#define PK_ATTR PCT_TARGET_AVX2
#define PK_FN(name) avx2_##name
#define PK_KERNEL pct_kernel_avx2
#define PK_NAME "avx2"
#define PK_USABLE avx2_usable

typedef __m256i pk_vec;
typedef uint32_t pk_mask;
typedef struct {
    __m256i lut;
} pk_prep;

static int avx2_usable(void)
{
    return pct_cpu_avx2();
}

static inline PK_ATTR pk_vec pk_loadu(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
static inline PK_ATTR void pk_storeu(uint8_t *p, pk_vec v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }
static inline PK_ATTR pk_vec pk_splat(uint8_t c) { return _mm256_set1_epi8((char)c); }
static inline PK_ATTR pk_vec pk_eq(pk_vec a, pk_vec b) { return _mm256_cmpeq_epi8(a, b); }
static inline PK_ATTR pk_vec pk_or(pk_vec a, pk_vec b) { return _mm256_or_si256(a, b); }
static inline PK_ATTR pk_vec pk_and(pk_vec a, pk_vec b) { return _mm256_and_si256(a, b); }
static inline PK_ATTR pk_vec pk_add(pk_vec a, pk_vec b) { return _mm256_add_epi8(a, b); }
static inline PK_ATTR pk_vec pk_sub(pk_vec a, pk_vec b) { return _mm256_sub_epi8(a, b); }
static inline PK_ATTR pk_mask pk_bits(pk_vec v) { return (pk_mask)_mm256_movemask_epi8(v); }

static inline PK_ATTR size_t pk_hsum(pk_vec v)
{
    __m256i s = _mm256_sad_epu8(v, _mm256_setzero_si256());
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    return (size_t)_mm_cvtsi128_si64(t) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(t, t));
}

static inline PK_ATTR int pk_prepare(pk_prep *p, const pct_set *set)
{
    uint8_t lut[16];
    pct_nibble_lut(set, lut);
    p->lut = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)lut));
    return 1;
}

/* In the set when lut[low nibble] has the bit of the high nibble; high
 * nibbles 8-15 have no bit, so bytes >= 0x80 are never in. */
static inline PK_ATTR pk_vec pk_unsafe(const pk_prep *p, pk_vec v)
{
    const __m256i high_bit = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
                                              1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i nibble = _mm256_set1_epi8(15);
    __m256i rows = _mm256_shuffle_epi8(p->lut, _mm256_and_si256(v, nibble));
    __m256i cols = _mm256_shuffle_epi8(high_bit, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    return _mm256_cmpeq_epi8(_mm256_and_si256(rows, cols), _mm256_setzero_si256());
}

/* "%XY" of 16 bytes into 48: the digit pairs XY interleaved, then spread into
 * three vectors with a '%' before each pair (shuffle index -128 gives 0). */
static inline PK_ATTR void escape16(__m128i v, uint8_t *d)
{
    const __m128i hex = _mm_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7',
                                      '8', '9', 'A', 'B', 'C', 'D', 'E', 'F');
    const __m128i nibble = _mm_set1_epi8(15);
    const __m128i x = _mm_shuffle_epi8(hex, _mm_and_si128(_mm_srli_epi16(v, 4), nibble));
    const __m128i y = _mm_shuffle_epi8(hex, _mm_and_si128(v, nibble));
    const __m128i pairs0 = _mm_unpacklo_epi8(x, y), pairs1 = _mm_unpackhi_epi8(x, y);
    const char z = -128;
    const __m128i pct0 = _mm_setr_epi8('%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%');
    const __m128i pct1 = _mm_setr_epi8(0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0);
    const __m128i pct2 = _mm_setr_epi8(0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0);
    const __m128i idx0 = _mm_setr_epi8(z, 0, 1, z, 2, 3, z, 4, 5, z, 6, 7, z, 8, 9, z);
    const __m128i idx1 = _mm_setr_epi8(0, 1, z, 2, 3, z, 4, 5, z, 6, 7, z, 8, 9, z, 10);
    const __m128i idx2 = _mm_setr_epi8(5, z, 6, 7, z, 8, 9, z, 10, 11, z, 12, 13, z, 14, 15);
    /* the middle vector takes pairs 5-10: bytes 10-15 of pairs0, then 0-9 of pairs1 */
    const __m128i middle = _mm_alignr_epi8(pairs1, pairs0, 10);
    _mm_storeu_si128((__m128i *)(void *)d, _mm_or_si128(_mm_shuffle_epi8(pairs0, idx0), pct0));
    _mm_storeu_si128((__m128i *)(void *)(d + 16), _mm_or_si128(_mm_shuffle_epi8(middle, idx1), pct1));
    _mm_storeu_si128((__m128i *)(void *)(d + 32), _mm_or_si128(_mm_shuffle_epi8(pairs1, idx2), pct2));
}

static inline PK_ATTR void pk_escape_block(const uint8_t *src, uint8_t *d)
{
    escape16(_mm_loadu_si128((const __m128i *)(const void *)src), d);
    escape16(_mm_loadu_si128((const __m128i *)(const void *)(src + 16)), d + 48);
}

/* Indices of the set bits of each byte value, lowest first, as the byte
 * shuffle that packs the kept bytes of 8 to the front. */
static const uint64_t compact8[256] = {
    0x0000000000000000u, 0x0000000000000000u, 0x0000000000000001u, 0x0000000000000100u,
    0x0000000000000002u, 0x0000000000000200u, 0x0000000000000201u, 0x0000000000020100u,
    0x0000000000000003u, 0x0000000000000300u, 0x0000000000000301u, 0x0000000000030100u,
    0x0000000000000302u, 0x0000000000030200u, 0x0000000000030201u, 0x0000000003020100u,
    0x0000000000000004u, 0x0000000000000400u, 0x0000000000000401u, 0x0000000000040100u,
    0x0000000000000402u, 0x0000000000040200u, 0x0000000000040201u, 0x0000000004020100u,
    0x0000000000000403u, 0x0000000000040300u, 0x0000000000040301u, 0x0000000004030100u,
    0x0000000000040302u, 0x0000000004030200u, 0x0000000004030201u, 0x0000000403020100u,
    0x0000000000000005u, 0x0000000000000500u, 0x0000000000000501u, 0x0000000000050100u,
    0x0000000000000502u, 0x0000000000050200u, 0x0000000000050201u, 0x0000000005020100u,
    0x0000000000000503u, 0x0000000000050300u, 0x0000000000050301u, 0x0000000005030100u,
    0x0000000000050302u, 0x0000000005030200u, 0x0000000005030201u, 0x0000000503020100u,
    0x0000000000000504u, 0x0000000000050400u, 0x0000000000050401u, 0x0000000005040100u,
    0x0000000000050402u, 0x0000000005040200u, 0x0000000005040201u, 0x0000000504020100u,
    0x0000000000050403u, 0x0000000005040300u, 0x0000000005040301u, 0x0000000504030100u,
    0x0000000005040302u, 0x0000000504030200u, 0x0000000504030201u, 0x0000050403020100u,
    0x0000000000000006u, 0x0000000000000600u, 0x0000000000000601u, 0x0000000000060100u,
    0x0000000000000602u, 0x0000000000060200u, 0x0000000000060201u, 0x0000000006020100u,
    0x0000000000000603u, 0x0000000000060300u, 0x0000000000060301u, 0x0000000006030100u,
    0x0000000000060302u, 0x0000000006030200u, 0x0000000006030201u, 0x0000000603020100u,
    0x0000000000000604u, 0x0000000000060400u, 0x0000000000060401u, 0x0000000006040100u,
    0x0000000000060402u, 0x0000000006040200u, 0x0000000006040201u, 0x0000000604020100u,
    0x0000000000060403u, 0x0000000006040300u, 0x0000000006040301u, 0x0000000604030100u,
    0x0000000006040302u, 0x0000000604030200u, 0x0000000604030201u, 0x0000060403020100u,
    0x0000000000000605u, 0x0000000000060500u, 0x0000000000060501u, 0x0000000006050100u,
    0x0000000000060502u, 0x0000000006050200u, 0x0000000006050201u, 0x0000000605020100u,
    0x0000000000060503u, 0x0000000006050300u, 0x0000000006050301u, 0x0000000605030100u,
    0x0000000006050302u, 0x0000000605030200u, 0x0000000605030201u, 0x0000060503020100u,
    0x0000000000060504u, 0x0000000006050400u, 0x0000000006050401u, 0x0000000605040100u,
    0x0000000006050402u, 0x0000000605040200u, 0x0000000605040201u, 0x0000060504020100u,
    0x0000000006050403u, 0x0000000605040300u, 0x0000000605040301u, 0x0000060504030100u,
    0x0000000605040302u, 0x0000060504030200u, 0x0000060504030201u, 0x0006050403020100u,
    0x0000000000000007u, 0x0000000000000700u, 0x0000000000000701u, 0x0000000000070100u,
    0x0000000000000702u, 0x0000000000070200u, 0x0000000000070201u, 0x0000000007020100u,
    0x0000000000000703u, 0x0000000000070300u, 0x0000000000070301u, 0x0000000007030100u,
    0x0000000000070302u, 0x0000000007030200u, 0x0000000007030201u, 0x0000000703020100u,
    0x0000000000000704u, 0x0000000000070400u, 0x0000000000070401u, 0x0000000007040100u,
    0x0000000000070402u, 0x0000000007040200u, 0x0000000007040201u, 0x0000000704020100u,
    0x0000000000070403u, 0x0000000007040300u, 0x0000000007040301u, 0x0000000704030100u,
    0x0000000007040302u, 0x0000000704030200u, 0x0000000704030201u, 0x0000070403020100u,
    0x0000000000000705u, 0x0000000000070500u, 0x0000000000070501u, 0x0000000007050100u,
    0x0000000000070502u, 0x0000000007050200u, 0x0000000007050201u, 0x0000000705020100u,
    0x0000000000070503u, 0x0000000007050300u, 0x0000000007050301u, 0x0000000705030100u,
    0x0000000007050302u, 0x0000000705030200u, 0x0000000705030201u, 0x0000070503020100u,
    0x0000000000070504u, 0x0000000007050400u, 0x0000000007050401u, 0x0000000705040100u,
    0x0000000007050402u, 0x0000000705040200u, 0x0000000705040201u, 0x0000070504020100u,
    0x0000000007050403u, 0x0000000705040300u, 0x0000000705040301u, 0x0000070504030100u,
    0x0000000705040302u, 0x0000070504030200u, 0x0000070504030201u, 0x0007050403020100u,
    0x0000000000000706u, 0x0000000000070600u, 0x0000000000070601u, 0x0000000007060100u,
    0x0000000000070602u, 0x0000000007060200u, 0x0000000007060201u, 0x0000000706020100u,
    0x0000000000070603u, 0x0000000007060300u, 0x0000000007060301u, 0x0000000706030100u,
    0x0000000007060302u, 0x0000000706030200u, 0x0000000706030201u, 0x0000070603020100u,
    0x0000000000070604u, 0x0000000007060400u, 0x0000000007060401u, 0x0000000706040100u,
    0x0000000007060402u, 0x0000000706040200u, 0x0000000706040201u, 0x0000070604020100u,
    0x0000000007060403u, 0x0000000706040300u, 0x0000000706040301u, 0x0000070604030100u,
    0x0000000706040302u, 0x0000070604030200u, 0x0000070604030201u, 0x0007060403020100u,
    0x0000000000070605u, 0x0000000007060500u, 0x0000000007060501u, 0x0000000706050100u,
    0x0000000007060502u, 0x0000000706050200u, 0x0000000706050201u, 0x0000070605020100u,
    0x0000000007060503u, 0x0000000706050300u, 0x0000000706050301u, 0x0000070605030100u,
    0x0000000706050302u, 0x0000070605030200u, 0x0000070605030201u, 0x0007060503020100u,
    0x0000000007060504u, 0x0000000706050400u, 0x0000000706050401u, 0x0000070605040100u,
    0x0000000706050402u, 0x0000070605040200u, 0x0000070605040201u, 0x0007060504020100u,
    0x0000000706050403u, 0x0000070605040300u, 0x0000070605040301u, 0x0007060504030100u,
    0x0000070605040302u, 0x0007060504030200u, 0x0007060504030201u, 0x0706050403020100u,
};

/* Hex digit values of 32 bytes, and which bytes are hex digits. */
static inline PK_ATTR __m256i hex_values(__m256i x, __m256i *ok)
{
    const __m256i d = _mm256_sub_epi8(x, _mm256_set1_epi8('0'));
    const __m256i l = _mm256_sub_epi8(_mm256_or_si256(x, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('a'));
    const __m256i is_d = _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d);
    const __m256i is_l = _mm256_cmpeq_epi8(_mm256_min_epu8(l, _mm256_set1_epi8(5)), l);
    *ok = _mm256_or_si256(is_d, is_l);
    return _mm256_or_si256(_mm256_and_si256(is_d, d),
                           _mm256_and_si256(is_l, _mm256_add_epi8(l, _mm256_set1_epi8(10))));
}

/* Packs the bytes of 16 whose bits are set in `keep` to dst (16 writable);
 * returns how many. */
static inline PK_ATTR size_t pack16(__m128i v, unsigned keep, uint8_t *dst)
{
    const __m128i p0 = _mm_shuffle_epi8(v, _mm_cvtsi64_si128((long long)compact8[keep & 0xFF]));
    const __m128i p1 = _mm_shuffle_epi8(_mm_srli_si128(v, 8),
                                        _mm_cvtsi64_si128((long long)compact8[(keep >> 8) & 0xFF]));
    const size_t w0 = (size_t)pct_popcount32(keep & 0xFF);
    _mm_storel_epi64((__m128i *)(void *)dst, p0);
    _mm_storel_epi64((__m128i *)(void *)(dst + w0), p1);
    return w0 + (size_t)pct_popcount32(keep & 0xFF00);
}

/* Decodes the 32 bytes at src (34 readable) into dst (32 writable): every
 * '%' followed by two hex digits becomes its byte in place, the digits are
 * dropped, then the kept bytes are packed. A hex digit is never '%', so
 * escapes cannot overlap and all of a block's are found at once: blocks
 * follow at a fixed stride, and only `*skip` (the digits of an escape that
 * runs into the next block, as its low bits) and the output length carry
 * from one to the next. Sets *escapes to the block's escape bits; returns
 * the bytes written. */
static inline PK_ATTR size_t decode_block(const uint8_t *src, int plus, uint32_t *skip,
                                          uint8_t *dst, uint32_t *escapes)
{
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)src);
    __m256i ok1, ok2;
    const __m256i hi = hex_values(_mm256_loadu_si256((const __m256i *)(const void *)(src + 1)), &ok1);
    const __m256i lo = hex_values(_mm256_loadu_si256((const __m256i *)(const void *)(src + 2)), &ok2);
    const __m256i esc = _mm256_and_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('%')),
                                         _mm256_and_si256(ok1, ok2));
    const uint32_t e = (uint32_t)_mm256_movemask_epi8(esc);
    const uint64_t digits = (uint64_t)e << 1 | (uint64_t)e << 2;
    const uint32_t keep = ~((uint32_t)digits | *skip);
    *skip = (uint32_t)(digits >> 32);
    *escapes = e;
    /* hi <= 15: the 16-bit shift moves no bit into the next byte */
    const __m256i byte = _mm256_or_si256(_mm256_slli_epi16(hi, 4), lo);
    __m256i lit = v;
    if (plus)
        lit = _mm256_sub_epi8(v, _mm256_and_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('+')),
                                                  _mm256_set1_epi8('+' - ' ')));
    const __m256i out = _mm256_blendv_epi8(lit, byte, esc);
    const size_t w = pack16(_mm256_castsi256_si128(out), keep & 0xFFFFu, dst);
    return w + pack16(_mm256_extracti128_si256(out, 1), keep >> 16, dst + w);
}
#define PK_DECODE_BLOCK decode_block

#include "pct_kernel_simd.h"

#endif /* PCT_X86_64 */
