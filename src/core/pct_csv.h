/* pct_csv: cut one CSV/TSV record around one field, on bytes, in one pass.
 * Plain C99, no Python. The table mode of the command line (src/pctcodec/cli/_csv.py)
 * reads with it; the syntax is the one documented there:
 *
 * - a field that starts with '"' is quoted: quotes toggle "inside" until a
 *   delimiter or LF found outside (a doubled quote is two toggles); a quote
 *   in a field that does not start with one is text;
 * - a record ends at LF outside quotes (CRLF: the CR is the terminator's, not
 *   the last field's) or at the end of the data when it is final;
 * - a record that is one empty field and a terminator is a blank line.
 */
#ifndef PCT_CSV_H
#define PCT_CSV_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    PCT_CSV_OK = 0,       /* a record with the field: see pct_csv_record */
    PCT_CSV_BLANK = 1,    /* a blank line, ending at `end` */
    PCT_CSV_MORE = 2,     /* the record does not end in the data: read more */
    PCT_CSV_UNCLOSED = 3, /* final data: the quoted field opened at open_quote never closes */
    PCT_CSV_MISSING = 4,  /* the record ends at `end` with `fields` fields, none at the index */
    PCT_CSV_END = 5       /* final data, nothing left */
} pct_csv_status;

typedef struct {
    size_t field_start, field_end; /* the field's raw bytes */
    size_t end;                    /* the record's end, its terminator included */
    size_t fields;                 /* PCT_CSV_MISSING: the record's field count */
    size_t open_quote;             /* PCT_CSV_UNCLOSED: where the quote opens */
} pct_csv_record;

/* The record that starts at buf[pos] (pos <= n), cut around field `index`;
 * `final`: no data follows buf[0..n). delim[0..dlen) is the delimiter (at
 * least one byte, none of them '"', '\r' or '\n' first). */
pct_csv_status pct_csv_cut(const uint8_t *buf, size_t n, size_t pos, const uint8_t *delim,
                           size_t dlen, size_t index, int final, pct_csv_record *rec);

#endif /* PCT_CSV_H */
