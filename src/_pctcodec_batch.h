/* What the batch engine (src/_pctcodec_batch.c) lends to the other column
 * functions of the binding (src/_pctcodec_split.c): reading an Arrow string
 * column with Python's errors, and the capsules that hand results over. */
#ifndef PCTCODEC_BATCH_BINDING_H
#define PCTCODEC_BATCH_BINDING_H

#include "_pctcodec.h"
#include "_pctcodec_arrow.h"
#include "pct_canon.h"

/* The kind of an Arrow string column ('u', 'U', 'v', 'n'); 0 with TypeError
 * (naming `fname`) for any other type. */
char schema_kind(const struct ArrowSchema *schema, const char *fname);

/* arrow_strings_init, with ValueError for an array that breaks its layout. */
int strings_init(arrow_strings *a, char kind, const struct ArrowArray *array);

/* A result as a (schema capsule, array capsule) pair; both structs are
 * malloc'd and taken (released and freed by the capsules, or here when a
 * capsule cannot be made). */
PyObject *arrow_capsules(struct ArrowSchema *schema, struct ArrowArray *array);

/* (schema capsule, array capsule) of the pieces put together as one array
 * of `kind` (arrow_build: their data is taken whatever the outcome; a
 * single piece's valid, and ends for 'l', too, NULL after). OverflowError
 * when it is too long for its kind. */
PyObject *pieces_capsules(arrow_piece *parts, int n, char kind);

/* canonicalize's filter and key options from its pattern sets (bytes, the
 * keep set may be None; they must outlive *c) and its packed options, as
 * src/pctcodec/query.py packs them. */
void batch_canon_init(pct_canon *c, PyObject *drop, PyObject *keep, long opts);

#endif /* PCTCODEC_BATCH_BINDING_H */
