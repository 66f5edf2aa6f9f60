/* pct_batch_row, the per-row core of the batch functions, against the
 * single-value core functions: for each operation (quote with a fuzzed set
 * and plus, unquote with each malformed-UTF-8 mode, requote, normalize with
 * fuzzed flags, check), the rows appended one after another to one output
 * buffer must each equal what the core gives for that row alone; a row
 * refused for the output limit leaves the buffer as it was; unquote's
 * repaired output is well-formed UTF-8; pct_batch_normalize_host equals
 * pct_uri_write with the host replaced.
 *
 * Input: op, flags, limit byte, 16 set bytes, then rows separated by '\n'. */
#include "fuzz_common.h"
#include "pct_batch.h"

/* The single-value result of `spec` on one row into a fresh buffer; its
 * length in *len. NULL when the batch row must not be compared (CALLER). */
static uint8_t *single(const pct_batch_spec *spec, const uint8_t *s, size_t n, size_t *len)
{
    uint8_t *out;
    size_t size;
    switch (spec->op) {
    case PCT_BATCH_QUOTE:
        FUZZ_ASSERT(pct_encoded_size(s, n, &spec->keep, SIZE_MAX, &size) == PCT_OK);
        out = alloc_exact(size);
        *len = pct_encode(s, n, &spec->keep, spec->plus, out);
        FUZZ_ASSERT(*len == size);
        return out;
    case PCT_BATCH_UNQUOTE:
        out = alloc_exact(n);
        *len = pct_decode(s, n, spec->plus, out);
        return out;
    case PCT_BATCH_REQUOTE:
        FUZZ_ASSERT(pct_requoted_size(s, n, SIZE_MAX, &size) == PCT_OK);
        out = alloc_exact(size);
        *len = pct_requote(s, n, PCT_URI_UPPER_HEX, out);
        FUZZ_ASSERT(*len == size);
        return out;
    default: {
        pct_uri u;
        pct_uri_split(s, n, &u);
        FUZZ_ASSERT(pct_uri_size_bound(n, 0, SIZE_MAX, &size) == PCT_OK);
        out = alloc_exact(size);
        FUZZ_ASSERT(pct_uri_write(s, &u, NULL, 0, spec->flags, out, len) == PCT_OK);
        return out;
    }
    }
}

static void check_row(const pct_batch_spec *spec, const uint8_t *s, size_t n, pct_buf *out,
                      size_t limit)
{
    size_t before = out->len;
    pct_batch_info info;
    int rc = pct_batch_row(spec, s, n, out, limit, &info);
    if (rc == PCT_ERR_TOO_LARGE || rc == PCT_ROW_CALLER || rc == PCT_ROW_FAILED) {
        FUZZ_ASSERT(out->len == before);
        return;
    }
    if (spec->op == PCT_BATCH_CHECK) {
        size_t pos;
        pct_uri_problem p = pct_uri_check(s, n, &pos);
        FUZZ_ASSERT(rc == PCT_OK && out->len == before);
        FUZZ_ASSERT(info.position == (p == PCT_URI_VALID ? -1 : (int64_t)pct_utf8_count(s, pos)));
        return;
    }
    if (rc == PCT_ROW_HOST) {
        FUZZ_ASSERT(spec->op == PCT_BATCH_NORMALIZE && out->len == before);
        static const uint8_t host[] = "xn--ba-fuzz";
        size_t hn = sizeof host - 1, bound, len;
        rc = pct_batch_normalize_host(spec, s, n, &info, host, hn, out, limit);
        if (rc == PCT_ERR_TOO_LARGE) {
            FUZZ_ASSERT(out->len == before);
            return;
        }
        FUZZ_ASSERT(rc == PCT_OK);
        pct_uri u;
        pct_uri_split(s, n, &u);
        FUZZ_ASSERT(pct_uri_size_bound(n, hn, SIZE_MAX, &bound) == PCT_OK);
        uint8_t *want = alloc_exact(bound);
        FUZZ_ASSERT(pct_uri_write(s, &u, host, hn, spec->flags, want, &len) == PCT_OK);
        FUZZ_ASSERT(out->len - before == len && memcmp(out->data + before, want, len) == 0);
        free(want);
        return;
    }
    FUZZ_ASSERT(rc == PCT_OK && out->len <= limit);
    size_t len;
    uint8_t *want = single(spec, s, n, &len);
    const uint8_t *got = out->data + before;
    size_t got_len = out->len - before;
    if (spec->op == PCT_BATCH_UNQUOTE) {
        pct_utf8_info u8;
        pct_utf8_check(want, len, &u8);
        pct_utf8_check(got, got_len, &u8);
        FUZZ_ASSERT(u8.valid); /* valid as decoded, or repaired */
        pct_utf8_check(want, len, &u8);
        if (u8.valid)
            FUZZ_ASSERT(got_len == len && memcmp(got, want, len) == 0);
        else if (spec->malformed == PCT_BATCH_IGNORE)
            FUZZ_ASSERT(got_len < len);
    } else {
        FUZZ_ASSERT(got_len == len && memcmp(got, want, len) == 0);
    }
    free(want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    uint8_t op = take_byte(&in), flags = take_byte(&in), lim = take_byte(&in);
    pct_batch_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.op = (pct_batch_op)(op % 5);
    spec.plus = op >> 3 & 1;
    spec.malformed = (op >> 4) % 3;
    spec.flags = flags;
    take_set(&in, &spec.keep);
    /* a small output limit now and then, to reach the refusals */
    size_t limit = lim < 32 ? (size_t)lim * 8 : SIZE_MAX;

    uint8_t *body = dup_exact(in.data, in.size);
    pct_buf out;
    pct_buf_init(&out);
    size_t start = 0;
    for (size_t i = 0; i <= in.size; i++) {
        if (i == in.size || body[i] == '\n') {
            uint8_t *row = dup_exact(body + start, i - start);
            check_row(&spec, row, i - start, &out, limit);
            free(row);
            start = i + 1;
        }
    }
    pct_buf_free(&out);
    free(body);
    return 0;
}
