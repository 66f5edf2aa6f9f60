/* Arrow I/O of the binding (src/_pctcodec_arrow.c): Arrow arrays and
 * streams handed in as capsules, checked and read in place (the reading of
 * a string column is the core's, src/core/pct_arrow.h), and result arrays
 * built from malloc'd buffers and handed out as capsules. The batch
 * engine, split_many and the query columns all come in and go out here. */
#ifndef PCTCODEC_ARROW_H
#define PCTCODEC_ARROW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_pctcodec.h"
#include "pct.h"
#include "pct_arrow.h"

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

/* The Arrow C stream interface, as specified at
 * https://arrow.apache.org/docs/format/CStreamInterface.html */
struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

/* ---- in -------------------------------------------------------------------- */

/* The structs of an Arrow array handed over as a (schema capsule, array
 * capsule) pair, with a tuple of its buffers' sizes as a third item when
 * pyarrow knows them (*sizes NULL otherwise): 0, or -1 with TypeError for
 * anything else and ValueError for a struct already released (moved into
 * a consumer, or released by its producer: release == NULL), which must
 * not be read. */
int arrow_import(PyObject *pair, const char *fname, struct ArrowSchema **schema,
                 struct ArrowArray **array, PyObject **sizes);

/* The stream of an "arrow_array_stream" capsule and the kind of its
 * strings: 0 with an error (TypeError for another type, ValueError for a
 * released stream, OSError for the stream's own). */
char arrow_stream_open(PyObject *capsule, const char *fname, struct ArrowArrayStream **stream);

/* The stream's next array into *array: 1, 0 at its end, -1 with OSError. */
int arrow_stream_next(struct ArrowArrayStream *stream, struct ArrowArray *array);

/* The kind of an Arrow string column ('u', 'U', 'v', 'n'); 0 with TypeError
 * (naming `fname`) for any other type. */
char schema_kind(const struct ArrowSchema *schema, const char *fname);

/* pct_arrow_init and pct_arrow_check (the GIL released for a long array):
 * 0, or -1 with ValueError for an array that breaks its layout, naming the
 * first bad row (base + its index, also the exception's `index`). `sizes`:
 * NULL, None, or a tuple of the byte sizes of the array's buffers (-1 for
 * one not known), as pyarrow knows them. */
int strings_init(pct_arrow_strings *a, char kind, const struct ArrowArray *array, PyObject *sizes,
                 int64_t base);

/* ---- out ------------------------------------------------------------------- */

/* A result is made of pieces, consecutive rows each written into a buffer
 * of its own; arrow_build puts them together as one array. */
typedef struct {
    int64_t rows;
    int64_t *ends;  /* per row: the end of its bytes in data; for 'l', its value (or NULL) */
    uint8_t *valid; /* per row one bit: not null */
    uint8_t *data;  /* malloc'd; arrow_build takes it (NULL after) */
    size_t len;
    void *offsets;  /* instead of ends (arrow_piece_alloc's): the rows in the layout of
                     * `kind` as Arrow reads it, rows + 1 offsets from 0 of
                     * arrow_offset_width(kind) bytes, or for 'l' the values */
    char kind;
} arrow_piece;

/* The bytes of an offset of kind: 8 for 'U' (and 'l''s values), else 4. */
size_t arrow_offset_width(char kind);

/* offsets (the first 0) and valid (zeroed) for `rows` rows of kind; data
 * empty. PCT_OK, or PCT_ERR_NO_MEMORY (then nothing to free). */
int arrow_piece_alloc(arrow_piece *pc, int64_t rows, char kind);

/* Frees what the piece still has (what arrow_build took is NULL). */
void arrow_piece_free(arrow_piece *pc);

/* Builds *out (released by its release callback) from the pieces in
 * order (a single piece's valid, its ends for 'l', and its offsets for 'u',
 * 'U' and 'l', are taken as they are, NULL after), of kind 'u', 'U', 'v'
 * (one variadic buffer per piece), 'n', or 'l' (int64 values). Takes
 * every piece's data, whatever the outcome. PCT_OK, PCT_ERR_NO_MEMORY, or
 * PCT_ERR_TOO_LARGE: offsets past 2^31 - 1 for 'u', a piece over that for
 * 'v'. */
int arrow_build(arrow_piece *pieces, int npieces, char kind, struct ArrowArray *out);

/* *out as an array of `length` rows (`nulls` of them null) over the nbuf
 * buffers bufs (malloc'd, NULL for an absent one), which it takes: its
 * release callback frees them. PCT_OK, or PCT_ERR_NO_MEMORY with the
 * buffers freed and *out released. The array type the builders make. */
int arrow_array_own(struct ArrowArray *out, int64_t length, int64_t nulls, int nbuf,
                    void *const *bufs);

/* A schema of that kind (static strings, no children). */
void arrow_schema_init(struct ArrowSchema *schema, char kind);

/* A result as a (schema capsule, array capsule) pair; both structs are
 * malloc'd and taken (released and freed by the capsules, or here when a
 * capsule cannot be made). */
PyObject *arrow_capsules(struct ArrowSchema *schema, struct ArrowArray *array);

/* (schema capsule, array capsule) of the pieces put together as one array
 * of `kind` (arrow_build's takings). OverflowError when it is too long for
 * its kind. */
PyObject *pieces_capsules(arrow_piece *parts, int n, char kind);

#endif /* PCTCODEC_ARROW_H */
