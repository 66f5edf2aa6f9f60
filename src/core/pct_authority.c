/* pct_authority: the scheme, authority and host of a URL (see
 * pct_authority.h): the one finder of them. */
#include <string.h>

#include "pct_authority.h"
#include "pct_portable.h"

#if defined(PCT_X86_64)
#include <emmintrin.h>
#endif

/* Scheme bytes: S_FIRST a letter, S_REST a letter, digit, '+', '-' or '.'. */
enum { S_FIRST = 1, S_REST = 2 };
static const uint8_t SCHEME[256] = {
    ['+'] = S_REST, ['-'] = S_REST, ['.'] = S_REST,
    ['0'] = S_REST, ['1'] = S_REST, ['2'] = S_REST, ['3'] = S_REST, ['4'] = S_REST,
    ['5'] = S_REST, ['6'] = S_REST, ['7'] = S_REST, ['8'] = S_REST, ['9'] = S_REST,
    ['A'] = 3, ['B'] = 3, ['C'] = 3, ['D'] = 3, ['E'] = 3, ['F'] = 3, ['G'] = 3, ['H'] = 3,
    ['I'] = 3, ['J'] = 3, ['K'] = 3, ['L'] = 3, ['M'] = 3, ['N'] = 3, ['O'] = 3, ['P'] = 3,
    ['Q'] = 3, ['R'] = 3, ['S'] = 3, ['T'] = 3, ['U'] = 3, ['V'] = 3, ['W'] = 3, ['X'] = 3,
    ['Y'] = 3, ['Z'] = 3,
    ['a'] = 3, ['b'] = 3, ['c'] = 3, ['d'] = 3, ['e'] = 3, ['f'] = 3, ['g'] = 3, ['h'] = 3,
    ['i'] = 3, ['j'] = 3, ['k'] = 3, ['l'] = 3, ['m'] = 3, ['n'] = 3, ['o'] = 3, ['p'] = 3,
    ['q'] = 3, ['r'] = 3, ['s'] = 3, ['t'] = 3, ['u'] = 3, ['v'] = 3, ['w'] = 3, ['x'] = 3,
    ['y'] = 3, ['z'] = 3,
};

/* The static forms, inlined into pct_authority_find (the domain
 * functions' per-row path); the extern ones wrap them. */
static PCT_ALWAYS_INLINE size_t scheme_span(const uint8_t *s, size_t n)
{
    if (n == 0 || !(SCHEME[s[0]] & S_FIRST))
        return 0;
    size_t i = 1;
    while (i < n && (SCHEME[s[i]] & S_REST))
        i++;
    return i;
}

size_t pct_scheme_span(const uint8_t *s, size_t n)
{
    return scheme_span(s, n);
}

static PCT_ALWAYS_INLINE size_t scheme_length(const uint8_t *s, size_t n)
{
    size_t i = scheme_span(s, n);
    return i && i < n && s[i] == ':' ? i : 0;
}

size_t pct_scheme_length(const uint8_t *s, size_t n)
{
    size_t i = scheme_span(s, n);
    return i && i < n && s[i] == ':' ? i : 0;
}

/* The bytes of name[0, len) as a little-endian word. */
static uint64_t word(const char *name, size_t len)
{
    uint64_t w = 0;
    for (size_t i = 0; i < len; i++)
        w |= (uint64_t)(uint8_t)name[i] << (8 * i);
    return w;
}

static PCT_ALWAYS_INLINE int scheme_special(const uint8_t *s, size_t len)
{
    /* the scheme lowercased into one word (its bytes are letters, digits,
     * '+', '-' and '.': | 0x20 lowercases the letters and maps none of the
     * others onto a letter) */
    if (len < 2 || len > 5)
        return 0;
    uint64_t w = 0;
    for (size_t i = 0; i < len; i++)
        w |= (uint64_t)(s[i] | 0x20) << (8 * i);
    switch (len) {
    case 2:
        return w == word("ws", 2);
    case 3:
        return w == word("wss", 3) || w == word("ftp", 3);
    case 4:
        return w == word("http", 4) || w == word("file", 4);
    default:
        return w == word("https", 5);
    }
}

int pct_scheme_special(const uint8_t *s, size_t len)
{
    return scheme_special(s, len);
}

static PCT_ALWAYS_INLINE void parts(const uint8_t *s, size_t start, size_t host, size_t colon,
                                    size_t end, int escaped, pct_authority *a)
{
    a->start = start;
    a->end = end;
    a->host = host;
    a->has_userinfo = host != start;
    a->escaped = (unsigned char)(escaped != 0);
    a->special = 0;
    a->ip_literal = host < end && s[host] == '[';
    if (a->ip_literal) { /* an IP literal holds ':' up to its ']' */
        size_t close = host;
        while (close < end && s[close] != ']')
            close++;
        colon = close + 1 < end && s[close + 1] == ':' ? close + 1 : end;
    } else if (colon == SIZE_MAX || colon > end) {
        colon = end;
    }
    a->host_end = colon;
    a->has_port = colon != end;
}

void pct_authority_parts(const uint8_t *s, size_t start, size_t host, size_t colon, size_t end,
                         int escaped, pct_authority *a)
{
    parts(s, start, host, colon, end, escaped, a);
}

/* What the scan stops at: K_END ends the authority ('\' too with
 * PCT_AUTH_BACKSLASH), K_AT ends a userinfo, K_COLON may start the port. */
enum { K_END = 1, K_AT = 2, K_COLON = 4, K_PERCENT = 8, K_BACKSLASH = 16 };
static const uint8_t KIND[256] = {['/'] = K_END, ['?'] = K_END, ['#'] = K_END, ['@'] = K_AT,
                                  [':'] = K_COLON, ['%'] = K_PERCENT, ['\\'] = K_BACKSLASH};

#if defined(PCT_X86_64)
/* The delimiters of the 16 bytes at p as bit masks (bit k: p[k]); `bs` is
 * the byte that ends the authority besides '/', '?' and '#' ('/' again
 * when '\\' does not). */
typedef struct {
    uint32_t end, at, colon, percent;
} auth_masks;

static PCT_ALWAYS_INLINE auth_masks block_masks(const uint8_t *p, __m128i bs)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i e = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
                                          _mm_cmpeq_epi8(v, _mm_set1_epi8('?'))),
                             _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('#')),
                                          _mm_cmpeq_epi8(v, bs)));
    auth_masks m;
    m.end = (uint32_t)_mm_movemask_epi8(e);
    m.at = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('@')));
    m.colon = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')));
    m.percent = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('%')));
    return m;
}
#endif

static PCT_ALWAYS_INLINE size_t scan_authority(const uint8_t *s, size_t start, size_t n, unsigned flags,
                                      pct_authority *a)
{
    size_t host = start, colon = SIZE_MAX, i = start;
    unsigned escaped = 0;
#if defined(PCT_X86_64)
    /* sixteen bytes at a time (SSE2, the x86-64 baseline): a mask of each
     * delimiter. Past the last whole block, the last 16 bytes of s are
     * read again with the bytes already seen masked off, so that a text
     * of 16 bytes or more is never read a byte at a time. */
    if (n >= 16) {
        __m128i bs = _mm_set1_epi8(flags & PCT_AUTH_BACKSLASH ? '\\' : '/');
        size_t base = start;
        while (base < n) {
            uint32_t live = 0xFFFFu;
            if (n - base < 16) {
                live = (0xFFFFu << (base - (n - 16))) & 0xFFFFu;
                base = n - 16;
            }
            auth_masks m = block_masks(s + base, bs);
            uint32_t end = m.end & live;
            uint32_t before = end ? (end & (0u - end)) - 1 : 0xFFFFu; /* the bytes before the end */
            before &= live;
            uint32_t at = m.at & before, colons = m.colon & before, percent = m.percent & before;
            if (at) { /* the userinfo ends at the last '@' (rare: its bits one by one) */
                unsigned last = 0;
                for (uint32_t t = at; t; t &= t - 1)
                    last = pct_ctz32(t);
                host = base + last + 1;
                colon = SIZE_MAX;
                escaped = 0;
                uint32_t after = ~((2u << last) - 1u);
                colons &= after;
                percent &= after;
            }
            if (colon == SIZE_MAX && colons)
                colon = base + pct_ctz32(colons);
            escaped |= percent != 0;
            if (end) {
                parts(s, start, host, colon, base + pct_ctz32(end), (int)escaped, a);
                return a->end;
            }
            base += 16;
        }
        parts(s, start, host, colon, n, (int)escaped, a);
        return n;
    }
#endif
    /* a byte at a time off one table (a short text, or no SSE2) */
    unsigned stop = K_END | (flags & PCT_AUTH_BACKSLASH ? K_BACKSLASH : 0);
    for (; i < n; i++) {
        unsigned k = KIND[s[i]];
        if (!k)
            continue;
        if (k & stop)
            break;
        if (k == K_AT) {
            host = i + 1;
            colon = SIZE_MAX;
            escaped = 0;
        } else if (k == K_COLON) {
            if (colon == SIZE_MAX)
                colon = i;
        } else if (k == K_PERCENT) {
            escaped = 1;
        }
    }
    parts(s, start, host, colon, i, (int)escaped, a);
    return i;
}

size_t pct_authority_scan(const uint8_t *s, size_t start, size_t n, unsigned flags,
                          pct_authority *a)
{
    return scan_authority(s, start, n, flags, a);
}

int pct_authority_find(const uint8_t *src, size_t n, unsigned flags, pct_authority *a)
{
    size_t i = 0, end = n;
    unsigned scan = flags & PCT_AUTH_BACKSLASH;
    if (flags & PCT_AUTH_WEB) {
        while (i < end && src[i] <= 0x20)
            i++;
        while (end > i && src[end - 1] <= 0x20)
            end--;
    }
    size_t scheme = 0;
#if defined(PCT_LITTLE_ENDIAN)
    if (end - i >= 8) { /* "http://" and "https://" (in any case), the usual start, as one word */
        uint64_t w;
        memcpy(&w, src + i, 8);
        if (((w | 0x20202020u) & 0x00FFFFFFFFFFFFFFull) == word("http://", 7))
            scheme = 4;
        else if ((w | 0x2020202020ull) == word("https://", 8))
            scheme = 5;
    }
    int slashes = scheme != 0, special = slashes;
    if (!scheme) {
#else
    int slashes = 0, special = 0;
    {
#endif
        scheme = scheme_length(src + i, end - i);
        size_t k = scheme ? i + scheme + 1 : i;
        slashes = end - k >= 2 && src[k] == '/' && src[k + 1] == '/';
        special = slashes && scheme && scheme_special(src + i, scheme);
    }
    size_t j = scheme ? i + scheme + 1 : i;
    /* a special scheme but file: its authority starts after every '/' and
     * '\' that follows the ':', however many (the URL Standard's special
     * authority ignore slashes state: "http:/h", "http:h", "http:///h"),
     * tabs and newlines among them (the parser drops them) */
    int web_special = (flags & PCT_AUTH_WEB) && scheme && scheme_special(src + i, scheme)
                      && !(scheme == 4 && (src[i] | 0x20) == 'f'); /* (file: the only one of 4 letters but http) */
    if (web_special) {
        size_t k = j;
        while (k < end && (src[k] == '/' || src[k] == '\\' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r'))
            k++;
        scan_authority(src, k, end, scan | PCT_AUTH_BACKSLASH, a);
        /* "scheme://" then the authority, as RFC 3986 reads it too: the
         * finder's host may be the parser's (the domain functions' fast
         * reading); any other spelling is the parser's */
        a->special = (unsigned char)(slashes && k == j + 2);
        return 1;
    }
    if ((flags & PCT_AUTH_WEB) && !scheme) {
        /* a reference resolved against a web page: two or more of '/' and
         * '\' start its authority, which starts after the last of them
         * (the URL Standard's special authority slashes) */
        size_t k = i;
        while (k < end && (src[k] == '/' || src[k] == '\\'))
            k++;
        if (k - i >= 2) {
            scan_authority(src, k, end, scan | PCT_AUTH_BACKSLASH, a);
            return 1;
        }
    }
    if (slashes) {
        if ((flags & PCT_AUTH_WEB) && (!scheme || special))
            scan |= PCT_AUTH_BACKSLASH;
        scan_authority(src, j + 2, end, scan, a);
        if ((flags & PCT_AUTH_WEB) && special) /* file: the only special scheme of 4 letters but http */
            a->special = (unsigned char)(scheme == 4 && (src[i] | 0x20) == 'f' ? 2 : 1);
        return 1;
    }
    if (!(flags & PCT_AUTH_WEB)) {
        parts(src, j, j, SIZE_MAX, j, 0, a);
        return 0;
    }
    scan_authority(src, i, end, scan | PCT_AUTH_BACKSLASH, a); /* a bare host */
    return 1;
}

int pct_port_ok(const uint8_t *p, size_t n)
{
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        v = v * 10 + (uint32_t)(p[i] - '0');
        if (v > 65535)
            return 0;
    }
    return 1;
}

size_t pct_special_backslash(const uint8_t *s, size_t n)
{
    size_t scheme = pct_scheme_length(s, n);
    if (!scheme || !pct_scheme_special(s, scheme))
        return n;
    for (size_t i = scheme + 1; i < n; i++) {
        if (s[i] == '\\')
            return i;
        if (s[i] == '?' || s[i] == '#')
            break;
    }
    return n;
}

size_t pct_special_slashes(uint8_t *s, size_t n)
{
    size_t made = 0;
    for (size_t i = pct_special_backslash(s, n); i < n && s[i] != '?' && s[i] != '#'; i++)
        if (s[i] == '\\') {
            s[i] = '/';
            made++;
        }
    return made;
}

/* (the classes: pct_authority.h; bytes from 0x80 on are in none) */
const uint8_t pct_host_bytes[256] = {
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 1, 1, 16, 1, 0, 1, 1, 1, 1, 1, 1, 1, 13, 5, 16,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 16, 1, 16, 1, 16, 16,
    16, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 16, 16, 16, 16, 1,
    1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1, 16, 1, 1, 16,
};
