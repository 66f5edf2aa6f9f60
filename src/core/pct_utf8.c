/* UTF-8 of decoded bytes: the check that tells a caller it may build the
 * text itself, and the writers of its code units. Both step over ASCII a
 * word at a time, the common case of URL text. */
#include <string.h>

#include "pct_kernels.h"

#define HIGH_BITS 0x8080808080808080u

/* The high bits of the 8 bytes at src (8 bytes readable). */
static inline uint64_t high8(const uint8_t *src)
{
    uint64_t w;
    memcpy(&w, src, 8);
    return w & HIGH_BITS;
}

/* The number of ASCII bytes before the first byte >= 0x80 in a word whose
 * high bits `h` are not all clear: the lowest set bit is the first byte on a
 * little-endian machine. */
#ifdef PCT_LITTLE_ENDIAN
#define ASCII_PREFIX(h, src) ((size_t)pct_ctz64(h) >> 3)
#else
static inline size_t ascii_prefix(const uint8_t *src)
{
    size_t k = 0;
    while (src[k] < 0x80)
        k++;
    return k;
}
#define ASCII_PREFIX(h, src) ascii_prefix(src)
#endif

/* Offset of the first byte >= 0x80 in src[i..n), or n. */
static inline size_t skip_ascii(const uint8_t *src, size_t i, size_t n)
{
    for (; n - i >= 32; i += 32) {
        uint64_t h = high8(src + i) | high8(src + i + 8) | high8(src + i + 16) | high8(src + i + 24);
        if (h)
            break;
    }
    for (; n - i >= 8; i += 8) {
        uint64_t h = high8(src + i);
        if (h)
            return i + ASCII_PREFIX(h, src + i);
    }
    while (i < n && src[i] < 0x80)
        i++;
    return i;
}

size_t pct_ascii_span(const uint8_t *src, size_t n)
{
    return skip_ascii(src, 0, n);
}

/* At a byte >= 0x80, src[i]: the length of the well-formed sequence it
 * starts, or 0 when there is none, with *bad the length of the maximal
 * subpart of one (the bytes a decoder replaces by one U+FFFD, >= 1). */
static inline size_t sequence_at(const uint8_t *src, size_t i, size_t n, size_t *bad)
{
    unsigned c = src[i];
    *bad = 1;
    /* C0, C1 (always overlong) and F5-FF lead nothing; 80-BF continue nothing */
    if (c < 0xC2 || c > 0xF4)
        return 0;
    size_t need = 1u + (c >= 0xE0) + (c >= 0xF0);
    /* the second byte's range excludes overlong forms (after E0, F0),
     * surrogates (ED) and values past U+10FFFF (F4) */
    unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (n - i < 2 || src[i + 1] < lo || src[i + 1] > hi)
        return 0;
    for (size_t k = 2; k <= need; k++) {
        if (n - i <= k || (src[i + k] & 0xC0u) != 0x80u) {
            *bad = k;
            return 0;
        }
    }
    return need + 1;
}

void pct_scalar_utf8_check(const uint8_t *src, size_t n, pct_utf8_info *info)
{
    size_t cont = 0, bad;
    unsigned top = 0;
    info->valid = 0;
    info->maxchar = 0;
    info->nchars = 0;
    size_t i = skip_ascii(src, 0, n);
    while (i < n) {
        size_t len = sequence_at(src, i, n, &bad);
        if (!len)
            return;
        if (src[i] > top)
            top = src[i];
        cont += len - 1;
        i += len;
        /* text past Latin-1 (CJK, Cyrillic...) runs sequence after sequence */
        if (i < n && src[i] < 0x80)
            i = skip_ascii(src, i, n);
    }
    info->valid = 1;
    info->maxchar = pct_utf8_maxchar(top);
    info->nchars = n - cont;
}

size_t pct_utf8_repair(const uint8_t *src, size_t n, int replace, uint8_t *dst)
{
    size_t i = 0, o = 0, bad;
    while (i < n) {
        size_t j = skip_ascii(src, i, n);
        memcpy(dst + o, src + i, j - i);
        o += j - i;
        if (j == n)
            break;
        size_t len = sequence_at(src, j, n, &bad);
        if (len) {
            memcpy(dst + o, src + j, len);
            o += len;
            i = j + len;
        } else {
            if (replace == PCT_UTF8_ESCAPE) {
                static const char hex[] = "0123456789ABCDEF";
                for (size_t k = 0; k < bad; k++) {
                    dst[o++] = '%';
                    dst[o++] = (uint8_t)hex[src[j + k] >> 4];
                    dst[o++] = (uint8_t)hex[src[j + k] & 15];
                }
            } else if (replace) {
                dst[o++] = 0xEF; /* U+FFFD */
                dst[o++] = 0xBF;
                dst[o++] = 0xBD;
            }
            i = j + bad;
        }
    }
    return o;
}

/* Below these many bytes the vector check and writer cost more than they
 * save (the check takes a short input as one padded vector). */
#define VECTOR_CHECK_MIN 8
#define VECTOR_WIDEN_MIN 64

/* The range of the second byte of a sequence by its lead C2-F4: no
 * overlong form (after E0, F0), surrogate (ED) or value past U+10FFFF (F4). */
static const uint8_t second_lo[0xF5 - 0xC2] = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0xA0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x90, 0x80, 0x80, 0x80, 0x80,
};
static const uint8_t second_hi[0xF5 - 0xC2] = {
    0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF,
    0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF,
    0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF,
    0xBF, 0xBF, 0xBF, 0xBF, 0x9F, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0x8F,
};

/* pct_utf8_check of short text: a character at a time, no call in the loop. */
static void check_short(const uint8_t *src, size_t n, pct_utf8_info *info)
{
    size_t i = 0, cont = 0;
    unsigned top = 0;
    info->valid = 0;
    info->maxchar = 0;
    info->nchars = 0;
    while (i < n) {
        unsigned c = src[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c - 0xC2u > 0xF4u - 0xC2u)
            return;
        size_t need = 1u + (c >= 0xE0) + (c >= 0xF0);
        if (n - i <= need || src[i + 1] < second_lo[c - 0xC2] || src[i + 1] > second_hi[c - 0xC2])
            return;
        if (need >= 2 && ((src[i + 2] & 0xC0u) != 0x80u || (need == 3 && (src[i + 3] & 0xC0u) != 0x80u)))
            return;
        top = c > top ? c : top;
        cont += need;
        i += need + 1;
    }
    info->valid = 1;
    info->maxchar = pct_utf8_maxchar(top);
    info->nchars = n - cont;
}

void pct_utf8_check(const uint8_t *src, size_t n, pct_utf8_info *info)
{
    const pct_kernel *k = pct_kernel_active();
    if (n < VECTOR_CHECK_MIN)
        check_short(src, n, info);
    else if (k->utf8_check)
        k->utf8_check(src, n, info);
    else
        pct_scalar_utf8_check(src, n, info);
}

/* The high bits of the bytes of the word w (the 8 bytes at src) that stop
 * a run, exact up to the first one: the borrow of the zero-byte test only
 * marks bytes after a true zero. */
static inline uint64_t run_stops8(uint64_t w, int plus)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t x = w ^ (ones * '%'), stops = (x - ones) & ~x;
    if (plus) {
        uint64_t y = w ^ (ones * '+');
        stops |= (y - ones) & ~y;
    }
    return (stops | w) & HIGH_BITS;
}

#ifdef PCT_LITTLE_ENDIAN
#define RUN_PREFIX(stops, src, plus) ((size_t)pct_ctz64(stops) >> 3)
#else
/* A byte that ends a literal ASCII run of decoding: '%', with plus '+', or
 * one >= 0x80. */
static inline int stops_run(uint8_t c, int plus)
{
    return c == '%' || (plus && c == '+') || c >= 0x80;
}

static inline size_t run_prefix(const uint8_t *src, int plus)
{
    size_t k = 0;
    while (!stops_run(src[k], plus))
        k++;
    return k;
}
#define RUN_PREFIX(stops, src, plus) run_prefix(src, plus)
#endif

/* The next byte of decoded input at src[*i] (i < n), moving *i past it. */
static inline unsigned next_byte(const uint8_t *src, size_t n, size_t *i, int plus)
{
    unsigned c = src[*i];
    if (c == '%' && n - *i >= 3) {
        int hi = pct_hex_value[src[*i + 1]], lo = pct_hex_value[src[*i + 2]];
        if ((hi | lo) >= 0) {
            *i += 3;
            return (unsigned)(hi << 4 | lo);
        }
    }
    *i += 1;
    return plus && c == '+' ? ' ' : c;
}

/* The Latin-1 text dst[0..n) as UTF-8, in place, from the end (dst has
 * room: each code point past ASCII came from two bytes of input or more);
 * returns the number of bytes it grew by, one per code point past ASCII. */
static size_t latin1_to_utf8_in_place(uint8_t *dst, size_t n)
{
    size_t high = 0;
    for (size_t k = 0; k < n; k++)
        high += dst[k] >> 7;
    /* until the output meets the input: the ASCII before is in place */
    for (size_t k = n, j = n + high; j > k;) {
        uint8_t c = dst[--k];
        if (c < 0x80) {
            dst[--j] = c;
        } else {
            dst[--j] = (uint8_t)(0x80 | (c & 0x3F));
            dst[--j] = (uint8_t)(0xC0 | c >> 6);
        }
    }
    return high;
}

/* pct_decode and pct_utf8_check in one pass, for short text; one body per
 * value of plus and narrow. Literal ASCII moves a word at a time; otherwise
 * a whole character is decoded at once, its bytes checked as they are
 * written: the second one against the range its lead allows, the others as
 * continuations. With `narrow`, code points up to U+00FF are written as one
 * byte each (Latin-1) until the first wider one, where the text so far is
 * turned into UTF-8 in place and decoding goes on (nothing is decoded
 * twice). At the first ill-formed byte the rest is decoded without
 * checking (the caller then decodes with an error handler). dst may be
 * src. */
static PCT_ALWAYS_INLINE size_t decode_checked_body(const uint8_t *src, size_t n, int plus, int narrow,
                                                    uint8_t *dst, pct_utf8_info *info)
{
    size_t i = 0, o = 0, cont = 0;
    unsigned top = 0;
    int latin1 = narrow; /* dst holds Latin-1 so far */
    /* a whole word may be stored past the run it ends unless decoding in
     * place has moved the output behind the input (the word would then
     * cover unread input) */
    const int apart = pct_apart(src, dst, n);
    info->valid = 0;
    info->maxchar = 0;
    info->nchars = 0;
    while (i < n) {
        /* a literal run, a word at a time */
        while (n - i >= 8) {
            uint64_t w;
            memcpy(&w, src + i, 8);
            uint64_t stops = run_stops8(w, plus);
            if (!stops) {
                memcpy(dst + o, &w, 8);
                i += 8;
                o += 8;
                continue;
            }
            size_t k = RUN_PREFIX(stops, src + i, plus);
            if (apart || o == i)
                memcpy(dst + o, &w, 8);
            else
                memmove(dst + o, src + i, k);
            i += k;
            o += k;
            break;
        }
        /* the last few literal bytes, one at a time */
        if (n - i < 8) {
            for (unsigned c; i < n && (c = src[i]) < 0x80 && c != '%' && !(plus && c == '+'); i++)
                dst[o++] = (uint8_t)c;
        }
        if (i == n)
            break;
        unsigned b = next_byte(src, n, &i, plus);
        if (b < 0x80) {
            dst[o++] = (uint8_t)b;
            continue;
        }
        if (latin1) {
            if ((b == 0xC2 || b == 0xC3) && i < n) {
                size_t at = i;
                unsigned c = next_byte(src, n, &i, plus);
                if ((c & 0xC0u) == 0x80u) {
                    dst[o++] = (uint8_t)((b & 0x1Fu) << 6 | (c & 0x3Fu));
                    top = b > top ? b : top;
                    continue;
                }
                i = at; /* not a continuation: taken again below */
            }
            size_t grown = latin1_to_utf8_in_place(dst, o);
            o += grown;
            cont += grown;
            latin1 = 0;
        }
        dst[o++] = (uint8_t)b;
        if (b - 0xC2u > 0xF4u - 0xC2u)
            goto ill_formed;
        top = b > top ? b : top;
        unsigned need = 1u + (b >= 0xE0) + (b >= 0xF0);
        unsigned lo = second_lo[b - 0xC2], hi = second_hi[b - 0xC2];
        for (unsigned k = 0; k < need; k++) {
            if (i == n)
                return o; /* cut short: ill-formed */
            unsigned c = next_byte(src, n, &i, plus);
            dst[o++] = (uint8_t)c;
            if (c < lo || c > hi)
                goto ill_formed;
            lo = 0x80;
            hi = 0xBF;
        }
        cont += need;
    }
    info->valid = 1;
    info->maxchar = pct_utf8_maxchar(top);
    info->nchars = o - cont;
    return o;
ill_formed:
    return o + pct_decode(src + i, n - i, plus, dst + o);
}

#define PCT_DECODE_CHECKED(NAME, PLUS, NARROW)                                        \
    static size_t NAME(const uint8_t *src, size_t n, uint8_t *dst, pct_utf8_info *info) \
    {                                                                                 \
        return decode_checked_body(src, n, PLUS, NARROW, dst, info);                  \
    }
PCT_DECODE_CHECKED(decode_checked, 0, 0)
PCT_DECODE_CHECKED(decode_checked_plus, 1, 0)
PCT_DECODE_CHECKED(decode_narrowed, 0, 1)
PCT_DECODE_CHECKED(decode_narrowed_plus, 1, 1)

/* Up to this many bytes of input, the fused pass beats the kernel's decoder
 * (its vectors take longer input) and the check after it. */
#define DECODE_CHECKED_MAX 31

size_t pct_decode_utf8(const uint8_t *src, size_t n, int plus, uint8_t *dst, pct_utf8_info *info)
{
    if (n <= DECODE_CHECKED_MAX)
        return plus ? decode_checked_plus(src, n, dst, info) : decode_checked(src, n, dst, info);
    size_t len = pct_decode(src, n, plus, dst);
    pct_utf8_check(dst, len, info);
    return len;
}

size_t pct_decode_text(const uint8_t *src, size_t n, int plus, uint8_t *dst, pct_utf8_info *info)
{
    if (n <= DECODE_CHECKED_MAX)
        return plus ? decode_narrowed_plus(src, n, dst, info) : decode_narrowed(src, n, dst, info);
    size_t len = pct_decode(src, n, plus, dst);
    pct_utf8_check(dst, len, info);
    if (!info->valid || info->maxchar != 0xFF)
        return len;
    /* Latin-1 in place: the output never passes the input it is read from */
    size_t i = skip_ascii(dst, 0, len), o = i;
    while (i < len) {
        uint8_t c = dst[i];
        if (c < 0x80) {
            dst[o++] = c;
            i++;
        } else {
            dst[o++] = (uint8_t)((c & 0x1Fu) << 6 | (dst[i + 1] & 0x3Fu));
            i += 2;
        }
    }
    return o;
}

/* The code point of the multi-byte sequence led by src[*i] (i < n), moving
 * *i past it. Only for valid input; otherwise some value, never reading
 * past n. */
static inline uint32_t next_code_point(const uint8_t *src, size_t n, size_t *i)
{
    const uint8_t *p = src + *i;
    size_t left = n - *i;
    uint32_t c = p[0];
    if (c < 0xE0 && left >= 2) {
        *i += 2;
        return (c & 0x1Fu) << 6 | (p[1] & 0x3Fu);
    }
    if (c < 0xF0 && left >= 3) {
        *i += 3;
        return (c & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
    }
    if (left >= 4) {
        *i += 4;
        return (c & 0x07u) << 18 | (p[1] & 0x3Fu) << 12 | (p[2] & 0x3Fu) << 6 | (p[3] & 0x3Fu);
    }
    *i += 1;
    return c;
}

/* One body for the three widths: from an ASCII byte, 8 bytes stored at a
 * time (widened by the compiler's vector code where it can) and kept up to
 * the first byte past ASCII, which starts a code point; no call in the
 * loop: short text, mixed text, switches often. */
#define PCT_UTF8_TO(name, unit)                                         \
    size_t name(const uint8_t *src, size_t n, unit *dst, size_t cap)    \
    {                                                                   \
        size_t i = 0, o = 0;                                            \
        while (i < n && o < cap) {                                      \
            if (src[i] >= 0x80) {                                       \
                dst[o++] = (unit)next_code_point(src, n, &i);           \
            } else if (n - i >= 8 && cap - o >= 8) {                    \
                uint8_t w[8]; /* a copy: dst may alias src */          \
                memcpy(w, src + i, 8);                                  \
                uint64_t h = high8(w);                                  \
                for (size_t k = 0; k < 8; k++)                          \
                    dst[o + k] = w[k];                                  \
                if (!h) {                                               \
                    i += 8;                                             \
                    o += 8;                                             \
                    continue;                                           \
                }                                                       \
                size_t run = ASCII_PREFIX(h, w); /* 1..7 */             \
                i += run;                                               \
                o += run;                                               \
                dst[o++] = (unit)next_code_point(src, n, &i);           \
            } else {                                                    \
                dst[o++] = src[i++];                                    \
            }                                                           \
        }                                                               \
        return o;                                                       \
    }

PCT_UTF8_TO(pct_utf8_to_ucs1, uint8_t)
PCT_UTF8_TO(pct_scalar_utf8_to_ucs2, uint16_t)
PCT_UTF8_TO(pct_utf8_to_ucs4, uint32_t)

size_t pct_utf8_to_ucs2(const uint8_t *src, size_t n, uint16_t *dst, size_t cap)
{
    const pct_kernel *k = pct_kernel_active();
    if (n >= VECTOR_WIDEN_MIN && k->utf8_to_ucs2)
        return k->utf8_to_ucs2(src, n, dst, cap);
    return pct_scalar_utf8_to_ucs2(src, n, dst, cap);
}
