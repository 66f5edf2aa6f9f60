/* pct_csv_cut against a reference written from the syntax of pct_csv.h (a
 * byte loop with a state per field), on whole records: the same status,
 * field, ends, field count and line count for every record of the input, with
 * the input cut from the start to the end; and every prefix of a record, not
 * final, answering "more data" or that same record.
 *
 * Input: [index byte][expect byte][delimiter byte][body] (the delimiter one
 * byte, or the 2-byte "\xc2\xa7" when it is 0; expect 0 to 3, 0 for any). */
#include "fuzz_common.h"
#include "pct_csv.h"

/* The length of the line end at s[i] (LF, CRLF, CR), 0 if none. */
static size_t eol(const uint8_t *s, size_t n, size_t i)
{
    if (s[i] == '\n')
        return 1;
    if (s[i] == '\r')
        return i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
    return 0;
}

/* The reference: the same answer as pct_csv_cut on final data, the slow way. */
static pct_csv_status ref_cut(const uint8_t *s, size_t n, size_t pos, const uint8_t *d, size_t dlen,
                              size_t index, size_t expect, pct_csv_record *rec)
{
    if (pos >= n)
        return PCT_CSV_END;
    enum { START, QUOTED, CLOSED, TEXT } state = START;
    size_t k = 0, start = pos, i = pos, lines = 0, field_lines = 0, term = 0;
    int unclosed = 0;
    for (;;) {
        if (i == n && state == QUOTED) { /* never closed: back to the first line end after it */
            unclosed = 1;
            rec->open_quote = start;
            i = start + 1;
            while (i < n && !eol(s, n, i))
                i++;
            field_lines = 0;
            state = TEXT;
            continue;
        }
        if (state == QUOTED) {
            if (s[i] == '"') {
                if (i + 1 < n && s[i + 1] == '"')
                    i += 2;
                else {
                    state = CLOSED;
                    i++;
                }
                continue;
            }
            field_lines += s[i] == '\n' || (s[i] == '\r' && (i + 1 == n || s[i + 1] != '\n'));
            i++;
            continue;
        }
        if (state == START && i < n && s[i] == '"') {
            state = QUOTED;
            i++;
            continue;
        }
        /* START, CLOSED or TEXT: the field ends at a delimiter, a line end or the end */
        int at_delim = i < n && n - i >= dlen && memcmp(s + i, d, dlen) == 0;
        term = i < n ? eol(s, n, i) : 0;
        if (i < n && !at_delim && !term) {
            state = TEXT; /* after a closing quote: a malformed field, quotes as text */
            i++;
            continue;
        }
        if (k == index) {
            rec->field_start = start;
            rec->field_end = i;
        }
        k++;
        lines += field_lines;
        field_lines = 0;
        if (at_delim && !term) {
            i += dlen;
            start = i;
            state = START;
            continue;
        }
        rec->content_end = i;
        rec->end = i + term;
        rec->lines = lines + (term != 0);
        rec->fields = k;
        if (k == 1 && start == i && term)
            return PCT_CSV_BLANK;
        break;
    }
    if (unclosed)
        return PCT_CSV_UNCLOSED;
    if (expect && k != expect)
        return PCT_CSV_RAGGED;
    return k <= index ? PCT_CSV_MISSING : PCT_CSV_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    size_t index = take_byte(&in) % 4;
    size_t expect = take_byte(&in) % 4;
    uint8_t d1 = take_byte(&in);
    static const uint8_t section[2] = {0xc2, 0xa7};
    uint8_t one = d1 == '"' || d1 == '\r' || d1 == '\n' || d1 == 0 ? ',' : d1;
    const uint8_t *delim = d1 == 0 ? section : &one;
    size_t dlen = d1 == 0 ? 2 : 1;
    uint8_t *s = dup_exact(in.data, in.size);
    size_t n = in.size, pos = 0;
    for (;;) {
        pct_csv_record got, want;
        memset(&got, 0, sizeof got);
        memset(&want, 0, sizeof want);
        pct_csv_status st = pct_csv_cut(s, n, pos, delim, dlen, index, expect, 1, &got);
        pct_csv_status ref = ref_cut(s, n, pos, delim, dlen, index, expect, &want);
        FUZZ_ASSERT(st == ref);
        if (st == PCT_CSV_END)
            break;
        if (st == PCT_CSV_UNCLOSED)
            FUZZ_ASSERT(got.open_quote == want.open_quote);
        FUZZ_ASSERT(got.end == want.end && got.end > pos && got.end <= n
                    && got.content_end == want.content_end && got.lines == want.lines);
        if (st != PCT_CSV_BLANK)
            FUZZ_ASSERT(got.fields == want.fields);
        if (st == PCT_CSV_OK)
            FUZZ_ASSERT(got.field_start == want.field_start && got.field_end == want.field_end
                        && pos <= got.field_start && got.field_start <= got.field_end
                        && got.field_end <= got.end);
        /* a prefix of the data, not final: more data, or the same record */
        for (size_t cut = pos; cut < got.end; cut += 1 + (got.end - pos) / 8) {
            pct_csv_record part;
            pct_csv_status ps = pct_csv_cut(s, cut, pos, delim, dlen, index, expect, 0, &part);
            FUZZ_ASSERT(ps == PCT_CSV_MORE || (ps == st && part.end == got.end));
        }
        pos = got.end;
    }
    free(s);
    return 0;
}
