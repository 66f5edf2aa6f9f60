/* pct_csv: cut one CSV/TSV record around one field, on bytes, in one pass.
 * Plain C99, no Python. The table mode of the command line (src/pctcodec/cli/_csv.py)
 * reads with it; the syntax (docs/csv.md has the table of input shapes):
 *
 * - a line ends at LF, CRLF or a lone CR (the terminator is not part of the
 *   last field); a record ends at a line end outside quotes or at the end of
 *   the data when it is final;
 * - a field that starts with '"' is quoted: it goes on, over delimiters and
 *   line ends, to the next quote that is not doubled ("" is one quote of the
 *   value). Text after that closing quote makes the field malformed: it then
 *   ends at the next delimiter or line end, its quotes being text;
 * - a quoted field that never closes (final data) is cut at the first line
 *   end after its opening quote: that record is PCT_CSV_UNCLOSED, and the
 *   next record starts on the next line, so one stray quote costs one line;
 * - a quote in a field that does not start with one is text;
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
    PCT_CSV_UNCLOSED = 3, /* final data: the record's quoted field opened at open_quote never
                             closes; the record is cut at the end of that line */
    PCT_CSV_MISSING = 4,  /* the record has `fields` fields, none at the index */
    PCT_CSV_END = 5,      /* final data, nothing left */
    PCT_CSV_RAGGED = 6    /* the record has `fields` fields, not the `expect` asked for */
} pct_csv_status;

typedef struct {
    size_t field_start, field_end; /* the field's raw bytes (OK; also RAGGED when it has it) */
    size_t content_end;            /* the end of the record's last field, before its terminator */
    size_t end;                    /* the record's end, its terminator included */
    size_t fields;                 /* the record's field count */
    size_t lines;                  /* line ends in the record, its terminator included */
    size_t open_quote;             /* PCT_CSV_UNCLOSED: where the quote opens */
} pct_csv_record;

/* How one field ends: see pct_csv_field. */
typedef enum {
    PCT_CSV_DELIMITER = 0, /* at a delimiter: the next field starts at `next` */
    PCT_CSV_LINE_END = 1,  /* at a line end: the next record starts at `next` */
    PCT_CSV_DATA_END = 2,  /* at the end of the final data */
    PCT_CSV_FIELD_MORE = 3 /* the field does not end in the data: read more */
} pct_csv_stop;

typedef struct {
    size_t start, end; /* the field's raw bytes */
    size_t next;       /* after the delimiter or terminator that ends it */
    size_t lines;      /* line ends inside the field (quoted) */
    int malformed;     /* text after the closing quote */
    int unclosed;      /* the quote never closes: cut at the first line end */
} pct_csv_field_span;

/* The field that starts at buf[pos] (pos <= n). `final`: no data follows
 * buf[0..n). delim[0..dlen) is the delimiter (at least one byte, none of
 * them '"', '\r' or '\n' first). */
pct_csv_stop pct_csv_field(const uint8_t *buf, size_t n, size_t pos, const uint8_t *delim,
                           size_t dlen, int final, pct_csv_field_span *f);

/* The record that starts at buf[pos] (pos <= n), cut around field `index`;
 * `expect`: the field count every record must have (0: any). */
pct_csv_status pct_csv_cut(const uint8_t *buf, size_t n, size_t pos, const uint8_t *delim,
                           size_t dlen, size_t index, size_t expect, int final,
                           pct_csv_record *rec);

#endif /* PCT_CSV_H */
