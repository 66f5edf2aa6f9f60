/* The kernel table behind the public functions of pct.h: one implementation
 * per instruction set, all with the results of the scalar one. Internal to
 * the core; pct_dispatch.c is the only place that chooses among them. */
#ifndef PCT_KERNELS_H
#define PCT_KERNELS_H

#include <string.h>

#include "pct.h"
#include "pct_uri.h" /* pct_uri_scan */

typedef struct {
    const char *name;
    size_t (*span_safe)(const uint8_t *src, size_t n, const pct_set *set);
    size_t (*count_unsafe)(const uint8_t *src, size_t n, const pct_set *set);
    size_t (*find_escape)(const uint8_t *src, size_t n, int plus);
    size_t (*encode)(const uint8_t *src, size_t n, const pct_set *keep, int plus, uint8_t *dst);
    /* encode into dst with room for 3n + PCT_ENCODE_ROOM bytes */
    size_t (*encode_room)(const uint8_t *src, size_t n, const pct_set *keep, int plus, uint8_t *dst);
    size_t (*decode)(const uint8_t *src, size_t n, int plus, uint8_t *dst);
    /* The UTF-8 of n UCS-2 code units into dst (3n + 32 bytes: whole vectors
     * are stored); returns its length. Surrogate halves are written like
     * other code points and reported by a non-zero *surrogate. */
    size_t (*utf8_of_ucs2)(const uint16_t *src, size_t n, uint8_t *dst, int *surrogate);
    /* Optional (NULL: from utf8_of_ucs2 and count_unsafe): the escaped size
     * of n <= 1024 UCS-2 code units, surrogate halves counted as other code
     * points and reported by a non-zero *surrogate. */
    size_t (*escaped_size_ucs2)(const uint16_t *src, size_t n, const pct_set *keep, int *surrogate);
    /* Optional (NULL: the scalar one): pct_utf8_check of n >= 8 bytes. */
    void (*utf8_check)(const uint8_t *src, size_t n, pct_utf8_info *info);
    /* Optional (NULL: the scalar one): pct_utf8_to_ucs2 of n >= 64 bytes,
     * the same contract (within cap on any input). */
    size_t (*utf8_to_ucs2)(const uint8_t *src, size_t n, uint16_t *dst, size_t cap);
    /* 1 when this CPU can run the kernel */
    int (*usable)(void);
    /* Optional (NULL: decode, then a scan for a byte >= 0x80): pct_decode_room. */
    size_t (*decode_room)(const uint8_t *src, size_t n, int plus, uint8_t *dst, int *high);
    /* Optional (NULL: pct_scalar_uri_offence): pct_uri_offence, one pass. */
    size_t (*uri_offence)(const uint8_t *src, size_t n);
    /* Optional (NULL: rows one by one): pct_uri_offence_bits. */
    void (*uri_offence_bits)(const uint8_t *src, size_t n, uint64_t *bits);
    /* Optional (NULL: normalize splits and writes without masks): the class
     * masks of a row of 0 < n <= PCT_URI_SCAN_MAX bytes (pct_uri_scan), with
     * `kept` the bytes a URI holds as they are. */
    void (*uri_scan)(const uint8_t *src, size_t n, const pct_set *kept, pct_uri_scan *scan);
    /* Optional (NULL: normalize's byte-at-a-time writer): pct_uri_write_fn. */
    pct_uri_write_fn uri_write;
    /* Optional (NULL: every row split and written by pct_uri.c): the pass
     * of pct_uri_normalize_fast, which it returns, with `kept` and
     * `unreserved` pct_uri.c's sets; a path that may hold a dot segment is
     * left as it is and reported in *fast. */
    int (*uri_normalize)(const uint8_t *src, size_t n, unsigned flags, const pct_set *kept,
                         const pct_set *unreserved, uint8_t *dst, size_t *out_len,
                         pct_uri_fast *fast);
    /* Optional (NULL: decode_room, then utf8_check where a byte >= 0x80 was
     * written): pct_decode_room with *state 0 when it wrote ASCII, 1 valid
     * UTF-8 with bytes >= 0x80, 2 bytes that are not UTF-8. */
    size_t (*decode_utf8_room)(const uint8_t *src, size_t n, int plus, uint8_t *dst, int *state);
} pct_kernel;

#include "pct_portable.h"

extern const pct_kernel pct_kernel_scalar;
#ifdef PCT_X86_64
extern const pct_kernel pct_kernel_sse2;
extern const pct_kernel pct_kernel_avx2;
#endif
#ifdef PCT_AVX512
extern const pct_kernel pct_kernel_avx512;
#endif
#ifdef PCT_AARCH64
extern const pct_kernel pct_kernel_neon;
#endif

#ifdef PCT_X86_64
/* The AVX2 kernel's functions, also the AVX-512 kernel's where it has no
 * faster one (in pct_kernel_avx2.c; they run only where AVX2 does). */
size_t pct_avx2_span_safe(const uint8_t *src, size_t n, const pct_set *set);
size_t pct_avx2_count_unsafe(const uint8_t *src, size_t n, const pct_set *set);
size_t pct_avx2_find_escape(const uint8_t *src, size_t n, int plus);
size_t pct_avx2_encode(const uint8_t *src, size_t n, const pct_set *keep, int plus, uint8_t *dst);
size_t pct_avx2_encode_room(const uint8_t *src, size_t n, const pct_set *keep, int plus, uint8_t *dst);
size_t pct_avx2_decode(const uint8_t *src, size_t n, int plus, uint8_t *dst);
size_t pct_avx2_utf8_of_ucs2(const uint16_t *src, size_t n, uint8_t *dst, int *surrogate);
size_t pct_avx2_escaped_size_ucs2(const uint16_t *src, size_t n, const pct_set *keep, int *surrogate);
void pct_avx2_utf8_check(const uint8_t *src, size_t n, pct_utf8_info *info);
size_t pct_avx2_utf8_to_ucs2(const uint8_t *src, size_t n, uint16_t *dst, size_t cap);
size_t pct_avx2_uri_offence(const uint8_t *src, size_t n);
void pct_avx2_uri_offence_bits(const uint8_t *src, size_t n, uint64_t *bits);
void pct_avx2_uri_scan(const uint8_t *src, size_t n, const pct_set *kept, pct_uri_scan *scan);
#endif

/* The kernel in use (chosen on first use if pct_kernel_init was not called). */
const pct_kernel *pct_kernel_active(void);

/* The scalar bodies, also the vector kernels' fallback for tails and short inputs. */
size_t pct_scalar_span_safe(const uint8_t *src, size_t n, const pct_set *set);
size_t pct_scalar_count_unsafe(const uint8_t *src, size_t n, const pct_set *set);
size_t pct_scalar_find_escape(const uint8_t *src, size_t n, int plus);
size_t pct_scalar_encode(const uint8_t *src, size_t n, const pct_set *keep, int plus, uint8_t *dst);
size_t pct_scalar_decode(const uint8_t *src, size_t n, int plus, uint8_t *dst);
/* in pct_utf8.c */
void pct_scalar_utf8_check(const uint8_t *src, size_t n, pct_utf8_info *info);
size_t pct_scalar_utf8_to_ucs2(const uint8_t *src, size_t n, uint16_t *dst, size_t cap);
/* in pct_uri.c: the sequential check, run by run */
size_t pct_scalar_uri_offence(const uint8_t *src, size_t n);
/* in pct_encode.c, with the other widths' transcoders */
size_t pct_scalar_utf8_of_ucs2(const uint16_t *src, size_t n, uint8_t *dst, int *surrogate);

/* pct_utf8_info's maxchar of valid UTF-8 whose largest byte is `top`: C2-C3
 * lead U+0080-U+00FF, up to EF the rest of the BMP, F0-F4 the others. */
static inline uint32_t pct_utf8_maxchar(unsigned top)
{
    return top < 0x80 ? 0 : top <= 0xC3 ? 0xFF : top < 0xF0 ? 0xFFFF : 0x10FFFF;
}

/* "%XY" of every byte, padded to 4 bytes so that one 4-byte store writes it
 * (the caller guarantees a spare byte after the 3 it keeps). */
extern const uint8_t pct_escape4[256][4];

static inline uint8_t *pct_put_escape(uint8_t *d, unsigned byte)
{
    d[0] = '%';
    d[1] = (uint8_t)pct_hex_upper[byte >> 4];
    d[2] = (uint8_t)pct_hex_upper[byte & 15u];
    return d + 3;
}

static inline uint8_t *pct_put_escape4(uint8_t *d, uint8_t byte)
{
    memcpy(d, pct_escape4[byte], 4);
    return d + 3;
}

/* One step of decoding at src[0], a '%' or (with plus) a '+': writes one byte
 * and returns how many input bytes it stood for. */
static inline size_t pct_decode_one(const uint8_t *src, size_t n, int plus, uint8_t *out)
{
    if (plus && src[0] == '+') {
        *out = ' ';
        return 1;
    }
    if (n >= 3) {
        int hi = pct_hex_value[src[1]], lo = pct_hex_value[src[2]];
        if ((hi | lo) >= 0) {
            *out = (uint8_t)((hi << 4) | lo);
            return 3;
        }
    }
    *out = '%'; /* malformed: passed through */
    return 1;
}

/* The n-byte buffers at a and b do not overlap. */
static inline int pct_apart(const uint8_t *a, const uint8_t *b, size_t n)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x + n <= y || y + n <= x;
}

/* Decodes the run of escapes at src[0] (a '%' or, with plus, a '+') up to
 * the next literal byte or the end; returns the input bytes it took and sets
 * *written. */
static inline size_t pct_decode_run(const uint8_t *src, size_t n, int plus, uint8_t *dst,
                                    size_t *written)
{
    size_t i = 0, o = 0;
    do {
        i += pct_decode_one(src + i, n - i, plus, &dst[o++]);
    } while (i < n && (src[i] == '%' || (plus && src[i] == '+')));
    *written = o;
    return i;
}

/* Decoding by runs, written once for every kernel: FIND(p, len, plus) gives
 * the length of the run before the next escape, COPY(d, p, len) moves it
 * (dst may be src, so COPY must allow d <= p overlap), then the escapes
 * there are decoded. Evaluates to the number of bytes written. */
#define PCT_DECODE_BY_RUNS(src, n, plus, dst, FIND, COPY)                        \
    do {                                                                         \
        size_t i_ = 0, o_ = 0;                                                   \
        while (i_ < (n)) {                                                       \
            size_t run_ = FIND((src) + i_, (n) - i_, (plus));                     \
            if (run_) {                                                          \
                COPY((dst) + o_, (src) + i_, run_);                              \
                i_ += run_;                                                      \
                o_ += run_;                                                      \
                if (i_ == (n))                                                   \
                    break;                                                       \
            }                                                                    \
            size_t w_;                                                           \
            i_ += pct_decode_run((src) + i_, (n) - i_, (plus), (dst) + o_, &w_); \
            o_ += w_;                                                            \
        }                                                                        \
        return o_;                                                               \
    } while (0)

static inline void pct_move_run(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (dst != src)
        memmove(dst, src, n);
}

/* The byte-at-a-time decoder, also the vector kernels' tail: dst may be src. */
static inline size_t pct_decode_scalar(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    PCT_DECODE_BY_RUNS(src, n, plus, dst, pct_scalar_find_escape, pct_move_run);
}

/* A byte at a time with no calls: the vector kernels' tail, shorter than a
 * vector, where finding runs costs more than it saves. dst may be src. */
static inline size_t pct_decode_bytes(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    size_t i = 0, o = 0;
    while (i < n) {
        if (src[i] == '%' || (plus && src[i] == '+'))
            i += pct_decode_one(src + i, n - i, plus, &dst[o++]);
        else
            dst[o++] = src[i++];
    }
    return o;
}

/* Copies n < 32 bytes with dst at or before src (or apart from it): both
 * overlapping halves are loaded before either is stored. */
static inline void pct_copy_short(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n >= 8) {
        size_t half = n >= 16 ? 16 : 8;
        uint8_t head[16], tail[16];
        memcpy(head, src, half);
        memcpy(tail, src + n - half, half);
        memcpy(dst, head, half);
        memcpy(dst + n - half, tail, half);
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, src, 4);
        memcpy(&tail, src + n - 4, 4);
        memcpy(dst, &head, 4);
        memcpy(dst + n - 4, &tail, 4);
    } else if (n) {
        uint8_t a = src[0], b = src[n / 2], c = src[n - 1];
        dst[0] = a;
        dst[n / 2] = b;
        dst[n - 1] = c;
    }
}

#endif /* PCT_KERNELS_H */
