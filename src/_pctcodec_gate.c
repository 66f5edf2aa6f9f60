/* The argument gate of the urllib.parse-compatible functions: their
 * arguments parsed without a dict, the test of which arguments the C paths
 * take, and the hand-over of all others to urllib's own algorithm.
 */
#include "_pctcodec.h"

/* What urllib.parse (3.9-3.13) calls on its arguments, across all versions: a
 * subclass that overrides none of these reads as its value (see behaves_as).
 * Special methods are looked up on the type only; methods called by name can
 * also be shadowed by an instance attribute. __class__ is what isinstance()
 * asks when the type itself does not answer: a subclass that lies there is
 * not what its type says for urllib. */
const char *const SPECIAL_METHODS[N_SPECIAL] = {"__getattribute__", "__class__", "__len__",
                                                "__bool__", "__contains__", "__getitem__",
                                                "__iter__", "__add__", "__bytes__"};
const char *const NAMED_METHODS[N_NAMED] = {"encode", "decode", "replace", "split", "rstrip"};

/* ---------------------------------------------------------------------------
 * Arguments.
 */
int parse_args(const argspec *spec, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames, PyObject **out)
{
    for (int i = 0; i < spec->nparams; i++)
        out[i] = NULL;
    if (nargs > spec->nparams) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)",
                     spec->fname, spec->nparams, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++)
        out[i] = args[i];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int j = 0;
        while (j < spec->nparams && PyUnicode_CompareWithASCIIString(key, spec->names[j]) != 0)
            j++;
        if (j == spec->nparams) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'",
                         spec->fname, key);
            return -1;
        }
        if (out[j]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'",
                         spec->fname, spec->names[j]);
            return -1;
        }
        out[j] = args[nargs + k];
    }
    for (int i = 0; i < spec->nrequired; i++) {
        if (!out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)",
                         spec->fname, spec->names[i], i + 1);
            return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------------
 * Which arguments the C paths take (plain_kind, takes and enter, inline in
 * _pctcodec.h). They read str, bytes and bytearray by value; urllib.parse
 * instead calls methods on its arguments. A subclass that
 * overrides none of those methods gets the same answer either way. Any other
 * argument (such a subclass, a duck type, a wrong type, a list as `safe`)
 * is handed to the running interpreter's urllib.parse itself, which alone can
 * honour it: the result is urllib's by construction.
 */

/* `o`, an instance of a subclass of `base`, behaves as `base` for urllib:
 * its type overrides none of the methods above, and no instance attribute
 * shadows a named one (o.encode is still base's method, bound to o). The
 * type is checked first, so the attribute lookups run no Python code. */
int behaves_as(module_state *st, PyObject *o, PyTypeObject *base)
{
    PyTypeObject *type = Py_TYPE(o);
    for (size_t i = 0; i < N_SPECIAL; i++)
        if (_PyType_Lookup(type, st->special[i]) != _PyType_Lookup(base, st->special[i]))
            return 0;
    for (size_t i = 0; i < N_NAMED; i++)
        if (_PyType_Lookup(type, st->named[i]) != _PyType_Lookup(base, st->named[i]))
            return 0;
    for (size_t i = 0; i < N_NAMED; i++) {
        if (!_PyType_Lookup(base, st->named[i]))
            continue; /* base has no such method: urllib does not call it on this type */
        PyObject *m = PyObject_GetAttr(o, st->named[i]);
        if (!m) {
            /* no such attribute: not like base; anything else (an
             * interrupt, a lack of memory) is the caller's error */
            if (!PyErr_ExceptionMatches(PyExc_AttributeError))
                return -1;
            PyErr_Clear();
            return 0;
        }
        int bound_builtin = PyCFunction_Check(m) && PyCFunction_GET_SELF(m) == o;
        Py_DECREF(m);
        if (!bound_builtin)
            return 0;
    }
    return 1;
}

/* urllib's <name>(*args, **kwargs), with the caller's arguments as given:
 * the function of pctcodec._urllib.parse, a private copy of urllib.parse,
 * never the live module's, which may hold pctcodec's own functions (after
 * pctcodec.install() or `urllib.parse.quote = pctcodec.quote`) and would hand
 * the arguments back here. */
PyObject *pct_py_delegate(module_state *st, const char *name, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames)
{
    CACHE_LOCK(st);
    PyObject *mod = st->urllib_copy ? Py_NewRef(st->urllib_copy) : NULL;
    CACHE_UNLOCK(st);
    if (!mod) {
        PyObject *holder = PyImport_ImportModule("pctcodec._urllib");
        if (!holder)
            return NULL;
        mod = PyObject_GetAttrString(holder, "parse");
        Py_DECREF(holder);
        if (!mod)
            return NULL;
        CACHE_LOCK(st);
        if (!st->urllib_copy)
            st->urllib_copy = Py_NewRef(mod);
        CACHE_UNLOCK(st);
    }
    PyObject *func = PyObject_GetAttrString(mod, name);
    Py_DECREF(mod);
    if (!func)
        return NULL;
    PyObject *r = PyObject_Vectorcall(func, args, (size_t)nargs, kwnames);
    Py_DECREF(func);
    return r;
}
