/* C unit tests of src/core/pct_ecma.c: decodeURI(Component), escape,
 * unescape and the URI-to-IRI escape decoding.
 *
 * Each function is compared with a reference written here from the specs,
 * one code point at a time and without the core's tables: every string of up
 * to three tokens of an adversarial alphabet (escapes good and bad, partial
 * and overlong UTF-8, surrogates, URI delimiters, wide characters), then
 * longer random strings of them. Every input is run at each width that holds
 * it (1, 2, 4 byte units) and written at each output width that holds the
 * result, in buffers of exactly the size the core asked for, so that the
 * sanitizer build catches any read or write past an end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_ecma.h"

#include "check.h"

#define MAXLEN 256

typedef struct {
    uint32_t c[MAXLEN];
    size_t n;
} cps;

static void append_ascii(cps *s, const char *text)
{
    while (*text && s->n < MAXLEN)
        s->c[s->n++] = (unsigned char)*text++;
}

static void append(cps *s, uint32_t c)
{
    if (s->n < MAXLEN)
        s->c[s->n++] = c;
}

static int equal(const cps *a, const cps *b)
{
    return a->n == b->n && (a->n == 0 || memcmp(a->c, b->c, a->n * sizeof(uint32_t)) == 0);
}

/* ---- references ------------------------------------------------------------ */

static int ref_hex(uint32_t c)
{
    if (c >= '0' && c <= '9')
        return (int)(c - '0');
    if (c >= 'a' && c <= 'f')
        return (int)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return (int)(c - 'A' + 10);
    return -1;
}

/* The byte of "%XX" at s[i], or -1. */
static int ref_escape(const cps *s, size_t i)
{
    if (i + 3 > s->n || s->c[i] != '%' || ref_hex(s->c[i + 1]) < 0 || ref_hex(s->c[i + 2]) < 0)
        return -1;
    return ref_hex(s->c[i + 1]) * 16 + ref_hex(s->c[i + 2]);
}

/* The escaped UTF-8 sequence at s[i] (s[i] a valid escape of a byte >=
 * 0x80): ECMA-262's Decode (count the lead's high bits, gather escapes, then
 * judge the code point) with CPython's names for what went wrong. */
static pct_ecma_error ref_sequence(const cps *s, size_t i, uint32_t *cp, size_t *count)
{
    int lead = ref_escape(s, i);
    int n = 0;
    while (n < 8 && (lead << n & 0x80))
        n++;
    if (n == 1 || n > 4)
        return PCT_ECMA_INVALID_START;
    uint32_t c = (uint32_t)lead & (0xFFu >> (n + 1));
    if (n == 2 && c < 2) /* C0, C1: only overlong forms */
        return PCT_ECMA_INVALID_START;
    if (n == 4 && c > 4) /* F5..F7: past U+10FFFF */
        return PCT_ECMA_INVALID_START;
    for (int k = 1; k < n; k++) {
        int b = ref_escape(s, i + 3 * (size_t)k);
        if (b < 0)
            return PCT_ECMA_UNEXPECTED_END;
        if ((b & 0xC0) != 0x80)
            return PCT_ECMA_INVALID_CONTINUATION;
        c = c << 6 | (uint32_t)(b & 0x3F);
        if (k == 1) { /* the top bits already rule a form out */
            uint32_t top = c << 6 * (n - 2);
            if ((n == 3 && top < 0x800) || (n == 4 && top < 0x10000) || (n == 4 && top > 0x10FFFF) ||
                (n == 3 && top >= 0xD800 && top <= 0xDFFF))
                return PCT_ECMA_INVALID_CONTINUATION;
        }
    }
    *cp = c;
    *count = (size_t)n;
    return PCT_ECMA_OK;
}

static pct_ecma_error ref_decode(const cps *s, int keep_reserved, cps *out, size_t *pos)
{
    out->n = 0;
    for (size_t i = 0; i < s->n;) {
        if (s->c[i] != '%') {
            append(out, s->c[i++]);
            continue;
        }
        int b = ref_escape(s, i);
        if (b < 0) {
            *pos = i;
            return PCT_ECMA_BAD_ESCAPE;
        }
        if (b < 0x80) {
            if (keep_reserved && b && strchr(";/?:@&=+$,#", b)) {
                for (int k = 0; k < 3; k++)
                    append(out, s->c[i + (size_t)k]);
            } else {
                append(out, (uint32_t)b);
            }
            i += 3;
            continue;
        }
        uint32_t cp;
        size_t count;
        pct_ecma_error e = ref_sequence(s, i, &cp, &count);
        if (e != PCT_ECMA_OK) {
            *pos = i;
            return e;
        }
        append(out, cp);
        i += 3 * count;
    }
    return PCT_ECMA_OK;
}

static void ref_escape_js(const cps *s, cps *out)
{
    char buf[16];
    out->n = 0;
    for (size_t i = 0; i < s->n; i++) {
        uint32_t c = s->c[i];
        if (c < 0x80 && c && strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@*_+-./", (int)c)) {
            append(out, c);
            continue;
        }
        if (c < 256) {
            sprintf(buf, "%%%02X", (unsigned)c);
        } else if (c < 0x10000) {
            sprintf(buf, "%%u%04X", (unsigned)c);
        } else {
            c -= 0x10000;
            sprintf(buf, "%%u%04X%%u%04X", (unsigned)(0xD800 + (c >> 10)), (unsigned)(0xDC00 + (c & 0x3FF)));
        }
        append_ascii(out, buf);
    }
}

/* The unit of "%uXXXX" at s[i], or -1. */
static long ref_u_escape(const cps *s, size_t i)
{
    if (i + 6 > s->n || s->c[i] != '%' || s->c[i + 1] != 'u')
        return -1;
    long v = 0;
    for (size_t k = 2; k < 6; k++) {
        if (ref_hex(s->c[i + k]) < 0)
            return -1;
        v = v * 16 + ref_hex(s->c[i + k]);
    }
    return v;
}

/* Annex B unescape to code units, then escaped pairs joined. */
static void ref_unescape(const cps *s, cps *out)
{
    out->n = 0;
    int escaped_high = 0; /* the last unit out is a high surrogate from an escape */
    for (size_t i = 0; i < s->n;) {
        long u = ref_u_escape(s, i);
        if (u >= 0) {
            if (escaped_high && u >= 0xDC00 && u <= 0xDFFF) {
                out->c[out->n - 1] = 0x10000 + (uint32_t)((out->c[out->n - 1] - 0xD800) << 10) +
                                     (uint32_t)(u - 0xDC00);
                escaped_high = 0;
            } else {
                append(out, (uint32_t)u);
                escaped_high = u >= 0xD800 && u <= 0xDBFF;
            }
            i += 6;
            continue;
        }
        escaped_high = 0;
        int b = ref_escape(s, i);
        if (b >= 0) {
            append(out, (uint32_t)b);
            i += 3;
        } else {
            append(out, s->c[i++]);
        }
    }
}

/* RFC 3987 2.2 as written there, and the bidi formatting characters of 4.1. */
static int ref_iri_char(uint32_t c, int private_ok)
{
    if (c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E))
        return 0;
    int ucschar = (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) ||
                  (c >= 0xFDF0 && c <= 0xFFEF);
    for (uint32_t plane = 1; plane <= 14; plane++)
        if (c >= plane << 16 && c <= (plane << 16 | 0xFFFD) && !(plane == 14 && c < 0xE1000))
            ucschar = 1;
    int iprivate = (c >= 0xE000 && c <= 0xF8FF) || (c >= 0xF0000 && c <= 0xFFFFD) ||
                   (c >= 0x100000 && c <= 0x10FFFD);
    return ucschar || (private_ok && iprivate);
}

static void ref_iri_decode(const cps *s, size_t qs, size_t qe, cps *out)
{
    out->n = 0;
    for (size_t i = 0; i < s->n;) {
        int b = ref_escape(s, i);
        if (b < 0) {
            append(out, s->c[i++]);
            continue;
        }
        uint32_t cp;
        size_t count;
        if (b >= 0x80 && ref_sequence(s, i, &cp, &count) == PCT_ECMA_OK &&
            ref_iri_char(cp, qs <= i && i < qe)) {
            append(out, cp);
            i += 3 * count;
        } else {
            for (int k = 0; k < 3; k++)
                append(out, s->c[i++]);
        }
    }
}

static int is_in(uint32_t c, const char *set)
{
    return c && c < 0x80 && strchr(set, (int)c) != NULL;
}

/* RFC 3986 appendix B with the scheme held to its grammar. */
static void ref_split(const cps *s, pct_iri_parts *p)
{
    const char *alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    size_t n = s->n, i = 0, j = 0;
    while (j < n && (is_in(s->c[j], alpha) || (j > 0 && is_in(s->c[j], "0123456789+-."))))
        j++;
    if (j > 0 && j < n && s->c[j] == ':')
        i = j + 1;
    p->host_start = p->host_end = n;
    p->host_punycode = 0;
    if (i + 2 <= n && s->c[i] == '/' && s->c[i + 1] == '/') {
        size_t a = i + 2, e = a;
        while (e < n && !is_in(s->c[e], "/?#"))
            e++;
        size_t h = a, he = e;
        for (size_t k = e; k > a; k--)
            if (s->c[k - 1] == '@') {
                h = k;
                break;
            }
        if (!(h < e && s->c[h] == '[')) {
            for (size_t k = e; k > h; k--)
                if (s->c[k - 1] == ':') {
                    he = k - 1;
                    break;
                }
            p->host_start = h;
            p->host_end = he;
            for (size_t k = h; k + 4 <= he; k++)
                if ((k == h || s->c[k - 1] == '.') && is_in(s->c[k], "xX") && is_in(s->c[k + 1], "nN") &&
                    s->c[k + 2] == '-' && s->c[k + 3] == '-')
                    p->host_punycode = 1;
        }
        i = e;
    }
    while (i < n && !is_in(s->c[i], "?#"))
        i++;
    p->query_start = p->query_end = n;
    if (i < n && s->c[i] == '?') {
        p->query_start = p->query_end = i + 1;
        while (p->query_end < n && s->c[p->query_end] != '#')
            p->query_end++;
    }
}

/* ---- running the core at every width ---------------------------------------- */

static uint32_t max_of(const cps *s)
{
    uint32_t m = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->c[i] > m)
            m = s->c[i];
    return m;
}

static int kind_for(uint32_t maxchar)
{
    return maxchar < 0x100 ? 1 : maxchar < 0x10000 ? 2 : 4;
}

/* s in units of `kind` bytes, in a heap block of exactly its size. */
static void *units_of(const cps *s, int kind)
{
    void *p = malloc(s->n * (size_t)kind + 1); /* +1: malloc(0) may be NULL */
    for (size_t i = 0; i < s->n; i++) {
        if (kind == 1)
            ((uint8_t *)p)[i] = (uint8_t)s->c[i];
        else if (kind == 2)
            ((uint16_t *)p)[i] = (uint16_t)s->c[i];
        else
            ((uint32_t *)p)[i] = s->c[i];
    }
    return p;
}

static void to_cps(const void *p, int kind, size_t n, cps *out)
{
    out->n = 0;
    for (size_t i = 0; i < n; i++)
        append(out, kind == 1 ? ((const uint8_t *)p)[i]
                    : kind == 2 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i]);
}

typedef enum { OP_DECODE_URI, OP_DECODE_COMPONENT, OP_UNESCAPE, OP_IRI } op;

/* One decoder at one input width: measure, check against the reference,
 * write at each output width that holds the result. */
static void run_decoder(op which, const cps *s, int kind)
{
    cps want;
    size_t want_pos = 0;
    pct_ecma_error want_e = PCT_ECMA_OK;
    pct_iri_parts parts;
    ref_split(s, &parts);
    switch (which) {
    case OP_DECODE_URI:
    case OP_DECODE_COMPONENT:
        want_e = ref_decode(s, which == OP_DECODE_URI, &want, &want_pos);
        break;
    case OP_UNESCAPE:
        ref_unescape(s, &want);
        break;
    case OP_IRI:
        ref_iri_decode(s, parts.query_start, parts.query_end, &want);
        break;
    }
    pct_text t = {units_of(s, kind), s->n, kind};
    pct_decoded d = {0, 0};
    size_t pos = 12345;
    pct_ecma_error e = PCT_ECMA_OK;
    if (which == OP_IRI) {
        pct_iri_parts got;
        pct_iri_split(t, &got);
        CHECK(got.query_start == parts.query_start && got.query_end == parts.query_end);
        CHECK(got.host_start == parts.host_start && got.host_end == parts.host_end);
        CHECK(got.host_punycode == parts.host_punycode);
    }
    for (int out_kind = 0; out_kind <= 4; out_kind++) {
        if (out_kind == 3)
            continue;
        void *dst = NULL;
        if (out_kind) { /* a writing pass, where the result fits */
            if (want_e != PCT_ECMA_OK || kind_for(max_of(&want)) > out_kind || kind > out_kind)
                continue;
            dst = malloc(d.len * (size_t)out_kind + 1);
        }
        pct_decoded got = {0, 0};
        switch (which) {
        case OP_DECODE_URI:
        case OP_DECODE_COMPONENT:
            e = pct_ecma_decode(t, which == OP_DECODE_URI, dst, out_kind, &got, &pos);
            break;
        case OP_UNESCAPE:
            pct_js_unescape(t, dst, out_kind, &got);
            break;
        case OP_IRI:
            pct_iri_decode(t, parts.query_start, parts.query_end, dst, out_kind, &got);
            break;
        }
        if (!out_kind) {
            d = got;
            CHECK(e == want_e);
            if (e != PCT_ECMA_OK) {
                CHECK(pos == want_pos);
                break;
            }
            CHECK(d.len == want.n);
            CHECK(d.len <= s->n);
            /* the literals and what decoding reported cover the output, ASCII aside */
            uint32_t m = max_of(&want), lit = max_of(s);
            uint32_t cover = d.maxchar > lit ? d.maxchar : lit;
            CHECK((cover > 0x7F ? cover : 0x7F) >= m && d.maxchar <= m);
            CHECK(d.len < s->n || d.maxchar < 0x80); /* nothing decoded: nothing wide reported */
        } else {
            cps out;
            CHECK(got.len == d.len && got.maxchar == d.maxchar);
            to_cps(dst, out_kind, got.len, &out);
            CHECK(equal(&out, &want));
            free(dst);
        }
    }
    if (which == OP_IRI && parts.host_start <= parts.query_start) { /* a host, or none and no query */
        /* the binding finds the host in the output by decoding the parts before it and it alone */
        pct_decoded before, host;
        pct_iri_decode(pct_text_slice(t, 0, parts.host_start), 0, 0, NULL, 0, &before);
        pct_iri_decode(pct_text_slice(t, parts.host_start, parts.host_end), 0, 0, NULL, 0, &host);
        cps head, in_host, head_out, host_out;
        head.n = parts.host_start;
        memcpy(head.c, s->c, head.n * sizeof(uint32_t));
        in_host.n = parts.host_end - parts.host_start;
        memcpy(in_host.c, s->c + parts.host_start, in_host.n * sizeof(uint32_t));
        ref_iri_decode(&head, 0, 0, &head_out);
        ref_iri_decode(&in_host, 0, 0, &host_out);
        CHECK(before.len == head_out.n && host.len == host_out.n);
        CHECK(before.len + host.len <= want.n);
        CHECK(memcmp(want.c, head_out.c, head_out.n * sizeof(uint32_t)) == 0);
        CHECK(memcmp(want.c + before.len, host_out.c, host_out.n * sizeof(uint32_t)) == 0);
    }
    free((void *)(uintptr_t)t.data); /* allocated by the test: the const is the API's */
}

static void run_escape(const cps *s, int kind)
{
    cps want, out;
    ref_escape_js(s, &want);
    pct_text t = {units_of(s, kind), s->n, kind};
    size_t size = 0;
    CHECK(pct_js_escaped_size(t, SIZE_MAX, &size) == PCT_OK);
    CHECK(size == want.n);
    CHECK((size == s->n) == equal(s, &want)); /* the binding returns the input then */
    size_t at_limit = 0;
    CHECK(pct_js_escaped_size(t, size, &at_limit) == PCT_OK && at_limit == size);
    if (size)
        CHECK(pct_js_escaped_size(t, size - 1, &at_limit) == PCT_ERR_TOO_LARGE);
    uint8_t *dst = malloc(size + 1);
    CHECK(pct_js_escape(t, dst) == size);
    out.n = 0;
    for (size_t i = 0; i < size; i++)
        append(&out, dst[i]);
    CHECK(equal(&out, &want));
    free(dst);
    free((void *)(uintptr_t)t.data); /* allocated by the test: the const is the API's */
}

static void run_all(const cps *s)
{
    for (int kind = kind_for(max_of(s)); kind <= 4; kind *= 2) {
        run_decoder(OP_DECODE_URI, s, kind);
        run_decoder(OP_DECODE_COMPONENT, s, kind);
        run_decoder(OP_UNESCAPE, s, kind);
        run_decoder(OP_IRI, s, kind);
        run_escape(s, kind);
    }
}

/* ---- inputs ------------------------------------------------------------------ */

static const char *const ASCII_TOKENS[] = {
    "%", "%4", "%G1", "%41", "%2F", "%2f", "%23", "%25", "%u", "%uD83D", "%uDE00", "%ud800",
    "%u00E9", "%u12", "%C3", "%A9", "%E4", "%B8", "%AD", "%E0", "%A0", "%ED", "%9F", "%F0",
    "%9F", "%98", "%80", "%F4", "%8F", "%90", "%BF", "%C0", "%C1", "%F5", "%FF", "%EE", "%E2",
    "%8E", "%AA", "%EF", "%B7", "%F3", "%A1", "a", "u", "0", "/", "?", "#", "@", ":", ".",
    "[", "xn--", "//", "h:",
};
#define N_ASCII (sizeof ASCII_TOKENS / sizeof ASCII_TOKENS[0])
static const uint32_t WIDE_TOKENS[] = {0xE9, 0xFF, 0x4E2D, 0xD800, 0xDC00, 0xFFFF, 0x1F600, 0x10FFFF};
#define N_WIDE (sizeof WIDE_TOKENS / sizeof WIDE_TOKENS[0])
#define N_TOKENS (N_ASCII + N_WIDE)

static void add_token(cps *s, size_t t)
{
    if (t < N_ASCII)
        append_ascii(s, ASCII_TOKENS[t]);
    else
        append(s, WIDE_TOKENS[t - N_ASCII]);
}

static uint64_t rng = 0x9E3779B97F4A7C15u;

static size_t next_random(size_t bound)
{
    return (size_t)(test_xorshift64(&rng) % bound);
}

static void test_exhaustive(void)
{
    size_t total = 1;
    for (int len = 0; len <= 3; len++, total *= N_TOKENS) {
        for (size_t code = 0; code < total; code++) {
            cps s = {{0}, 0};
            for (size_t c = code, k = 0; k < (size_t)len; k++, c /= N_TOKENS)
                add_token(&s, c % N_TOKENS);
            run_all(&s);
        }
    }
}

static void test_random(void)
{
    for (int iter = 0; iter < test_rounds(60000); iter++) {
        cps s = {{0}, 0};
        size_t len = next_random(14);
        if (next_random(4) == 0)
            append_ascii(&s, next_random(2) ? "http://" : "s://u@");
        for (size_t k = 0; k < len; k++)
            add_token(&s, next_random(N_TOKENS));
        run_all(&s);
    }
}

/* Every escaped byte pair and triple against the reference: all of UTF-8's
 * boundaries, in both hex cases. */
static void test_all_sequences(void)
{
    char buf[32];
    for (unsigned a = 0x80; a < 0x100; a++) {
        for (unsigned b = 0; b < 0x100; b += (a >= 0xE0 ? 1 : 0x100)) {
            for (unsigned c = 0x7F; c <= 0xC0; c++) {
                cps s = {{0}, 0};
                if (a >= 0xE0)
                    sprintf(buf, c & 1 ? "%%%02X%%%02x%%%02X" : "%%%02x%%%02X%%%02x", a, b, c);
                else
                    sprintf(buf, "%%%02X%%%02X", a, c);
                append_ascii(&s, buf);
                run_decoder(OP_DECODE_COMPONENT, &s, 1);
                run_decoder(OP_IRI, &s, 1);
            }
        }
    }
    /* four-byte sequences: every lead and second byte, a fixed tail */
    for (unsigned a = 0xF0; a < 0x100; a++)
        for (unsigned b = 0x70; b < 0xD0; b++) {
            cps s = {{0}, 0};
            sprintf(buf, "?%%%02X%%%02X%%80%%BF", a, b);
            append_ascii(&s, buf);
            run_decoder(OP_DECODE_COMPONENT, &s, 1);
            run_decoder(OP_IRI, &s, 1);
        }
}

static void test_vectors(void)
{
    cps s = {{0}, 0};
    append_ascii(&s, "%E4%B8%AD%2F");
    uint8_t *p = units_of(&s, 1);
    pct_text t = {p, s.n, 1};
    pct_decoded d;
    size_t pos;
    uint16_t out[8];
    CHECK(pct_ecma_decode(t, 1, NULL, 0, &d, &pos) == PCT_ECMA_OK && d.len == 4 && d.maxchar == 0x4E2D);
    CHECK(pct_ecma_decode(t, 1, out, 2, &d, &pos) == PCT_ECMA_OK);
    CHECK(out[0] == 0x4E2D && out[1] == '%' && out[2] == '2' && out[3] == 'F');
    free(p);
    /* the sets in the core's bitmaps, character by character */
    for (uint32_t c = 0; c < 0x80; c++) {
        cps one = {{c}, 1};
        run_escape(&one, 1);
        char buf[8];
        sprintf(buf, "%%%02X", (unsigned)c);
        cps e = {{0}, 0};
        append_ascii(&e, buf);
        p = units_of(&e, 1);
        t.data = p;
        t.len = e.n;
        CHECK(pct_ecma_decode(t, 1, NULL, 0, &d, &pos) == PCT_ECMA_OK);
        CHECK((d.len == 3) == is_in(c, ";/?:@&=+$,#"));
        free(p);
    }
    /* empty text: no reads at all */
    pct_text empty = {"", 0, 1};
    size_t size = 1;
    CHECK(pct_js_escaped_size(empty, 0, &size) == PCT_OK && size == 0);
    CHECK(pct_ecma_decode(empty, 0, NULL, 0, &d, &pos) == PCT_ECMA_OK && d.len == 0);
}

/* Sizes against limits near SIZE_MAX: the check never wraps around. */
static void test_limits(void)
{
    static const uint32_t text[] = {0x1F600, 0x1F600, 'a', 0xE9, 0x4E2D};
    pct_text t = {text, 5, 4};
    size_t size = 0;
    CHECK(pct_js_escaped_size(t, SIZE_MAX, &size) == PCT_OK && size == 12 + 12 + 1 + 3 + 6);
    CHECK(pct_js_escaped_size(t, SIZE_MAX - 1, &size) == PCT_OK && size == 34);
    CHECK(pct_js_escaped_size(t, 34, &size) == PCT_OK);
    CHECK(pct_js_escaped_size(t, 33, &size) == PCT_ERR_TOO_LARGE);
    CHECK(pct_js_escaped_size(t, 0, &size) == PCT_ERR_TOO_LARGE);
    for (size_t limit = 0; limit < 34; limit++)
        CHECK(pct_js_escaped_size(t, limit, &size) == PCT_ERR_TOO_LARGE);
}

int main(void)
{
    test_vectors();
    test_limits();
    test_all_sequences();
    test_exhaustive();
    test_random();
    printf("test_ecma: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
