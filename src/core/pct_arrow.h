/* Arrow string columns read in place: the C data interface's structs, the
 * check of an array's layout before any of its bytes is read, and its rows.
 * Plain C99, no Python: what the binding's batch functions read comes
 * through here, and fuzz/fuzz_arrow.c runs it on arrays built from fuzz
 * input.
 *
 * An array comes from any producer (a file, another process, the C data
 * interface), so nothing in it is trusted: pct_arrow_init checks its shape
 * (length, offset, buffer count, the buffers it needs), pct_arrow_check every
 * offset and view against what the buffers hold, and only then are rows
 * read. The C data interface carries no buffer sizes but those of a
 * string_view's variadic buffers: the others are what the layout says they
 * hold (a bitmap of offset + length bits, offset + length + 1 offsets, data
 * up to the last offset), unless the caller knows their real sizes (a
 * pyarrow array's buffers do), which are then checked too. */
#ifndef PCT_ARROW_H
#define PCT_ARROW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pct_batch.h"

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

/* As specified at https://arrow.apache.org/docs/format/CDataInterface.html
 * (ABI-stable, written out here so that no Arrow library is needed). */
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

/* A string ("u"), large_string ("U"), string_view ("vu") or null ("n")
 * array whose layout pct_arrow_init checked. */
typedef struct {
    char kind;                  /* 'u', 'U', 'v' or 'n' */
    int64_t length, offset;
    const uint8_t *validity;    /* NULL: no nulls */
    const void *index;          /* int32 or int64 offsets, or 16-byte views */
    const uint8_t *const *data; /* the data buffer ('u', 'U') or the variadic buffers ('v') */
    int64_t ndata;
    const void *data_sizes;     /* 'v': the variadic buffers' sizes (int64, read unaligned) */
    const int64_t *sizes;       /* the buffers' sizes as the caller knows them (-1: not
                                 * known), or NULL; the caller's, kept while a is used */
    int64_t nsizes;
} pct_arrow_strings;

/* The kind of a schema ('u', 'U', 'v', 'n'), or 0 for any other type
 * (dictionary-encoded and nested ones too). */
char pct_arrow_kind(const struct ArrowSchema *schema);

/* What is wrong with an array: its shape (no row), or a row. */
typedef enum {
    PCT_ARROW_OK = 0,
    PCT_ARROW_BAD_SHAPE,      /* length, offset, null count or buffer count */
    PCT_ARROW_NO_BUFFER,      /* a buffer it needs is NULL */
    PCT_ARROW_SHORT_BUFFER,   /* the row's bit, offset or view lies past its buffer */
    PCT_ARROW_BAD_OFFSET,     /* an offset is negative or below the one before */
    PCT_ARROW_OFFSET_PAST,    /* an offset lies past the data buffer */
    PCT_ARROW_BAD_VIEW_LENGTH, /* a view's length is negative */
    PCT_ARROW_BAD_VIEW_BUFFER, /* a view names no variadic buffer */
    PCT_ARROW_VIEW_PAST       /* a view's bytes lie outside its buffer */
} pct_arrow_problem;

/* A sentence for a problem (a static string). */
const char *pct_arrow_problem_text(pct_arrow_problem problem);

/* Fills *a from array (of kind `kind`); `sizes` (may be NULL) are the byte
 * sizes of the array's first nsizes buffers as the caller knows them (-1
 * for one it does not). PCT_ARROW_OK, or what breaks the array's shape.
 * Reads no buffer but a string_view's variadic sizes. */
pct_arrow_problem pct_arrow_init(pct_arrow_strings *a, char kind, const struct ArrowArray *array,
                                 const int64_t *sizes, int64_t nsizes);

/* Checks every row of an initialised array: its validity bit and offsets
 * or view inside their buffers, offsets non-negative and never decreasing
 * (null rows included), every view of a row that is not null inside its
 * variadic buffer. PCT_ARROW_OK, or the problem of the first bad row (its
 * index in *row). One pass over the offsets or views. */
pct_arrow_problem pct_arrow_check(const pct_arrow_strings *a, int64_t *row);

/* Offset j of a 'u' or 'U' array. */
static inline int64_t pct_arrow_offset(const pct_arrow_strings *a, int64_t j)
{
    return pct_rows_offset(a->kind == 'u' ? 4 : 8, a->index, j);
}

/* Row i of a checked array: 0 when null, 1 with its bytes in *p, *n; -1
 * when an offset or view points outside what the array holds (which a
 * checked array never does: the test is kept for its cost of nothing). */
static inline int pct_arrow_row(const pct_arrow_strings *a, int64_t i, const uint8_t **p,
                                size_t *n)
{
    static const uint8_t empty[1] = {0};
    int64_t j = a->offset + i;
    if (a->kind == 'n')
        return 0;
    if (a->validity && !((a->validity[j >> 3] >> (j & 7)) & 1))
        return 0;
    if (a->kind == 'v') {
        const uint8_t *view = (const uint8_t *)a->index + 16 * j;
        int32_t len, buf, off;
        memcpy(&len, view, 4);
        if (len < 0)
            return -1;
        *n = (size_t)len;
        if (len <= 12) {
            *p = view + 4;
            return 1;
        }
        memcpy(&buf, view + 8, 4);
        memcpy(&off, view + 12, 4);
        if (buf < 0 || buf >= a->ndata || off < 0 || !a->data[buf])
            return -1;
        *p = a->data[buf] + off;
        return 1;
    }
    int64_t start = pct_arrow_offset(a, j), end = pct_arrow_offset(a, j + 1);
    const uint8_t *base = a->data ? a->data[0] : NULL; /* (no data buffer: every row empty) */
    if (start < 0 || end < start)
        return -1;
    *n = (size_t)(end - start);
    *p = base ? base + start : (end == start ? empty : NULL);
    return *p ? 1 : -1;
}

/* The data bytes of rows [start, start + rows) of a 'u' or 'U' array (their
 * offsets' span), 0 for other kinds: a size hint for their results. */
static inline size_t pct_arrow_span(const pct_arrow_strings *a, int64_t start, int64_t rows)
{
    int64_t j = a->offset + start, from, to;
    if (rows <= 0 || (a->kind != 'u' && a->kind != 'U'))
        return 0;
    from = pct_arrow_offset(a, j);
    to = pct_arrow_offset(a, j + rows);
    return from >= 0 && to >= from ? (size_t)(to - from) : 0;
}

#endif /* PCT_ARROW_H */
