/* C unit tests of pct_batch_rows: over random columns (every op, int32 and
 * int64 offsets, an array offset, nulls), its results are those of
 * pct_batch_row called row by row, it stops at exactly the rows that
 * pct_batch_row leaves to the caller (the caller then does them and
 * resumes, as the binding does), and it reports broken offsets and the
 * output limit at their row with nothing written for it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_batch.h"
#include "pct_kernels.h"

#include "check.h"

/* Pieces the random rows are made of: URL parts, escapes good and bad,
 * UTF-8 and bytes that are not, hosts that need IDNA. */
static const char *const PARTS[] = {
    "http://", "HTTP://Example.COM", ":80", "/a/./b/../c", "?q=1&a=b", "#frag", "%41", "%7e", "%zz",
    "%", "%C3%A9", "%FF", "+", " ", "a", "Z", "\xC3\xA9", "\xE4\xB8\xAD", "\xFF", "\xC3", ("b\xC3\xBC" "cher.de"),
    "[::1]", "@", "user:pw@", "~", "%25", "\x01", "//", "a%2Fb", "mailto:x@y"};
#define NPARTS (sizeof PARTS / sizeof PARTS[0])

/* A number below n (the C library's generator: seeded in main, the same
 * rows on every run of a platform). */
static uint32_t rnd(uint32_t n)
{
    return (uint32_t)rand() % n;
}

#define ROWS 300
#define SKIP 5 /* the array's offset */

typedef struct {
    uint8_t data[ROWS * 64];
    int64_t off[ROWS + SKIP + 1];
    uint8_t validity[(ROWS + SKIP) / 8 + 1];
    uint8_t off32[4 * (ROWS + SKIP + 1)], off64[8 * (ROWS + SKIP + 1)];
} column;

static void make_column(column *c)
{
    size_t at = 0;
    memset(c->validity, 0, sizeof c->validity);
    for (int j = 0; j < ROWS + SKIP; j++) {
        c->off[j] = (int64_t)at;
        if (rnd(10) != 0)
            c->validity[j >> 3] |= (uint8_t)(1u << (j & 7));
        for (uint32_t k = rnd(6); k > 0; k--) {
            const char *part = PARTS[rnd(NPARTS)];
            memcpy(c->data + at, part, strlen(part));
            at += strlen(part);
        }
    }
    c->off[ROWS + SKIP] = (int64_t)at;
    for (int j = 0; j <= ROWS + SKIP; j++) {
        int32_t v = (int32_t)c->off[j];
        memcpy(c->off32 + 4 * j, &v, 4);
        memcpy(c->off64 + 8 * j, &c->off[j], 8);
    }
}

static int bit(const uint8_t *bits, int64_t i)
{
    return (bits[i >> 3] >> (i & 7)) & 1;
}

/* The results row by row through pct_batch_row (rows it leaves to the
 * caller get an empty null result) against pct_batch_rows resumed after
 * each row it leaves, starting at row `first` into slot `slot`. */
static void compare(const pct_batch_spec *spec, const pct_rows *in, int64_t first, int64_t slot)
{
    int64_t count = ROWS - first, want_ends[ROWS + 8], got_ends[ROWS + 8];
    uint8_t want_valid[ROWS / 8 + 2] = {0}, got_valid[ROWS / 8 + 2] = {0};
    int check = spec->op == PCT_BATCH_CHECK, left_want[ROWS] = {0}, left_got[ROWS] = {0};
    pct_buf want, got;
    pct_buf_init(&want);
    pct_buf_init(&got);
    for (int64_t i = 0; i < count; i++) {
        const uint8_t *p;
        size_t n;
        pct_batch_info info;
        int64_t s = slot + i;
        if (pct_rows_get(in, first + i, &p, &n) == 0) {
            want_ends[s] = check ? -1 : (int64_t)want.len;
            continue;
        }
        int rc = pct_batch_row(spec, p, n, &want, SIZE_MAX, &info);
        if (rc != PCT_OK) {
            CHECK(rc == PCT_ROW_CALLER || rc == PCT_ROW_HOST || rc == PCT_ROW_FAILED);
            left_want[i] = 1;
            want_ends[s] = check ? -1 : (int64_t)want.len;
            continue;
        }
        want_ends[s] = check ? info.position : (int64_t)want.len;
        if (!check || info.position >= 0)
            want_valid[s >> 3] |= (uint8_t)(1u << (s & 7));
    }
    for (int64_t i = 0; i < count; i++) {
        int status;
        pct_batch_info info;
        i += pct_batch_rows(spec, in, first + i, count - i, slot + i, &got, SIZE_MAX, got_ends,
                            got_valid, &status, &info, NULL);
        if (i == count) {
            CHECK(status == PCT_OK);
            break;
        }
        CHECK(status == PCT_ROW_CALLER || status == PCT_ROW_HOST || status == PCT_ROW_FAILED);
        if (status == PCT_ROW_HOST) {
            const uint8_t *p;
            size_t n;
            CHECK(pct_rows_get(in, first + i, &p, &n) == 1);
            CHECK(info.host.start + info.host.len <= n);
        }
        left_got[i] = 1; /* the caller's row: done here as an empty null */
        got_ends[slot + i] = check ? -1 : (int64_t)got.len;
    }
    CHECK(memcmp(left_want, left_got, sizeof left_want) == 0);
    CHECK(memcmp(want_ends + slot, got_ends + slot, (size_t)count * sizeof *want_ends) == 0);
    for (int64_t i = 0; i < count; i++)
        CHECK(bit(want_valid, slot + i) == bit(got_valid, slot + i));
    CHECK(want.len == got.len && (want.len == 0 || memcmp(want.data, got.data, want.len) == 0));
    pct_buf_free(&want);
    pct_buf_free(&got);
}

static void test_same_as_rows(void)
{
    static column c;
    pct_batch_spec specs[9];
    memset(specs, 0, sizeof specs);
    for (int k = 0; k < 9; k++)
        pct_set_clear(&specs[k].keep);
    specs[0].op = PCT_BATCH_QUOTE;
    pct_set_add_unreserved(&specs[0].keep);
    specs[1] = specs[0];
    specs[1].plus = 1;
    specs[2].op = PCT_BATCH_UNQUOTE;
    specs[2].malformed = PCT_BATCH_CALLER;
    specs[3].op = PCT_BATCH_UNQUOTE;
    specs[3].malformed = PCT_BATCH_REPLACE;
    specs[3].plus = 1;
    specs[4].op = PCT_BATCH_UNQUOTE;
    specs[4].malformed = PCT_BATCH_IGNORE;
    specs[5].op = PCT_BATCH_REQUOTE;
    specs[6].op = PCT_BATCH_NORMALIZE;
    specs[6].flags = PCT_URI_NORMALIZE;
    specs[7].op = PCT_BATCH_NORMALIZE;
    specs[7].flags = PCT_URI_NORMALIZE | PCT_URI_SORT_QUERY | PCT_URI_DROP_FRAGMENT;
    specs[8].op = PCT_BATCH_CHECK;
    for (int round = 0; round < 20; round++) {
        make_column(&c);
        pct_rows in32 = {4, c.off32, c.data, c.validity, SKIP};
        pct_rows in64 = {8, c.off64, c.data, round % 2 ? c.validity : NULL, SKIP};
        for (int k = 0; k < 9; k++) {
            compare(&specs[k], &in32, 0, 0);
            compare(&specs[k], &in64, (int64_t)rnd(ROWS), (int64_t)rnd(8));
        }
    }
}

/* A broken offset stops the run at its row; the output limit too, with
 * nothing of that row written. */
static void test_stops(void)
{
    static const char data[] = "aaa b c";
    int32_t off[5] = {0, 3, 5, 4, 7}; /* row 2 ends before it starts */
    pct_rows in = {4, off, (const uint8_t *)data, NULL, 0};
    pct_batch_spec spec;
    memset(&spec, 0, sizeof spec);
    pct_set_clear(&spec.keep);
    spec.op = PCT_BATCH_QUOTE;
    pct_buf out;
    pct_buf_init(&out);
    int64_t ends[4];
    uint8_t valid[1] = {0};
    int status;
    pct_batch_info info;
    CHECK(pct_batch_rows(&spec, &in, 0, 4, 0, &out, SIZE_MAX, ends, valid, &status, &info, NULL) == 2);
    CHECK(status == PCT_ROW_MALFORMED && out.len == 15 && ends[1] == 15 && valid[0] == 3);
    /* "aaa" is 9 bytes quoted, " b" 6 more: a limit of 12 stops row 1 */
    off[2] = 5;
    off[3] = 7;
    pct_buf_free(&out);
    valid[0] = 0;
    CHECK(pct_batch_rows(&spec, &in, 0, 4, 0, &out, 12, ends, valid, &status, &info, NULL) == 1);
    CHECK(status == PCT_ERR_TOO_LARGE && out.len == 9 && valid[0] == 1);
    /* data NULL: empty rows only */
    int32_t zeros[3] = {0, 0, 1};
    pct_rows none = {4, zeros, NULL, NULL, 0};
    valid[0] = 0;
    CHECK(pct_batch_rows(&spec, &none, 0, 2, 0, &out, SIZE_MAX, ends, valid, &status, &info, NULL) == 1);
    CHECK(status == PCT_ROW_MALFORMED && ends[0] == 9);
    /* CHECK's own loop: the same stops, a null row before them */
    static const uint8_t second_null[1] = {0xFD};
    spec.op = PCT_BATCH_CHECK;
    off[2] = 5;
    off[3] = 4;
    valid[0] = 0;
    CHECK(pct_batch_rows(&spec, &in, 0, 4, 0, &out, SIZE_MAX, ends, valid, &status, &info, NULL) == 2);
    CHECK(status == PCT_ROW_MALFORMED && ends[0] == -1 && ends[1] == 0 && valid[0] == 2);
    pct_rows some = {4, off, (const uint8_t *)data, second_null, 0};
    valid[0] = 0;
    CHECK(pct_batch_rows(&spec, &some, 0, 4, 0, &out, SIZE_MAX, ends, valid, &status, &info, NULL) == 2);
    CHECK(status == PCT_ROW_MALFORMED && ends[0] == -1 && ends[1] == -1 && valid[0] == 0);
    valid[0] = 0;
    CHECK(pct_batch_rows(&spec, &none, 0, 2, 0, &out, SIZE_MAX, ends, valid, &status, &info, NULL) == 1);
    CHECK(status == PCT_ROW_MALFORMED && ends[0] == -1 && valid[0] == 0);
    pct_buf_free(&out);
}

/* CHECK's runs: a column of thousands of rows (several runs of the
 * kernel's bits, rows across their ends, rows longer than a run, a null
 * row whose offsets go back) against the scalar check row by row, on every
 * kernel. */
static void test_check_runs(void)
{
    enum { N = 3000, SPAN = 1000000 }; /* SPAN: the text, less the trailing nulls' */
    static uint8_t data[SPAN];
    static int64_t off[N + 1];
    static uint8_t validity[N / 8 + 1], valid[N / 8 + 1];
    static int64_t ends[N];
    size_t at = 0;
    memset(validity, 0, sizeof validity);
    for (int j = 0; j < N; j++) {
        off[j] = (int64_t)at;
        if (rnd(20) != 0)
            validity[j >> 3] |= (uint8_t)(1u << (j & 7));
        size_t len = j % 500 == 7 ? 20000 + rnd(3000) : j % 5 == 0 ? 0 : rnd(300);
        for (size_t end = at + len; at < end;) {
            const char *part = rnd(3) ? &"abc/?=&"[rnd(7)] : PARTS[rnd(NPARTS)];
            size_t m = strlen(part) < end - at ? strlen(part) : end - at;
            memcpy(data + at, part, m);
            at += m;
        }
    }
    off[N] = (int64_t)at;
    off[1500] = off[1499] - 3; /* a null row may hold anything */
    validity[1499 >> 3] &= (uint8_t)~(1u << (1499 & 7));
    /* trailing nulls whose offsets go past the text: not read (the text is
     * copied to a block of its exact size for the sanitizers) */
    size_t text_len = (size_t)off[N - 4];
    uint8_t *text = malloc(text_len);
    memcpy(text, data, text_len);
    for (int j = N - 4; j < N; j++) {
        off[j + 1] = off[j] + 1000;
        validity[j >> 3] &= (uint8_t)~(1u << (j & 7));
    }
    pct_batch_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.op = PCT_BATCH_CHECK;
    pct_buf out;
    pct_buf_init(&out);
    int status;
    pct_batch_info info;
    for (size_t k = 0; pct_kernel_available(k); k++) {
        CHECK(pct_kernel_select(pct_kernel_available(k)) == 0);
        for (int width = 4; width <= 8; width += 4) {
            uint8_t offsets[8 * (N + 1)];
            for (int j = 0; j <= N; j++) {
                int32_t v = (int32_t)off[j];
                if (width == 4)
                    memcpy(offsets + 4 * j, &v, 4);
                else
                    memcpy(offsets + 8 * j, &off[j], 8);
            }
            pct_rows in = {width, offsets, text, validity, 0};
            memset(valid, 0, sizeof valid);
            CHECK(pct_batch_rows(&spec, &in, 0, N, 0, &out, SIZE_MAX, ends, valid, &status, &info, NULL) == N);
            CHECK(status == PCT_OK);
            for (int j = 0; j < N; j++) {
                int null = !bit(validity, j);
                size_t n = null ? 0 : (size_t)(off[j + 1] - off[j]);
                size_t want = null ? n : pct_scalar_uri_offence(text + off[j], n);
                CHECK(ends[j] == (want == n ? -1 : (int64_t)want));
                CHECK(bit(valid, j) == (want != n));
            }
        }
    }
    CHECK(pct_kernel_select(NULL) == 0);
    pct_buf_free(&out);
    free(text);
}

/* ---- the IDNA forms of hosts: pct_host_cache, and NORMALIZE rows whose
 * host form is in it written by the loop itself ----------------------- */
static void test_host_cache(void)
{
    pct_host_cache *cache = pct_host_cache_new();
    CHECK(cache != NULL);
    if (!cache)
        return;
    const uint8_t *form = NULL;
    size_t len = 0;
    CHECK(!pct_host_cache_get(cache, (const uint8_t *)"b\xC3\xBC" "cher.de", 10, &form, &len));
    pct_host_cache_put(cache, (const uint8_t *)"b\xC3\xBC" "cher.de", 10, (const uint8_t *)"xn--bcher-kva.de", 16);
    CHECK(pct_host_cache_get(cache, (const uint8_t *)"b\xC3\xBC" "cher.de", 10, &form, &len) && len == 16
          && memcmp(form, "xn--bcher-kva.de", 16) == 0);
    CHECK(!pct_host_cache_get(cache, (const uint8_t *)"b\xC3\xBC" "cher.d", 9, &form, &len));
    /* a failed form is kept as failed; a longer host is not kept */
    pct_host_cache_put(cache, (const uint8_t *)"\xE2\x98\x83", 3, NULL, 0);
    CHECK(pct_host_cache_get(cache, (const uint8_t *)"\xE2\x98\x83", 3, &form, &len) && form == NULL);
    uint8_t long_host[PCT_HOST_CACHED + 1];
    memset(long_host, 0xC3, sizeof long_host);
    pct_host_cache_put(cache, long_host, sizeof long_host, (const uint8_t *)"x", 1);
    CHECK(!pct_host_cache_get(cache, long_host, sizeof long_host, &form, &len));
    /* many hosts: each one found is its own (slots are shared, keys compared) */
    char host[32], want[40];
    for (int i = 0; i < 5000; i++) {
        int hn = snprintf(host, sizeof host, "h\xC3\xA9%d.example", i);
        int wn = snprintf(want, sizeof want, "xn--h-%d.example", i);
        pct_host_cache_put(cache, (const uint8_t *)host, (size_t)hn, (const uint8_t *)want, (size_t)wn);
    }
    int found = 0;
    for (int i = 0; i < 5000; i++) {
        int hn = snprintf(host, sizeof host, "h\xC3\xA9%d.example", i);
        int wn = snprintf(want, sizeof want, "xn--h-%d.example", i);
        if (pct_host_cache_get(cache, (const uint8_t *)host, (size_t)hn, &form, &len)) {
            CHECK(len == (size_t)wn && memcmp(form, want, len) == 0);
            found++;
        }
    }
    CHECK(found > 4900 && found <= 5000); /* 4,096 sets of 4: few sets overflow */
    /* past the cache's size every put evicts, and an evicted host's bytes
     * take the next host when long enough: each host found is still its
     * own, whatever the lengths before it in the slot */
    char big[300];
    for (int i = 0; i < 40000; i++) {
        int hn = snprintf(host, sizeof host, "e\xC3\xA9%d.example", i);
        int wn = snprintf(big, sizeof big, "%0*d", 1 + (i * 7919) % 250, i);
        pct_host_cache_put(cache, (const uint8_t *)host, (size_t)hn, (const uint8_t *)big, (size_t)wn);
    }
    found = 0;
    for (int i = 0; i < 40000; i++) {
        int hn = snprintf(host, sizeof host, "e\xC3\xA9%d.example", i);
        int wn = snprintf(big, sizeof big, "%0*d", 1 + (i * 7919) % 250, i);
        if (pct_host_cache_get(cache, (const uint8_t *)host, (size_t)hn, &form, &len)) {
            CHECK(form && len == (size_t)wn && memcmp(form, big, len) == 0);
            found++;
        }
    }
    CHECK(found > 12000 && found <= 16384);

    /* rows: a host that needs IDNA is mapped by the loop itself (and kept
     * in the cache), a host with no form stops the run */
    pct_host_cache_put(cache, (const uint8_t *)"b\xC3\xBC" "cher.de", 10, (const uint8_t *)"xn--bcher-kva.de", 16);
    static const char data[] = "HTTP://B\xC3\xBC" "cher.de/a/./b?q#f" "http://b\xC3\xBC" "cher.de:80/%7e"
                               "http://\xC3\xA9" "cole.fr/" "http://a\xEF\xBF\xBF.com/";
    int32_t off[5] = {0, 27, 51, 68, 84};
    pct_rows in = {4, off, (const uint8_t *)data, NULL, 0};
    pct_batch_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.op = PCT_BATCH_NORMALIZE;
    spec.flags = PCT_URI_NORMALIZE;
    pct_buf out;
    pct_buf_init(&out);
    int64_t ends[4];
    uint8_t valid[1] = {0};
    int status;
    pct_batch_info info;
    static const char written[] = "http://xn--bcher-kva.de/a/b?q#f" "http://xn--bcher-kva.de/~" "http://xn--cole-9oa.fr/";
    CHECK(pct_batch_rows(&spec, &in, 0, 4, 0, &out, SIZE_MAX, ends, valid, &status, &info, cache) == 3);
    CHECK(status == PCT_ROW_HOST && info.host.start == 7 && info.host.len == 8); /* U+FFFF: no form */
    CHECK(out.len == sizeof written - 1 && memcmp(out.data, written, out.len) == 0);
    CHECK(ends[0] == 31 && ends[1] == 31 + 25 && ends[2] == 31 + 25 + 23 && valid[0] == 7);
    CHECK(pct_host_cache_get(cache, (const uint8_t *)"\xC3\xA9" "cole.fr", 9, &form, &len) && len == 15
          && memcmp(form, "xn--cole-9oa.fr", 15) == 0);
    /* without the cache, a row whose host needs IDNA stops: the caller maps it */
    out.len = 0;
    CHECK(pct_batch_rows(&spec, &in, 0, 3, 0, &out, SIZE_MAX, ends, valid, &status, &info, NULL) == 0);
    CHECK(status == PCT_ROW_HOST && info.host.start == 7 && info.host.len == 10);
    CHECK(pct_batch_normalize_host(&spec, (const uint8_t *)data, 27, &info, (const uint8_t *)"xn--bcher-kva.de", 16,
                                   &out, SIZE_MAX) == PCT_OK);
    CHECK(out.len == 31 && memcmp(out.data, "http://xn--bcher-kva.de/a/b?q#f", 31) == 0);
    pct_buf_free(&out);
    pct_host_cache_free(cache);
}

/* A cache whose lookups keep missing sits out the next 1,024 (get finds
 * nothing, put keeps nothing), then looks again; a window that fails
 * again doubles the rest, one that finds its hosts ends the resting. */
static void test_host_cache_rests(void)
{
    pct_host_cache *cache = pct_host_cache_new();
    CHECK(cache != NULL);
    if (!cache)
        return;
    const uint8_t *form = NULL, *kept = (const uint8_t *)"k\xC3\xA9.de", *late = (const uint8_t *)"n\xC3\xA9.de";
    size_t len = 0;
    char host[32];
    pct_host_cache_put(cache, kept, 6, (const uint8_t *)"xn--k-9fa.de", 12);
    CHECK(pct_host_cache_get(cache, kept, 6, &form, &len));
    for (int i = 0; i < 255; i++) { /* the window's other lookups miss */
        int hn = snprintf(host, sizeof host, "m\xC3\xA9%d.de", i);
        CHECK(!pct_host_cache_get(cache, (const uint8_t *)host, (size_t)hn, &form, &len));
    }
    CHECK(!pct_host_cache_get(cache, kept, 6, &form, &len)); /* resting */
    pct_host_cache_put(cache, late, 6, (const uint8_t *)"x", 1);
    for (int i = 0; i < 1023; i++)
        CHECK(!pct_host_cache_get(cache, kept, 6, &form, &len));
    CHECK(pct_host_cache_get(cache, kept, 6, &form, &len) && len == 12); /* looking again */
    CHECK(!pct_host_cache_get(cache, late, 6, &form, &len));            /* not kept */
    for (int i = 0; i < 254; i++) { /* a second window that fails: a rest twice as long */
        int hn = snprintf(host, sizeof host, "o\xC3\xA9%d.de", i);
        CHECK(!pct_host_cache_get(cache, (const uint8_t *)host, (size_t)hn, &form, &len));
    }
    int rested = 0;
    while (rested < 5000 && !pct_host_cache_get(cache, kept, 6, &form, &len))
        rested++;
    CHECK(rested == 2048);
    /* a window that finds its hosts keeps the cache on */
    for (int i = 0; i < 1000; i++)
        CHECK(pct_host_cache_get(cache, kept, 6, &form, &len));
    pct_host_cache_free(cache);
}

int main(void)
{
    test_check_runs();
    srand(14);
    test_same_as_rows();
    test_stops();
    test_host_cache();
    test_host_cache_rests();
    printf("test_batch_rows: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
