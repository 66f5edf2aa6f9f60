/* C unit tests of src/core/pct_csv.c: records cut around one field, with
 * quotes, LF, CRLF and CR, blank lines, missing fields, ragged records,
 * stray quotes, multi-byte delimiters, data that ends inside a record (final
 * or not), an unclosed quote cut at its line's end, and line counts. Each input is
 * also cut from every shorter prefix of itself (not final): the answer is
 * then either the same record or "more data". */
#include <string.h>

#include "check.h"
#include "pct_csv.h"

static pct_csv_status cut(const char *s, size_t pos, const char *delim, size_t index, int final,
                          pct_csv_record *rec)
{
    return pct_csv_cut((const uint8_t *)s, strlen(s), pos, (const uint8_t *)delim, strlen(delim),
                       index, 0, final, rec);
}

/* The field `index` of the first record of s is `want`, the record ends at `end`. */
static void expect_field(const char *s, const char *delim, size_t index, const char *want,
                         size_t end)
{
    pct_csv_record rec;
    CHECK(cut(s, 0, delim, index, 1, &rec) == PCT_CSV_OK && rec.fields > index);
    CHECK(rec.field_end - rec.field_start == strlen(want));
    CHECK(memcmp(s + rec.field_start, want, strlen(want)) == 0);
    CHECK(rec.end == end);
    /* every prefix, not final: the same record, or more data */
    for (size_t n = 0; n < strlen(s); n++) {
        pct_csv_record r;
        pct_csv_status st = pct_csv_cut((const uint8_t *)s, n, 0, (const uint8_t *)delim,
                                        strlen(delim), index, 0, 0, &r);
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
    /* text after a closing quote: the field goes on to the next delimiter, its quotes text */
    expect_field("\"a\"b\"c,d\",e\n", ",", 0, "\"a\"b\"c", 12);
    expect_field("\"a\"b\"c,d\",e\n", ",", 1, "d\"", 12);
    expect_field("\"http://d/?q=3\"x\"y,3\nz,4\n", ",", 1, "3", 21);
    /* line ends: CR alone, CRLF as one, mixed */
    expect_field("a,b\rc,d\r", ",", 1, "b", 4);
    expect_field("a\r\nb\n", ",", 0, "a", 3);
    expect_field("a,\"x\ry\r\nz\",b\rq", ",", 2, "b", 13);
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

    CHECK(cut("\r\rx", 0, ",", 0, 1, &rec) == PCT_CSV_BLANK && rec.end == 1);
    CHECK(cut("a\r", 0, ",", 0, 0, &rec) == PCT_CSV_MORE); /* CR or CRLF: not known yet */
    CHECK(cut("a\r", 0, ",", 0, 1, &rec) == PCT_CSV_OK && rec.end == 2 && rec.content_end == 1);

    /* line ends counted, inside quotes too, CRLF once */
    CHECK(cut("a,\"x\ny\r\nz\rw\",b\r\nq", 0, ",", 0, 1, &rec) == PCT_CSV_OK && rec.lines == 4
          && rec.end == 16 && rec.content_end == 14);
    CHECK(cut("a,b", 0, ",", 0, 1, &rec) == PCT_CSV_OK && rec.lines == 0);

    /* a record without the field */
    CHECK(cut("a,b\nc\n", 0, ",", 2, 1, &rec) == PCT_CSV_MISSING && rec.fields == 2 && rec.end == 4);
    CHECK(cut("\"a,b\"\n", 0, ",", 1, 1, &rec) == PCT_CSV_MISSING && rec.fields == 1);

    /* a record without the expected field count, too few or too many */
    CHECK(pct_csv_cut((const uint8_t *)"a,b,c\nx", 8, 0, (const uint8_t *)",", 1, 0, 2, 1, &rec)
          == PCT_CSV_RAGGED && rec.fields == 3 && rec.end == 6 && rec.content_end == 5);
    CHECK(pct_csv_cut((const uint8_t *)"a\r\nx", 4, 0, (const uint8_t *)",", 1, 0, 2, 1, &rec)
          == PCT_CSV_RAGGED && rec.fields == 1 && rec.end == 3 && rec.content_end == 1);
    CHECK(pct_csv_cut((const uint8_t *)"a,b\n", 4, 0, (const uint8_t *)",", 1, 1, 2, 1, &rec)
          == PCT_CSV_OK && rec.field_start == 2);

    /* an unclosed quote: where it opens, the record cut at the end of its
     * line (the rest is read again as records); more data while not final */
    CHECK(cut("1,\"http://a/ b,t\n2,x\n", 0, ",", 1, 1, &rec) == PCT_CSV_UNCLOSED
          && rec.open_quote == 2 && rec.end == 17 && rec.content_end == 16 && rec.fields == 2
          && rec.lines == 1);
    CHECK(cut("1,\"http://a/ b,t\n2,x\n", 17, ",", 1, 1, &rec) == PCT_CSV_OK && rec.end == 21);
    CHECK(cut("1,\"http://a/ b,t\n2,x\n", 0, ",", 1, 0, &rec) == PCT_CSV_MORE);
    CHECK(cut("\"a\"\"", 0, ",", 0, 1, &rec) == PCT_CSV_UNCLOSED && rec.open_quote == 0
          && rec.end == 4 && rec.lines == 0);
    CHECK(cut("\"a\r\nb", 0, ",", 0, 1, &rec) == PCT_CSV_UNCLOSED && rec.end == 4
          && rec.content_end == 2);

    /* a field alone */
    {
        pct_csv_field_span f;
        CHECK(pct_csv_field((const uint8_t *)"\"x\"\"y\",z", 8, 0, (const uint8_t *)",", 1, 1, &f)
              == PCT_CSV_DELIMITER && f.end == 6 && f.next == 7 && !f.malformed && !f.unclosed);
        CHECK(pct_csv_field((const uint8_t *)"\"x\"y", 5, 0, (const uint8_t *)",", 1, 1, &f)
              == PCT_CSV_DATA_END && f.end == 5 && f.malformed);
        CHECK(pct_csv_field((const uint8_t *)"\"x\"", 3, 0, (const uint8_t *)",", 1, 0, &f)
              == PCT_CSV_FIELD_MORE); /* a closing quote or the first of two */
    }

    /* the end */
    CHECK(cut("a\n", 2, ",", 0, 1, &rec) == PCT_CSV_END);
    CHECK(cut("a\n", 2, ",", 0, 0, &rec) == PCT_CSV_MORE);
    CHECK(cut("", 0, ",", 0, 1, &rec) == PCT_CSV_END);

    printf("test_csv: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}
