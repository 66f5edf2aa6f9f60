/* The Public Suffix List in the binding: a list compiled into a capsule
 * (src/core/pct_psl.c), and one value's part by it (src/core/pct_domain.c).
 * The public functions, which choose the list and do the rows the core
 * leaves to them (IDNA, errors, Unicode output), are in
 * src/pctcodec/domains.py; the batch forms run through the batch engine
 * (src/_pctcodec_batch.c, PCT_BATCH_DOMAIN). */
#include <stdlib.h>
#include <string.h>

#include "_pctcodec.h"
#include "pct_authority.h"
#include "pct_domain.h"
#include "pct_psl.h"

static const char CAPSULE_NAME[] = "pctcodec.psl";

static void capsule_free(PyObject *capsule)
{
    pct_psl_free(PyCapsule_GetPointer(capsule, CAPSULE_NAME));
}

const pct_psl *domain_psl(PyObject *capsule)
{
    if (!PyCapsule_IsValid(capsule, CAPSULE_NAME)) {
        PyErr_SetString(PyExc_TypeError, "not a compiled suffix list");
        return NULL;
    }
    return PyCapsule_GetPointer(capsule, CAPSULE_NAME);
}

PyDoc_STRVAR(psl_compile_doc,
"_psl_compile($module, text, /)\n--\n\n"
"The list text (UTF-8 bytes) compiled: (capsule, counts), counts the six\n"
"numbers (rules, wildcards, exceptions) of ICANN then PRIVATE; ValueError\n"
"(args: message, line) for a rule that is no domain.");

static PyObject *py_psl_compile(PyObject *module, PyObject *text)
{
    (void)module;
    Py_buffer view;
    if (PyObject_GetBuffer(text, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    pct_psl *psl = NULL;
    pct_psl_counts c;
    size_t line = 0;
    int rc;
    sig_gate gate;
    pct_interrupt stop = {sig_gate_callback, &gate};
    /* the buffer stays put: a bytes object is immutable, and the view holds it */
    MAYBE_WITHOUT_GIL_GATED(1, &gate,
                            rc = pct_psl_compile_stoppable(view.buf, (size_t)view.len, &psl, &c,
                                                           &line, &stop));
    PyBuffer_Release(&view);
    if (rc == PCT_ERR_INTERRUPTED)
        return NULL; /* the handler's exception is raised */
    if (rc == PCT_ERR_NO_MEMORY)
        return PyErr_NoMemory();
    if (rc == PCT_ERR_TOO_LARGE) {
        PyErr_SetString(PyExc_OverflowError, "a suffix list over 2 GiB");
        return NULL;
    }
    if (rc != PCT_OK) {
        PyObject *args = Py_BuildValue("(sn)", "not a rule", (Py_ssize_t)line);
        if (args) {
            PyErr_SetObject(PyExc_ValueError, args);
            Py_DECREF(args);
        }
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(psl, CAPSULE_NAME, capsule_free);
    if (!capsule) {
        pct_psl_free(psl);
        return NULL;
    }
    return Py_BuildValue("(N(nnnnnn))", capsule, (Py_ssize_t)c.rules[0],
                         (Py_ssize_t)c.wildcards[0], (Py_ssize_t)c.exceptions[0],
                         (Py_ssize_t)c.rules[1], (Py_ssize_t)c.wildcards[1],
                         (Py_ssize_t)c.exceptions[1]);
}

PyDoc_STRVAR(domain_doc,
"_domain($module, value, psl, flags, /)\n--\n\n"
"The part of the str value that flags (PCT_DOMAIN_*) names, by the compiled\n"
"list psl: a str, None when there is no such part, or NotImplemented when\n"
"the caller must do the value (IDNA, an error, Unicode output).");

#define STACK_ROW 512

static PyObject *py_domain(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "_domain() takes a str, a list and flags");
        return NULL;
    }
    const pct_psl *psl = domain_psl(args[1]);
    if (!psl)
        return NULL;
    long flags = PyLong_AsLong(args[2]);
    if (flags == -1 && PyErr_Occurred())
        return NULL;
    PyObject *s = args[0];
    if (!PyUnicode_IS_ASCII(s))
        Py_RETURN_NOTIMPLEMENTED; /* the host may be non-ASCII: the caller's */
    const uint8_t *p = PyUnicode_1BYTE_DATA(s);
    size_t n = (size_t)PyUnicode_GET_LENGTH(s), len;
    uint8_t stack[STACK_ROW], *dst = stack;
    if (n > STACK_ROW && !(dst = malloc(n)))
        return PyErr_NoMemory();
    PyObject *r;
    switch (pct_domain_part(psl, (unsigned)flags, p, n, dst, &len)) {
    case PCT_OK:
        if (len == n && PyUnicode_CheckExact(s) && memcmp(dst, p, n) == 0) {
            r = Py_NewRef(s);
        } else if ((r = PyUnicode_New((Py_ssize_t)len, 127)) != NULL && len) {
            memcpy(PyUnicode_1BYTE_DATA(r), dst, len);
        }
        break;
    case PCT_DOMAIN_NONE:
        r = Py_NewRef(Py_None);
        break;
    default:
        r = Py_NewRef(Py_NotImplemented);
    }
    if (dst != stack)
        free(dst);
    return r;
}

PyDoc_STRVAR(domain_host_doc,
"_domain_host($module, value, /)\n--\n\n"
"Where the host of the UTF-8 bytes value is as the domain functions read\n"
"it (pct_authority_find, PCT_AUTH_WEB): (start, end) byte offsets, or None\n"
"for an IP literal.");

static PyObject *py_domain_host(PyObject *module, PyObject *value)
{
    (void)module;
    if (!PyBytes_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "_domain_host() takes bytes");
        return NULL;
    }
    pct_authority a;
    pct_authority_find((const uint8_t *)PyBytes_AS_STRING(value), (size_t)PyBytes_GET_SIZE(value),
                       PCT_AUTH_WEB, &a);
    if (a.ip_literal)
        Py_RETURN_NONE;
    return Py_BuildValue("(nn)", (Py_ssize_t)a.host, (Py_ssize_t)a.host_end);
}

PyDoc_STRVAR(domain_url_host_doc,
"_domain_url_host($module, value, /)\n--\n\n"
"The host of the UTF-8 bytes value as the URL Standard's parser reads it,\n"
"when the domain functions read value so (a special scheme's URL): the\n"
"hostname (str; \"\" for an IP address or an empty host), or (position,\n"
"reason) when the parser rejects the URL; None for any other value.");

static PyObject *py_domain_url_host(PyObject *module, PyObject *value)
{
    (void)module;
    if (!PyBytes_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "_domain_url_host() takes bytes");
        return NULL;
    }
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(value);
    size_t n = (size_t)PyBytes_GET_SIZE(value);
    if (!pct_domain_browser(p, n))
        Py_RETURN_NONE;
    pct_url u;
    pct_url_init(&u);
    const uint8_t *host;
    size_t hn;
    pct_status rc;
    Py_BEGIN_ALLOW_THREADS
    rc = pct_domain_url_host(&u, p, n, &host, &hn);
    Py_END_ALLOW_THREADS
    PyObject *r;
    if (rc == PCT_OK)
        r = PyUnicode_DecodeASCII((const char *)host, (Py_ssize_t)hn, NULL);
    else if (rc == PCT_DOMAIN_NONE)
        r = PyUnicode_New(0, 127);
    else if (PCT_URL_REJECTED(rc))
        r = Py_BuildValue("(ns)", (Py_ssize_t)u.error_pos, pct_url_reason(rc));
    else
        r = rc == PCT_ERR_NO_MEMORY ? PyErr_NoMemory()
            : (PyErr_SetString(PyExc_OverflowError, "the URL is too large"), NULL);
    pct_url_free(&u);
    return r;
}

PyDoc_STRVAR(web_href_doc,
"_web_href($module, value, /)\n--\n\n"
"The href of the UTF-8 bytes value (str) when canonicalize reads it as\n"
"the URL Standard's parser does (a special scheme's URL whose host the\n"
"domain functions leave to the parser, or whose host the parser reads as\n"
"an IPv4 address) and the parser accepts it; (position, reason) when the\n"
"parser rejects such a URL; else None.");

/* 1 when the parser's host (u, parsed from src) is the host the finder
 * reads in src, read alike (PCT_DOMAIN_READ_ALIKE) and only lowercased (an
 * ASCII host whose xn-- labels the parser checked and kept): the key is
 * then made as for any ASCII host, so that "http://\u00e9.com/?a'" and
 * "http://xn--9ca.com/?a'" (one URL) have one key, and a key keys to
 * itself. */
static int host_read_alike(const uint8_t *src, size_t n, const pct_url *u)
{
    if (pct_domain_host_reader(src, n) != PCT_DOMAIN_READ_ALIKE)
        return 0;
    pct_authority a;
    pct_authority_find(src, n, PCT_AUTH_WEB, &a);
    size_t hn = a.host_end - a.host;
    if (hn != u->host_end - u->host_start)
        return 0;
    for (size_t i = 0; i < hn; i++) {
        uint8_t c = src[a.host + i];
        if ((c >= 'A' && c <= 'Z' ? c | 0x20 : c) != u->href[u->host_start + i])
            return 0;
    }
    return 1;
}

static PyObject *py_web_href(PyObject *module, PyObject *value)
{
    (void)module;
    if (!PyBytes_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "_web_href() takes bytes");
        return NULL;
    }
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(value);
    size_t n = (size_t)PyBytes_GET_SIZE(value);
    uint8_t *scratch = malloc(n ? n : 1);
    if (!scratch)
        return PyErr_NoMemory();
    int parser = pct_domain_parser_row(p, n, scratch);
    free(scratch);
    if (!parser && !pct_domain_browser(p, n))
        Py_RETURN_NONE;
    pct_url u;
    pct_url_init(&u);
    pct_status rc;
    Py_BEGIN_ALLOW_THREADS
    rc = pct_url_parse(&u, p, n, NULL, SIZE_MAX);
    Py_END_ALLOW_THREADS
    PyObject *r;
    if (rc == PCT_OK && parser && u.host_kind == PCT_URL_HOST_DOMAIN && host_read_alike(p, n, &u))
        r = Py_NewRef(Py_None); /* its host as the finder's, in lowercase (valid xn-- labels): as today */
    else if (rc == PCT_OK && (parser || u.host_kind == PCT_URL_HOST_IPV4))
        r = PyUnicode_DecodeASCII((const char *)u.href, (Py_ssize_t)u.len, NULL);
    else if (rc == PCT_ERR_NO_MEMORY)
        r = PyErr_NoMemory();
    else if (PCT_URL_REJECTED(rc))
        r = Py_BuildValue("(ns)", (Py_ssize_t)u.error_pos, pct_url_reason(rc));
    else
        r = Py_NewRef(Py_None); /* too large, or a host the finder reads alike: read as today */
    pct_url_free(&u);
    return r;
}

PyMethodDef domain_methods[] = {
    {"_web_href", py_web_href, METH_O, web_href_doc},
    {"_domain_url_host", py_domain_url_host, METH_O, domain_url_host_doc},
    {"_domain_host", py_domain_host, METH_O, domain_host_doc},
    {"_psl_compile", py_psl_compile, METH_O, psl_compile_doc},
    {"_domain", (PyCFunction)(void (*)(void))py_domain, METH_FASTCALL, domain_doc},
    {NULL, NULL, 0, NULL},
};
