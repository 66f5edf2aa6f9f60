/* The Public Suffix List (pct_psl.h), the host finder (pct_authority.h)
 * and the parts of a host by them (pct_domain.h). Checks: a list compiles or names a bad line, never
 * reads past its text; each part of any input fits the room of the input's
 * length; a public suffix ends the host, a registered domain is the suffix
 * and one label more, the subdomain and the registered domain make the
 * host; a part of a part is itself (idempotence of the registered domain).
 *
 * Input: flags byte (PCT_DOMAIN_PRIVATE bit), list length byte, the list's
 * text, the value. An empty list (or one that does not compile) is
 * replaced by a small fixed one with wildcards and exceptions. */
#include "fuzz_common.h"
#include "pct_authority.h"
#include "pct_domain.h"
#include "pct_psl.h"

static const char FIXED[] = "com\nuk\nco.uk\njp\n*.kobe.jp\n!city.kobe.jp\n*.ck\n!www.ck\n"
                            "// ===BEGIN PRIVATE DOMAINS===\ngithub.io\n";

/* The part of src[0..n) in a buffer of exactly n bytes (ASan sees any
 * overrun): its status, the part in *out (malloc'd) and *len. */
static int part_of(const pct_psl *psl, unsigned flags, const uint8_t *src, size_t n, uint8_t **out,
                   size_t *len)
{
    *out = alloc_exact(n);
    return pct_domain_part(psl, flags, src, n, *out, len);
}

static int ends_with(const uint8_t *s, size_t n, const uint8_t *t, size_t m)
{
    return m <= n && memcmp(s + n - m, t, m) == 0 && (m == n || s[n - m - 1] == '.');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    unsigned priv = take_byte(&in) & PCT_DOMAIN_PRIVATE;
    size_t llen = take_byte(&in);
    if (llen > in.size)
        llen = in.size;
    uint8_t *text = dup_exact(in.data, llen);
    pct_psl *psl = NULL;
    size_t line = 0;
    pct_psl_counts counts;
    int rc = pct_psl_compile(text, llen, &psl, &counts, &line);
    if (rc != PCT_OK && rc != PCT_PSL_BAD_RULE)
        abort();
    if (rc == PCT_PSL_BAD_RULE && (line == 0 || psl))
        abort();
    free(text);
    if (!psl && pct_psl_compile((const uint8_t *)FIXED, sizeof FIXED - 1, &psl, NULL, NULL) != PCT_OK)
        abort();
    uint8_t *src = dup_exact(in.data + llen, in.size - llen);
    size_t n = in.size - llen;

    for (unsigned f = 0; f <= (PCT_AUTH_BACKSLASH | PCT_AUTH_WEB); f++) {
        pct_authority a; /* its offsets in order, within the input */
        pct_authority_find(src, n, f, &a);
        if (!(a.start <= a.host && a.host <= a.host_end && a.host_end <= a.end && a.end <= n))
            abort();
    }
    uint8_t *host, *suf, *reg, *sub;
    size_t hl, sl, rl, bl;
    int h = part_of(psl, PCT_DOMAIN_HOST | priv, src, n, &host, &hl);
    int s = part_of(psl, PCT_DOMAIN_SUFFIX | priv, src, n, &suf, &sl);
    int r = part_of(psl, PCT_DOMAIN_REGISTERED | priv, src, n, &reg, &rl);
    int b = part_of(psl, PCT_DOMAIN_SUBDOMAIN | priv, src, n, &sub, &bl);
    if (h != s)
        abort(); /* the host and its suffix exist together */
    if (s == PCT_OK) {
        if (!ends_with(host, hl, suf, sl) || sl == 0)
            abort();
        if (r == PCT_OK) {
            if (!ends_with(reg, rl, suf, sl) || rl == sl || memchr(reg, '.', rl - sl - 1))
                abort();
            if (!ends_with(host, hl, reg, rl) || b != PCT_OK)
                abort();
            if (!(bl == 0 ? hl == rl : bl + 1 + rl == hl && memcmp(host, sub, bl) == 0))
                abort();
            uint8_t *again;
            size_t al;
            if (part_of(psl, PCT_DOMAIN_REGISTERED | priv, reg, rl, &again, &al) != PCT_OK
                || al != rl || memcmp(again, reg, rl) != 0)
                abort();
            free(again);
            /* and read as a host itself */
            if (part_of(psl, PCT_DOMAIN_REGISTERED | PCT_DOMAIN_IS_HOST | priv, reg, rl, &again, &al)
                    != PCT_OK
                || al != rl || memcmp(again, reg, rl) != 0)
                abort();
            free(again);
        } else if (r != PCT_DOMAIN_NONE || b != PCT_DOMAIN_NONE || sl != hl) {
            abort();
        }
    }
    free(host);
    free(suf);
    free(reg);
    free(sub);
    free(src);
    pct_psl_free(psl);
    return 0;
}
