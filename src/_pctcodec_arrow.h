/* The Arrow C stream interface (the struct as specified at
 * https://arrow.apache.org/docs/format/CStreamInterface.html) and the
 * building of result arrays from malloc'd buffers (src/_pctcodec_arrow.c);
 * the C data interface's structs and the reading of string columns, their
 * layout checked first, are the core's (src/core/pct_arrow.h).
 *
 * Plain C99 without Python.h, yet a part of the binding, hence its name: it
 * is how the extension hands columns to Arrow consumers for
 * _pctcodec_batch.c, not percent-encoding, which is src/core's one job. */
#ifndef PCTCODEC_ARROW_H
#define PCTCODEC_ARROW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pct.h"
#include "pct_arrow.h"

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

/* Builds *out (released by its release callback) from the pieces in
 * order (a single piece's valid, and its ends for 'l', malloc'd, are taken
 * as they are, NULL after), of kind 'u', 'U', 'v' (one variadic buffer per piece), 'n', or
 * 'l' (int64 values). Takes every piece's data, whatever the outcome.
 * PCT_OK, PCT_ERR_NO_MEMORY, or PCT_ERR_TOO_LARGE: offsets past 2^31 - 1 for 'u', a piece over that for 'v'. */
int arrow_build(arrow_piece *pieces, int npieces, char kind, struct ArrowArray *out);

/* A schema of that kind (static strings, no children). */
void arrow_schema_init(struct ArrowSchema *schema, char kind);

#endif /* PCTCODEC_ARROW_H */
