/* Code units from UTF-8 that pct_decode_utf8 found valid: the second pass of
 * building text in one allocation of the right width. */
#include <string.h>

#include "pct.h"

/* 8 ASCII bytes at src (n >= 8 left). */
static int ascii8(const uint8_t *src)
{
    uint64_t w;
    memcpy(&w, src, 8);
    return !(w & 0x8080808080808080u);
}

/* The code point of the multi-byte sequence led by src[*i] (i < n), moving
 * *i past it. Only for valid input; otherwise some value, never reading
 * past n. */
static uint32_t next_code_point(const uint8_t *src, size_t n, size_t *i)
{
    uint32_t c = src[(*i)++];
    unsigned need = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
    c &= 0x3Fu >> need;
    for (; need && *i < n; need--)
        c = c << 6 | (src[(*i)++] & 0x3Fu);
    return c;
}

/* One body for the three widths: 8 ASCII bytes at a time where they are. */
#define PCT_UTF8_TO(name, unit)                                         \
    size_t name(const uint8_t *src, size_t n, unit *dst, size_t cap)    \
    {                                                                   \
        size_t i = 0, o = 0;                                            \
        while (i < n && o < cap) {                                      \
            if (n - i >= 8 && cap - o >= 8 && ascii8(src + i)) {        \
                for (size_t k = 0; k < 8; k++)                          \
                    dst[o + k] = src[i + k];                            \
                i += 8;                                                 \
                o += 8;                                                 \
            } else if (src[i] < 0x80) {                                 \
                dst[o++] = src[i++];                                    \
            } else {                                                    \
                dst[o++] = (unit)next_code_point(src, n, &i);           \
            }                                                           \
        }                                                               \
        return o;                                                       \
    }

PCT_UTF8_TO(pct_utf8_to_ucs1, uint8_t)
PCT_UTF8_TO(pct_utf8_to_ucs2, uint16_t)
PCT_UTF8_TO(pct_utf8_to_ucs4, uint32_t)
