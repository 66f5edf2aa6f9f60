/* pct_authority: the scheme, authority and host of a URL (see
 * pct_authority.h): the one finder of them. */
#include <string.h>

#include "pct_authority.h"

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

size_t pct_scheme_span(const uint8_t *s, size_t n)
{
    if (n == 0 || !(SCHEME[s[0]] & S_FIRST))
        return 0;
    size_t i = 1;
    while (i < n && (SCHEME[s[i]] & S_REST))
        i++;
    return i;
}

size_t pct_scheme_length(const uint8_t *s, size_t n)
{
    size_t i = pct_scheme_span(s, n);
    return i && i < n && s[i] == ':' ? i : 0;
}

/* s[0, len) is `name` (lowercase) in any case. */
static int named(const uint8_t *s, size_t len, const char *name, size_t name_len)
{
    if (len != name_len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if ((s[i] | 0x20) != (uint8_t)name[i])
            return 0;
    return 1;
}

int pct_scheme_special(const uint8_t *s, size_t len)
{
    switch (len) {
    case 2:
        return named(s, len, "ws", 2);
    case 3:
        return named(s, len, "wss", 3) || named(s, len, "ftp", 3);
    case 4:
        return named(s, len, "http", 4) || named(s, len, "file", 4);
    case 5:
        return named(s, len, "https", 5);
    default:
        return 0;
    }
}

void pct_authority_parts(const uint8_t *s, size_t start, size_t host, size_t colon, size_t end,
                         int escaped, pct_authority *a)
{
    a->start = start;
    a->end = end;
    a->host = host;
    a->has_userinfo = host != start;
    a->escaped = (unsigned char)(escaped != 0);
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

/* What the scan stops at: K_END ends the authority ('\' too with
 * PCT_AUTH_BACKSLASH), K_AT ends a userinfo, K_COLON may start the port. */
enum { K_END = 1, K_AT = 2, K_COLON = 4, K_PERCENT = 8, K_BACKSLASH = 16 };
static const uint8_t KIND[256] = {['/'] = K_END, ['?'] = K_END, ['#'] = K_END, ['@'] = K_AT,
                                  [':'] = K_COLON, ['%'] = K_PERCENT, ['\\'] = K_BACKSLASH};

#define ONES 0x0101010101010101ull
#define HIGHS (ONES << 7)

/* 0x80 in the bytes of v equal to c (and maybe in bytes above the first
 * such one: only whether there is one is used). */
static inline uint64_t has_byte(uint64_t v, uint8_t c)
{
    uint64_t x = v ^ (ONES * c);
    return (x - ONES) & ~x & HIGHS;
}

size_t pct_authority_scan(const uint8_t *s, size_t start, size_t n, unsigned flags,
                          pct_authority *a)
{
    unsigned stop = K_END | (flags & PCT_AUTH_BACKSLASH ? K_BACKSLASH : 0);
    size_t host = start, colon = SIZE_MAX, i = start;
    int escaped = 0;
    for (;; i++) {
        /* eight bytes at a time past the bytes no delimiter is (most) */
        while (n - i >= 8) {
            uint64_t v;
            memcpy(&v, s + i, 8);
            /* '/' is 0x2F and '?' 0x3F: one test of v | 0x10 finds both */
            if (has_byte(v | ONES * 0x10, '?') | has_byte(v, '#') | has_byte(v, '@')
                | has_byte(v, ':') | has_byte(v, '%') | has_byte(v, '\\'))
                break;
            i += 8;
        }
        while (i < n && !KIND[s[i]])
            i++;
        if (i >= n)
            break;
        unsigned k = KIND[s[i]];
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
    pct_authority_parts(s, start, host, colon, i, escaped, a);
    return i;
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
    size_t scheme = pct_scheme_length(src + i, end - i);
    size_t j = scheme ? i + scheme + 1 : i;
    int slashes = end - j >= 2 && src[j] == '/' && src[j + 1] == '/';
    if (slashes) {
        if ((flags & PCT_AUTH_WEB) && (!scheme || pct_scheme_special(src + i, scheme)))
            scan |= PCT_AUTH_BACKSLASH;
        pct_authority_scan(src, j + 2, end, scan, a);
        return 1;
    }
    if (!(flags & PCT_AUTH_WEB)) {
        pct_authority_parts(src, j, j, SIZE_MAX, j, 0, a);
        return 0;
    }
    pct_authority_scan(src, i, end, scan | PCT_AUTH_BACKSLASH, a); /* a bare host */
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
