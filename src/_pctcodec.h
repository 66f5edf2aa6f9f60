/* What the parts of the CPython binding share. One job per file:
 *
 *   _pctcodec.c            the entry: module state, kernel choice, init
 *   _pctcodec_gate.c       argument parsing; which arguments the C paths take;
 *                          the hand-over of the others to urllib's algorithm
 *   _pctcodec_quote.c      quote, quote_plus, quote_from_bytes, encode
 *   _pctcodec_unquote.c    unquote, unquote_plus, unquote_to_bytes, decode
 *   _pctcodec_urlencode.c  the loop behind pctcodec.urlencode
 *   _pctcodec_uri.c        the RFC 3986 functions
 *   _pctcodec_query.c      query_param and clean_query on one value
 *   _pctcodec_ecma.c       the ECMAScript codecs, uri_to_iri
 *   _pctcodec_batch.c      the batch engine's rows (lists, Arrow columns), row errors
 *   _pctcodec_batch_ops.c  the batch functions' options decoded into ops
 *   _pctcodec_batch_pool.c the batch engine's worker pool (chunks, turns, threads, Ctrl-C)
 *   _pctcodec_split.c      split, split_many: URI components as columns
 *   _pctcodec_idna.c       hosts: domain to ASCII and to Unicode (uri_to_iri's labels)
 *   _pctcodec_url.c        the URL Standard's parser on one value
 *   _pctcodec_csv.c        the CSV cutter and joiner of the command line's table mode
 *   _pctcodec_arrow.c      Arrow I/O: capsules in (the layout read by src/core/pct_arrow.c),
 *                          result arrays out
 *   _pctcodec_common.c     helpers they all use (errors, package objects,
 *                          codec names, buffer snapshots)
 */
#ifndef PCTCODEC_BINDING_H
#define PCTCODEC_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "pct.h"

#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *Py_NewRef(PyObject *o)
{
    Py_INCREF(o);
    return o;
}
#endif

/* The raised exception as one object (3.12 API), for older versions too. */
#if PY_VERSION_HEX >= 0x030C0000
#define PyErr_GetRaisedException_compat PyErr_GetRaisedException
#define PyErr_SetRaisedException_compat PyErr_SetRaisedException
#else
static inline PyObject *PyErr_GetRaisedException_compat(void)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (!type)
        return NULL;
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb)
        PyException_SetTraceback(value, tb);
    Py_DECREF(type);
    Py_XDECREF(tb);
    return value;
}

static inline void PyErr_SetRaisedException_compat(PyObject *exc)
{
    if (!exc) { /* as PyErr_SetRaisedException(NULL): clears the error */
        PyErr_Clear();
        return;
    }
    PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(exc)), exc, PyException_GetTraceback(exc));
}
#endif

/* ---------------------------------------------------------------------------
 * Threads.
 *
 * The module declares Py_mod_gil = Py_MOD_GIL_NOT_USED: on a free-threaded
 * build (3.13t) its functions run in parallel, so
 *
 * - every cache is guarded: the `last_safe` cache and the private copy of
 *   urllib.parse in the module state by CACHE_LOCK (a PyMutex there, nothing
 *   on a GIL build); the package attributes of package_attr() are read with
 *   PyDict_GetItemStringRef (a strong reference, never a borrowed one another
 *   thread could drop). IDNA (src/core/pct_idna.c) keeps no state.
 *   Nothing else is written after module init (the kernel is chosen there).
 *
 * - the GIL is released (MAYBE_WITHOUT_GIL) only around loops over memory
 *   that cannot change under them: the code units of a str, the bytes of a
 *   bytes object (or subclass), or a buffer private to the call (a scratch
 *   buffer, the UTF-8 bytes made for the call, an immutable snapshot).
 *   Sizing and writing are two passes that must see the same input, so a
 *   mutable buffer (bytearray, memoryview, array, mmap) is never encoded in
 *   place: it is first copied into a bytes snapshot with its export held and
 *   the object locked (pct_py_snapshot() in _pctcodec_common.c), then encoded from there.
 *   Decoding (one pass, output never longer than the input) reads a mutable
 *   buffer in place with the GIL held and the buffer exported, so it cannot
 *   be resized or freed; a concurrent writer (possible on a free-threaded
 *   build) can only change which bytes come out, never how many fit.
 */
#if PY_VERSION_HEX < 0x030D0000
/* Critical sections exist from 3.13 on and only do something without a GIL. */
#define Py_BEGIN_CRITICAL_SECTION(op) {
#define Py_END_CRITICAL_SECTION() }
#endif

/* Item i of a list or tuple as a new reference, or NULL past its end:
 * fetched and referenced under the list's critical section, so that a
 * concurrent append or del (free-threaded builds) cannot free it between
 * the two. */
static inline PyObject *seq_item_ref(PyObject *seq, Py_ssize_t i)
{
    PyObject *item = NULL;
    Py_BEGIN_CRITICAL_SECTION(seq);
    if (i < PySequence_Fast_GET_SIZE(seq))
        item = Py_NewRef(PySequence_Fast_GET_ITEM(seq, i));
    Py_END_CRITICAL_SECTION();
    return item;
}

/* Runs `stmt` with the GIL released when `cond` holds. */
#define MAYBE_WITHOUT_GIL(cond, stmt)     \
    do {                                  \
        if (cond) {                       \
            Py_BEGIN_ALLOW_THREADS stmt;  \
            Py_END_ALLOW_THREADS          \
        } else {                          \
            stmt;                         \
        }                                 \
    } while (0)

/* ---------------------------------------------------------------------------
 * Ctrl-C in long loops (_pctcodec_signals.c). A loop over a column runs in
 * C, most often with the GIL released, where no signal handler runs: it
 * polls a sig_gate between chunks of rows instead. The poll reads a clock;
 * every SIG_GATE_NS it takes the GIL back for a moment (when the loop had
 * released it) and runs the handlers. A handler's exception
 * (KeyboardInterrupt) stays raised in the caller's thread state, the poll
 * says -1, and the loop stops with PCT_ERR_INTERRUPTED, frees what it made
 * and returns that exception: nothing half-done is returned.
 */
#define SIG_GATE_NS 20000000u /* 20 ms: Ctrl-C within 0.2 s, the GIL taken 50 times a second at most */

typedef struct {
    PyThreadState *ts; /* the caller's state while the loop runs with the GIL released; NULL: held */
    uint64_t next;     /* the clock at the next check (ns) */
} sig_gate;

void sig_gate_init(sig_gate *g);
/* 0, or -1 with the handler's exception raised (on the caller's thread
 * only: handlers run on the main thread). Call it from the thread whose
 * state g->ts is (or, with g->ts NULL, with the GIL held). */
int sig_gate_poll(sig_gate *g);
/* sig_gate_poll as the core's pct_interrupt callback: nonzero stops. */
int sig_gate_callback(void *gate);

/* For a loop that holds the GIL (a list's items, a rejects list built):
 * every PCT_INTERRUPT_STEP steps (i counts them) the signal handlers run
 * and the GIL is let go for a moment, so that another thread waiting for
 * it runs (a watchdog's _thread.interrupt_main(), a progress bar). 0, or
 * -1 with the handler's exception raised. */
int gil_loop_poll(size_t i);

/* MAYBE_WITHOUT_GIL whose statement polls `gate` (a sig_gate *). */
#define MAYBE_WITHOUT_GIL_GATED(cond, gate, stmt)  \
    do {                                           \
        sig_gate_init(gate);                       \
        if (cond) {                                \
            (gate)->ts = PyEval_SaveThread();      \
            stmt;                                  \
            PyEval_RestoreThread((gate)->ts);      \
            (gate)->ts = NULL;                     \
        } else {                                   \
            stmt;                                  \
        }                                          \
    } while (0)

/* Inputs at least this long are processed with the GIL released when the
 * input cannot change under us (see the rule above). */
#define NOGIL_MIN_LENGTH 65536

/* ---------------------------------------------------------------------------
 * Module state.
 */

/* What urllib.parse calls on its arguments (SPECIAL_METHODS, NAMED_METHODS
 * in _pctcodec_gate.c). */
#define N_SPECIAL 9
#define N_NAMED 5
extern const char *const SPECIAL_METHODS[N_SPECIAL];
extern const char *const NAMED_METHODS[N_NAMED];

typedef struct {
    pct_set set_slash;       /* unreserved + '/' : quote's default safe */
    pct_set set_unreserved;  /* unreserved only  : quote_plus's default safe */
    PyObject *last_safe;     /* exact str or bytes whose set is in last_set */
    pct_set last_set;
    PyObject *urllib_copy;   /* pctcodec._urllib.parse, fetched on first use by pct_py_delegate() */
    PyObject *s_encode, *s_decode;
    PyObject *s_utf8, *s_strict, *s_replace_errors;
    PyObject *s_plus, *s_space, *s_empty;
    PyObject *s_eq, *s_amp, *s_items;
    PyObject *special[N_SPECIAL];  /* SPECIAL_METHODS, interned */
    PyObject *named[N_NAMED];      /* NAMED_METHODS, interned */
#ifdef Py_GIL_DISABLED
    PyMutex cache_lock;            /* last_safe, last_set, urllib_copy */
#endif
} module_state;

/* The caches of the state are read and written under CACHE_LOCK: a mutex
 * without a GIL, nothing with one (see the rule on threads above). */
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
 * The argument gate (_pctcodec_gate.c).
 */

/* Argument types the C paths read by value (see plain_kind). */
#define T_STR 1
#define T_BYTES 2
#define T_BYTEARRAY 4
#define T_ANY (T_STR | T_BYTES | T_BYTEARRAY)

/* Arguments: METH_FASTCALL | METH_KEYWORDS without building a dict. */
typedef struct {
    const char *fname;  /* also the name of the urllib.parse function it stands for */
    const char *const *names;
    int nparams;
    int nrequired;
    int kinds;          /* T_* types of the first argument run in C; 0: no urllib twin */
    int safe_index;     /* position of `safe`, or -1 */
} argspec;

/* Fills out[0..nparams) from positional and keyword arguments (NULL where
 * absent); -1 with TypeError on a bad call. */
int parse_args(const argspec *spec, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames, PyObject **out);

/* `o`, an instance of a subclass of `base`, behaves as `base` for urllib
 * (it overrides none of SPECIAL_METHODS, NAMED_METHODS). */
int behaves_as(module_state *st, PyObject *o, PyTypeObject *base);

/* urllib's <name>(*args, **kwargs), from a private copy of urllib.parse
 * that never calls pctcodec (see pctcodec/_urllib.py). */
PyObject *pct_py_delegate(module_state *st, const char *name, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames);

/* The gate itself is inline: every call of the urllib.parse-compatible
 * functions passes it, with a constant argspec. */

/* T_STR, T_BYTES or T_BYTEARRAY when `o` is of that type or of a subclass
 * that overrides nothing urllib uses; 0 otherwise; -1 with an error raised
 * (a lack of memory in the lookup of its methods). */
static inline int plain_kind(module_state *st, PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t == &PyUnicode_Type)
        return T_STR;
    if (t == &PyBytes_Type)
        return T_BYTES;
    if (t == &PyByteArray_Type)
        return T_BYTEARRAY;
    int kind = PyUnicode_Check(o) ? T_STR : PyBytes_Check(o) ? T_BYTES
             : PyByteArray_Check(o) ? T_BYTEARRAY : 0;
    if (!kind)
        return 0;
    int as = behaves_as(st, o, kind == T_STR ? &PyUnicode_Type : kind == T_BYTES ? &PyBytes_Type
                                                                                : &PyByteArray_Type);
    return as < 0 ? -1 : as ? kind : 0;
}

/* `string` is one of `kinds` and `safe` (if given) is str, bytes or
 * bytearray: 1, else 0; -1 with an error raised. */
static inline int takes(module_state *st, PyObject *string, int kinds, PyObject *safe)
{
    int kind = plain_kind(st, string);
    if (kind <= 0 || !(kind & kinds))
        return kind < 0 ? -1 : 0;
    kind = safe ? plain_kind(st, safe) : 1;
    return kind < 0 ? -1 : kind != 0;
}

/* The start of every module function: parse the arguments into `a`, then
 * either go on in C (returns 1) or answer through urllib.parse or with the
 * parsing error (returns 0, the answer in *result). */
static inline int enter(PyObject *module, const argspec *spec, PyObject *const *args,
                        Py_ssize_t nargs, PyObject *kwnames, PyObject **a, PyObject **result)
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
    int taken = spec->kinds ? takes(st, a[0], spec->kinds, safe) : 1;
    if (taken <= 0) {
        *result = taken < 0 ? NULL : pct_py_delegate(st, spec->fname, args, nargs, kwnames);
        return 0;
    }
    return 1;
}

#define FASTCALL_KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* ---------------------------------------------------------------------------
 * Shared helpers (_pctcodec_common.c).
 */

/* OverflowError: the result would pass the maximum size of an object. */
PyObject *pct_py_too_long(void);

/* An attribute of a Python module of the package, fetched once and then kept
 * on this module as `cached` (a module attribute, so per interpreter). */
PyObject *package_attr(PyObject *module, const char *cached, const char *modname,
                       const char *name);

/* Raises pctcodec.PercentEncodingError(reason, index); returns NULL. */
PyObject *raise_percent_error(PyObject *module, PyObject *reason, Py_ssize_t index);

/* The index of the first lone surrogate of the str s (a code point
 * U+D800..U+DFFF, which has no UTF-8 form), or -1 when it has none: read
 * from its data, no encoder run and no exception raised. */
Py_ssize_t str_first_surrogate(PyObject *s);

/* A piece of text_join's text: ASCII C text (NUL-terminated, or its first
 * ascii_len bytes when that is not 0), else a str, else a number written
 * in decimal. */
typedef struct {
    const char *ascii;
    PyObject *str;
    Py_ssize_t number;
    Py_ssize_t ascii_len;
} text_piece;

/* The n pieces (at most TEXT_JOIN_MAX) one after the other in a new str:
 * one allocation, no format string parsed (an error message made per row,
 * where PyUnicode_FromFormat costs more than the row). */
#define TEXT_JOIN_MAX 12

/* The text_piece of a string literal, its length known (no strlen). */
#define TEXT_LITERAL(s) ((text_piece){"" s, NULL, 0, (Py_ssize_t)(sizeof(s) - 1)})
PyObject *text_join(const text_piece *pieces, int n);

/* `name` is an exact str spelling UTF-8 (utf-8, utf_8, utf8, any case). */
int is_utf8_name(PyObject *name);

/* A bytes copy of a buffer another thread could write to, taken with the
 * buffer exported and the object locked. */
PyObject *pct_py_snapshot(PyObject *obj);

/* An argument left out, or None: urllib's default. */
static inline int is_none_or_missing(PyObject *o)
{
    return o == NULL || o == Py_None;
}

/* ---------------------------------------------------------------------------
 * The module's functions, by file; added to the module at init.
 */
extern PyMethodDef quote_methods[];     /* _pctcodec_quote.c */
extern PyMethodDef unquote_methods[];   /* _pctcodec_unquote.c */
extern PyMethodDef urlencode_methods[]; /* _pctcodec_urlencode.c */

/* urllib.parse.quote_plus for arguments that takes() accepts (the quoting
 * behind urlencode's default quote_via). */
PyObject *quote_plus_any(module_state *st, PyObject *string, PyObject *safe, PyObject *encoding,
                         PyObject *errors);

/* The RFC 3986 functions (src/_pctcodec_uri.c). */
extern PyMethodDef uri_methods[];
/* PercentEncodingError at the first lone surrogate of the str s, in place
 * of the pending UnicodeEncodeError of its UTF-8 encoding. */
void raise_surrogate_error(PyObject *module, PyObject *s);

/* query_param and clean_query on one value (src/_pctcodec_query.c). */
extern PyMethodDef query_methods[];

/* parse_query_many and query_params_many on Arrow (src/_pctcodec_query_arrow.c). */
extern PyMethodDef query_arrow_methods[];

/* The ECMAScript codecs and uri_to_iri (src/_pctcodec_ecma.c). */
extern PyMethodDef ecma_methods[];

/* The batch engine (src/_pctcodec_batch.c). */
extern PyMethodDef batch_methods[];

/* split and split_many's engine (src/_pctcodec_split.c). */
extern PyMethodDef split_methods[];

/* The Public Suffix List: compiled lists and one value's part
 * (src/_pctcodec_domain.c); domain_psl is a list capsule's table, or NULL
 * with TypeError. */
extern PyMethodDef domain_methods[];
struct pct_psl;
const struct pct_psl *domain_psl(PyObject *capsule);

/* The CSV cutter and joiner of the table mode (src/_pctcodec_csv.c). */
extern PyMethodDef csv_methods[];
/* Hosts: domain to ASCII and to Unicode (src/_pctcodec_idna.c). */
extern PyMethodDef idna_methods[];
/* The URL Standard's parser on one value (src/_pctcodec_url.c); url_base_of
 * is the parsed base in a capsule of _url_base, or NULL with TypeError. */
extern PyMethodDef url_methods[];
struct pct_url;
const struct pct_url *url_base_of(PyObject *capsule);

/* For the batch engine, from src/_pctcodec_quote.c. The set of bytes quote(s,
 * safe, encoding, errors) keeps for a str s (plus: quote_plus, the space
 * kept too): 1 when it encodes UTF-8 strictly and `safe` is read in C,
 * else 0 (such calls go through Python); -1 with an error raised. */
int batch_quote_set(PyObject *module, PyObject *safe, PyObject *encoding, PyObject *errors,
                    int plus, pct_set *keep);
/* From src/_pctcodec_unquote.c: the built-in error handler unquote(s,
 * encoding, errors) decodes UTF-8 with, or NULL when it decodes otherwise. */
const char *batch_unquote_errors(PyObject *encoding, PyObject *errors);

#endif /* PCTCODEC_BINDING_H */
