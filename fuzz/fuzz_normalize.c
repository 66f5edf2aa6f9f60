/* Splitting and normalizing (pct_uri.h): pct_uri_split, pct_uri_size_bound,
 * pct_uri_write with fuzzed flags and an optional replacement host, and
 * pct_remove_dot_segments. Checks: the split parts put together with their
 * delimiters give the input; the bound honours its limit and holds the
 * output; the output passes pct_uri_check, follows its flags, and writing
 * it again with the same flags gives the same bytes (idempotence);
 * remove_dot_segments matches the RFC 3986 5.2.4 algorithm step by step;
 * pct_host_needs_idna picks the hosts with non-ASCII bytes or escapes of
 * them, and an ASCII replacement host leaves none for a second pass.
 * normalize_many's row path (pct_uri_split_row, pct_uri_row_needs_idna,
 * pct_uri_write_row: masks of a vector pass) gives the same split, answer
 * and bytes under every kernel this CPU runs.
 *
 * Input: flags byte, host length byte (0xFF: no replacement host), 2 limit
 * bytes, host bytes, body. */
#include "fuzz_common.h"
#include "pct_uri.h"

static void check_range(pct_range r, size_t *at, size_t n)
{
    FUZZ_ASSERT(r.start >= *at && r.start <= n && r.len <= n - r.start);
    *at = r.start + r.len;
}

/* The parts and their delimiters, in order, are the whole input. */
static void check_split(const uint8_t *s, size_t n, const pct_uri *u)
{
    uint8_t *joined = alloc_exact(n);
    size_t o = 0, at = 0;
#define PUT(r)                                          \
    do {                                                \
        check_range((r), &at, n);                       \
        FUZZ_ASSERT((r).len <= n - o);                  \
        memcpy(joined + o, s + (r).start, (r).len);     \
        o += (r).len;                                   \
    } while (0)
#define PUT_CHAR(c)                 \
    do {                            \
        FUZZ_ASSERT(o < n);         \
        joined[o++] = (uint8_t)(c); \
    } while (0)
    if (u->has_scheme) {
        PUT(u->scheme);
        PUT_CHAR(':');
    }
    if (u->has_authority) {
        PUT_CHAR('/');
        PUT_CHAR('/');
        if (u->has_userinfo) {
            PUT(u->userinfo);
            PUT_CHAR('@');
        }
        PUT(u->host);
        if (u->has_port) {
            PUT_CHAR(':');
            PUT(u->port);
        }
    }
    PUT(u->path);
    if (u->has_query) {
        PUT_CHAR('?');
        PUT(u->query);
    }
    if (u->has_fragment) {
        PUT_CHAR('#');
        PUT(u->fragment);
    }
#undef PUT
#undef PUT_CHAR
    FUZZ_ASSERT(o == n && memcmp(joined, s, n) == 0);
    free(joined);
}

/* RFC 3986 5.2.4 as written: an input buffer consumed from the front and
 * an output buffer. */
static size_t ref_remove_dots(const uint8_t *path, size_t n, uint8_t *out)
{
    uint8_t *in = dup_exact(path, n);
    size_t r = 0, w = 0;
#define STARTS(lit) (n - r >= sizeof(lit) - 1 && memcmp(in + r, lit, sizeof(lit) - 1) == 0)
#define IS(lit) (n - r == sizeof(lit) - 1 && memcmp(in + r, lit, sizeof(lit) - 1) == 0)
    while (r < n) {
        if (STARTS("../")) {
            r += 3;
        } else if (STARTS("./")) {
            r += 2;
        } else if (STARTS("/./")) {
            r += 2; /* "/./" -> "/" */
        } else if (IS("/.")) {
            r += 1;
            in[r] = '/';
        } else if (STARTS("/../") || IS("/..")) {
            r += IS("/..") ? 2 : 3;
            in[r] = '/';
            while (w > 0 && out[w - 1] != '/')
                w--;
            if (w > 0)
                w--;
        } else if (IS(".") || IS("..")) {
            r = n;
        } else {
            size_t e = r + (in[r] == '/');
            while (e < n && in[e] != '/')
                e++;
            memcpy(out + w, in + r, e - r);
            w += e - r;
            r = e;
        }
    }
#undef STARTS
#undef IS
    free(in);
    return w;
}

static void check_dots(const uint8_t *s, size_t n)
{
    uint8_t *want = alloc_exact(n), *got = dup_exact(s, n);
    size_t want_len = ref_remove_dots(s, n, want);
    size_t len = pct_remove_dot_segments(got, n);
    FUZZ_ASSERT(len == want_len && memcmp(got, want, len) == 0);
    free(want);
    free(got);
}

static int name_before(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    size_t m = an < bn ? an : bn;
    int c = memcmp(a, b, m);
    return c < 0 || (c == 0 && an < bn);
}

/* Parameter names of the query in non-decreasing order. */
static void check_sorted(const uint8_t *q, size_t n)
{
    const uint8_t *prev = NULL;
    size_t prev_len = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || q[i] == '&') {
            size_t name = start;
            while (name < i && q[name] != '=')
                name++;
            if (prev)
                FUZZ_ASSERT(!name_before(q + start, name - start, prev, prev_len));
            prev = q + start;
            prev_len = name - start;
            start = i + 1;
        }
    }
}

static int is_hex(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A reg-name holding a byte >= 0x80 or, with escapes, a %XX of one. */
static void check_needs_idna(const uint8_t *h, size_t n)
{
    for (int escapes = 0; escapes < 2; escapes++) {
        int want = 0;
        for (size_t i = 0; i < n && !(h[0] == '['); i++)
            if (h[i] >= 0x80 || (escapes && h[i] == '%' && n - i >= 3 && is_hex(h[i + 1]) &&
                                 is_hex(h[i + 2]) && !(h[i + 1] >= '0' && h[i + 1] <= '7')))
                want = 1;
        FUZZ_ASSERT(pct_host_needs_idna(h, n, escapes) == want);
    }
}

/* Writes src with flags into an exact buffer of the bound; returns it. */
static uint8_t *normalize(const uint8_t *s, size_t n, const uint8_t *host, size_t host_len,
                          unsigned flags, size_t *len)
{
    pct_uri u;
    pct_uri_split(s, n, &u);
    size_t bound = 0;
    FUZZ_ASSERT(pct_uri_size_bound(n, host_len, SIZE_MAX, &bound) == PCT_OK);
    uint8_t *out = alloc_exact(bound);
    FUZZ_ASSERT(pct_uri_write(s, &u, host, host_len, flags, out, len) == PCT_OK);
    FUZZ_ASSERT(*len <= bound);
    return out;
}

static int same_range(pct_range a, pct_range b)
{
    return a.start == b.start && a.len == b.len;
}

static int same_split(const pct_uri *a, const pct_uri *b)
{
    return same_range(a->scheme, b->scheme) && same_range(a->userinfo, b->userinfo)
           && same_range(a->host, b->host) && same_range(a->port, b->port)
           && same_range(a->path, b->path) && same_range(a->query, b->query)
           && same_range(a->fragment, b->fragment) && a->has_scheme == b->has_scheme
           && a->has_authority == b->has_authority && a->has_userinfo == b->has_userinfo
           && a->has_port == b->has_port && a->has_query == b->has_query
           && a->has_fragment == b->has_fragment && a->host_escaped == b->host_escaped;
}

/* The row path and the kernel's one pass equal pct_uri_split and
 * pct_uri_write (`want`, len bytes) under each kernel (those with the
 * vector pass and those without). */
static void check_row(const uint8_t *s, size_t n, const pct_uri *u, const uint8_t *host,
                      size_t host_len, unsigned flags, const uint8_t *want, size_t len)
{
    fuzz_list_kernels();
    size_t bound = 0;
    FUZZ_ASSERT(pct_uri_size_bound(n, host_len, SIZE_MAX, &bound) == PCT_OK);
    for (size_t k = 0; k < fuzz_nkernels; k++) {
        fuzz_use_kernel(k);
        pct_uri_row row;
        pct_uri_split_row(s, n, &row);
        FUZZ_ASSERT(same_split(&row.uri, u));
        if (u->has_authority)
            for (int escapes = 0; escapes < 2; escapes++)
                FUZZ_ASSERT(pct_uri_row_needs_idna(s, &row, escapes)
                            == pct_host_needs_idna(s + u->host.start, u->host.len, escapes));
        uint8_t *out = alloc_exact(bound + PCT_URI_WRITE_ROOM);
        size_t got;
        FUZZ_ASSERT(pct_uri_write_row(s, &row, host, host_len, flags, out, &got) == PCT_OK);
        FUZZ_ASSERT(got == len && memcmp(out, want, len) == 0);
        /* the kernel's one pass, where it has one: the same bytes for the
         * rows it takes, the row's host where it asks for a form */
        pct_uri_fast fast = {host, host_len, NULL, NULL, {0, 0}, 0, 0, 0};
        int r = pct_uri_normalize_fast(s, n, flags, out, &got, &fast);
        if (r == PCT_URI_FAST_DONE)
            FUZZ_ASSERT(got == len && memcmp(out, want, len) == 0);
        if (r == PCT_URI_FAST_HOST)
            FUZZ_ASSERT(!host && u->has_authority && same_range(fast.idna_host, u->host)
                        && pct_host_needs_idna(s + u->host.start, u->host.len, 0));
        free(out);
    }
    fuzz_use_kernel(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    unsigned flags = take_byte(&in);
    uint8_t host_byte = take_byte(&in);
    size_t limit = (size_t)take_byte(&in) << 8 | take_byte(&in);
    uint8_t *host = NULL;
    size_t host_len = 0;
    if (host_byte != 0xFF) {
        host_len = host_byte % 32 < in.size ? host_byte % 32 : in.size;
        host = dup_exact(in.data, host_len);
        /* a host name as a caller's IDNA gives it: no delimiter of a URI */
        for (size_t i = 0; i < host_len; i++)
            if (strchr(":/?#@[]", host[i]) && host[i])
                host[i] = '-';
        in.data += host_len;
        in.size -= host_len;
    }
    uint8_t *src = dup_exact(in.data, in.size);
    size_t n = in.size;

    /* the bound: 3 bytes per input byte and 3 more, within the limit */
    size_t bound = 0;
    pct_status st = pct_uri_size_bound(n, host_len, limit, &bound);
    if (3 * (n + host_len) + 3 <= limit)
        FUZZ_ASSERT(st == PCT_OK && bound == 3 * (n + host_len) + 3);
    else
        FUZZ_ASSERT(st == PCT_ERR_TOO_LARGE);
    FUZZ_ASSERT(pct_uri_size_bound(SIZE_MAX / 3, 0, SIZE_MAX, &bound) == PCT_ERR_TOO_LARGE);

    pct_uri u;
    pct_uri_split(src, n, &u);
    check_split(src, n, &u);
    check_needs_idna(src + u.host.start, u.host.len);

    size_t len, pos;
    uint8_t *out = normalize(src, n, host, host_len, flags, &len);
    FUZZ_ASSERT(pct_uri_check(out, len, &pos) == PCT_URI_VALID);
    check_row(src, n, &u, host, host_len, flags, out, len);

    pct_uri v;
    pct_uri_split(out, len, &v);
    if (flags & PCT_URI_LOWER_CASE)
        for (size_t i = 0; i < v.scheme.len; i++)
            FUZZ_ASSERT(!(out[v.scheme.start + i] >= 'A' && out[v.scheme.start + i] <= 'Z'));
    if (flags & PCT_URI_DROP_FRAGMENT)
        FUZZ_ASSERT(!v.has_fragment);
    if ((flags & PCT_URI_SORT_QUERY) && v.has_query)
        check_sorted(out + v.query.start, v.query.len);
    FUZZ_ASSERT(v.has_scheme == u.has_scheme && v.has_authority == u.has_authority);
    FUZZ_ASSERT(v.has_query == u.has_query);
    check_needs_idna(out + v.host.start, v.host.len);
    if (host && u.has_authority && (flags & PCT_URI_DECODE_UNRESERVED) &&
        pct_host_needs_idna(host, host_len, 1) == 0 && !memchr(host, '%', host_len)) {
        /* an ASCII host in: a second normalize never calls IDNA again */
        FUZZ_ASSERT(!pct_host_needs_idna(out + v.host.start, v.host.len, 1));
    }

    /* idempotence: the output is already in the form the flags ask for */
    size_t len2;
    uint8_t *out2 = normalize(out, len, NULL, 0, flags, &len2);
    FUZZ_ASSERT(len2 == len && memcmp(out2, out, len) == 0);
    free(out2);
    free(out);

    check_dots(src, n);
    free(src);
    free(host);
    return 0;
}
