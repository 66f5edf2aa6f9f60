/* Scalar decoding of %XX escapes. */
#include <string.h>

#include "pct.h"

size_t pct_find_escape(const uint8_t *src, size_t n, int plus)
{
    if (!plus) {
        const uint8_t *p = memchr(src, '%', n);
        return p ? (size_t)(p - src) : n;
    }
    for (size_t i = 0; i < n; i++)
        if (src[i] == '%' || src[i] == '+')
            return i;
    return n;
}

size_t pct_decode(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    size_t i = 0, o = 0;
    while (i < n) {
        /* Copy the run up to the next escape in one go; memmove since dst may be src. */
        size_t run = pct_find_escape(src + i, n - i, plus);
        if (run) {
            if (dst + o != src + i)
                memmove(dst + o, src + i, run);
            i += run;
            o += run;
            if (i == n)
                break;
        }
        if (src[i] == '+') {
            dst[o++] = ' ';
            i++;
            continue;
        }
        if (n - i >= 3) {
            int hi = pct_hex_value[src[i + 1]], lo = pct_hex_value[src[i + 2]];
            if ((hi | lo) >= 0) {
                dst[o++] = (uint8_t)((hi << 4) | lo);
                i += 3;
                continue;
            }
        }
        dst[o++] = '%'; /* malformed: passed through */
        i++;
    }
    return o;
}
