/* pct_domain: a row of registered_domain_many and its sister functions
 * (see pct_domain.h for the rules). */
#include <string.h>

#include "pct_domain.h"

/* Byte classes: B_HOST, a byte a host is looked up with as it is
 * (lowercased): letters, digits, "-._~", the sub-delims and the few others
 * the URL Standard does not forbid in a domain (everything else is the
 * caller's); B_UPPER, an ASCII capital; B_SCHEME, a byte of a scheme after
 * its first letter; B_STOP, a byte that ends an authority ("/?#"); B_AT
 * "@"; B_COLON ":". One table for every test of the row's single pass. */
enum { B_HOST = 1, B_UPPER = 2, B_SCHEME = 4, B_STOP = 8, B_AT = 16, B_COLON = 32 };
static const uint8_t CLASS[256] = {
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  1,  1,  8,  1,  0,  1,  1,  1,  1,  1,  5,  1,  5,  5,  8,
     5,  5,  5,  5,  5,  5,  5,  5,  5,  5, 32,  1,  0,  1,  0,  8,
    16,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,
     7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  0,  0,  0,  0,  1,
     1,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,
     5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  1,  0,  1,  1,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

static int is_alpha(uint8_t c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* Where the authority of src[0..*n) starts; *n loses the trailing C0
 * controls and spaces. */
static size_t authority_start(const uint8_t *src, size_t *n)
{
    size_t i = 0, end = *n;
    while (i < end && src[i] <= 0x20)
        i++;
    while (end > i && src[end - 1] <= 0x20)
        end--;
    *n = end;
    /* "scheme://" or "//" */
    size_t j = i;
    if (j < end && is_alpha(src[j])) {
        j++;
        while (j < end && (CLASS[src[j]] & B_SCHEME))
            j++;
        j = j < end && src[j] == ':' ? j + 1 : i;
    }
    return end - j >= 2 && src[j] == '/' && src[j + 1] == '/' ? j + 2 : i;
}

int pct_domain_host(const uint8_t *src, size_t n, size_t *start, size_t *len)
{
    size_t i = authority_start(src, &n);
    /* one pass over the authority: its end, its last '@', the first ':' after it */
    size_t end = i, colon = SIZE_MAX;
    for (; end < n; end++) {
        uint8_t k = CLASS[src[end]];
        if (!(k & (B_STOP | B_AT | B_COLON)))
            continue;
        if (k & B_STOP)
            break;
        if (k & B_AT) {
            i = end + 1;
            colon = SIZE_MAX;
        } else if (colon == SIZE_MAX) {
            colon = end;
        }
    }
    *start = i;
    if (i < end && src[i] == '[') {
        *len = end - i;
        return 0;
    }
    *len = (colon < end ? colon : end) - i;
    return 1;
}

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

static int has_xn(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++)
        if (p[i] == 'x' && p[i + 1] == 'n' && p[i + 2] == '-' && p[i + 3] == '-'
            && (i == 0 || p[i - 1] == '.'))
            return 1;
    return 0;
}

/* The first of "/?#@:" in s[i..n), or n: a word at a time (a byte equals
 * v where x ^ v*ONES has a zero byte), then byte by byte. */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

static inline uint64_t zero_byte(uint64_t y)
{
    return (y - ONES) & ~y & HIGHS;
}

static size_t next_special(const uint8_t *s, size_t i, size_t n)
{
    while (n - i >= 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        if (zero_byte(x ^ (ONES * '/')) | zero_byte(x ^ (ONES * '?')) | zero_byte(x ^ (ONES * '#'))
            | zero_byte(x ^ (ONES * '@')) | zero_byte(x ^ (ONES * ':')))
            break;
        i += 8;
    }
    for (; i < n; i++)
        if (CLASS[s[i]] & (B_STOP | B_AT | B_COLON))
            return i;
    return n;
}

int pct_domain_part(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n, uint8_t *dst,
                    size_t *len)
{
    *len = 0;
    /* The authority's end, the host after its last '@' up to the first
     * ':' after that; then the host's bytes checked in one pass (which
     * classes, any capital, any empty label). */
    size_t hs = authority_start(src, &n), end = hs, colon = SIZE_MAX;
    for (;; end++) {
        end = next_special(src, end, n);
        if (end == n || (CLASS[src[end]] & B_STOP))
            break;
        if (src[end] == '@') {
            hs = end + 1;
            colon = SIZE_MAX;
        } else if (colon == SIZE_MAX) {
            colon = end;
        }
    }
    size_t stop = colon < end ? colon : end;
    unsigned classes = B_HOST, upper = 0, empty = 0, dot = 1;
    for (size_t i = hs; i < stop; i++) {
        uint8_t c = src[i], k = CLASS[c];
        classes &= k;
        upper |= k;
        unsigned is_dot = c == '.';
        empty |= dot & is_dot;
        dot = is_dot;
    }
    if (hs < end && src[hs] == '[')
        return PCT_DOMAIN_NONE; /* an IP literal */
    size_t hn = stop - hs;
    const uint8_t *h = src + hs;
    if (!(classes & B_HOST)) { /* IDNA, unless a byte no host may hold comes first */
        for (size_t i = 0; i < hn; i++)
            if (!(CLASS[h[i]] & B_HOST) && h[i] < 0x80 && h[i] != '%')
                return PCT_DOMAIN_BAD_HOST;
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
