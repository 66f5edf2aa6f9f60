/* Reference resolution, RFC 3986 5.2: the target's parts taken from the
 * reference and the base, written straight into the output (5.3). */
#include <string.h>

#include "pct_authority.h"
#include "pct_resolve.h"
#include "pct_uri.h"

/* The authority of a split URI: what follows its "//", up to its path. */
static pct_range authority(const pct_uri *u)
{
    size_t start = (u->has_scheme ? u->scheme.len + 1 : 0) + 2;
    pct_range r = {start, u->path.start - start};
    return r;
}

static uint8_t *put(uint8_t *d, const uint8_t *s, pct_range r)
{
    if (r.len)
        memcpy(d, s + r.start, r.len);
    return d + r.len;
}

static uint8_t ascii_lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + ('a' - 'A')) : c;
}

static int same_scheme(const uint8_t *a, pct_range ra, const uint8_t *b, pct_range rb)
{
    if (ra.len != rb.len)
        return 0;
    for (size_t i = 0; i < ra.len; i++)
        if (ascii_lower(a[ra.start + i]) != ascii_lower(b[rb.start + i]))
            return 0;
    return 1;
}

int pct_resolve(const uint8_t *base, size_t bn, const uint8_t *ref, size_t rn, unsigned flags,
                uint8_t *dst, size_t *out_len, size_t *pos)
{
    pct_uri b, r;
    pct_uri_split(base, bn, &b);
    if (!b.has_scheme) {
        *pos = pct_scheme_span(base, bn); /* where a scheme would stop */
        return PCT_RESOLVE_NOT_ABSOLUTE;
    }
    pct_uri_split(ref, rn, &r);
    int r_scheme = r.has_scheme;
    if ((flags & PCT_RESOLVE_NON_STRICT) && r_scheme && same_scheme(ref, r.scheme, base, b.scheme))
        r_scheme = 0;
    uint8_t *d = dst;
    /* scheme: the reference's, or the base's */
    d = r_scheme ? put(d, ref, r.scheme) : put(d, base, b.scheme);
    *d++ = ':';
    /* authority */
    const uint8_t *as = NULL; /* the source of the authority, NULL: none */
    pct_range ar = {0, 0};
    if (r_scheme || r.has_authority) {
        if (r.has_authority) {
            as = ref;
            ar = authority(&r);
        }
    } else if (b.has_authority) {
        as = base;
        ar = authority(&b);
    }
    if (as) {
        *d++ = '/';
        *d++ = '/';
        d = put(d, as, ar);
    }
    /* path and query */
    uint8_t *path = d;
    const uint8_t *qs = ref; /* the source of the query, NULL: none */
    const pct_uri *qu = &r;
    if (!r_scheme && !r.has_authority && r.path.len == 0) {
        d = put(d, base, b.path); /* the base's path as it is: no dot segments removed */
        if (!r.has_query) {
            qs = b.has_query ? base : NULL;
            qu = &b;
        }
    } else {
        if (!r_scheme && !r.has_authority && ref[r.path.start] != '/') {
            /* merge (5.2.3): the base's path up to its last '/', "/" for
             * an empty one under an authority */
            if (b.has_authority && b.path.len == 0) {
                *d++ = '/';
            } else {
                size_t k = b.path.len;
                while (k > 0 && base[b.path.start + k - 1] != '/')
                    k--;
                pct_range dir = {b.path.start, k};
                d = put(d, base, dir);
            }
        }
        d = put(d, ref, r.path);
        d = path + pct_remove_dot_segments(path, (size_t)(d - path));
    }
    if (qs && qu->has_query) {
        *d++ = '?';
        d = put(d, qs, qu->query);
    }
    if (r.has_fragment) {
        *d++ = '#';
        d = put(d, ref, r.fragment);
    }
    *out_len = (size_t)(d - dst);
    return PCT_OK;
}
