/* Cutting a CSV record around one field: see pct_csv.h. Each byte of a
 * record is looked at a bounded number of times (memchr for the quotes
 * inside a quoted field, then a count of its line ends). */
#include <string.h>

#include "pct_csv.h"

/* The first of delimiter, CR or LF at or after i; n if none. */
static size_t next_stop(const uint8_t *buf, size_t n, size_t i, const uint8_t *delim, size_t dlen)
{
    uint8_t d0 = delim[0];
    for (; i < n; i++) {
        uint8_t c = buf[i];
        if (c == '\n' || c == '\r')
            return i;
        if (c == d0 && (dlen == 1 || (dlen <= n - i && memcmp(buf + i, delim, dlen) == 0)))
            return i;
    }
    return n;
}

/* The first CR or LF at or after i; n if none. */
static size_t next_line_end(const uint8_t *buf, size_t n, size_t i)
{
    for (; i < n; i++)
        if (buf[i] == '\n' || buf[i] == '\r')
            return i;
    return n;
}

/* Line ends in buf[from..to) (a CRLF once), buf[to] being no LF. */
static size_t line_ends(const uint8_t *buf, size_t from, size_t to)
{
    size_t k = 0;
    for (size_t i = from; i < to; i++)
        k += buf[i] == '\n' || (buf[i] == '\r' && (i + 1 == to || buf[i + 1] != '\n'));
    return k;
}

pct_csv_stop pct_csv_field(const uint8_t *buf, size_t n, size_t pos, const uint8_t *delim,
                           size_t dlen, int final, pct_csv_field_span *f)
{
    size_t stop;
    f->start = pos;
    f->lines = 0;
    f->malformed = f->unclosed = 0;
    if (pos < n && buf[pos] == '"') {
        size_t j = pos + 1;
        for (;;) {
            const uint8_t *q = j < n ? memchr(buf + j, '"', n - j) : NULL;
            if (!q) {
                if (!final)
                    return PCT_CSV_FIELD_MORE;
                /* never closed: the field ends at the first line end after its quote */
                f->unclosed = 1;
                f->lines = 0;
                stop = next_line_end(buf, n, pos + 1);
                break;
            }
            size_t at = (size_t)(q - buf);
            f->lines += line_ends(buf, j, at);
            if (at + 1 == n && !final)
                return PCT_CSV_FIELD_MORE; /* a closing quote or the first of two */
            if (at + 1 < n && buf[at + 1] == '"') {
                j = at + 2; /* a doubled quote: one quote of the value */
                continue;
            }
            stop = next_stop(buf, n, at + 1, delim, dlen);
            f->malformed = stop != at + 1; /* text after the closing quote, to the field's end */
            break;
        }
    } else {
        stop = next_stop(buf, n, pos, delim, dlen);
    }
    f->end = stop;
    if (stop == n) {
        if (!final)
            return PCT_CSV_FIELD_MORE;
        f->next = n;
        return PCT_CSV_DATA_END;
    }
    if (buf[stop] == '\n') {
        f->next = stop + 1;
        return PCT_CSV_LINE_END;
    }
    if (buf[stop] == '\r') {
        if (stop + 1 == n && !final)
            return PCT_CSV_FIELD_MORE; /* CR or CRLF */
        f->next = stop + 1 < n && buf[stop + 1] == '\n' ? stop + 2 : stop + 1;
        return PCT_CSV_LINE_END;
    }
    f->next = stop + dlen;
    return PCT_CSV_DELIMITER;
}

pct_csv_status pct_csv_cut(const uint8_t *buf, size_t n, size_t pos, const uint8_t *delim,
                           size_t dlen, size_t index, size_t expect, int final,
                           pct_csv_record *rec)
{
    if (pos >= n)
        return final ? PCT_CSV_END : PCT_CSV_MORE;
    size_t i = pos, k = 0, lines = 0;
    int unclosed = 0;
    pct_csv_field_span f;
    pct_csv_stop stop;
    for (;;) {
        stop = pct_csv_field(buf, n, i, delim, dlen, final, &f);
        if (stop == PCT_CSV_FIELD_MORE)
            return PCT_CSV_MORE;
        if (f.unclosed) {
            unclosed = 1;
            rec->open_quote = i;
        }
        lines += f.lines;
        if (k == index) {
            rec->field_start = f.start;
            rec->field_end = f.end;
        }
        k++;
        if (stop != PCT_CSV_DELIMITER)
            break;
        i = f.next;
    }
    rec->content_end = f.end;
    rec->end = f.next;
    rec->lines = lines + (stop == PCT_CSV_LINE_END);
    rec->fields = k;
    if (k == 1 && f.end == f.start && stop == PCT_CSV_LINE_END)
        return PCT_CSV_BLANK;
    if (unclosed)
        return PCT_CSV_UNCLOSED;
    if (expect && k != expect)
        return PCT_CSV_RAGGED;
    return k <= index ? PCT_CSV_MISSING : PCT_CSV_OK;
}
