/* RFC 3986 on UTF-8 text: check, requote, split, normalize. */
#include <stdlib.h>
#include <string.h>

#include "pct_authority.h"
#include "pct_kernels.h" /* the uri_scan pass */
#include "pct_portable.h"
#include "pct_uri.h"

/* Character classes (RFC 3986 2.2, 2.3, 3.1); 0 for bytes a URI cannot
 * hold. K marks every byte a URI holds as it is, so that one AND over a
 * word's bytes tells whether all of them are kept. */
enum {
    U = 1, S = 2, G = 4, /* unreserved, sub-delims, gen-delims */
    K = 8                /* kept as it is: any of the three (a scheme's bytes: pct_authority.c) */
};
#define l (U | K) /* letters */
#define d (U | K) /* digits, "-" and "." */
#define u (U | K) /* "_" and "~" */
#define p (S | K) /* "+" */
#define s (S | K)
#define g (G | K)
static const uint8_t uri_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, s, 0, g, s, 0, s, s, s, s, s, p, s, d, d, g,
    d, d, d, d, d, d, d, d, d, d, g, s, 0, s, 0, g,
    g, l, l, l, l, l, l, l, l, l, l, l, l, l, l, l,
    l, l, l, l, l, l, l, l, l, l, l, g, 0, g, 0, u,
    0, l, l, l, l, l, l, l, l, l, l, l, l, l, l, l,
    l, l, l, l, l, l, l, l, l, l, l, 0, 0, 0, u, 0,
};
#undef l
#undef d
#undef u
#undef p
#undef s
#undef g

/* The K bytes as a pct_set, for the vector kernels' span_safe (pct_set_add
 * would give the same; a constant needs no initialisation across threads).
 * bits: bit c of the set; nibbles[l]: bit h when byte 16h+l is in it. */
static const pct_set uri_kept = {
    {0x00000000u, 0xAFFFFFDAu, 0xAFFFFFFFu, 0x47FFFFFEu, 0, 0, 0, 0},
    {0xB8, 0xFC, 0xF8, 0xFC, 0xFC, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x7C, 0x54, 0x7C, 0xD4, 0x7C},
};

/* The U bytes, whose escapes PCT_URI_DECODE_UNRESERVED decodes, for the
 * kernels' component writer. */
static const pct_set uri_unreserved = {
    {0x00000000u, 0x03FF6000u, 0x87FFFFFEu, 0x47FFFFFEu, 0, 0, 0, 0},
    {0xA8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF0, 0x50, 0x50, 0x54, 0xD4, 0x70},
};

const pct_set *pct_uri_kept_set(void)
{
    return &uri_kept;
}

/* Length of the run of kept bytes at the start of s[0, n). */
static inline size_t kept_span(const uint8_t *s, size_t n)
{
    return pct_span_safe(s, n, &uri_kept);
}

#define IS_UNRESERVED(c) (uri_class[(uint8_t)(c)] & U)
#define IS_ALLOWED(c) (uri_class[(uint8_t)(c)] & K) /* '%' is not: it needs its digits */

/* ---- words ------------------------------------------------------------------
 * Eight bytes at a time in a uint64_t, loaded with memcpy (no alignment
 * needed) and only from within the input. */
#define ONES 0x0101010101010101ull
#define HIGHS (ONES << 7)

static inline uint64_t load8(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

#ifdef PCT_LITTLE_ENDIAN
#define WORD_LITTLE_ENDIAN 1
#endif

/* The high bit set in each byte of v that differs from c, clear in the
 * others; exact, as no sum carries into the next byte. */
static inline uint64_t differs(uint64_t v, uint8_t c)
{
    uint64_t x = v ^ (ONES * c);
    return ((x & ~HIGHS) + ~HIGHS) | x;
}

/* 0x80 in each byte of v equal to c, 0 in the others. */
static inline uint64_t bytes_equal(uint64_t v, uint8_t c)
{
    return ~differs(v, c) & HIGHS;
}

/* The offset, in memory order, of the first nonzero byte of hits (not 0). */
static inline size_t first_hit(uint64_t hits)
{
#ifdef WORD_LITTLE_ENDIAN
    return (size_t)pct_ctz64(hits) / 8;
#else
    uint8_t b[8];
    size_t k = 0;
    memcpy(b, &hits, 8);
    while (!b[k])
        k++;
    return k;
#endif
}

/* hits without its first k bytes in memory order (k < 8). */
static inline uint64_t drop_first(uint64_t hits, size_t k)
{
#ifdef WORD_LITTLE_ENDIAN
    return hits & (~0ull << (8 * k));
#else
    uint8_t b[8];
    memcpy(b, &hits, 8);
    memset(b, 0, k);
    memcpy(&hits, b, 8);
    return hits;
#endif
}

/* All 8 bytes at p are kept as they are. */
static inline int kept8(const uint8_t *p)
{
    return (uri_class[p[0]] & uri_class[p[1]] & uri_class[p[2]] & uri_class[p[3]] &
            uri_class[p[4]] & uri_class[p[5]] & uri_class[p[6]] & uri_class[p[7]] & K) != 0;
}

/* The bytes 'A'..'Z' of v in lowercase; every byte of v is below 0x80, so
 * no sum carries into the next byte. */
static inline uint64_t lower8(uint64_t v)
{
    uint64_t upper = (v + ONES * (0x80 - 'A')) & ~(v + ONES * (0x80 - 'Z' - 1)) & HIGHS;
    return v | upper >> 2; /* 0x80 >> 2 == 'a' - 'A' */
}

/* 8 bytes from s to d, in lowercase with lower_case. */
static inline void copy_word(uint8_t *d, const uint8_t *s, int lower_case)
{
    uint64_t v = load8(s);
    if (lower_case)
        v = lower8(v);
    memcpy(d, &v, 8);
}

static inline int escape_at(const uint8_t *s, size_t i, size_t n)
{
    return n - i >= 3 && pct_hex_value[s[i + 1]] >= 0 && pct_hex_value[s[i + 2]] >= 0;
}

static inline int is_hex_upper(uint8_t c)
{
    return !(c >= 'a' && c <= 'f');
}

static inline uint8_t lower(uint8_t c)
{
    return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + ('a' - 'A')) : c;
}

static inline uint8_t *put_escape(uint8_t *d, unsigned byte)
{
    d[0] = '%';
    d[1] = (uint8_t)pct_hex_upper[byte >> 4];
    d[2] = (uint8_t)pct_hex_upper[byte & 15u];
    return d + 3;
}

/* ---- check -------------------------------------------------------------- */

/* The scalar kernel's pct_uri_offence and the reference of the others:
 * runs of kept bytes, and only a '%' looked at. */
size_t pct_scalar_uri_offence(const uint8_t *src, size_t n)
{
    size_t i = pct_scalar_span_safe(src, n, &uri_kept);
    while (i < n && src[i] == '%' && escape_at(src, i, n))
        i += 3 + pct_scalar_span_safe(src + i + 3, n - i - 3, &uri_kept);
    return i;
}

pct_uri_offence_fn pct_uri_offence_kernel(void)
{
    const pct_kernel *k = pct_kernel_active();
    return k->uri_offence ? k->uri_offence : pct_scalar_uri_offence;
}

pct_uri_offence_bits_fn pct_uri_offence_bits_kernel(void)
{
    return pct_kernel_active()->uri_offence_bits;
}

size_t pct_uri_offence(const uint8_t *src, size_t n)
{
    return pct_uri_offence_kernel()(src, n);
}

pct_uri_problem pct_uri_check(const uint8_t *src, size_t n, size_t *pos)
{
    size_t i = pct_uri_offence(src, n);
    *pos = i;
    return i == n ? PCT_URI_VALID : src[i] == '%' ? PCT_URI_BAD_ESCAPE : PCT_URI_BAD_CHAR;
}

/* ---- one component -------------------------------------------------------
 * The single writer behind requote, normalize and iri_to_uri. `lower` asks
 * for ASCII letters in lowercase (hosts); hex digits of kept escapes are
 * never lowercased. Writes at most 3 bytes per input byte. */

/* Copies the run of kept bytes at the start of s[0, n) to d (in lowercase
 * with lower_case) and returns its length. Most parts are one such run: a
 * word at a time, the last word overlapping the one before it. */
static size_t copy_kept(const uint8_t *s, size_t n, int lower_case, uint8_t *d)
{
    if (!lower_case && n >= 32) { /* long parts: one vector scan and a block copy */
        size_t run = kept_span(s, n);
        memcpy(d, s, run);
        return run;
    }
    size_t i = 0;
    for (; n - i >= 8 && kept8(s + i); i += 8)
        copy_word(d + i, s + i, lower_case);
    /* The last partial word: one load ending at n (its first bytes were seen). */
    if (n - i < 8 && i < n && n >= 8 && kept8(s + n - 8)) {
        copy_word(d + n - 8, s + n - 8, lower_case);
        return n;
    }
    for (; i < n && IS_ALLOWED(s[i]); i++)
        d[i] = lower_case ? lower(s[i]) : s[i];
    return i;
}

/* The n bytes of a scheme (checked: ASCII, all kept) to d in lowercase: in
 * two overlapping 4-byte words when they fit, as most schemes are 4 or 5. */
static uint8_t *copy_scheme(uint8_t *d, const uint8_t *s, size_t n, int lower_case)
{
    if (n >= 4 && n <= 8) {
        uint32_t head, tail;
        memcpy(&head, s, 4);
        memcpy(&tail, s + n - 4, 4);
        if (lower_case) {
            head = (uint32_t)lower8(head);
            tail = (uint32_t)lower8(tail);
        }
        memcpy(d, &head, 4);
        memcpy(d + n - 4, &tail, 4);
        return d + n;
    }
    for (size_t i = 0; i < n; i++)
        *d++ = lower_case ? lower(s[i]) : s[i];
    return d;
}

/* The byte s[i] of s[0, n) that is not kept: a valid escape kept or
 * normalized, any other byte escaped. Returns the index after it. */
static inline size_t write_change(const uint8_t *s, size_t i, size_t n, unsigned flags,
                                  int lower_case, uint8_t **dp)
{
    uint8_t c = s[i], *d = *dp;
    if (c != '%' || !escape_at(s, i, n)) {
        *dp = put_escape(d, c);
        return i + 1;
    }
    unsigned v = (unsigned)(pct_hex_value[s[i + 1]] << 4 | pct_hex_value[s[i + 2]]);
    if ((flags & PCT_URI_DECODE_UNRESERVED) && IS_UNRESERVED(v)) {
        *d++ = lower_case ? lower((uint8_t)v) : (uint8_t)v;
    } else if (flags & PCT_URI_UPPER_HEX) {
        d = put_escape(d, v);
    } else {
        memcpy(d, s + i, 3);
        d += 3;
    }
    *dp = d;
    return i + 3;
}

static uint8_t *write_part(const uint8_t *s, size_t n, unsigned flags, int lower_case,
                           uint8_t *d)
{
    size_t i = 0;
    while (i < n) {
        size_t run = copy_kept(s + i, n - i, lower_case, d);
        i += run;
        d += run;
        /* The bytes to escape and the escapes, up to the next kept byte. */
        while (i < n && !IS_ALLOWED(s[i]))
            i = write_change(s, i, n, flags, lower_case, &d);
    }
    return d;
}

/* ---- requote ------------------------------------------------------------ */

size_t pct_requote_span(const uint8_t *src, size_t n, unsigned flags)
{
    for (size_t i = kept_span(src, n); i < n; i += 3 + kept_span(src + i + 3, n - i - 3)) {
        if (src[i] != '%' || !escape_at(src, i, n))
            return i;
        if ((flags & PCT_URI_UPPER_HEX) && !(is_hex_upper(src[i + 1]) && is_hex_upper(src[i + 2])))
            return i;
    }
    return n;
}

pct_status pct_requoted_size(const uint8_t *src, size_t n, size_t limit, size_t *out_size)
{
    /* Each byte requote escapes adds 2; everything else keeps its length. */
    size_t escapes = 0;
    for (size_t i = kept_span(src, n); i < n; i += kept_span(src + i, n - i)) {
        if (src[i] == '%' && escape_at(src, i, n)) {
            i += 3;
        } else {
            escapes++;
            i++;
        }
    }
    if (n > limit || escapes > (limit - n) / 2)
        return PCT_ERR_TOO_LARGE;
    *out_size = n + 2 * escapes;
    return PCT_OK;
}

size_t pct_requote(const uint8_t *src, size_t n, unsigned flags, uint8_t *dst)
{
    /* Most strings need no change: one scan finds where the first does, the
     * bytes before it are copied as a block. */
    flags &= PCT_URI_UPPER_HEX;
    size_t same = pct_requote_span(src, n, flags);
    memcpy(dst, src, same);
    return (size_t)(write_part(src + same, n - same, flags, 0, dst + same) - dst);
}

/* ---- split -------------------------------------------------------------- */

/* Delimiters that end the parts of a URI reference (appendix B). */
enum { /* one bit per class of pct_uri_scan, for the scanned split */
    D_COLON = 1 << PCT_SCAN_COLON, D_SLASH = 1 << PCT_SCAN_SLASH, D_QUERY = 1 << PCT_SCAN_QUERY,
    D_HASH = 1 << PCT_SCAN_HASH, D_AT = 1 << PCT_SCAN_AT, D_PERCENT = 1 << PCT_SCAN_PERCENT
};
static const uint8_t delimiter[256] = {[':'] = D_COLON, ['/'] = D_SLASH, ['?'] = D_QUERY,
                                       ['#'] = D_HASH, ['@'] = D_AT, ['%'] = D_PERCENT};

/* 0x80 in each byte of v that is one of `stops`, 0 in the others. */
static inline uint64_t delimiters(uint64_t v, unsigned stops)
{
    uint64_t diff = ~0ull;
    if (stops & D_COLON)
        diff &= differs(v, ':');
    if ((stops & (D_SLASH | D_QUERY)) == (D_SLASH | D_QUERY))
        diff &= differs(v | ONES * 0x10, '?'); /* '/' is 0x2F, '?' 0x3F */
    else if (stops & D_SLASH)
        diff &= differs(v, '/');
    else if (stops & D_QUERY)
        diff &= differs(v, '?');
    if (stops & D_HASH)
        diff &= differs(v, '#');
    if (stops & D_AT)
        diff &= differs(v, '@');
    if (stops & D_PERCENT)
        diff &= differs(v, '%');
    return ~diff & HIGHS;
}

/* Offset of the first delimiter of `stops` in s[from, n), or n. Eight bytes
 * at a time; the last word ends at n and overlaps bytes before `from` (s
 * starts the whole string), which are left out of its hits. */
static inline size_t find_any(const uint8_t *s, size_t from, size_t n, unsigned stops)
{
    size_t i = from;
    if (n < 8) {
        while (i < n && !(delimiter[s[i]] & stops))
            i++;
        return i;
    }
    for (; n - i >= 8; i += 8) {
        uint64_t hits = delimiters(load8(s + i), stops);
        if (hits)
            return i + first_hit(hits);
    }
    if (i < n) {
        uint64_t hits = drop_first(delimiters(load8(s + n - 8), stops), i - (n - 8));
        if (hits)
            return n - 8 + first_hit(hits);
    }
    return n;
}

/* find_any over the masks of a scanned row (bits past its end are 0):
 * the first byte of `stops` in s[from, n), or n. `one`: the row fits in
 * one word of masks (most URLs), a constant in each inlined copy. */
static PCT_ALWAYS_INLINE uint64_t stops_word(const pct_uri_scan *sc, unsigned stops, size_t w)
{
    uint64_t m = 0;
    for (int c = 0; c < PCT_SCAN_CLASSES; c++)
        if (stops & (1u << c))
            m |= sc->m[c][w];
    return m;
}

static PCT_ALWAYS_INLINE size_t scan_find(const pct_uri_scan *sc, int one, unsigned stops,
                                          size_t from, size_t n)
{
    if (one) { /* from <= n <= 64 */
        uint64_t m = from < 64 ? stops_word(sc, stops, 0) >> from : 0;
        size_t at = m ? from + pct_ctz64(m) : n;
        return at < n ? at : n;
    }
    for (size_t w = from / 64; w * 64 < n; w++) {
        uint64_t m = stops_word(sc, stops, w);
        if (w == from / 64)
            m &= ~0ull << (from % 64);
        if (m) {
            size_t at = w * 64 + pct_ctz64(m);
            return at < n ? at : n;
        }
    }
    return n;
}

/* The delimiters of `stops` from s[from] on: off the masks when there are. */
static PCT_ALWAYS_INLINE size_t find_stop(const uint8_t *s, const pct_uri_scan *sc, int one,
                                          size_t from, size_t n, unsigned stops)
{
    return sc ? scan_find(sc, one, stops, from, n) : find_any(s, from, n, stops);
}

/* Whether the class words m have a bit in [a, b). */
static PCT_ALWAYS_INLINE int scan_any(const uint64_t *m, int one, size_t a, size_t b)
{
    if (a >= b)
        return 0;
    if (one) /* a < b <= 64 */
        return ((m[0] >> a) & (~0ull >> (64 - (b - a)))) != 0;
    size_t first = a / 64, last = (b - 1) / 64;
    for (size_t w = first; w <= last; w++) {
        uint64_t x = m[w];
        if (w == first)
            x &= ~0ull << (a % 64);
        if (w == last)
            x &= ~0ull >> (63 - (b - 1) % 64);
        if (x)
            return 1;
    }
    return 0;
}

static pct_range range(size_t start, size_t end)
{
    pct_range r = {start, end - start};
    return r;
}

/* The userinfo, host and port of u from the authority the finder read. */
static void set_authority(const pct_authority *a, pct_uri *u)
{
    if (a->has_userinfo) {
        u->has_userinfo = 1;
        u->userinfo = range(a->start, a->host - 1);
    }
    u->host = range(a->host, a->host_end);
    if (a->has_port) {
        u->has_port = 1;
        u->port = range(a->host_end + 1, a->end);
    }
    /* a '%' after the last '@': the callers look for escapes in the host
     * only then */
    u->host_escaped = a->escaped;
}

/* The authority that starts at s[start] (pct_authority.h: userinfo ends at
 * its last '@', a reg-name holds no ':' (3.2.2), so the first ':' after it
 * starts the port), off the masks of a scanned row when there are: the
 * end, then the last '@' before it, then the first ':' and whether there
 * is a '%' after that. Returns its end. */
static PCT_ALWAYS_INLINE size_t split_authority(const uint8_t *s, size_t start, size_t n,
                                                const pct_uri_scan *sc, int one, pct_uri *u)
{
    pct_authority a;
    if (!sc) {
        pct_authority_scan(s, start, n, 0, &a);
    } else {
        size_t end = scan_find(sc, one, D_SLASH | D_QUERY | D_HASH, start, n), host = start;
        for (size_t at = scan_find(sc, one, D_AT, start, end); at < end;
             at = scan_find(sc, one, D_AT, at + 1, end))
            host = at + 1;
        size_t colon = scan_find(sc, one, D_COLON, host, end);
        pct_authority_parts(s, start, host, colon < end ? colon : SIZE_MAX, end,
                            scan_find(sc, one, D_PERCENT, host, end) < end, &a);
    }
    set_authority(&a, u);
    return a.end;
}

static PCT_ALWAYS_INLINE void split(const uint8_t *s, size_t n, const pct_uri_scan *sc, int one,
                                    pct_uri *u)
{
    /* Field by field, not memset: for this 120-byte struct compilers emit
     * `rep stos`, whose start-up cost was a tenth of the split of a URL. */
    pct_range none = range(0, 0);
    u->scheme = u->userinfo = u->host = u->port = u->path = u->query = u->fragment = none;
    u->has_scheme = u->has_authority = u->has_userinfo = u->has_port = 0;
    u->has_query = u->has_fragment = u->host_escaped = 0;
    size_t i = pct_scheme_length(s, n);
    if (i) {
        u->has_scheme = 1;
        u->scheme = range(0, i);
        i++;
    }
    if (n - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        u->has_authority = 1;
        i = split_authority(s, i + 2, n, sc, one, u);
    }
    size_t end = find_stop(s, sc, one, i, n, D_QUERY | D_HASH);
    u->path = range(i, end);
    i = end;
    if (i < n && s[i] == '?') {
        end = find_stop(s, sc, one, i + 1, n, D_HASH);
        u->has_query = 1;
        u->query = range(i + 1, end);
        i = end;
    }
    if (i < n) {
        u->has_fragment = 1;
        u->fragment = range(i + 1, n);
    }
}

void pct_uri_split(const uint8_t *s, size_t n, pct_uri *u)
{
    split(s, n, NULL, 0, u);
}

void pct_uri_split_row(const uint8_t *s, size_t n, pct_uri_row *row)
{
    const pct_kernel *k = pct_kernel_active();
    if (n == 0 || n > PCT_URI_SCAN_MAX || !k->uri_scan) {
        row->words = 0;
        split(s, n, NULL, 0, &row->uri);
        return;
    }
    k->uri_scan(s, n, &uri_kept, &row->scan);
    row->scan.write = k->uri_write;
    row->words = n <= 64 ? 1 : 2; /* one word, or more */
    if (n <= 64)
        split(s, n, &row->scan, 1, &row->uri);
    else
        split(s, n, &row->scan, 0, &row->uri);
}

/* ---- dot segments (RFC 3986 5.2.4) ----------------------------------------
 * The RFC's input buffer is path[r, n) and its output buffer path[0, w);
 * w <= r throughout, so the output never overwrites unread input. Where a
 * rule replaces a prefix by "/", the '/' is written just before the rest. */

/* Where remove_dot_segments has work: 0 when the path starts with '.', else
 * the '/' before the first segment that starts with '.', else n. Every step
 * before it is rule E, which leaves the path as it is. */
static size_t first_dot_segment(const uint8_t *b, size_t n)
{
    if (n == 0 || b[0] == '.')
        return 0;
    size_t i = 1; /* looks for b[i] == '.' after b[i - 1] == '/' */
    for (; n - i >= 8; i += 8) {
        uint64_t dots = bytes_equal(load8(b + i), '.'); /* most words have none */
        if (dots && (dots &= bytes_equal(load8(b + i - 1), '/')))
            return i - 1 + first_hit(dots);
    }
    if (i < n && n >= 9) { /* the last word, overlapping words already seen */
        uint64_t hits = bytes_equal(load8(b + n - 8), '.') & bytes_equal(load8(b + n - 9), '/');
        return hits ? n - 9 + first_hit(hits) : n;
    }
    for (; i < n; i++)
        if (b[i] == '.' && b[i - 1] == '/')
            return i - 1;
    return n;
}

/* The first '/' at or after b[from] that a '.' follows, or n. */
static size_t next_dot_segment(const uint8_t *b, size_t from, size_t n)
{
    size_t i = from;
    for (; n >= 9 && i <= n - 9; i += 8) { /* a byte of each word and the byte after it */
        uint64_t hits = bytes_equal(load8(b + i), '/') & bytes_equal(load8(b + i + 1), '.');
        if (hits)
            return i + first_hit(hits);
    }
    for (; i + 1 < n; i++)
        if (b[i] == '/' && b[i + 1] == '.')
            return i;
    return n;
}

size_t pct_remove_dot_segments(uint8_t *b, size_t n)
{
    size_t r = first_dot_segment(b, n), w = r;
    while (r < n) {
        const uint8_t *p = b + r;
        size_t left = n - r;
        int dot1 = left >= 2 && p[0] == '/' && p[1] == '.';
        int dot2 = left >= 3 && p[0] == '/' && p[1] == '.' && p[2] == '.';
        if (left >= 3 && p[0] == '.' && p[1] == '.' && p[2] == '/') { /* A: "../" */
            r += 3;
        } else if (left >= 2 && p[0] == '.' && p[1] == '/') { /* A: "./" */
            r += 2;
        } else if (dot1 && (left == 2 || p[2] == '/')) { /* B: "/./" or "/." -> "/" */
            r += left == 2 ? 1 : 2;
            b[r] = '/';
        } else if (dot2 && (left == 3 || p[3] == '/')) { /* C: "/../" or "/.." -> "/" */
            r += left == 3 ? 2 : 3;
            b[r] = '/';
            while (w > 0 && b[w - 1] != '/')
                w--;
            if (w > 0)
                w--;
        } else if ((left == 1 && p[0] == '.') || (left == 2 && p[0] == '.' && p[1] == '.')) {
            r = n; /* D */
        } else {
            /* E: the first segment, with its leading '/'; the segments after
             * it up to the next one that starts with '.' go by E as well,
             * so they move with it as one block */
            size_t e = next_dot_segment(b, r + (p[0] == '/'), n);
            if (w != r)
                memmove(b + w, b + r, e - r);
            w += e - r;
            r = e;
        }
    }
    return w;
}

/* ---- query sorting --------------------------------------------------------- */

typedef struct {
    size_t start, len, name_len;
} param;

/* Order by name, bytewise; equal names keep their order (stable). */
static int param_before(const param *a, const param *b, const uint8_t *base)
{
    size_t m = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(base + a->start, base + b->start, m);
    return c < 0 || (c == 0 && a->name_len < b->name_len);
}

/* Bottom-up merge sort: stable, O(k log k) whatever the query, no globals. */
static param *merge_sort(param *a, param *tmp, size_t k, const uint8_t *base)
{
    for (size_t width = 1; width < k; width *= 2) {
        for (size_t lo = 0; lo < k; lo += 2 * width) {
            size_t mid = lo + width < k ? lo + width : k;
            size_t hi = lo + 2 * width < k ? lo + 2 * width : k;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                tmp[o++] = param_before(&a[j], &a[i], base) ? a[j++] : a[i++];
            while (i < mid)
                tmp[o++] = a[i++];
            while (j < hi)
                tmp[o++] = a[j++];
        }
        param *t = a;
        a = tmp;
        tmp = t;
    }
    return a;
}

static pct_status sort_query(uint8_t *q, size_t n)
{
    size_t count = 1;
    for (size_t i = 0; i < n; i++)
        count += q[i] == '&';
    if (count < 2)
        return PCT_OK;
    /* count <= n + 1, so neither size can overflow. */
    param *ps = malloc(2 * count * sizeof *ps);
    uint8_t *copy = malloc(n);
    if (!ps || !copy) {
        free(ps);
        free(copy);
        return PCT_ERR_NO_MEMORY;
    }
    memcpy(copy, q, n);
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || copy[i] == '&') {
            const uint8_t *eq = memchr(copy + start, '=', i - start);
            param p = {start, i - start, eq ? (size_t)(eq - (copy + start)) : i - start};
            ps[k++] = p;
            start = i + 1;
        }
    }
    const param *sorted = merge_sort(ps, ps + count, count, copy);
    uint8_t *d = q;
    for (size_t i = 0; i < count; i++) {
        if (i)
            *d++ = '&';
        memcpy(d, copy + sorted[i].start, sorted[i].len);
        d += sorted[i].len;
    }
    free(ps);
    free(copy);
    return PCT_OK;
}

/* ---- recomposing ----------------------------------------------------------- */

static int scheme_is(const uint8_t *s, const pct_range *r, const char *name)
{
    size_t len = strlen(name);
    if (r->len != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (lower(s[r->start + i]) != (uint8_t)name[i])
            return 0;
    return 1;
}

/* The default port of the scheme (RFC 3986 6.2.3), or NULL. */
static const char *default_port(const uint8_t *s, const pct_uri *u)
{
    if (!u->has_scheme)
        return NULL;
    if (scheme_is(s, &u->scheme, "http") || scheme_is(s, &u->scheme, "ws"))
        return "80";
    if (scheme_is(s, &u->scheme, "https") || scheme_is(s, &u->scheme, "wss"))
        return "443";
    if (scheme_is(s, &u->scheme, "ftp"))
        return "21";
    return NULL;
}

/* The port, written repaired after the ':' at d up to end; with
 * PCT_URI_PORT, once its unreserved escapes are decoded (":8%30" is ":80"),
 * an empty or default port is dropped and a number loses its leading zeros. */
static uint8_t *finish_port(const uint8_t *s, const pct_uri *u, unsigned flags, uint8_t *d,
                            uint8_t *end)
{
    uint8_t *p = d + 1;
    if (!(flags & PCT_URI_PORT))
        return end;
    size_t n = (size_t)(end - p), digits = 0, zeros = 0;
    while (digits < n && p[digits] >= '0' && p[digits] <= '9')
        digits++;
    if (digits != n)
        return end; /* not a number: kept */
    while (n - zeros > 1 && p[zeros] == '0')
        zeros++;
    n -= zeros;
    memmove(p, p + zeros, n);
    const char *dflt = default_port(s, u);
    if (n == 0 || (dflt && strlen(dflt) == n && memcmp(dflt, p, n) == 0))
        return d;
    return p + n;
}

/* Where the zone id (RFC 6874: "%25" and an interface name) of an IP literal
 * starts: its first "%25", or a bare '%' (which the writer repairs to "%25").
 * Other escapes (%22 for a '"' written raw) are not a zone: the same
 * literal written raw and requoted must normalize alike. */
static size_t zone_start(const uint8_t *h, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (h[i] == '%' && (!escape_at(h, i, n) ||
                            (pct_hex_value[h[i + 1]] << 4 | pct_hex_value[h[i + 2]]) == '%'))
            return i;
    return n;
}

int pct_host_needs_idna(const uint8_t *host, size_t n, int escapes)
{
    if (n == 0 || host[0] == '[')
        return 0;
    /* memchr and a word-wise ASCII scan: most hosts hold neither */
    const uint8_t *end = host + n, *p = escapes ? memchr(host, '%', n) : NULL;
    for (; p; p = memchr(p + 1, '%', (size_t)(end - p - 1)))
        if (end - p >= 3 && pct_hex_value[p[1]] >= 8 && pct_hex_value[p[2]] >= 0)
            return 1;
    return pct_ascii_span(host, n) != n;
}

/* The host as written, repaired; an IP literal's zone id keeps its case. */
static uint8_t *write_host(const uint8_t *h, size_t n, unsigned flags, int lower_case, uint8_t *d)
{
    size_t zone = lower_case && n && h[0] == '[' ? zone_start(h, n) : n;
    d = write_part(h, zone, flags, lower_case, d);
    return zone == n ? d : write_part(h + zone, n - zone, flags, 0, d);
}

/* The n bytes at s (in a scanned row's copy), all kept, to d (in lowercase
 * with lower_case). Whole words: up to 15 bytes more are read after them
 * (the copy has them) and written after them (PCT_URI_WRITE_ROOM), so no
 * branch depends on n but the loop's. */
static inline uint8_t *copy_block(uint8_t *d, const uint8_t *s, size_t n, int lower_case)
{
    if (!lower_case) {
        for (size_t k = 0; k < n; k += 16)
            memcpy(d + k, s + k, 16);
        return d + n;
    }
#ifdef WORD_LITTLE_ENDIAN
    /* the bytes after the n (any value) are the later bytes of each word:
     * lower8's carries move up, into them, never out of them */
    for (size_t k = 0; k < n; k += 8)
        copy_word(d + k, s + k, 1);
    return d + n;
#else
    size_t i = 0;
    for (; n - i >= 8; i += 8)
        copy_word(d + i, s + i, 1);
    if (i < n && n >= 8)
        copy_word(d + n - 8, s + n - 8, 1); /* the last word, overlapping */
    else
        for (; i < n; i++)
            d[i] = lower(s[i]);
    return d + n;
#endif
}

/* write_part of the component s[a, b) of a scanned row: the runs between
 * the bytes to change, which the masks show, are copied as blocks. */
static PCT_ALWAYS_INLINE uint8_t *write_scanned(const uint8_t *s, size_t a, size_t b,
                                                const pct_uri_scan *sc, int one, unsigned flags,
                                                int lower_case, uint8_t *d)
{
    for (size_t i = a; i < b;) {
        size_t j = scan_find(sc, one, 1u << PCT_SCAN_WORK, i, b);
        d = copy_block(d, s + i, j - i, lower_case);
        if (j == b)
            break;
        if (sc->write) /* the rest in the kernel's vectors */
            return d + sc->write(s + j, b - j, &uri_kept,
                                 flags & PCT_URI_DECODE_UNRESERVED ? &uri_unreserved : NULL,
                                 lower_case, (flags & PCT_URI_UPPER_HEX) != 0, d);
        /* the bytes to change up to the next kept one (UTF-8 comes in runs) */
        for (i = j - a; i < b - a && !IS_ALLOWED(s[a + i]);)
            i = write_change(s + a, i, b - a, flags, lower_case, &d);
        i += a;
    }
    return d;
}

/* A component, repaired. */
static PCT_ALWAYS_INLINE uint8_t *write_range(const uint8_t *s, pct_range r, const pct_uri_scan *sc,
                                              int one, unsigned flags, uint8_t *d)
{
    if (sc)
        return write_scanned(s, r.start, r.start + r.len, sc, one, flags, 0, d);
    return write_part(s + r.start, r.len, flags, 0, d);
}

/* Whether remove_dot_segments can change the path p, written from a
 * component with no '%': it starts with '.' or holds "/.". */
static PCT_ALWAYS_INLINE int has_dot_segment(const uint8_t *s, pct_range p, const pct_uri_scan *sc,
                                             int one)
{
    if (p.len == 0)
        return 0;
    if (s[p.start] == '.')
        return 1;
    size_t a = p.start + 1, b = p.start + p.len; /* a '.' at i in [a, b) after a '/' */
    if (one) {
        uint64_t dot_after_slash[1] = {sc->m[PCT_SCAN_DOT][0] & sc->m[PCT_SCAN_SLASH][0] << 1};
        return scan_any(dot_after_slash, 1, a, b);
    }
    for (size_t w = a / 64; w * 64 < b; w++) {
        uint64_t slash_before = sc->m[PCT_SCAN_SLASH][w] << 1 | (w ? sc->m[PCT_SCAN_SLASH][w - 1] >> 63 : 0);
        uint64_t x = sc->m[PCT_SCAN_DOT][w] & slash_before;
        if (w == a / 64)
            x &= ~0ull << (a % 64);
        if (w == (b - 1) / 64)
            x &= ~0ull >> (63 - (b - 1) % 64);
        if (x)
            return 1;
    }
    return 0;
}

/* Whether the path p, once written, may hold a dot segment: only where
 * the source holds one or an escape that may decode to '.' (%2E). The
 * writer puts no other '.' or '/' in: '/' is reserved (%2F stays as it
 * is), and an escape it writes is '%' and hex digits. */
static PCT_ALWAYS_INLINE int may_hold_dot_segment(const uint8_t *s, pct_range p,
                                                  const pct_uri_scan *sc, int one)
{
    if (has_dot_segment(s, p, sc, one))
        return 1;
    size_t a = p.start, b = p.start + p.len;
    for (size_t w = one ? 0 : a / 64; p.len && w <= (b - 1) / 64; w++) {
        uint64_t m = sc->m[PCT_SCAN_PERCENT][w];
        for (; m; m &= m - 1) {
            size_t i = w * 64 + pct_ctz64(m);
            if (i >= a && i + 3 <= b && s[i + 1] == '2' && (s[i + 2] | 0x20) == 'e')
                return 1;
        }
    }
    return 0;
}

/* The end of the last component write_uri writes. */
static size_t written_end(const pct_uri *u, unsigned flags)
{
    if (u->has_fragment)
        return flags & PCT_URI_DROP_FRAGMENT ? u->fragment.start - 1
                                             : u->fragment.start + u->fragment.len;
    const pct_range *last = u->has_query ? &u->query : &u->path;
    return last->start + last->len;
}

/* The scheme and authority of a scanned row when the masks show no byte to
 * change in them (most URLs): the source's own delimiters stay, so it is a
 * few block copies: up to the userinfo and the host in lowercase (the
 * delimiters have no case), the userinfo as it is, the port finished on
 * the way. */
static PCT_ALWAYS_INLINE uint8_t *write_clean_authority(const uint8_t *s, const pct_uri *u,
                                                        const uint8_t *host, size_t host_len,
                                                        unsigned flags, uint8_t *d)
{
    int lower_case = (flags & PCT_URI_LOWER_CASE) != 0;
    size_t at = u->has_userinfo ? u->userinfo.start : u->host.start;
    d = copy_block(d, s, at, lower_case);
    d = copy_block(d, s + at, u->host.start - at, 0);
    if (host) { /* (not a row's copy: no word past its end is read) */
        /* an IDNA form is lowercase; a caller's may not be. Whole words,
         * the last one overlapping (d has PCT_URI_WRITE_ROOM to spare) */
        size_t i = 0;
        for (; host_len - i >= 8; i += 8)
            copy_word(d + i, host + i, lower_case);
        if (i && i < host_len)
            copy_word(d + host_len - 8, host + host_len - 8, lower_case);
        else
            for (; i < host_len; i++)
                d[i] = (uint8_t)(lower_case && host[i] >= 'A' && host[i] <= 'Z' ? host[i] + 32 : host[i]);
        d += host_len;
    } else {
        d = copy_block(d, s + u->host.start, u->host.len, lower_case);
    }
    at = u->host.start + u->host.len;
    if (u->has_port) /* s[at] is its ':' */
        d = finish_port(s, u, flags, d, copy_block(d, s + at, u->path.start - at, 0));
    return d;
}

/* Whether the scheme and authority of a scanned row have no byte to
 * change, but for the host when `host` replaces it (an IDNA form, whose
 * bytes write_part keeps as they are when all are kept, but for their
 * case, which write_clean_authority lowers as write_part does). */
static PCT_ALWAYS_INLINE int clean_authority(const pct_uri *u, const pct_uri_scan *sc, int one,
                                             const uint8_t *host, size_t host_len)
{
    const uint64_t *work = sc->m[PCT_SCAN_WORK];
    if (!host)
        return !scan_any(work, one, 0, u->path.start);
    return !scan_any(work, one, 0, u->host.start)
           && !scan_any(work, one, u->host.start + u->host.len, u->path.start)
           && kept_span(host, host_len) == host_len;
}

/* The authority of u, repaired, with `host` (when not NULL) for its host. */
static PCT_ALWAYS_INLINE uint8_t *write_authority(const uint8_t *s, const pct_uri *u,
                                                  const pct_uri_scan *sc, int one,
                                                  const uint8_t *host, size_t host_len,
                                                  unsigned flags, uint8_t *d)
{
    int lower_case = (flags & PCT_URI_LOWER_CASE) != 0;
    *d++ = '/';
    *d++ = '/';
    if (u->has_userinfo) {
        d = write_range(s, u->userinfo, sc, one, flags, d);
        *d++ = '@';
    }
    if (host)
        d = write_part(host, host_len, flags, lower_case, d);
    else if (sc && !(lower_case && u->host.len && s[u->host.start] == '['))
        d = write_scanned(s, u->host.start, u->host.start + u->host.len, sc, one, flags,
                          lower_case, d);
    else
        d = write_host(s + u->host.start, u->host.len, flags, lower_case, d);
    if (u->has_port) {
        *d = ':';
        d = finish_port(s, u, flags, d, write_range(s, u->port, sc, one, flags, d + 1));
    }
    return d;
}

static PCT_ALWAYS_INLINE pct_status write_uri(const uint8_t *s, const pct_uri *u,
                                               const pct_uri_scan *sc, int one, const uint8_t *host,
                                               size_t host_len, unsigned flags, uint8_t *dst,
                                               size_t *out_len)
{
    int lower_case = (flags & PCT_URI_LOWER_CASE) != 0;
    uint8_t *d = dst;
    if (sc && u->has_authority && clean_authority(u, sc, one, host, host_len)) {
        d = write_clean_authority(s, u, host, host_len, flags, d);
        /* and the rest as it is when it has no byte to change, dot segment
         * or query to sort (about half the URLs of a crawl) */
        size_t end = written_end(u, flags);
        if (!scan_any(sc->m[PCT_SCAN_WORK], one, u->path.start, end) && !(flags & PCT_URI_SORT_QUERY)
            && !((flags & PCT_URI_DOT_SEGMENTS) && has_dot_segment(s, u->path, sc, one))) {
            if (u->path.len == 0 && (flags & PCT_URI_EMPTY_PATH))
                *d++ = '/';
            d = copy_block(d, s + u->path.start, end - u->path.start, 0);
            *out_len = (size_t)(d - dst);
            return PCT_OK;
        }
    } else {
        if (u->has_scheme) { /* all kept: whole words from a scanned row's copy */
            d = sc ? copy_block(d, s + u->scheme.start, u->scheme.len, lower_case)
                   : copy_scheme(d, s + u->scheme.start, u->scheme.len, lower_case);
            *d++ = ':';
        }
        if (u->has_authority)
            d = write_authority(s, u, sc, one, host, host_len, flags, d);
    }
    uint8_t *path = d;
    if (sc && sc->write && u->has_authority && !(flags & PCT_URI_SORT_QUERY)
        && !((flags & PCT_URI_DOT_SEGMENTS) && may_hold_dot_segment(s, u->path, sc, one))) {
        /* path, query and fragment in one pass of the kernel's writer: its
         * delimiters are kept bytes and no escape spans one */
        if (u->path.len == 0 && (flags & PCT_URI_EMPTY_PATH))
            *d++ = '/';
        size_t end = written_end(u, flags);
        d += sc->write(s + u->path.start, end - u->path.start, &uri_kept,
                       flags & PCT_URI_DECODE_UNRESERVED ? &uri_unreserved : NULL, 0,
                       (flags & PCT_URI_UPPER_HEX) != 0, d);
        *out_len = (size_t)(d - dst);
        return PCT_OK;
    }
    d = write_range(s, u->path, sc, one, flags, d);
    /* Most paths hold no dot segment: the masks tell, with no second look. */
    if ((flags & PCT_URI_DOT_SEGMENTS) && (u->has_scheme || u->has_authority)
        && (!sc || may_hold_dot_segment(s, u->path, sc, one)))
        d = path + pct_remove_dot_segments(path, (size_t)(d - path));
    if (u->has_authority) {
        if (d == path && (flags & PCT_URI_EMPTY_PATH))
            *d++ = '/';
    } else if ((d - path >= 2 && path[0] == '/' && path[1] == '/') ||
               (!u->has_scheme && pct_scheme_length(path, (size_t)(d - path)))) {
        /* Without an authority, "//x" would read as one: write "/.//x". A
         * relative path whose first segment became "a:" once %XX of
         * unreserved characters were decoded would read as a scheme: write
         * "./a:" (RFC 3986 4.2). */
        const char *guard = path[0] == '/' ? "/." : "./";
        memmove(path + 2, path, (size_t)(d - path));
        memcpy(path, guard, 2);
        d += 2;
    }
    if (u->has_query) {
        *d++ = '?';
        uint8_t *q = d;
        d = write_range(s, u->query, sc, one, flags, d);
        if (flags & PCT_URI_SORT_QUERY) {
            pct_status st = sort_query(q, (size_t)(d - q));
            if (st != PCT_OK)
                return st;
        }
    }
    if (u->has_fragment && !(flags & PCT_URI_DROP_FRAGMENT)) {
        *d++ = '#';
        d = write_range(s, u->fragment, sc, one, flags, d);
    }
    *out_len = (size_t)(d - dst);
    return PCT_OK;
}

pct_status pct_uri_write(const uint8_t *s, const pct_uri *u, const uint8_t *host,
                         size_t host_len, unsigned flags, uint8_t *dst, size_t *out_len)
{
    return write_uri(s, u, NULL, 0, host, host_len, flags, dst, out_len);
}

pct_status pct_uri_write_row(const uint8_t *s, const pct_uri_row *row, const uint8_t *host,
                             size_t host_len, unsigned flags, uint8_t *dst, size_t *out_len)
{
    /* from the row's copy, which whole words may be read of */
    const uint8_t *b = row->scan.bytes;
    if (row->words == 1)
        return write_uri(b, &row->uri, &row->scan, 1, host, host_len, flags, dst, out_len);
    if (row->words)
        return write_uri(b, &row->uri, &row->scan, 0, host, host_len, flags, dst, out_len);
    return pct_uri_write(s, &row->uri, host, host_len, flags, dst, out_len);
}

int pct_uri_row_needs_idna(const uint8_t *s, const pct_uri_row *row, int escapes)
{
    /* a host with no byte to change holds neither a byte >= 0x80 nor a '%' */
    const pct_range *h = &row->uri.host;
    if (row->words && !scan_any(row->scan.m[PCT_SCAN_WORK], row->words == 1, h->start,
                                h->start + h->len))
        return 0;
    return pct_host_needs_idna(s + h->start, h->len, escapes);
}

int pct_uri_normalize_fast(const uint8_t *src, size_t n, unsigned flags, uint8_t *dst,
                           size_t *out_len, pct_uri_fast *fast)
{
    const pct_kernel *k = pct_kernel_active();
    int r = k->uri_normalize ? k->uri_normalize(src, n, flags, &uri_kept, &uri_unreserved, dst,
                                                out_len, fast)
                             : PCT_URI_FAST_NOT;
    if (r != PCT_URI_FAST_DONE || !fast->dots)
        return r;
    /* the path's dot segments, the query and fragment moved up after it */
    uint8_t *path = dst + fast->path;
    size_t len = pct_remove_dot_segments(path, fast->path_len);
    size_t rest = *out_len - fast->path - fast->path_len;
    memmove(path + len, path + fast->path_len, rest);
    *out_len -= fast->path_len - len;
    return r;
}

/* ---- input cleanup ------------------------------------------------------- */
static inline int is_c0_or_space(uint8_t c)
{
    return c <= 0x20;
}

static inline int is_tab_or_newline(uint8_t c)
{
    return c == 0x09 || c == 0x0A || c == 0x0D;
}

int pct_uri_needs_strip(const uint8_t *s, size_t n)
{
    if (n == 0)
        return 0;
    if (is_c0_or_space(s[0]) || is_c0_or_space(s[n - 1]))
        return 1;
    /* a byte below 0x0E anywhere (the bytes of a word less 0x0E borrow
     * into their top bit only then), looked at closely when there is one */
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        uint64_t v;
        memcpy(&v, s + i, 8);
        if (((v - 0x0E * ones) & ~v & highs) != 0)
            break;
    }
    for (; i < n; i++)
        if (is_tab_or_newline(s[i]))
            return 1;
    return 0;
}

size_t pct_uri_strip(const uint8_t *s, size_t n, uint8_t *dst)
{
    size_t a = 0, b = n, w = 0;
    while (a < b && is_c0_or_space(s[a]))
        a++;
    while (b > a && is_c0_or_space(s[b - 1]))
        b--;
    for (size_t i = a; i < b; i++)
        if (!is_tab_or_newline(s[i]))
            dst[w++] = s[i];
    return w;
}
