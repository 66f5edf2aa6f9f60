/* Cutting a CSV record around one field: see pct_csv.h. Each byte of the
 * record is looked at once (memchr for the quotes inside a quoted field). */
#include <string.h>

#include "pct_csv.h"

/* The first of delimiter, LF or (when `quote`) '"' at or after i; n if none. */
static size_t next_stop(const uint8_t *buf, size_t n, size_t i, const uint8_t *delim, size_t dlen,
                        int quote)
{
    uint8_t d0 = delim[0];
    for (; i < n; i++) {
        uint8_t c = buf[i];
        if (c == '\n' || (quote && c == '"'))
            return i;
        if (c == d0 && (dlen == 1 || (dlen <= n - i && memcmp(buf + i, delim, dlen) == 0)))
            return i;
    }
    return n;
}

pct_csv_status pct_csv_cut(const uint8_t *buf, size_t n, size_t pos, const uint8_t *delim,
                           size_t dlen, size_t index, int final, pct_csv_record *rec)
{
    if (pos >= n)
        return final ? PCT_CSV_END : PCT_CSV_MORE;
    size_t i = pos, k = 0;
    for (;;) {
        size_t start = i, stop;
        if (i < n && buf[i] == '"') {
            size_t j = i + 1;
            for (;;) {
                const uint8_t *q = j < n ? memchr(buf + j, '"', n - j) : NULL;
                if (!q) {
                    rec->open_quote = i;
                    return final ? PCT_CSV_UNCLOSED : PCT_CSV_MORE;
                }
                stop = next_stop(buf, n, (size_t)(q - buf) + 1, delim, dlen, 1);
                if (stop == n || buf[stop] != '"')
                    break;
                j = stop + 1; /* a quote opens again */
            }
        } else {
            stop = next_stop(buf, n, i, delim, dlen, 0);
        }
        if (stop == n) { /* the data ends inside the record */
            if (!final)
                return PCT_CSV_MORE;
            if (k == index) {
                rec->field_start = start;
                rec->field_end = n;
            }
            rec->end = n;
            k++;
            break;
        }
        if (buf[stop] != '\n') { /* a delimiter */
            if (k == index) {
                rec->field_start = start;
                rec->field_end = stop;
            }
            k++;
            i = stop + dlen;
            continue;
        }
        size_t field_end = stop > start && buf[stop - 1] == '\r' ? stop - 1 : stop;
        rec->end = stop + 1;
        if (k == 0 && field_end == start)
            return PCT_CSV_BLANK;
        if (k == index) {
            rec->field_start = start;
            rec->field_end = field_end;
        }
        k++;
        break;
    }
    if (k <= index) {
        rec->fields = k;
        return PCT_CSV_MISSING;
    }
    return PCT_CSV_OK;
}
