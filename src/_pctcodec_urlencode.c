/* The loop behind pctcodec.urlencode (src/pctcodec/_urlencode.py).
 */
#include "_pctcodec.h" /* first: Python.h before the standard headers */
#include <string.h>

#include "pct_buf.h"

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
    int taken = u->quote_via == u->self_quote_plus ? takes(u->st, arg, T_ANY, u->safe) : 0;
    if (taken < 0)
        r = NULL;
    else if (taken)
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

/* ---------------------------------------------------------------------------
 * The direct path: pairs whose keys and values are all exact str, bytes or
 * int (with doseq, a value may also be an exact list or tuple of them),
 * quoted by this module's quote_plus with UTF-8/strict. No Python code can
 * run on such pairs, so they are read without items() or an iterator, and
 * each quoted piece is written into one growing buffer of ASCII that
 * becomes the str at the end: urllib's result without its per-pair strs.
 */

/* Each piece is ASCII: at most 12 bytes per code unit (an astral character
 * as UTF-8, escaped). */
#define PIECE_MAX_PER_UNIT 12

/* Room for `extra` more bytes in the one growing buffer (pct_buf.h); -1
 * with an exception. */
static int out_reserve(pct_buf *b, size_t extra)
{
    pct_status rc = pct_buf_reserve(b, extra, (size_t)PY_SSIZE_T_MAX);
    if (rc == PCT_OK)
        return 0;
    if (rc == PCT_ERR_TOO_LARGE)
        pct_py_too_long();
    else
        PyErr_NoMemory();
    return -1;
}

static int out_byte(pct_buf *b, uint8_t c)
{
    if (out_reserve(b, 1) < 0)
        return -1;
    b->data[b->len++] = c;
    return 0;
}

/* The exact types whose quoting runs no Python code and makes no Python
 * object: nothing (not even the garbage collector, which a new object can
 * start) can change the query while urlencode_direct holds borrowed
 * references into it. An int past 64 bits needs str() to be written. */
static inline int direct_scalar(PyObject *x)
{
    if (PyLong_CheckExact(x)) {
        int overflow;
        (void)PyLong_AsLongLongAndOverflow(x, &overflow);
        return !overflow;
    }
    return PyUnicode_CheckExact(x) || PyBytes_CheckExact(x);
}

static int direct_value(PyObject *v, int doseq)
{
    if (direct_scalar(v))
        return 1;
    if (!doseq || !(PyList_CheckExact(v) || PyTuple_CheckExact(v)))
        return 0;
#ifdef Py_GIL_DISABLED
    if (PyList_CheckExact(v))
        return 0; /* another thread could change it: only the query is locked */
#endif
    Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    PyObject **items = PySequence_Fast_ITEMS(v);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!direct_scalar(items[i]))
            return 0;
    return 1;
}

/* Whether every pair of `query` takes the direct path. */
static int direct_query(PyObject *query, int doseq)
{
    if (PyDict_CheckExact(query)) {
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(query, &pos, &k, &v))
            if (!direct_scalar(k) || !direct_value(v, doseq))
                return 0;
        return 1;
    }
    if (!PyList_CheckExact(query) && !PyTuple_CheckExact(query))
        return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(query);
    PyObject **items = PySequence_Fast_ITEMS(query);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = items[i];
        if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) != 2 || !direct_scalar(PyTuple_GET_ITEM(t, 0))
            || !direct_value(PyTuple_GET_ITEM(t, 1), doseq))
            return 0;
    }
    return 1;
}

/* quote_plus(x, safe) of an exact str, bytes or int, appended; -1 with an
 * exception (a str with a surrogate: urllib's UnicodeEncodeError). */
static int put_piece(const urlencoder *u, const pct_set *keep, pct_buf *b, PyObject *x)
{
    if (PyLong_CheckExact(x)) {
        /* str(x): digits and '-', all unreserved */
        int overflow;
        long long value = PyLong_AsLongLongAndOverflow(x, &overflow);
        if (!overflow) {
            /* written backwards from the end of `digits` */
            char digits[24], *d = digits + sizeof digits;
            unsigned long long m = value < 0 ? 0ull - (unsigned long long)value : (unsigned long long)value;
            do {
                *--d = (char)('0' + m % 10);
                m /= 10;
            } while (m);
            if (value < 0)
                *--d = '-';
            size_t len = (size_t)(digits + sizeof digits - d);
            if (out_reserve(b, len) < 0)
                return -1;
            memcpy(b->data + b->len, d, len);
            b->len += len;
            return 0;
        }
        PyErr_SetString(PyExc_SystemError, "urlencode: an int past 64 bits in the direct path");
        return -1;
    }
    if (PyBytes_CheckExact(x)) {
        size_t n = (size_t)PyBytes_GET_SIZE(x);
        if (n > (size_t)PY_SSIZE_T_MAX / 3) {
            pct_py_too_long();
            return -1;
        }
        if (out_reserve(b, 3 * n) < 0)
            return -1;
        b->len += pct_encode((const uint8_t *)PyBytes_AS_STRING(x), n, keep, 1, b->data + b->len);
        return 0;
    }
    size_t n = (size_t)PyUnicode_GET_LENGTH(x), size = 0;
    int kind = PyUnicode_KIND(x);
    const void *data = PyUnicode_DATA(x);
    if (n > (size_t)PY_SSIZE_T_MAX / PIECE_MAX_PER_UNIT) {
        pct_py_too_long();
        return -1;
    }
    if (PyUnicode_IS_ASCII(x)) {
        if (out_reserve(b, 3 * n) < 0)
            return -1;
        b->len += pct_encode(data, n, keep, 1, b->data + b->len);
        return 0;
    }
    if (kind == PyUnicode_1BYTE_KIND) {
        if (out_reserve(b, 6 * n) < 0)
            return -1;
        b->len += pct_encode_ucs1(data, n, keep, 1, b->data + b->len);
        return 0;
    }
    /* wider text may hold a surrogate: sized first */
    pct_status rc = kind == PyUnicode_2BYTE_KIND
                        ? pct_encoded_size_ucs2(data, n, keep, (size_t)PY_SSIZE_T_MAX, &size)
                        : pct_encoded_size_ucs4(data, n, keep, (size_t)PY_SSIZE_T_MAX, &size);
    if (rc == PCT_ERR_SURROGATE) {
        /* urllib's error, raised by its own encoding */
        PyObject *r = quote_one(u, x, 0, 1);
        if (!r)
            return -1;
        Py_DECREF(r);
        PyErr_SetString(PyExc_SystemError, "urlencode: a surrogate was encoded");
        return -1;
    }
    if (rc != PCT_OK) {
        pct_py_too_long();
        return -1;
    }
    if (out_reserve(b, size) < 0)
        return -1;
    b->len += kind == PyUnicode_2BYTE_KIND ? pct_encode_ucs2(data, n, keep, 1, b->data + b->len)
                                           : pct_encode_ucs4(data, n, keep, 1, b->data + b->len);
    return 0;
}

/* "k=v" (with doseq and a list or tuple v, "k=v1&k=v2..."), after an '&'
 * unless it is the first. */
static int put_pair(const urlencoder *u, const pct_set *keep, pct_buf *b, PyObject *k, PyObject *v,
                    int doseq)
{
    if (b->len && out_byte(b, '&') < 0)
        return -1;
    size_t key_at = b->len;
    if (put_piece(u, keep, b, k) < 0)
        return -1;
    size_t key_len = b->len - key_at;
    if (!doseq || direct_scalar(v))
        return out_byte(b, '=') < 0 ? -1 : put_piece(u, keep, b, v);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    if (n == 0) {
        /* no pair at all: the key and its '&' are taken back */
        b->len = key_at ? key_at - 1 : 0;
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i) {
            if (out_reserve(b, key_len + 1) < 0)
                return -1;
            b->data[b->len++] = '&';
            memcpy(b->data + b->len, b->data + key_at, key_len);
            b->len += key_len;
        }
        if (out_byte(b, '=') < 0 || put_piece(u, keep, b, PySequence_Fast_ITEMS(v)[i]) < 0)
            return -1;
    }
    return 0;
}

/* urlencode of a query that direct_query accepted. */
static PyObject *urlencode_direct(const urlencoder *u, const pct_set *keep, PyObject *query, int doseq)
{
    pct_buf b;
    pct_buf_init(&b);
    PyObject *result = NULL;
    int failed = 0;
    if (PyDict_CheckExact(query)) {
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (!failed && PyDict_Next(query, &pos, &k, &v))
            failed = put_pair(u, keep, &b, k, v, doseq) < 0;
    } else {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(query);
        PyObject **items = PySequence_Fast_ITEMS(query);
        for (Py_ssize_t i = 0; !failed && i < n; i++)
            failed = put_pair(u, keep, &b, PyTuple_GET_ITEM(items[i], 0), PyTuple_GET_ITEM(items[i], 1),
                              doseq) < 0;
    }
    if (!failed) {
        result = PyUnicode_New((Py_ssize_t)b.len, 127);
        if (result && b.len)
            memcpy(PyUnicode_1BYTE_DATA(result), b.data, b.len);
    }
    pct_buf_free(&b);
    return result;
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
    /* this module's quote_plus, known by its function rather than looked up */
    PyObject *self_qp = NULL;
    if (PyCFunction_Check(args[5]) && PyCFunction_GET_SELF(args[5]) == module
        && strcmp(((PyCFunctionObject *)args[5])->m_ml->ml_name, "quote_plus") == 0)
        self_qp = args[5];
    urlencoder u = {st, self_qp, args[2], args[3], args[4], args[5]};
    PyObject *out = NULL, *pairs = NULL, *it = NULL, *item, *result = NULL;
    PyObject *eq = st->s_eq;
    pct_set keep;
    /* exact booleans and None first: the truth of anything else may run code */
    int doseq = args[1] == Py_False || args[1] == Py_None ? 0 : args[1] == Py_True ? 1 : -2;
    int in_c = doseq != -2 && self_qp ? batch_quote_set(module, u.safe, u.encoding, u.errors, 1, &keep) : 0;
    if (in_c < 0)
        return NULL;
    if (in_c) {
        int direct;
        /* the query locked from the check to the end of the writing
         * (free-threaded build; nothing on a GIL build) */
        Py_BEGIN_CRITICAL_SECTION(args[0]);
        direct = direct_query(args[0], doseq);
        if (direct)
            result = urlencode_direct(&u, &keep, args[0], doseq);
        Py_END_CRITICAL_SECTION();
        if (direct)
            goto done;
    }
    if (!(pairs = urlencode_pairs(args[0], st->s_items)))
        goto done;
    doseq = PyObject_IsTrue(args[1]);
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
    Py_XDECREF(pairs);
    Py_XDECREF(it);
    Py_XDECREF(out);
    return result;
}

PyMethodDef urlencode_methods[] = {
    {"_urlencode", (PyCFunction)(void (*)(void))py_urlencode, METH_FASTCALL, urlencode_doc},
    {NULL, NULL, 0, NULL},
};
