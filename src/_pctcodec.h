/* What the parts of the CPython binding share: src/_pctcodec.c (the
 * urllib.parse-compatible functions, module init), src/_pctcodec_uri.c
 * (the RFC 3986 functions) and src/_pctcodec_ecma.c (the ECMAScript codecs,
 * uri_to_iri). */
#ifndef PCTCODEC_BINDING_H
#define PCTCODEC_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "pct.h"

#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *Py_NewRef(PyObject *o)
{
    Py_INCREF(o);
    return o;
}
#endif

/* The raised exception as one object (3.12 API), for older versions too. */
#if PY_VERSION_HEX >= 0x030C0000
#define PyErr_GetRaisedException_compat PyErr_GetRaisedException
#define PyErr_SetRaisedException_compat PyErr_SetRaisedException
#else
static inline PyObject *PyErr_GetRaisedException_compat(void)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (!type)
        return NULL;
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb)
        PyException_SetTraceback(value, tb);
    Py_DECREF(type);
    Py_XDECREF(tb);
    return value;
}

static inline void PyErr_SetRaisedException_compat(PyObject *exc)
{
    PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(exc)), exc, PyException_GetTraceback(exc));
}
#endif

/* ---------------------------------------------------------------------------
 * Threads.
 *
 * The module declares Py_mod_gil = Py_MOD_GIL_NOT_USED: on a free-threaded
 * build (3.13t) its functions run in parallel, so
 *
 * - every cache is guarded: the `last_safe` cache and the lazily imported
 *   urllib.parse in the module state by CACHE_LOCK (a PyMutex there, nothing
 *   on a GIL build); the package attributes of _pctcodec_uri.c are read with
 *   PyDict_GetItemStringRef (a strong reference, never a borrowed one another
 *   thread could drop); pctcodec._idna's functools.lru_cache locks itself.
 *   Nothing else is written after module init (the kernel is chosen there).
 *
 * - the GIL is released (MAYBE_WITHOUT_GIL) only around loops over memory
 *   that cannot change under them: the code units of a str, the bytes of a
 *   bytes object (or subclass), or a buffer private to the call (a scratch
 *   buffer, the UTF-8 bytes made for the call, an immutable snapshot).
 *   Sizing and writing are two passes that must see the same input, so a
 *   mutable buffer (bytearray, memoryview, array, mmap) is never encoded in
 *   place: it is first copied into a bytes snapshot with its export held and
 *   the object locked (snapshot() in _pctcodec.c), then encoded from there.
 *   Decoding (one pass, output never longer than the input) reads a mutable
 *   buffer in place with the GIL held and the buffer exported, so it cannot
 *   be resized or freed; a concurrent writer (possible on a free-threaded
 *   build) can only change which bytes come out, never how many fit.
 */
#if PY_VERSION_HEX < 0x030D0000
/* Critical sections exist from 3.13 on and only do something without a GIL. */
#define Py_BEGIN_CRITICAL_SECTION(op) {
#define Py_END_CRITICAL_SECTION() }
#endif

/* Runs `stmt` with the GIL released when `cond` holds. */
#define MAYBE_WITHOUT_GIL(cond, stmt)     \
    do {                                  \
        if (cond) {                       \
            Py_BEGIN_ALLOW_THREADS stmt;  \
            Py_END_ALLOW_THREADS          \
        } else {                          \
            stmt;                         \
        }                                 \
    } while (0)

/* Inputs at least this long are processed with the GIL released when the
 * input cannot change under us (see the rule above). */
#define NOGIL_MIN_LENGTH 65536

/* Arguments: METH_FASTCALL | METH_KEYWORDS without building a dict. */
typedef struct {
    const char *fname;  /* also the name of the urllib.parse function it stands for */
    const char *const *names;
    int nparams;
    int nrequired;
    int kinds;          /* T_* types of the first argument run in C; 0: no urllib twin */
    int safe_index;     /* position of `safe`, or -1 */
} argspec;

/* Fills out[0..nparams) from positional and keyword arguments (NULL where
 * absent); -1 with TypeError on a bad call. */
int parse_args(const argspec *spec, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames, PyObject **out);

/* OverflowError: the result would pass the maximum size of an object. */
PyObject *too_long(void);

/* An attribute of a Python module of the package, fetched once and then kept
 * on this module as `cached` (a module attribute, so per interpreter). */
PyObject *package_attr(PyObject *module, const char *cached, const char *modname,
                       const char *name);

/* Raises pctcodec.PercentEncodingError(reason, index); returns NULL. */
PyObject *raise_percent_error(PyObject *module, PyObject *reason, Py_ssize_t index);

/* The RFC 3986 functions, added to the module at init. */
extern PyMethodDef uri_methods[];

/* The ECMAScript codecs and uri_to_iri (src/_pctcodec_ecma.c), added likewise. */
extern PyMethodDef ecma_methods[];

/* The batch engine (src/_pctcodec_batch.c), added likewise. */
extern PyMethodDef batch_methods[];

/* For the batch engine, from src/_pctcodec.c. The set of bytes quote(s,
 * safe, encoding, errors) keeps for a str s (plus: quote_plus, the space
 * kept too): 1 when it encodes UTF-8 strictly and `safe` is read in C,
 * else 0 (such calls go through Python). */
int batch_quote_set(PyObject *module, PyObject *safe, PyObject *encoding, PyObject *errors,
                    int plus, pct_set *keep);
/* The built-in error handler unquote(s, encoding, errors) decodes UTF-8
 * with, or NULL when it decodes otherwise. */
const char *batch_unquote_errors(PyObject *encoding, PyObject *errors);

#endif /* PCTCODEC_BINDING_H */
