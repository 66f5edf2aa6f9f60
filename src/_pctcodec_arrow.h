/* The Arrow C data interface and C stream interface (the structs as
 * specified at https://arrow.apache.org/docs/format/CDataInterface.html,
 * ABI-stable, written out here so that no Arrow library is needed), and
 * what the batch engine does with them (src/_pctcodec_arrow.c): read string
 * columns in place, build result arrays from malloc'd buffers.
 *
 * Plain C99 without Python.h, yet a part of the binding, hence its name: it
 * is how the extension exchanges columns with Arrow producers for
 * _pctcodec_batch.c, not percent-encoding, which is src/core's one job. */
#ifndef PCTCODEC_ARROW_H
#define PCTCODEC_ARROW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pct_batch.h"

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

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

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

/* ---- reading ------------------------------------------------------------
 * A string ("u"), large_string ("U"), string_view ("vu") or null ("n")
 * array, read where it lies. */
typedef struct {
    char kind;                  /* 'u', 'U', 'v' or 'n' */
    int64_t length, offset;
    const uint8_t *validity;    /* NULL: no nulls */
    const void *index;          /* int32 or int64 offsets, or 16-byte views */
    const uint8_t *const *data; /* the data buffer ('u', 'U') or the variadic buffers ('v') */
    int64_t ndata;
} arrow_strings;

/* The kind of a schema ('u', 'U', 'v', 'n'), or 0 for any other type
 * (dictionary-encoded and nested ones too). */
char arrow_string_kind(const struct ArrowSchema *schema);

/* -1 when the array's length, offset or buffers cannot be of its kind. */
int arrow_strings_init(arrow_strings *a, char kind, const struct ArrowArray *array);

/* Offset j of a 'u' or 'U' array. */
static inline int64_t arrow_offset(const arrow_strings *a, int64_t j)
{
    return pct_rows_offset(a->kind == 'u' ? 4 : 8, a->index, j);
}

/* Row i: 0 when null, 1 with its bytes in *p, *n, -1 when an offset or
 * view points outside what the array holds. */
static inline int arrow_strings_row(const arrow_strings *a, int64_t i, const uint8_t **p,
                                    size_t *n)
{
    static const uint8_t empty[1] = {0};
    int64_t j = a->offset + i;
    if (a->kind == 'n')
        return 0;
    if (a->validity && !((a->validity[j >> 3] >> (j & 7)) & 1))
        return 0;
    const uint8_t *base;
    int64_t start, end;
    if (a->kind == 'u' || a->kind == 'U') {
        start = arrow_offset(a, j);
        end = arrow_offset(a, j + 1);
        base = a->data[0];
    } else {
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
    if (start < 0 || end < start)
        return -1;
    *n = (size_t)(end - start);
    *p = base ? base + start : (end == start ? empty : NULL);
    return *p ? 1 : -1;
}

/* The data bytes of rows [start, start + rows) of a 'u' or 'U' array (their
 * offsets' span, 0 when it is not a sane one), 0 for other kinds: a size
 * hint for their results. */
static inline size_t arrow_strings_span(const arrow_strings *a, int64_t start, int64_t rows)
{
    int64_t j = a->offset + start, from, to;
    if (rows <= 0 || (a->kind != 'u' && a->kind != 'U'))
        return 0;
    from = arrow_offset(a, j);
    to = arrow_offset(a, j + rows);
    return from >= 0 && to >= from ? (size_t)(to - from) : 0;
}

/* ---- building -----------------------------------------------------------
 * A result is made of pieces, consecutive rows each written into a buffer
 * of its own; arrow_build puts them together as one array. */
typedef struct {
    int64_t rows;
    int64_t *ends;  /* per row: the end of its bytes in data; for 'l', its value */
    uint8_t *valid; /* per row one bit: not null */
    uint8_t *data;  /* malloc'd; arrow_build takes it (NULL after) */
    size_t len;
} arrow_piece;

enum { ARROW_OK = 0, ARROW_NO_MEMORY = 1, ARROW_TOO_LARGE = 2 };

/* Builds *out (released by its release callback) from the pieces in
 * order (a single piece's valid, and its ends for 'l', malloc'd, are taken
 * as they are, NULL after), of kind 'u', 'U', 'v' (one variadic buffer per piece), 'n', or
 * 'l' (int64 values). Takes every piece's data, whatever the outcome.
 * ARROW_TOO_LARGE: offsets past 2^31 - 1 for 'u', a piece over that for 'v'. */
int arrow_build(arrow_piece *pieces, int npieces, char kind, struct ArrowArray *out);

/* A schema of that kind (static strings, no children). */
void arrow_schema_init(struct ArrowSchema *schema, char kind);

#endif /* PCTCODEC_ARROW_H */
