/* Hosts (pct_idna.h): domain to ASCII and to Unicode on any bytes. Checks:
 * no crash, leak or overflow; a result of domain to ASCII is non-empty
 * ASCII without a forbidden domain code point, its own domain to ASCII
 * (idempotence); for a non-ASCII domain, domain to Unicode of the result
 * succeeds and maps back to it, and domain to ASCII of domain to Unicode of
 * the input is its domain to ASCII (to_ascii(to_unicode(x)) stable); a
 * result is the same written into a buffer one byte too small (which
 * answers PCT_IDNA_SMALL and the size) and into one that fits; the host
 * form of a reg-name as a URI writes it never crashes either.
 *
 * Input: the domain, as it is. */
#include "fuzz_common.h"
#include "pct_idna.h"

typedef pct_status (*idna_fn)(const uint8_t *, size_t, uint8_t *, size_t, size_t *);

/* fn's result in a malloc'd buffer of exactly its size (via PCT_IDNA_SMALL). */
static pct_status run(idna_fn fn, const uint8_t *s, size_t n, uint8_t **out, size_t *len)
{
    *out = NULL;
    pct_status rc = fn(s, n, NULL, 0, len);
    FUZZ_ASSERT(rc != PCT_ERR_NO_MEMORY);
    if (rc != PCT_IDNA_SMALL) {
        FUZZ_ASSERT(rc != PCT_OK || *len == 0);
        return rc;
    }
    size_t need = *len;
    *out = malloc(need);
    FUZZ_ASSERT(*out);
    if (need > 1)
        FUZZ_ASSERT(fn(s, n, *out, need - 1, len) == PCT_IDNA_SMALL && *len == need);
    rc = fn(s, n, *out, need, len);
    FUZZ_ASSERT(rc != PCT_IDNA_SMALL && *len == need);
    return rc;
}

static int is_ascii(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] >= 0x80)
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *a = NULL, *u = NULL, *again = NULL, *back = NULL;
    size_t a_len = 0, u_len = 0, again_len = 0, back_len = 0;
    pct_status ra = run(pct_idna_to_ascii, data, size, &a, &a_len);
    pct_status ru = run(pct_idna_to_unicode, data, size, &u, &u_len);
    if (ra == PCT_OK) {
        FUZZ_ASSERT(a_len > 0 && is_ascii(a, a_len));
        for (size_t i = 0; i < a_len; i++)
            FUZZ_ASSERT(a[i] > 0x20 && a[i] != 0x7F && !memchr("#%/:<>?@[\\]^|", a[i], 13));
        FUZZ_ASSERT(run(pct_idna_to_ascii, a, a_len, &again, &again_len) == PCT_OK);
        FUZZ_ASSERT(again_len == a_len && memcmp(again, a, a_len) == 0);
        if (!is_ascii(data, size)) {
            free(again);
            FUZZ_ASSERT(run(pct_idna_to_unicode, a, a_len, &again, &again_len) == PCT_OK);
            FUZZ_ASSERT(run(pct_idna_to_ascii, again, again_len, &back, &back_len) == PCT_OK);
            FUZZ_ASSERT(back_len == a_len && memcmp(back, a, a_len) == 0);
        }
    }
    if (ru == PCT_OK && !is_ascii(data, size) && ra != PCT_IDNA_FAIL) {
        /* (a label too long for punycode fails domain to ASCII alone) */
        free(back);
        FUZZ_ASSERT(run(pct_idna_to_ascii, u, u_len, &back, &back_len) == PCT_OK);
        FUZZ_ASSERT(back_len == a_len && memcmp(back, a, a_len) == 0);
    }
    free(a);
    free(u);
    free(again);
    free(back);
    uint8_t buf[64];
    const uint8_t *form;
    size_t form_len;
    uint8_t *heap;
    pct_status rh = pct_idna_host_form(data, size, buf, sizeof buf, &form, &form_len, &heap);
    FUZZ_ASSERT(rh == PCT_OK || rh == PCT_IDNA_FAIL);
    FUZZ_ASSERT(rh != PCT_OK || is_ascii(form, form_len));
    free(heap);
    return 0;
}
