/* Requoting (pct_uri.h): pct_requote_span, pct_requoted_size, pct_requote.
 * Checks: the size is exact and honours its limit; the output passes
 * pct_uri_check, keeps the input up to the span (all of it when the span
 * is the whole input), has uppercase hex with PCT_URI_UPPER_HEX, decodes to
 * what the input decodes to, and requoting it again changes nothing.
 *
 * Input: flags byte, 2 limit bytes, body. */
#include "fuzz_common.h"
#include "pct_uri.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    unsigned flags = take_byte(&in);
    size_t limit = (size_t)take_byte(&in) << 8 | take_byte(&in);
    if (flags & 0x80)
        limit = SIZE_MAX - limit;
    uint8_t *src = dup_exact(in.data, in.size);
    size_t n = in.size;

    size_t want = 0, got = 0;
    FUZZ_ASSERT(pct_requoted_size(src, n, SIZE_MAX, &want) == PCT_OK);
    FUZZ_ASSERT(want >= n && (want - n) % 2 == 0);
    pct_status st = pct_requoted_size(src, n, limit, &got);
    if (want <= limit)
        FUZZ_ASSERT(st == PCT_OK && got == want);
    else
        FUZZ_ASSERT(st == PCT_ERR_TOO_LARGE);

    uint8_t *out = alloc_exact(want);
    size_t len = pct_requote(src, n, flags, out);
    FUZZ_ASSERT(len == want);

    size_t pos;
    FUZZ_ASSERT(pct_uri_check(out, len, &pos) == PCT_URI_VALID && pos == len);

    size_t span = pct_requote_span(src, n, flags);
    FUZZ_ASSERT(span <= n);
    FUZZ_ASSERT(memcmp(out, src, span) == 0);
    if (span == n)
        FUZZ_ASSERT(len == n && memcmp(out, src, n) == 0);

    if (flags & PCT_URI_UPPER_HEX)
        for (size_t i = 0; i + 2 < len; i++)
            if (out[i] == '%')
                FUZZ_ASSERT(!(out[i + 1] >= 'a' && out[i + 1] <= 'f') &&
                            !(out[i + 2] >= 'a' && out[i + 2] <= 'f'));

    /* same decoded bytes */
    uint8_t *d1 = alloc_exact(n), *d2 = alloc_exact(len);
    size_t m1 = ref_decode(src, n, 0, d1), m2 = ref_decode(out, len, 0, d2);
    FUZZ_ASSERT(m1 == m2 && memcmp(d1, d2, m1) == 0);
    free(d1);
    free(d2);

    /* a fixed point */
    FUZZ_ASSERT(pct_requote_span(out, len, flags) == len);
    size_t again_size = 0;
    FUZZ_ASSERT(pct_requoted_size(out, len, SIZE_MAX, &again_size) == PCT_OK && again_size == len);
    uint8_t *again = alloc_exact(len);
    FUZZ_ASSERT(pct_requote(out, len, flags, again) == len && memcmp(again, out, len) == 0);
    free(again);
    free(out);
    free(src);
    return 0;
}
