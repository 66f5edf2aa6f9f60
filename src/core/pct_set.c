/* Safe sets and the hex tables shared by every kernel. */
#include <string.h>

#include "pct.h"

#define H(v) (int8_t)(v)
/* -1 everywhere but 0-9, A-F, a-f. */
const int8_t pct_hex_value[256] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    H(0), H(1), H(2), H(3), H(4), H(5), H(6), H(7), H(8), H(9), -1, -1, -1, -1, -1, -1,
    -1, H(10), H(11), H(12), H(13), H(14), H(15), -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, H(10), H(11), H(12), H(13), H(14), H(15), -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};
#undef H

const char pct_hex_upper[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};

void pct_set_clear(pct_set *set)
{
    memset(set, 0, sizeof *set);
}

void pct_set_add(pct_set *set, unsigned char c)
{
    if (c < 0x80) {
        set->bits[c >> 5] |= 1u << (c & 31u);
        set->nibbles[c & 15u] |= (uint8_t)(1u << (c >> 4));
    }
}

void pct_set_add_bytes(pct_set *set, const uint8_t *chars, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pct_set_add(set, chars[i]);
}

void pct_set_add_unreserved(pct_set *set)
{
    static const char marks[] = "-._~";
    for (unsigned c = '0'; c <= '9'; c++)
        pct_set_add(set, (unsigned char)c);
    for (unsigned c = 'A'; c <= 'Z'; c++) {
        pct_set_add(set, (unsigned char)c);
        pct_set_add(set, (unsigned char)(c + ('a' - 'A')));
    }
    pct_set_add_bytes(set, (const uint8_t *)marks, sizeof marks - 1);
}
