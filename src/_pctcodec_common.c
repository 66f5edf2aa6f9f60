/* Helpers every part of the binding uses: errors it raises, objects of the
 * Python package it calls, codec names, snapshots of mutable buffers.
 */
#include "_pctcodec.h" /* Python.h first, as it asks */

#include <string.h>

/* OverflowError: the result would pass the maximum size of an object. */
PyObject *pct_py_too_long(void)
{
    PyErr_SetString(PyExc_OverflowError, "percent-encoded result would be too long");
    return NULL;
}

/* An attribute of a Python module of the package, fetched once and then kept
 * on this module as `cached` (a module attribute, so per interpreter).
 * Threads that race on the first call each store the same attribute. */
PyObject *package_attr(PyObject *module, const char *cached, const char *modname,
                       const char *name)
{
    PyObject *dict = PyModule_GetDict(module); /* borrowed */
    PyObject *value;
#if PY_VERSION_HEX >= 0x030D0000
    /* a strong reference: another thread may store its value meanwhile */
    if (PyDict_GetItemStringRef(dict, cached, &value) < 0)
        return NULL;
    if (value)
        return value;
#else
    value = PyDict_GetItemString(dict, cached);
    if (value)
        return Py_NewRef(value);
#endif
    PyObject *mod = PyImport_ImportModule(modname);
    if (!mod)
        return NULL;
    value = PyObject_GetAttrString(mod, name);
    Py_DECREF(mod);
    if (value && PyDict_SetItemString(dict, cached, value) < 0)
        Py_CLEAR(value);
    return value;
}

PyObject *raise_percent_error(PyObject *module, PyObject *reason, Py_ssize_t index)
{
    PyObject *cls = package_attr(module, "_PercentEncodingError", "pctcodec._errors",
                                 "PercentEncodingError");
    if (cls) {
        PyObject *exc = PyObject_CallFunction(cls, "On", reason, index);
        if (exc) {
            PyErr_SetObject(cls, exc);
            Py_DECREF(exc);
        }
        Py_DECREF(cls);
    }
    return NULL;
}

Py_ssize_t str_first_surrogate(PyObject *s)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    if (kind == PyUnicode_1BYTE_KIND)
        return -1; /* Latin-1 holds none */
    if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *u = data;
        for (Py_ssize_t i = 0; i < n; i++)
            if ((u[i] & 0xF800) == 0xD800)
                return i;
        return -1;
    }
    const Py_UCS4 *u = data;
    for (Py_ssize_t i = 0; i < n; i++)
        if ((u[i] & 0xFFFFF800u) == 0xD800)
            return i;
    return -1;
}

PyObject *str_from_utf8(const uint8_t *utf8, size_t len, const pct_utf8_info *info)
{
    PyObject *s = PyUnicode_New((Py_ssize_t)info->nchars, info->maxchar);
    if (!s)
        return NULL;
    size_t cap = info->nchars;
    int nogil = len >= NOGIL_MIN_LENGTH; /* (the str is not shared yet) */
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_1BYTE_KIND:
        if (info->maxchar < 0x80)
            memcpy(PyUnicode_1BYTE_DATA(s), utf8, len);
        else
            MAYBE_WITHOUT_GIL(nogil, pct_utf8_to_ucs1(utf8, len, PyUnicode_1BYTE_DATA(s), cap));
        break;
    case PyUnicode_2BYTE_KIND:
        MAYBE_WITHOUT_GIL(nogil, pct_utf8_to_ucs2(utf8, len, PyUnicode_2BYTE_DATA(s), cap));
        break;
    default:
        MAYBE_WITHOUT_GIL(nogil, pct_utf8_to_ucs4(utf8, len, PyUnicode_4BYTE_DATA(s), cap));
        break;
    }
    return s;
}

PyObject *text_join(const text_piece *pieces, int n)
{
    char digits[TEXT_JOIN_MAX][24];
    const char *ascii[TEXT_JOIN_MAX];
    Py_ssize_t lens[TEXT_JOIN_MAX], len = 0;
    Py_UCS4 maxchar = 127;
    if (n < 0 || n > TEXT_JOIN_MAX) {
        PyErr_SetString(PyExc_SystemError, "text_join: too many pieces");
        return NULL;
    }
    for (int k = 0; k < n; k++) {
        const text_piece *t = &pieces[k];
        ascii[k] = t->ascii;
        if (t->ascii) {
            lens[k] = t->ascii_len ? t->ascii_len : (Py_ssize_t)strlen(t->ascii);
        } else if (t->str) {
            lens[k] = PyUnicode_GET_LENGTH(t->str);
            if (PyUnicode_MAX_CHAR_VALUE(t->str) > maxchar)
                maxchar = PyUnicode_MAX_CHAR_VALUE(t->str);
        } else { /* the number's digits, from the end of its buffer */
            char *d = digits[k] + sizeof digits[k];
            size_t v = t->number < 0 ? (size_t)0 - (size_t)t->number : (size_t)t->number;
            *--d = '\0';
            do
                *--d = (char)('0' + v % 10);
            while (v /= 10);
            if (t->number < 0)
                *--d = '-';
            ascii[k] = d;
            lens[k] = (Py_ssize_t)(digits[k] + sizeof digits[k] - 1 - d);
        }
        if (lens[k] > PY_SSIZE_T_MAX - len)
            return pct_py_too_long();
        len += lens[k];
    }
    PyObject *s = PyUnicode_New(len, maxchar);
    if (!s)
        return NULL;
    int kind = PyUnicode_KIND(s);
    void *data = PyUnicode_DATA(s);
    Py_ssize_t at = 0;
    for (int k = 0; k < n; k++) {
        if (kind == PyUnicode_1BYTE_KIND && (ascii[k] || PyUnicode_KIND(pieces[k].str) == kind)) {
            /* the usual case, Latin-1 pieces into a Latin-1 str: copied */
            memcpy((Py_UCS1 *)data + at, ascii[k] ? (const void *)ascii[k] : PyUnicode_DATA(pieces[k].str),
                   (size_t)lens[k]);
        } else if (ascii[k]) {
            for (Py_ssize_t i = 0; i < lens[k]; i++)
                PyUnicode_WRITE(kind, data, at + i, (Py_UCS4)(unsigned char)ascii[k][i]);
        } else if (PyUnicode_CopyCharacters(s, at, pieces[k].str, 0, lens[k]) < 0) {
            Py_DECREF(s);
            return NULL;
        }
        at += lens[k];
    }
    return s;
}

/* The codec name is UTF-8, in one of the spellings the fast paths take;
 * any other value goes through str.encode / bytes.decode, exactly as urllib
 * calls them. */
int is_utf8_name(PyObject *name)
{
    if (!PyUnicode_CheckExact(name) || !PyUnicode_IS_ASCII(name))
        return 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(name);
    const char *s = (const char *)PyUnicode_1BYTE_DATA(name);
    if (n != 4 && n != 5)
        return 0;
    char low[6] = {0};
    for (Py_ssize_t i = 0; i < n; i++)
        low[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i]);
    return strcmp(low, "utf-8") == 0 || strcmp(low, "utf_8") == 0 || strcmp(low, "utf8") == 0;
}

/* A bytes copy of a buffer another thread could write to (a bytearray being
 * filled by readinto with the GIL released, a shared mmap): a torn copy is
 * still a stable one, so sizing and writing agree. The buffer is exported
 * and the object locked (free-threaded build) while it is copied, so that
 * it cannot be resized or freed under the copy. */
PyObject *pct_py_snapshot(PyObject *obj)
{
    PyObject *copy = NULL;
    Py_buffer view;
    Py_BEGIN_CRITICAL_SECTION(obj);
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) == 0) {
        copy = PyBytes_FromStringAndSize((const char *)view.buf, view.len);
        PyBuffer_Release(&view);
    }
    Py_END_CRITICAL_SECTION();
    return copy;
}
