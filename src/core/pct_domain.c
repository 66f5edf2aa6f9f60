/* pct_domain: a row of registered_domain_many and its sister functions
 * (see pct_domain.h for the rules). */
#include <string.h>

#include "pct_authority.h"
#include "pct_domain.h"
#include "pct_portable.h"
#include "pct_psl_table.h"
#include "pct_url.h"

#if defined(PCT_X86_64)
#include <emmintrin.h>
#endif

/* The dots of a host recorded for the suffix lookup: hosts have a few;
 * past this many the lookup finds them itself. */
#define MAX_DOTS 32

/* The label p[0..m) is a number (decimal, or hex after "0x"): the last
 * label of an IPv4 address. Both forms start with a digit, which most
 * last labels (a top-level domain) do not. */
static int label_is_number(const uint8_t *p, size_t m)
{
    if (m && (p[0] < '0' || p[0] > '9'))
        return 0;
    size_t k;
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

/* The last label of h[0..n) is a number: an IPv4 address. */
static int ends_in_number(const uint8_t *h, size_t n)
{
    size_t s = n;
    while (s > 0 && h[s - 1] != '.')
        s--;
    return label_is_number(h + s, n - s);
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

#if defined(PCT_LITTLE_ENDIAN)
/* 1 when the eight bytes of w (little-endian) are all ASCII letters,
 * digits, '-' and '.': then *dots has the high bit of each '.' byte,
 * *caps that of each capital, and *dash says whether a '-' is there. Each
 * test is x >= c, a subtraction per byte whose borrow clears the byte's
 * high bit. */
static PCT_ALWAYS_INLINE int plain_word(uint64_t w, uint64_t *dots, uint64_t *caps, unsigned *dash)
{
    const uint64_t H = 0x8080808080808080ull, L = 0x0101010101010101ull;
    uint64_t t = (w & ~H) | H;
#define GE(c) ((t - L * (c)) & H)
    uint64_t letter = GE('a') & ~GE('z' + 1);
    uint64_t cap = GE('A') & ~GE('Z' + 1);
    uint64_t digit = GE('0') & ~GE('9' + 1);
    uint64_t dash_dot = GE('-') & ~GE('/');
    uint64_t dot_up = GE('.');
#undef GE
    if (((letter | cap | digit | dash_dot) & ~(w & H)) != H)
        return 0;
    *dots = dash_dot & dot_up;
    *caps = cap;
    *dash = (dash_dot & ~dot_up) != 0;
    return 1;
}
#endif

#if defined(PCT_X86_64)
/* The bytes of v that are ASCII letters, digits, '-' or '.' (a plain
 * host's), with the letters, dashes and dots apart: the host checks'
 * sixteen bytes at a time. */
static PCT_ALWAYS_INLINE __m128i plain_bytes(__m128i v, __m128i *letter, __m128i *dash, __m128i *dot)
{
    __m128i off = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    *letter = _mm_cmpeq_epi8(_mm_min_epu8(off, _mm_set1_epi8(25)), off);
    __m128i doff = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(doff, _mm_set1_epi8(9)), doff);
    *dash = _mm_cmpeq_epi8(v, _mm_set1_epi8('-'));
    *dot = _mm_cmpeq_epi8(v, _mm_set1_epi8('.'));
    return _mm_or_si128(_mm_or_si128(*letter, digit), _mm_or_si128(*dash, *dot));
}
#endif

/* last_labels of a host whose dots are all in dots[0..nd), ascending. */
static void labels_at(const size_t *dots, size_t nd, size_t labels, size_t *suffix, size_t *above)
{
    *suffix = labels == 0 ? SIZE_MAX : labels <= nd ? dots[nd - labels] + 1 : labels == nd + 1 ? 0 : SIZE_MAX;
    *above = labels + 1 <= nd ? dots[nd - labels - 1] + 1 : labels == nd ? 0 : SIZE_MAX;
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

/* has_xn of h[0..n), whose dots are all in dots[0..nd): the labels' starts
 * alone are read. */
static int xn_at(const uint8_t *h, size_t n, size_t i)
{
    return n - i >= 4 && h[i] == 'x' && h[i + 1] == 'n' && h[i + 2] == '-' && h[i + 3] == '-';
}

static int has_xn_at(const uint8_t *h, size_t n, const size_t *dots, size_t nd)
{
    if (xn_at(h, n, 0))
        return 1;
    for (size_t k = 0; k < nd; k++) /* the label after each dot */
        if (xn_at(h, n, dots[k] + 1))
            return 1;
    return 0;
}

/* src starts (after leading C0 controls and spaces, with tabs and
 * newlines skipped, as the URL Standard's parser reads it) with a special
 * scheme and ':'. */
static int special_scheme(const uint8_t *s, size_t n)
{
    size_t i = 0, k = 0;
    uint8_t name[5];
    while (i < n && s[i] <= 0x20)
        i++;
    for (; i < n; i++) {
        uint8_t c = s[i];
        if (c == '\t' || c == '\n' || c == '\r')
            continue;
        if (c == ':')
            return k && pct_scheme_special(name, k);
        if (k == sizeof name || !((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
            return 0; /* no special scheme is longer, or holds another byte */
        name[k++] = c;
    }
    return 0;
}

/* How the domain functions read src, whose authority pct_authority_find
 * found in a: READ_AS_TODAY (a bare host, a scheme that is not special:
 * the authority finder's reading), READ_FAST (a special scheme's
 * "scheme://": the finder's host, when it is one the URL Standard's
 * parser reads alike; the caller checks) or READ_PARSER (any other
 * special scheme's URL: the parser's host). */
enum { READ_AS_TODAY, READ_FAST, READ_PARSER };
static int reading(const uint8_t *src, size_t n, const pct_authority *a)
{
    if (a->special) /* the finder saw the special "scheme://" */
        return a->special == 2 ? READ_PARSER : READ_FAST; /* file: its own host rules */
    return special_scheme(src, n) ? READ_PARSER : READ_AS_TODAY;
}

int pct_domain_browser(const uint8_t *src, size_t n)
{
    pct_authority a;
    pct_authority_find(src, n, PCT_AUTH_WEB, &a);
    return reading(src, n, &a) != READ_AS_TODAY;
}

int pct_domain_browser_at(const uint8_t *src, size_t n, const pct_authority *found)
{
    return reading(src, n, found) != READ_AS_TODAY;
}

static int part_of(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n,
                   const pct_authority *found, uint8_t *dst, size_t *len);

/* 1 when a tab or newline is in src[0..n) between its leading and trailing
 * C0 controls and spaces (which are ignored anyway). */
static int inner_tab_or_newline(const uint8_t *src, size_t n)
{
    size_t i = 0;
    while (i < n && src[i] <= 0x20)
        i++;
    while (n > i && src[n - 1] <= 0x20)
        n--;
    for (; i < n; i++)
        if (src[i] == '\t' || src[i] == '\n' || src[i] == '\r')
            return 1;
    return 0;
}

/* pct_domain_host_reader of src, whose authority is *a. */
static int reader_of(const uint8_t *src, size_t n, const pct_authority *a)
{
    int how = reading(src, n, a);
    if (how == READ_AS_TODAY)
        return PCT_DOMAIN_READ_FINDER;
    if (how == READ_PARSER || a->escaped || a->ip_literal)
        return PCT_DOMAIN_READ_PARSER;
    /* a tab or newline the parser drops and the finder keeps (one compare
     * a byte: '\v' and '\f' with them, which only sends the row to the
     * parser) */
    for (size_t i = 0; i < a->host_end; i++)
        if ((uint8_t)(src[i] - '\t') <= '\r' - '\t')
            return PCT_DOMAIN_READ_PARSER;
    return PCT_DOMAIN_READ_ALIKE;
}

int pct_domain_host_reader(const uint8_t *src, size_t n)
{
    pct_authority a;
    pct_authority_find(src, n, PCT_AUTH_WEB, &a);
    return reader_of(src, n, &a);
}

int pct_domain_host_reader_at(const uint8_t *src, size_t n, const pct_authority *found)
{
    return reader_of(src, n, found);
}

int pct_domain_host_refused(const uint8_t *src, size_t n)
{
    pct_authority a;
    pct_authority_find(src, n, PCT_AUTH_WEB, &a);
    return pct_domain_host_refused_at(src, n, &a);
}

int pct_domain_host_refused_at(const uint8_t *src, size_t n, const pct_authority *found)
{
    pct_authority a = *found;
    /* (reader_of: ALIKE needs the finder's special "scheme://" of a
     * scheme but file:, no escape, no IP literal) */
    if (a.special != 1 || a.escaped || a.ip_literal)
        return 0;
    /* the URL Standard's forbidden domain code points in ASCII are PCT_HB_BAD
     * but '%', and a '%' in the host is an escape the parser decodes first
     * (not ALIKE): refused when a PCT_HB_BAD byte is there and the parser reads
     * the host alike (the cheap test first) */
    size_t i = a.host;
    while (i < a.host_end && !(pct_host_bytes[src[i]] & PCT_HB_BAD))
        i++;
    return i < a.host_end && reader_of(src, n, &a) == PCT_DOMAIN_READ_ALIKE;
}


int pct_domain_parser_row(const uint8_t *src, size_t n, uint8_t *dst)
{
    int form;
    return pct_domain_parser_row_form(src, n, dst, &form);
}

int pct_domain_parser_row_form(const uint8_t *src, size_t n, uint8_t *dst, int *form)
{
    size_t len;
    pct_authority a; /* found once for both questions */
    pct_authority_find(src, n, PCT_AUTH_WEB, &a);
    *form = 0;
    if (reading(src, n, &a) == READ_AS_TODAY)
        return 0; /* (pct_domain_browser: 0) */
    int rc = part_of(NULL, PCT_DOMAIN_HOST, src, n, &a, dst, &len);
    *form = rc != PCT_OK; /* a plain host checked whole: no IPv4 form */
    return rc == PCT_DOMAIN_URL;
}

int pct_domain_number_host(const uint8_t *url, size_t n)
{
    pct_authority a;
    if (!pct_authority_find(url, n, 0, &a) || a.ip_literal || a.host == a.host_end)
        return 0;
    size_t hn = a.host_end - a.host;
    if (url[a.host + hn - 1] == '.')
        hn--;
    return hn && ends_in_number(url + a.host, hn);
}

pct_status pct_domain_url_host(pct_url *u, const uint8_t *src, size_t n, const uint8_t **host,
                               size_t *hn)
{
    *host = NULL;
    *hn = 0;
    pct_status rc = pct_url_parse(u, src, n, NULL, SIZE_MAX);
    if (rc != PCT_OK)
        return rc;
    *host = u->href + u->host_start;
    *hn = u->host_end - u->host_start;
    return u->host_kind == PCT_URL_HOST_DOMAIN ? PCT_OK : PCT_DOMAIN_NONE;
}

int pct_domain_part(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n, uint8_t *dst,
                    size_t *len)
{
    pct_authority a;
    if (flags & PCT_DOMAIN_IS_HOST)
        memset(&a, 0, sizeof a); /* (unread) */
    else
        pct_authority_find(src, n, PCT_AUTH_WEB, &a);
    return part_of(psl, flags, src, n, &a, dst, len);
}

int pct_domain_part_at(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n,
                       const pct_authority *found, uint8_t *dst, size_t *len)
{
    return part_of(psl, flags, src, n, found, dst, len);
}

/* pct_domain_part with src's authority already found (`found`, unread
 * with PCT_DOMAIN_IS_HOST). */
static int part_of(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n,
                   const pct_authority *found, uint8_t *dst, size_t *len)
{
    *len = 0;
    const uint8_t *h = src;
    size_t hn = n;
    int decoded = 1; /* a '%' is one no host may hold */
    int fast = 0;    /* a special scheme's URL, read by the finder if the parser reads it alike */
    size_t lead = 0; /* the bytes of src before h */
    if (!(flags & PCT_DOMAIN_IS_HOST)) {
        pct_authority a = *found;
        int how = reading(src, n, &a);
        if (how == READ_PARSER)
            return PCT_DOMAIN_URL;
        if (how == READ_AS_TODAY && inner_tab_or_newline(src, n))
            return PCT_DOMAIN_CALLER; /* rare: read with them dropped, as the URL Standard drops them */
        fast = how == READ_FAST;
        if (fast && (a.ip_literal || a.host == a.host_end
                     || (a.has_port && !pct_port_ok(src + a.host_end + 1, a.end - a.host_end - 1))))
            return PCT_DOMAIN_URL;
        if (a.ip_literal)
            return PCT_DOMAIN_NONE;
        h = src + a.host;
        hn = a.host_end - a.host;
        lead = a.host;
        /* escapes decoded first, as the URL Standard's host parser does */
        decoded = a.escaped && hn && memchr(h, '%', hn);
        if (decoded) {
            hn = decode_escapes(h, hn, dst);
            h = dst;
            lead = 0;
        }
    }
    /* the host's bytes checked in one pass: which classes, any capital,
     * any empty label */
    unsigned classes = PCT_HB_HOST | PCT_HB_PLAIN, upper = 0, empty = 0, dot = 1;
    size_t dots[MAX_DOTS], nd = 0; /* where the dots are, for the suffix lookup */
    size_t at = 0; /* the bytes before it checked (and written lowercased to dst) */
#if defined(PCT_LITTLE_ENDIAN)
    /* eight bytes at a time while they are ASCII letters, digits, '-' and
     * '.' (the usual host), each word written lowercased to dst; the last
     * few bytes are read with the ones before them (`lead` bytes before h
     * are readable) and padded with 'a'. The loop below takes the rest
     * alike. */
    uint64_t caps_all = 0;
#if defined(PCT_X86_64)
    /* sixteen bytes at a time first (SSE2) while 16 bytes from h are
     * readable: a host is mostly one block */
    size_t room = decoded ? hn : n - lead; /* the bytes readable from h */
    while (at < hn && room - at >= 16) {
        size_t left = hn - at, step = left < 16 ? left : 16;
        uint32_t valid = step == 16 ? 0xFFFFu : (1u << step) - 1u;
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(h + at));
        __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20)); /* a letter's lowercase */
        __m128i letter, dashes, dotv;
        __m128i plain = plain_bytes(v, &letter, &dashes, &dotv);
        if (((uint32_t)_mm_movemask_epi8(plain) & valid) != valid)
            break;
        __m128i capv = _mm_andnot_si128(_mm_cmpeq_epi8(v, folded), letter); /* a letter without 0x20 */
        uint32_t capm = (uint32_t)_mm_movemask_epi8(capv) & valid;
        uint32_t dotm = (uint32_t)_mm_movemask_epi8(dotv) & valid;
        caps_all |= capm;
        upper |= ((uint32_t)_mm_movemask_epi8(dashes) & valid) ? PCT_HB_DASH : 0u;
        __m128i lw = _mm_or_si128(v, _mm_and_si128(capv, _mm_set1_epi8(0x20)));
        if (n - at >= 16) { /* dst has room for n bytes */
            _mm_storeu_si128((__m128i *)(void *)(dst + at), lw);
        } else if (caps_all) { /* the last block (at + step is hn) */
            uint8_t b[16];
            _mm_storeu_si128((__m128i *)(void *)b, lw);
            memcpy(dst + at, b, step);
        }
        empty |= (unsigned)((dotm & (dotm << 1)) != 0 || (dot && (dotm & 1u)));
        dot = (dotm >> (step - 1)) & 1u;
        for (; dotm; dotm &= dotm - 1)
            dots[nd++ % MAX_DOTS] = at + pct_ctz32(dotm);
        at += step;
    }
#endif
    while (at < hn) {
        size_t left = hn - at;
        uint64_t w, d, caps;
        if (left >= 8) {
            memcpy(&w, h + at, 8);
        } else if (lead + hn >= 8) {
            memcpy(&w, h + hn - 8, 8);
            w = (w >> (8 * (8 - left))) | (0x6161616161616161ull << (8 * left));
        } else {
            break;
        }
        unsigned dash;
        if (!plain_word(w, &d, &caps, &dash))
            break;
        caps_all |= caps;
        upper |= dash ? PCT_HB_DASH : 0u;
        uint64_t lw = w | (caps >> 2); /* capitals lowercased: 0x80 >> 2 is 0x20 */
        if (left >= 8) {
            memcpy(dst + at, &lw, 8);
        } else if (caps_all) { /* (the bytes past the host are dst's no more) */
            for (size_t k = 0; k < left; k++)
                dst[at + k] = (uint8_t)(lw >> (8 * k));
        }
        empty |= (unsigned)(((d << 8) & d) != 0 || (dot && (d & 0x80u)));
        dot = (unsigned)(d >> 63);
        for (; d; d &= d - 1)
            dots[nd++ % MAX_DOTS] = at + pct_ctz64(d) / 8;
        at += left < 8 ? left : 8;
    }
    upper |= caps_all ? PCT_HB_UPPER : 0u;
#endif
    size_t lowered = at; /* dst[0, at) is h[0, at) lowercased when there is a capital */
    for (size_t i = at; i < hn; i++) {
        uint8_t c = h[i], k = pct_host_bytes[c];
        classes &= k;
        upper |= k;
        unsigned is_dot = c == '.';
        empty |= dot & is_dot;
        dot = is_dot;
        if (is_dot)
            dots[nd++ % MAX_DOTS] = i;
    }
    if (!(classes & PCT_HB_HOST)) { /* IDNA, unless a byte no host may hold comes first */
        if ((upper & PCT_HB_BAD) || (decoded && memchr(h, '%', hn)))
            return fast ? PCT_DOMAIN_URL : PCT_DOMAIN_BAD_HOST;
        /* the host's ASCII form is the parser's (the same domain to ASCII);
         * the caller reads it as a host, and a form ending in a number,
         * which it finds no part of, with the parser (pct_domain_browser) */
        return PCT_DOMAIN_IDNA;
    }
    if (fast && !(classes & PCT_HB_PLAIN))
        return PCT_DOMAIN_URL; /* the parser maps or refuses other bytes */
    if (upper & PCT_HB_UPPER) { /* looked up lowercased */
        for (size_t i = lowered; i < hn; i++)
            dst[i] = (uint8_t)(h[i] | (pct_host_bytes[h[i]] & PCT_HB_UPPER ? 0x20 : 0));
        h = dst;
    }
    if (hn && h[hn - 1] == '.') {
        hn--; /* one trailing dot */
        nd--;
    }
    /* the last label starts after the last dot (dots[] keeps the last
     * MAX_DOTS) */
    size_t last = nd ? dots[(nd - 1) % MAX_DOTS] + 1 : 0;
    int number = label_is_number(h + last, hn - last);
    if (fast && (hn == 0 || empty || number
                 || ((upper & PCT_HB_DASH) && (nd <= MAX_DOTS ? has_xn_at(h, hn, dots, nd) : has_xn(h, hn)))))
        return PCT_DOMAIN_URL; /* an IPv4 form, or labels the parser checks (xn--) */
    if (hn == 0 || h[hn - 1] == '.' || empty)
        return PCT_DOMAIN_NONE; /* empty, or an empty label (leading, "..", "a..") */
    if (number)
        return PCT_DOMAIN_NONE;
    unsigned part = flags & PCT_DOMAIN_PART;
    size_t from = 0, to = hn;
    if (part != PCT_DOMAIN_HOST) {
        int all = nd <= MAX_DOTS;
        size_t kept = all ? nd : 0; /* (past MAX_DOTS, the lookup finds them) */
        size_t labels = pct_psl_suffix_labels_dots(psl, h, hn, dots, kept, all,
                                                   (flags & PCT_DOMAIN_PRIVATE) != 0);
        size_t suffix, registered;
        if (all)
            labels_at(dots, nd, labels, &suffix, &registered);
        else
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

#if defined(PCT_X86_64)
/* The usual row in one pass: "http://" or "https://" (in any case, at the
 * start), then an authority of at most PLAIN_MAX bytes that ends at '/',
 * '?', '#', '\' or the row's end: a userinfo up to its last '@' (any
 * bytes), a host of letters, digits, '-' and '.', and ':' and a port of
 * digits the parser takes. For such a row pct_authority_find's host is
 * the one after the last '@' up to its first ':' (no byte <= 0x20 to trim
 * before the end of the host, no '%' in it), the URL Standard's parser
 * reads it alike, and part_of's checks reduce to the dots: so the
 * authority is read 16 bytes at a time, lowercased into a block of the
 * stack, its bytes' classes kept as masks (where the '@' and ':' are is
 * asked only of an authority that holds a byte no plain host does); a
 * host that also holds bytes >= 0x80 (and no other) is part_of's
 * PCT_DOMAIN_IDNA. Any other row, or a host part_of sends to the parser
 * or finds no part of by its form (an empty label, a last label that
 * starts with a digit, an xn-- label), is PCT_DOMAIN_CALLER's. */
#define PLAIN_MAX 64

/* A label of the host h whose dots are the bits of `dots` starts with
 * "xn--": where its third and fourth bytes are dashes, the first two are
 * read (has_xn_at, off the masks). */
static PCT_ALWAYS_INLINE int xn_label(const uint8_t *h, uint64_t dots, uint64_t dashes)
{
    uint64_t at = ((dots << 1) | 1u) & (dashes >> 2) & (dashes >> 3);
    for (; at; at &= at - 1) {
        unsigned i = pct_ctz64(at);
        if (h[i] == 'x' && h[i + 1] == 'n')
            return 1;
    }
    return 0;
}

/* The part of the authority that starts at src[j] (src[0..room) readable,
 * room >= 16; the row ends at n <= room) for plain_row: `url`, a URL's
 * authority, ends as plain_row says; else src[j..n) is a host alone. */
static PCT_ALWAYS_INLINE int plain_part(const pct_psl *psl, unsigned flags, const uint8_t *src,
                                        size_t j, size_t n, size_t room, int url, uint8_t *dst,
                                        size_t *len, size_t *host_at)
{
    /* the authority lowercased (the bytes past it unread), 16 bytes into
     * the block: the lookup loads the word before a label's end whole, and
     * a last block read from before p is stored from there */
    uint8_t block[16 + PLAIN_MAX + 16], *low = block + 16;
    memset(block, 0, 16); /* (shifted off) */
    uint64_t host_bytes = 0, high = 0, dots = 0, dashes = 0;
    size_t e = SIZE_MAX; /* the authority's end, from j */
    for (size_t at = 0; at < PLAIN_MAX; at += 16) {
        size_t p = j + at, q = p, shift = 0;
        if (p >= n) { /* the authority ends at the row's end */
            e = at;
            break;
        }
        if (room - p < 16) { /* the last 16 readable bytes, the ones before p shifted off */
            shift = 16 - (room - p);
            q = room - 16;
        }
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + q));
        __m128i letter, dashv, dotv;
        __m128i plain = plain_bytes(v, &letter, &dashv, &dotv);
        /* a URL's host may hold bytes >= 0x80 (its IDNA form is the caller's) */
        uint32_t ok = (uint32_t)_mm_movemask_epi8(url ? _mm_or_si128(plain, v) : plain) >> shift;
        uint32_t end = n - p < 16 ? 0xFFFFu << (n - p) & 0xFFFFu : 0; /* past the row */
        if (url) {
            __m128i endv = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
                                                     _mm_cmpeq_epi8(v, _mm_set1_epi8('?'))),
                                        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('#')),
                                                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
            end |= (uint32_t)_mm_movemask_epi8(endv) >> shift;
            high |= (uint64_t)((uint32_t)_mm_movemask_epi8(v) >> shift) << at;
        }
        /* letters | 0x20 (the rest as they are), stored whole where the
         * bytes belong (src[j + k] at low[k]): low has room, and the
         * shift <= 15 bytes before p of a last block go before it (the
         * authority's own, or the scheme's into the block's head) */
        __m128i lw = _mm_or_si128(v, _mm_and_si128(letter, _mm_set1_epi8(0x20)));
        _mm_storeu_si128((__m128i *)(void *)(low + at - shift), lw);
        host_bytes |= (uint64_t)ok << at;
        dots |= (uint64_t)((uint32_t)_mm_movemask_epi8(dotv) >> shift) << at;
        dashes |= (uint64_t)((uint32_t)_mm_movemask_epi8(dashv) >> shift) << at;
        if (end) {
            e = at + pct_ctz32(end);
            break;
        }
    }
    if (e == SIZE_MAX)
        return PCT_DOMAIN_CALLER; /* longer than PLAIN_MAX */
    /* (e < PLAIN_MAX) */
    size_t h0 = 0, he = e; /* the host [h0, he) */
    uint64_t odd = ~host_bytes & pct_bits_below(e);
    if (odd) { /* a userinfo, a port, or a byte no plain host holds */
        if (!url)
            return PCT_DOMAIN_CALLER;
        uint64_t ats = 0, colons = 0;
        for (size_t b = 0; b < e; b += 16) { /* (the bytes past e are masked off) */
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(low + b));
            ats |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('@'))) << b;
            colons |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(':'))) << b;
        }
        ats &= odd;
        if (ats) /* the userinfo ends at the last '@' */
            h0 = pct_top64(ats) + 1;
        colons &= odd & ~pct_bits_below(h0);
        if (colons)
            he = pct_ctz64(colons);
        if ((odd & ~pct_bits_below(h0) & pct_bits_below(he))
            || (colons && !pct_port_ok(src + j + he + 1, e - he - 1)))
            return PCT_DOMAIN_CALLER; /* '%', a space, '[', a port the parser refuses... */
    }
    size_t hn = he - h0;
    if (hn == 0)
        return PCT_DOMAIN_CALLER; /* empty */
    uint64_t in = pct_bits_below(he) & ~pct_bits_below(h0);
    if (high & in) { /* part_of's reading: the host needs IDNA */
        *host_at = j + h0;
        *len = hn;
        return PCT_DOMAIN_IDNA;
    }
    const uint8_t *host = low + h0;
    dots = (dots & in) >> h0;
    dashes = (dashes & in) >> h0;
    if ((dots >> (hn - 1)) & 1u) { /* one trailing dot */
        hn--;
        dots &= ~(1ull << hn);
    }
    if (hn == 0 || (dots & 1u) || (dots & (dots << 1)) || ((dots >> (hn - 1)) & 1u))
        return PCT_DOMAIN_CALLER; /* an empty label */
    size_t last = dots ? pct_top64(dots) + 1 : 0;
    if (host[last] >= '0' && host[last] <= '9')
        return PCT_DOMAIN_CALLER; /* maybe a number: an IPv4 form */
    /* an xn-- label: the parser checks a URL's; a host's is the caller's
     * in Unicode */
    if (dashes && (url || (flags & PCT_DOMAIN_UNICODE)) && xn_label(host, dots, dashes))
        return PCT_DOMAIN_CALLER;
    unsigned part = flags & PCT_DOMAIN_PART;
    size_t from = 0, to = hn;
    if (part != PCT_DOMAIN_HOST) {
        size_t suffix, registered;
        pct_psl_suffix_plain(psl, host, hn, dots, (flags & PCT_DOMAIN_PRIVATE) != 0, &suffix,
                             &registered);
        if (part == PCT_DOMAIN_SUFFIX)
            from = suffix;
        else if (registered == SIZE_MAX)
            return PCT_DOMAIN_NONE;
        else if (part == PCT_DOMAIN_REGISTERED)
            from = registered;
        else
            to = registered ? registered - 1 : 0;
    }
    /* (no xn-- label with PCT_DOMAIN_UNICODE: the part is as it is) */
    size_t m = to > from ? to - from : 0;
    if (m && (m + 15) / 16 * 16 <= n) { /* dst has room for n bytes: whole blocks */
        /* (written out: as a loop, the compiler calls memcpy) */
        const uint8_t *part_bytes = host + from;
        for (size_t b = 0;;) {
            _mm_storeu_si128((__m128i *)(void *)(dst + b),
                             _mm_loadu_si128((const __m128i *)(const void *)(part_bytes + b)));
            if ((b += 16) >= m)
                break;
        }
    } else if (m) {
        memcpy(dst, host + from, m);
    }
    *len = to - from;
    return PCT_OK;
}

static PCT_ALWAYS_INLINE int plain_row(const pct_psl *psl, unsigned flags, const uint8_t *src,
                                       size_t n, uint8_t *dst, size_t *len, size_t *host_at)
{
    if (flags & PCT_DOMAIN_IS_HOST) { /* a host shorter than a block is read from a copy */
        uint8_t copy[16] = {0};
        const uint8_t *from = src;
        if (n < 16) {
            if (n)
                memcpy(copy, src, n);
            from = copy;
        }
        if (flags == (PCT_DOMAIN_REGISTERED | PCT_DOMAIN_IS_HOST)) /* (as below) */
            return plain_part(psl, PCT_DOMAIN_REGISTERED | PCT_DOMAIN_IS_HOST, from, 0, n,
                              n < 16 ? 16 : n, 0, dst, len, host_at);
        return plain_part(psl, flags, from, 0, n, n < 16 ? 16 : n, 0, dst, len, host_at);
    }
    if (n < 16)
        return PCT_DOMAIN_CALLER;
    uint64_t w;
    memcpy(&w, src, 8);
    size_t j;
    if (((w | 0x20202020u) & 0x00FFFFFFFFFFFFFFull) == 0x002F2F3A70747468ull) /* "http://" */
        j = 7;
    else if ((w | 0x2020202020ull) == 0x2F2F3A7370747468ull) /* "https://" */
        j = 8;
    else
        return PCT_DOMAIN_CALLER;
    /* the usual call (registered_domain_many) with its flags known to the
     * compiler: the rule masks and the part's branches folded */
    if (flags == PCT_DOMAIN_REGISTERED)
        return plain_part(psl, PCT_DOMAIN_REGISTERED, src, j, n, n, 1, dst, len, host_at);
    return plain_part(psl, flags, src, j, n, n, 1, dst, len, host_at);
}
#endif

int pct_domain_part_plain(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n,
                          uint8_t *dst, size_t *len, size_t *host_at)
{
    *len = 0;
    *host_at = 0;
#if defined(PCT_X86_64)
    return plain_row(psl, flags, src, n, dst, len, host_at);
#else
    (void)psl, (void)flags, (void)src, (void)n, (void)dst;
    return PCT_DOMAIN_CALLER;
#endif
}
