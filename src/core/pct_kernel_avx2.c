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
#define PK_CTZ(m) ((size_t)__builtin_ctz(m))
#define PK_ATTR __attribute__((target("avx2")))
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
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
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

#include "pct_kernel_simd.h"

#endif /* PCT_X86_64 */
