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

/* The structs of an Arrow array handed over as a (schema capsule, array
 * capsule) pair, with a tuple of its buffers' sizes as a third item when
 * pyarrow knows them (*sizes NULL otherwise): 0, or -1 with TypeError for
 * anything else and ValueError for a struct already released (moved into
 * a consumer, or released by its producer: release == NULL), which must
 * not be read. The one place Arrow input comes in. */
int arrow_import(PyObject *pair, const char *fname, struct ArrowSchema **schema,
                 struct ArrowArray **array, PyObject **sizes);

/* pct_arrow_init and pct_arrow_check (the GIL released for a long array):
 * 0, or -1 with ValueError for an array that breaks its layout, naming the
 * first bad row (base + its index, also the exception's `index`). `sizes`:
 * NULL, None, or a tuple of the byte sizes of the array's buffers (-1 for
 * one not known), as pyarrow knows them. */
int strings_init(pct_arrow_strings *a, char kind, const struct ArrowArray *array, PyObject *sizes,
                 int64_t base);

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
