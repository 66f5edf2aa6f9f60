/* The deduplication key of a normalized URI: query filtered and sorted,
 * then the options of pct_canon.h. */
#include <string.h>

#include "pct_canon.h"
#include "pct_authority.h"
#include "pct_uri.h"

static int equals(const uint8_t *s, pct_range r, const char *text)
{
    size_t len = strlen(text);
    return r.len == len && memcmp(s + r.start, text, len) == 0;
}

/* Whether the path p[0..n) ends in a dot segment ("." or ".."), which
 * normalize would remove: a trailing '/' that guards one stays. */
static int ends_in_dot_segment(const uint8_t *p, size_t n)
{
    size_t k = n;
    while (k && p[k - 1] != '/')
        k--;
    size_t last = n - k;
    return (last == 1 && p[k] == '.') || (last == 2 && p[k] == '.' && p[k + 1] == '.');
}

pct_status pct_canon_key(const uint8_t *s, size_t n, const pct_canon *c, uint8_t *dst,
                         size_t *out_len)
{
    pct_uri u;
    pct_uri_split(s, n, &u);
    size_t w = 0;
    int web = 0; /* http or https */
    if (u.has_scheme) {
        web = equals(s, u.scheme, "http") || equals(s, u.scheme, "https");
        pct_range scheme = u.scheme;
        if (web && (c->opts & PCT_CANON_ONE_SCHEME))
            scheme.len = 4; /* "http" */
        memcpy(dst, s + scheme.start, scheme.len);
        w = scheme.len;
        dst[w++] = ':';
    }
    if (u.has_authority) {
        dst[w++] = '/';
        dst[w++] = '/';
        if (u.has_userinfo) {
            /* a special scheme's empty password goes, and an empty userinfo
             * with it, as the URL Standard writes them: the key of a URL is
             * the key of its href ("u:@h" and "u@h" are one URL) */
            size_t ul = u.userinfo.len;
            int special = u.has_scheme && pct_scheme_special(s + u.scheme.start, u.scheme.len);
            if (special && ul && s[u.userinfo.start + ul - 1] == ':'
                && !memchr(s + u.userinfo.start, ':', ul - 1))
                ul--;
            if (ul || !special) {
                memcpy(dst + w, s + u.userinfo.start, ul);
                w += ul;
                dst[w++] = '@';
            }
        }
        pct_range host = u.host;
        if (c->opts & PCT_CANON_STRIP_WWW)
            /* not before a '[': the rest would read as an IP literal, the
             * port split differently, and the key change when canonicalized
             * again ("www.[::1]WWW." is host "www.[:", port "1]WWW.") */
            while (host.len > 4 && memcmp(s + host.start, "www.", 4) == 0
                   && s[host.start + 4] != '[') {
                host.start += 4;
                host.len -= 4;
            }
        memcpy(dst + w, s + host.start, host.len);
        w += host.len;
        if (u.has_port && !(web && (c->opts & PCT_CANON_ONE_SCHEME) && equals(s, u.port, "80"))) {
            dst[w++] = ':';
            memcpy(dst + w, s + u.port.start, u.port.len);
            w += u.port.len;
        }
    }
    size_t plen = u.path.len;
    const uint8_t *path = s + u.path.start;
    if (c->opts & PCT_CANON_TRAILING_SLASH) {
        /* A "/." before a path that starts with "//" (a scheme, no
         * authority) is normalize's guard against reading the path as an
         * authority, not a segment: the path behind it is trimmed, and the
         * guard stays only while that path still starts with "//" (else the
         * key would change when canonicalized again). */
        size_t guard = u.has_scheme && !u.has_authority && plen >= 4 && path[0] == '/'
                               && path[1] == '.' && path[2] == '/' && path[3] == '/'
                           ? 2
                           : 0;
        const uint8_t *p = path + guard;
        size_t pn = plen - guard, keep = pn;
        while (keep > 1 && p[keep - 1] == '/')
            keep--;
        if (keep < pn && ends_in_dot_segment(p, keep))
            keep++;
        if (guard && !(keep >= 2 && p[1] == '/')) {
            path = p;
            plen = keep;
        } else {
            plen = guard + keep;
        }
    }
    memcpy(dst + w, path, plen);
    w += plen;
    size_t tail = u.has_query ? u.query.start - 1 : u.has_fragment ? u.fragment.start - 1 : n, len = 0;
    pct_status rc = pct_canon_tail(s + tail, n - tail, w == 0, c, dst + w, &len);
    *out_len = w + len;
    return rc;
}

int pct_canon_query_only(const pct_canon *c)
{
    return !(c->opts & (PCT_CANON_STRIP_WWW | PCT_CANON_ONE_SCHEME | PCT_CANON_TRAILING_SLASH));
}

/* The key of the query q[0..qn) (no '?') into dst (qn bytes), *len
 * bytes; *mark: whether its '?' stays. An empty query goes when it was
 * emptied (or with the option), but a reference that is only a query
 * keeps it: "" is the base's. */
static pct_status query_key(const uint8_t *q, size_t qn, int alone, const pct_canon *c, uint8_t *dst,
                            size_t *len, int *mark, int *same)
{
    size_t removed;
    pct_status rc = pct_query_write(q, qn, &c->filter, dst, len, &removed, same);
    *mark = *len || alone || !(removed || (c->opts & PCT_CANON_EMPTY_QUERY));
    return rc;
}

pct_status pct_canon_tail(const uint8_t *t, size_t n, int alone, const pct_canon *c, uint8_t *dst,
                          size_t *out_len)
{
    size_t w = 0, i = 0;
    if (n && t[0] == '?') {
        const uint8_t *hash = memchr(t + 1, '#', n - 1);
        size_t qn = (hash ? (size_t)(hash - t) : n) - 1, len;
        int mark;
        pct_status rc = query_key(t + 1, qn, alone, c, dst + 1, &len, &mark, NULL);
        if (rc != PCT_OK)
            return rc;
        if (mark) {
            dst[0] = '?';
            w = 1 + len;
        }
        i = 1 + qn;
    }
    memcpy(dst + w, t + i, n - i); /* the fragment */
    *out_len = w + n - i;
    return PCT_OK;
}

pct_status pct_canon_tail_in_place(uint8_t *t, size_t n, int alone, int hash, const pct_canon *c,
                                   uint8_t *scratch, size_t *out_len)
{
    const uint8_t *h = hash ? memchr(t + 1, '#', n - 1) : NULL;
    size_t qn = (h ? (size_t)(h - t) : n) - 1, len;
    int mark, same;
    pct_status rc = query_key(t + 1, qn, alone, c, scratch, &len, &mark, &same);
    if (rc != PCT_OK)
        return rc;
    *out_len = n;
    if (mark && same)
        return PCT_OK; /* most queries: their key is themselves */
    size_t w = mark ? 1 + len : 0;
    memcpy(t + 1, scratch, len); /* (after the '?', which stays or is written over) */
    memmove(t + w, t + 1 + qn, n - 1 - qn); /* the fragment */
    *out_len = w + n - 1 - qn;
    return PCT_OK;
}

/* The byte of the escape at s[i] ("%XX", i + 2 < end), or -1. */
static int escaped_byte(const uint8_t *s, size_t i, size_t end)
{
    if (s[i] != '%' || end - i < 3 || pct_hex_value[s[i + 1]] < 0 || pct_hex_value[s[i + 2]] < 0)
        return -1;
    return pct_hex_value[s[i + 1]] * 16 + pct_hex_value[s[i + 2]];
}

static int sub_delim(int c)
{
    return c > 0 && strchr("!$&'()*+,;=", c) != NULL;
}

/* The host of s[0..n) when it is one pct_canon_host_escapes names. */
static int host_with_escapes(const uint8_t *s, size_t n, size_t *host, size_t *end)
{
    pct_authority a;
    if (!memchr(s, '%', n) || !pct_authority_find(s, n, PCT_AUTH_WEB, &a) || a.special != 1
        || !a.escaped || a.ip_literal)
        return 0;
    int wide = 0, delim = 0;
    for (size_t i = a.host; i < a.host_end; i++) {
        int c = escaped_byte(s, i, a.host_end);
        wide |= s[i] >= 0x80 || c >= 0x80;
        delim |= sub_delim(c);
    }
    *host = a.host;
    *end = a.host_end;
    return wide && delim;
}

int pct_canon_host_escapes(const uint8_t *s, size_t n)
{
    size_t host, end;
    return host_with_escapes(s, n, &host, &end);
}

size_t pct_canon_host_unescape(uint8_t *s, size_t n)
{
    size_t host, end, w;
    if (!host_with_escapes(s, n, &host, &end))
        return n;
    w = host;
    for (size_t i = host; i < end; i++) {
        int c = escaped_byte(s, i, end);
        if (sub_delim(c)) {
            s[w++] = (uint8_t)c;
            i += 2;
        } else {
            s[w++] = s[i];
        }
    }
    memmove(s + w, s + end, n - end);
    return w + n - end;
}
