/* pct_uri_check against a reference written from RFC 3986's grammar (on
 * every kernel, with each kernel's one-pass pct_uri_offence and its offence
 * bits for many rows, and CHECK over the input cut into rows), the
 * agreement of pct_requote_span (no flags) with it, and, for valid input,
 * requote, split + write (no flags) giving the input back unchanged. Also
 * the safe sets of pct.h: pct_set_add, pct_set_add_bytes, pct_set_clear
 * and pct_set_add_unreserved against the byte classes they name.
 *
 * Input: body (the set checks read its first bytes). */
#include "fuzz_common.h"
#include "pct_batch.h"
#include "pct_uri.h"

static const char unreserved[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
static const char reserved[] = ":/?#[]@!$&'()*+,;=";

static int ref_allowed(uint8_t c)
{
    return c != 0 && (strchr(unreserved, c) || strchr(reserved, c));
}

static pct_uri_problem ref_check(const uint8_t *s, size_t n, size_t *pos)
{
    for (size_t i = 0; i < n; i++) {
        if (ref_allowed(s[i]))
            continue;
        *pos = i;
        if (s[i] != '%')
            return PCT_URI_BAD_CHAR;
        if (n - i < 3 || ref_hex(s[i + 1]) < 0 || ref_hex(s[i + 2]) < 0)
            return PCT_URI_BAD_ESCAPE;
        i += 2;
    }
    *pos = n;
    return PCT_URI_VALID;
}

static void check_sets(const uint8_t *s, size_t n)
{
    pct_set set;
    pct_set_clear(&set);
    for (unsigned c = 0; c < 256; c++)
        FUZZ_ASSERT(!pct_set_has(&set, (uint8_t)c));
    pct_set_add_bytes(&set, s, n);
    if (n)
        pct_set_add(&set, s[0] ^ 0x80u);
    for (unsigned c = 0; c < 256; c++) {
        int in_input = memchr(s, (int)c, n) != NULL || (n && c == (s[0] ^ 0x80u));
        FUZZ_ASSERT(pct_set_has(&set, (uint8_t)c) == (c < 0x80 && in_input));
    }
    pct_set_clear(&set);
    pct_set_add_unreserved(&set);
    for (unsigned c = 0; c < 256; c++)
        FUZZ_ASSERT(pct_set_has(&set, (uint8_t)c) == (c != 0 && strchr(unreserved, (int)c) != NULL));
    for (unsigned c = 0; c < 256; c++)
        FUZZ_ASSERT(pct_hex_value[c] == ref_hex((uint8_t)c));
}

/* The test at position i alone (the offence bits' definition). */
static int ref_offence_at(const uint8_t *s, size_t i, size_t n)
{
    if (s[i] != '%')
        return !ref_allowed(s[i]);
    return n - i < 3 || ref_hex(s[i + 1]) < 0 || ref_hex(s[i + 2]) < 0;
}

/* A row of the cut input starts at i (> 0): a rule of the input that
 * leaves every byte in some row and gives rows of any length. */
static int row_starts(const uint8_t *src, size_t i)
{
    return ((size_t)src[i] + i) % 29 == 0;
}

/* The kernel's check of src, and of src cut into rows (their text end to
 * end, as an Arrow column lays them out). */
static void check_kernel(const uint8_t *src, size_t n, size_t want_pos)
{
    FUZZ_ASSERT(pct_uri_offence(src, n) == want_pos);
    pct_uri_offence_bits_fn bits_of = pct_uri_offence_bits_kernel();
    if (bits_of) {
        uint64_t *bits = alloc_exact((n + 63) / 64 * 8);
        bits_of(src, n, bits);
        for (size_t i = 0; i < n; i++)
            FUZZ_ASSERT((int)((bits[i / 64] >> (i % 64)) & 1) == ref_offence_at(src, i, n));
        free(bits);
    }
    size_t rows = 1;
    for (size_t i = 1; i < n; i++)
        rows += row_starts(src, i);
    int64_t *off = alloc_exact((rows + 1) * 8), *ends = alloc_exact(rows * 8);
    uint8_t *valid = calloc(rows / 8 + 1, 1);
    FUZZ_ASSERT(valid);
    size_t r = 0;
    off[r++] = 0;
    for (size_t i = 1; i < n; i++)
        if (row_starts(src, i))
            off[r++] = (int64_t)i;
    off[rows] = (int64_t)n;
    pct_rows in = {8, off, src, NULL, 0};
    pct_batch_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.op = PCT_BATCH_CHECK;
    pct_buf out;
    pct_buf_init(&out);
    int status;
    pct_batch_info info;
    FUZZ_ASSERT(pct_batch_rows(&spec, &in, 0, (int64_t)rows, 0, &out, SIZE_MAX, ends, valid, &status,
                               &info, NULL) == (int64_t)rows && status == PCT_OK);
    for (size_t j = 0; j < rows; j++) {
        size_t len = (size_t)(off[j + 1] - off[j]), at;
        ref_check(src + off[j], len, &at);
        FUZZ_ASSERT(ends[j] == (at == len ? -1 : (int64_t)at));
        FUZZ_ASSERT(((valid[j >> 3] >> (j & 7)) & 1) == (at != len));
    }
    pct_buf_free(&out);
    free(valid);
    free(ends);
    free(off);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *src = dup_exact(data, size);
    size_t n = size, pos = 12345, want_pos = 54321;
    pct_uri_problem p = pct_uri_check(src, n, &pos);
    FUZZ_ASSERT(p == ref_check(src, n, &want_pos));
    FUZZ_ASSERT(pos == want_pos);
    fuzz_list_kernels();
    for (size_t k = 0; k < fuzz_nkernels; k++) {
        fuzz_use_kernel(k);
        check_kernel(src, n, want_pos);
    }
    FUZZ_ASSERT(pct_kernel_select(NULL) == 0);
    FUZZ_ASSERT(pct_requote_span(src, n, 0) == pos);
    if (p == PCT_URI_VALID) {
        size_t len = 0;
        FUZZ_ASSERT(pct_requoted_size(src, n, SIZE_MAX, &len) == PCT_OK && len == n);
        uint8_t *out = alloc_exact(n);
        FUZZ_ASSERT(pct_requote(src, n, 0, out) == n && memcmp(out, src, n) == 0);
        free(out);

        pct_uri uri;
        pct_uri_split(src, n, &uri);
        size_t bound = 0;
        FUZZ_ASSERT(pct_uri_size_bound(n, 0, SIZE_MAX, &bound) == PCT_OK);
        out = alloc_exact(bound);
        FUZZ_ASSERT(pct_uri_write(src, &uri, NULL, 0, 0, out, &len) == PCT_OK);
        FUZZ_ASSERT(len == n && memcmp(out, src, n) == 0);
        free(out);
    }
    check_sets(src, n < 64 ? n : 64);
    free(src);
    return 0;
}
