/* The walks of pct_ecma.c, written once for every width of code unit. The
 * including file defines, then includes this (once per width):
 *
 *   UNIT        the unit type: uint8_t, uint16_t or uint32_t
 *   UNIT_BYTES  sizeof(UNIT), for the preprocessor
 *   FN(name)    the name of a function for this width
 *
 * Every read is checked against n; nothing here assumes valid input.
 */

/* Index of the first '%' at or after i, or n. */
static size_t FN(find_percent)(const UNIT *s, size_t n, size_t i)
{
#if UNIT_BYTES == 1
    /* Escapes often come in runs: look at a few units before paying for a
     * call to memchr, which is vectorized for long literal stretches. */
    for (size_t stop = n - i > 8 ? i + 8 : n; i < stop; i++)
        if (s[i] == '%')
            return i;
    if (i >= n)
        return n;
    const UNIT *p = (const UNIT *)memchr(s + i, '%', n - i);
    return p ? (size_t)(p - s) : n;
#else
    while (i < n && s[i] != '%')
        i++;
    return i;
#endif
}

/* Appends count units of src to the sink. */
static void FN(emit_units)(sink *w, const UNIT *src, size_t count)
{
    if (w->dst && count) {
        size_t o = w->len, k;
        if (w->kind == UNIT_BYTES)
            memcpy((UNIT *)w->dst + o, src, count * UNIT_BYTES);
        else if (w->kind == 1)
            for (k = 0; k < count; k++)
                ((uint8_t *)w->dst)[o + k] = (uint8_t)src[k];
        else if (w->kind == 2)
            for (k = 0; k < count; k++)
                ((uint16_t *)w->dst)[o + k] = (uint16_t)src[k];
        else
            for (k = 0; k < count; k++)
                ((uint32_t *)w->dst)[o + k] = src[k];
    }
    w->len += count;
}

/* Appends the literal text from s[i] up to the next '%'; returns the index
 * of that '%', or n. */
static size_t FN(emit_to_percent)(sink *w, const UNIT *s, size_t n, size_t i)
{
    size_t p = FN(find_percent)(s, n, i);
    FN(emit_units)(w, s + i, p - i);
    return p;
}

/* The byte escaped by the '%' at s[i] (i < n), or -1 when two hex digits do
 * not follow it. */
static int FN(escaped_byte)(const UNIT *s, size_t n, size_t i)
{
    if (n - i < 3)
        return -1;
    int hi = hex_of(s[i + 1]), lo = hex_of(s[i + 2]);
    return (hi | lo) < 0 ? -1 : hi << 4 | lo;
}

/* The UTF-8 sequence whose lead byte (>= 0x80) the '%' at s[i] escapes: its
 * code point and its number of escapes, or what is wrong with it, judged
 * byte by byte in order as CPython's decoder does. */
static pct_ecma_error FN(escaped_utf8)(const UNIT *s, size_t n, size_t i, unsigned lead,
                                       uint32_t *cp, size_t *count)
{
    size_t len = utf8_length(lead);
    if (!len)
        return PCT_ECMA_INVALID_START;
    uint32_t c = lead & (0x7Fu >> len);
    for (size_t k = 1; k < len; k++) {
        int b = -1;
        if (n - i > 3 * k && s[i + 3 * k] == '%')
            b = FN(escaped_byte)(s, n, i + 3 * k);
        if (b < 0)
            return PCT_ECMA_UNEXPECTED_END;
        if (!continuation_ok(lead, k, (unsigned)b))
            return PCT_ECMA_INVALID_CONTINUATION;
        c = c << 6 | ((unsigned)b & 0x3Fu);
    }
    *cp = c;
    *count = len;
    return PCT_ECMA_OK;
}

static pct_ecma_error FN(decode)(const UNIT *s, size_t n, int keep_reserved, sink *w,
                                 size_t *error_pos)
{
    size_t i = 0;
    while ((i = FN(emit_to_percent)(w, s, n, i)) < n) {
        int b = FN(escaped_byte)(s, n, i);
        uint32_t cp;
        size_t count;
        pct_ecma_error e = PCT_ECMA_BAD_ESCAPE;
        if (b >= 0 && b < 0x80) {
            if (keep_reserved && pct_set_has(&DECODE_URI_RESERVED, (unsigned char)b))
                FN(emit_units)(w, s + i, 3); /* as written, hex case included */
            else
                emit(w, (uint32_t)b);
            i += 3;
        } else if (b >= 0 && (e = FN(escaped_utf8)(s, n, i, (unsigned)b, &cp, &count)) == PCT_ECMA_OK) {
            emit(w, cp);
            i += 3 * count;
        } else {
            *error_pos = i;
            return e;
        }
    }
    return PCT_ECMA_OK;
}

static pct_status FN(escaped_size)(const UNIT *s, size_t n, size_t limit, size_t *out_size)
{
    size_t size = 0;
    for (size_t i = 0; i < n; i++) {
        size_t w = escape_width(s[i]);
        if (w > limit - size) /* size <= limit throughout: no overflow */
            return PCT_ERR_TOO_LARGE;
        size += w;
    }
    *out_size = size;
    return PCT_OK;
}

static size_t FN(escape)(const UNIT *s, size_t n, uint8_t *dst)
{
    uint8_t *d = dst;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = s[i];
        if (c < 0x80 && pct_set_has(&JS_ESCAPE_SAFE, (unsigned char)c)) {
            *d++ = (uint8_t)c;
        } else if (c < 0x100) {
            d[0] = '%';
            d[1] = (uint8_t)pct_hex_upper[c >> 4];
            d[2] = (uint8_t)pct_hex_upper[c & 15];
            d += 3;
        } else if (c < 0x10000) {
            d = put_u_escape(d, c);
        } else { /* two UTF-16 units */
            c -= 0x10000;
            d = put_u_escape(d, 0xD800 + (c >> 10));
            d = put_u_escape(d, 0xDC00 + (c & 0x3FF));
        }
    }
    return (size_t)(d - dst);
}

/* The unit escaped by "%uXXXX" at s[i] (i <= n), or -1. */
static long FN(u_escape)(const UNIT *s, size_t n, size_t i)
{
    if (n - i < 6 || s[i] != '%' || s[i + 1] != 'u')
        return -1;
    long v = 0;
    for (size_t k = 2; k < 6; k++) {
        int h = hex_of(s[i + k]);
        if (h < 0)
            return -1;
        v = v << 4 | h;
    }
    return v;
}

static void FN(unescape)(const UNIT *s, size_t n, sink *w)
{
    size_t i = 0;
    while ((i = FN(emit_to_percent)(w, s, n, i)) < n) {
        long c = FN(u_escape)(s, n, i);
        if (c >= 0) {
            i += 6;
            if (c >= 0xD800 && c <= 0xDBFF) { /* joined with an escaped low surrogate next */
                long low = FN(u_escape)(s, n, i);
                if (low >= 0xDC00 && low <= 0xDFFF) {
                    c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                    i += 6;
                }
            }
        } else if ((c = FN(escaped_byte)(s, n, i)) >= 0) {
            i += 3;
        } else { /* malformed: the '%' is kept, what follows is read again */
            c = '%';
            i++;
        }
        emit(w, (uint32_t)c);
    }
}

/* Whether a label of the host s[0..n) starts with "xn--" in any case. */
static int FN(has_punycode_label)(const UNIT *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if ((i == 0 || s[i - 1] == '.') && n - i >= 4 && (s[i] | 0x20) == 'x' &&
            (s[i + 1] | 0x20) == 'n' && s[i + 2] == '-' && s[i + 3] == '-')
            return 1;
    }
    return 0;
}

static void FN(iri_split)(const UNIT *s, size_t n, pct_iri_parts *parts)
{
    size_t i = 0;
    if (n && is_alpha(s[0])) { /* a scheme only when the whole prefix fits its grammar */
        size_t j = 1;
        while (j < n && (is_alpha(s[j]) || (s[j] >= '0' && s[j] <= '9') || s[j] == '+' ||
                         s[j] == '-' || s[j] == '.'))
            j++;
        if (j < n && s[j] == ':')
            i = j + 1;
    }
    parts->host_start = parts->host_end = n;
    parts->host_punycode = 0;
    if (n - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        size_t start = i + 2, end = start, host = start;
        while (end < n && s[end] != '/' && s[end] != '?' && s[end] != '#')
            end++;
        for (size_t k = start; k < end; k++)
            if (s[k] == '@')
                host = k + 1; /* userinfo ends at the last '@' */
        if (!(host < end && s[host] == '[')) { /* an IP literal has no labels */
            size_t host_end = end;
            for (size_t k = host; k < end; k++)
                if (s[k] == ':')
                    host_end = k;
            parts->host_start = host;
            parts->host_end = host_end;
            parts->host_punycode = FN(has_punycode_label)(s + host, host_end - host);
        }
        i = end;
    }
    while (i < n && s[i] != '?' && s[i] != '#')
        i++;
    parts->query_start = parts->query_end = n;
    if (i < n && s[i] == '?') {
        size_t end = ++i;
        while (end < n && s[end] != '#')
            end++;
        parts->query_start = i;
        parts->query_end = end;
    }
}

static void FN(iri_decode)(const UNIT *s, size_t n, size_t private_start, size_t private_end,
                           sink *w)
{
    size_t i = 0;
    while ((i = FN(emit_to_percent)(w, s, n, i)) < n) {
        int b = FN(escaped_byte)(s, n, i);
        uint32_t cp;
        size_t count;
        if (b < 0) { /* a lone '%': kept, what follows is read again */
            emit(w, '%');
            i++;
        } else if (b >= 0x80 && FN(escaped_utf8)(s, n, i, (unsigned)b, &cp, &count) == PCT_ECMA_OK &&
                   iri_char(cp, private_start <= i && i < private_end)) {
            emit(w, cp);
            i += 3 * count;
        } else { /* ASCII, not UTF-8 or not IRI text: this one escape kept as written */
            FN(emit_units)(w, s + i, 3);
            i += 3;
        }
    }
}
