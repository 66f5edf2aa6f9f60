/* C unit tests of pct_arrow_init and pct_arrow_check: the shape of an array
 * (length, offset, null count, buffer count, missing buffers) and each
 * problem of a row, named at its first bad row, for string, large_string
 * and string_view arrays, sliced and with nulls, with buffer sizes known or
 * not; valid arrays pass and read back. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pct_arrow.h"

#include "check.h"

static struct ArrowArray array_of(int64_t length, int64_t offset, int64_t null_count,
                                  int64_t n_buffers, const void **buffers)
{
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    a.length = length;
    a.offset = offset;
    a.null_count = null_count;
    a.n_buffers = n_buffers;
    a.buffers = buffers;
    return a;
}

/* The verdict of init then check, and the row in *row (-1: none). */
static pct_arrow_problem verdict(char kind, struct ArrowArray array, const int64_t *sizes,
                                 int64_t nsizes, int64_t *row)
{
    pct_arrow_strings s;
    *row = -1;
    pct_arrow_problem p = pct_arrow_init(&s, kind, &array, sizes, nsizes);
    if (p != PCT_ARROW_OK)
        return p;
    int64_t r;
    p = pct_arrow_check(&s, &r);
    if (p != PCT_ARROW_OK)
        *row = r;
    return p;
}

static void test_shape(void)
{
    int32_t offsets[3] = {0, 1, 2};
    const void *bufs[4] = {NULL, offsets, "ab", NULL};
    int64_t row;
    CHECK(verdict('u', array_of(2, 0, 0, 3, bufs), NULL, 0, &row) == PCT_ARROW_OK);
    CHECK(verdict('u', array_of(-1, 0, 0, 3, bufs), NULL, 0, &row) == PCT_ARROW_BAD_SHAPE);
    CHECK(verdict('u', array_of(2, -1, 0, 3, bufs), NULL, 0, &row) == PCT_ARROW_BAD_SHAPE);
    CHECK(verdict('u', array_of(INT64_MAX, INT64_MAX, 0, 3, bufs), NULL, 0, &row) == PCT_ARROW_BAD_SHAPE);
    CHECK(verdict('u', array_of(2, 0, -2, 3, bufs), NULL, 0, &row) == PCT_ARROW_BAD_SHAPE);
    CHECK(verdict('u', array_of(2, 0, 0, 2, bufs), NULL, 0, &row) == PCT_ARROW_BAD_SHAPE);
    CHECK(verdict('u', array_of(2, 0, 0, 4, bufs), NULL, 0, &row) == PCT_ARROW_BAD_SHAPE);
    CHECK(verdict('v', array_of(2, 0, 0, 2, bufs), NULL, 0, &row) == PCT_ARROW_BAD_SHAPE);
    CHECK(verdict('u', array_of(2, 0, 0, 3, NULL), NULL, 0, &row) == PCT_ARROW_NO_BUFFER);
    CHECK(verdict('u', array_of(2, 0, 1, 3, bufs), NULL, 0, &row) == PCT_ARROW_NO_BUFFER);
    const void *no_index[3] = {NULL, NULL, "ab"};
    CHECK(verdict('u', array_of(2, 0, 0, 3, no_index), NULL, 0, &row) == PCT_ARROW_NO_BUFFER);
    /* nothing is read of an empty array or a null one */
    CHECK(verdict('u', array_of(0, 0, 0, 3, no_index), NULL, 0, &row) == PCT_ARROW_OK);
    CHECK(verdict('n', array_of(5, 0, 5, 0, NULL), NULL, 0, &row) == PCT_ARROW_OK);
    for (int k = 0; k <= PCT_ARROW_VIEW_PAST; k++)
        CHECK(strlen(pct_arrow_problem_text((pct_arrow_problem)k)) > 5);
}

static void test_offsets(void)
{
    int64_t row;
    /* 32-bit: a decreasing offset at row 1; read from the array's offset */
    int32_t dec[4] = {0, 2, 1, 3};
    const void *b32[3] = {NULL, dec, "abc"};
    CHECK(verdict('u', array_of(3, 0, 0, 3, b32), NULL, 0, &row) == PCT_ARROW_BAD_OFFSET && row == 1);
    CHECK(verdict('u', array_of(2, 1, 0, 3, b32), NULL, 0, &row) == PCT_ARROW_BAD_OFFSET && row == 0);
    CHECK(verdict('u', array_of(1, 0, 0, 3, b32), NULL, 0, &row) == PCT_ARROW_OK);
    CHECK(verdict('u', array_of(1, 2, 0, 3, b32), NULL, 0, &row) == PCT_ARROW_OK);
    int32_t neg[2] = {-1, 1};
    const void *bneg[3] = {NULL, neg, "a"};
    CHECK(verdict('u', array_of(1, 0, 0, 3, bneg), NULL, 0, &row) == PCT_ARROW_BAD_OFFSET && row == 0);
    /* 64-bit, past the data when its size is known: the first row past it */
    int64_t big[5] = {0, 1, 2, 1000, 1001};
    const void *b64[3] = {NULL, big, "abc"};
    int64_t sizes[3] = {-1, 40, 3};
    CHECK(verdict('U', array_of(4, 0, 0, 3, b64), sizes, 3, &row) == PCT_ARROW_OFFSET_PAST && row == 2);
    CHECK(verdict('U', array_of(4, 0, 0, 3, b64), NULL, 0, &row) == PCT_ARROW_OK);
    /* a decreasing offset of a null row counts too */
    int32_t nul[4] = {0, 3, 1, 3};
    uint8_t validity = 0x5; /* row 1 null */
    const void *bnul[3] = {&validity, nul, "abc"};
    CHECK(verdict('u', array_of(3, 0, 1, 3, bnul), NULL, 0, &row) == PCT_ARROW_BAD_OFFSET && row == 1);
    /* no data buffer: rows must be empty */
    int32_t same[3] = {4, 4, 5};
    const void *bnone[3] = {NULL, same, NULL};
    CHECK(verdict('u', array_of(2, 0, 0, 3, bnone), NULL, 0, &row) == PCT_ARROW_NO_BUFFER && row == 1);
    CHECK(verdict('u', array_of(1, 0, 0, 3, bnone), NULL, 0, &row) == PCT_ARROW_OK);
    /* known sizes of the bitmap and the offsets: the first row past them */
    int32_t many[21];
    for (int i = 0; i <= 20; i++)
        many[i] = i;
    uint8_t bits[3] = {0xFF, 0xFF, 0xFF};
    const void *bmany[3] = {bits, many, "abcdefghijklmnopqrstu"};
    int64_t short_bits[3] = {1, 84, 21}, short_offsets[3] = {3, 44, 21}, none_fit[3] = {3, 2, 21};
    CHECK(verdict('u', array_of(20, 0, -1, 3, bmany), short_bits, 3, &row) == PCT_ARROW_SHORT_BUFFER && row == 8);
    CHECK(verdict('u', array_of(18, 2, -1, 3, bmany), short_bits, 3, &row) == PCT_ARROW_SHORT_BUFFER && row == 6);
    CHECK(verdict('u', array_of(20, 0, 0, 3, bmany), short_bits, 3, &row) == PCT_ARROW_OK); /* bitmap unused */
    CHECK(verdict('u', array_of(20, 0, -1, 3, bmany), short_offsets, 3, &row) == PCT_ARROW_SHORT_BUFFER && row == 10);
    CHECK(verdict('u', array_of(20, 0, -1, 3, bmany), none_fit, 3, &row) == PCT_ARROW_SHORT_BUFFER && row == 0);
    /* a long column: the bad row past the first blocks of the pass */
    static int32_t longcol[5001];
    for (int i = 0; i <= 5000; i++)
        longcol[i] = i;
    longcol[4001] = 7;
    static uint8_t text[5000];
    const void *blong[3] = {NULL, longcol, text};
    CHECK(verdict('u', array_of(5000, 0, 0, 3, blong), NULL, 0, &row) == PCT_ARROW_BAD_OFFSET && row == 4000);
}

/* A view: inline when len <= 12. */
static void put_view(uint8_t *v, int32_t len, int32_t buf, int32_t off)
{
    memset(v, 0, 16);
    memcpy(v, &len, 4);
    if (len > 12) {
        memcpy(v + 8, &buf, 4);
        memcpy(v + 12, &off, 4);
    }
}

static void test_views(void)
{
    int64_t row;
    uint8_t views[4 * 16];
    const char *data = "0123456789abcdefghijklmnopqrstuvwxyz0"; /* 35 bytes used */
    int64_t declared[1] = {35};
    const void *b[4] = {NULL, views, data, declared};
    put_view(views, 3, 0, 0);
    put_view(views + 16, 20, 0, 15);   /* ends at 35: inside */
    put_view(views + 32, 40, 0, 30);   /* 30 + 40 > 35 */
    put_view(views + 48, 13, 0, 0);
    CHECK(verdict('v', array_of(4, 0, 0, 4, b), NULL, 0, &row) == PCT_ARROW_VIEW_PAST && row == 2);
    CHECK(verdict('v', array_of(2, 0, 0, 4, b), NULL, 0, &row) == PCT_ARROW_OK);
    CHECK(verdict('v', array_of(1, 3, 0, 4, b), NULL, 0, &row) == PCT_ARROW_OK);
    /* a null row's view is not read */
    uint8_t validity = 0xB; /* row 2 null */
    const void *bn[4] = {&validity, views, data, declared};
    CHECK(verdict('v', array_of(4, 0, 1, 4, bn), NULL, 0, &row) == PCT_ARROW_OK);
    /* the largest offsets: no overflow of offset + length */
    put_view(views + 32, INT32_MAX, 0, INT32_MAX);
    CHECK(verdict('v', array_of(4, 0, 0, 4, b), NULL, 0, &row) == PCT_ARROW_VIEW_PAST && row == 2);
    put_view(views + 32, 20, 0, -1);
    CHECK(verdict('v', array_of(4, 0, 0, 4, b), NULL, 0, &row) == PCT_ARROW_VIEW_PAST && row == 2);
    put_view(views + 32, -3, 0, 0);
    CHECK(verdict('v', array_of(4, 0, 0, 4, b), NULL, 0, &row) == PCT_ARROW_BAD_VIEW_LENGTH && row == 2);
    put_view(views + 32, 20, 1, 0);
    CHECK(verdict('v', array_of(4, 0, 0, 4, b), NULL, 0, &row) == PCT_ARROW_BAD_VIEW_BUFFER && row == 2);
    put_view(views + 32, 20, -1, 0);
    CHECK(verdict('v', array_of(4, 0, 0, 4, b), NULL, 0, &row) == PCT_ARROW_BAD_VIEW_BUFFER && row == 2);
    /* a declared size that lies: the known one wins */
    put_view(views + 32, 13, 0, 0);
    int64_t sizes[3] = {-1, 64, 20};
    CHECK(verdict('v', array_of(4, 0, 0, 4, b), sizes, 3, &row) == PCT_ARROW_VIEW_PAST && row == 1);
    int64_t short_views[3] = {-1, 40, 35};
    CHECK(verdict('v', array_of(4, 0, 0, 4, b), short_views, 3, &row) == PCT_ARROW_SHORT_BUFFER && row == 2);
    /* read back */
    pct_arrow_strings s;
    struct ArrowArray a = array_of(4, 0, 0, 4, b);
    CHECK(pct_arrow_init(&s, 'v', &a, NULL, 0) == PCT_ARROW_OK && pct_arrow_check(&s, &row) == PCT_ARROW_OK);
    const uint8_t *p;
    size_t n;
    CHECK(pct_arrow_row(&s, 1, &p, &n) == 1 && n == 20 && memcmp(p, data + 15, 20) == 0);
    CHECK(pct_arrow_row(&s, 0, &p, &n) == 1 && n == 3);
}

int main(void)
{
    test_shape();
    test_offsets();
    test_views();
    printf("test_arrow: %ld checks, %ld failures\n", checks, failures);
    return failures != 0;
}
