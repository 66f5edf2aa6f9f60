/* Reference resolution (pct_resolve.h) and resolve_many's row
 * (pct_batch_resolve_row). Checks: the target fits the announced bound
 * (a buffer of exactly that size); a base with no scheme is reported with
 * a position inside it, and only then; the target has the scheme of the
 * base or the reference; resolved again against the same base, a target
 * comes back after at most one more pass (strict parser: the non-strict
 * one reads a target with the base's scheme as relative, and a relative
 * path grows at each pass); the batch row gives the same
 * bytes, and with normalization writes no more than its bound.
 *
 * Input: flags byte (1: non-strict, 2: normalize the batch row), base
 * length byte, base, reference. */
#include "fuzz_common.h"
#include "pct_batch.h"
#include "pct_resolve.h"

/* pct_resolve into a heap block of exactly the bound; NULL when the base
 * has no scheme. */
static uint8_t *resolve_exact(const uint8_t *b, size_t bn, const uint8_t *r, size_t rn,
                              unsigned flags, size_t *len)
{
    size_t bound, pos = SIZE_MAX;
    FUZZ_ASSERT(pct_resolve_bound(bn, rn, SIZE_MAX, &bound) == PCT_OK);
    uint8_t *dst = alloc_exact(bound);
    int rc = pct_resolve(b, bn, r, rn, flags, dst, len, &pos);
    if (rc == PCT_RESOLVE_NOT_ABSOLUTE) {
        FUZZ_ASSERT(pos <= bn);
        free(dst);
        return NULL;
    }
    FUZZ_ASSERT(rc == PCT_OK && *len <= bound);
    return dst;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    unsigned flags = take_byte(&in);
    size_t bn = take_byte(&in);
    if (bn > in.size)
        bn = in.size;
    uint8_t *base = dup_exact(in.data, bn), *ref = dup_exact(in.data + bn, in.size - bn);
    size_t rn = in.size - bn, len = 0, len2 = 0, len3 = 0;
    unsigned rflags = flags & 1u ? PCT_RESOLVE_NON_STRICT : 0;
    pct_uri bu, t;
    pct_uri_split(base, bn, &bu);
    uint8_t *target = resolve_exact(base, bn, ref, rn, rflags, &len);
    FUZZ_ASSERT((target != NULL) == (bu.has_scheme != 0));
    if (target) {
        pct_uri_split(target, len, &t);
        FUZZ_ASSERT(t.has_scheme);
        if (!rflags) {
            uint8_t *again = resolve_exact(base, bn, target, len, 0, &len2);
            uint8_t *third = resolve_exact(base, bn, again, len2, 0, &len3);
            FUZZ_ASSERT(again && third && len3 == len2 && memcmp(again, third, len2) == 0);
            free(again);
            free(third);
        }
        /* resolve_many's row: the same bytes, or normalized within its room */
        pct_batch_spec spec;
        memset(&spec, 0, sizeof spec);
        spec.op = PCT_BATCH_RESOLVE;
        spec.flags = flags & 2u ? PCT_URI_NORMALIZE : 0;
        spec.resolve_flags = rflags;
        spec.base = base;
        spec.base_len = bn;
        pct_buf out;
        pct_batch_info info;
        pct_buf_init(&out);
        int rc = pct_batch_row(&spec, ref, rn, &out, SIZE_MAX, &info);
        if (!spec.flags) {
            /* the target, its ill-formed UTF-8 escaped %XX (a text column
             * stays valid UTF-8) */
            pct_utf8_info ui;
            pct_utf8_check(target, len, &ui);
            uint8_t *want = target;
            size_t wn = len;
            if (!ui.valid) {
                want = malloc(3 * len + 1);
                FUZZ_ASSERT(want != NULL);
                wn = pct_utf8_repair(target, len, PCT_UTF8_ESCAPE, want);
            }
            FUZZ_ASSERT(rc == PCT_OK && out.len == wn && memcmp(out.data, want, wn) == 0);
            if (want != target)
                free(want);
        }
        else
            FUZZ_ASSERT(rc == PCT_OK || rc == PCT_ROW_CALLER);
        pct_buf_free(&out);
        free(target);
    }
    free(base);
    free(ref);
    return 0;
}
