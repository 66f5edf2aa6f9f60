/* JavaScript's decodeURI / decodeURIComponent, Annex B escape / unescape, and
 * RFC 3987's URI-to-IRI escape decoding, on text of 1, 2 or 4 byte units.
 * The walks themselves are in pct_ecma_units.h, once per width. */
#include <string.h>

#include "pct_ecma.h"

/* Tested with pct_set_has only (never given to a kernel), so `nibbles` is
 * left empty. Escapes of these stay as written in decodeURI: ; / ? : @ & = + $ , # */
static const pct_set DECODE_URI_RESERVED = {.bits = {0, 0xAC009858u, 0x00000001u, 0, 0, 0, 0, 0}};
/* Kept by escape: A-Z a-z 0-9 @ * _ + - . / */
static const pct_set JS_ESCAPE_SAFE = {.bits = {0, 0x03FFEC00u, 0x87FFFFFFu, 0x07FFFFFEu, 0, 0, 0, 0}};

static inline int hex_of(uint32_t unit)
{
    return unit < 256 ? pct_hex_value[unit] : -1;
}

static inline int is_alpha(uint32_t unit)
{
    return (unit | 0x20) >= 'a' && (unit | 0x20) <= 'z';
}

/* Where a decoder's output goes: nowhere (dst NULL: only measured) or units
 * of `kind` bytes. */
typedef struct {
    void *dst;
    int kind;
    size_t len;       /* units written (or counted) so far */
    uint32_t maxchar; /* the largest of them past the literal runs */
} sink;

static inline void emit(sink *w, uint32_t c)
{
    if (w->dst) {
        switch (w->kind) {
        case 1:
            ((uint8_t *)w->dst)[w->len] = (uint8_t)c;
            break;
        case 2:
            ((uint16_t *)w->dst)[w->len] = (uint16_t)c;
            break;
        default:
            ((uint32_t *)w->dst)[w->len] = c;
            break;
        }
    }
    w->len++;
    if (c > w->maxchar)
        w->maxchar = c;
}

/* Bytes in the UTF-8 sequence a lead byte starts; 0 if it starts none
 * (ASCII is not asked about). C0, C1 and F5 and above only start overlong
 * or out-of-range forms. */
static inline size_t utf8_length(unsigned lead)
{
    return lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
         : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
}

/* Whether b may be byte k (>= 1) of the sequence led by `lead`: the second
 * byte's narrower ranges rule out overlong forms (E0, F0), surrogates (ED)
 * and values past U+10FFFF (F4). */
static inline int continuation_ok(unsigned lead, size_t k, unsigned b)
{
    if (k == 1) {
        switch (lead) {
        case 0xE0:
            return b >= 0xA0 && b <= 0xBF;
        case 0xED:
            return b >= 0x80 && b <= 0x9F;
        case 0xF0:
            return b >= 0x90 && b <= 0xBF;
        case 0xF4:
            return b >= 0x80 && b <= 0x8F;
        default:
            break;
        }
    }
    return (b & 0xC0) == 0x80;
}

/* RFC 3987 2.2: ucschar, or iprivate where allowed; never a bidi formatting
 * character (4.1). c is a scalar value >= 0x80. */
static int iri_char(uint32_t c, int private_ok)
{
    if (c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E))
        return 0;
    if ((c >= 0xA0 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) || (c >= 0xFDF0 && c <= 0xFFEF))
        return 1;
    if (c >= 0xE000 && c <= 0xF8FF)
        return private_ok;
    if (c < 0x10000 || (c & 0xFFFF) > 0xFFFD) /* the rest of the BMP; xFFFE, xFFFF */
        return 0;
    if (c < 0xE0000) /* planes 1 to 13 */
        return 1;
    if (c < 0xF0000) /* plane 14 */
        return c >= 0xE1000;
    return private_ok; /* planes 15 and 16 */
}

/* Without branches: the mix of widths in real text is often unpredictable. */
static inline size_t escape_width(uint32_t c)
{
    size_t safe = (size_t)((c < 0x80) & pct_set_has(&JS_ESCAPE_SAFE, (unsigned char)(c & 0x7F)));
    size_t wide = c < 0x10000 ? 6 : 12;
    return c < 0x100 ? 3 - 2 * safe : wide;
}

static inline uint8_t *put_u_escape(uint8_t *d, uint32_t unit)
{
    d[0] = '%';
    d[1] = 'u';
    for (int k = 0; k < 4; k++)
        d[2 + k] = (uint8_t)pct_hex_upper[(unit >> (12 - 4 * k)) & 15];
    return d + 6;
}

#define UNIT uint8_t
#define UNIT_BYTES 1
#define FN(name) name##_ucs1
#include "pct_ecma_units.h"
#undef UNIT
#undef UNIT_BYTES
#undef FN

#define UNIT uint16_t
#define UNIT_BYTES 2
#define FN(name) name##_ucs2
#include "pct_ecma_units.h"
#undef UNIT
#undef UNIT_BYTES
#undef FN

#define UNIT uint32_t
#define UNIT_BYTES 4
#define FN(name) name##_ucs4
#include "pct_ecma_units.h"
#undef UNIT
#undef UNIT_BYTES
#undef FN

pct_text pct_text_slice(pct_text t, size_t start, size_t end)
{
    pct_text out = t;
    out.data = (const char *)t.data + start * (size_t)t.kind;
    out.len = end - start;
    return out;
}

/* Calls the walk for src's width with the rest of the arguments. */
#define DISPATCH(src, name, ...)                                                \
    ((src).kind == 1 ? name##_ucs1((const uint8_t *)(src).data, (src).len, __VA_ARGS__)  \
     : (src).kind == 2 ? name##_ucs2((const uint16_t *)(src).data, (src).len, __VA_ARGS__) \
     : name##_ucs4((const uint32_t *)(src).data, (src).len, __VA_ARGS__))

static void finish(const sink *w, pct_decoded *out)
{
    out->len = w->len;
    out->maxchar = w->maxchar;
}

pct_ecma_error pct_ecma_decode(pct_text src, int keep_reserved, void *dst, int dst_kind,
                               pct_decoded *out, size_t *error_pos)
{
    sink w = {dst, dst_kind, 0, 0};
    pct_ecma_error e = DISPATCH(src, decode, keep_reserved, &w, error_pos);
    finish(&w, out);
    return e;
}

pct_status pct_js_escaped_size(pct_text src, size_t limit, size_t *out_size)
{
    return DISPATCH(src, escaped_size, limit, out_size);
}

size_t pct_js_escape(pct_text src, uint8_t *dst)
{
    return DISPATCH(src, escape, dst);
}

void pct_js_unescape(pct_text src, void *dst, int dst_kind, pct_decoded *out)
{
    sink w = {dst, dst_kind, 0, 0};
    DISPATCH(src, unescape, &w);
    finish(&w, out);
}

void pct_iri_split(pct_text src, pct_iri_parts *parts)
{
    DISPATCH(src, iri_split, parts);
}

void pct_iri_decode(pct_text src, size_t private_start, size_t private_end, void *dst,
                    int dst_kind, pct_decoded *out)
{
    sink w = {dst, dst_kind, 0, 0};
    DISPATCH(src, iri_decode, private_start, private_end, &w);
    finish(&w, out);
}
