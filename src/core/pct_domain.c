/* pct_domain: a row of registered_domain_many and its sister functions
 * (see pct_domain.h for the rules). */
#include <string.h>

#include "pct_authority.h"
#include "pct_domain.h"

/* Byte classes: B_HOST, a byte a host is looked up with as it is
 * (lowercased): letters, digits, "-._~", the sub-delims and the few others
 * the URL Standard does not forbid in a domain (everything else is the
 * caller's); B_UPPER, an ASCII capital. */
enum { B_HOST = 1, B_UPPER = 2 };
static const uint8_t CLASS[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0,
    0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The last label of h[0..n) is a number: an IPv4 address. */
static int ends_in_number(const uint8_t *h, size_t n)
{
    size_t s = n;
    while (s > 0 && h[s - 1] != '.')
        s--;
    const uint8_t *p = h + s;
    size_t m = n - s, k = 0;
    if (m >= 2 && p[0] == '0' && p[1] == 'x') {
        for (k = 2; k < m; k++)
            if (!((p[k] >= '0' && p[k] <= '9') || (p[k] >= 'a' && p[k] <= 'f')))
                return 0;
        return 1;
    }
    for (k = 0; k < m; k++)
        if (p[k] < '0' || p[k] > '9')
            return 0;
    return 1;
}

/* The starts of the last `labels` and `labels` + 1 labels of h[0..n), or
 * SIZE_MAX when it has no more labels than that. */
static void last_labels(const uint8_t *h, size_t n, size_t labels, size_t *suffix, size_t *above)
{
    *suffix = *above = SIZE_MAX;
    size_t seen = 0;
    for (size_t s = n; s > 0; s--) {
        if (h[s - 1] != '.')
            continue;
        if (++seen == labels) {
            *suffix = s;
        } else if (seen == labels + 1) {
            *above = s;
            return;
        }
    }
    if (seen + 1 == labels)
        *suffix = 0;
    else if (seen == labels)
        *above = 0;
}

/* h[0..n) with its escapes (%XX) decoded, into d (n bytes, not
 * overlapping h); returns the length. */
static size_t decode_escapes(const uint8_t *h, size_t n, uint8_t *d)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (h[i] == '%' && n - i >= 3 && pct_hex_value[h[i + 1]] >= 0
            && pct_hex_value[h[i + 2]] >= 0) {
            d[w++] = (uint8_t)(pct_hex_value[h[i + 1]] << 4 | pct_hex_value[h[i + 2]]);
            i += 2;
        } else {
            d[w++] = h[i];
        }
    }
    return w;
}

static int has_xn(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++)
        if (p[i] == 'x' && p[i + 1] == 'n' && p[i + 2] == '-' && p[i + 3] == '-'
            && (i == 0 || p[i - 1] == '.'))
            return 1;
    return 0;
}

int pct_domain_part(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n, uint8_t *dst,
                    size_t *len)
{
    *len = 0;
    const uint8_t *h = src;
    size_t hn = n;
    int decoded = 1; /* a '%' is one no host may hold */
    if (!(flags & PCT_DOMAIN_IS_HOST)) {
        pct_authority a;
        pct_authority_find(src, n, PCT_AUTH_WEB, &a);
        if (a.ip_literal)
            return PCT_DOMAIN_NONE;
        h = src + a.host;
        hn = a.host_end - a.host;
        /* escapes decoded first, as the URL Standard's host parser does */
        decoded = a.escaped && hn && memchr(h, '%', hn);
        if (decoded) {
            hn = decode_escapes(h, hn, dst);
            h = dst;
        }
    }
    /* the host's bytes checked in one pass: which classes, any capital,
     * any empty label */
    unsigned classes = B_HOST, upper = 0, empty = 0, dot = 1;
    for (size_t i = 0; i < hn; i++) {
        uint8_t c = h[i], k = CLASS[c];
        classes &= k;
        upper |= k;
        unsigned is_dot = c == '.';
        empty |= dot & is_dot;
        dot = is_dot;
    }
    if (!(classes & B_HOST)) { /* IDNA, unless a byte no host may hold comes first */
        for (size_t i = 0; i < hn; i++)
            if (!(CLASS[h[i]] & B_HOST) && h[i] < 0x80 && (decoded || h[i] != '%'))
                return PCT_DOMAIN_CALLER;
        return PCT_DOMAIN_IDNA;
    }
    if (upper & B_UPPER) { /* looked up lowercased */
        for (size_t i = 0; i < hn; i++)
            dst[i] = (uint8_t)(h[i] | (CLASS[h[i]] & B_UPPER ? 0x20 : 0));
        h = dst;
    }
    if (hn && h[hn - 1] == '.')
        hn--; /* one trailing dot */
    if (hn == 0 || h[hn - 1] == '.' || empty)
        return PCT_DOMAIN_NONE; /* empty, or an empty label (leading, "..", "a..") */
    if (ends_in_number(h, hn))
        return PCT_DOMAIN_NONE;
    unsigned part = flags & PCT_DOMAIN_PART;
    size_t from = 0, to = hn;
    if (part != PCT_DOMAIN_HOST) {
        size_t labels = pct_psl_suffix_labels(psl, h, hn, (flags & PCT_DOMAIN_PRIVATE) != 0);
        size_t suffix, registered;
        last_labels(h, hn, labels, &suffix, &registered);
        if (part == PCT_DOMAIN_SUFFIX) {
            from = suffix;
        } else if (registered == SIZE_MAX) {
            return PCT_DOMAIN_NONE; /* the host is a suffix: no registered domain */
        } else if (part == PCT_DOMAIN_REGISTERED) {
            from = registered;
        } else {
            to = registered ? registered - 1 : 0;
        }
    }
    if ((flags & PCT_DOMAIN_UNICODE) && has_xn(h + from, to - from))
        return PCT_DOMAIN_CALLER;
    if (to > from)
        memmove(dst, h + from, to - from); /* h may be dst */
    *len = to - from;
    return PCT_OK;
}
