/* pct_domain: a row of registered_domain_many and its sister functions
 * (see pct_domain.h for the rules). */
#include <string.h>

#include "pct_domain.h"

/* The bytes a host is looked up with as they are (lowercased): letters,
 * digits, "-._~", the sub-delims and the few others the URL Standard does
 * not forbid in a domain. Everything else is the caller's. */
static const uint8_t HOST_BYTE[256] = {
    ['-'] = 1, ['.'] = 1, ['_'] = 1, ['~'] = 1, ['!'] = 1, ['$'] = 1, ['&'] = 1, ['\''] = 1,
    ['('] = 1, [')'] = 1, ['*'] = 1, ['+'] = 1, [','] = 1, [';'] = 1, ['='] = 1, ['"'] = 1,
    ['`'] = 1, ['{'] = 1, ['}'] = 1,
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
    ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
    ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
    ['y'] = 1, ['z'] = 1,
    ['A'] = 2, ['B'] = 2, ['C'] = 2, ['D'] = 2, ['E'] = 2, ['F'] = 2, ['G'] = 2, ['H'] = 2,
    ['I'] = 2, ['J'] = 2, ['K'] = 2, ['L'] = 2, ['M'] = 2, ['N'] = 2, ['O'] = 2, ['P'] = 2,
    ['Q'] = 2, ['R'] = 2, ['S'] = 2, ['T'] = 2, ['U'] = 2, ['V'] = 2, ['W'] = 2, ['X'] = 2,
    ['Y'] = 2, ['Z'] = 2,
};

static int is_alpha(uint8_t c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

int pct_domain_host(const uint8_t *src, size_t n, size_t *start, size_t *len)
{
    size_t i = 0;
    while (i < n && src[i] <= 0x20)
        i++;
    while (n > i && src[n - 1] <= 0x20)
        n--;
    /* "scheme://" or "//" */
    size_t j = i;
    if (j < n && is_alpha(src[j])) {
        j++;
        while (j < n && (is_alpha(src[j]) || (src[j] >= '0' && src[j] <= '9') || src[j] == '+'
                         || src[j] == '-' || src[j] == '.'))
            j++;
        if (j < n && src[j] == ':')
            j++;
        else
            j = i;
    }
    if (n - j >= 2 && src[j] == '/' && src[j + 1] == '/')
        i = j + 2;
    size_t end = i;
    while (end < n && src[end] != '/' && src[end] != '?' && src[end] != '#')
        end++;
    for (size_t k = end; k > i; k--)
        if (src[k - 1] == '@') {
            i = k;
            break;
        }
    *start = i;
    if (i < end && src[i] == '[') {
        *len = end - i;
        return 0;
    }
    size_t stop = i;
    while (stop < end && src[stop] != ':')
        stop++;
    *len = stop - i;
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

/* The start of the last `labels` labels of h[0..n) (0 when it has no more). */
static size_t last_labels(const uint8_t *h, size_t n, size_t labels)
{
    size_t s = n;
    while (s > 0) {
        if (h[s - 1] == '.' && --labels == 0)
            return s;
        s--;
    }
    return 0;
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
    size_t start, hn;
    *len = 0;
    if (!pct_domain_host(src, n, &start, &hn))
        return PCT_DOMAIN_NONE; /* an IP literal */
    const uint8_t *host = src + start;
    /* lowercased into dst, every byte checked */
    unsigned seen = 0;
    for (size_t i = 0; i < hn; i++) {
        uint8_t c = host[i], kind = HOST_BYTE[c];
        seen |= kind ? 0u : 1u;
        dst[i] = kind == 2 ? (uint8_t)(c | 0x20) : c;
    }
    if (seen) { /* IDNA, unless a byte no host may hold comes first */
        for (size_t i = 0; i < hn; i++)
            if (!HOST_BYTE[host[i]] && host[i] < 0x80 && host[i] != '%')
                return PCT_DOMAIN_CALLER;
        return PCT_DOMAIN_IDNA;
    }
    if (hn && dst[hn - 1] == '.')
        hn--;
    if (hn == 0 || dst[0] == '.' || dst[hn - 1] == '.')
        return PCT_DOMAIN_NONE; /* empty, or an empty first or last label */
    for (size_t i = 1; i < hn; i++)
        if (dst[i] == '.' && dst[i - 1] == '.')
            return PCT_DOMAIN_NONE; /* an empty label */
    if (ends_in_number(dst, hn))
        return PCT_DOMAIN_NONE;
    unsigned part = flags & PCT_DOMAIN_PART;
    size_t from = 0, to = hn;
    if (part != PCT_DOMAIN_HOST) {
        size_t labels = pct_psl_suffix_labels(psl, dst, hn, (flags & PCT_DOMAIN_PRIVATE) != 0);
        size_t suffix = last_labels(dst, hn, labels);
        size_t registered = suffix ? last_labels(dst, hn, labels + 1) : 0;
        if (part == PCT_DOMAIN_SUFFIX) {
            from = suffix;
        } else if (!suffix) {
            return PCT_DOMAIN_NONE; /* the host is a suffix: no registered domain */
        } else if (part == PCT_DOMAIN_REGISTERED) {
            from = registered;
        } else {
            to = registered ? registered - 1 : 0;
        }
    }
    if ((flags & PCT_DOMAIN_UNICODE) && has_xn(dst + from, to - from))
        return PCT_DOMAIN_CALLER;
    if (from)
        memmove(dst, dst + from, to - from);
    *len = to - from;
    return PCT_OK;
}
