/* What the batch engine (src/_pctcodec_batch.c) lends to the other column
 * functions of the binding (src/_pctcodec_split.c): reading an Arrow string
 * column with Python's errors, and the capsules that hand results over. */
#ifndef PCTCODEC_BATCH_BINDING_H
#define PCTCODEC_BATCH_BINDING_H

#include "_pctcodec.h"
#include "_pctcodec_arrow.h"

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

/* A result as a (schema capsule, array capsule) pair; both structs are
 * malloc'd and taken (released and freed by the capsules, or here when a
 * capsule cannot be made). */
PyObject *arrow_capsules(struct ArrowSchema *schema, struct ArrowArray *array);

#endif /* PCTCODEC_BATCH_BINDING_H */
