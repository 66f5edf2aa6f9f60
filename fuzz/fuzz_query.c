/* Query parameters (pct_query.h): pct_query_locate, pct_query_find,
 * pct_glob_match, pct_query_clean. Checks: the query is pct_uri_split's;
 * a found value lies in the query; "*" matches every name; cleaning never
 * lengthens, changes nothing outside the query, keeps everything with an
 * empty filter, and is idempotent; every parameter of a cleaned query is
 * one the filter keeps. The deduplication key (pct_canon.h) of any input
 * with every option fits its bound, and the whitespace cleanup leaves no
 * tab or newline and nothing to strip.
 *
 * Input: flags byte (1: sort, 2: a keep set, 4: keep is the drop set),
 * pattern length byte, patterns (split at 0xFF, each made well-formed
 * UTF-8 as the Python layer's are), body. */
#include "fuzz_common.h"
#include "pct_canon.h"
#include "pct_query.h"
#include "pct_uri.h"

/* The patterns p[0..n): each piece between 0xFF bytes repaired to UTF-8. */
static uint8_t *take_patterns(const uint8_t *p, size_t n, size_t *len)
{
    uint8_t *out = alloc_exact(3 * n + 1);
    size_t w = 0, at = 0;
    while (at <= n) {
        const uint8_t *end = at < n ? memchr(p + at, PCT_GLOB_END, n - at) : NULL;
        size_t k = end ? (size_t)(end - (p + at)) : n - at;
        w += pct_utf8_repair(p + at, k, 1, out + w);
        out[w++] = PCT_GLOB_END;
        at += k + 1;
    }
    *len = w;
    return out;
}

/* Every non-empty segment of the query of s[0..n) is kept by f. */
static int all_kept(const uint8_t *s, size_t n, const pct_query_filter *f)
{
    pct_range q;
    if (!pct_query_locate(s, n, &q))
        return 1;
    size_t at = q.start, end = q.start + q.len;
    while (at <= end) {
        const uint8_t *amp = at < end ? memchr(s + at, '&', end - at) : NULL;
        size_t seg_end = amp ? (size_t)(amp - s) : end;
        const uint8_t *eq = seg_end > at ? memchr(s + at, '=', seg_end - at) : NULL;
        size_t name_end = eq ? (size_t)(eq - s) : seg_end;
        if (seg_end > at && !pct_query_keeps(f, s + at, name_end - at))
            return 0;
        at = seg_end + 1;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    unsigned flags = take_byte(&in);
    size_t plen = take_byte(&in);
    if (plen > in.size)
        plen = in.size;
    size_t globs_len;
    uint8_t *globs = take_patterns(in.data, plen, &globs_len);
    uint8_t *src = dup_exact(in.data + plen, in.size - plen);
    size_t n = in.size - plen;

    pct_range q;
    pct_uri u;
    pct_uri_split(src, n, &u);
    int has = pct_query_locate(src, n, &q);
    FUZZ_ASSERT(has == u.has_query);
    if (has) {
        FUZZ_ASSERT(q.start == u.query.start && q.len == u.query.len);
        pct_range v;
        /* the first pattern as a name (well-formed UTF-8) */
        const uint8_t *end = memchr(globs, PCT_GLOB_END, globs_len);
        size_t name_len = (size_t)(end - globs);
        if (pct_query_find(src + q.start, q.len, globs, name_len, &v))
            FUZZ_ASSERT(v.start <= q.len && v.len <= q.len - v.start);
        FUZZ_ASSERT(pct_glob_match((const uint8_t *)"*", 1, src + q.start, q.len));
    }

    pct_query_filter f;
    memset(&f, 0, sizeof f);
    f.sort = flags & 1;
    pct_query_filter_init(&f);
    uint8_t *out = alloc_exact(n), *again = alloc_exact(n);
    size_t len = 0, len2 = 0;
    /* nothing to drop: unchanged (unsorted) */
    if (!f.sort) {
        FUZZ_ASSERT(pct_query_clean(src, n, &f, out, &len) == PCT_OK);
        FUZZ_ASSERT(len == n && memcmp(out, src, n) == 0);
    }
    if (flags & 2) {
        f.has_keep = 1;
        f.keep = globs;
        f.keep_len = globs_len;
    }
    if (!(flags & 2) || (flags & 4)) {
        f.drop = globs;
        f.drop_len = globs_len;
    }
    pct_query_filter_init(&f);
    FUZZ_ASSERT(pct_query_clean(src, n, &f, out, &len) == PCT_OK);
    FUZZ_ASSERT(len <= n);
    size_t head = has ? q.start - 1 : n, tail = has ? n - q.start - q.len : 0;
    FUZZ_ASSERT(len >= head + tail);
    FUZZ_ASSERT(memcmp(out, src, head) == 0 && memcmp(out + len - tail, src + n - tail, tail) == 0);
    FUZZ_ASSERT(all_kept(out, len, &f));
    FUZZ_ASSERT(pct_query_clean(out, len, &f, again, &len2) == PCT_OK);
    FUZZ_ASSERT(len2 == len && memcmp(again, out, len) == 0);

    pct_canon c;
    memset(&c, 0, sizeof c);
    c.filter = f;
    c.filter.ignore_case = (flags & 8) != 0;
    c.filter.html_amp = (flags & 16) != 0;
    c.filter.drop_empty = 1;
    c.opts = (unsigned)(flags >> 4) & PCT_CANON_ALL;
    pct_query_filter_init(&c.filter);
    FUZZ_ASSERT(pct_canon_key(src, n, &c, out, &len) == PCT_OK && len <= n);

    len = pct_uri_strip(src, n, out);
    FUZZ_ASSERT(len <= n && !pct_uri_needs_strip(out, len));
    FUZZ_ASSERT(pct_uri_needs_strip(src, n) == (len != n));

    free(globs);
    free(src);
    free(out);
    free(again);
    return 0;
}
