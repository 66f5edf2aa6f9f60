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

/* Destructors of the "arrow_schema" and "arrow_array" capsules of a result:
 * they release the struct (when the consumer has not moved it) and free it. */
void schema_capsule_free(PyObject *capsule);
void array_capsule_free(PyObject *capsule);

#endif /* PCTCODEC_BATCH_BINDING_H */
