/* The NEON kernel of aarch64 (where NEON is always present): set membership
 * by the two-nibble table lookup, escapes stored with a 3-way interleave. */
#include "pct_kernels.h"

#ifdef PCT_AARCH64
#include <arm_neon.h>

#define PK_W 16
#define PK_SHIFT 2 /* pk_bits keeps the top bit of each byte's nibble */
#define PK_FULL 0x8888888888888888u
#define PK_CTZ(m) ((size_t)pct_ctz64(m))
#define PK_ATTR
#define PK_FN(name) neon_##name
#define PK_KERNEL pct_kernel_neon
#define PK_NAME "neon"
#define PK_USABLE neon_usable

typedef uint8x16_t pk_vec;
typedef uint64_t pk_mask;
typedef struct {
    uint8x16_t lut;
} pk_prep;

static int neon_usable(void)
{
    return 1;
}

static inline pk_vec pk_loadu(const uint8_t *p) { return vld1q_u8(p); }
static inline void pk_storeu(uint8_t *p, pk_vec v) { vst1q_u8(p, v); }
static inline pk_vec pk_splat(uint8_t c) { return vdupq_n_u8(c); }
static inline pk_vec pk_eq(pk_vec a, pk_vec b) { return vceqq_u8(a, b); }
static inline pk_vec pk_or(pk_vec a, pk_vec b) { return vorrq_u8(a, b); }
static inline pk_vec pk_and(pk_vec a, pk_vec b) { return vandq_u8(a, b); }
static inline pk_vec pk_add(pk_vec a, pk_vec b) { return vaddq_u8(a, b); }
static inline pk_vec pk_sub(pk_vec a, pk_vec b) { return vsubq_u8(a, b); }
static inline pk_vec pk_min(pk_vec a, pk_vec b) { return vminq_u8(a, b); }
static inline size_t pk_hsum(pk_vec v) { return vaddlvq_u8(v); }

/* No movemask on NEON: narrowing by 4 bits leaves one nibble per byte. */
static inline pk_mask pk_bits(pk_vec v)
{
    uint8x8_t narrow = vshrn_n_u16(vreinterpretq_u16_u8(v), 4);
    return vget_lane_u64(vreinterpret_u64_u8(narrow), 0) & PK_FULL;
}

static inline int pk_prepare(pk_prep *p, const pct_set *set)
{
    p->lut = vld1q_u8(set->nibbles);
    return 1;
}

static inline pk_vec pk_unsafe(const pk_prep *p, pk_vec v)
{
    static const uint8_t high_bit[16] = {1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0};
    uint8x16_t rows = vqtbl1q_u8(p->lut, vandq_u8(v, vdupq_n_u8(15)));
    uint8x16_t cols = vqtbl1q_u8(vld1q_u8(high_bit), vshrq_n_u8(v, 4));
    return vceqzq_u8(vandq_u8(rows, cols));
}

static inline void pk_escape_block(const uint8_t *src, uint8_t *d)
{
    static const uint8_t hex[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                    '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};
    uint8x16_t v = vld1q_u8(src), digits = vld1q_u8(hex);
    uint8x16x3_t out;
    out.val[0] = vdupq_n_u8('%');
    out.val[1] = vqtbl1q_u8(digits, vshrq_n_u8(v, 4));
    out.val[2] = vqtbl1q_u8(digits, vandq_u8(v, vdupq_n_u8(15)));
    vst3q_u8(d, out);
}

#include "pct_kernel_simd.h"

#endif /* PCT_AARCH64 */
