/* quote, quote_plus, quote_from_bytes (urllib.parse's) and encode (any
 * buffer, bytes out): the safe-set cache and the encoding paths; the
 * percent-encoding itself happens in src/core.
 */
#include "_pctcodec.h" /* first: Python.h before the standard headers */
#include <string.h>


/* ---------------------------------------------------------------------------
 * Safe sets. urllib keeps the ASCII characters of a str `safe`
 * (safe.encode('ascii', 'ignore')) and otherwise bytes([c for c in safe if c < 128]).
 */
static void set_from_text(pct_set *set, PyObject *safe)
{
    int kind = PyUnicode_KIND(safe);
    const void *data = PyUnicode_DATA(safe);
    Py_ssize_t n = PyUnicode_GET_LENGTH(safe);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 0x80)
            pct_set_add(set, (unsigned char)c);
    }
}

/* The set of a `safe` not in the cache: computed, and remembered when it is
 * an exact str or bytes. Out of line, so that the common calls stay short. */
static int resolve_safe_miss(module_state *st, PyObject *safe, pct_set *keep)
{
    *keep = st->set_unreserved;
    if (PyUnicode_Check(safe)) {
        set_from_text(keep, safe);
    } else if (PyBytes_Check(safe)) {
        pct_set_add_bytes(keep, (const uint8_t *)PyBytes_AS_STRING(safe), (size_t)PyBytes_GET_SIZE(safe));
    } else {
        PyObject *copy = pct_py_snapshot(safe);
        if (!copy)
            return -1;
        pct_set_add_bytes(keep, (const uint8_t *)PyBytes_AS_STRING(copy), (size_t)PyBytes_GET_SIZE(copy));
        Py_DECREF(copy);
        return 0; /* mutable: never cached */
    }
    if (PyUnicode_CheckExact(safe) || PyBytes_CheckExact(safe)) {
        /* the old entry is released outside the lock */
        CACHE_LOCK(st);
        PyObject *old = st->last_safe;
        st->last_safe = Py_NewRef(safe);
        st->last_set = *keep;
        CACHE_UNLOCK(st);
        Py_XDECREF(old);
    }
    return 0;
}

/* keep := unreserved + the ASCII part of `safe`, a str, bytes or bytearray
 * (the default set when safe is NULL). The set of the last exact str/bytes
 * `safe` is kept for the next call. -1 with MemoryError (a bytearray `safe`
 * is read through a snapshot). */
static inline int resolve_safe(module_state *st, PyObject *safe, const pct_set *dflt, pct_set *keep)
{
    if (!safe) {
        *keep = *dflt;
        return 0;
    }
    int hit;
    CACHE_LOCK(st);
    hit = safe == st->last_safe;
    if (hit)
        *keep = st->last_set;
    CACHE_UNLOCK(st);
    return hit ? 0 : resolve_safe_miss(st, safe, keep);
}

/* ---------------------------------------------------------------------------
 * Encoding.
 */
/* What pct_encode writes for src, `size` bytes, as an ASCII str (as_str) or
 * as bytes. */
static PyObject *write_encoded(const uint8_t *src, Py_ssize_t n, const pct_set *keep, int plus,
                              size_t size, int nogil, int as_str)
{
    PyObject *out = as_str ? PyUnicode_New((Py_ssize_t)size, 127)
                           : PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out)
        return NULL;
    uint8_t *dst = as_str ? PyUnicode_1BYTE_DATA(out) : (uint8_t *)PyBytes_AS_STRING(out);
    MAYBE_WITHOUT_GIL(nogil, pct_encode(src, (size_t)n, keep, plus, dst));
    return out;
}

/* The percent-encoding of immutable bytes, as str or bytes. Encoding sizes
 * first and writes second, so the input must not change in between: callers
 * pass mutable buffers as a snapshot (see snapshot). */
static PyObject *encode_buffer(const uint8_t *src, Py_ssize_t n, const pct_set *keep, int plus,
                               int as_str)
{
    size_t size = 0;
    pct_status rc;
    int nogil = n >= NOGIL_MIN_LENGTH;
    MAYBE_WITHOUT_GIL(nogil, rc = pct_encoded_size(src, (size_t)n, keep, (size_t)PY_SSIZE_T_MAX, &size));
    if (rc != PCT_OK)
        return pct_py_too_long();
    return write_encoded(src, n, keep, plus, size, nogil, as_str);
}

/* urllib.parse.quote_from_bytes(bs, safe); with plus, a space is kept as '+'. */
static PyObject *quote_bytes(module_state *st, PyObject *bs, PyObject *safe, const pct_set *dflt,
                             int plus)
{
    int is_bytes = PyBytes_Check(bs);
    if (!is_bytes && !PyByteArray_Check(bs)) {
        PyErr_SetString(PyExc_TypeError, "quote_from_bytes() expected bytes");
        return NULL;
    }
    Py_ssize_t n = is_bytes ? PyBytes_GET_SIZE(bs) : PyByteArray_GET_SIZE(bs);
    if (n == 0)
        return PyUnicode_New(0, 0);
    pct_set keep;
    if (resolve_safe(st, safe, dflt, &keep) < 0)
        return NULL;
    if (plus)
        pct_set_add(&keep, ' ');
    if (is_bytes)
        return encode_buffer((const uint8_t *)PyBytes_AS_STRING(bs), n, &keep, plus, 1);
    PyObject *copy = pct_py_snapshot(bs);
    if (!copy)
        return NULL;
    PyObject *r = encode_buffer((const uint8_t *)PyBytes_AS_STRING(copy), PyBytes_GET_SIZE(copy),
                                &keep, plus, 1);
    Py_DECREF(copy);
    return r;
}

#define SHORT_QUOTE_MAX 64

/* Fast path of quote for a str under UTF-8/strict: encodes straight from the
 * str's code units. Returns NULL without an exception when the text holds a
 * surrogate (the codec then decides, as in urllib). */
static PyObject *quote_text(module_state *st, PyObject *s, PyObject *safe, const pct_set *dflt,
                            int plus)
{
    pct_set keep;
    if (resolve_safe(st, safe, dflt, &keep) < 0)
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    const void *data = PyUnicode_DATA(s);
    if (PyUnicode_KIND(s) == PyUnicode_1BYTE_KIND && n <= SHORT_QUOTE_MAX) {
        /* One pass, no sizing: an exact str with nothing to escape (nor,
         * with plus, a space to write as '+', even one `safe` keeps) is its
         * own result; otherwise the escaped text is written on the stack
         * (6 bytes at most per Latin-1 character) and copied into a str of
         * its length. */
        const uint8_t *src = data;
        int ascii = PyUnicode_IS_ASCII(s);
        if (ascii) {
            Py_ssize_t i = 0;
            while (i < n && pct_set_has(&keep, src[i]) && !(plus && src[i] == ' '))
                i++;
            if (i == n && PyUnicode_CheckExact(s))
                return Py_NewRef(s);
        }
        if (plus)
            pct_set_add(&keep, ' ');
        uint8_t out[6 * SHORT_QUOTE_MAX];
        size_t len = ascii ? pct_encode(src, (size_t)n, &keep, plus, out)
                           : pct_encode_ucs1(src, (size_t)n, &keep, plus, out);
        PyObject *r = PyUnicode_New((Py_ssize_t)len, 127);
        if (r)
            memcpy(PyUnicode_1BYTE_DATA(r), out, len);
        return r;
    }
    if (plus)
        pct_set_add(&keep, ' ');
    if (PyUnicode_IS_ASCII(s)) {
        size_t size = 0;
        pct_status rc;
        int nogil = n >= NOGIL_MIN_LENGTH;
        MAYBE_WITHOUT_GIL(nogil, rc = pct_encoded_size(data, (size_t)n, &keep, (size_t)PY_SSIZE_T_MAX, &size));
        if (rc != PCT_OK)
            return pct_py_too_long();
        /* Nothing to escape: an exact str is its own result (equal to urllib's). */
        if (size == (size_t)n && PyUnicode_CheckExact(s) && !(plus && memchr(data, ' ', (size_t)n)))
            return Py_NewRef(s);
        return write_encoded(data, n, &keep, plus, size, nogil, 1);
    }
    size_t size = 0;
    pct_status rc;
    int kind = PyUnicode_KIND(s);
    int nogil = n >= NOGIL_MIN_LENGTH;
    if (kind == PyUnicode_1BYTE_KIND)
        MAYBE_WITHOUT_GIL(nogil, rc = pct_encoded_size_ucs1(data, (size_t)n, &keep, (size_t)PY_SSIZE_T_MAX, &size));
    else if (kind == PyUnicode_2BYTE_KIND)
        MAYBE_WITHOUT_GIL(nogil, rc = pct_encoded_size_ucs2(data, (size_t)n, &keep, (size_t)PY_SSIZE_T_MAX, &size));
    else
        MAYBE_WITHOUT_GIL(nogil, rc = pct_encoded_size_ucs4(data, (size_t)n, &keep, (size_t)PY_SSIZE_T_MAX, &size));
    if (rc == PCT_ERR_SURROGATE)
        return NULL;
    if (rc != PCT_OK)
        return pct_py_too_long();
    PyObject *out = PyUnicode_New((Py_ssize_t)size, 127);
    if (!out)
        return NULL;
    uint8_t *dst = PyUnicode_1BYTE_DATA(out);
    if (kind == PyUnicode_1BYTE_KIND)
        MAYBE_WITHOUT_GIL(nogil, pct_encode_ucs1(data, (size_t)n, &keep, plus, dst));
    else if (kind == PyUnicode_2BYTE_KIND)
        MAYBE_WITHOUT_GIL(nogil, pct_encode_ucs2(data, (size_t)n, &keep, plus, dst));
    else
        MAYBE_WITHOUT_GIL(nogil, pct_encode_ucs4(data, (size_t)n, &keep, plus, dst));
    return out;
}

/* encoding and errors of quote mean UTF-8, strict. */
static int utf8_strict(PyObject *encoding, PyObject *errors)
{
    return (is_none_or_missing(encoding) || is_utf8_name(encoding))
           && (is_none_or_missing(errors)
               || (PyUnicode_CheckExact(errors) && PyUnicode_CompareWithASCIIString(errors, "strict") == 0));
}

int batch_quote_set(PyObject *module, PyObject *safe, PyObject *encoding, PyObject *errors,
                    int plus, pct_set *keep)
{
    module_state *st = get_state(module);
    int kind = utf8_strict(encoding, errors) ? plain_kind(st, safe) : 0;
    if (kind <= 0)
        return kind;
    resolve_safe(st, safe, &st->set_unreserved, keep);
    if (plus)
        pct_set_add(keep, ' ');
    return 1;
}

/* urllib.parse.quote(string, safe, encoding, errors) for arguments that
 * takes() accepts; with plus, also keeps spaces and writes them as '+'. */
static PyObject *quote_any(module_state *st, PyObject *string, PyObject *safe, PyObject *encoding,
                           PyObject *errors, const pct_set *dflt, int plus)
{
    if (!PyUnicode_Check(string)) {
        if (!is_none_or_missing(encoding)) {
            PyErr_SetString(PyExc_TypeError, "quote() doesn't support 'encoding' for bytes");
            return NULL;
        }
        if (!is_none_or_missing(errors)) {
            PyErr_SetString(PyExc_TypeError, "quote() doesn't support 'errors' for bytes");
            return NULL;
        }
        return quote_bytes(st, string, safe, dflt, plus);
    }
    if (PyUnicode_GET_LENGTH(string) == 0)
        return Py_NewRef(string);
    if (utf8_strict(encoding, errors)) {
        PyObject *r = quote_text(st, string, safe, dflt, plus);
        if (r || PyErr_Occurred())
            return r;
    }
    /* string.encode(encoding, errors), then quote_from_bytes. */
    PyObject *b = PyObject_CallMethodObjArgs(string, st->s_encode,
                                             is_none_or_missing(encoding) ? st->s_utf8 : encoding,
                                             is_none_or_missing(errors) ? st->s_strict : errors, NULL);
    if (!b)
        return NULL;
    PyObject *r = quote_bytes(st, b, safe, dflt, plus);
    Py_DECREF(b);
    return r;
}

/* ---------------------------------------------------------------------------
 * The module functions.
 */
static const char *const QUOTE_ARGS[] = {"string", "safe", "encoding", "errors"};
static const char *const QFB_ARGS[] = {"bs", "safe"};

PyDoc_STRVAR(quote_doc,
"quote($module, /, string, safe='/', encoding=None, errors=None)\n--\n\n"
"Percent-encode a str or bytes as urllib.parse.quote does.\n"
"\n"
"Characters outside the RFC 3986 unreserved set (A-Z a-z 0-9 - . _ ~) and\n"
"`safe` become %XX escapes (uppercase hex) of their bytes in `encoding`.\n"
"\n"
"Parameters\n"
"----------\n"
"string : str, bytes or bytearray\n"
"    The text or bytes to encode.\n"
"safe : str or bytes, optional\n"
"    Characters kept as they are besides the unreserved ones (\"/\").\n"
"encoding : str or None, optional\n"
"    The encoding of a str (UTF-8 when None).\n"
"errors : str or None, optional\n"
"    The str.encode error handler (\"strict\" when None).\n"
"\n"
"Returns\n"
"-------\n"
"str\n"
"    ASCII text, for str and bytes alike.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `string` of another type, or `encoding`/`errors` given with bytes.\n"
"UnicodeEncodeError\n"
"    A character `encoding` cannot encode under `errors`.\n"
"LookupError\n"
"    An unknown encoding or error handler.\n"
"\n"
"Examples\n"
"--------\n"
">>> quote(\"/docs/Annual Report 2024.pdf\")\n"
"'/docs/Annual%20Report%202024.pdf'");

/* The most common call, f(s) with a short exact ASCII str that the default
 * set keeps whole: s is its own result, so the call ends here. */
static inline int kept_whole(PyObject *const *args, Py_ssize_t nargs, PyObject *kw,
                             const pct_set *keep)
{
    if (nargs != 1 || kw || !PyUnicode_CheckExact(args[0]) || !PyUnicode_IS_ASCII(args[0]))
        return 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(args[0]);
    const uint8_t *p = PyUnicode_1BYTE_DATA(args[0]);
    if (n > SHORT_QUOTE_MAX)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!pct_set_has(keep, p[i]))
            return 0;
    return 1;
}

static PyObject *py_quote(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const argspec spec = {"quote", QUOTE_ARGS, 4, 1, T_ANY, 1};
    PyObject *a[4], *r;
    module_state *st = get_state(module);
    if (kept_whole(args, nargs, kw, &st->set_slash))
        return Py_NewRef(args[0]);
    if (!enter(module, &spec, args, nargs, kw, a, &r))
        return r;
    return quote_any(st, a[0], a[1], a[2], a[3], &st->set_slash, 0);
}

PyDoc_STRVAR(quote_plus_doc,
"quote_plus($module, /, string, safe='', encoding=None, errors=None)\n--\n\n"
"Like quote(), but spaces become '+' (HTML form values) and safe defaults to ''.\n"
"\n"
"Parameters\n"
"----------\n"
"string : str, bytes or bytearray\n"
"    The text or bytes to encode.\n"
"safe : str or bytes, optional\n"
"    Characters kept as they are besides the unreserved ones (\"\").\n"
"encoding : str or None, optional\n"
"    The encoding of a str (UTF-8 when None).\n"
"errors : str or None, optional\n"
"    The str.encode error handler (\"strict\" when None).\n"
"\n"
"Returns\n"
"-------\n"
"str\n"
"    ASCII text.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `string` of another type, or `encoding`/`errors` given with bytes.\n"
"UnicodeEncodeError\n"
"    A character `encoding` cannot encode under `errors`.\n"
"\n"
"Examples\n"
"--------\n"
">>> quote_plus(\"fish & chips\")\n"
"'fish+%26+chips'");

static int holds_space(PyObject *string)
{
    if (PyUnicode_Check(string))
        return PyUnicode_FindChar(string, ' ', 0, PyUnicode_GET_LENGTH(string), 1) != -1;
    return memchr(PyBytes_AS_STRING(string), ' ', (size_t)PyBytes_GET_SIZE(string)) != NULL;
}

PyObject *quote_plus_any(module_state *st, PyObject *string, PyObject *safe,
                                PyObject *encoding, PyObject *errors)
{
    /* A str as UTF-8 holds byte 0x20 only as a space, so a str without one
     * comes out of plus quoting as out of urllib's plain quote: no search. */
    if (PyUnicode_Check(string) && utf8_strict(encoding, errors))
        return quote_any(st, string, safe, encoding, errors, &st->set_unreserved, 1);
    /* Without a space (str or bytes only), urllib calls plain quote. */
    if ((PyUnicode_Check(string) || PyBytes_Check(string)) && !holds_space(string))
        return quote_any(st, string, safe, encoding, errors, &st->set_unreserved, 0);
    /* Otherwise quote(string, safe + space, ...).replace(' ', '+'). */
    return quote_any(st, string, safe, encoding, errors, &st->set_unreserved, 1);
}

static PyObject *py_quote_plus(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const argspec spec = {"quote_plus", QUOTE_ARGS, 4, 1, T_ANY, 1};
    PyObject *a[4], *r;
    module_state *st = get_state(module);
    /* the default set has no space, so a kept str holds none either */
    if (kept_whole(args, nargs, kw, &st->set_unreserved))
        return Py_NewRef(args[0]);
    if (!enter(module, &spec, args, nargs, kw, a, &r))
        return r;
    return quote_plus_any(st, a[0], a[1], a[2], a[3]);
}

PyDoc_STRVAR(quote_from_bytes_doc,
"quote_from_bytes($module, /, bs, safe='/')\n--\n\n"
"Like quote(), for bytes or bytearray (urllib.parse.quote_from_bytes).\n"
"\n"
"Parameters\n"
"----------\n"
"bs : bytes or bytearray\n"
"    The bytes to encode.\n"
"safe : str or bytes, optional\n"
"    Characters kept as they are besides the unreserved ones (\"/\");\n"
"    non-ASCII ones are ignored, as urllib ignores them.\n"
"\n"
"Returns\n"
"-------\n"
"str\n"
"    ASCII text.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `bs` is not bytes or bytearray.\n"
"\n"
"Examples\n"
"--------\n"
">>> quote_from_bytes(b\"a b/\\xff\")\n"
"'a%20b/%FF'");

static PyObject *py_quote_from_bytes(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kw)
{
    static const argspec spec = {"quote_from_bytes", QFB_ARGS, 2, 1, T_BYTES | T_BYTEARRAY, 1};
    PyObject *a[2], *r;
    if (!enter(module, &spec, args, nargs, kw, a, &r))
        return r;
    module_state *st = get_state(module);
    return quote_bytes(st, a[0], a[1], &st->set_slash, 0);
}

/* ---------------------------------------------------------------------------
 * encode: the core on any C-contiguous buffer, bytes out. It works on bytes
 * or on an immutable copy of the buffer.
 */
static const char *const ENCODE_ARGS[] = {"data", "safe", "plus"};

/* encode's result is ASCII, so its `safe` can only name ASCII bytes: a
 * non-ASCII character or byte there is a ValueError, where quote_from_bytes
 * ignores it as urllib does (nothing is silently dropped from an argument
 * that is no drop-in's). A bytearray is read through a snapshot. */
static int non_ascii_safe(const char *what, Py_ssize_t index)
{
    PyErr_Format(PyExc_ValueError, "encode() argument 'safe' holds the non-ASCII %s at index %zd: "
                 "encode keeps ASCII bytes only (its result is ASCII)", what, index);
    return -1;
}

static int check_ascii_safe(PyObject *safe)
{
    if (PyUnicode_Check(safe)) {
        if (PyUnicode_IS_ASCII(safe))
            return 0;
        int kind = PyUnicode_KIND(safe);
        const void *text = PyUnicode_DATA(safe);
        Py_ssize_t i = 0;
        while (PyUnicode_READ(kind, text, i) < 0x80)
            i++;
        char what[32];
        PyOS_snprintf(what, sizeof what, "character U+%04X", (unsigned int)PyUnicode_READ(kind, text, i));
        return non_ascii_safe(what, i);
    }
    PyObject *bytes = PyBytes_Check(safe) ? Py_NewRef(safe) : pct_py_snapshot(safe);
    if (!bytes)
        return -1;
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(bytes);
    Py_ssize_t n = PyBytes_GET_SIZE(bytes), i = 0;
    while (i < n && p[i] < 0x80)
        i++;
    unsigned int byte = i < n ? p[i] : 0;
    Py_DECREF(bytes);
    if (i == n)
        return 0;
    char what[32];
    PyOS_snprintf(what, sizeof what, "byte 0x%02X", byte);
    return non_ascii_safe(what, i);
}

PyDoc_STRVAR(encode_doc,
"encode($module, /, data, safe=b'', plus=False)\n--\n\n"
"Percent-encode any bytes-like object; returns bytes.\n"
"\n"
"Bytes outside the RFC 3986 unreserved set and `safe` become %XX\n"
"(uppercase hex).\n"
"\n"
"Parameters\n"
"----------\n"
"data : bytes-like object\n"
"    bytes, bytearray, memoryview, array, mmap...\n"
"safe : str, bytes or bytearray, optional\n"
"    ASCII bytes kept as they are besides the unreserved ones.\n"
"plus : bool, optional\n"
"    Write a space as '+'.\n"
"\n"
"Returns\n"
"-------\n"
"bytes\n"
"    ASCII bytes.\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `data` is not a bytes-like object.\n"
"ValueError\n"
"    A non-ASCII character or byte in `safe` (the result is ASCII).\n"
"\n"
"Examples\n"
"--------\n"
">>> encode(b\"a b/\\xff\")\n"
"b'a%20b%2F%FF'");

static PyObject *py_encode(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    static const argspec spec = {"encode", ENCODE_ARGS, 3, 1, 0, -1};
    PyObject *a[3];
    if (parse_args(&spec, args, nargs, kw, a) < 0)
        return NULL;
    module_state *st = get_state(module);
    if (a[1] && !PyUnicode_Check(a[1]) && !PyBytes_Check(a[1]) && !PyByteArray_Check(a[1])) {
        PyErr_Format(PyExc_TypeError, "encode() argument 'safe' must be str, bytes or bytearray, not %.200s",
                     Py_TYPE(a[1])->tp_name);
        return NULL;
    }
    if (a[1] && check_ascii_safe(a[1]) < 0)
        return NULL;
    pct_set keep;
    int plus = a[2] ? PyObject_IsTrue(a[2]) : 0;
    if (plus < 0)
        return NULL;
    if (resolve_safe(st, a[1], &st->set_unreserved, &keep) < 0)
        return NULL;
    if (plus)
        pct_set_add(&keep, ' ');
    PyObject *data = PyBytes_Check(a[0]) ? Py_NewRef(a[0]) : pct_py_snapshot(a[0]);
    if (!data)
        return NULL;
    PyObject *out = encode_buffer((const uint8_t *)PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data),
                                  &keep, plus, 0);
    Py_DECREF(data);
    return out;
}

PyMethodDef quote_methods[] = {
    {"quote", FASTCALL_KW(py_quote), quote_doc},
    {"quote_plus", FASTCALL_KW(py_quote_plus), quote_plus_doc},
    {"quote_from_bytes", FASTCALL_KW(py_quote_from_bytes), quote_from_bytes_doc},
    {"encode", FASTCALL_KW(py_encode), encode_doc},
    {NULL, NULL, 0, NULL},
};
