/* Percent-encoding of text held as 1/2/4-byte code units. On a kernel with
 * text vectors (AVX2), a chunk of code units at a time is written as UTF-8
 * into a buffer on the stack, which the kernel then sizes or encodes like
 * any bytes (a byte >= 0x80 is never in a
 * safe set, so each one of the UTF-8 is escaped, as urllib escapes the UTF-8
 * of a character). The transcoding steps over ASCII a word at a time. */
#include "pct_kernels.h"

/* Code units per chunk: the UTF-8 of a chunk fits in CHUNK_BYTES (and the
 * writers' stores past it in 32 more). */
#define CHUNK 1024
#define CHUNK_BYTES (4 * CHUNK)

/* Whether the code units in the 8 bytes at p are all ASCII. */
#define ASCII_WORD(unit_bytes) \
    ((unit_bytes) == 1 ? 0x8080808080808080u : (unit_bytes) == 2 ? 0xFF80FF80FF80FF80u : 0xFFFFFF80FFFFFF80u)

/* The UTF-8 of one code point below U+10000 as the low bytes of a word,
 * and its length: computed for all three forms and selected without a
 * branch, since mixed text switches between them all the time. */
static inline uint32_t utf8_word(uint32_t c, size_t *len)
{
    uint32_t two = (0xC0u | c >> 6) | (0x80u | (c & 0x3Fu)) << 8;
    uint32_t three = (0xE0u | c >> 12) | (0x80u | (c >> 6 & 0x3Fu)) << 8 | (0x80u | (c & 0x3Fu)) << 16;
    *len = 1u + (c >= 0x80) + (c >= 0x800);
    return c < 0x80 ? c : c < 0x800 ? two : three;
}

/* The UTF-8 of src[0..n) into dst (4n bytes, or 3n + 4 for UCS-1 and
 * UCS-2: each code point is stored as a whole word); returns its length.
 * Surrogate halves are written like other code points and reported in
 * *surrogate. */
#define PCT_UCS_TO_UTF8(LINKAGE, NAME, UNIT)                                       \
    LINKAGE size_t NAME(const UNIT *src, size_t n, uint8_t *dst, int *surrogate)   \
    {                                                                              \
        const size_t per_word = 8 / sizeof(UNIT);                                  \
        size_t i = 0, o = 0;                                                       \
        uint32_t surrogates = 0;                                                   \
        while (i < n) {                                                           \
            /* ASCII a word of code units at a time */                             \
            while (n - i >= per_word) {                                            \
                uint64_t w;                                                        \
                memcpy(&w, src + i, 8);                                            \
                if (w & ASCII_WORD(sizeof(UNIT)))                                  \
                    break;                                                         \
                for (size_t k = 0; k < per_word; k++)                              \
                    dst[o + k] = (uint8_t)src[i + k];                              \
                i += per_word;                                                     \
                o += per_word;                                                     \
            }                                                                      \
            size_t end = n - i > 4 * per_word ? i + 4 * per_word : n;              \
            for (; i < end; i++) {                                                 \
                uint32_t c = src[i], word;                                         \
                size_t len;                                                        \
                if (sizeof(UNIT) == 4 && c >= 0x10000) {                           \
                    word = (0xF0u | c >> 18) | (0x80u | (c >> 12 & 0x3Fu)) << 8    \
                           | (0x80u | (c >> 6 & 0x3Fu)) << 16                      \
                           | (0x80u | (c & 0x3Fu)) << 24;                          \
                    len = 4;                                                       \
                } else {                                                           \
                    word = utf8_word(c, &len);                                     \
                    surrogates |= (uint32_t)(c - 0xD800u < 0x800u);                \
                }                                                                  \
                dst[o] = (uint8_t)word; /* one store on most compilers */          \
                dst[o + 1] = (uint8_t)(word >> 8);                                 \
                dst[o + 2] = (uint8_t)(word >> 16);                                \
                dst[o + 3] = (uint8_t)(word >> 24);                                \
                o += len;                                                          \
            }                                                                      \
        }                                                                          \
        *surrogate = surrogates != 0;                                              \
        return o;                                                                  \
    }

PCT_UCS_TO_UTF8(static, utf8_of_ucs1, uint8_t)
PCT_UCS_TO_UTF8(, pct_scalar_utf8_of_ucs2, uint16_t)
PCT_UCS_TO_UTF8(static, utf8_of_ucs4, uint32_t)

static size_t utf8_of_ucs2(const uint16_t *src, size_t n, uint8_t *dst, int *surrogate)
{
    return pct_kernel_active()->utf8_of_ucs2(src, n, dst, surrogate);
}

/* The escaped size of src[0..n) (n <= CHUNK), by way of its UTF-8 in buf
 * (CHUNK_BYTES + 32), or by the kernel's own count for UCS-2. Surrogate
 * halves count as other code points and set *surrogate. */
#define PCT_UCS_ESCAPED_SIZE(NAME, UNIT)                                                 \
    static size_t escaped_size_##NAME(const pct_kernel *k, const UNIT *src, size_t n,    \
                                      const pct_set *keep, uint8_t *buf, int *surrogate) \
    {                                                                                    \
        size_t bytes = utf8_of_##NAME(src, n, buf, surrogate);                           \
        return bytes + 2 * k->count_unsafe(buf, bytes, keep);                            \
    }
PCT_UCS_ESCAPED_SIZE(ucs1, uint8_t)
PCT_UCS_ESCAPED_SIZE(ucs4, uint32_t)

static size_t escaped_size_ucs2(const pct_kernel *k, const uint16_t *src, size_t n,
                                const pct_set *keep, uint8_t *buf, int *surrogate)
{
    if (k->escaped_size_ucs2)
        return k->escaped_size_ucs2(src, n, keep, surrogate);
    size_t bytes = utf8_of_ucs2(src, n, buf, surrogate);
    return bytes + 2 * k->count_unsafe(buf, bytes, keep);
}

/* Text this short, or on a kernel without text vectors (no
 * escaped_size_ucs2), is escaped straight from each code point's UTF-8,
 * with no chunk and kernel call around it. */
#define SHORT_TEXT 32

static inline uint8_t *encode_code_point(uint32_t c, const pct_set *keep, int plus, uint8_t *d)
{
    if (c < 0x80) {
        if (!pct_set_has(keep, (unsigned char)c))
            return pct_put_escape(d, c);
        *d = (plus && c == ' ') ? (uint8_t)'+' : (uint8_t)c;
        return d + 1;
    }
    if (c < 0x800) {
        d = pct_put_escape(d, 0xC0u | (c >> 6));
    } else if (c < 0x10000) {
        d = pct_put_escape(d, 0xE0u | (c >> 12));
        d = pct_put_escape(d, 0x80u | ((c >> 6) & 0x3Fu));
    } else {
        d = pct_put_escape(d, 0xF0u | (c >> 18));
        d = pct_put_escape(d, 0x80u | ((c >> 12) & 0x3Fu));
        d = pct_put_escape(d, 0x80u | ((c >> 6) & 0x3Fu));
    }
    return pct_put_escape(d, 0x80u | (c & 0x3Fu));
}

/* The index of the first surrogate half in src (there is one). */
#define FIRST_SURROGATE(src, n, at)                 \
    do {                                            \
        for (at = 0; at < (n); at++)                \
            if ((uint32_t)(src)[at] - 0xD800u < 0x800u) \
                break;                              \
    } while (0)

/* The end of a sizing near its limit, from src[i] with `size` so far: one
 * code unit at a time (at most 3 * (width + 1) bytes each), stopping at the
 * first that passes the limit or is a surrogate half. */
#define PCT_UCS_SIZE_BY_UNITS(NAME, UNIT)                                               \
    static pct_status size_by_units_##NAME(const UNIT *src, size_t i, size_t n,        \
                                           const pct_set *keep, size_t limit,          \
                                           size_t size, size_t *out_size)              \
    {                                                                                  \
        for (; i < n; i++) {                                                           \
            uint32_t c = src[i];                                                       \
            if (c - 0xD800u < 0x800u) {                                                \
                *out_size = i;                                                         \
                return PCT_ERR_SURROGATE;                                              \
            }                                                                          \
            size_t grow = c < 0x80 ? (pct_set_has(keep, (unsigned char)c) ? 1u : 3u)   \
                          : c < 0x800 ? 6u : c < 0x10000 ? 9u : 12u;                   \
            if (grow > limit - size)                                                   \
                return PCT_ERR_TOO_LARGE;                                              \
            size += grow;                                                              \
        }                                                                              \
        *out_size = size;                                                              \
        return PCT_OK;                                                                 \
    }
PCT_UCS_SIZE_BY_UNITS(ucs1, uint8_t)
PCT_UCS_SIZE_BY_UNITS(ucs2, uint16_t)
PCT_UCS_SIZE_BY_UNITS(ucs4, uint32_t)

/* The sizing and the writer of each width over the chunks' UTF-8. The
 * total is bytes + 2 * escapes, checked against `limit` chunk by chunk. */
#define PCT_UCS_ENCODERS(NAME, UNIT)                                               \
    pct_status pct_encoded_size_##NAME(const UNIT *src, size_t n,                  \
                                       const pct_set *keep, size_t limit,          \
                                       size_t *out_size)                           \
    {                                                                              \
        const pct_kernel *k = pct_kernel_active();                                 \
        if (!k->escaped_size_ucs2) /* no text vectors: per code unit is faster */  \
            return size_by_units_##NAME(src, 0, n, keep, limit, 0, out_size);      \
        uint8_t buf[CHUNK_BYTES + 32];                                             \
        size_t size = 0;                                                           \
        for (size_t i = 0; i < n; i += CHUNK) {                                    \
            size_t len = n - i < CHUNK ? n - i : CHUNK, at;                        \
            if (len > (limit - size) / (3 * (sizeof(UNIT) + 1)))                   \
                /* the chunk could pass the limit: unit by unit, reading no   \
                 * further than the unit that passes it */                         \
                return size_by_units_##NAME(src, i, n, keep, limit, size, out_size); \
            int surrogate;                                                         \
            /* at most 3 * CHUNK_BYTES: no overflow */                             \
            size_t grow = escaped_size_##NAME(k, src + i, len, keep, buf, &surrogate); \
            if (surrogate) {                                                       \
                /* the limit first if the output before the surrogate passes it */ \
                FIRST_SURROGATE(src + i, len, at);                                 \
                if (escaped_size_##NAME(k, src + i, at, keep, buf, &surrogate) > limit - size) \
                    return PCT_ERR_TOO_LARGE;                                      \
                *out_size = i + at;                                                \
                return PCT_ERR_SURROGATE;                                          \
            }                                                                      \
            if (grow > limit - size)                                               \
                return PCT_ERR_TOO_LARGE;                                          \
            size += grow;                                                          \
        }                                                                          \
        *out_size = size;                                                          \
        return PCT_OK;                                                             \
    }                                                                              \
                                                                                   \
    size_t pct_encode_##NAME(const UNIT *src, size_t n, const pct_set *keep,       \
                             int plus, uint8_t *dst)                               \
    {                                                                              \
        uint8_t *d = dst;                                                          \
        const pct_kernel *k = pct_kernel_active();                                 \
        if (n < SHORT_TEXT || !k->escaped_size_ucs2) {                             \
            for (size_t i = 0; i < n; i++)                                         \
                d = encode_code_point(src[i], keep, plus, d);                      \
            return (size_t)(d - dst);                                              \
        }                                                                          \
        uint8_t buf[CHUNK_BYTES + 32];                                             \
        for (size_t i = 0; i < n; i += CHUNK) {                                    \
            size_t len = n - i < CHUNK ? n - i : CHUNK;                            \
            int surrogate; /* none: the sizing said so */                          \
            size_t bytes = utf8_of_##NAME(src + i, len, buf, &surrogate);          \
            d += k->encode(buf, bytes, keep, plus, d);                             \
        }                                                                          \
        return (size_t)(d - dst);                                                  \
    }

PCT_UCS_ENCODERS(ucs1, uint8_t)
PCT_UCS_ENCODERS(ucs2, uint16_t)
PCT_UCS_ENCODERS(ucs4, uint32_t)
