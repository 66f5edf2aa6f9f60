/* The URL Standard's parser (pct_url.h) on any bytes, alone or against a
 * base. Checks: no crash, leak or overflow; a parse either fails with a
 * URL status (and an error position within the input) or gives an href of
 * printable ASCII (not ending in a space) whose component offsets are in order within it; the href
 * parsed again (no base) is itself with the same components and origin;
 * a limit one byte short of the href answers PCT_ERR_TOO_LARGE; a pct_url
 * reused after a long parse gives the same as a fresh one.
 *
 * Input: one byte of flags (bit 0: the rest is "base NUL input"), then the
 * text. */
#include "fuzz_common.h"
#include "pct_url.h"

static const pct_url_part PARTS[] = {PCT_URL_HREF,     PCT_URL_PROTOCOL, PCT_URL_USERNAME,
                                     PCT_URL_PASSWORD, PCT_URL_HOST,     PCT_URL_HOSTNAME,
                                     PCT_URL_PORT,     PCT_URL_PATHNAME, PCT_URL_SEARCH,
                                     PCT_URL_HASH};

static void check_shape(const pct_url *u)
{
    for (size_t i = 0; i < u->len; i++)
        FUZZ_ASSERT(u->href[i] >= 0x20 && u->href[i] < 0x7F); /* spaces: in an opaque path */
    FUZZ_ASSERT(u->len && u->href[u->len - 1] != ' ');
    FUZZ_ASSERT(u->protocol_end >= 2 && u->href[u->protocol_end - 1] == ':');
    FUZZ_ASSERT(u->protocol_end <= u->username_start && u->username_start <= u->username_end);
    FUZZ_ASSERT(u->username_end <= u->password_start && u->password_start <= u->password_end);
    FUZZ_ASSERT(u->password_end <= u->host_start && u->host_start <= u->host_end);
    FUZZ_ASSERT(u->host_end <= u->port_start && u->port_start <= u->port_end);
    FUZZ_ASSERT(u->port_end <= u->pathname_start && u->pathname_start <= u->pathname_end);
    FUZZ_ASSERT(u->pathname_end == u->search_start && u->search_start <= u->search_end);
    FUZZ_ASSERT(u->search_end == u->hash_start && u->hash_start <= u->hash_end);
    FUZZ_ASSERT(u->hash_end == u->len);
    FUZZ_ASSERT(u->search_end == u->search_start || u->href[u->search_start] == '?');
    FUZZ_ASSERT(u->hash_end == u->hash_start || u->href[u->hash_start] == '#');
    FUZZ_ASSERT((u->port < 0) == (u->port_start == u->port_end));
    FUZZ_ASSERT((u->host_kind == PCT_URL_HOST_NULL) == (u->username_start == u->protocol_end));
}

static void same(const pct_url *a, const pct_url *b)
{
    for (size_t i = 0; i < sizeof PARTS / sizeof PARTS[0]; i++) {
        const uint8_t *p, *q;
        size_t n, m;
        pct_url_component(a, PARTS[i], &p, &n);
        pct_url_component(b, PARTS[i], &q, &m);
        FUZZ_ASSERT(n == m && (n == 0 || memcmp(p, q, n) == 0));
    }
    FUZZ_ASSERT(a->host_kind == b->host_kind && a->scheme == b->scheme && a->port == b->port);
    FUZZ_ASSERT(a->opaque_path == b->opaque_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    uint8_t flags = take_byte(&in);
    const uint8_t *text = in.data, *base_text = NULL;
    size_t n = in.size, bn = 0;
    if (flags & 1u) {
        const uint8_t *nul = memchr(in.data, 0, in.size);
        if (nul) {
            base_text = in.data;
            bn = (size_t)(nul - in.data);
            text = nul + 1;
            n = in.size - bn - 1;
        }
    }
    uint8_t *s = dup_exact(text, n);
    pct_url base, u, again, work;
    pct_url_init(&base);
    pct_url_init(&u);
    pct_url_init(&again);
    pct_url_init(&work);
    const pct_url *bp = NULL;
    if (base_text) {
        uint8_t *b = dup_exact(base_text, bn);
        pct_status rb = pct_url_parse(&base, b, bn, NULL, SIZE_MAX);
        free(b);
        FUZZ_ASSERT(rb == PCT_OK || PCT_URL_REJECTED(rb));
        if (rb == PCT_OK)
            bp = &base;
    }
    pct_status rc = pct_url_parse(&u, s, n, bp, SIZE_MAX);
    FUZZ_ASSERT(rc == PCT_OK || PCT_URL_REJECTED(rc));
    if (rc != PCT_OK) {
        FUZZ_ASSERT(u.error_pos <= n);
    } else {
        check_shape(&u);
        /* the href is a fixed point */
        uint8_t *h = dup_exact(u.href, u.len);
        FUZZ_ASSERT(pct_url_parse(&again, h, u.len, NULL, SIZE_MAX) == PCT_OK);
        same(&u, &again);
        const uint8_t *o1, *o2;
        size_t on1, on2;
        FUZZ_ASSERT(pct_url_origin(&u, &work, &o1, &on1) == PCT_OK);
        uint8_t *origin = dup_exact(o1, on1);
        FUZZ_ASSERT(pct_url_origin(&again, &work, &o2, &on2) == PCT_OK);
        FUZZ_ASSERT(on1 == on2 && memcmp(origin, o2, on1) == 0);
        free(origin);
        /* the limit, exactly */
        FUZZ_ASSERT(pct_url_parse(&again, s, n, bp, u.len - 1) == PCT_ERR_TOO_LARGE);
        FUZZ_ASSERT(pct_url_parse(&again, s, n, bp, u.len) == PCT_OK);
        same(&u, &again);
        free(h);
    }
    pct_url_free(&base);
    pct_url_free(&u);
    pct_url_free(&again);
    pct_url_free(&work);
    free(s);
    return 0;
}
