/* The loop behind pctcodec.urlencode (pctcodec/_urlencode.py).
 */
#include "_pctcodec.h"

/* ---------------------------------------------------------------------------
 * urlencode: urllib's loop, step for step, with the quoting done here when
 * quote_via is this module's quote_plus.
 */
typedef struct {
    module_state *st;
    PyObject *self_quote_plus; /* this module's quote_plus, to call directly */
    PyObject *safe, *encoding, *errors, *quote_via;
} urlencoder;

/* isinstance(x, type), as urllib's loop asks it: an object of an exact
 * built-in type answers by its type; any other may answer through __class__
 * or a __getattribute__ of its own (which may raise). -1 on error. */
static int is_instance(PyObject *x, PyTypeObject *type)
{
    PyTypeObject *t = Py_TYPE(x);
    if (t == type)
        return 1;
    if (t == &PyUnicode_Type || t == &PyBytes_Type || t == &PyLong_Type || t == &PyFloat_Type
        || t == &PyBool_Type || t == &PyTuple_Type || t == &PyList_Type || x == Py_None)
        return PyType_IsSubtype(t, type);
    return PyObject_IsInstance(x, (PyObject *)type);
}

/* quote_via(x, safe) when x is bytes (is_bytes), else quote_via(x, safe,
 * encoding, errors) with x itself (keep) or str(x). */
static PyObject *quote_one(const urlencoder *u, PyObject *x, int is_bytes, int keep)
{
    PyObject *arg = (is_bytes || keep) ? Py_NewRef(x) : PyObject_Str(x);
    if (!arg)
        return NULL;
    PyObject *r;
    if (u->quote_via == u->self_quote_plus && takes(u->st, arg, T_ANY, u->safe))
        r = is_bytes ? quote_plus_any(u->st, arg, u->safe, NULL, NULL)
                     : quote_plus_any(u->st, arg, u->safe, u->encoding, u->errors);
    else if (is_bytes)
        r = PyObject_CallFunctionObjArgs(u->quote_via, arg, u->safe, NULL);
    else
        r = PyObject_CallFunctionObjArgs(u->quote_via, arg, u->safe, u->encoding, u->errors, NULL);
    Py_DECREF(arg);
    return r;
}

/* urllib's `quote_via(x, safe) if isinstance(x, bytes) else
 * quote_via(str(x), safe, encoding, errors)`. */
static PyObject *urlencode_one(const urlencoder *u, PyObject *x)
{
    int is_bytes = is_instance(x, &PyBytes_Type);
    return is_bytes < 0 ? NULL : quote_one(u, x, is_bytes, 0);
}

/* l.append(k + '=' + v); steals v. */
static int urlencode_append(PyObject *out, PyObject *k, PyObject *v, PyObject *eq)
{
    if (!v)
        return -1;
    PyObject *ke = PyNumber_Add(k, eq);
    PyObject *kv = ke ? PyNumber_Add(ke, v) : NULL;
    Py_XDECREF(ke);
    Py_DECREF(v);
    int rc = kv ? PyList_Append(out, kv) : -1;
    Py_XDECREF(kv);
    return rc;
}

/* for k, v in query: the unpacking of one item, with Python's errors. */
static int unpack_pair(PyObject *item, PyObject **k, PyObject **v)
{
    if (PyTuple_CheckExact(item) && PyTuple_GET_SIZE(item) == 2) {
        *k = Py_NewRef(PyTuple_GET_ITEM(item, 0));
        *v = Py_NewRef(PyTuple_GET_ITEM(item, 1));
        return 0;
    }
    PyObject *it = PyObject_GetIter(item);
    if (!it) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "cannot unpack non-iterable %.200s object",
                         Py_TYPE(item)->tp_name);
        }
        return -1;
    }
    PyObject *got[3] = {NULL, NULL, NULL};
    int n = 0;
    for (; n < 3; n++) {
        got[n] = PyIter_Next(it);
        if (!got[n])
            break;
    }
    Py_DECREF(it);
    if (PyErr_Occurred() || n != 2) {
        if (!PyErr_Occurred()) {
            if (n < 2)
                PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected 2, got %d)", n);
            else
                PyErr_SetString(PyExc_ValueError, "too many values to unpack (expected 2)");
        }
        for (int i = 0; i < 3; i++)
            Py_XDECREF(got[i]);
        return -1;
    }
    *k = got[0];
    *v = got[1];
    return 0;
}

/* The pairs of `query`: query.items() for anything with an items attribute,
 * else the sequence itself once urllib's checks pass. */
static PyObject *urlencode_pairs(PyObject *query, PyObject *items_name)
{
    /* Exact lists and tuples have no items attribute: skip the failing lookup. */
    if (!PyList_CheckExact(query) && !PyTuple_CheckExact(query)) {
        PyObject *items = PyObject_GetAttr(query, items_name);
        if (items) {
            PyObject *r = PyObject_CallNoArgs(items);
            Py_DECREF(items);
            return r;
        }
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return NULL;
        PyErr_Clear();
    }
    /* len(query) and isinstance(query[0], tuple); only a TypeError is reworded. */
    Py_ssize_t n = PyObject_Size(query);
    int bad = n < 0;
    if (!bad && n > 0) {
        PyObject *zero = PyLong_FromLong(0);
        PyObject *first = zero ? PyObject_GetItem(query, zero) : NULL;
        Py_XDECREF(zero);
        bad = !first || is_instance(first, &PyTuple_Type) != 1;
        Py_XDECREF(first);
    }
    if (bad && PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_TypeError))
        return NULL;
    if (bad) {
        PyObject *cause = PyErr_Occurred() ? PyErr_GetRaisedException_compat() : NULL;
        PyErr_SetString(PyExc_TypeError, "not a valid non-string sequence or mapping object");
        if (cause) {
            PyObject *exc = PyErr_GetRaisedException_compat();
            PyException_SetCause(exc, cause);
            PyErr_SetRaisedException_compat(exc);
        }
        return NULL;
    }
    return Py_NewRef(query);
}

PyDoc_STRVAR(urlencode_doc,
"_urlencode($module, query, doseq, safe, encoding, errors, quote_via, /)\n--\n\n"
"The loop behind pctcodec.urlencode; every argument is required.");

static PyObject *py_urlencode(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "_urlencode() takes exactly 6 arguments");
        return NULL;
    }
    module_state *st = get_state(module);
    PyObject *self_qp = PyObject_GetAttr(module, st->s_quote_plus);
    if (!self_qp)
        return NULL;
    urlencoder u = {st, self_qp, args[2], args[3], args[4], args[5]};
    PyObject *out = NULL, *pairs = NULL, *it = NULL, *item, *result = NULL;
    PyObject *eq = st->s_eq;
    if (!(pairs = urlencode_pairs(args[0], st->s_items)))
        goto done;
    int doseq = PyObject_IsTrue(args[1]);
    if (doseq < 0 || !(out = PyList_New(0)) || !(it = PyObject_GetIter(pairs)))
        goto done;
    while ((item = PyIter_Next(it))) {
        PyObject *k0, *v;
        int failed = unpack_pair(item, &k0, &v) < 0;
        Py_DECREF(item);
        if (failed)
            goto done;
        PyObject *k = urlencode_one(&u, k0);
        Py_DECREF(k0);
        if (!k) {
            Py_DECREF(v);
            goto done;
        }
        /* with doseq: isinstance(v, bytes), then isinstance(v, str) */
        int v_bytes = doseq ? is_instance(v, &PyBytes_Type) : 0;
        int v_str = doseq && v_bytes == 0 ? is_instance(v, &PyUnicode_Type) : 0;
        if (v_bytes < 0 || v_str < 0) {
            failed = 1;
        } else if (!doseq) {
            failed = urlencode_append(out, k, urlencode_one(&u, v), eq) < 0;
        } else if (v_bytes || v_str) {
            failed = urlencode_append(out, k, quote_one(&u, v, v_bytes, 1), eq) < 0;
        } else if (PyObject_Size(v) < 0) {
            /* not a sequence: quote str(v) */
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                failed = urlencode_append(out, k, quote_one(&u, v, 0, 0), eq) < 0;
            } else {
                failed = 1;
            }
        } else {
            PyObject *vit = PyObject_GetIter(v), *elt;
            failed = !vit;
            while (!failed && (elt = PyIter_Next(vit))) {
                failed = urlencode_append(out, k, urlencode_one(&u, elt), eq) < 0;
                Py_DECREF(elt);
            }
            failed = failed || PyErr_Occurred();
            Py_XDECREF(vit);
        }
        Py_DECREF(k);
        Py_DECREF(v);
        if (failed)
            goto done;
    }
    if (!PyErr_Occurred())
        result = PyUnicode_Join(st->s_amp, out);
done:
    Py_DECREF(self_qp);
    Py_XDECREF(pairs);
    Py_XDECREF(it);
    Py_XDECREF(out);
    return result;
}

PyMethodDef urlencode_methods[] = {
    {"_urlencode", (PyCFunction)(void (*)(void))py_urlencode, METH_FASTCALL, urlencode_doc},
    {NULL, NULL, 0, NULL},
};
