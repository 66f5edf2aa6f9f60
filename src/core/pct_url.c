/* The URL Standard's basic URL parser (see pct_url.h).
 *
 * The state machine is followed as written, but run a component at a time:
 * each state that buffers (authority, host, port, a path segment, query,
 * fragment) finds the end of its component first, then writes it, percent-
 * encoded, straight to the end of href. Components come in href's order,
 * so the only edits behind the end are dropping path segments (".." and
 * relative resolution) and the "/." a path that starts with "//" needs when
 * there is no host. */
#include <stdlib.h>
#include <string.h>

#include "pct_idna.h"
#include "pct_url.h"

/* The bytes each of the Standard's percent-encode sets leaves alone (the
 * printable ASCII that is not in the set; a byte >= 0x80 is always
 * escaped). bits: bit c; nibbles[l]: bit h when byte 16h+l is kept, as the
 * vector kernels read a pct_set. */
static const pct_set KEEP_C0 = {{0x00000000u, 0xFFFFFFFFu, 0xFFFFFFFFu, 0x7FFFFFFFu, 0, 0, 0, 0},
    {0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x7C}};
static const pct_set KEEP_FRAGMENT = {{0x00000000u, 0xAFFFFFFAu, 0xFFFFFFFFu, 0x7FFFFFFEu, 0, 0, 0, 0},
    {0xB8, 0xFC, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xF4, 0xFC, 0xF4, 0x7C}};
static const pct_set KEEP_QUERY = {{0x00000000u, 0xAFFFFFF2u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0, 0, 0, 0},
    {0xF8, 0xFC, 0xF8, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xF4, 0xFC, 0xF4, 0x7C}};
static const pct_set KEEP_SPECIAL_QUERY = {{0x00000000u, 0xAFFFFF72u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0, 0, 0, 0},
    {0xF8, 0xFC, 0xF8, 0xF8, 0xFC, 0xFC, 0xFC, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xF4, 0xFC, 0xF4, 0x7C}};
static const pct_set KEEP_PATH = {{0x00000000u, 0x2FFFFFF2u, 0xBFFFFFFFu, 0x57FFFFFEu, 0, 0, 0, 0},
    {0xB8, 0xFC, 0xF8, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x7C, 0xF4, 0x7C, 0xD4, 0x74}};
static const pct_set KEEP_USERINFO = {{0x00000000u, 0x03FF7FF2u, 0x87FFFFFEu, 0x47FFFFFEu, 0, 0, 0, 0},
    {0xA8, 0xFC, 0xF8, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xF4, 0x54, 0x54, 0x54, 0xD4, 0x70}};

/* The bytes that go on a component without ending it or being escaped
 * (the fast paths' spans): an authority (up to '/', '?', '#', and '\\' in
 * a special URL), a path segment (up to '/', and '\\' in a special URL),
 * a path of such segments,
 * an ASCII domain that domain to ASCII only lowercases (no forbidden
 * domain code point). */
static const pct_set AUTHORITY_SPECIAL = {{0x00000000u, 0x7FFF7FF6u, 0xEFFFFFFFu, 0x7FFFFFFFu, 0, 0, 0, 0},
    {0xF8, 0xFC, 0xFC, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xDC, 0xFC, 0xFC, 0x70}};
static const pct_set AUTHORITY_OTHER = {{0x00000000u, 0x7FFF7FF6u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0, 0, 0, 0},
    {0xF8, 0xFC, 0xFC, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x70}};
static const pct_set SEGMENT_SPECIAL = {{0x00000000u, 0x2FFF7FF2u, 0xAFFFFFFFu, 0x57FFFFFEu, 0, 0, 0, 0},
    {0xB8, 0xFC, 0xF8, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x7C, 0xD4, 0x7C, 0xD4, 0x70}};
static const pct_set SEGMENT_OTHER = {{0x00000000u, 0x2FFF7FF2u, 0xBFFFFFFFu, 0x57FFFFFEu, 0, 0, 0, 0},
    {0xB8, 0xFC, 0xF8, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x7C, 0xF4, 0x7C, 0xD4, 0x70}};
static const pct_set PATH_SPECIAL = {{0, 0x2FFFFFF2u, 0xAFFFFFFFu, 0x57FFFFFEu, 0, 0, 0, 0},
    {0xB8, 0xFC, 0xF8, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x7C, 0xD4, 0x7C, 0xD4, 0x74}};
static const pct_set PATH_OTHER = {{0, 0x2FFFFFF2u, 0xBFFFFFFFu, 0x57FFFFFEu, 0, 0, 0, 0},
    {0xB8, 0xFC, 0xF8, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x7C, 0xF4, 0x7C, 0xD4, 0x74}};
static const pct_set DOMAIN_ASCII = {{0x00000000u, 0x2BFF7FD6u, 0x87FFFFFEu, 0x6FFFFFFFu, 0, 0, 0, 0},
    {0xE8, 0xFC, 0xFC, 0xF8, 0xFC, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC, 0xF4, 0xDC, 0x54, 0xDC, 0xD4, 0x70}};

/* The length of the run of bytes of `set` at the start of s[0..n) (the
 * kernel's span: faster than a byte loop even on short components). */
static inline size_t span(const uint8_t *s, size_t n, const pct_set *set)
{
    return pct_span_safe(s, n, set);
}

#define END ((unsigned)0x100) /* the Standard's EOF code point */

typedef struct {
    pct_url *u;
    const pct_url *base;
    const uint8_t *s; /* the input, stripped, without tabs and newlines */
    size_t n;
    size_t nseg; /* segments in the path so far */
    int special;
    size_t err_pos;
} parser;

static inline unsigned at(const parser *p, size_t i)
{
    return i < p->n ? p->s[i] : END;
}

static inline int is_alpha(unsigned c)
{
    return (c | 0x20u) >= 'a' && (c | 0x20u) <= 'z';
}

static inline int is_digit(unsigned c)
{
    return c >= '0' && c <= '9';
}

static inline int is_slash(const parser *p, unsigned c)
{
    return c == '/' || (p->special && c == '\\');
}

/* ---- writing to href ------------------------------------------------ */

/* Room for `extra` more bytes. The caller's limit is checked once, on
 * the whole href: a path is longer before its ".." segments are applied,
 * a host before its IPv4 or file "localhost" form (never more than a few
 * times the input and base). */
static pct_status grow(parser *p, size_t extra)
{
    pct_url *u = p->u;
    if (extra > SIZE_MAX / 2 - u->len)
        return PCT_ERR_TOO_LARGE;
    size_t need = u->len + extra;
    if (need <= u->cap)
        return PCT_OK;
    size_t cap = u->cap < 64 ? 64 : u->cap;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    uint8_t *h = realloc(u->href, cap);
    if (!h)
        return PCT_ERR_NO_MEMORY;
    u->href = h;
    u->cap = cap;
    return PCT_OK;
}

static inline pct_status reserve(parser *p, size_t extra)
{
    return extra <= p->u->cap - p->u->len ? PCT_OK : grow(p, extra);
}

static pct_status put(parser *p, const void *src, size_t n)
{
    pct_status rc = reserve(p, n);
    if (rc != PCT_OK)
        return rc;
    if (n)
        memcpy(p->u->href + p->u->len, src, n);
    p->u->len += n;
    return PCT_OK;
}

static pct_status put_byte(parser *p, uint8_t c)
{
    return put(p, &c, 1);
}

/* src[0..n) with every byte not in `keep` percent-encoded. */
static pct_status put_encoded(parser *p, const uint8_t *src, size_t n, const pct_set *keep)
{
    size_t kept = pct_span_safe(src, n, keep);
    if (kept == n)
        return put(p, src, n);
    pct_status rc = reserve(p, n <= SIZE_MAX / 3 ? 3 * n : SIZE_MAX);
    if (rc != PCT_OK)
        return rc;
    p->u->len += pct_encode(src, n, keep, 0, p->u->href + p->u->len);
    return PCT_OK;
}

static pct_status put_decimal(parser *p, uint32_t v)
{
    char d[10];
    size_t k = sizeof d;
    do {
        d[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return put(p, d + k, sizeof d - k);
}

/* ---- schemes ---------------------------------------------------------- */

int32_t pct_url_default_port(int scheme)
{
    switch (scheme) {
    case PCT_URL_HTTP:
    case PCT_URL_WS:
        return 80;
    case PCT_URL_HTTPS:
    case PCT_URL_WSS:
        return 443;
    case PCT_URL_FTP:
        return 21;
    default:
        return -1;
    }
}

/* The kind of the lowercase scheme s[0..n). */
static uint8_t scheme_kind(const uint8_t *s, size_t n)
{
    static const struct {
        const char *name;
        size_t n;
        uint8_t kind;
    } names[] = {{"http", 4, PCT_URL_HTTP}, {"https", 5, PCT_URL_HTTPS}, {"ws", 2, PCT_URL_WS},
                 {"wss", 3, PCT_URL_WSS},   {"ftp", 3, PCT_URL_FTP},     {"file", 4, PCT_URL_FILE}};
    if (n < 2 || n > 5)
        return PCT_URL_OTHER;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].n == n && memcmp(names[i].name, s, n) == 0)
            return names[i].kind;
    return PCT_URL_OTHER;
}

/* ---- hosts ------------------------------------------------------------ */

/* The IPv4 number parser: 1 and the value (saturated past 2^32) in *v, or 0. */
static int ipv4_number(const uint8_t *s, size_t n, uint64_t *v)
{
    if (n == 0)
        return 0;
    unsigned radix = 10;
    if (n >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x') {
        s += 2;
        n -= 2;
        radix = 16;
    } else if (n >= 2 && s[0] == '0') {
        s++;
        n--;
        radix = 8;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        int d = pct_hex_value[s[i]];
        if (d < 0 || (unsigned)d >= radix)
            return 0;
        x = x * radix + (unsigned)d;
        if (x > 0xFFFFFFFFull)
            x = 0x100000000ull; /* saturated: stays past every bound */
    }
    *v = x;
    return 1;
}

/* The Standard's "ends in a number" of the ASCII domain s[0..n). */
static int ends_in_number(const uint8_t *s, size_t n)
{
    if (n && s[n - 1] == '.') {
        if (n == 1)
            return 0;
        n--;
    }
    if (n && pct_hex_value[s[n - 1]] < 0 && (s[n - 1] | 0x20) != 'x')
        return 0; /* most hosts: a last letter no number ends with */
    size_t i = n;
    while (i > 0 && s[i - 1] != '.')
        i--;
    const uint8_t *last = s + i;
    size_t k = n - i;
    if (k == 0)
        return 0;
    size_t d = 0;
    while (d < k && is_digit(last[d]))
        d++;
    if (d == k)
        return 1;
    uint64_t v;
    return ipv4_number(last, k, &v);
}

/* The IPv4 parser: 1 and the address in *addr, or 0. */
static int ipv4_parse(const uint8_t *s, size_t n, uint32_t *addr)
{
    uint64_t nums[4];
    size_t count = 0;
    if (n && s[n - 1] == '.')
        n--; /* a last empty part is dropped (there is another: n > 1 here) */
    size_t i = 0;
    for (;;) {
        size_t j = i;
        while (j < n && s[j] != '.')
            j++;
        if (count == 4 || !ipv4_number(s + i, j - i, &nums[count]))
            return 0;
        count++;
        if (j == n)
            break;
        i = j + 1;
    }
    uint64_t v = 0;
    for (size_t k = 0; k + 1 < count; k++) {
        if (nums[k] > 255)
            return 0;
        v = v * 256 + nums[k];
    }
    uint64_t last = nums[count - 1];
    if (last >= (1ull << (8 * (5 - count))))
        return 0;
    v = (v << (8 * (5 - count))) + last;
    *addr = (uint32_t)v;
    return 1;
}

int pct_url_ipv4_written(const uint8_t *s, size_t n)
{
    /* the parser's own reading, then its writing compared: a dotted quad
     * of decimals up to 255 without a leading zero, nothing else */
    uint32_t v;
    if (n < 7 || n > 15 || !ends_in_number(s, n) || !ipv4_parse(s, n, &v))
        return 0;
    uint8_t w[16];
    size_t len = 0;
    for (int k = 3; k >= 0; k--) {
        unsigned b = (v >> (8 * k)) & 255u;
        if (b >= 100)
            w[len++] = (uint8_t)('0' + b / 100);
        if (b >= 10)
            w[len++] = (uint8_t)('0' + b / 10 % 10);
        w[len++] = (uint8_t)('0' + b % 10);
        if (k)
            w[len++] = '.';
    }
    return len == n && memcmp(w, s, n) == 0;
}

/* The IPv6 parser on s[0..n) (within the brackets). */
static int ipv6_parse(const uint8_t *s, size_t n, uint16_t addr[8])
{
    memset(addr, 0, 8 * sizeof addr[0]);
    size_t piece = 0, i = 0;
    long compress = -1;
#define C(k) ((k) < n ? (unsigned)s[k] : END)
    if (C(i) == ':') {
        if (C(i + 1) != ':')
            return 0;
        i += 2;
        piece++;
        compress = (long)piece;
    }
    while (C(i) != END) {
        if (piece == 8)
            return 0;
        if (C(i) == ':') {
            if (compress >= 0)
                return 0;
            i++;
            piece++;
            compress = (long)piece;
            continue;
        }
        unsigned value = 0, length = 0;
        while (length < 4 && C(i) != END && pct_hex_value[C(i)] >= 0) {
            value = value * 16 + (unsigned)pct_hex_value[C(i)];
            i++;
            length++;
        }
        if (C(i) == '.') {
            if (length == 0)
                return 0;
            i -= length;
            if (piece > 6)
                return 0;
            unsigned seen = 0;
            while (C(i) != END) {
                long v4 = -1;
                if (seen > 0) {
                    if (C(i) == '.' && seen < 4)
                        i++;
                    else
                        return 0;
                }
                if (!is_digit(C(i)))
                    return 0;
                while (is_digit(C(i))) {
                    long d = (long)(C(i) - '0');
                    if (v4 < 0)
                        v4 = d;
                    else if (v4 == 0)
                        return 0;
                    else
                        v4 = v4 * 10 + d;
                    if (v4 > 255)
                        return 0;
                    i++;
                }
                addr[piece] = (uint16_t)(addr[piece] * 0x100 + v4);
                seen++;
                if (seen == 2 || seen == 4)
                    piece++;
            }
            if (seen != 4)
                return 0;
            break;
        } else if (C(i) == ':') {
            i++;
            if (C(i) == END)
                return 0;
        } else if (C(i) != END) {
            return 0;
        }
        addr[piece] = (uint16_t)value;
        piece++;
    }
#undef C
    if (compress >= 0) {
        size_t swaps = piece - (size_t)compress;
        piece = 7;
        while (piece != 0 && swaps > 0) {
            size_t other = (size_t)compress + swaps - 1;
            uint16_t t = addr[piece];
            addr[piece] = addr[other];
            addr[other] = t;
            piece--;
            swaps--;
        }
    } else if (piece != 8) {
        return 0;
    }
    return 1;
}

static pct_status put_ipv6(parser *p, const uint16_t addr[8])
{
    /* the first longest run of two or more zero pieces is compressed */
    size_t best = 8, best_len = 1;
    for (size_t i = 0; i < 8;) {
        size_t j = i;
        while (j < 8 && addr[j] == 0)
            j++;
        if (j - i > best_len) {
            best = i;
            best_len = j - i;
        }
        i = j > i ? j : i + 1;
    }
    char buf[41];
    size_t k = 0;
    buf[k++] = '[';
    for (size_t i = 0; i < 8; i++) {
        if (i == best) {
            buf[k++] = ':';
            if (i == 0)
                buf[k++] = ':';
            i += best_len - 1;
            continue;
        }
        unsigned v = addr[i];
        int started = 0;
        for (int sh = 12; sh >= 0; sh -= 4) {
            unsigned d = (v >> sh) & 15u;
            if (d || started || sh == 0) {
                buf[k++] = "0123456789abcdef"[d];
                started = 1;
            }
        }
        if (i != 7)
            buf[k++] = ':';
    }
    buf[k++] = ']';
    return put(p, buf, k);
}

static pct_status domain_done(parser *p, size_t off, size_t out);

static int forbidden_host(uint8_t c)
{
    switch (c) {
    case 0: case '\t': case '\n': case '\r': case ' ': case '#': case '/': case ':': case '<':
    case '>': case '?': case '@': case '[': case '\\': case ']': case '^': case '|':
        return 1;
    default:
        return 0;
    }
}

static int forbidden_domain(uint8_t c)
{
    return forbidden_host(c) || c <= 0x1F || c == '%' || c == 0x7F;
}

/* The host parser on s[0..n) (`at` its offset in the input), written to
 * href; sets host_start, host_end and host_kind. */
static pct_status host_parse(parser *p, size_t off, const uint8_t *s, size_t n, int opaque)
{
    pct_url *u = p->u;
    pct_status rc;
    u->host_start = u->len;
    if (n && s[0] == '[') {
        uint16_t addr[8];
        if (s[n - 1] != ']' || n < 2 || !ipv6_parse(s + 1, n - 2, addr)) {
            p->err_pos = off;
            return PCT_ERR_URL_IPV6;
        }
        rc = put_ipv6(p, addr);
        u->host_kind = PCT_URL_HOST_IPV6;
        u->host_end = u->len;
        return rc;
    }
    if (opaque) {
        for (size_t i = 0; i < n; i++)
            if (forbidden_host(s[i])) {
                p->err_pos = off + i;
                return PCT_ERR_URL_FORBIDDEN_HOST;
            }
        rc = put_encoded(p, s, n, &KEEP_C0);
        u->host_kind = n ? PCT_URL_HOST_OPAQUE : PCT_URL_HOST_EMPTY;
        u->host_end = u->len;
        return rc;
    }
    /* a domain of ASCII with no forbidden domain code point: domain to
     * ASCII lowercases it (pct_idna.h), here without a call */
    if (n && span(s, n, &DOMAIN_ASCII) == n) {
        if ((rc = reserve(p, n)) != PCT_OK)
            return rc;
        uint8_t *o = u->href + u->len;
        for (size_t i = 0; i < n; i++)
            o[i] = (uint8_t)((unsigned)(s[i] - 'A') < 26u ? s[i] + 32 : s[i]);
        return domain_done(p, off, n);
    }
    /* else percent-decoded, UTF-8 decoded (U+FFFD for what is not UTF-8),
     * then domain to ASCII */
    const uint8_t *d = s;
    size_t dn = n;
    uint8_t *work = NULL;
    if (pct_ascii_span(s, n) != n || memchr(s, '%', n)) {
        if (n > SIZE_MAX / 4)
            return PCT_ERR_TOO_LARGE;
        work = malloc(4 * n + 1);
        if (!work)
            return PCT_ERR_NO_MEMORY;
        dn = pct_decode(s, n, 0, work);
        d = work;
        if (pct_ascii_span(work, dn) != dn) {
            pct_utf8_info info;
            pct_utf8_check(work, dn, &info);
            if (!info.valid) {
                dn = pct_utf8_repair(work, dn, 1, work + n);
                d = work + n;
            }
        }
    }
    /* the ASCII form goes to the end of href (an IPv4 address is written
     * over it) */
    size_t room = dn < 64 ? 64 : dn;
    size_t out = 0;
    pct_status st;
    for (;;) {
        rc = reserve(p, room);
        if (rc != PCT_OK) {
            free(work);
            return rc;
        }
        st = pct_idna_to_ascii(d, dn, u->href + u->len, room, &out);
        if (st != PCT_IDNA_SMALL)
            break;
        if (out <= room) { /* cannot happen: a longer answer each time */
            st = PCT_IDNA_FAIL;
            break;
        }
        room = out;
    }
    if (st != PCT_OK) {
        rc = st == PCT_ERR_NO_MEMORY ? PCT_ERR_NO_MEMORY : PCT_ERR_URL_DOMAIN;
        p->err_pos = off;
        if (rc == PCT_ERR_URL_DOMAIN && !work) /* (ASCII with no escape) */
            rc = pct_url_refused_host(s, n, off, &p->err_pos);
        free(work);
        return rc;
    }
    free(work);
    return domain_done(p, off, out);
}

pct_status pct_url_refused_host(const uint8_t *host, size_t n, size_t at, size_t *error_pos)
{
    *error_pos = at;
    if (pct_ascii_span(host, n) != n)
        return PCT_ERR_URL_DOMAIN; /* (decoded, then domain to ASCII failed) */
    for (size_t i = 0; i < n; i++)
        if (forbidden_domain(host[i])) {
            *error_pos = at + i;
            return PCT_ERR_URL_FORBIDDEN_HOST;
        }
    return PCT_ERR_URL_DOMAIN;
}

/* The ASCII domain at the end of href (out bytes, not counted in len yet):
 * an IPv4 address when it ends in a number, else kept. */
static pct_status domain_done(parser *p, size_t off, size_t out)
{
    pct_url *u = p->u;
    pct_status rc;
    const uint8_t *a = u->href + u->len;
    if (ends_in_number(a, out)) {
        uint32_t v4;
        if (!ipv4_parse(a, out, &v4)) {
            p->err_pos = off;
            return PCT_ERR_URL_IPV4;
        }
        for (int k = 3; k >= 0; k--) {
            rc = put_decimal(p, (v4 >> (8 * k)) & 255u);
            if (rc == PCT_OK && k)
                rc = put_byte(p, '.');
            if (rc != PCT_OK)
                return rc;
        }
        u->host_kind = PCT_URL_HOST_IPV4;
        u->host_end = u->len;
        return PCT_OK;
    }
    u->len += out;
    u->host_kind = PCT_URL_HOST_DOMAIN;
    u->host_end = u->len;
    return PCT_OK;
}

/* ---- the state machine ------------------------------------------------ */

/* A Windows drive letter: an ASCII letter and ':' or '|'. */
static int drive_letter(const uint8_t *s, size_t n)
{
    return n == 2 && is_alpha(s[0]) && (s[1] == ':' || s[1] == '|');
}

/* The input from i starts with a Windows drive letter. */
static int starts_with_drive(const parser *p, size_t i)
{
    if (p->n - i < 2 || !drive_letter(p->s + i, 2))
        return 0;
    unsigned c = at(p, i + 2);
    return c == END || c == '/' || c == '\\' || c == '?' || c == '#';
}

/* The path's first segment is a normalized drive letter ("/C:"). */
static int path_is_drive(const pct_url *u, size_t nseg)
{
    const uint8_t *h = u->href + u->pathname_start;
    return nseg == 1 && u->len - u->pathname_start == 3 && is_alpha(h[1]) && h[2] == ':';
}

static void shorten_path(parser *p)
{
    pct_url *u = p->u;
    if (p->nseg == 0 || (u->scheme == PCT_URL_FILE && path_is_drive(u, p->nseg)))
        return;
    size_t k = u->len;
    while (k > u->pathname_start && u->href[k - 1] != '/')
        k--;
    u->len = k - 1;
    p->nseg--;
}

static void no_authority(pct_url *u)
{
    u->username_start = u->username_end = u->password_start = u->password_end = u->len;
    u->host_start = u->host_end = u->port_start = u->port_end = u->len;
    u->host_kind = PCT_URL_HOST_NULL;
    u->port = -1;
}

/* The base's authority (href has the base's scheme already). */
static pct_status copy_base_authority(parser *p)
{
    const pct_url *b = p->base;
    pct_url *u = p->u;
    if (b->host_kind == PCT_URL_HOST_NULL) {
        no_authority(u);
        return PCT_OK;
    }
    pct_status rc = put(p, b->href + b->protocol_end, b->pathname_start - b->protocol_end);
    u->username_start = b->username_start;
    u->username_end = b->username_end;
    u->password_start = b->password_start;
    u->password_end = b->password_end;
    u->host_start = b->host_start;
    u->host_end = b->host_end;
    u->port_start = b->port_start;
    u->port_end = b->port_end;
    u->port = b->port;
    u->host_kind = b->host_kind;
    return rc;
}

/* The base's path, shortened (its last segment left out) with `shorten`. */
static pct_status copy_base_path(parser *p, int shorten)
{
    const pct_url *b = p->base;
    size_t s = b->pathname_start, e = b->pathname_end;
    p->u->pathname_start = p->u->len;
    p->nseg = 0;
    for (size_t i = s; i < e; i++)
        p->nseg += b->href[i] == '/';
    int drive = p->u->scheme == PCT_URL_FILE && p->nseg == 1 && e - s == 3 &&
                is_alpha(b->href[s + 1]) && b->href[s + 2] == ':';
    if (shorten && p->nseg > 0 && !drive) {
        while (b->href[e - 1] != '/')
            e--;
        e--;
        p->nseg--;
    }
    return put(p, b->href + s, e - s);
}

static pct_status query_state(parser *p, size_t i);
static pct_status fragment_state(parser *p, size_t i);

/* The path is complete: its end, and the "/." that keeps a path starting
 * with an empty segment from reading as an authority when there is none. */
static pct_status end_path(parser *p)
{
    pct_url *u = p->u;
    if (u->host_kind == PCT_URL_HOST_NULL && !u->opaque_path && p->nseg > 1 &&
        u->href[u->pathname_start + 1] == '/') {
        pct_status rc = reserve(p, 2);
        if (rc != PCT_OK)
            return rc;
        size_t ps = u->pathname_start;
        memmove(u->href + ps + 2, u->href + ps, u->len - ps);
        u->href[ps] = '/';
        u->href[ps + 1] = '.';
        u->len += 2;
        u->pathname_start += 2;
    }
    u->pathname_end = u->search_start = u->search_end = u->len;
    return PCT_OK;
}

/* What follows a path ending at i (c is '?', '#' or EOF). */
static pct_status after_path(parser *p, size_t i)
{
    pct_status rc = end_path(p);
    if (rc != PCT_OK)
        return rc;
    unsigned c = at(p, i);
    if (c == '?')
        return query_state(p, i + 1);
    p->u->hash_start = p->u->hash_end = p->u->len;
    if (c == '#')
        return fragment_state(p, i + 1);
    return PCT_OK;
}

static int single_dot(const uint8_t *s, size_t n)
{
    return (n == 1 && s[0] == '.') || (n == 3 && s[0] == '%' && s[1] == '2' && (s[2] | 0x20) == 'e');
}

static int double_dot(const uint8_t *s, size_t n)
{
    if (n == 2)
        return s[0] == '.' && s[1] == '.';
    if (n == 4)
        return (single_dot(s, 1) && single_dot(s + 1, 3)) || (single_dot(s, 3) && single_dot(s + 3, 1));
    return n == 6 && single_dot(s, 3) && single_dot(s + 3, 3);
}

/* The path state from i: segments up to '?', '#' or the end. */
static pct_status path_state(parser *p, size_t i)
{
    pct_url *u = p->u;
    pct_status rc = PCT_OK;
    if (u->scheme != PCT_URL_FILE) {
        /* the rest of the path at once when it needs no escape and has no
         * segment that could be a dot segment (none starts with '.' or '%') */
        const pct_set *whole = p->special ? &PATH_SPECIAL : &PATH_OTHER;
        size_t e = i + pct_span_safe(p->s + i, p->n - i, whole);
        if (e == p->n || p->s[e] == '?' || p->s[e] == '#') {
            const uint8_t *q = p->s + i, *end = p->s + e;
            size_t segs = 1;
            for (;;) {
                if (q < end && (*q == '.' || *q == '%'))
                    break;
                const uint8_t *slash = memchr(q, '/', (size_t)(end - q));
                if (!slash) {
                    q = NULL;
                    break;
                }
                q = slash + 1;
                segs++;
            }
            if (!q) {
                if ((rc = reserve(p, e - i + 1)) != PCT_OK)
                    return rc;
                u->href[u->len++] = '/';
                memcpy(u->href + u->len, p->s + i, e - i);
                u->len += e - i;
                p->nseg += segs;
                return after_path(p, e);
            }
        }
    }
    const pct_set *plain = p->special ? &SEGMENT_SPECIAL : &SEGMENT_OTHER;
    for (;;) {
        size_t e = i + span(p->s + i, p->n - i, plain);
        int escape = 0; /* a byte to percent-encode */
        while (e < p->n && p->s[e] != '/' && p->s[e] != '?' && p->s[e] != '#' &&
               !(p->special && p->s[e] == '\\')) {
            escape = 1;
            e++;
        }
        const uint8_t *seg = p->s + i;
        size_t len = e - i;
        int slash = is_slash(p, at(p, e));
        if (double_dot(seg, len)) {
            shorten_path(p);
            if (!slash) {
                rc = put_byte(p, '/');
                p->nseg++;
            }
        } else if (single_dot(seg, len)) {
            if (!slash) {
                rc = put_byte(p, '/');
                p->nseg++;
            }
        } else if (u->scheme == PCT_URL_FILE && p->nseg == 0 && drive_letter(seg, len)) {
            uint8_t d[3] = {'/', seg[0], ':'};
            rc = put(p, d, 3);
            p->nseg++;
        } else if ((rc = reserve(p, len + 1)) == PCT_OK) {
            u->href[u->len++] = '/';
            if (escape) {
                rc = put_encoded(p, seg, len, &KEEP_PATH);
            } else {
                memcpy(u->href + u->len, seg, len);
                u->len += len;
            }
            p->nseg++;
        }
        if (rc != PCT_OK)
            return rc;
        if (!slash)
            return after_path(p, e);
        i = e + 1;
    }
}

/* The path start state at i (after an authority). */
static pct_status path_start_state(parser *p, size_t i)
{
    pct_url *u = p->u;
    u->pathname_start = u->len;
    p->nseg = 0;
    unsigned c = at(p, i);
    if (p->special)
        return path_state(p, is_slash(p, c) ? i + 1 : i);
    if (c == '?' || c == '#' || c == END)
        return after_path(p, i);
    return path_state(p, c == '/' ? i + 1 : i);
}

static pct_status opaque_path_state(parser *p, size_t i)
{
    pct_url *u = p->u;
    u->opaque_path = 1;
    u->pathname_start = u->len;
    size_t e = i;
    while (e < p->n && p->s[e] != '?' && p->s[e] != '#')
        e++;
    pct_status rc;
    /* a space just before '?' or '#' is escaped, so that it survives the
     * trailing-space strip of the href read again */
    if (e < p->n && e > i && p->s[e - 1] == ' ') {
        rc = put_encoded(p, p->s + i, e - i - 1, &KEEP_C0);
        if (rc == PCT_OK)
            rc = put(p, "%20", 3);
    } else {
        rc = put_encoded(p, p->s + i, e - i, &KEEP_C0);
    }
    if (rc != PCT_OK)
        return rc;
    return after_path(p, e);
}

static pct_status query_state(parser *p, size_t i)
{
    pct_url *u = p->u;
    u->search_start = u->len;
    size_t e = i;
    while (e < p->n && p->s[e] != '#')
        e++;
    pct_status rc = put_byte(p, '?');
    if (rc == PCT_OK)
        rc = put_encoded(p, p->s + i, e - i, p->special ? &KEEP_SPECIAL_QUERY : &KEEP_QUERY);
    if (rc != PCT_OK)
        return rc;
    u->search_end = u->hash_start = u->hash_end = u->len;
    if (e < p->n)
        return fragment_state(p, e + 1);
    return PCT_OK;
}

static pct_status fragment_state(parser *p, size_t i)
{
    pct_url *u = p->u;
    u->hash_start = u->len;
    pct_status rc = put_byte(p, '#');
    if (rc == PCT_OK)
        rc = put_encoded(p, p->s + i, p->n - i, &KEEP_FRAGMENT);
    u->hash_end = u->len;
    return rc;
}

/* The authority state from i (the slashes before it are consumed). */
static pct_status authority_state(parser *p, size_t i)
{
    pct_url *u = p->u;
    pct_status rc = put(p, "//", 2);
    if (rc != PCT_OK)
        return rc;
    const pct_set *plain = p->special ? &AUTHORITY_SPECIAL : &AUTHORITY_OTHER;
    size_t e = i;
    for (;;) {
        e += span(p->s + e, p->n - e, plain);
        if (e == p->n || p->s[e] == '/' || p->s[e] == '?' || p->s[e] == '#' ||
            (p->special && p->s[e] == '\\'))
            break;
        e++;
    }
    size_t hs = i;
    if (memchr(p->s + i, '@', e - i)) /* rare: credentials, up to the last '@' */
        for (size_t k = e; k > i; k--)
            if (p->s[k - 1] == '@') {
                hs = k;
                break;
            }
    u->username_start = u->len;
    if (hs > i) {
        size_t at_sign = hs - 1, colon = i;
        while (colon < at_sign && p->s[colon] != ':')
            colon++;
        rc = put_encoded(p, p->s + i, colon - i, &KEEP_USERINFO);
        u->username_end = u->password_start = u->password_end = u->len;
        if (rc == PCT_OK && colon + 1 < at_sign) {
            rc = put_byte(p, ':');
            u->password_start = u->len;
            if (rc == PCT_OK)
                rc = put_encoded(p, p->s + colon + 1, at_sign - colon - 1, &KEEP_USERINFO);
            u->password_end = u->len;
        }
        if (rc == PCT_OK && u->len > u->username_start)
            rc = put_byte(p, '@');
        if (rc != PCT_OK)
            return rc;
        if (hs == e) {
            p->err_pos = e;
            return PCT_ERR_URL_HOST_MISSING;
        }
    } else {
        u->username_end = u->password_start = u->password_end = u->len;
    }
    /* the host state: up to a ':' outside brackets */
    const uint8_t *c1 = memchr(p->s + hs, ':', e - hs);
    size_t colon = c1 ? (size_t)(c1 - p->s) : e;
    if (c1 && memchr(p->s + hs, '[', colon - hs)) { /* a ':' in brackets is the host's */
        int brackets = 0;
        colon = hs;
        while (colon < e && (p->s[colon] != ':' || brackets)) {
            if (p->s[colon] == '[')
                brackets = 1;
            else if (p->s[colon] == ']')
                brackets = 0;
            colon++;
        }
    }
    if (colon == hs && (colon < e || p->special)) {
        p->err_pos = hs;
        return PCT_ERR_URL_HOST_MISSING;
    }
    rc = host_parse(p, hs, p->s + hs, colon - hs, !p->special);
    if (rc != PCT_OK)
        return rc;
    u->port = -1;
    u->port_start = u->port_end = u->len;
    if (colon < e) {
        uint32_t v = 0;
        for (size_t k = colon + 1; k < e; k++) {
            if (!is_digit(p->s[k])) {
                p->err_pos = k;
                return PCT_ERR_URL_PORT;
            }
            v = v * 10 + (uint32_t)(p->s[k] - '0');
            if (v > 65535) {
                p->err_pos = colon + 1;
                return PCT_ERR_URL_PORT_RANGE;
            }
        }
        if (e > colon + 1 && (int32_t)v != pct_url_default_port(u->scheme)) {
            rc = put_byte(p, ':');
            u->port_start = u->len;
            if (rc == PCT_OK)
                rc = put_decimal(p, v);
            if (rc != PCT_OK)
                return rc;
            u->port_end = u->len;
            u->port = (int32_t)v;
        }
    }
    return path_start_state(p, e);
}

static size_t skip_slashes(const parser *p, size_t i)
{
    while (i < p->n && (p->s[i] == '/' || p->s[i] == '\\'))
        i++;
    return i;
}

/* The relative state at i: href has the base's scheme. */
static pct_status relative_state(parser *p, size_t i)
{
    pct_url *u = p->u;
    const pct_url *b = p->base;
    unsigned c = at(p, i);
    pct_status rc;
    if (is_slash(p, c)) {
        unsigned c2 = at(p, i + 1);
        if (p->special && (c2 == '/' || c2 == '\\'))
            return authority_state(p, skip_slashes(p, i + 2));
        if (c2 == '/')
            return authority_state(p, i + 2);
        rc = copy_base_authority(p);
        if (rc != PCT_OK)
            return rc;
        u->pathname_start = u->len;
        p->nseg = 0;
        return path_state(p, i + 1);
    }
    rc = copy_base_authority(p);
    if (rc == PCT_OK)
        rc = copy_base_path(p, c != END && c != '#' && c != '?');
    if (rc != PCT_OK)
        return rc;
    if (c == END || c == '#') {
        /* the base's query too */
        rc = end_path(p);
        if (rc == PCT_OK)
            rc = put(p, b->href + b->search_start, b->search_end - b->search_start);
        if (rc != PCT_OK)
            return rc;
        u->search_start = u->pathname_end;
        u->search_end = u->hash_start = u->hash_end = u->len;
        return c == '#' ? fragment_state(p, i + 1) : PCT_OK;
    }
    if (c == '?')
        return after_path(p, i);
    return path_state(p, i);
}

static pct_status file_host_state(parser *p, size_t i)
{
    pct_url *u = p->u;
    size_t e = i;
    while (e < p->n && p->s[e] != '/' && p->s[e] != '\\' && p->s[e] != '?' && p->s[e] != '#')
        e++;
    pct_status rc = put(p, "//", 2);
    if (rc != PCT_OK)
        return rc;
    no_authority(u);
    if (drive_letter(p->s + i, e - i)) {
        u->host_kind = PCT_URL_HOST_EMPTY;
        u->pathname_start = u->len;
        p->nseg = 0;
        return path_state(p, i);
    }
    if (e == i) {
        u->host_kind = PCT_URL_HOST_EMPTY;
        return path_start_state(p, e);
    }
    rc = host_parse(p, i, p->s + i, e - i, 0);
    if (rc != PCT_OK)
        return rc;
    if (u->host_end - u->host_start == 9 && memcmp(u->href + u->host_start, "localhost", 9) == 0) {
        u->len = u->host_end = u->host_start;
        u->host_kind = PCT_URL_HOST_EMPTY;
    }
    u->port_start = u->port_end = u->len;
    return path_start_state(p, e);
}

/* The file state at i: href has "file:". */
static pct_status file_state(parser *p, size_t i)
{
    pct_url *u = p->u;
    const pct_url *b = p->base && p->base->scheme == PCT_URL_FILE ? p->base : NULL;
    unsigned c = at(p, i);
    pct_status rc;
    if (c == '/' || c == '\\') {
        c = at(p, i + 1);
        if (c == '/' || c == '\\')
            return file_host_state(p, i + 2);
        if (b) {
            rc = copy_base_authority(p);
            if (rc != PCT_OK)
                return rc;
            u->pathname_start = u->len;
            p->nseg = 0;
            if (!starts_with_drive(p, i + 1) && b->pathname_end - b->pathname_start >= 3) {
                const uint8_t *h = b->href + b->pathname_start;
                if (is_alpha(h[1]) && h[2] == ':' &&
                    (b->pathname_end - b->pathname_start == 3 || h[3] == '/')) {
                    rc = put(p, h, 3);
                    p->nseg = 1;
                }
            }
        } else {
            rc = put(p, "//", 2);
            no_authority(u);
            u->host_kind = PCT_URL_HOST_EMPTY;
            u->pathname_start = u->len;
            p->nseg = 0;
        }
        if (rc != PCT_OK)
            return rc;
        return path_state(p, i + 1);
    }
    if (b) {
        int keep_all = c == END || c == '#' || c == '?';
        rc = copy_base_authority(p);
        if (rc == PCT_OK && (keep_all || !starts_with_drive(p, i)))
            rc = copy_base_path(p, !keep_all);
        else if (rc == PCT_OK) { /* a drive letter: the path starts again */
            u->pathname_start = u->len;
            p->nseg = 0;
        }
        if (rc != PCT_OK)
            return rc;
        if (c == END || c == '#') {
            rc = end_path(p);
            if (rc == PCT_OK)
                rc = put(p, b->href + b->search_start, b->search_end - b->search_start);
            if (rc != PCT_OK)
                return rc;
            u->search_start = u->pathname_end;
            u->search_end = u->hash_start = u->hash_end = u->len;
            return c == '#' ? fragment_state(p, i + 1) : PCT_OK;
        }
        if (c == '?')
            return after_path(p, i);
        return path_state(p, i);
    }
    rc = put(p, "//", 2);
    if (rc != PCT_OK)
        return rc;
    no_authority(u);
    u->host_kind = PCT_URL_HOST_EMPTY;
    u->pathname_start = u->len;
    p->nseg = 0;
    return path_state(p, i);
}

/* The URL from the scheme on (the input is stripped). */
static pct_status parse_stripped(parser *p)
{
    pct_url *u = p->u;
    const pct_url *b = p->base;
    pct_status rc;
    size_t i = 0;
    if (p->n && is_alpha(p->s[0])) {
        i = 1;
        while (i < p->n && (is_alpha(p->s[i]) || is_digit(p->s[i]) || p->s[i] == '+' ||
                            p->s[i] == '-' || p->s[i] == '.'))
            i++;
        if (i == p->n || p->s[i] != ':')
            i = 0;
    }
    if (i) {
        rc = reserve(p, i + 1);
        if (rc != PCT_OK)
            return rc;
        for (size_t k = 0; k < i; k++)
            u->href[k] = (uint8_t)(p->s[k] | (is_alpha(p->s[k]) ? 0x20 : 0));
        u->href[i] = ':';
        u->len = u->protocol_end = i + 1;
        u->scheme = scheme_kind(u->href, i);
        p->special = u->scheme != PCT_URL_OTHER;
        i++;
        no_authority(u);
        if (u->scheme == PCT_URL_FILE)
            return file_state(p, i);
        if (p->special) {
            if (b && b->scheme == u->scheme)
                return relative_state(p, i);
            return authority_state(p, skip_slashes(p, i));
        }
        if (at(p, i) == '/') {
            if (at(p, i + 1) == '/')
                return authority_state(p, i + 2);
            u->pathname_start = u->len;
            p->nseg = 0;
            return path_state(p, i + 1);
        }
        return opaque_path_state(p, i);
    }
    if (!b || (b->opaque_path && at(p, 0) != '#')) {
        p->err_pos = 0;
        return b ? PCT_ERR_URL_OPAQUE_BASE : PCT_ERR_URL_NO_SCHEME;
    }
    rc = put(p, b->href, b->protocol_end);
    if (rc != PCT_OK)
        return rc;
    u->protocol_end = b->protocol_end;
    u->scheme = b->scheme;
    p->special = u->scheme != PCT_URL_OTHER;
    no_authority(u);
    if (b->opaque_path) {
        /* "#...": the base up to its fragment */
        rc = put(p, b->href + b->protocol_end, b->search_end - b->protocol_end);
        if (rc != PCT_OK)
            return rc;
        u->opaque_path = 1;
        u->pathname_start = b->pathname_start;
        u->pathname_end = b->pathname_end;
        u->search_start = b->search_start;
        u->search_end = u->len;
        return fragment_state(p, 1);
    }
    if (u->scheme == PCT_URL_FILE)
        return file_state(p, 0);
    return relative_state(p, 0);
}

void pct_url_init(pct_url *u)
{
    memset(u, 0, sizeof *u);
    u->port = -1;
}

void pct_url_free(pct_url *u)
{
    free(u->href);
    free(u->scratch);
    pct_url_init(u);
}

static int tab_or_newline(uint8_t c)
{
    return c == '\t' || c == '\n' || c == '\r';
}

pct_status pct_url_parse(pct_url *u, const uint8_t *src, size_t n, const pct_url *base,
                         size_t limit)
{
    size_t lead = 0, end = n;
    while (lead < end && src[lead] <= 0x20)
        lead++;
    while (end > lead && src[end - 1] <= 0x20)
        end--;
    parser p;
    memset(&p, 0, sizeof p);
    p.u = u;
    p.base = base;
    p.s = src + lead;
    p.n = end - lead;
    size_t removed = 0;
    for (size_t i = pct_span_safe(p.s, p.n, &KEEP_C0); i < p.n; i++)
        removed += (size_t)tab_or_newline(p.s[i]);
    if (removed) {
        if (u->scratch_cap < p.n) {
            uint8_t *s = realloc(u->scratch, p.n);
            if (!s)
                return PCT_ERR_NO_MEMORY;
            u->scratch = s;
            u->scratch_cap = p.n;
        }
        size_t k = 0;
        for (size_t i = 0; i < p.n; i++)
            if (!tab_or_newline(p.s[i]))
                u->scratch[k++] = p.s[i];
        p.s = u->scratch;
        p.n = k;
    }
    u->len = 0;
    u->protocol_end = 0;
    u->scheme = PCT_URL_OTHER;
    u->opaque_path = 0;
    no_authority(u);
    u->pathname_start = u->pathname_end = 0;
    u->search_start = u->search_end = u->hash_start = u->hash_end = 0;
    pct_status rc = parse_stripped(&p);
    if (rc == PCT_OK && u->len > limit)
        rc = PCT_ERR_TOO_LARGE;
    if (rc != PCT_OK) {
        /* the position in the caller's input */
        size_t pos = p.err_pos, i = lead;
        if (removed) {
            for (size_t k = 0; i < end; i++) {
                if (tab_or_newline(src[i]))
                    continue;
                if (k++ == pos)
                    break;
            }
        } else {
            i = lead + pos;
        }
        u->error_pos = i;
        u->len = 0;
        return rc;
    }
    if (u->hash_start < u->search_end) /* no fragment was written */
        u->hash_start = u->hash_end = u->len;
    return PCT_OK;
}

void pct_url_component(const pct_url *u, pct_url_part part, const uint8_t **p, size_t *n)
{
    size_t s = 0, e = u->len;
    switch (part) {
    case PCT_URL_HREF:
        break;
    case PCT_URL_ORIGIN:
    case PCT_URL_RECORD:
        e = 0;
        break;
    case PCT_URL_PROTOCOL:
        e = u->protocol_end;
        break;
    case PCT_URL_USERNAME:
        s = u->username_start;
        e = u->username_end;
        break;
    case PCT_URL_PASSWORD:
        s = u->password_start;
        e = u->password_end;
        break;
    case PCT_URL_HOST:
        s = u->host_start;
        e = u->port_end;
        break;
    case PCT_URL_HOSTNAME:
        s = u->host_start;
        e = u->host_end;
        break;
    case PCT_URL_PORT:
        s = u->port_start;
        e = u->port_end;
        break;
    case PCT_URL_PATHNAME:
        s = u->pathname_start;
        e = u->pathname_end;
        break;
    case PCT_URL_SEARCH:
        s = u->search_start;
        e = u->search_end;
        if (e - s < 2)
            e = s;
        break;
    case PCT_URL_HASH:
        s = u->hash_start;
        e = u->hash_end;
        if (e - s < 2)
            e = s;
        break;
    }
    *p = u->href + s;
    *n = e - s;
}

pct_status pct_url_origin(const pct_url *u, pct_url *work, const uint8_t **p, size_t *n)
{
    static const uint8_t null_origin[] = "null";
    const pct_url *o = u;
    *p = null_origin;
    *n = 4;
    if (u->scheme == PCT_URL_OTHER && u->protocol_end == 5 && memcmp(u->href, "blob:", 5) == 0) {
        pct_status rc = pct_url_parse(work, u->href + u->pathname_start,
                                      u->pathname_end - u->pathname_start, NULL, SIZE_MAX);
        if (rc == PCT_ERR_NO_MEMORY)
            return rc;
        if (rc != PCT_OK || (work->scheme != PCT_URL_HTTP && work->scheme != PCT_URL_HTTPS))
            return PCT_OK;
        o = work;
    }
    if (o->scheme == PCT_URL_OTHER || o->scheme == PCT_URL_FILE)
        return PCT_OK;
    size_t hn = o->port_end - o->host_start, need = o->protocol_end + 2 + hn;
    if (work->scratch_cap < need) {
        uint8_t *s = realloc(work->scratch, need);
        if (!s)
            return PCT_ERR_NO_MEMORY;
        work->scratch = s;
        work->scratch_cap = need;
    }
    memcpy(work->scratch, o->href, o->protocol_end);
    memcpy(work->scratch + o->protocol_end, "//", 2);
    memcpy(work->scratch + o->protocol_end + 2, o->href + o->host_start, hn);
    *p = work->scratch;
    *n = need;
    return PCT_OK;
}

const char *pct_url_reason(pct_status status)
{
    /* (an if chain: pct_status has codes of every area) */
    if (status == PCT_ERR_URL_NO_SCHEME)
        return "no scheme, and no base URL to resolve it against";
    if (status == PCT_ERR_URL_OPAQUE_BASE)
        return "no scheme, and the base URL has an opaque path (only a fragment resolves against it)";
    if (status == PCT_ERR_URL_HOST_MISSING)
        return "the host is missing";
    if (status == PCT_ERR_URL_PORT)
        return "the port is not a number";
    if (status == PCT_ERR_URL_PORT_RANGE)
        return "the port is past 65535";
    if (status == PCT_ERR_URL_IPV6)
        return "not an IPv6 address";
    if (status == PCT_ERR_URL_IPV4)
        return "the host ends in a number but is no IPv4 address";
    if (status == PCT_ERR_URL_FORBIDDEN_HOST)
        return "a character no host may hold";
    if (status == PCT_ERR_URL_DOMAIN)
        return "the host is no valid domain";
    if (status == PCT_URL_FAILURE)
        return "not a URL";
    return "";
}
