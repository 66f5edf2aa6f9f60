/* The scalar kernel: byte at a time, the reference every other kernel must match. */
#include "pct_kernels.h"

#define HEXC(x) ((x) < 10 ? '0' + (x) : 'A' - 10 + (x))
#define E(b) {'%', HEXC((b) >> 4), HEXC((b) & 15), 0}
#define E16(h) E(h + 0), E(h + 1), E(h + 2), E(h + 3), E(h + 4), E(h + 5), E(h + 6), E(h + 7), \
    E(h + 8), E(h + 9), E(h + 10), E(h + 11), E(h + 12), E(h + 13), E(h + 14), E(h + 15)
const uint8_t pct_escape4[256][4] = {
    E16(0x00), E16(0x10), E16(0x20), E16(0x30), E16(0x40), E16(0x50), E16(0x60), E16(0x70),
    E16(0x80), E16(0x90), E16(0xA0), E16(0xB0), E16(0xC0), E16(0xD0), E16(0xE0), E16(0xF0),
};
#undef E16
#undef E
#undef HEXC

size_t pct_scalar_span_safe(const uint8_t *src, size_t n, const pct_set *set)
{
    size_t i = 0;
    while (i < n && pct_set_has(set, src[i]))
        i++;
    return i;
}

size_t pct_scalar_count_unsafe(const uint8_t *src, size_t n, const pct_set *set)
{
    size_t escapes = 0;
    for (size_t i = 0; i < n; i++)
        escapes += !pct_set_has(set, src[i]);
    return escapes;
}

size_t pct_scalar_find_escape(const uint8_t *src, size_t n, int plus)
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

size_t pct_scalar_encode(const uint8_t *src, size_t n, const pct_set *keep, int plus, uint8_t *dst)
{
    uint8_t *d = dst;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = src[i];
        if (pct_set_has(keep, c))
            *d++ = (plus && c == ' ') ? (uint8_t)'+' : c;
        else
            d = pct_put_escape(d, c);
    }
    return (size_t)(d - dst);
}

size_t pct_scalar_decode(const uint8_t *src, size_t n, int plus, uint8_t *dst)
{
    return pct_decode_scalar(src, n, plus, dst);
}

static int always(void)
{
    return 1;
}

const pct_kernel pct_kernel_scalar = {
    "scalar",
    pct_scalar_span_safe,
    pct_scalar_count_unsafe,
    pct_scalar_find_escape,
    pct_scalar_encode,
    pct_scalar_encode, /* writes nothing past the output: any room is enough */
    pct_scalar_decode,
    pct_scalar_utf8_of_ucs2,
    NULL,
    NULL,
    NULL,
    always,
    NULL,
    pct_scalar_uri_offence,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
};
