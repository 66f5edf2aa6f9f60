/* pct_csv_cut against a reference written from the syntax of pct_csv.h (a
 * character loop with an in-quotes flag), on whole records: the same status,
 * field and end for every record of the input, with the input cut from the
 * start to the end; and every prefix of a record, not final, answering
 * "more data" or that same record.
 *
 * Input: [index byte][delimiter byte][body] (the delimiter one byte, or the
 * 2-byte "\xc2\xa7" when it is 0). */
#include "fuzz_common.h"
#include "pct_csv.h"

/* The reference: the same answer as pct_csv_cut, the slow way. */
static pct_csv_status ref_cut(const uint8_t *s, size_t n, size_t pos, const uint8_t *d, size_t dlen,
                              size_t index, pct_csv_record *rec)
{
    if (pos >= n)
        return PCT_CSV_END;
    size_t k = 0, start = pos, i = pos;
    int quoted = s[pos] == '"', inside = 0;
    for (;;) {
        if (i == n) {
            if (inside) {
                rec->open_quote = start;
                return PCT_CSV_UNCLOSED;
            }
            if (k == index) {
                rec->field_start = start;
                rec->field_end = n;
            }
            rec->end = n;
            k++;
            break;
        }
        uint8_t c = s[i];
        if (quoted && c == '"') {
            inside = !inside;
            i++;
            continue;
        }
        if (inside) {
            i++;
            continue;
        }
        if (c == '\n') {
            size_t fe = i > start && s[i - 1] == '\r' ? i - 1 : i;
            rec->end = i + 1;
            if (k == 0 && fe == start)
                return PCT_CSV_BLANK;
            if (k == index) {
                rec->field_start = start;
                rec->field_end = fe;
            }
            k++;
            break;
        }
        if (n - i >= dlen && memcmp(s + i, d, dlen) == 0) {
            if (k == index) {
                rec->field_start = start;
                rec->field_end = i;
            }
            k++;
            i += dlen;
            start = i;
            quoted = i < n && s[i] == '"';
            continue;
        }
        i++;
    }
    if (k <= index) {
        rec->fields = k;
        return PCT_CSV_MISSING;
    }
    return PCT_CSV_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    size_t index = take_byte(&in) % 4;
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
        pct_csv_status st = pct_csv_cut(s, n, pos, delim, dlen, index, 1, &got);
        pct_csv_status ref = ref_cut(s, n, pos, delim, dlen, index, &want);
        FUZZ_ASSERT(st == ref);
        if (st == PCT_CSV_END)
            break;
        if (st == PCT_CSV_UNCLOSED) {
            FUZZ_ASSERT(got.open_quote == want.open_quote);
            break;
        }
        FUZZ_ASSERT(got.end == want.end && got.end > pos && got.end <= n);
        if (st == PCT_CSV_MISSING)
            FUZZ_ASSERT(got.fields == want.fields);
        if (st == PCT_CSV_OK)
            FUZZ_ASSERT(got.field_start == want.field_start && got.field_end == want.field_end
                        && pos <= got.field_start && got.field_start <= got.field_end
                        && got.field_end <= got.end);
        /* a prefix of the data, not final: more data, or the same record */
        for (size_t cut = pos; cut < got.end; cut += 1 + (got.end - pos) / 8) {
            pct_csv_record part;
            pct_csv_status ps = pct_csv_cut(s, cut, pos, delim, dlen, index, 0, &part);
            FUZZ_ASSERT(ps == PCT_CSV_MORE || (ps == st && part.end == got.end));
        }
        pos = got.end;
    }
    free(s);
    return 0;
}
