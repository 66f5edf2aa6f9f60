/* Hosts: the URL Standard's domain to ASCII and to Unicode (src/core/
 * pct_idna.c) for pctcodec.rfc3986.uri_to_iri's punycode labels, and as
 * private functions for the tests, the fuzzer of the package and the
 * benchmarks. normalize and iri_to_uri (_pctcodec_uri.c) and normalize_many
 * (_pctcodec_batch.c) call the core directly. */
#include "_pctcodec.h" /* first: Python.h before the standard headers */
#include <string.h>

#include "pct_idna.h"

/* The UTF-8 of a str argument, or NULL with TypeError or UnicodeEncodeError. */
static const uint8_t *utf8_arg(PyObject *s, const char *fname, size_t *n)
{
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.200s", fname,
                     Py_TYPE(s)->tp_name);
        return NULL;
    }
    Py_ssize_t len;
    const char *data = PyUnicode_AsUTF8AndSize(s, &len);
    *n = (size_t)len;
    return (const uint8_t *)data;
}

/* A str of a core function's result, None when it has none. */
typedef pct_status (*idna_fn)(const uint8_t *, size_t, uint8_t *, size_t, size_t *);

static PyObject *idna_result(idna_fn fn, const uint8_t *src, size_t n)
{
    uint8_t small[256], *buf = small;
    size_t len;
    pct_status rc = fn(src, n, small, sizeof small, &len);
    if (rc == PCT_IDNA_SMALL) {
        if (!(buf = PyMem_Malloc(len)))
            return PyErr_NoMemory();
        rc = fn(src, n, buf, len, &len);
    }
    PyObject *out = rc == PCT_OK ? PyUnicode_DecodeUTF8((const char *)buf, (Py_ssize_t)len, "strict")
                    : rc == PCT_ERR_NO_MEMORY ? PyErr_NoMemory()
                                               : Py_NewRef(Py_None);
    if (buf != small)
        PyMem_Free(buf);
    return out;
}

/* fn of the str argument s of the function fname: idna_result. */
static PyObject *idna_call(idna_fn fn, PyObject *s, const char *fname)
{
    size_t n;
    const uint8_t *src = utf8_arg(s, fname, &n);
    return src ? idna_result(fn, src, n) : NULL;
}

PyDoc_STRVAR(domain_to_ascii_doc,
"_domain_to_ascii($module, domain, /)\n--\n\n"
"The URL Standard's domain to ASCII of a domain, then its forbidden domain\n"
"code points checked; None where a host parser fails.");

static PyObject *py_domain_to_ascii(PyObject *module, PyObject *s)
{
    (void)module;
    return idna_call(pct_idna_to_ascii, s, "_domain_to_ascii");
}

PyDoc_STRVAR(domain_to_ascii_full_doc,
"_domain_to_ascii_full($module, domain, /)\n--\n\n"
"_domain_to_ascii the long way (UTS #46 step by step, without the one\n"
"pass of the usual host): the same result, for the tests.");

static PyObject *py_domain_to_ascii_full(PyObject *module, PyObject *s)
{
    (void)module;
    return idna_call(pct_idna_to_ascii_full, s, "_domain_to_ascii_full");
}

PyDoc_STRVAR(host_to_ascii_doc,
"_host_to_ascii($module, host, /)\n--\n\n"
"_domain_to_ascii of a reg-name as a URI writes it (its escapes of UTF-8\n"
"decoded first); None where it has no ASCII form.");

static PyObject *py_host_to_ascii(PyObject *module, PyObject *s)
{
    (void)module;
    return idna_call(pct_idna_host_to_ascii, s, "_host_to_ascii");
}

PyDoc_STRVAR(domain_to_unicode_doc,
"_domain_to_unicode($module, domain, /)\n--\n\n"
"The URL Standard's domain to Unicode; None where processing records an error.");

static PyObject *py_domain_to_unicode(PyObject *module, PyObject *s)
{
    (void)module;
    return idna_call(pct_idna_to_unicode, s, "_domain_to_unicode");
}

/* The Unicode form of one "xn--" label[0..n) (ASCII) appended at *d, or
 * the label as it is when it is not the valid punycode of a label whose
 * ASCII form is the label again (an IRI must name the same host). */
static int unicode_label(const uint8_t *label, size_t n, uint8_t **d)
{
    uint8_t *lower = PyMem_Malloc(n ? n : 1), *text = PyMem_Malloc(4 * n + 4);
    uint8_t *back = PyMem_Malloc(n + 1);
    if (!lower || !text || !back) {
        PyMem_Free(lower);
        PyMem_Free(text);
        PyMem_Free(back);
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        lower[i] = (uint8_t)((unsigned)(label[i] - 'A') < 26u ? label[i] + 32 : label[i]);
    size_t text_len, back_len;
    pct_status rc = pct_idna_to_unicode(lower, n, text, 4 * n + 4, &text_len);
    int same = rc != PCT_ERR_NO_MEMORY && rc != PCT_IDNA_SMALL && text_len &&
               !(text_len == n && memcmp(text, lower, n) == 0) &&
               pct_idna_to_ascii(text, text_len, back, n + 1, &back_len) == PCT_OK &&
               back_len == n && memcmp(back, lower, n) == 0;
    memcpy(*d, same ? text : label, same ? text_len : n);
    *d += same ? text_len : n;
    PyMem_Free(lower);
    PyMem_Free(text);
    PyMem_Free(back);
    if (rc == PCT_ERR_NO_MEMORY) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(host_to_unicode_doc,
"_host_to_unicode($module, host, /)\n--\n\n"
"The host with each ASCII 'xn--' label that is valid punycode (of a label\n"
"mapping back to it) in its Unicode form; other labels as they are.");

static PyObject *py_host_to_unicode(PyObject *module, PyObject *s)
{
    (void)module;
    size_t n;
    const uint8_t *h = utf8_arg(s, "_host_to_unicode", &n);
    if (!h)
        return NULL;
    /* a decoded label is at most 4 bytes per byte of its punycode */
    if (n > ((size_t)PY_SSIZE_T_MAX - 4) / 4)
        return PyErr_NoMemory();
    uint8_t *buf = PyMem_Malloc(4 * n + 4), *d = buf;
    if (!buf)
        return PyErr_NoMemory();
    for (size_t at = 0; at <= n;) {
        const uint8_t *l = h + at, *e = at < n ? memchr(l, '.', n - at) : NULL;
        size_t len = e ? (size_t)(e - l) : n - at;
        int xn = len >= 4 && (l[0] | 32) == 'x' && (l[1] | 32) == 'n' && l[2] == '-' && l[3] == '-';
        int ascii = 1;
        for (size_t i = 0; xn && i < len; i++)
            ascii &= l[i] < 0x80;
        if (at)
            *d++ = '.';
        if (xn && ascii) {
            if (unicode_label(l, len, &d) < 0) {
                PyMem_Free(buf);
                return NULL;
            }
        } else {
            memcpy(d, l, len);
            d += len;
        }
        at += len + 1;
    }
    PyObject *out = PyUnicode_DecodeUTF8((const char *)buf, d - buf, "strict");
    PyMem_Free(buf);
    return out;
}

PyMethodDef idna_methods[] = {
    {"_domain_to_ascii", py_domain_to_ascii, METH_O, domain_to_ascii_doc},
    {"_domain_to_ascii_full", py_domain_to_ascii_full, METH_O, domain_to_ascii_full_doc},
    {"_domain_to_unicode", py_domain_to_unicode, METH_O, domain_to_unicode_doc},
    {"_host_to_ascii", py_host_to_ascii, METH_O, host_to_ascii_doc},
    {"_host_to_unicode", py_host_to_unicode, METH_O, host_to_unicode_doc},
    {NULL, NULL, 0, NULL},
};
