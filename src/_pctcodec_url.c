/* The URL Standard's parser (src/core/pct_url.c) on one value: _url_parse
 * gives the getters of the parsed URL as a tuple of str, which
 * src/pctcodec/url.py makes a record. The batch form runs through the
 * batch engine (PCT_BATCH_URL). */
#include "_pctcodec.h"
#include "pct_batch.h"
#include "pct_url.h"

/* The getters in the record's order; origin is computed apart. */
static const pct_url_part PARTS[] = {PCT_URL_PROTOCOL, PCT_URL_USERNAME, PCT_URL_PASSWORD,
                                     PCT_URL_HOST,     PCT_URL_HOSTNAME, PCT_URL_PORT,
                                     PCT_URL_PATHNAME, PCT_URL_SEARCH,   PCT_URL_HASH};
#define N_FIELDS 11

/* href is ASCII: every byte past ASCII is percent-encoded, hosts are in
 * their ASCII form. */
static PyObject *ascii_str(const uint8_t *p, size_t n)
{
    PyObject *s = PyUnicode_New((Py_ssize_t)n, 127);
    if (s && n)
        memcpy(PyUnicode_1BYTE_DATA(s), p, n);
    return s;
}

/* ValueError(reason, position, is_base) for a rejected input: the
 * position as an index of code points. */
static void raise_rejected(pct_status rc, const pct_url *u, const char *src, int is_base)
{
    if (rc == PCT_ERR_NO_MEMORY) {
        PyErr_NoMemory();
        return;
    }
    if (rc == PCT_ERR_TOO_LARGE) {
        PyErr_SetString(PyExc_OverflowError, "the URL is too long");
        return;
    }
    size_t pos = pct_utf8_count((const uint8_t *)src, u->error_pos);
    PyObject *args = Py_BuildValue("(snO)", pct_url_reason(rc), (Py_ssize_t)pos,
                                   is_base ? Py_True : Py_False);
    if (args) {
        PyErr_SetObject(PyExc_ValueError, args);
        Py_DECREF(args);
    }
}

static PyObject *record(const pct_url *u, pct_url *work)
{
    PyObject *t = PyTuple_New(N_FIELDS);
    if (!t)
        return NULL;
    const uint8_t *p;
    size_t n;
    PyObject *v = ascii_str(u->href, u->len);
    if (!v)
        goto fail;
    PyTuple_SET_ITEM(t, 0, v);
    pct_status rc = pct_url_origin(u, work, &p, &n);
    if (rc != PCT_OK) {
        PyErr_NoMemory();
        goto fail;
    }
    if (!(v = ascii_str(p, n)))
        goto fail;
    PyTuple_SET_ITEM(t, 1, v);
    for (size_t i = 0; i < sizeof PARTS / sizeof PARTS[0]; i++) {
        pct_url_component(u, PARTS[i], &p, &n);
        if (!(v = ascii_str(p, n)))
            goto fail;
        PyTuple_SET_ITEM(t, (Py_ssize_t)i + 2, v);
    }
    return t;
fail:
    Py_DECREF(t);
    return NULL;
}

PyDoc_STRVAR(url_parse_doc,
"_url_parse($module, value, base, /)\n--\n\n"
"The URL Standard's parse of the str value against the str base (or None):\n"
"(href, origin, protocol, username, password, host, hostname, port,\n"
"pathname, search, hash). A rejected input raises ValueError(reason,\n"
"position, is_base); a str with a lone surrogate, UnicodeEncodeError.");

static PyObject *py_url_parse(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyUnicode_Check(args[0]) || (args[1] != Py_None && !PyUnicode_Check(args[1]))) {
        PyErr_SetString(PyExc_TypeError, "_url_parse() takes a str and a str or None");
        return NULL;
    }
    Py_ssize_t n, bn = 0;
    const char *s = PyUnicode_AsUTF8AndSize(args[0], &n);
    if (!s)
        return NULL;
    const char *b = NULL;
    if (args[1] != Py_None && !(b = PyUnicode_AsUTF8AndSize(args[1], &bn)))
        return NULL;
    pct_url base, u, work;
    pct_url_init(&base);
    pct_url_init(&u);
    pct_url_init(&work);
    PyObject *r = NULL;
    pct_status rc = PCT_OK;
    if (b && (rc = pct_url_parse(&base, (const uint8_t *)b, (size_t)bn, NULL, PY_SSIZE_T_MAX)) != PCT_OK) {
        raise_rejected(rc, &base, b, 1);
        goto done;
    }
    rc = pct_url_parse(&u, (const uint8_t *)s, (size_t)n, b ? &base : NULL, PY_SSIZE_T_MAX);
    if (rc != PCT_OK) {
        raise_rejected(rc, &u, s, 0);
        goto done;
    }
    r = record(&u, &work);
done:
    pct_url_free(&base);
    pct_url_free(&u);
    pct_url_free(&work);
    return r;
}

static const char CAPSULE_NAME[] = "pctcodec.url_base";

static void capsule_free(PyObject *capsule)
{
    pct_url *u = PyCapsule_GetPointer(capsule, CAPSULE_NAME);
    pct_url_free(u);
    PyMem_Free(u);
}

const pct_url *url_base_of(PyObject *capsule)
{
    if (!PyCapsule_IsValid(capsule, CAPSULE_NAME)) {
        PyErr_SetString(PyExc_TypeError, "not a parsed base URL");
        return NULL;
    }
    return PyCapsule_GetPointer(capsule, CAPSULE_NAME);
}

PyDoc_STRVAR(url_base_doc,
"_url_base($module, base, /)\n--\n\n"
"The str base parsed once, in a capsule for parse_url_many's rows; a\n"
"rejected base raises as _url_parse does.");

static PyObject *py_url_base(PyObject *module, PyObject *base)
{
    (void)module;
    if (!PyUnicode_Check(base)) {
        PyErr_SetString(PyExc_TypeError, "_url_base() takes a str");
        return NULL;
    }
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(base, &n);
    if (!s)
        return NULL;
    pct_url *u = PyMem_Malloc(sizeof *u);
    if (!u)
        return PyErr_NoMemory();
    pct_url_init(u);
    pct_status rc = pct_url_parse(u, (const uint8_t *)s, (size_t)n, NULL, PY_SSIZE_T_MAX);
    PyObject *capsule = rc == PCT_OK ? PyCapsule_New(u, CAPSULE_NAME, capsule_free) : NULL;
    if (!capsule) {
        if (rc != PCT_OK)
            raise_rejected(rc, u, s, 1);
        pct_url_free(u);
        PyMem_Free(u);
    }
    return capsule;
}

PyMethodDef url_methods[] = {
    {"_url_parse", (PyCFunction)(void (*)(void))py_url_parse, METH_FASTCALL, url_parse_doc},
    {"_url_base", py_url_base, METH_O, url_base_doc},
    {NULL, NULL, 0, NULL},
};
