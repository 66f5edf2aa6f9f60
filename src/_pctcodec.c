/* CPython binding of the pct core: argument parsing, str kinds, buffers,
 * exceptions. The encoding and decoding themselves happen in src/core.
 *
 * Every public function reproduces urllib.parse of the interpreter it is built
 * for, down to the type of the result and the class of the exception; the
 * comments name the urllib behaviour each branch mirrors.
 */
#include <stdlib.h>
#include <string.h>

#include "_pctcodec.h"
#include "pct.h"



/* Argument types the C paths read by value (see plain_kind). */
#define T_STR 1
#define T_BYTES 2
#define T_BYTEARRAY 4
#define T_ANY (T_STR | T_BYTES | T_BYTEARRAY)


/* What urllib.parse (3.9-3.13) calls on its arguments, across all versions: a
 * subclass that overrides none of these reads as its value (see behaves_as).
 * Special methods are looked up on the type only; methods called by name can
 * also be shadowed by an instance attribute. */
static const char *const SPECIAL_METHODS[] = {"__getattribute__", "__len__", "__bool__",
                                              "__contains__", "__getitem__", "__iter__",
                                              "__add__", "__bytes__"};
static const char *const NAMED_METHODS[] = {"encode", "decode", "replace", "split", "rstrip"};
#define N_SPECIAL (sizeof SPECIAL_METHODS / sizeof SPECIAL_METHODS[0])
#define N_NAMED (sizeof NAMED_METHODS / sizeof NAMED_METHODS[0])

typedef struct {
    pct_set set_slash;       /* unreserved + '/' : quote's default safe */
    pct_set set_unreserved;  /* unreserved only  : quote_plus's default safe */
    PyObject *last_safe;     /* exact str or bytes whose set is in last_set */
    pct_set last_set;
    PyObject *urllib_parse;  /* imported on first use by delegate() */
    PyObject *s_encode, *s_decode;
    PyObject *s_utf8, *s_strict, *s_replace_errors;
    PyObject *s_plus, *s_space, *s_empty;
    PyObject *s_eq, *s_amp, *s_items, *s_quote_plus;
    PyObject *special[N_SPECIAL];  /* SPECIAL_METHODS, interned */
    PyObject *named[N_NAMED];      /* NAMED_METHODS, interned */
#ifdef Py_GIL_DISABLED
    PyMutex cache_lock;            /* last_safe, last_set, urllib_parse */
#endif
} module_state;

/* The caches of the state are read and written under CACHE_LOCK: a mutex
 * without a GIL, nothing with one (see the rule in _pctcodec.h). */
#ifdef Py_GIL_DISABLED
#define CACHE_LOCK(st) PyMutex_Lock(&(st)->cache_lock)
#define CACHE_UNLOCK(st) PyMutex_Unlock(&(st)->cache_lock)
#else
#define CACHE_LOCK(st) ((void)0)
#define CACHE_UNLOCK(st) ((void)0)
#endif

static inline module_state *get_state(PyObject *module)
{
    return (module_state *)PyModule_GetState(module);
}

/* ---------------------------------------------------------------------------
 * Arguments.
 */
int parse_args(const argspec *spec, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames, PyObject **out)
{
    for (int i = 0; i < spec->nparams; i++)
        out[i] = NULL;
    if (nargs > spec->nparams) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)",
                     spec->fname, spec->nparams, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++)
        out[i] = args[i];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int j = 0;
        while (j < spec->nparams && PyUnicode_CompareWithASCIIString(key, spec->names[j]) != 0)
            j++;
        if (j == spec->nparams) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'",
                         spec->fname, key);
            return -1;
        }
        if (out[j]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'",
                         spec->fname, spec->names[j]);
            return -1;
        }
        out[j] = args[nargs + k];
    }
    for (int i = 0; i < spec->nrequired; i++) {
        if (!out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)",
                         spec->fname, spec->names[i], i + 1);
            return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------------
 * Codec names and error handlers the fast paths handle themselves; any other
 * value goes through str.encode / bytes.decode, exactly as urllib calls them.
 */
static int is_utf8_name(PyObject *name)
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

/* ---------------------------------------------------------------------------
 * Which arguments the C paths take. They read str, bytes and bytearray by
 * value; urllib.parse instead calls methods on its arguments. A subclass that
 * overrides none of those methods gets the same answer either way. Any other
 * argument (such a subclass, a duck type, a wrong type, a list as `safe`)
 * is handed to the running interpreter's urllib.parse itself, which alone can
 * honour it: the result is urllib's by construction.
 */

/* `o`, an instance of a subclass of `base`, behaves as `base` for urllib:
 * its type overrides none of the methods above, and no instance attribute
 * shadows a named one (o.encode is still base's method, bound to o). The
 * type is checked first, so the attribute lookups run no Python code. */
static int behaves_as(module_state *st, PyObject *o, PyTypeObject *base)
{
    PyTypeObject *type = Py_TYPE(o);
    for (size_t i = 0; i < N_SPECIAL; i++)
        if (_PyType_Lookup(type, st->special[i]) != _PyType_Lookup(base, st->special[i]))
            return 0;
    for (size_t i = 0; i < N_NAMED; i++)
        if (_PyType_Lookup(type, st->named[i]) != _PyType_Lookup(base, st->named[i]))
            return 0;
    for (size_t i = 0; i < N_NAMED; i++) {
        if (!_PyType_Lookup(base, st->named[i]))
            continue; /* base has no such method: urllib does not call it on this type */
        PyObject *m = PyObject_GetAttr(o, st->named[i]);
        if (!m) {
            PyErr_Clear();
            return 0;
        }
        int bound_builtin = PyCFunction_Check(m) && PyCFunction_GET_SELF(m) == o;
        Py_DECREF(m);
        if (!bound_builtin)
            return 0;
    }
    return 1;
}

/* T_STR, T_BYTES or T_BYTEARRAY when `o` is of that type or of a subclass
 * that overrides nothing urllib uses; 0 otherwise. */
static int plain_kind(module_state *st, PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t == &PyUnicode_Type)
        return T_STR;
    if (t == &PyBytes_Type)
        return T_BYTES;
    if (t == &PyByteArray_Type)
        return T_BYTEARRAY;
    if (PyUnicode_Check(o))
        return behaves_as(st, o, &PyUnicode_Type) ? T_STR : 0;
    if (PyBytes_Check(o))
        return behaves_as(st, o, &PyBytes_Type) ? T_BYTES : 0;
    if (PyByteArray_Check(o))
        return behaves_as(st, o, &PyByteArray_Type) ? T_BYTEARRAY : 0;
    return 0;
}

/* `string` is one of `kinds` and `safe` (if given) is str, bytes or bytearray. */
static int takes(module_state *st, PyObject *string, int kinds, PyObject *safe)
{
    return (plain_kind(st, string) & kinds) && (!safe || plain_kind(st, safe));
}

/* urllib.parse.<name>(*args, **kwargs), with the caller's arguments as given. */
static PyObject *delegate(module_state *st, const char *name, PyObject *const *args,
                          Py_ssize_t nargs, PyObject *kwnames)
{
    CACHE_LOCK(st);
    PyObject *mod = st->urllib_parse ? Py_NewRef(st->urllib_parse) : NULL;
    CACHE_UNLOCK(st);
    if (!mod) {
        if (!(mod = PyImport_ImportModule("urllib.parse")))
            return NULL;
        CACHE_LOCK(st);
        if (!st->urllib_parse)
            st->urllib_parse = Py_NewRef(mod);
        CACHE_UNLOCK(st);
    }
    PyObject *func = PyObject_GetAttrString(mod, name);
    Py_DECREF(mod);
    if (!func)
        return NULL;
    PyObject *r = PyObject_Vectorcall(func, args, (size_t)nargs, kwnames);
    Py_DECREF(func);
    return r;
}

/* The start of every module function: parse the arguments into `a`, then
 * either go on in C (returns 1) or answer through urllib.parse or with the
 * parsing error (returns 0, the answer in *result). */
static int enter(PyObject *module, const argspec *spec, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames, PyObject **a, PyObject **result)
{
    *result = NULL;
    /* The common call, f(s) with an exact str, needs neither parsing nor checks. */
    if (nargs == 1 && !kwnames && PyUnicode_CheckExact(args[0]) && (spec->kinds & T_STR)) {
        a[0] = args[0];
        for (int i = 1; i < spec->nparams; i++)
            a[i] = NULL;
        return 1;
    }
    if (parse_args(spec, args, nargs, kwnames, a) < 0)
        return 0;
    module_state *st = get_state(module);
    PyObject *safe = spec->safe_index >= 0 ? a[spec->safe_index] : NULL;
    if (spec->kinds && !takes(st, a[0], spec->kinds, safe)) {
        *result = delegate(st, spec->fname, args, nargs, kwnames);
        return 0;
    }
    return 1;
}

/* A bytes copy of a buffer another thread could write to (a bytearray being
 * filled by readinto with the GIL released, a shared mmap): a torn copy is
 * still a stable one, so sizing and writing agree. The buffer is exported
 * and the object locked (free-threaded build) while it is copied, so that
 * it cannot be resized or freed under the copy. */
static PyObject *snapshot(PyObject *obj)
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
        PyObject *copy = snapshot(safe);
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
PyObject *too_long(void)
{
    PyErr_SetString(PyExc_OverflowError, "percent-encoded result would be too long");
    return NULL;
}

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
        return too_long();
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
    PyObject *copy = snapshot(bs);
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
            return too_long();
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
        return too_long();
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

static int is_none_or_missing(PyObject *o)
{
    return o == NULL || o == Py_None;
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
    if (!utf8_strict(encoding, errors) || !plain_kind(st, safe))
        return 0;
    resolve_safe(st, safe, &st->set_unreserved, keep);
    if (plus)
        pct_set_add(keep, ' ');
    return 1;
}

const char *batch_unquote_errors(PyObject *encoding, PyObject *errors)
{
    if (!(is_none_or_missing(encoding) || is_utf8_name(encoding)))
        return NULL;
    return is_none_or_missing(errors) ? "replace" : builtin_errors(errors);
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

/* The str of UTF-8 that pct_decode_utf8 found valid: one allocation of the
 * final width, filled by the core. */
static PyObject *str_from_utf8(const uint8_t *buf, size_t len, const pct_utf8_info *info)
{
    PyObject *s = PyUnicode_New((Py_ssize_t)info->nchars, info->maxchar);
    if (!s)
        return NULL;
    size_t cap = info->nchars;
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_1BYTE_KIND:
        if (info->maxchar < 0x80)
            memcpy(PyUnicode_1BYTE_DATA(s), buf, len);
        else
            pct_utf8_to_ucs1(buf, len, PyUnicode_1BYTE_DATA(s), cap);
        break;
    case PyUnicode_2BYTE_KIND:
        pct_utf8_to_ucs2(buf, len, PyUnicode_2BYTE_DATA(s), cap);
        break;
    default:
        pct_utf8_to_ucs4(buf, len, PyUnicode_4BYTE_DATA(s), cap);
        break;
    }
    return s;
}

/* _unquote_impl(src).decode('utf-8', errors), `errors` a built-in handler.
 * A short result that is valid UTF-8 is written straight into a str of the
 * final width (every handler agrees on it), which saves the decoder's setup;
 * on long text CPython's decoder outruns the separate check and writer, and
 * it alone handles malformed UTF-8. */
#define DIRECT_TEXT_MAX 512
static PyObject *unquote_utf8(const uint8_t *src, Py_ssize_t n, int plus, const char *errors)
{
    scratch buf;
    uint8_t *p = scratch_get(&buf, n);
    if (!p)
        return NULL;
    PyObject *r;
    if (n <= DIRECT_TEXT_MAX) {
        /* Latin-1 text (most URL text) takes one pass and a copy */
        uint32_t maxchar;
        size_t len = pct_decode_latin1(src, (size_t)n, plus, p, &maxchar);
        if (len != PCT_NOT_LATIN1) {
            r = PyUnicode_New((Py_ssize_t)len, maxchar);
            if (r)
                memcpy(PyUnicode_1BYTE_DATA(r), p, len);
        } else {
            pct_utf8_info info;
            len = pct_decode_utf8(src, (size_t)n, plus, p, &info);
            r = info.valid ? str_from_utf8(p, len, &info)
                           : PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)len, errors);
        }
    } else {
        size_t len = decode_stable(src, n, plus, p);
        r = PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)len, errors);
    }
    scratch_free(&buf);
    return r;
}

/* Bytes of an unquoted buffer as text: `fast_errors` set means UTF-8 with
 * that built-in handler; otherwise bytes.decode(encoding, errors) is called. */
static PyObject *decode_text(module_state *st, const uint8_t *buf, size_t len,
                             const char *fast_errors, PyObject *encoding, PyObject *errors)
{
    if (fast_errors)
        return PyUnicode_DecodeUTF8((const char *)buf, (Py_ssize_t)len, fast_errors);
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
                piece = decode_text(st, p, dlen, fast_errors, encoding, errors);
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
    PyObject *copy = snapshot(string);
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
    scratch buf;
    uint8_t *dst = scratch_get(&buf, n);
    if (!dst)
        return NULL;
    size_t len = decode_stable((const uint8_t *)p, n, 0, dst);
    PyObject *r = decode_text(st, dst, len, fast_errors, encoding ? encoding : st->s_utf8,
                              errors ? errors : st->s_replace_errors);
    scratch_free(&buf);
    return r;
}

/* ---------------------------------------------------------------------------
 * The module functions.
 */
static const char *const QUOTE_ARGS[] = {"string", "safe", "encoding", "errors"};
static const char *const QFB_ARGS[] = {"bs", "safe"};
static const char *const UNQUOTE_ARGS[] = {"string", "encoding", "errors"};
static const char *const UTB_ARGS[] = {"string"};

PyDoc_STRVAR(quote_doc,
"quote($module, /, string, safe='/', encoding=None, errors=None)\n--\n\n"
"Percent-encode a str or bytes as urllib.parse.quote does.\n\n"
"Characters outside the RFC 3986 unreserved set (A-Z a-z 0-9 - . _ ~) and\n"
"`safe` become %XX escapes (uppercase hex) of their bytes in `encoding`\n"
"(UTF-8 by default); `errors` is the str.encode error handler.");

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
"Like quote(), but spaces become '+' (HTML form values) and safe defaults to ''.");

static int holds_space(PyObject *string)
{
    if (PyUnicode_Check(string))
        return PyUnicode_FindChar(string, ' ', 0, PyUnicode_GET_LENGTH(string), 1) != -1;
    return memchr(PyBytes_AS_STRING(string), ' ', (size_t)PyBytes_GET_SIZE(string)) != NULL;
}

static PyObject *quote_plus_any(module_state *st, PyObject *string, PyObject *safe,
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
"Like quote(), for bytes or bytearray; always returns an ASCII str.");

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

PyDoc_STRVAR(unquote_doc,
"unquote($module, /, string, encoding='utf-8', errors='replace')\n--\n\n"
"Replace %XX escapes as urllib.parse.unquote does: the escaped bytes are\n"
"decoded with `encoding` and the `errors` handler; a '%' not followed by two\n"
"hex digits is kept as it is.");

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
    if (n > DIRECT_TEXT_MAX)
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
"Like unquote(), but also replace '+' by a space (HTML form values).");

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
"Replace %XX escapes by the bytes they stand for; a str is UTF-8 encoded first.");

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
 * encode / decode: the core on any C-contiguous buffer, bytes out. Encoding
 * works on bytes or on an immutable copy of the buffer; decoding is a single
 * pass that never writes more than its input's length, so it reads the
 * buffer in place (and releases the GIL only for bytes).
 */
static const char *const ENCODE_ARGS[] = {"data", "safe", "plus"};
static const char *const DECODE_ARGS[] = {"data", "plus"};

PyDoc_STRVAR(encode_doc,
"encode($module, /, data, safe=b'', plus=False)\n--\n\n"
"Percent-encode any bytes-like object; returns bytes.\n\n"
"Bytes outside the RFC 3986 unreserved set and the ASCII characters of `safe`\n"
"become %XX (uppercase hex). With `plus`, a space is written as '+'.");

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
    pct_set keep;
    int plus = a[2] ? PyObject_IsTrue(a[2]) : 0;
    if (plus < 0)
        return NULL;
    if (resolve_safe(st, a[1], &st->set_unreserved, &keep) < 0)
        return NULL;
    if (plus)
        pct_set_add(&keep, ' ');
    PyObject *data = PyBytes_Check(a[0]) ? Py_NewRef(a[0]) : snapshot(a[0]);
    if (!data)
        return NULL;
    PyObject *out = encode_buffer((const uint8_t *)PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data),
                                  &keep, plus, 0);
    Py_DECREF(data);
    return out;
}

PyDoc_STRVAR(decode_doc,
"decode($module, /, data, plus=False)\n--\n\n"
"Decode the %XX escapes of any bytes-like object; returns bytes.\n\n"
"A '%' not followed by two hex digits is kept as it is. With `plus`, '+'\n"
"becomes a space.");

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

/* ---------------------------------------------------------------------------
 * urlencode: urllib's loop, step for step, with the quoting done here when
 * quote_via is this module's quote_plus.
 */
typedef struct {
    module_state *st;
    PyObject *self_quote_plus; /* this module's quote_plus, to call directly */
    PyObject *safe, *encoding, *errors, *quote_via;
} urlencoder;

/* quote_via(x, safe) for bytes, else quote_via(str(x) or x, safe, encoding, errors). */
static PyObject *urlencode_one(const urlencoder *u, PyObject *x, int keep_str)
{
    int is_bytes = PyBytes_Check(x);
    PyObject *arg = (is_bytes || (keep_str && PyUnicode_Check(x))) ? Py_NewRef(x) : PyObject_Str(x);
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
        bad = !first || !PyTuple_Check(first);
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
        PyObject *k = urlencode_one(&u, k0, 0);
        Py_DECREF(k0);
        if (!k) {
            Py_DECREF(v);
            goto done;
        }
        if (!doseq || PyBytes_Check(v) || PyUnicode_Check(v)) {
            failed = urlencode_append(out, k, urlencode_one(&u, v, doseq), eq) < 0;
        } else if (PyObject_Size(v) < 0) {
            /* not a sequence: quote str(v) */
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                failed = urlencode_append(out, k, urlencode_one(&u, v, 0), eq) < 0;
            } else {
                failed = 1;
            }
        } else {
            PyObject *vit = PyObject_GetIter(v), *elt;
            failed = !vit;
            while (!failed && (elt = PyIter_Next(vit))) {
                failed = urlencode_append(out, k, urlencode_one(&u, elt, 0), eq) < 0;
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

/* ---------------------------------------------------------------------------
 * Kernels: which one runs, for tests and benchmarks.
 */
PyDoc_STRVAR(kernel_doc, "_kernel($module, /)\n--\n\nName of the kernel in use.");

static PyObject *py_kernel(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyUnicode_FromString(pct_kernel_name());
}

PyDoc_STRVAR(kernels_doc, "_kernels($module, /)\n--\n\nNames of the kernels this CPU runs, best first.");

static PyObject *py_kernels(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    PyObject *names = PyList_New(0);
    for (size_t i = 0; names && pct_kernel_available(i); i++) {
        PyObject *name = PyUnicode_FromString(pct_kernel_available(i));
        if (!name || PyList_Append(names, name) < 0)
            Py_CLEAR(names);
        Py_XDECREF(name);
    }
    if (!names)
        return NULL;
    PyObject *r = PyList_AsTuple(names);
    Py_DECREF(names);
    return r;
}

/* PCTCODEC_KERNEL, read when the module is first loaded in the process. */
static int init_kernel(void)
{
    static int rc = 1;
    if (rc == 1)
        rc = pct_kernel_init();
    if (rc == 0)
        return 0;
    char names[64] = "auto";
    for (size_t i = 0; pct_kernel_available(i); i++) {
        strncat(names, ", ", sizeof names - strlen(names) - 1);
        strncat(names, pct_kernel_available(i), sizeof names - strlen(names) - 1);
    }
    const char *value = getenv("PCTCODEC_KERNEL");
    PyErr_Format(PyExc_ImportError, "PCTCODEC_KERNEL=%s: %s (here: %s)", value ? value : "",
                 rc == -2 ? "this CPU cannot run that kernel" : "no such kernel", names);
    return -1;
}

#define FASTCALL_KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

static PyMethodDef module_methods[] = {
    {"quote", FASTCALL_KW(py_quote), quote_doc},
    {"quote_plus", FASTCALL_KW(py_quote_plus), quote_plus_doc},
    {"quote_from_bytes", FASTCALL_KW(py_quote_from_bytes), quote_from_bytes_doc},
    {"unquote", FASTCALL_KW(py_unquote), unquote_doc},
    {"unquote_plus", FASTCALL_KW(py_unquote_plus), unquote_plus_doc},
    {"unquote_to_bytes", FASTCALL_KW(py_unquote_to_bytes), unquote_to_bytes_doc},
    {"encode", FASTCALL_KW(py_encode), encode_doc},
    {"decode", FASTCALL_KW(py_decode), decode_doc},
    {"_urlencode", (PyCFunction)(void (*)(void))py_urlencode, METH_FASTCALL, urlencode_doc},
    {"_kernel", py_kernel, METH_NOARGS, kernel_doc},
    {"_kernels", py_kernels, METH_NOARGS, kernels_doc},
    {NULL, NULL, 0, NULL},
};

/* ---------------------------------------------------------------------------
 * Module state and multi-phase init.
 */
static int module_exec(PyObject *module)
{
    module_state *st = get_state(module);
    if (init_kernel() < 0)
        return -1;
    pct_set_clear(&st->set_unreserved);
    pct_set_add_unreserved(&st->set_unreserved);
    st->set_slash = st->set_unreserved;
    pct_set_add(&st->set_slash, '/');
    st->last_safe = NULL;
#define INTERN(field, text)                                  \
    if (!(st->field = PyUnicode_InternFromString(text)))     \
        return -1;
    INTERN(s_encode, "encode")
    INTERN(s_decode, "decode")
    INTERN(s_utf8, "utf-8")
    INTERN(s_strict, "strict")
    INTERN(s_replace_errors, "replace")
    INTERN(s_plus, "+")
    INTERN(s_space, " ")
    INTERN(s_empty, "")
    INTERN(s_eq, "=")
    INTERN(s_amp, "&")
    INTERN(s_items, "items")
    INTERN(s_quote_plus, "quote_plus")
    for (size_t i = 0; i < N_SPECIAL; i++)
        INTERN(special[i], SPECIAL_METHODS[i])
    for (size_t i = 0; i < N_NAMED; i++)
        INTERN(named[i], NAMED_METHODS[i])
#undef INTERN
    if (PyModule_AddFunctions(module, ecma_methods) < 0) return -1;
    if (PyModule_AddFunctions(module, batch_methods) < 0) return -1;
    return PyModule_AddFunctions(module, uri_methods);
}

static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    module_state *st = get_state(module);
    if (st) {
        Py_VISIT(st->last_safe);
        Py_VISIT(st->urllib_parse);
    }
    return 0;
}

static int module_clear(PyObject *module)
{
    module_state *st = get_state(module);
    if (!st)
        return 0;
    Py_CLEAR(st->last_safe);
    Py_CLEAR(st->s_encode);
    Py_CLEAR(st->s_decode);
    Py_CLEAR(st->s_utf8);
    Py_CLEAR(st->s_strict);
    Py_CLEAR(st->s_replace_errors);
    Py_CLEAR(st->s_plus);
    Py_CLEAR(st->s_space);
    Py_CLEAR(st->s_empty);
    Py_CLEAR(st->urllib_parse);
    for (size_t i = 0; i < N_SPECIAL; i++)
        Py_CLEAR(st->special[i]);
    for (size_t i = 0; i < N_NAMED; i++)
        Py_CLEAR(st->named[i]);
    Py_CLEAR(st->s_eq);
    Py_CLEAR(st->s_amp);
    Py_CLEAR(st->s_items);
    Py_CLEAR(st->s_quote_plus);
    return 0;
}

static void module_free(void *module)
{
    module_clear((PyObject *)module);
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, (void *)module_exec},
#ifdef Py_mod_gil
    /* free-threaded builds: see the rule on threads in _pctcodec.h */
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "pctcodec._pctcodec",
    "Percent-encoding kernels behind pctcodec's urllib.parse-compatible functions.",
    sizeof(module_state),
    module_methods,
    module_slots,
    module_traverse,
    module_clear,
    module_free,
};

PyMODINIT_FUNC PyInit__pctcodec(void)
{
    return PyModuleDef_Init(&module_def);
}
