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

/* arrow_strings_init, with ValueError for an array that breaks its layout. */
int strings_init(arrow_strings *a, char kind, const struct ArrowArray *array);

/* A result as a (schema capsule, array capsule) pair; both structs are
 * malloc'd and taken (released and freed by the capsules, or here when a
 * capsule cannot be made). */
PyObject *arrow_capsules(struct ArrowSchema *schema, struct ArrowArray *array);

#endif /* PCTCODEC_BATCH_BINDING_H */
