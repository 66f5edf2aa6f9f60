/* CPython binding of the RFC 3986 core (src/core/pct_uri.c, pct_resolve.c):
 * requote, check, is_valid, normalize, equivalent, iri_to_uri, resolve.
 *
 * The core works on UTF-8. An ASCII str is read in place; any other str is
 * encoded to a temporary bytes object first (not cached on the str, so a
 * pipeline over millions of strings does not keep a UTF-8 copy of each).
 * Results are ASCII str.
 */
#include "_pctcodec.h" /* first: Python.h before the standard headers */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_idna.h"
#include "pct_resolve.h"
#include "pct_uri.h"

/* The UTF-8 form of a str argument. */
typedef struct {
    const uint8_t *data;
    size_t len;
    PyObject *owner; /* the bytes holding data, or NULL when it is the str's own */
} utf8_text;

/* raise_percent_error with a C string reason. */
static PyObject *raise_percent_error_at(PyObject *module, const char *reason, Py_ssize_t index)
{
    PyObject *text = PyUnicode_FromString(reason);
    if (text) {
        raise_percent_error(module, text, index);
        Py_DECREF(text);
    }
    return NULL;
}

/* PercentEncodingError at the first lone surrogate of s (the UnicodeEncodeError
 * of its UTF-8 encoding is pending); shared through _pctcodec.h. */
void raise_surrogate_error(PyObject *module, PyObject *s)
{
    Py_ssize_t i = str_first_surrogate(s);
    if (i >= 0) {
        char reason[64];
        snprintf(reason, sizeof reason, "lone surrogate U+%04X has no UTF-8 form",
                 (unsigned)PyUnicode_READ_CHAR(s, i));
        PyErr_Clear();
        raise_percent_error_at(module, reason, i);
    }
}

/* strict: a lone surrogate, which has no UTF-8 form, raises
 * PercentEncodingError at its index; surrogatepass: it becomes 3 bytes
 * >= 0x80 the core reports as not allowed. */
static int get_text(PyObject *module, PyObject *s, const char *fname, int surrogatepass,
                    utf8_text *t)
{
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.200s", fname,
                     Py_TYPE(s)->tp_name);
        return -1;
    }
    if (PyUnicode_IS_ASCII(s)) {
        t->data = PyUnicode_1BYTE_DATA(s);
        t->len = (size_t)PyUnicode_GET_LENGTH(s);
        t->owner = NULL;
        return 0;
    }
    t->owner = surrogatepass ? PyUnicode_AsEncodedString(s, "utf-8", "surrogatepass")
                             : PyUnicode_AsUTF8String(s);
    if (!t->owner) {
        if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            raise_surrogate_error(module, s);
        return -1;
    }
    t->data = (const uint8_t *)PyBytes_AS_STRING(t->owner);
    t->len = (size_t)PyBytes_GET_SIZE(t->owner);
    return 0;
}

/* The index in the str of the character at UTF-8 offset `pos`: the bytes
 * before it that start a character (surrogatepass keeps one lead per unit). */
static Py_ssize_t char_index(const utf8_text *t, size_t pos)
{
    if (!t->owner)
        return (Py_ssize_t)pos;
    Py_ssize_t index = 0;
    for (size_t i = 0; i < pos; i++)
        index += (t->data[i] & 0xC0) != 0x80;
    return index;
}

/* An ASCII str of s's type rules: the input itself when it is an exact str
 * with the same text, else a new str. */
static PyObject *ascii_result(PyObject *s, const utf8_text *t, const uint8_t *buf, size_t len)
{
    if (!t->owner && len == t->len && PyUnicode_CheckExact(s) && memcmp(buf, t->data, len) == 0)
        return Py_NewRef(s);
    PyObject *out = PyUnicode_New((Py_ssize_t)len, 127);
    if (out)
        memcpy(PyUnicode_1BYTE_DATA(out), buf, len);
    return out;
}

/* ---------------------------------------------------------------------------
 * check, is_valid
 */
static PyObject *raise_invalid(PyObject *module, PyObject *s, const utf8_text *t,
                               pct_uri_problem problem, size_t pos)
{
    Py_ssize_t index = char_index(t, pos);
    PyObject *reason;
    if (problem == PCT_URI_BAD_ESCAPE) {
        reason = PyUnicode_FromString("'%' not followed by two hex digits");
    } else {
        Py_UCS4 ch = PyUnicode_READ_CHAR(s, index);
        char code[16];
        snprintf(code, sizeof code, "U+%04X", (unsigned)ch);
        PyObject *one = PyUnicode_FromOrdinal((int)ch);
        reason = one ? PyUnicode_FromFormat("character %R (%s) not allowed in a URI", one, code)
                     : NULL;
        Py_XDECREF(one);
    }
    if (!reason)
        return NULL;
    raise_percent_error(module, reason, index);
    Py_DECREF(reason);
    return NULL;
}

PyDoc_STRVAR(check_doc,
"check($module, s, /)\n--\n\n"
"Raise PercentEncodingError unless s is valid percent-encoded URI text.\n"
"\n"
"Valid text holds only unreserved and reserved characters (RFC 3986 2.2,\n"
"2.3) and '%' followed by two hex digits.\n"
"\n"
"Parameters\n"
"----------\n"
"s : str\n"
"    The text.\n"
"\n"
"Returns\n"
"-------\n"
"None\n"
"    When the text is valid.\n"
"\n"
"Raises\n"
"------\n"
"PercentEncodingError\n"
"    At the first offending character: its `position` is its index.\n"
"TypeError\n"
"    `s` is not a str.\n"
"\n"
"Examples\n"
"--------\n"
">>> check(\"a%20b\")\n"
">>> check(\"asdf%*.fred\")\n"
"Traceback (most recent call last):\n"
"    ...\n"
"pctcodec.PercentEncodingError: '%' not followed by two hex digits at position 4");

static PyObject *py_check(PyObject *module, PyObject *s)
{
    utf8_text t;
    if (get_text(module, s, "check", 1, &t) < 0)
        return NULL;
    size_t pos;
    pct_uri_problem problem = pct_uri_check(t.data, t.len, &pos);
    PyObject *out = problem == PCT_URI_VALID ? Py_NewRef(Py_None) : raise_invalid(module, s, &t, problem, pos);
    Py_XDECREF(t.owner);
    return out;
}

PyDoc_STRVAR(is_valid_doc,
"is_valid($module, s, /)\n--\n\n"
"True when check(s) would pass.\n"
"\n"
"Parameters\n"
"----------\n"
"s : str\n"
"    The text.\n"
"\n"
"Returns\n"
"-------\n"
"bool\n"
"    Whether `s` is valid percent-encoded URI text.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `s` is not a str.\n"
"\n"
"Examples\n"
"--------\n"
">>> is_valid(\"a%20b\"), is_valid(\"a b\")\n"
"(True, False)");

static PyObject *py_is_valid(PyObject *module, PyObject *s)
{
    (void)module;
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError, "is_valid() argument must be str, not %.200s",
                     Py_TYPE(s)->tp_name);
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(s))
        Py_RETURN_FALSE; /* non-ASCII characters are never allowed */
    size_t pos;
    return PyBool_FromLong(pct_uri_check(PyUnicode_1BYTE_DATA(s), (size_t)PyUnicode_GET_LENGTH(s),
                                         &pos) == PCT_URI_VALID);
}

/* ---------------------------------------------------------------------------
 * requote
 */
PyDoc_STRVAR(requote_doc,
"requote($module, uri, /)\n--\n\n"
"Make a string a valid URI without changing what it denotes.\n"
"\n"
"Unreserved and reserved characters and valid %XX escapes are kept (hex in\n"
"uppercase); a '%' not followed by two hex digits becomes %25; every other\n"
"character is percent-encoded as UTF-8. Idempotent.\n"
"\n"
"Parameters\n"
"----------\n"
"uri : str\n"
"    The URI to repair.\n"
"\n"
"Returns\n"
"-------\n"
"str\n"
"    A URI that passes check().\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    The argument is not a str.\n"
"PercentEncodingError\n"
"    A lone surrogate (no UTF-8 form), at its index.\n"
"\n"
"Examples\n"
"--------\n"
">>> requote(\"http://example.com/a b/100%/caf%c3%a9\")\n"
"'http://example.com/a%20b/100%25/caf%C3%A9'");

static PyObject *py_requote(PyObject *module, PyObject *s)
{
    utf8_text t;
    if (get_text(module, s, "requote", 0, &t) < 0)
        return NULL;
    PyObject *out = NULL;
    size_t size;
    if (pct_requote_span(t.data, t.len, PCT_URI_UPPER_HEX) == t.len) {
        out = ascii_result(s, &t, t.data, t.len); /* nothing to change (ASCII only) */
    } else if (pct_requoted_size(t.data, t.len, PY_SSIZE_T_MAX, &size) != PCT_OK) {
        pct_py_too_long();
    } else if ((out = PyUnicode_New((Py_ssize_t)size, 127))) {
        uint8_t *dst = PyUnicode_1BYTE_DATA(out);
        MAYBE_WITHOUT_GIL(t.len >= NOGIL_MIN_LENGTH,
                          pct_requote(t.data, t.len, PCT_URI_UPPER_HEX, dst));
    }
    Py_XDECREF(t.owner);
    return out;
}

/* ---------------------------------------------------------------------------
 * normalize, equivalent, iri_to_uri: split, then write back with flags.
 */

/* Short URIs are written on the stack, then copied into their str; so are
 * the IDNA forms of hosts. */
#define HOST_FORM_BUFFER 256
#define STACK_BUFFER 1024

/* strict_idna: a host with no ASCII form raises PercentEncodingError at
 * the host, instead of being written as percent-encoded UTF-8. */
static PyObject *rewrite(PyObject *module, PyObject *s, const char *fname, unsigned flags,
                         int strict_idna);

/* rewrite() of s after the URL Standard's input cleanup (pct_uri_strip):
 * positions in errors are then those of the cleaned text. */
static PyObject *rewrite_stripped(PyObject *module, PyObject *s, const char *fname,
                                  unsigned flags, int strict_idna)
{
    utf8_text t;
    if (get_text(module, s, fname, 0, &t) < 0)
        return NULL;
    if (!pct_uri_needs_strip(t.data, t.len)) {
        Py_XDECREF(t.owner);
        return rewrite(module, s, fname, flags, strict_idna);
    }
    PyObject *r = NULL;
    uint8_t *buf = PyMem_Malloc(t.len);
    if (!buf) {
        PyErr_NoMemory();
    } else {
        size_t len = pct_uri_strip(t.data, t.len, buf);
        PyObject *clean = PyUnicode_DecodeUTF8((const char *)buf, (Py_ssize_t)len, "strict");
        PyMem_Free(buf);
        if (clean)
            r = rewrite(module, clean, fname, flags, strict_idna);
        Py_XDECREF(clean);
    }
    Py_XDECREF(t.owner);
    return r;
}

static PyObject *rewrite(PyObject *module, PyObject *s, const char *fname, unsigned flags,
                         int strict_idna)
{
    utf8_text t;
    if (get_text(module, s, fname, 0, &t) < 0)
        return NULL;
    PyObject *out = NULL;
    uint8_t stack[STACK_BUFFER], *buf = stack, form_buf[HOST_FORM_BUFFER], *form_heap = NULL;
    pct_uri u;
    pct_uri_split(t.data, t.len, &u);
    const uint8_t *host = NULL;
    size_t host_len = 0, bound, len;
    /* In an ASCII str, only a host with a '%' can need IDNA (noted by the split). */
    const uint8_t *h = t.data + u.host.start;
    if (u.has_authority && (t.owner || u.host_escaped) &&
        pct_host_needs_idna(h, u.host.len, flags & PCT_URI_DECODE_UNRESERVED)) {
        /* the URL Standard's domain to ASCII (src/core/pct_idna.c) */
        pct_status rc;
        MAYBE_WITHOUT_GIL(u.host.len >= NOGIL_MIN_LENGTH,
                          rc = pct_idna_host_form(h, u.host.len, form_buf, sizeof form_buf, &host,
                                                  &host_len, &form_heap));
        if (rc == PCT_ERR_NO_MEMORY) {
            PyErr_NoMemory();
            goto done;
        }
        if (rc != PCT_OK) {
            host = NULL;
            host_len = 0;
        }
        if (rc != PCT_OK && strict_idna) {
            raise_percent_error_at(module, "host has no IDNA (UTS #46) form",
                                   char_index(&t, u.host.start));
            goto done;
        }
    }
    if (pct_uri_size_bound(t.len, host_len, PY_SSIZE_T_MAX, &bound) != PCT_OK) {
        pct_py_too_long();
        goto done;
    }
    if (bound > STACK_BUFFER && !(buf = PyMem_Malloc(bound))) {
        PyErr_NoMemory();
        goto done;
    }
    if (pct_uri_write(t.data, &u, host, host_len, flags, buf, &len) != PCT_OK) {
        PyErr_NoMemory();
        goto done;
    }
    out = ascii_result(s, &t, buf, len);
done:
    if (buf != stack)
        PyMem_Free(buf);
    free(form_heap);
    Py_XDECREF(t.owner);
    return out;
}

/* parse_args for a function of one positional argument and keywords. */
static int uri_and_keywords(const argspec *spec, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames, PyObject **out)
{
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes 1 positional argument but %zd were given",
                     spec->fname, nargs);
        return -1;
    }
    return parse_args(spec, args, nargs, kwnames, out);
}

static const char *const NORMALIZE_ARGS[] = {"uri", "sort_query", "drop_fragment", "strict_idna",
                                             "strip_whitespace"};

PyDoc_STRVAR(normalize_doc,
"normalize($module, uri, /, *, sort_query=False, drop_fragment=False, strict_idna=False,\n"
"          strip_whitespace=True)\n--\n\n"
"Normalize a URI (RFC 3986 6.2.2 and 6.2.3).\n"
"\n"
"First, as the URL Standard's parser does, leading and trailing C0 controls\n"
"and spaces are stripped and ASCII tabs and newlines removed. Then scheme and\n"
"host in lowercase, escapes of unreserved characters decoded and all other\n"
"escapes in uppercase hex, the string repaired as requote() does, dot\n"
"segments removed, the default port and an empty port dropped, an empty\n"
"path with an authority made '/'. Reserved characters are never decoded.\n"
"Idempotent; the result always passes check(). A host with non-ASCII\n"
"characters, or escapes of them, is mapped the way browsers do (the URL\n"
"Standard's domain to ASCII: UTS #46, punycode).\n"
"\n"
"Parameters\n"
"----------\n"
"uri : str\n"
"    The URI.\n"
"sort_query : bool, optional\n"
"    Sort the query's parameters by name (stable).\n"
"drop_fragment : bool, optional\n"
"    Remove the fragment.\n"
"strict_idna : bool, optional\n"
"    Raise for a host that has no IDNA form, instead of writing it as\n"
"    percent-encoded UTF-8.\n"
"strip_whitespace : bool, optional\n"
"    Strip surrounding C0 controls and spaces and remove tabs and newlines\n"
"    first (default); False escapes them as data (%09, %20, ...).\n"
"\n"
"Returns\n"
"-------\n"
"str\n"
"    The normalized URI.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    The argument is not a str.\n"
"PercentEncodingError\n"
"    A lone surrogate (no UTF-8 form), at its index.\n"
"    With strict_idna, also a host with no IDNA form, at the host.\n"
"\n"
"Examples\n"
"--------\n"
">>> normalize(\"HTTP://Example.COM:80/a/./b/../%7Euser/%2f?q=%3d\")\n"
"'http://example.com/a/~user/%2F?q=%3D'");

static PyObject *py_normalize(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    static const argspec spec = {"normalize", NORMALIZE_ARGS, 5, 1, 0, -1};
    if (nargs == 1 && kwnames == NULL) /* the common call: no options to read */
        return rewrite_stripped(module, args[0], "normalize", PCT_URI_NORMALIZE, 0);
    PyObject *a[5];
    if (uri_and_keywords(&spec, args, nargs, kwnames, a) < 0)
        return NULL;
    unsigned flags = PCT_URI_NORMALIZE;
    int sort_query = a[1] ? PyObject_IsTrue(a[1]) : 0;
    int drop_fragment = a[2] ? PyObject_IsTrue(a[2]) : 0;
    int strict_idna = a[3] ? PyObject_IsTrue(a[3]) : 0;
    int strip = a[4] ? PyObject_IsTrue(a[4]) : 1;
    if (sort_query < 0 || drop_fragment < 0 || strict_idna < 0 || strip < 0)
        return NULL;
    if (sort_query)
        flags |= PCT_URI_SORT_QUERY;
    if (drop_fragment)
        flags |= PCT_URI_DROP_FRAGMENT;
    return (strip ? rewrite_stripped : rewrite)(module, a[0], "normalize", flags, strict_idna);
}

PyDoc_STRVAR(equivalent_doc,
"equivalent($module, a, b, /)\n--\n\n"
"True when normalize(a) == normalize(b).\n"
"\n"
"Parameters\n"
"----------\n"
"a, b : str\n"
"    The two URIs.\n"
"\n"
"Returns\n"
"-------\n"
"bool\n"
"    Whether they denote the same resource by RFC 3986's syntax.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    The argument is not a str.\n"
"PercentEncodingError\n"
"    A lone surrogate (no UTF-8 form), at its index.\n"
"\n"
"Examples\n"
"--------\n"
">>> equivalent(\"http://h/~user\", \"http://h/%7Euser\"), equivalent(\"http://h/a%2Fb\", \"http://h/a/b\")\n"
"(True, False)");

static PyObject *py_equivalent(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "equivalent() takes exactly 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *a = rewrite_stripped(module, args[0], "equivalent", PCT_URI_NORMALIZE, 0);
    if (!a)
        return NULL;
    PyObject *b = rewrite_stripped(module, args[1], "equivalent", PCT_URI_NORMALIZE, 0);
    if (!b) {
        Py_DECREF(a);
        return NULL;
    }
    PyObject *out = PyObject_RichCompare(a, b, Py_EQ);
    Py_DECREF(a);
    Py_DECREF(b);
    return out;
}

PyDoc_STRVAR(iri_to_uri_doc,
"iri_to_uri($module, iri, /, *, strict_idna=False)\n--\n\n"
"Map an IRI to a URI (RFC 3987 3.1).\n"
"\n"
"A host with non-ASCII characters goes through IDNA as in normalize().\n"
"Everywhere else every character a URI may not hold is percent-encoded as\n"
"UTF-8, as requote() does. Reserved characters and valid escapes are left\n"
"exactly as they are.\n"
"\n"
"Parameters\n"
"----------\n"
"iri : str\n"
"    The IRI.\n"
"strict_idna : bool, optional\n"
"    Raise for a host that has no IDNA form, instead of percent-encoding it.\n"
"\n"
"Returns\n"
"-------\n"
"str\n"
"    The URI.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    The argument is not a str.\n"
"PercentEncodingError\n"
"    A lone surrogate (no UTF-8 form), at its index.\n"
"    With strict_idna, also a host with no IDNA form, at the host.\n"
"\n"
"Examples\n"
"--------\n"
">>> iri_to_uri(\"http://例え.jp/引き出し\")\n"
"'http://xn--r8jz45g.jp/%E5%BC%95%E3%81%8D%E5%87%BA%E3%81%97'");

static const char *const IRI_TO_URI_ARGS[] = {"iri", "strict_idna"};

static PyObject *py_iri_to_uri(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    static const argspec spec = {"iri_to_uri", IRI_TO_URI_ARGS, 2, 1, 0, -1};
    PyObject *a[2];
    if (uri_and_keywords(&spec, args, nargs, kwnames, a) < 0)
        return NULL;
    int strict_idna = a[1] ? PyObject_IsTrue(a[1]) : 0;
    if (strict_idna < 0)
        return NULL;
    return rewrite(module, a[0], "iri_to_uri", 0, strict_idna);
}

/* ---------------------------------------------------------------------------
 * resolve: RFC 3986 5.2, then normalize's rewrite of the target on request.
 */

/* ResolveError for a base whose scheme stops at byte `pos` of t. */
static PyObject *raise_not_absolute(PyObject *module, PyObject *s, const utf8_text *t, size_t pos)
{
    Py_ssize_t index = char_index(t, pos);
    PyObject *reason;
    if (pos == t->len)
        reason = PyUnicode_FromString("base URI is not absolute: no ':' ends a scheme");
    else if (t->data[pos] == ':')
        reason = PyUnicode_FromString("base URI is not absolute: its scheme is empty");
    else if (pos == 0)
        reason = PyUnicode_FromString("base URI is not absolute: a scheme starts with a letter");
    else {
        PyObject *one = PyUnicode_FromOrdinal((int)PyUnicode_READ_CHAR(s, index));
        reason = one ? PyUnicode_FromFormat("base URI is not absolute: character %R cannot be in "
                                            "a scheme", one)
                     : NULL;
        Py_XDECREF(one);
    }
    PyObject *cls = reason ? package_attr(module, "_ResolveError", "pctcodec._errors",
                                          "ResolveError")
                           : NULL;
    PyObject *exc = cls ? PyObject_CallFunction(cls, "On", reason, index) : NULL;
    if (exc)
        PyErr_SetObject(cls, exc);
    Py_XDECREF(exc);
    Py_XDECREF(cls);
    Py_XDECREF(reason);
    return NULL;
}

static const char *const RESOLVE_ARGS[] = {"base", "reference", "normalize", "strict"};

PyDoc_STRVAR(resolve_doc,
"resolve($module, base, reference, /, *, normalize=False, strict=True)\n--\n\n"
"The target URI of `reference` against `base` (RFC 3986 5.2).\n\n"
"See pctcodec.resolution for the rules.");

static PyObject *py_resolve(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames)
{
    static const argspec spec = {"resolve", RESOLVE_ARGS, 4, 2, 0, -1};
    PyObject *a[4] = {NULL, NULL, NULL, NULL};
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "resolve() takes 2 positional arguments but %zd were given",
                     nargs);
        return NULL;
    }
    if (nargs == 2 && !kwnames) {
        a[0] = args[0];
        a[1] = args[1];
    } else if (parse_args(&spec, args, nargs, kwnames, a) < 0) {
        return NULL;
    }
    int normalize = a[2] ? PyObject_IsTrue(a[2]) : 0;
    int strict = a[3] ? PyObject_IsTrue(a[3]) : 1;
    if (normalize < 0 || strict < 0)
        return NULL;
    utf8_text b, r;
    if (get_text(module, a[0], "resolve", 0, &b) < 0)
        return NULL;
    if (get_text(module, a[1], "resolve", 0, &r) < 0) {
        Py_XDECREF(b.owner);
        return NULL;
    }
    PyObject *out = NULL;
    uint8_t stack[STACK_BUFFER], *buf = stack;
    size_t bound, len, pos;
    if (pct_resolve_bound(b.len, r.len, PY_SSIZE_T_MAX, &bound) != PCT_OK) {
        pct_py_too_long();
        goto done;
    }
    if (bound > STACK_BUFFER && !(buf = PyMem_Malloc(bound))) {
        PyErr_NoMemory();
        goto done;
    }
    if (pct_resolve(b.data, b.len, r.data, r.len, strict ? 0 : PCT_RESOLVE_NON_STRICT, buf, &len,
                    &pos) != PCT_OK) {
        raise_not_absolute(module, a[0], &b, pos);
        goto done;
    }
    if (!b.owner && !r.owner) { /* ASCII in, ASCII out */
        if ((out = PyUnicode_New((Py_ssize_t)len, 127)))
            memcpy(PyUnicode_1BYTE_DATA(out), buf, len);
    } else {
        out = PyUnicode_DecodeUTF8((const char *)buf, (Py_ssize_t)len, "strict");
    }
    if (out && normalize) {
        PyObject *target = out;
        out = rewrite_stripped(module, target, "resolve", PCT_URI_NORMALIZE, 0); /* as normalize() */
        Py_DECREF(target);
    }
done:
    if (buf != stack)
        PyMem_Free(buf);
    Py_XDECREF(b.owner);
    Py_XDECREF(r.owner);
    return out;
}

PyMethodDef uri_methods[] = {
    {"requote", py_requote, METH_O, requote_doc},
    {"check", py_check, METH_O, check_doc},
    {"is_valid", py_is_valid, METH_O, is_valid_doc},
    {"normalize", (PyCFunction)(void (*)(void))py_normalize, METH_FASTCALL | METH_KEYWORDS,
     normalize_doc},
    {"equivalent", (PyCFunction)(void (*)(void))py_equivalent, METH_FASTCALL, equivalent_doc},
    {"iri_to_uri", (PyCFunction)(void (*)(void))py_iri_to_uri, METH_FASTCALL | METH_KEYWORDS,
     iri_to_uri_doc},
    {"resolve", (PyCFunction)(void (*)(void))py_resolve, METH_FASTCALL | METH_KEYWORDS,
     resolve_doc},
    {NULL, NULL, 0, NULL},
};
