/* Percent-encoding of text held as 1/2/4-byte code units. */
#include "pct_kernels.h"

/* Adds `grow` to *size unless that would pass `limit`. */
static inline int grow_within(size_t *size, size_t grow, size_t limit)
{
    if (grow > limit - *size)
        return 0;
    *size += grow;
    return 1;
}

/* Text: the UTF-8 length of a code point decides its escaped size (3 bytes
 * of output per UTF-8 byte). One body serves the three code unit widths. */
#define PCT_UCS_ENCODERS(NAME, UNIT)                                                 \
    pct_status pct_encoded_size_##NAME(const UNIT *src, size_t n,                    \
                                       const pct_set *keep, size_t limit,            \
                                       size_t *out_size)                             \
    {                                                                                \
        size_t size = 0;                                                             \
        for (size_t i = 0; i < n; i++) {                                             \
            uint32_t c = src[i];                                                     \
            size_t grow;                                                             \
            if (c < 0x80)                                                            \
                grow = pct_set_has(keep, (unsigned char)c) ? 1 : 3;                  \
            else if (c < 0x800)                                                      \
                grow = 6;                                                            \
            else if (c < 0x10000) {                                                  \
                if (c >= 0xD800 && c <= 0xDFFF) {                                    \
                    *out_size = i;                                                   \
                    return PCT_ERR_SURROGATE;                                        \
                }                                                                    \
                grow = 9;                                                            \
            } else                                                                   \
                grow = 12;                                                           \
            if (!grow_within(&size, grow, limit))                                    \
                return PCT_ERR_TOO_LARGE;                                            \
        }                                                                            \
        *out_size = size;                                                            \
        return PCT_OK;                                                               \
    }                                                                                \
                                                                                     \
    size_t pct_encode_##NAME(const UNIT *src, size_t n, const pct_set *keep,         \
                             int plus, uint8_t *dst)                                 \
    {                                                                                \
        uint8_t *d = dst;                                                            \
        for (size_t i = 0; i < n; i++) {                                             \
            uint32_t c = src[i];                                                     \
            if (c < 0x80) {                                                          \
                if (pct_set_has(keep, (unsigned char)c))                             \
                    *d++ = (plus && c == ' ') ? (uint8_t)'+' : (uint8_t)c;           \
                else                                                                 \
                    d = pct_put_escape(d, c);                                        \
            } else if (c < 0x800) {                                                  \
                d = pct_put_escape(d, 0xC0u | (c >> 6));                                 \
                d = pct_put_escape(d, 0x80u | (c & 0x3Fu));                              \
            } else if (c < 0x10000) {                                                \
                d = pct_put_escape(d, 0xE0u | (c >> 12));                                \
                d = pct_put_escape(d, 0x80u | ((c >> 6) & 0x3Fu));                       \
                d = pct_put_escape(d, 0x80u | (c & 0x3Fu));                              \
            } else {                                                                 \
                d = pct_put_escape(d, 0xF0u | (c >> 18));                                \
                d = pct_put_escape(d, 0x80u | ((c >> 12) & 0x3Fu));                      \
                d = pct_put_escape(d, 0x80u | ((c >> 6) & 0x3Fu));                       \
                d = pct_put_escape(d, 0x80u | (c & 0x3Fu));                              \
            }                                                                        \
        }                                                                            \
        return (size_t)(d - dst);                                                    \
    }

PCT_UCS_ENCODERS(ucs1, uint8_t)
PCT_UCS_ENCODERS(ucs2, uint16_t)
PCT_UCS_ENCODERS(ucs4, uint32_t)
