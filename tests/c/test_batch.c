/* C unit tests of src/core/pct_batch.c and pct_utf8_repair.
 *
 * pct_utf8_repair is checked on the examples of the Unicode Standard
 * (section 3.9, "U+FFFD substitution of maximal subparts") and for its
 * invariants over every string of up to 4 bytes from an alphabet of
 * boundary bytes: the output is well-formed, valid input is copied, and
 * "ignore" is "replace" without the U+FFFD. pct_batch_row is checked
 * against the core functions it wraps, and for its limit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_batch.h"

#include "check.h"

static int repaired_is(const char *in, size_t n, int replace, const char *want, size_t want_len)
{
    uint8_t out[64];
    size_t len = pct_utf8_repair((const uint8_t *)in, n, replace, out);
    return len == want_len && memcmp(out, want, len) == 0;
}

#define R "\xEF\xBF\xBD" /* U+FFFD */

static void test_repair_examples(void)
{
    /* Unicode 3.9, Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 */
    const char t38[] = "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
    const char want[] = "a" R R R "b" R "c" R R "d";
    CHECK(repaired_is(t38, sizeof t38 - 1, 1, want, sizeof want - 1));
    CHECK(repaired_is(t38, sizeof t38 - 1, 0, "abcd", 4));
    /* surrogates, overlong forms, past U+10FFFF: one U+FFFD per byte */
    CHECK(repaired_is("\xED\xA0\x80", 3, 1, R R R, 9));
    CHECK(repaired_is("\xC0\xAF", 2, 1, R R, 6));
    CHECK(repaired_is("\xE0\x80\xAF", 3, 1, R R R, 9));
    CHECK(repaired_is("\xF4\x90\x80\x80", 4, 1, R R R R, 12));
    /* a truncated sequence is one maximal subpart, at the end or before ASCII */
    CHECK(repaired_is("\xE4\xB8", 2, 1, R, 3));
    CHECK(repaired_is("\xF0\x9F\x98" "x", 4, 1, R "x", 4));
    /* escaped: each byte of a maximal subpart as %XX, valid text kept */
    CHECK(repaired_is("a\xFF\xC3\xA9\xE4\xB8" "b", 7, PCT_UTF8_ESCAPE, "a%FF\xC3\xA9%E4%B8b", 13));
    CHECK(repaired_is("\xED\xA0\x80", 3, PCT_UTF8_ESCAPE, "%ED%A0%80", 9));
    /* valid text is copied */
    CHECK(repaired_is("a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80", 10, 1,
                      "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80", 10));
}

static const uint8_t ALPHABET[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0,
                                   0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
#define NA (sizeof ALPHABET)

static void test_repair_invariants(void)
{
    uint8_t in[4], out[12], out_ignore[12], again[36];
    for (size_t n = 0; n <= 4; n++) {
        size_t total = 1;
        for (size_t k = 0; k < n; k++)
            total *= NA;
        for (size_t code = 0; code < total; code++) {
            size_t c = code;
            for (size_t k = 0; k < n; k++, c /= NA)
                in[k] = ALPHABET[c % NA];
            pct_utf8_info info, out_info;
            pct_utf8_check(in, n, &info);
            size_t len = pct_utf8_repair(in, n, 1, out);
            size_t len_ignore = pct_utf8_repair(in, n, 0, out_ignore);
            CHECK(len <= 3 * n);
            pct_utf8_check(out, len, &out_info);
            CHECK(out_info.valid);
            if (info.valid)
                CHECK(len == n && memcmp(in, out, n) == 0);
            else
                CHECK(len_ignore < n);
            /* ignore = replace with every U+FFFD taken out (none is in the input's alphabet) */
            size_t k = 0, j = 0;
            while (k < len) {
                if (len - k >= 3 && memcmp(out + k, R, 3) == 0) {
                    k += 3;
                } else {
                    again[j++] = out[k++];
                }
            }
            CHECK(j == len_ignore && memcmp(again, out_ignore, j) == 0);
            /* repairing again changes nothing */
            CHECK(pct_utf8_repair(out, len, 1, again) == len && memcmp(again, out, len) == 0);
        }
    }
}

static void test_rows(void)
{
    static const char *const texts[] = {"", "a b", "http://Example.COM:80/a/./b?%7e#x", "%zz%41",
                                        "\xC3\xA9 %C3%A9 %FF", "a%", "/\xE4\xB8\xAD/"};
    pct_batch_spec spec;
    memset(&spec, 0, sizeof spec);
    pct_set_clear(&spec.keep);
    pct_set_add_unreserved(&spec.keep);
    pct_buf out;
    pct_buf_init(&out);
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        const uint8_t *s = (const uint8_t *)texts[t];
        size_t n = strlen(texts[t]), size, start = out.len;
        uint8_t want[256];
        pct_batch_info info;
        /* quote: pct_encode's bytes, appended */
        spec.op = PCT_BATCH_QUOTE;
        CHECK(pct_batch_row(&spec, s, n, &out, SIZE_MAX, &info) == PCT_OK);
        CHECK(pct_encoded_size(s, n, &spec.keep, SIZE_MAX, &size) == PCT_OK);
        CHECK(out.len - start == size && pct_encode(s, n, &spec.keep, 0, want) == size);
        CHECK(memcmp(out.data + start, want, size) == 0);
        /* requote: pct_requote's bytes */
        spec.op = PCT_BATCH_REQUOTE;
        start = out.len;
        CHECK(pct_batch_row(&spec, s, n, &out, SIZE_MAX, &info) == PCT_OK);
        size = pct_requote(s, n, PCT_URI_UPPER_HEX, want);
        CHECK(out.len - start == size && memcmp(out.data + start, want, size) == 0);
        /* check: the position in code points of what pct_uri_check finds */
        spec.op = PCT_BATCH_CHECK;
        size_t pos;
        int valid = pct_uri_check(s, n, &pos) == PCT_URI_VALID;
        CHECK(pct_batch_row(&spec, s, n, &out, SIZE_MAX, &info) == PCT_OK);
        CHECK(valid ? info.position == -1 : info.position == (int64_t)pct_utf8_count(s, pos));
        /* unquote: the decoded bytes, repaired */
        spec.op = PCT_BATCH_UNQUOTE;
        spec.malformed = PCT_BATCH_REPLACE;
        start = out.len;
        CHECK(pct_batch_row(&spec, s, n, &out, SIZE_MAX, &info) == PCT_OK);
        uint8_t decoded[256];
        size = pct_utf8_repair(decoded, pct_decode(s, n, 0, decoded), 1, want);
        CHECK(out.len - start == size && memcmp(out.data + start, want, size) == 0);
        spec.malformed = PCT_BATCH_CALLER;
        pct_utf8_info dinfo;
        pct_utf8_check(decoded, pct_decode(s, n, 0, decoded), &dinfo);
        start = out.len;
        CHECK(pct_batch_row(&spec, s, n, &out, SIZE_MAX, &info) == (dinfo.valid ? PCT_OK : PCT_ROW_CALLER));
        if (!dinfo.valid)
            CHECK(out.len == start);
        /* the limit: nothing written past it */
        spec.op = PCT_BATCH_QUOTE;
        start = out.len;
        if (size > 0) {
            pct_encoded_size(s, n, &spec.keep, SIZE_MAX, &size);
            if (size > 0)
                CHECK(pct_batch_row(&spec, s, n, &out, out.len + size - 1, &info) == PCT_ERR_TOO_LARGE);
            CHECK(out.len == start);
        }
    }
    /* normalize: a non-ASCII host is the caller's, with its range */
    spec.op = PCT_BATCH_NORMALIZE;
    spec.flags = PCT_URI_NORMALIZE;
    const char *idn = "HTTP://b\xC3\xBC" "cher.de/x";
    pct_batch_info info;
    size_t start = out.len;
    CHECK(pct_batch_row(&spec, (const uint8_t *)idn, strlen(idn), &out, SIZE_MAX, &info) == PCT_ROW_HOST);
    CHECK(out.len == start && info.host.start == 7 && info.host.len == 10);
    CHECK(pct_batch_normalize_host(&spec, (const uint8_t *)idn, strlen(idn), &info,
                                   (const uint8_t *)"xn--bcher-kva.de", 16, &out, SIZE_MAX) == PCT_OK);
    const char *want = "http://xn--bcher-kva.de/x";
    CHECK(out.len - start == strlen(want) && memcmp(out.data + start, want, strlen(want)) == 0);
    pct_buf_free(&out);
    CHECK(out.data == NULL && out.len == 0);
}

int main(void)
{
    test_repair_examples();
    test_repair_invariants();
    test_rows();
    printf("test_batch: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
