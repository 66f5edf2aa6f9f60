/* The SSE2 kernel, baseline on x86-64. Without a byte shuffle, set membership
 * is tested as a union of byte ranges; sets of more ranges than fit go to the
 * scalar kernel (the default sets have five and six). */
#include "pct_kernels.h"

#ifdef PCT_X86_64
#include <emmintrin.h>

#define PK_W 16
#define PK_SHIFT 0
#define PK_FULL 0xFFFFu
#define PK_CTZ(m) ((size_t)pct_ctz32(m))
#define PK_ATTR
#define PK_FN(name) sse2_##name
#define PK_KERNEL pct_kernel_sse2
#define PK_NAME "sse2"
#define PK_USABLE sse2_usable
#define MAX_RANGES 8

typedef __m128i pk_vec;
typedef uint32_t pk_mask;
typedef struct {
    int n;
    __m128i lo[MAX_RANGES], width[MAX_RANGES];
} pk_prep;

static int sse2_usable(void)
{
    return 1;
}

static inline pk_vec pk_loadu(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline void pk_storeu(uint8_t *p, pk_vec v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
static inline pk_vec pk_splat(uint8_t c) { return _mm_set1_epi8((char)c); }
static inline pk_vec pk_eq(pk_vec a, pk_vec b) { return _mm_cmpeq_epi8(a, b); }
static inline pk_vec pk_or(pk_vec a, pk_vec b) { return _mm_or_si128(a, b); }
static inline pk_vec pk_and(pk_vec a, pk_vec b) { return _mm_and_si128(a, b); }
static inline pk_vec pk_add(pk_vec a, pk_vec b) { return _mm_add_epi8(a, b); }
static inline pk_vec pk_sub(pk_vec a, pk_vec b) { return _mm_sub_epi8(a, b); }
static inline pk_vec pk_min(pk_vec a, pk_vec b) { return _mm_min_epu8(a, b); }
static inline pk_mask pk_bits(pk_vec v) { return (pk_mask)_mm_movemask_epi8(v); }

static inline size_t pk_hsum(pk_vec v)
{
    __m128i s = _mm_sad_epu8(v, _mm_setzero_si128());
    return (size_t)_mm_cvtsi128_si64(s) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s));
}

/* First c' >= c whose bit equals `value` (128 when none). */
static unsigned next_bit(const uint64_t w[2], unsigned c, int value)
{
    while (c < 128) {
        uint64_t word = (value ? w[c >> 6] : ~w[c >> 6]) >> (c & 63);
        if (word)
            return c + (unsigned)pct_ctz64(word);
        c = (c | 63) + 1;
    }
    return 128;
}

static int pk_prepare(pk_prep *p, const pct_set *set)
{
    const uint64_t w[2] = {set->bits[0] | (uint64_t)set->bits[1] << 32,
                           set->bits[2] | (uint64_t)set->bits[3] << 32};
    p->n = 0;
    for (unsigned c = next_bit(w, 0, 1); c < 128; c = next_bit(w, c, 1)) {
        unsigned end = next_bit(w, c, 0);
        if (p->n == MAX_RANGES)
            return 0;
        p->lo[p->n] = _mm_set1_epi8((char)c);
        p->width[p->n] = _mm_set1_epi8((char)(end - 1 - c));
        p->n++;
        c = end;
    }
    return 1;
}

/* x is in [lo, lo + width] when x - lo (wrapping) <= width, unsigned; bytes
 * >= 0x80 wrap past every width since ranges end below 0x80. */
static inline pk_vec pk_unsafe(const pk_prep *p, pk_vec v)
{
    __m128i in = _mm_setzero_si128();
    for (int r = 0; r < p->n; r++) {
        __m128i t = _mm_sub_epi8(v, p->lo[r]);
        in = _mm_or_si128(in, _mm_cmpeq_epi8(_mm_min_epu8(t, p->width[r]), t));
    }
    return _mm_cmpeq_epi8(in, _mm_setzero_si128());
}

static inline void pk_escape_block(const uint8_t *src, uint8_t *d)
{
    for (int k = 0; k < PK_W; k++)
        d = pct_put_escape4(d, src[k]);
}

#include "pct_kernel_simd.h"

#endif /* PCT_X86_64 */
