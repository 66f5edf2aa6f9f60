/* pct_ecma: JavaScript's decodeURI / decodeURIComponent and Annex B
 * escape / unescape, and the escape decoding of RFC 3987's URI-to-IRI
 * mapping. Plain C99, no Python.
 *
 * Input is text stored one code point per unit of 1, 2 or 4 bytes (the
 * layout of a Python str); an index into it is a code point index. The
 * decoders keep every character that is not part of a decoded escape, so the
 * widest character of their output is the wider of the input's own and of
 * what they decode: they report only the latter and leave the former to the
 * caller, who knows it without a scan.
 *
 * The decoders work in two passes over one walk: with dst NULL they only
 * measure (and validate), then the caller allocates and calls again with
 * dst. Their output is never longer than their input.
 */
#ifndef PCT_ECMA_H
#define PCT_ECMA_H

#include "pct.h"

typedef struct {
    const void *data;
    size_t len;  /* in code points */
    int kind;    /* bytes per unit: 1, 2 or 4 */
} pct_text;

/* The units [start, end) of t (start <= end <= t.len). */
pct_text pct_text_slice(pct_text t, size_t start, size_t end);

/* What a pass of a decoder found. */
typedef struct {
    size_t len;       /* code points of the output */
    uint32_t maxchar; /* the largest non-ASCII code point decoding produced (0 if none)
                         or more, but never more than the largest of the output */
} pct_decoded;

/* ---- decodeURI, decodeURIComponent (ECMA-262 19.2.6.6 Decode) -------------
 * Every %XX is decoded; bytes >= 0x80 must form complete, well-formed UTF-8
 * (no overlong form, surrogate or value past U+10FFFF), each byte escaped.
 * With keep_reserved (decodeURI), escapes of ; / ? : @ & = + $ , # stay as
 * written. The first problem in a left-to-right scan is reported with the
 * index of the '%' that starts it; its kind names what CPython's UTF-8
 * decoder would say of the escaped bytes of the run. */
typedef enum {
    PCT_ECMA_OK = 0,
    PCT_ECMA_BAD_ESCAPE = 1,           /* '%' not followed by two hex digits */
    PCT_ECMA_INVALID_START = 2,        /* a byte that starts no UTF-8 sequence */
    PCT_ECMA_INVALID_CONTINUATION = 3, /* a byte that cannot come next in the sequence */
    PCT_ECMA_UNEXPECTED_END = 4        /* the escapes end before the sequence does */
} pct_ecma_error;

/* dst: NULL to measure, else units of dst_kind bytes with room for out->len
 * (from a measuring pass that returned PCT_ECMA_OK on the same input). */
pct_ecma_error pct_ecma_decode(pct_text src, int keep_reserved, void *dst, int dst_kind,
                               pct_decoded *out, size_t *error_pos);

/* ---- escape (Annex B.2.1.1) ------------------------------------------------
 * A-Z a-z 0-9 @ * _ + - . / are kept, other units below 256 become %XX,
 * the rest %uXXXX (uppercase hex); a code point above U+FFFF is two UTF-16
 * units, so two %u escapes. The output is ASCII; its size equals src.len
 * exactly when nothing needs escaping. */
pct_status pct_js_escaped_size(pct_text src, size_t limit, size_t *out_size);
/* Writes the pct_js_escaped_size bytes; returns their number. */
size_t pct_js_escape(pct_text src, uint8_t *dst);

/* ---- unescape (Annex B.2.1.2) ----------------------------------------------
 * %uXXXX and %XX (either hex case) are decoded, anything else is kept; an
 * escaped high surrogate directly followed by an escaped low surrogate
 * becomes the one code point they encode. Never fails. dst as above. */
void pct_js_unescape(pct_text src, void *dst, int dst_kind, pct_decoded *out);

/* ---- URI to IRI (RFC 3987 3.2) ---------------------------------------------
 * Where the parts are, by RFC 3986 appendix B: the query (iprivate is allowed
 * there only) and the host of a reg-name authority (after the last '@', up
 * to the last ':'), and whether one of its labels starts with "xn--" (any
 * case) and so needs IDNA, which is left to the caller. Absent parts are
 * empty ranges at src.len. */
typedef struct {
    size_t query_start, query_end;
    size_t host_start, host_end;
    int host_punycode;
} pct_iri_parts;

void pct_iri_split(pct_text src, pct_iri_parts *parts);

/* Decodes each escaped UTF-8 sequence that encodes an IRI character (ucschar,
 * iprivate inside [private_start, private_end), never a bidi formatting
 * character); every other escape, and every other character, is kept as
 * written. dst as above. */
void pct_iri_decode(pct_text src, size_t private_start, size_t private_end, void *dst,
                    int dst_kind, pct_decoded *out);

#endif /* PCT_ECMA_H */
