/* unquote, unquote_plus, unquote_to_bytes (urllib.parse's) and decode (any
 * buffer, bytes out): the decoding paths; the decoding itself happens in
 * src/core.
 */
#include <string.h>

#include "_pctcodec.h"

/* The error handler's name as a C string when it is one of the built-in ones
 * (so that no lookup can fail later), else NULL. */
static const char *builtin_errors(PyObject *errors)
{
    static const char *const known[] = {"strict", "replace", "ignore", "surrogateescape",
                                        "surrogatepass", "backslashreplace", NULL};
    if (!PyUnicode_CheckExact(errors) || !PyUnicode_IS_ASCII(errors))
        return NULL;
    for (int i = 0; known[i]; i++)
        if (PyUnicode_CompareWithASCIIString(errors, known[i]) == 0)
            return known[i];
    return NULL;
}

const char *batch_unquote_errors(PyObject *encoding, PyObject *errors)
{
    if (!(is_none_or_missing(encoding) || is_utf8_name(encoding)))
        return NULL;
    return is_none_or_missing(errors) ? "replace" : builtin_errors(errors);
}

/* ---------------------------------------------------------------------------
 * Decoding.
 */

/* A scratch buffer: on the stack when small. */
typedef struct {
    uint8_t *p;
    uint8_t local[512];
} scratch;

static uint8_t *scratch_get(scratch *s, Py_ssize_t n)
{
    if ((size_t)n <= sizeof s->local) {
        s->p = s->local;
        return s->p;
    }
    s->p = PyMem_Malloc((size_t)n);
    if (!s->p)
        PyErr_NoMemory();
    return s->p;
}

static void scratch_free(scratch *s)
{
    if (s->p && s->p != s->local)
        PyMem_Free(s->p);
    s->p = NULL;
}

/* pct_decode of an immutable buffer, with the GIL released when it is long. */
static size_t decode_stable(const uint8_t *src, Py_ssize_t n, int plus, uint8_t *dst)
{
    size_t len;
    MAYBE_WITHOUT_GIL(n >= NOGIL_MIN_LENGTH, len = pct_decode(src, (size_t)n, plus, dst));
    return len;
}

/* The str of what pct_decode_text found valid: Latin-1 text comes out
 * narrowed already (copied), wider text is still its UTF-8. */
static PyObject *str_from_text(const uint8_t *buf, size_t len, const pct_utf8_info *info)
{
    if (info->maxchar > 0xFF)
        return str_from_utf8(buf, len, info);
    PyObject *s = PyUnicode_New((Py_ssize_t)info->nchars, info->maxchar);
    if (s)
        memcpy(PyUnicode_1BYTE_DATA(s), buf, len);
    return s;
}

/* _unquote_impl(src).decode('utf-8', errors), `errors` a built-in handler:
 * one call of the core decodes, checks the UTF-8, counts its code points
 * and finds the widest (Latin-1 text comes out narrowed already), then the
 * text is written straight into a str of the final width (every handler
 * agrees on valid UTF-8). Only malformed UTF-8 goes through CPython's
 * decoder and its handler. */
static PyObject *unquote_utf8(const uint8_t *src, Py_ssize_t n, int plus, const char *errors)
{
    scratch buf;
    uint8_t *p = scratch_get(&buf, n);
    if (!p)
        return NULL;
    pct_utf8_info info;
    size_t len;
    MAYBE_WITHOUT_GIL(n >= NOGIL_MIN_LENGTH, len = pct_decode_text(src, (size_t)n, plus, p, &info));
    PyObject *r = info.valid ? str_from_text(p, len, &info)
                             : PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)len, errors);
    scratch_free(&buf);
    return r;
}

/* Bytes of an unquoted buffer as text in another codec or with another
 * handler than unquote_utf8 takes: bytes.decode(encoding, errors). */
static PyObject *decode_text(module_state *st, const uint8_t *buf, size_t len, PyObject *encoding,
                             PyObject *errors)
{
    PyObject *b = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)len);
    if (!b)
        return NULL;
    PyObject *r = PyObject_CallMethodObjArgs(b, st->s_decode, encoding, errors, NULL);
    Py_DECREF(b);
    return r;
}

/* urllib's unquote of a str that holds a '%': each maximal run of ASCII
 * characters is unquoted and decoded on its own, everything else is kept.
 * Under UTF-8 a run without '%' decodes to itself and is kept as well. */
static PyObject *unquote_runs(module_state *st, PyObject *s, const char *fast_errors,
                              PyObject *encoding, PyObject *errors)
{
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    PyObject *parts = PyList_New(0);
    PyObject *result = NULL;
    scratch buf;
    buf.p = NULL;
    if (!parts)
        return NULL;
    Py_ssize_t kept_from = 0, i = 0;
    while (i < n) {
        if (PyUnicode_READ(kind, data, i) >= 0x80) {
            i++;
            continue;
        }
        Py_ssize_t start = i;
        int has_escape = 0;
        for (; i < n; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (c >= 0x80)
                break;
            has_escape |= c == '%';
        }
        if (fast_errors && !has_escape)
            continue;
        if (start > kept_from) {
            PyObject *piece = PyUnicode_Substring(s, kept_from, start);
            int failed = !piece || PyList_Append(parts, piece) < 0;
            Py_XDECREF(piece);
            if (failed)
                goto done;
        }
        Py_ssize_t len = i - start;
        PyObject *piece;
        if (fast_errors && kind == PyUnicode_1BYTE_KIND) {
            /* the run's code units are its ASCII bytes */
            piece = unquote_utf8((const uint8_t *)data + start, len, 0, fast_errors);
        } else {
            uint8_t *p = scratch_get(&buf, len);
            if (!p)
                goto done;
            for (Py_ssize_t j = 0; j < len; j++)
                p[j] = (uint8_t)PyUnicode_READ(kind, data, start + j);
            if (fast_errors) {
                piece = unquote_utf8(p, len, 0, fast_errors);
            } else {
                size_t dlen = pct_decode(p, (size_t)len, 0, p);
                piece = decode_text(st, p, dlen, encoding, errors);
            }
            scratch_free(&buf);
        }
        int failed = !piece || PyList_Append(parts, piece) < 0;
        Py_XDECREF(piece);
        if (failed)
            goto done;
        kept_from = i;
    }
    if (n > kept_from) {
        PyObject *piece = PyUnicode_Substring(s, kept_from, n);
        int failed = !piece || PyList_Append(parts, piece) < 0;
        Py_XDECREF(piece);
        if (failed)
            goto done;
    }
    result = PyUnicode_Join(st->s_empty, parts);
done:
    scratch_free(&buf);
    Py_DECREF(parts);
    return result;
}

/* The str holds a '%' (with plus, or a '+'): ASCII text is searched as its
 * bytes, by the kernel, without PyUnicode_FindChar's call overhead. */
static int has_escape(PyObject *s, int plus)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    if (PyUnicode_IS_ASCII(s))
        return pct_find_escape(PyUnicode_1BYTE_DATA(s), (size_t)n, plus) != (size_t)n;
    return PyUnicode_FindChar(s, '%', 0, n, 1) != -1
           || (plus && PyUnicode_FindChar(s, '+', 0, n, 1) != -1);
}

/* urllib.parse.unquote for a str (plus: unquote_plus, whose '+' -> ' '
 * replacement comes first). */
static PyObject *unquote_str(module_state *st, PyObject *s, PyObject *encoding, PyObject *errors,
                             int plus)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    const char *fast_errors = NULL;
    if (is_none_or_missing(encoding) || is_utf8_name(encoding))
        fast_errors = is_none_or_missing(errors) ? "replace" : builtin_errors(errors);

    if (PyUnicode_IS_ASCII(s) && fast_errors)
        return unquote_utf8(PyUnicode_1BYTE_DATA(s), n, plus, fast_errors);

    PyObject *text = plus ? PyUnicode_Replace(s, st->s_plus, st->s_space, -1) : Py_NewRef(s);
    if (!text)
        return NULL;
    PyObject *r;
    if (PyUnicode_FindChar(text, '%', 0, PyUnicode_GET_LENGTH(text), 1) == -1) {
        r = Py_NewRef(text);
    } else {
        if (is_none_or_missing(encoding))
            encoding = st->s_utf8;
        if (is_none_or_missing(errors))
            errors = st->s_replace_errors;
        r = unquote_runs(st, text, fast_errors, encoding, errors);
    }
    Py_DECREF(text);
    return r;
}

/* urllib's unquote_to_bytes of bytes-like data: a new bytes object. */
static PyObject *unquote_buffer(const uint8_t *src, Py_ssize_t n, int stable)
{
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (!out)
        return NULL;
    uint8_t *dst = (uint8_t *)PyBytes_AS_STRING(out);
    size_t len = stable ? decode_stable(src, n, 0, dst) : pct_decode(src, (size_t)n, 0, dst);
    if ((Py_ssize_t)len != n && _PyBytes_Resize(&out, (Py_ssize_t)len) < 0)
        return NULL;
    return out;
}

/* urllib.parse.unquote_to_bytes of a str, bytes or bytearray. */
static PyObject *unquote_to_bytes_any(PyObject *string)
{
    if (PyUnicode_Check(string)) {
        if (PyUnicode_GET_LENGTH(string) == 0)
            return PyBytes_FromStringAndSize(NULL, 0);
        if (PyUnicode_IS_ASCII(string))
            return unquote_buffer(PyUnicode_1BYTE_DATA(string), PyUnicode_GET_LENGTH(string), 1);
        PyObject *utf8 = PyUnicode_AsUTF8String(string); /* string.encode('utf-8') */
        if (!utf8)
            return NULL;
        PyObject *r = unquote_buffer((const uint8_t *)PyBytes_AS_STRING(utf8), PyBytes_GET_SIZE(utf8), 1);
        Py_DECREF(utf8);
        return r;
    }
    if (PyBytes_Check(string)) {
        const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(string);
        Py_ssize_t n = PyBytes_GET_SIZE(string);
        if (n == 0)
            return PyBytes_FromStringAndSize(NULL, 0);
        if (pct_find_escape(p, (size_t)n, 0) != (size_t)n)
            return unquote_buffer(p, n, 1);
#if PY_VERSION_HEX < 0x030C0000
        return Py_NewRef(string); /* urllib <= 3.11 returns its argument */
#else
        return PyBytes_CheckExact(string) ? Py_NewRef(string) : PyBytes_FromStringAndSize((const char *)p, n);
#endif
    }
    /* a bytearray, read through a snapshot */
    PyObject *copy = pct_py_snapshot(string);
    if (!copy)
        return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(copy);
    int escape = pct_find_escape((const uint8_t *)PyBytes_AS_STRING(copy), (size_t)n, 0) != (size_t)n;
    if (!escape) {
#if PY_VERSION_HEX < 0x030C0000
        if (n > 0) {
            Py_DECREF(copy);
            return Py_NewRef(string); /* urllib <= 3.11 returns a non-empty argument */
        }
#endif
        return copy;
    }
    Py_DECREF(copy);
    /* urllib looks up the bytearray slices after each '%' in a dict. */
    PyErr_SetString(PyExc_TypeError, "unhashable type: 'bytearray'");
    return NULL;
}

/* urllib.parse.unquote of a str or bytes. */
static PyObject *unquote_any(module_state *st, PyObject *string, PyObject *encoding, PyObject *errors)
{
    if (PyUnicode_Check(string)) {
        if (!has_escape(string, 0))
            return Py_NewRef(string);
        return unquote_str(st, string, encoding, errors, 0);
    }
    /* bytes: _unquote_impl(string).decode(encoding, errors); both default when not given */
    const char *p = PyBytes_AS_STRING(string);
    Py_ssize_t n = PyBytes_GET_SIZE(string);
    const char *fast_errors = NULL;
    if (!encoding || is_utf8_name(encoding))
        fast_errors = errors ? builtin_errors(errors) : "replace";
    if (fast_errors)
        return unquote_utf8((const uint8_t *)p, n, 0, fast_errors);
    scratch buf;
    uint8_t *dst = scratch_get(&buf, n);
    if (!dst)
        return NULL;
    size_t len = decode_stable((const uint8_t *)p, n, 0, dst);
    PyObject *r = decode_text(st, dst, len, encoding ? encoding : st->s_utf8,
                              errors ? errors : st->s_replace_errors);
    scratch_free(&buf);
    return r;
}

/* ---------------------------------------------------------------------------
 * The module functions.
 */
static const char *const UNQUOTE_ARGS[] = {"string", "encoding", "errors"};
static const char *const UTB_ARGS[] = {"string"};

PyDoc_STRVAR(unquote_doc,
"unquote($module, /, string, encoding='utf-8', errors='replace')\n--\n\n"
"Replace %XX escapes as urllib.parse.unquote does.\n"
"\n"
"The escaped bytes are decoded with `encoding` and the `errors` handler; a\n"
"'%' not followed by two hex digits is kept as it is.\n"
"\n"
"Parameters\n"
"----------\n"
"string : str or bytes\n"
"    The text to decode (bytes are read as ASCII, as urllib does).\n"
"encoding : str, optional\n"
"    The encoding of the escaped bytes (\"utf-8\").\n"
"errors : str, optional\n"
"    The decoding error handler (\"replace\").\n"
"\n"
"Returns\n"
"-------\n"
"str\n"
"    The decoded text.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `string` of another type.\n"
"UnicodeDecodeError\n"
"    Escaped bytes that do not decode, under errors=\"strict\".\n"
"LookupError\n"
"    An unknown encoding or error handler.\n"
"\n"
"Examples\n"
"--------\n"
">>> unquote(\"caf%C3%A9%zz\")\n"
"'café%zz'");

#define SHORT_UNQUOTE_MAX 512

/* f(s) with a short exact ASCII str, the most common call of unquote and
 * unquote_plus: s itself when it holds nothing to decode, otherwise
 * straight to the decoder with the default UTF-8 and 'replace'. Returns 0
 * when the call is not of that form. */
static int unquote_short(PyObject *const *args, Py_ssize_t nargs, PyObject *kw, int plus,
                         PyObject **result)
{
    if (nargs != 1 || kw || !PyUnicode_CheckExact(args[0]) || !PyUnicode_IS_ASCII(args[0]))
        return 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(args[0]);
    const uint8_t *p = PyUnicode_1BYTE_DATA(args[0]);
    if (n > SHORT_UNQUOTE_MAX)
        return 0;
    Py_ssize_t i = 0;
    while (i < n && p[i] != '%' && !(plus && p[i] == '+'))
        i++;
    *result = i == n ? Py_NewRef(args[0]) : unquote_utf8(p, n, plus, "replace");
    return 1;
}

static PyObject *py_unquote(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const argspec spec = {"unquote", UNQUOTE_ARGS, 3, 1, T_STR | T_BYTES, -1};
    PyObject *a[3], *r;
    if (unquote_short(args, nargs, kw, 0, &r))
        return r;
    if (!enter(module, &spec, args, nargs, kw, a, &r))
        return r;
    return unquote_any(get_state(module), a[0], a[1], a[2]);
}

PyDoc_STRVAR(unquote_plus_doc,
"unquote_plus($module, /, string, encoding='utf-8', errors='replace')\n--\n\n"
"Like unquote(), but also replace '+' by a space (HTML form values).\n"
"\n"
"Parameters\n"
"----------\n"
"string : str\n"
"    The text to decode.\n"
"encoding : str, optional\n"
"    The encoding of the escaped bytes (\"utf-8\").\n"
"errors : str, optional\n"
"    The decoding error handler (\"replace\").\n"
"\n"
"Returns\n"
"-------\n"
"str\n"
"    The decoded text.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `string` is not a str.\n"
"UnicodeDecodeError\n"
"    Escaped bytes that do not decode, under errors=\"strict\".\n"
"\n"
"Examples\n"
"--------\n"
">>> unquote_plus(\"q=fish+%26+chips\")\n"
"'q=fish & chips'");

static PyObject *py_unquote_plus(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kw)
{
    static const argspec spec = {"unquote_plus", UNQUOTE_ARGS, 3, 1, T_STR, -1};
    PyObject *a[3], *r;
    if (unquote_short(args, nargs, kw, 1, &r))
        return r;
    if (!enter(module, &spec, args, nargs, kw, a, &r))
        return r;
    module_state *st = get_state(module);
    PyObject *string = a[0];
    if (!has_escape(string, 1))
        return PyUnicode_FromObject(string); /* str.replace gives an exact str */
    return unquote_str(st, string, a[1], a[2], 1);
}

PyDoc_STRVAR(unquote_to_bytes_doc,
"unquote_to_bytes($module, /, string)\n--\n\n"
"Replace %XX escapes by the bytes they stand for; a str is UTF-8 encoded first.\n"
"\n"
"Parameters\n"
"----------\n"
"string : str, bytes or bytearray\n"
"    The text to decode.\n"
"\n"
"Returns\n"
"-------\n"
"bytes\n"
"    The decoded bytes.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `string` of another type.\n"
"\n"
"Examples\n"
"--------\n"
">>> unquote_to_bytes(\"a%20b%FF\")\n"
"b'a b\\xff'");

static PyObject *py_unquote_to_bytes(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kw)
{
    static const argspec spec = {"unquote_to_bytes", UTB_ARGS, 1, 1, T_ANY, -1};
    PyObject *a[1], *r;
    if (!enter(module, &spec, args, nargs, kw, a, &r))
        return r;
    return unquote_to_bytes_any(a[0]);
}

/* ---------------------------------------------------------------------------
 * decode: a single pass that never writes more than its input's length, so
 * it reads the buffer in place (and releases the GIL only for bytes).
 */
static const char *const DECODE_ARGS[] = {"data", "plus"};

PyDoc_STRVAR(decode_doc,
"decode($module, /, data, plus=False)\n--\n\n"
"Decode the %XX escapes of any bytes-like object; returns bytes.\n"
"\n"
"A '%' not followed by two hex digits is kept as it is.\n"
"\n"
"Parameters\n"
"----------\n"
"data : bytes-like object\n"
"    bytes, bytearray, memoryview, array, mmap...\n"
"plus : bool, optional\n"
"    Decode '+' as a space.\n"
"\n"
"Returns\n"
"-------\n"
"bytes\n"
"    The decoded bytes.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `data` is not a bytes-like object.\n"
"\n"
"Examples\n"
"--------\n"
">>> decode(b\"caf%C3%A9+x\", plus=True)\n"
"b'caf\\xc3\\xa9 x'");

static PyObject *py_decode(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const argspec spec = {"decode", DECODE_ARGS, 2, 1, 0, -1};
    PyObject *a[2];
    (void)module;
    if (parse_args(&spec, args, nargs, kw, a) < 0)
        return NULL;
    int plus = a[1] ? PyObject_IsTrue(a[1]) : 0;
    if (plus < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(a[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, view.len);
    if (out) {
        uint8_t *dst = (uint8_t *)PyBytes_AS_STRING(out);
        size_t len;
        MAYBE_WITHOUT_GIL(PyBytes_CheckExact(a[0]) && view.len >= NOGIL_MIN_LENGTH,
                          len = pct_decode(view.buf, (size_t)view.len, plus, dst));
        if ((Py_ssize_t)len != view.len)
            _PyBytes_Resize(&out, (Py_ssize_t)len);
    }
    PyBuffer_Release(&view);
    return out;
}

PyMethodDef unquote_methods[] = {
    {"unquote", FASTCALL_KW(py_unquote), unquote_doc},
    {"unquote_plus", FASTCALL_KW(py_unquote_plus), unquote_plus_doc},
    {"unquote_to_bytes", FASTCALL_KW(py_unquote_to_bytes), unquote_to_bytes_doc},
    {"decode", FASTCALL_KW(py_decode), decode_doc},
    {NULL, NULL, 0, NULL},
};
