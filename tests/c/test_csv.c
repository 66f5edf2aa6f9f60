/* C unit tests of src/core/pct_csv.c: records cut around one field, with
 * quotes, CRLF, blank lines, missing fields, multi-byte delimiters, data that
 * ends inside a record (final or not) and an unclosed quote. Each input is
 * also cut from every shorter prefix of itself (not final): the answer is
 * then either the same record or "more data". */
#include <string.h>

#include "check.h"
#include "pct_csv.h"

static pct_csv_status cut(const char *s, size_t pos, const char *delim, size_t index, int final,
                          pct_csv_record *rec)
{
    return pct_csv_cut((const uint8_t *)s, strlen(s), pos, (const uint8_t *)delim, strlen(delim),
                       index, final, rec);
}

/* The field `index` of the first record of s is `want`, the record ends at `end`. */
static void expect_field(const char *s, const char *delim, size_t index, const char *want,
                         size_t end)
{
    pct_csv_record rec;
    CHECK(cut(s, 0, delim, index, 1, &rec) == PCT_CSV_OK);
    CHECK(rec.field_end - rec.field_start == strlen(want));
    CHECK(memcmp(s + rec.field_start, want, strlen(want)) == 0);
    CHECK(rec.end == end);
    /* every prefix, not final: the same record, or more data */
    for (size_t n = 0; n < strlen(s); n++) {
        pct_csv_record r;
        pct_csv_status st = pct_csv_cut((const uint8_t *)s, n, 0, (const uint8_t *)delim,
                                        strlen(delim), index, 0, &r);
        CHECK(st == PCT_CSV_MORE || (st == PCT_CSV_OK && r.end == rec.end
                                      && r.field_start == rec.field_start
                                      && r.field_end == rec.field_end));
    }
}

int main(void)
{
    pct_csv_record rec;
    expect_field("a,b,c\n", ",", 1, "b", 6);
    expect_field("a,b,c\r\nx", ",", 2, "c", 7);           /* CR is the terminator's */
    expect_field("a,\"b,\nc\",d\n", ",", 1, "\"b,\nc\"", 11); /* quoted: over , and LF */
    expect_field("\"x \"\"y\"\"\",z\n", ",", 0, "\"x \"\"y\"\"\"", 12);
    expect_field("ab\"c,d\n", ",", 0, "ab\"c", 7);        /* a quote in an unquoted field: text */
    expect_field("\"a\"b\"c,d\",e\n", ",", 0, "\"a\"b\"c,d\"", 12); /* quotes toggle */
    expect_field("a\xc2\xa7" "b\xc2\xa7" "c\n", "\xc2\xa7", 2, "c", 8); /* a 2-byte delimiter */
    expect_field("a\tb\n", "\t", 1, "b", 4);
    expect_field("a,\n", ",", 1, "", 3);                  /* an empty last field */

    /* the last record without a terminator: final only */
    CHECK(cut("a,b", 0, ",", 1, 1, &rec) == PCT_CSV_OK && rec.end == 3 && rec.field_start == 2);
    CHECK(cut("a,b", 0, ",", 1, 0, &rec) == PCT_CSV_MORE);

    /* blank lines, LF and CRLF */
    CHECK(cut("\nx", 0, ",", 0, 1, &rec) == PCT_CSV_BLANK && rec.end == 1);
    CHECK(cut("\r\nx", 0, ",", 3, 1, &rec) == PCT_CSV_BLANK && rec.end == 2);
    CHECK(cut("x\n\r\n", 2, ",", 0, 1, &rec) == PCT_CSV_BLANK && rec.end == 4);

    /* a record without the field */
    CHECK(cut("a,b\nc\n", 0, ",", 2, 1, &rec) == PCT_CSV_MISSING && rec.fields == 2 && rec.end == 4);
    CHECK(cut("\"a,b\"\n", 0, ",", 1, 1, &rec) == PCT_CSV_MISSING && rec.fields == 1);

    /* an unclosed quote: where it opens; more data while not final */
    CHECK(cut("1,\"http://a/ b,t\n2,x\n", 0, ",", 1, 1, &rec) == PCT_CSV_UNCLOSED
          && rec.open_quote == 2);
    CHECK(cut("1,\"http://a/ b,t\n2,x\n", 0, ",", 1, 0, &rec) == PCT_CSV_MORE);
    CHECK(cut("\"a\"\"", 0, ",", 0, 1, &rec) == PCT_CSV_UNCLOSED && rec.open_quote == 0);

    /* the end */
    CHECK(cut("a\n", 2, ",", 0, 1, &rec) == PCT_CSV_END);
    CHECK(cut("a\n", 2, ",", 0, 0, &rec) == PCT_CSV_MORE);
    CHECK(cut("", 0, ",", 0, 1, &rec) == PCT_CSV_END);

    printf("test_csv: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}
