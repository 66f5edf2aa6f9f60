/* pct_ecma.h on text of 1, 2 and 4-byte units: pct_ecma_decode
 * (decodeURI, decodeURIComponent), pct_js_escaped_size / pct_js_escape,
 * pct_js_unescape, pct_iri_split / pct_iri_decode, pct_text_slice.
 * Checks: a measuring pass and a writing pass agree, into every output
 * width that holds the result, within exact buffers; the reported maxchar
 * is enough for the output; decodeURIComponent of ASCII text matches
 * pct_decode + UTF-8; decodeURI fails exactly where decodeURIComponent
 * does; unescape(escape(x)) == x; the escaped size is exact and honours its
 * limit; uri_to_iri decoding is idempotent.
 *
 * Input: mode byte (bits 0-1: unit width; bit 2: surrogates moved away;
 * bit 3: a small limit), 2 limit bytes, body. */
#include "fuzz_common.h"
#include "pct_ecma.h"

static uint32_t unit_at(const void *data, int kind, size_t i)
{
    return kind == 1 ? ((const uint8_t *)data)[i]
           : kind == 2 ? ((const uint16_t *)data)[i]
                       : ((const uint32_t *)data)[i];
}

static int width_of(uint32_t maxchar)
{
    return maxchar <= 0xFF ? 1 : maxchar <= 0xFFFF ? 2 : 4;
}

static uint32_t max_unit(pct_text t)
{
    uint32_t m = 0;
    for (size_t i = 0; i < t.len; i++)
        if (unit_at(t.data, t.kind, i) > m)
            m = unit_at(t.data, t.kind, i);
    return m;
}

enum { DECODE_URI, DECODE_COMPONENT, UNESCAPE, IRI };

typedef struct {
    int which;
    size_t private_start, private_end;
} decoder;

static pct_ecma_error run(const decoder *d, pct_text src, void *dst, int kind, pct_decoded *out,
                          size_t *pos)
{
    switch (d->which) {
    case DECODE_URI:
    case DECODE_COMPONENT:
        return pct_ecma_decode(src, d->which == DECODE_URI, dst, kind, out, pos);
    case UNESCAPE:
        pct_js_unescape(src, dst, kind, out);
        return PCT_ECMA_OK;
    default:
        pct_iri_decode(src, d->private_start, d->private_end, dst, kind, out);
        return PCT_ECMA_OK;
    }
}

/* Measures, then writes into each width that holds the output; returns the
 * output as 4-byte units (NULL on a decoding error, *pos then set). */
static uint32_t *decode_all_widths(const decoder *d, pct_text src, size_t *len,
                                   pct_ecma_error *err, size_t *pos)
{
    pct_decoded m = {99, 99};
    *pos = 12345;
    *err = run(d, src, NULL, 0, &m, pos);
    if (*err != PCT_ECMA_OK) {
        FUZZ_ASSERT(*pos < src.len && unit_at(src.data, src.kind, *pos) == '%');
        return NULL;
    }
    FUZZ_ASSERT(m.len <= src.len);
    uint32_t in_max = max_unit(src);
    uint32_t need = m.maxchar > in_max ? m.maxchar : in_max;
    uint32_t *wide = NULL;
    for (int kind = 4; kind >= width_of(need); kind /= 2) {
        void *dst = alloc_exact(m.len * (size_t)kind);
        pct_decoded w = {77, 77};
        size_t pos2 = 0;
        FUZZ_ASSERT(run(d, src, dst, kind, &w, &pos2) == PCT_ECMA_OK);
        FUZZ_ASSERT(w.len == m.len && w.maxchar == m.maxchar);
        if (!wide) {
            wide = alloc_exact(m.len * sizeof *wide);
            for (size_t i = 0; i < m.len; i++)
                wide[i] = unit_at(dst, kind, i);
            /* maxchar: no more than the output holds, and with the input's
             * own widest character enough for all of it */
            uint32_t out_max = 0;
            for (size_t i = 0; i < m.len; i++)
                out_max = wide[i] > out_max ? wide[i] : out_max;
            FUZZ_ASSERT(m.maxchar <= out_max);
            FUZZ_ASSERT(out_max <= need);
        } else {
            for (size_t i = 0; i < m.len; i++)
                FUZZ_ASSERT(wide[i] == unit_at(dst, kind, i));
        }
        free(dst);
    }
    *len = m.len;
    return wide;
}

/* A text of the narrowest width holding the 4-byte units (as a str is). */
static pct_text narrow(const uint32_t *u, size_t n, void **buf)
{
    uint32_t m = 0;
    for (size_t i = 0; i < n; i++)
        m = u[i] > m ? u[i] : m;
    pct_text t = {NULL, n, width_of(m)};
    uint8_t *b = alloc_exact(n * (size_t)t.kind);
    for (size_t i = 0; i < n; i++) {
        if (t.kind == 1)
            b[i] = (uint8_t)u[i];
        else if (t.kind == 2)
            ((uint16_t *)(void *)b)[i] = (uint16_t)u[i];
        else
            ((uint32_t *)(void *)b)[i] = u[i];
    }
    t.data = b;
    *buf = b;
    return t;
}

/* decodeURIComponent of ASCII text: pct_decode, then strict UTF-8. */
static void check_against_bytes(pct_text t, pct_ecma_error err, const uint32_t *got, size_t len)
{
    if (t.kind != 1 || max_unit(t) >= 0x80)
        return;
    const uint8_t *s = t.data;
    int malformed = 0;
    for (size_t i = 0; i < t.len; i++)
        if (s[i] == '%' && !(t.len - i >= 3 && ref_hex(s[i + 1]) >= 0 && ref_hex(s[i + 2]) >= 0))
            malformed = 1;
    uint8_t *bytes = alloc_exact(t.len);
    size_t nb = ref_decode(s, t.len, 0, bytes);
    pct_utf8_info info;
    pct_utf8_check(bytes, nb, &info);
    FUZZ_ASSERT((err == PCT_ECMA_OK) == (!malformed && info.valid));
    if (err == PCT_ECMA_OK) {
        uint32_t *cps = alloc_exact(info.nchars * sizeof *cps);
        FUZZ_ASSERT(pct_utf8_to_ucs4(bytes, nb, cps, info.nchars) == info.nchars);
        FUZZ_ASSERT(len == info.nchars);
        FUZZ_ASSERT(len == 0 || memcmp(cps, got, len * sizeof *cps) == 0);
        free(cps);
    }
    free(bytes);
}

static void check_decode(pct_text t)
{
    decoder uri = {DECODE_URI, 0, 0}, comp = {DECODE_COMPONENT, 0, 0};
    size_t len1 = 0, len2 = 0, pos1, pos2;
    pct_ecma_error e1, e2;
    uint32_t *o1 = decode_all_widths(&uri, t, &len1, &e1, &pos1);
    uint32_t *o2 = decode_all_widths(&comp, t, &len2, &e2, &pos2);
    FUZZ_ASSERT(e1 == e2);
    if (e1 != PCT_ECMA_OK)
        FUZZ_ASSERT(pos1 == pos2);
    else
        FUZZ_ASSERT(len2 <= len1);
    check_against_bytes(t, e2, o2, len2);
    free(o1);
    free(o2);
}

/* What escape keeps: A-Z a-z 0-9 @ * _ + - . / */
static int js_kept(uint32_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != 0 && c < 0x80 && strchr("@*_+-./", (int)c) != NULL);
}

static void check_escape(pct_text t, size_t limit)
{
    size_t size = 0, got = 0;
    FUZZ_ASSERT(pct_js_escaped_size(t, SIZE_MAX, &size) == PCT_OK);
    pct_status st = pct_js_escaped_size(t, limit, &got);
    if (size <= limit)
        FUZZ_ASSERT(st == PCT_OK && got == size);
    else
        FUZZ_ASSERT(st == PCT_ERR_TOO_LARGE);
    uint8_t *out = alloc_exact(size);
    FUZZ_ASSERT(pct_js_escape(t, out) == size);
    int changed = 0;
    for (size_t i = 0; i < t.len; i++)
        changed |= !js_kept(unit_at(t.data, t.kind, i));
    FUZZ_ASSERT((size == t.len) == !changed);
    for (size_t i = 0; i < size; i++)
        FUZZ_ASSERT(out[i] < 0x80);

    /* unescape gives the text back, unless it held a high surrogate right
     * before a low one: their escapes then pair up into one character */
    int pairs = 0;
    for (size_t i = 0; i + 1 < t.len; i++) {
        uint32_t a = unit_at(t.data, t.kind, i), b = unit_at(t.data, t.kind, i + 1);
        if (a >= 0xD800 && a <= 0xDBFF && b >= 0xDC00 && b <= 0xDFFF)
            pairs = 1;
    }
    pct_text e = {out, size, 1};
    decoder un = {UNESCAPE, 0, 0};
    size_t len, pos;
    pct_ecma_error err;
    uint32_t *back = decode_all_widths(&un, e, &len, &err, &pos);
    if (!pairs) {
        FUZZ_ASSERT(len == t.len);
        for (size_t i = 0; i < len; i++)
            FUZZ_ASSERT(back[i] == unit_at(t.data, t.kind, i));
    }
    free(back);
    free(out);

    /* unescape of the raw text, and of a slice */
    back = decode_all_widths(&un, t, &len, &err, &pos);
    free(back);
    if (t.len) {
        pct_text s = pct_text_slice(t, t.len / 3, t.len - t.len / 4);
        FUZZ_ASSERT(s.kind == t.kind && s.len == t.len - t.len / 4 - t.len / 3);
        FUZZ_ASSERT((const char *)s.data == (const char *)t.data + (t.len / 3) * (size_t)t.kind);
        back = decode_all_widths(&un, s, &len, &err, &pos);
        free(back);
    }
}

static pct_iri_parts check_split(pct_text t)
{
    pct_iri_parts p;
    pct_iri_split(t, &p);
    FUZZ_ASSERT(p.query_start <= p.query_end && p.query_end <= t.len);
    FUZZ_ASSERT(p.host_start <= p.host_end && p.host_end <= t.len);
    if (p.query_start < t.len)
        FUZZ_ASSERT(p.query_start > 0 && unit_at(t.data, t.kind, p.query_start - 1) == '?');
    return p;
}

static void check_iri(pct_text t)
{
    pct_iri_parts p = check_split(t);
    decoder iri = {IRI, p.query_start, p.query_end};
    size_t len, pos;
    pct_ecma_error err;
    uint32_t *once = decode_all_widths(&iri, t, &len, &err, &pos);
    void *buf;
    pct_text u = narrow(once, len, &buf);
    pct_iri_parts q = check_split(u);
    decoder again = {IRI, q.query_start, q.query_end};
    size_t len2;
    uint32_t *twice = decode_all_widths(&again, u, &len2, &err, &pos);
    FUZZ_ASSERT(len2 == len && (len == 0 || memcmp(once, twice, len * sizeof *once) == 0));
    free(twice);
    free(buf);
    free(once);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    uint8_t mode = take_byte(&in);
    size_t limit = (size_t)take_byte(&in) << 8 | take_byte(&in);
    if (!(mode & 8))
        limit = SIZE_MAX - limit;
    static const int kinds[4] = {1, 2, 4, 1};
    int kind = kinds[mode & 3];
    size_t n;
    void *units = take_units(&in, kind, mode & 4, NULL, &n);
    pct_text t = {units, n, kind};
    check_decode(t);
    check_escape(t, limit);
    check_iri(t);
    free(units);
    return 0;
}
