/* CPython binding of src/core/pct_ecma.c: the private functions behind
 * pctcodec.ecmascript (decodeURI, decodeURIComponent, escape, unescape) and
 * pctcodec.rfc3986.uri_to_iri.
 *
 * The core reads a str's own storage (1, 2 or 4 byte units), so no encoding
 * to UTF-8 is needed, and error positions are str indexes as they come. The
 * decoders measure, allocate the result at its exact width and length, then
 * write it; text they would leave unchanged is returned without a copy.
 */
#include "_pctcodec.h"
#include "pct_ecma.h"

static int get_text(PyObject *s, const char *fname, pct_text *t)
{
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.200s", fname,
                     Py_TYPE(s)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0) /* legacy strings, gone in 3.12 */
        return -1;
#endif
    t->data = PyUnicode_DATA(s);
    t->len = (size_t)PyUnicode_GET_LENGTH(s);
    t->kind = (int)PyUnicode_KIND(s);
    return 0;
}

/* s unchanged, as an exact str (str subclasses are copied). */
static PyObject *unchanged(PyObject *s)
{
    return PyUnicode_CheckExact(s) ? Py_NewRef(s) : PyUnicode_FromObject(s);
}

/* ---------------------------------------------------------------------------
 * decode_uri, decode_uri_component
 */
static PyObject *decode_error(PyObject *module, pct_ecma_error e, size_t pos)
{
    const char *why = e == PCT_ECMA_INVALID_START          ? "invalid start byte"
                      : e == PCT_ECMA_INVALID_CONTINUATION ? "invalid continuation byte"
                                                           : "unexpected end of data";
    /* the wording of the UTF-8 decoder, as the escapes were once decoded by it */
    PyObject *reason = e == PCT_ECMA_BAD_ESCAPE
                           ? PyUnicode_FromString("'%' not followed by two hex digits")
                           : PyUnicode_FromFormat("escapes do not encode valid UTF-8 (%s)", why);
    if (!reason)
        return NULL;
    raise_percent_error(module, reason, (Py_ssize_t)pos);
    Py_DECREF(reason);
    return NULL;
}

/* One of the decoders and its options. */
typedef struct {
    enum { DECODE_URI, UNESCAPE, IRI } op;
    int keep_reserved;                 /* DECODE_URI */
    size_t private_start, private_end; /* IRI: the query */
} decoder;

static pct_ecma_error run(const decoder *dec, pct_text t, void *dst, int kind, pct_decoded *d,
                          size_t *pos)
{
    switch (dec->op) {
    case DECODE_URI:
        return pct_ecma_decode(t, dec->keep_reserved, dst, kind, d, pos);
    case UNESCAPE:
        pct_js_unescape(t, dst, kind, d);
        return PCT_ECMA_OK;
    default:
        pct_iri_decode(t, dec->private_start, dec->private_end, dst, kind, d);
        return PCT_ECMA_OK;
    }
}

/* Measure; s itself if nothing was decoded; else the result at its exact
 * width and length, written by a second pass. */
static PyObject *decode_str(PyObject *module, PyObject *s, pct_text t, const decoder *dec)
{
    pct_decoded d;
    size_t pos = 0;
    pct_ecma_error e;
    MAYBE_WITHOUT_GIL(t.len >= NOGIL_MIN_LENGTH, e = run(dec, t, NULL, 0, &d, &pos));
    if (e != PCT_ECMA_OK)
        return decode_error(module, e, pos);
    if (d.len == t.len) /* each decoded escape shortens the text: none was */
        return unchanged(s);
    /* Every character that is not an escape is kept, so the widest is the
     * wider of s's own and the widest decoded one. */
    Py_UCS4 maxchar = PyUnicode_MAX_CHAR_VALUE(s);
    PyObject *out = PyUnicode_New((Py_ssize_t)d.len, d.maxchar > maxchar ? d.maxchar : maxchar);
    if (out) {
        void *dst = PyUnicode_DATA(out);
        int kind = (int)PyUnicode_KIND(out);
        MAYBE_WITHOUT_GIL(t.len >= NOGIL_MIN_LENGTH, run(dec, t, dst, kind, &d, &pos));
    }
    return out;
}

static PyObject *decode(PyObject *module, PyObject *s, int keep_reserved, const char *fname)
{
    pct_text t;
    if (get_text(s, fname, &t) < 0)
        return NULL;
    decoder dec = {DECODE_URI, keep_reserved, 0, 0};
    return decode_str(module, s, t, &dec);
}

PyDoc_STRVAR(decode_uri_doc,
"_decode_uri($module, s, /)\n--\n\n"
"decodeURI: see pctcodec.ecmascript.decode_uri.");

static PyObject *py_decode_uri(PyObject *module, PyObject *s)
{
    return decode(module, s, 1, "decode_uri");
}

PyDoc_STRVAR(decode_uri_component_doc,
"_decode_uri_component($module, s, /)\n--\n\n"
"decodeURIComponent: see pctcodec.ecmascript.decode_uri_component.");

static PyObject *py_decode_uri_component(PyObject *module, PyObject *s)
{
    return decode(module, s, 0, "decode_uri_component");
}

/* ---------------------------------------------------------------------------
 * js_escape, js_unescape
 */
PyDoc_STRVAR(js_escape_doc,
"_js_escape($module, s, /)\n--\n\n"
"escape: see pctcodec.ecmascript.js_escape.");

static PyObject *py_js_escape(PyObject *module, PyObject *s)
{
    (void)module;
    pct_text t;
    if (get_text(s, "js_escape", &t) < 0)
        return NULL;
    size_t size;
    pct_status st;
    MAYBE_WITHOUT_GIL(t.len >= NOGIL_MIN_LENGTH,
                      st = pct_js_escaped_size(t, PY_SSIZE_T_MAX, &size));
    if (st != PCT_OK)
        return pct_py_too_long();
    if (size == t.len) /* an escape is 3 or more characters: nothing to escape */
        return unchanged(s);
    PyObject *out = PyUnicode_New((Py_ssize_t)size, 127);
    if (out) {
        uint8_t *dst = PyUnicode_1BYTE_DATA(out);
        MAYBE_WITHOUT_GIL(t.len >= NOGIL_MIN_LENGTH, pct_js_escape(t, dst));
    }
    return out;
}

PyDoc_STRVAR(js_unescape_doc,
"_js_unescape($module, s, /)\n--\n\n"
"unescape: see pctcodec.ecmascript.js_unescape.");

static PyObject *py_js_unescape(PyObject *module, PyObject *s)
{
    pct_text t;
    if (get_text(s, "js_unescape", &t) < 0)
        return NULL;
    decoder dec = {UNESCAPE, 0, 0, 0};
    return decode_str(module, s, t, &dec);
}

/* ---------------------------------------------------------------------------
 * uri_to_iri
 */
PyDoc_STRVAR(uri_to_iri_doc,
"_uri_to_iri($module, uri, /)\n--\n\n"
"uri_to_iri but for punycode host labels: the IRI, or, when a host label\n"
"starts with 'xn--', (iri, start, end) with the host at iri[start:end].");

static PyObject *py_uri_to_iri(PyObject *module, PyObject *s)
{
    pct_text t;
    if (get_text(s, "uri_to_iri", &t) < 0)
        return NULL;
    pct_iri_parts parts;
    MAYBE_WITHOUT_GIL(t.len >= NOGIL_MIN_LENGTH, pct_iri_split(t, &parts));
    decoder dec = {IRI, 0, parts.query_start, parts.query_end};
    PyObject *out = decode_str(module, s, t, &dec);
    if (!out || !parts.host_punycode)
        return out;
    /* Where the host went: no escape spans its ends ('/', '@', ':', ... are
     * not hex), so the parts before and in it decode on their own. */
    pct_decoded before, host;
    pct_iri_decode(pct_text_slice(t, 0, parts.host_start), 0, 0, NULL, 0, &before);
    pct_iri_decode(pct_text_slice(t, parts.host_start, parts.host_end), 0, 0, NULL, 0, &host);
    PyObject *result = Py_BuildValue("(Onn)", out, (Py_ssize_t)before.len,
                                     (Py_ssize_t)(before.len + host.len));
    Py_DECREF(out);
    return result;
}

PyMethodDef ecma_methods[] = {
    {"_decode_uri", py_decode_uri, METH_O, decode_uri_doc},
    {"_decode_uri_component", py_decode_uri_component, METH_O, decode_uri_component_doc},
    {"_js_escape", py_js_escape, METH_O, js_escape_doc},
    {"_js_unescape", py_js_unescape, METH_O, js_unescape_doc},
    {"_uri_to_iri", py_uri_to_iri, METH_O, uri_to_iri_doc},
    {NULL, NULL, 0, NULL},
};
