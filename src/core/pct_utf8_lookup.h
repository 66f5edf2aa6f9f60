/* The lookup tables of the UTF-8 check of the vector kernels (AVX2 and
 * AVX-512): the method of Keiser and Lemire ("Validating UTF-8 in less than
 * one instruction per byte", 2021). Each byte with the one before it is
 * looked up in three nibble tables, by the high and low nibble of the byte
 * before and the high nibble of the byte itself; the bits the three entries
 * share name the errors the pair shows. */
#ifndef PCT_UTF8_LOOKUP_H
#define PCT_UTF8_LOOKUP_H

#include <stdint.h>

#define U8_TOO_SHORT 0x01   /* a lead or ASCII, then a lead or ASCII where a continuation is due */
#define U8_TOO_LONG 0x02    /* ASCII, then a continuation */
#define U8_OVERLONG_3 0x04  /* E0 80-9F */
#define U8_TOO_LARGE 0x08   /* F4 90-BF, F5-FF 80-BF */
#define U8_SURROGATE 0x10   /* ED A0-BF */
#define U8_OVERLONG_2 0x20  /* C0-C1 80-BF */
#define U8_TOO_LARGE_1000 0x40 /* F5-FF 80-8F */
#define U8_OVERLONG_4 0x40  /* F0 80-8F */
#define U8_TWO_CONTS 0x80   /* a continuation after a continuation (not always an error) */
#define U8_CARRY (U8_TOO_SHORT | U8_TOO_LONG | U8_TWO_CONTS)

/* by the high nibble of the byte before */
static const uint8_t pct_u8_byte_1_high[16] = {
    U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG,
    U8_TWO_CONTS, U8_TWO_CONTS, U8_TWO_CONTS, U8_TWO_CONTS,
    U8_TOO_SHORT | U8_OVERLONG_2, U8_TOO_SHORT, U8_TOO_SHORT | U8_OVERLONG_3 | U8_SURROGATE,
    U8_TOO_SHORT | U8_TOO_LARGE | U8_TOO_LARGE_1000 | U8_OVERLONG_4,
};

#define U8_L (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000)
/* by the low nibble of the byte before */
static const uint8_t pct_u8_byte_1_low[16] = {
    U8_CARRY | U8_OVERLONG_3 | U8_OVERLONG_2 | U8_OVERLONG_4, U8_CARRY | U8_OVERLONG_2, U8_CARRY, U8_CARRY,
    U8_CARRY | U8_TOO_LARGE, U8_L, U8_L, U8_L, U8_L, U8_L, U8_L, U8_L, U8_L,
    U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000 | U8_SURROGATE, U8_L, U8_L,
};
#undef U8_L

#define U8_S U8_TOO_SHORT
#define U8_CONT (U8_TOO_LONG | U8_OVERLONG_2 | U8_TWO_CONTS)
/* by the high nibble of the byte itself */
static const uint8_t pct_u8_byte_2_high[16] = {
    U8_S, U8_S, U8_S, U8_S, U8_S, U8_S, U8_S, U8_S,
    U8_CONT | U8_OVERLONG_3 | U8_TOO_LARGE_1000 | U8_OVERLONG_4, U8_CONT | U8_OVERLONG_3 | U8_TOO_LARGE,
    U8_CONT | U8_SURROGATE | U8_TOO_LARGE, U8_CONT | U8_SURROGATE | U8_TOO_LARGE,
    U8_S, U8_S, U8_S, U8_S,
};
#undef U8_CONT
#undef U8_S

#endif /* PCT_UTF8_LOOKUP_H */
