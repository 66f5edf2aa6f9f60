/* The deduplication key of a normalized URI: query filtered and sorted,
 * then the options of pct_canon.h. */
#include <string.h>

#include "pct_canon.h"
#include "pct_authority.h"
#include "pct_portable.h"
#include "pct_idna.h"
#include "pct_uri.h"
#include "pct_url.h"

#if defined(PCT_X86_64)
#include <emmintrin.h>
#endif

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

/* The length of the special scheme (not file:) that starts the normalized
 * url[0..n) (lowercase) before its "://", else 0. */
static size_t web_scheme(const uint8_t *url, size_t n)
{
    if (n >= 8 && memcmp(url, "https://", 8) == 0) /* the usual ones first */
        return 5;
    if (n >= 7 && memcmp(url, "http://", 7) == 0)
        return 4;
    size_t k = 0;
    while (k < n && k < 6 && url[k] != ':')
        k++;
    if (k == n || n - k < 3 || url[k] != ':' || url[k + 1] != '/' || url[k + 2] != '/')
        return 0;
    int special = (k == 4 && memcmp(url, "http", 4) == 0) || (k == 5 && memcmp(url, "https", 5) == 0)
                  || (k == 2 && memcmp(url, "ws", 2) == 0) || (k == 3 && memcmp(url, "wss", 3) == 0)
                  || (k == 3 && memcmp(url, "ftp", 3) == 0);
    return special ? k : 0;
}

/* 1 when s[0..n) holds a byte >= 0x80. */
static int has_high(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] >= 0x80)
            return 1;
    return 0;
}

/* 1 when h[0..n) is a plain host the parser keeps as it is: lowercase
 * letters, digits, '-' and '.', no empty label (one trailing dot apart),
 * a last label that does not start with a digit (no IPv4 form); 2 when it
 * is an IPv4 address as the parser writes it (pct_url_ipv4_written); 3
 * when it is not plain but the parser may keep it as it is: lowercase
 * bytes a domain may hold (PCT_HB_HOST) or empty labels, its last label
 * not starting with a digit (its domain to ASCII decides); *xn: a label
 * starts with "xn--". */
static int plain_host(const uint8_t *h, size_t n, int *xn)
{
    size_t whole = n;
    size_t label = 0; /* where the label being read starts */
    unsigned dash = 0, all = PCT_HB_PLAIN;
    int empty = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = pct_host_bytes[h[i]];
        if ((c & (PCT_HB_HOST | PCT_HB_UPPER)) != PCT_HB_HOST)
            return 0; /* (a capital: not the normalized row's) */
        all &= c;
        dash |= c & PCT_HB_DASH;
        if (h[i] == '.') {
            empty |= i == label;
            label = i + 1;
        }
    }
    if (label == n && n) { /* one trailing dot: the label before it is the last */
        n--;
        for (label = n; label && h[label - 1] != '.'; label--) {
        }
    }
    *xn = 0;
    if (label < n && h[label] >= '0' && h[label] <= '9')
        return pct_url_ipv4_written(h, whole) ? 2 : 0;
    if (!whole)
        return 0;
    if (label == n || !all || empty)
        return 3; /* (an empty last label: no number, as the parser reads it) */
    if (dash)
        for (size_t i = 0; i + 4 <= n; i++)
            if ((i == 0 || h[i - 1] == '.') && memcmp(h + i, "xn--", 4) == 0)
                *xn = 1;
    return 1;
}

/* 1 when the parser's domain to ASCII of the ASCII host h[0..n) (no
 * escape) is host[0..hn): the parser's host is then the row's. */
static int parser_keeps(const uint8_t *h, size_t n, const uint8_t *host, size_t hn)
{
    uint8_t form[256];
    size_t len;
    return pct_idna_to_ascii(h, n, form, sizeof form, &len) == PCT_OK && len == hn
           && memcmp(form, host, hn) == 0;
}

/* pct_canon_host_alike a part at a time (the reference, and rows the
 * vector pass does not take). */
static int host_alike_parts(const uint8_t *src, size_t n, const uint8_t *url, size_t len, size_t k,
                            int *userinfo)
{
    pct_authority a, s;
    pct_authority_scan(url, k + 3, len, 0, &a);
    *userinfo = a.has_userinfo;
    const uint8_t *host = url + a.host;
    size_t hn = a.host_end - a.host;
    int xn = 0, plain = a.ip_literal || a.escaped ? 0 : plain_host(host, hn, &xn);
    if (!plain || (a.has_port && !pct_port_ok(url + a.host_end + 1, a.end - a.host_end - 1)))
        return 0;
    /* src's own authority (its scheme as long, its "://" too): an escape
     * in its port is one normalize decodes and the parser refuses */
    pct_authority_scan(src, k + 3, n, PCT_AUTH_BACKSLASH, &s);
    if (s.ip_literal || (s.escaped && s.has_port && memchr(src + s.host_end + 1, '%', s.end - s.host_end - 1)))
        return 0;
    /* an xn-- label the parser checks, unless it is the form of a host
     * that needs IDNA (the parser's domain to ASCII is that form) */
    if (plain == 1 && (!xn || pct_host_needs_idna(src + s.host, s.host_end - s.host, 1)))
        return 1;
    /* an IPv4 address as the parser writes it, a host the parser may keep
     * as it is, or an ASCII xn-- label: alike when src's host is ASCII
     * with no escape, src has no tab or newline (which the parser removes
     * and normalize keeps without strip_whitespace), and the parser's host
     * is the row's */
    const uint8_t *from = src + s.host;
    size_t fn = s.host_end - s.host;
    return !s.escaped && !has_high(from, fn) && !pct_uri_needs_strip(src, n)
           && (plain == 2 || parser_keeps(from, fn, host, hn));
}

#if defined(PCT_X86_64)
/* Masks of s[from, from + 64) (the bytes before n), bit i for s[from + i]:
 * the bytes that end an authority ('/', '?', '#', '\'), '@', and with
 * `host` the bytes ':', '.', '-' and a plain host's (lowercase letters,
 * digits, '-', '.'), else '%' and the bytes >= 0x80. Sixteen bytes at a
 * time up to the block where the authority ends; the last block is the
 * last 16 bytes of s shifted (n >= 16). Returns n - from when the masks
 * reach s's end (fewer than 64 bytes), else 64. */
typedef struct {
    uint64_t end, at, colon, plain, dot, dash, percent, high;
} auth_masks;

static PCT_ALWAYS_INLINE size_t masks_at(const uint8_t *s, size_t from, size_t n, int host,
                                         auth_masks *m)
{
    uint64_t end = 0, at = 0, colon = 0, plain = 0, dot = 0, dash = 0, percent = 0, high = 0;
    size_t k = 0;
    for (; k < 64 && from + k < n; k += 16) {
        size_t p = from + k;
        unsigned shift = 0;
        if (n - p < 16) {
            shift = (unsigned)(16 - (n - p));
            p = n - 16;
        }
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
#define MASK(x) ((uint64_t)((uint32_t)_mm_movemask_epi8(x) >> shift) << k)
        __m128i e = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('?'))),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('#')),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
        end |= MASK(e);
        at |= MASK(_mm_cmpeq_epi8(v, _mm_set1_epi8('@')));
        if (host) {
            __m128i off = _mm_sub_epi8(v, _mm_set1_epi8('a'));
            __m128i letter = _mm_cmpeq_epi8(_mm_min_epu8(off, _mm_set1_epi8(25)), off);
            __m128i doff = _mm_sub_epi8(v, _mm_set1_epi8('0'));
            __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(doff, _mm_set1_epi8(9)), doff);
            __m128i dotv = _mm_cmpeq_epi8(v, _mm_set1_epi8('.'));
            __m128i dashv = _mm_cmpeq_epi8(v, _mm_set1_epi8('-'));
            colon |= MASK(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')));
            plain |= MASK(_mm_or_si128(_mm_or_si128(letter, digit), _mm_or_si128(dotv, dashv)));
            dot |= MASK(dotv);
            dash |= MASK(dashv);
        } else {
            percent |= MASK(_mm_cmpeq_epi8(v, _mm_set1_epi8('%')));
            high |= MASK(v);
        }
#undef MASK
        if (end)
            break; /* the authority's end is in the masks */
    }
    m->end = end;
    m->at = at;
    m->colon = colon;
    m->plain = plain;
    m->dot = dot;
    m->dash = dash;
    m->percent = percent;
    m->high = high;
    return !end && k < 64 ? n - from : 64;
}

/* The authority's end and its host's start in masks covering `covered`
 * bytes (the text's end when fewer than 64): 0 when it ends past them. */
static PCT_ALWAYS_INLINE int authority_in(const auth_masks *m, size_t covered, unsigned *end,
                                          unsigned *host)
{
    uint64_t ends = m->end | (covered < 64 ? 1ull << covered : 0);
    if (!ends)
        return 0;
    *end = pct_ctz64(ends);
    *host = 0;
    for (uint64_t t = m->at & ((1ull << *end) - 1); t; t &= t - 1) /* after the last '@' */
        *host = pct_ctz64(t) + 1;
    return 1;
}

/* host_alike_parts off the masks of both authorities: 1, 0, or -1 when
 * the masks do not hold them (the parts' reading then). */
static int host_alike_masks(const uint8_t *src, size_t n, const uint8_t *url, size_t len, size_t k,
                            int *userinfo)
{
    auth_masks m;
    unsigned e, h;
    size_t from = k + 3;
    if (!authority_in(&m, masks_at(url, from, len, 1, &m), &e, &h))
        return -1;
    *userinfo = h != 0;
    uint64_t before = (1ull << e) - 1, colon = m.colon & before & ~((1ull << h) - 1);
    unsigned he = colon ? pct_ctz64(colon) : e, hn = he - h;
    uint64_t in = ((1ull << hn) - 1) << h; /* the host's bits */
    if (!hn)
        return 0;
    if ((m.plain & in) != in)
        return -1; /* maybe a host the parser keeps: the parts' reading */
    uint64_t d = (m.dot & in) >> h;
    if ((d >> (hn - 1)) & 1u) { /* one trailing dot */
        if (!--hn)
            return 0;
        d &= ~(1ull << hn);
    }
    if ((d & 1u) || (d & (d << 1)) || ((d >> (hn - 1)) & 1u))
        return -1; /* an empty label: the parts' reading */
    unsigned last = 0;
    for (uint64_t t = d; t; t &= t - 1)
        last = pct_ctz64(t) + 1;
    const uint8_t *host = url + from + h;
    /* a last label that starts with a digit: an IPv4 form, kept when the
     * parser writes it so (src's host then ASCII, checked below) */
    int ipv4 = host[last] >= '0' && host[last] <= '9';
    if (ipv4 && !pct_url_ipv4_written(host, he - h))
        return 0;
    int xn = 0;
    if (m.dash & in) { /* a label that starts with "xn--" */
        xn = hn >= 4 && memcmp(host, "xn--", 4) == 0;
        for (uint64_t t = d; t && !xn; t &= t - 1) {
            unsigned at = pct_ctz64(t) + 1;
            xn = hn - at >= 4 && memcmp(host + at, "xn--", 4) == 0;
        }
    }
    if (colon && !pct_port_ok(url + from + he + 1, e - he - 1))
        return 0;
    /* src's authority: no escape in its host or port (one in its port
     * normalize decodes and the parser refuses), and a byte >= 0x80 in its
     * host when the row's host has an xn-- label (its IDNA form, which the
     * parser's domain to ASCII is too) */
    if (!authority_in(&m, masks_at(src, from, n, 0, &m), &e, &h))
        return -1;
    uint64_t after = ((1ull << e) - 1) & ~((1ull << h) - 1);
    if (m.percent & after)
        return 0;
    if (ipv4) /* (no tab or newline: the parser's reading is the row's) */
        return (m.high & after) == 0 && !pct_uri_needs_strip(src, n);
    return !xn || (m.high & after) != 0 ? 1 : -1; /* (an ASCII xn-- label: the parts') */
}
#endif

int pct_canon_host_alike(const uint8_t *src, size_t n, const uint8_t *url, size_t len, int *userinfo)
{
    size_t k = web_scheme(url, len);
    *userinfo = 1; /* (not known: maybe) */
    if (!k || n < k + 3 || src[k] != ':' || src[k + 1] != '/' || src[k + 2] != '/')
        return 0; /* (not normalize's row of src) */
#if defined(PCT_X86_64)
    if (len >= 16 && n >= 16) {
        int got = host_alike_masks(src, n, url, len, k, userinfo);
        if (got >= 0)
            return got;
    }
#endif
    return host_alike_parts(src, n, url, len, k, userinfo);
}
