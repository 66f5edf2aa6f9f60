/* The rows of the batch engine (src/core/pct_batch.c; the rooms are listed
 * in _pctcodec_batch.h): the work of quote_many ... parse_url_many
 * (src/pctcodec/batch.py) on a list or tuple of str, and on Arrow arrays and
 * streams through the Arrow C data interface.
 *
 * Arrow input is read in place (offsets or views, data buffers; see
 * src/_pctcodec_arrow.c) and the result is written to malloc'd buffers that
 * the ArrowArray's release callback frees: no Python object per value. The
 * rows run with the GIL released, in chunks over `threads` threads (the
 * worker pool, _pctcodec_batch_pool.c); a row the core cannot finish
 * (IDNA, an error handler only Python has) calls the single-value function
 * with the GIL taken for that row. Under on_error "raise" any error names
 * the row's index and no result is returned; under "null" or "keep" a row
 * whose single-value call raises an Exception (not MemoryError) gets null or
 * its input, and (index, value, exception) goes to the rejects list.
 */
#include "_pctcodec.h" /* Python.h first, as it asks */

#include <stdlib.h>
#include <string.h>

#include "_pctcodec_arrow.h"
#include "_pctcodec_batch.h"
#include "pct_authority.h"
#include "pct_batch.h"
#include "pct_domain.h"
#include "pct_idna.h"

/* Replaces the raised exception by the one pctcodec.batch._indexed makes of
 * it for the value at `index`, raised from the original when it is new. */
static PyObject *raise_at(PyObject *module, Py_ssize_t index)
{
    PyObject *exc = PyErr_GetRaisedException_compat();
    if (!exc)
        return NULL;
    PyObject *indexed = package_attr(module, "_batch_indexed", "pctcodec.batch", "_indexed");
    PyObject *r = indexed ? PyObject_CallFunction(indexed, "On", exc, index) : NULL;
    Py_XDECREF(indexed);
    if (!r) {
        Py_DECREF(exc);
        return NULL;
    }
    if (r != exc) {
        Py_INCREF(exc);
        PyException_SetContext(r, exc); /* both steal a reference */
        PyException_SetCause(r, exc);
    } else {
        Py_DECREF(exc);
    }
    PyErr_SetRaisedException_compat(r);
    return NULL;
}

/* 1 when the raised exception `exc` is one that on_error "null" or "keep"
 * takes for the row's failure: an Exception other than MemoryError (a
 * KeyboardInterrupt or a lack of memory stops the run under any on_error). */
static int is_row_error(const batch_op *op, PyObject *exc)
{
    return op->on_error != ON_ERROR_RAISE && PyErr_GivenExceptionMatches(exc, PyExc_Exception)
           && !PyErr_GivenExceptionMatches(exc, PyExc_MemoryError);
}

/* Reject(index, value, exc) (pctcodec.batch.Reject, a namedtuple) as
 * Reject._make makes it, no Python code run. Before 3.14 a tuple is its
 * items alone: the class's own allocation of a tuple of 3, the items put
 * in (no two passing tuples). From 3.14 a tuple caches its hash, which
 * only tuple.__new__ sets up: that way. */
static PyObject *new_reject(const batch_op *op, Py_ssize_t index, PyObject *value, PyObject *exc)
{
    PyTypeObject *type = (PyTypeObject *)op->reject_type;
    if (!type) { /* (setup_op checked it is a tuple's subclass) */
        PyErr_SetString(PyExc_SystemError, "the Reject class is not there");
        return NULL;
    }
    PyObject *i = PyLong_FromSsize_t(index);
#if PY_VERSION_HEX < 0x030E0000
    PyObject *items = i ? type->tp_alloc(type, 3) : NULL; /* the Reject itself */
#else
    PyObject *items = i ? PyTuple_New(3) : NULL; /* tuple.__new__'s argument */
#endif
    if (!items) {
        Py_XDECREF(i);
        return NULL;
    }
    PyTuple_SET_ITEM(items, 0, i);
    PyTuple_SET_ITEM(items, 1, Py_NewRef(value));
    PyTuple_SET_ITEM(items, 2, Py_NewRef(exc));
#if PY_VERSION_HEX < 0x030E0000
    return items;
#else
    PyObject *args = PyTuple_Pack(1, items);
    PyObject *r = args ? PyTuple_Type.tp_new(type, args, NULL) : NULL;
    Py_XDECREF(args);
    Py_DECREF(items);
    return r;
#endif
}

/* Appends Reject(index, value, exc) to op->rejects (when there is one; the
 * index alone with rows_only, value then unread); steals exc. */
static int add_reject(const batch_op *op, Py_ssize_t index, PyObject *value, PyObject *exc)
{
    int rc = 0;
    if (op->rejects) {
        PyObject *t = op->rows_only ? PyLong_FromSsize_t(index)
                      : value ? new_reject(op, index, value, exc) : NULL;
        rc = t ? PyList_Append(op->rejects, t) : -1;
        Py_XDECREF(t);
    }
    Py_DECREF(exc);
    return rc;
}

static void raise_status(int status)
{
    if (status == PCT_ERR_NO_MEMORY)
        PyErr_NoMemory();
    else if (status == PCT_ERR_TOO_LARGE)
        pct_py_too_long();
    else
        PyErr_SetString(PyExc_ValueError, "malformed Arrow array: an offset or view is out of range");
}

/* ---------------------------------------------------------------------------
 * Lists and tuples of str.
 */

/* The row's result in out (or position) as a Python object. */
static PyObject *row_object(const batch_op *op, const pct_buf *out, int64_t position)
{
    if (op->code == OP_CHECK)
        return position < 0 ? Py_NewRef(Py_None) : PyLong_FromLongLong(position);
    if (op->spec.op == PCT_BATCH_UNQUOTE || op->spec.op == PCT_BATCH_QUERY_PARAM
        || op->spec.op == PCT_BATCH_CLEAN_QUERY || op->spec.op == PCT_BATCH_RESOLVE)
        /* (DOMAIN's results are ASCII) */
        return PyUnicode_DecodeUTF8((const char *)out->data, (Py_ssize_t)out->len, "strict");
    PyObject *s = PyUnicode_New((Py_ssize_t)out->len, 127);
    if (s && out->len)
        memcpy(PyUnicode_1BYTE_DATA(s), out->data, out->len);
    return s;
}

static int mapped_host_row(const batch_op *op, const uint8_t *p, size_t n, const pct_batch_info *info,
                           pct_buf *out, size_t limit, pct_host_cache *hosts, int *no_form);

/* func of the row `item`; RESOLVE's takes the row's base too (`base`, or
 * the one str of every row). */
static PyObject *call_func(const batch_op *op, PyObject *base, PyObject *item)
{
    if (op->code != OP_RESOLVE && !(op->spec.op == PCT_BATCH_URL && base))
        return PyObject_CallOneArg(op->func, item);
    PyObject *pair[2] = {base ? base : (PyObject *)NULL, item};
    if (!base) {
        PyObject *fixed = PyUnicode_DecodeUTF8((const char *)op->spec.base,
                                               (Py_ssize_t)op->spec.base_len, "strict");
        if (!fixed)
            return NULL;
        pair[0] = fixed;
        PyObject *r = PyObject_Vectorcall(op->func, pair, 2, NULL);
        Py_DECREF(fixed);
        return r;
    }
    return PyObject_Vectorcall(op->func, pair, 2, NULL);
}

static int str_utf8(PyObject *item, const uint8_t **p, size_t *n, PyObject **owner);

/* The URL Standard parser's verdict on the URL p[0..n) as the domain
 * functions read it (pct_domain_url_host), and where it stopped; `a`: its
 * authority as the finder finds it. Known without a parse when the parser
 * reads the host as written and its domain to ASCII fails: a forbidden
 * ASCII byte in it, or a non-ASCII host with no IDNA form (a failed row's
 * usual reasons; a parse costs more than the rest of its reject). */
static pct_status parser_verdict(const uint8_t *p, size_t n, const pct_authority *a,
                                 int no_form, size_t *error_pos)
{
    const uint8_t *host = p + a->host;
    size_t len = a->host_end - a->host;
    /* (a '[' makes the parser read a ':' after it as the host's: its host
     * may run past the finder's) */
    if (pct_domain_host_reader_at(p, n, a) == PCT_DOMAIN_READ_ALIKE && !memchr(host, '[', len)) {
        /* no_form: the caller found the host has no IDNA form */
        int refused = (no_form && pct_ascii_span(host, len) != len) || pct_domain_host_refused_at(p, n, a);
        if (!refused && pct_ascii_span(host, len) != len) {
            uint8_t buf[256], *heap = NULL;
            const uint8_t *form;
            size_t form_len;
            pct_status st = pct_idna_host_form(host, len, buf, sizeof buf, &form, &form_len, &heap);
            free(heap);
            if (st == PCT_ERR_NO_MEMORY)
                return st;
            refused = st != PCT_OK;
        }
        if (refused)
            return pct_url_refused_host(host, len, a->host, error_pos);
    }
    pct_url u;
    pct_url_init(&u);
    const uint8_t *h;
    size_t hn;
    pct_status rc = pct_domain_url_host(&u, p, n, &h, &hn);
    *error_pos = u.error_pos;
    pct_url_free(&u);
    return rc;
}

/* A refusal of the URL for its port, not its host: worded as the URL's
 * (pctcodec.domains._URL_REASONS). */
#define PORT_REASON(rc) ((rc) == PCT_ERR_URL_PORT || (rc) == PCT_ERR_URL_PORT_RANGE)

/* exc.name = v, through the slot's descriptor when there is one. */
static int set_slot(PyObject *exc, PyObject *slot, PyObject *name, PyObject *v)
{
    return slot ? Py_TYPE(slot)->tp_descr_set(slot, exc, v) : PyObject_GenericSetAttr(exc, name, v);
}

/* cls(reason, position), a pctcodec._errors._PositionedError class of the
 * op's rejects kit, as its __init__ makes it, without running Python
 * code: args (the message "%s at position %d") and position (a slot of the
 * class); the reason, the text of the n pieces (text_join's), is left to
 * the class's `reason`, which reads it off the message when asked (one str
 * less a failed row). */
static PyObject *positioned_error(const batch_op *op, PyObject *cls, const text_piece *reason_pieces,
                                  int n, Py_ssize_t position)
{
    if (!cls || !op->s_position || !PyType_Check(cls) || n < 1 || n > TEXT_JOIN_MAX - 2
        || position < 0) {
        PyErr_SetString(PyExc_SystemError, "a failed row's error class is not there");
        return NULL;
    }
    text_piece t[TEXT_JOIN_MAX];
    memcpy(t, reason_pieces, (size_t)n * sizeof *t);
    t[n] = TEXT_LITERAL(" at position ");
    t[n + 1] = (text_piece){NULL, NULL, position, 0};
    PyObject *exc = NULL;
    PyObject *msg = text_join(t, n + 2);
    PyObject *pos = msg ? PyLong_FromSsize_t(position) : NULL;
    PyObject *args = pos ? PyTuple_Pack(1, msg) : NULL;
    if (args) {
        /* a tuple of one str is in no cycle: untracked now, not at the
         * collector's next pass (a failed row makes several objects) */
        PyObject_GC_UnTrack(args);
        exc = ((PyTypeObject *)cls)->tp_new((PyTypeObject *)cls, args, NULL);
    }
    /* __init__'s assignment of the position, to the class's slot (no
     * __dict__ made) */
    if (exc && set_slot(exc, op->d_position, op->s_position, pos) < 0)
        Py_CLEAR(exc);
    Py_XDECREF(args);
    Py_XDECREF(pos);
    Py_XDECREF(msg);
    return exc;
}

/* The exception of a row the core failed (PCT_ROW_FAILED: DOMAIN's host
 * with a byte no host may hold, or with no IDNA form; for the other ops,
 * normalize(strict_idna=True)'s host with no form, func's own error, made
 * by func), as the single-value
 * function makes it (pctcodec.domains._part): HostError("the host %r is
 * no domain name", the host's start), the host where pct_authority_find
 * finds it, positions in code points. Made only when a rejects list keeps
 * it: a failed row under on_error "null" or "keep" costs about what a
 * good one does. `item`: an exact str; `utf8`: its UTF-8 (utf8_n bytes)
 * when the caller has it (an Arrow row), else NULL. */
static PyObject *failed_row_exception(const batch_op *op, PyObject *item, const uint8_t *utf8,
                                      size_t utf8_n, const row_failure *why)
{
    const uint8_t *p = utf8;
    size_t n = utf8_n, start, len;
    PyObject *owner = NULL, *exc;
    int got = utf8 ? 1 : str_utf8(item, &p, &n, &owner);
    if (got < 0)
        return NULL;
    if (got > 0 && op->spec.op == PCT_BATCH_NORMALIZE && op->percent_error && !pct_uri_needs_strip(p, n)) {
        /* normalize(strict_idna=True)'s error for a host with no form
         * (pctcodec._pctcodec.normalize's rewrite): at the host, as the
         * split finds it in the text (a row to strip goes to func) */
        pct_uri u;
        pct_uri_split(p, n, &u);
        Py_ssize_t at = (Py_ssize_t)pct_utf8_count(p, u.host.start);
        Py_XDECREF(owner);
        text_piece msg[] = {TEXT_LITERAL("host has no IDNA (UTS #46) form")};
        return positioned_error(op, op->percent_error, msg, 1, at);
    }
    if (got > 0 && op->spec.op != PCT_BATCH_DOMAIN) {
        Py_XDECREF(owner);
        got = 0; /* any other op's failed row: func's own error, made by func */
    }
    if (got == 0) { /* no UTF-8 (lone surrogates), or not DOMAIN: func's own error */
        PyObject *r = call_func(op, NULL, item);
        if (r) {
            Py_DECREF(r);
            PyErr_SetString(PyExc_SystemError, "a failed row did not fail");
        }
        return PyErr_GetRaisedException_compat();
    }
    /* (p's bytes are those the row pass read: an Arrow row's, or the
     * str's UTF-8) */
    int refused = why->refused && why->host.start <= n && why->host.len <= n - why->host.start
                  && !memchr(p + why->host.start, '[', why->host.len); /* (as parser_verdict) */
    pct_authority a; /* where the single-value function finds the host */
    if (refused) { /* found by the row pass */
        start = why->host.start;
        len = why->host.len;
    } else {
        pct_authority_find(p, n, PCT_AUTH_WEB, &a);
        start = a.host;
        len = a.host_end - a.host;
    }
    /* positions in code points: an ASCII row's are its byte offsets */
    int ascii = pct_ascii_span(p, n) == n;
    Py_ssize_t cs = (Py_ssize_t)(ascii ? start : pct_utf8_count(p, start));
    Py_ssize_t ce = cs + (Py_ssize_t)(ascii ? len : pct_utf8_count(p + start, len));
    /* a special scheme's URL the URL Standard's parser refuses: its reason
     * and position, as pctcodec.domains._url_part words them */
    const char *reason = NULL;
    Py_ssize_t at = 0;
    pct_status rc_why = PCT_OK;
    if (refused || pct_domain_browser_at(p, n, &a)) {
        size_t error_pos;
        pct_status rc = refused ? pct_url_refused_host(p + start, len, start, &error_pos)
                                : parser_verdict(p, n, &a, why->no_form, &error_pos);
        rc_why = rc;
        if (PCT_URL_REJECTED(rc)) {
            reason = pct_url_reason(rc);
            error_pos = error_pos < n ? error_pos : n;
            at = (Py_ssize_t)(ascii ? error_pos : pct_utf8_count(p, error_pos));
        }
        if (rc == PCT_ERR_NO_MEMORY) {
            Py_XDECREF(owner);
            return PyErr_NoMemory();
        }
    }
    /* the host's repr (%r): a host of printable code points with no quote
     * or backslash is its text in single quotes, written here (ASCII from
     * its bytes); any other host's is repr()'s */
    text_piece hr[3] = {TEXT_LITERAL("'"), {(const char *)p + start, NULL, 0, (Py_ssize_t)len}, TEXT_LITERAL("'")};
    int plain = len > 0;
    for (size_t i = 0; i < len && plain; i++)
        plain = p[start + i] >= 0x20 && p[start + i] < 0x7F && p[start + i] != '\'' && p[start + i] != '\\';
    PyObject *host = NULL, *r = NULL;
    if (!plain && (host = PyUnicode_Substring(item, cs, ce))) {
        Py_ssize_t hl = PyUnicode_GET_LENGTH(host);
        plain = hl > 0;
        for (Py_ssize_t i = 0; i < hl && plain; i++) {
            Py_UCS4 c = PyUnicode_READ_CHAR(host, i);
            plain = c < 0x7F ? c >= 0x20 && c != '\'' && c != '\\' : Py_UNICODE_ISPRINTABLE(c);
        }
        if (plain)
            hr[1] = (text_piece){NULL, host, 0, 0};
        else if ((r = PyObject_Repr(host)))
            hr[0] = (text_piece){NULL, r, 0, 0};
    }
    int nr = plain ? 3 : 1, ok = plain || r;
    text_piece t[9];
    int nt = 0;
    if (ok && !reason) { /* "the host %r is no domain name" */
        t[nt++] = TEXT_LITERAL("the host ");
        for (int k = 0; k < nr; k++)
            t[nt++] = hr[k];
        t[nt++] = TEXT_LITERAL(" is no domain name");
    } else if (ok && ((!refused && a.ip_literal) || PORT_REASON(rc_why))) { /* "the URL Standard's parser refuses the URL: %s" */
        t[nt++] = TEXT_LITERAL("the URL Standard's parser refuses the URL: ");
        t[nt++] = (text_piece){reason, NULL, 0, 0};
        cs = at;
    } else if (ok) { /* "the host %r is no domain name (the URL Standard's parser: %s at %d)" */
        t[nt++] = TEXT_LITERAL("the host ");
        for (int k = 0; k < nr; k++)
            t[nt++] = hr[k];
        t[nt++] = TEXT_LITERAL(" is no domain name (the URL Standard's parser: ");
        t[nt++] = (text_piece){reason, NULL, 0, 0};
        t[nt++] = TEXT_LITERAL(" at ");
        t[nt++] = (text_piece){NULL, NULL, at, 0};
        t[nt++] = TEXT_LITERAL(")");
    }
    exc = nt ? positioned_error(op, op->host_error, t, nt, cs) : NULL;
    Py_XDECREF(owner); /* (p, which t's pieces may point into, lives in it until here) */
    Py_XDECREF(r);
    Py_XDECREF(host);
    return exc;
}

/* The ops whose single-value function fails on any lone surrogate, and
 * whose error surrogate_exception makes: quote's (UTF-8, strict) and the
 * text functions that read a str as UTF-8 first. */
static int surrogate_fails(const batch_op *op)
{
    switch (op->code) {
    case OP_QUOTE:
    case OP_QUOTE_PLUS:
    case OP_REQUOTE:
    case OP_NORMALIZE:
    case OP_CANONICALIZE:
    case OP_CLEAN_QUERY:
        return !op->all_python;
    default:
        return 0;
    }
}

/* The exception of a row of a surrogate_fails op that holds a lone
 * surrogate (the exact str `item`), as the single-value function raises
 * it: quote's is the UTF-8 encoder's UnicodeEncodeError (made by that
 * encoder, so the same), the others' PercentEncodingError at the first
 * lone surrogate (raise_surrogate_error's). Made only when a rejects list
 * keeps it. */
static PyObject *surrogate_exception(const batch_op *op, PyObject *item)
{
    if (op->code == OP_QUOTE || op->code == OP_QUOTE_PLUS) {
        PyObject *b = PyUnicode_AsUTF8String(item);
        if (b) {
            Py_DECREF(b);
            PyErr_SetString(PyExc_SystemError, "a failed row did not fail");
            return NULL;
        }
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return NULL; /* MemoryError: it stands */
        return PyErr_GetRaisedException_compat();
    }
    Py_ssize_t at = str_first_surrogate(item);
    if (at < 0) {
        PyErr_SetString(PyExc_SystemError, "a failed row has no lone surrogate");
        return NULL;
    }
    char text[64]; /* (PyUnicode_FromFormat has no %04X) */
    snprintf(text, sizeof text, "lone surrogate U+%04X has no UTF-8 form",
             (unsigned)PyUnicode_READ_CHAR(item, at));
    text_piece why[] = {{text, NULL, 0, 0}};
    return positioned_error(op, op->percent_error, why, 1, at);
}

/* The UTF-8 of an exact str: in place when ASCII, else a temporary copy
 * in *owner (not cached on the str). 0 when it has none (lone surrogates:
 * no error raised), -1 with an error. */
static int str_utf8(PyObject *item, const uint8_t **p, size_t *n, PyObject **owner)
{
    *owner = NULL;
    if (PyUnicode_IS_ASCII(item)) {
        *p = PyUnicode_1BYTE_DATA(item);
        *n = (size_t)PyUnicode_GET_LENGTH(item);
        return 1;
    }
    if (!(*owner = PyUnicode_AsUTF8String(item))) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return -1;
        PyErr_Clear(); /* lone surrogates: the single-value function decides */
        return 0;
    }
    *p = (const uint8_t *)PyBytes_AS_STRING(*owner);
    *n = (size_t)PyBytes_GET_SIZE(*owner);
    return 1;
}

/* The result for one exact str, through the core when it can; `base`:
 * RESOLVE's base of the row (an exact str), NULL for the others and for
 * one base for all; *hosts: the call's IDNA forms, made on the first host
 * that needs one. A row failed under on_error "null" or "keep": NULL with
 * *failed 1 (*why: what was learned of it) or 2 (a lone surrogate). */
static PyObject *str_row(const batch_op *op, PyObject *base, PyObject *item, pct_buf *out,
                         pct_host_cache **hosts, int *failed, row_failure *why)
{
    const uint8_t *p, *bp = op->spec.base;
    size_t n, bn = op->spec.base_len;
    PyObject *owner = NULL, *base_owner = NULL;
    if (op->all_python)
        return call_func(op, base, item);
    /* a lone surrogate where the function surely fails on it: the row
     * fails here, its exception made only when one is kept (the encoder's
     * raising costs ten good rows) */
    if (op->on_error != ON_ERROR_RAISE && !base && surrogate_fails(op) && str_first_surrogate(item) >= 0)
        return (*failed = 2, NULL);
    int got = str_utf8(item, &p, &n, &owner);
    if (got > 0 && base && (got = str_utf8(base, &bp, &bn, &base_owner)) <= 0)
        Py_XDECREF(owner);
    if (got <= 0)
        return got < 0 ? NULL : call_func(op, base, item);
    pct_batch_info info;
    info.refused = 0;
    int no_form = 0;
    out->len = 0;
    int rc = op->spec.op == PCT_BATCH_RESOLVE || (op->spec.op == PCT_BATCH_URL && base)
                 ? pct_batch_resolve_row(&op->spec, bp, bn, p, n, out, (size_t)PY_SSIZE_T_MAX, &info)
                 : pct_batch_row(&op->spec, p, n, out, (size_t)PY_SSIZE_T_MAX, &info);
    Py_XDECREF(base_owner);
    PyObject *r;
    if (rc == PCT_ROW_HOST) { /* (RESOLVE's rows never answer it) */
        if (!*hosts)
            *hosts = pct_host_cache_new(); /* without memory, no cache */
        rc = mapped_host_row(op, p, n, &info, out, (size_t)PY_SSIZE_T_MAX, *hosts, &no_form);
    }
    if (rc == PCT_ROW_FAILED && op->on_error != ON_ERROR_RAISE)
    {
        /* the caller's policy, no exception made (see failed_row_exception) */
        *why = (row_failure){no_form, info.refused, info.refused ? info.host : (pct_range){0, 0}};
        r = (*failed = 1, NULL);
    }
    else if (rc == PCT_ROW_CALLER || rc == PCT_ROW_FAILED)
        r = call_func(op, base, item); /* raising: func's own error, with its traceback */
    else if (rc == PCT_ROW_NULL)
        r = Py_NewRef(Py_None);
    else if (rc != PCT_OK)
        r = (raise_status(rc), NULL);
    else
        r = row_object(op, out, info.position);
    Py_XDECREF(owner);
    return r;
}

PyDoc_STRVAR(many_list_doc,
"_many_list($module, values, op, func, safe, encoding, errors, opts, on_error, rejects, /)\n--\n\n"
"The batch operation `op` over a list or tuple of str or None (see\n"
"src/pctcodec/batch.py); `func` is the single-value function.");

static PyObject *many_list(PyObject *module, PyObject *values, batch_op *op);

static PyObject *py_many_list(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    batch_op op;
    if (batch_op_decode(module, args, nargs, 0, "_many_list", &op) < 0)
        return NULL;
    PyObject *r = many_list(module, args[0], &op);
    batch_op_release(&op);
    return r;
}

/* py_many_list's rows, with its op decoded. */
static PyObject *many_list(PyObject *module, PyObject *values, batch_op *opp)
{
    batch_op op = *opp; /* (a copy: its references stay the caller's) */
    if (!PyList_CheckExact(values) && !PyTuple_CheckExact(values)) {
        PyErr_SetString(PyExc_TypeError, "_many_list() needs a list or a tuple");
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(values);
    PyObject *bases = op.base_column;
    if (bases && (!PyList_CheckExact(bases) || PyList_GET_SIZE(bases) != n)) {
        PyErr_SetString(PyExc_ValueError, "resolve_many() needs a list of bases as long as the references");
        return NULL;
    }
    PyObject *result = PyList_New(n);
    if (!result)
        return NULL;
    pct_buf out;
    pct_buf_init(&out);
    pct_host_cache *hosts = NULL;
    Py_ssize_t i;
    /* func may change a list: its current length bounds every step */
    for (i = 0; i < n && i < PySequence_Fast_GET_SIZE(values); i++) {
        if (gil_loop_poll((size_t)i) < 0) /* Ctrl-C */
            goto fail;
        PyObject *item = seq_item_ref(values, i);
        if (!item)
            break; /* it shrank meanwhile */
        /* the row's base, when they come as a column (the list may shrink too) */
        PyObject *base = bases ? seq_item_ref(bases, i) : NULL;
        PyObject *r;
        if (bases && !base) {
            PyErr_SetString(PyExc_ValueError, "resolve_many(): the list of bases changed");
            r = NULL;
        } else if (item == Py_None || base == Py_None) {
            r = Py_NewRef(Py_None);
        } else if (!PyUnicode_Check(item) || (base && !PyUnicode_Check(base))) {
            PyObject *bad = PyUnicode_Check(item) ? base : item;
            PyErr_Format(PyExc_TypeError, "%s() %s at index %zd must be str or None, not %.200s",
                         batch_op_name(op.code), bad == item ? "value" : "base", i,
                         Py_TYPE(bad)->tp_name);
            r = NULL;
        } else if (PyUnicode_CheckExact(item) && (!base || PyUnicode_CheckExact(base))) {
            int failed = 0;
            row_failure why;
            r = str_row(&op, base, item, &out, &hosts, &failed, &why);
            if (failed) { /* under null or keep: no exception unless rejects keeps one */
                PyObject *exc = !op.rejects ? NULL
                                : op.rows_only ? Py_NewRef(Py_None)
                                : failed == 2 ? surrogate_exception(&op, item)
                                              : failed_row_exception(&op, item, NULL, 0, &why);
                if ((op.rejects && !exc) || (exc && add_reject(&op, i, item, exc) < 0)) {
                    Py_DECREF(item);
                    Py_XDECREF(base);
                    goto fail;
                }
                r = Py_NewRef(op.on_error == ON_ERROR_KEEP ? item : Py_None);
            }
        } else {
            r = call_func(&op, base, item); /* a subclass: its own methods may count */
        }
        if (!r) {
            PyObject *exc = PyErr_GetRaisedException_compat();
            if (exc && is_row_error(&op, exc)) {
                if (add_reject(&op, i, item, exc) < 0) {
                    Py_DECREF(item);
                    Py_XDECREF(base);
                    goto fail;
                }
                r = Py_NewRef(op.on_error == ON_ERROR_KEEP ? item : Py_None);
            } else {
                PyErr_SetRaisedException_compat(exc);
                Py_DECREF(item);
                Py_XDECREF(base);
                raise_at(module, i);
                goto fail;
            }
        }
        Py_DECREF(item);
        Py_XDECREF(base);
        PyList_SET_ITEM(result, i, r);
    }
    pct_buf_free(&out);
    pct_host_cache_free(hosts);
    if (i < n && PyList_SetSlice(result, i, n, NULL) < 0)
        Py_CLEAR(result);
    return result;
fail:
    pct_buf_free(&out);
    pct_host_cache_free(hosts);
    /* the slots not yet filled are NULL, which list dealloc skips */
    Py_DECREF(result);
    return NULL;
}

/* ---------------------------------------------------------------------------
 * IDNA for normalize and the domain parts: the URL Standard's domain to
 * ASCII in C (pct_idna.h), without the GIL, once per host and piece; the
 * forms go to the piece's pct_host_cache, from which the core writes later
 * rows with the same host itself.
 */

/* A NORMALIZE or DOMAIN row the core answered PCT_ROW_HOST, written with its host
 * mapped here (from `hosts` when it is there, kept there after; hosts may
 * be NULL), or, for a host with no form, written as normalize writes it.
 * PCT_ROW_CALLER for a host with no form under strict_idna: the row goes
 * through func, which raises normalize's error. */
/* A special scheme's URL whose host has no IDNA form: PCT_ROW_FAILED when
 * the URL Standard's parser refuses it too (failed_row_exception words
 * its reason), else the caller's (PCT_ROW_CALLER). */
static int parser_refuses(const uint8_t *p, size_t n)
{
    size_t at;
    pct_authority a;
    pct_authority_find(p, n, PCT_AUTH_WEB, &a);
    pct_status rc = parser_verdict(p, n, &a, 1, &at);
    return rc == PCT_ERR_NO_MEMORY ? PCT_ERR_NO_MEMORY : PCT_URL_REJECTED(rc) ? PCT_ROW_FAILED : PCT_ROW_CALLER;
}

static int mapped_host_row(const batch_op *op, const uint8_t *p, size_t n, const pct_batch_info *info,
                           pct_buf *out, size_t limit, pct_host_cache *hosts, int *no_form)
{
    const uint8_t *host = p + info->host.start, *form;
    size_t len = info->host.len, form_len = 0;
    uint8_t buf[PCT_HOST_CACHED], *heap = NULL;
    if (info->no_form) {
        form = NULL; /* the core mapped it already: it has none */
    } else if (!hosts || !pct_host_cache_get(hosts, host, len, &form, &form_len)) {
        pct_status idna = pct_idna_host_form(host, len, buf, sizeof buf, &form, &form_len, &heap);
        if (idna == PCT_ERR_NO_MEMORY)
            return PCT_ERR_NO_MEMORY;
        if (idna != PCT_OK)
            form = NULL;
        if (hosts)
            pct_host_cache_put(hosts, host, len, form, form_len);
    }
    int rc;
    if (op->spec.op == PCT_BATCH_DOMAIN) /* the part of the form; none: func raises HostError */
    {
        /* no form: the row's error, made in C; when the parser reads the
         * URL's host otherwise than the finder, its verdict decides (a URL
         * it reads gets func's answer) */
        rc = form ? pct_batch_domain_host(&op->spec, form, form_len, out, limit)
             : memchr(host, '%', len) ? PCT_ROW_CALLER /* decoded first, it may have a form: func's */
             : pct_domain_host_reader(p, n) == PCT_DOMAIN_READ_PARSER ? parser_refuses(p, n)
                                                                    : PCT_ROW_FAILED;
        if (rc == PCT_ROW_NULL && pct_domain_browser(p, n))
            rc = PCT_ROW_CALLER; /* a form ending in a number: the parser's reading (func) */
    }
    else
        rc = !form && op->spec.op == PCT_BATCH_CANONICALIZE
                 ? PCT_ROW_CALLER /* the parser's refusal, or its reading */
             : !form && op->strict_idna
                 ? PCT_ROW_FAILED /* normalize(strict_idna=True)'s error: the same host form failed */
                 : pct_batch_normalize_host(&op->spec, p, n, info, form, form ? form_len : 0, out, limit);
    free(heap);
    *no_form = rc == PCT_ROW_FAILED && !form; /* (failed_row_exception need not map it again) */
    return rc;
}

static int python_row(piece *pc, const uint8_t *p, size_t n, int64_t *position);

/* mapped_host_row for a row of a piece, with the piece's cache. */
static int host_row(piece *pc, const uint8_t *p, size_t n, const pct_batch_info *info)
{
    if (!pc->hosts && !(pc->hosts = pct_host_cache_new()))
        return PCT_ERR_NO_MEMORY;
    int rc = mapped_host_row(pc->op, p, n, info, pc->out, pc->limit, pc->hosts, &pc->why.no_form);
    return rc == PCT_ROW_CALLER ? python_row(pc, p, n, NULL) : rc;
}

/* The row through func, with the GIL held for it. */
static int python_row(piece *pc, const uint8_t *p, size_t n, int64_t *position)
{
    if (pool_enter_python(pc) < 0)
        return PCT_ERR_NO_MEMORY;
    int rc = PCT_OK;
    PyObject *text = PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)n, "strict"), *r = NULL;
    PyObject *not_utf8 = NULL;
    if (!text && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        /* a row that is no UTF-8 (a producer's fault): func on its text as
         * a rejects list shows it (surrogateescape), so that the row fails
         * as the single call on that value does */
        not_utf8 = PyErr_GetRaisedException_compat();
        text = PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)n, "surrogateescape");
    }
    if (text && (pc->op->code == OP_RESOLVE || (pc->op->spec.op == PCT_BATCH_URL && pc->row_base))) {
        PyObject *base = PyUnicode_DecodeUTF8((const char *)pc->row_base,
                                              (Py_ssize_t)pc->row_base_n, "strict");
        r = base ? call_func(pc->op, base, text) : NULL;
        Py_XDECREF(base);
    } else if (text) {
        r = PyObject_CallOneArg(pc->op->func, text);
    }
    Py_XDECREF(text);
    /* a result from it stands when it has a UTF-8 form (the domain parts
     * of a row whose bad bytes are in its path, None for no part) */
    if (not_utf8 && r && (pc->op->code == OP_CHECK || (r != Py_None && !(PyUnicode_Check(r)
                                                                        && str_first_surrogate(r) < 0)))) {
        Py_CLEAR(r);
        PyErr_SetRaisedException_compat(not_utf8);
    } else if (not_utf8) {
        Py_DECREF(not_utf8); /* (func's error stands) */
    }
    if (r && pc->op->code == OP_CHECK && position) { /* (only CHECK asks for it) */
        *position = r == Py_None ? -1 : PyLong_AsLongLong(r);
    } else if (r == Py_None && (pc->op->code == OP_DOMAIN || pc->op->code == OP_SUFFIX
                                || pc->op->code == OP_PARTS)) {
        rc = PCT_ROW_NULL; /* no such part (a host the parser read that is a suffix) */
    } else if (r && !PyUnicode_Check(r)) {
        PyErr_Format(PyExc_TypeError, "expected str, got %.200s", Py_TYPE(r)->tp_name);
    } else if (r) {
        Py_ssize_t len;
        const char *u = PyUnicode_AsUTF8AndSize(r, &len);
        if (u && (rc = pct_buf_reserve(pc->out, (size_t)len, pc->limit)) == PCT_OK) {
            memcpy(pc->out->data + pc->out->len, u, (size_t)len);
            pc->out->len += (size_t)len;
        }
    }
    Py_XDECREF(r);
    if (PyErr_Occurred()) {
        pc->exc = PyErr_GetRaisedException_compat();
        rc = is_row_error(pc->op, pc->exc) ? PCT_ROW_REJECTED : PCT_ROW_PYTHON_ERROR;
    }
    pool_leave_python(pc);
    return rc;
}

/* A row rejected under on_error "null" or "keep": its exception (pc->exc)
 * kept for the rejects list, and null or the input p[0..n) as its result. */
static int reject_row(piece *pc, int64_t r, const uint8_t *p, size_t n)
{
    if (!pc->exc && !pc->op->rejects) {
        /* a failed row with nothing to keep */
    } else if (pc->n_rejects == pc->rejects_cap) {
        size_t cap = pc->rejects_cap ? 2 * pc->rejects_cap : 16;
        struct reject *items = cap < SIZE_MAX / sizeof *items
                                   ? realloc(pc->rejects, cap * sizeof *items) : NULL;
        if (!items)
            return PCT_ERR_NO_MEMORY; /* pc->exc stays, for pool_free */
        pc->rejects = items;
        pc->rejects_cap = cap;
    }
    if (pc->exc || pc->op->rejects) { /* exc NULL: a failed row's, made by add_rejects */
        pc->rejects[pc->n_rejects].row = r;
        pc->rejects[pc->n_rejects].exc = pc->exc;
        pc->rejects[pc->n_rejects].why = pc->why;
        pc->n_rejects++;
        pc->exc = NULL;
    }
    int check = pc->op->code == OP_CHECK;
    if (pc->op->on_error == ON_ERROR_KEEP && !check) {
        /* an Arrow row that is no UTF-8 (a producer's fault) is kept with
         * its ill-formed bytes escaped %XX, as normalize writes them: the
         * result is a valid string array */
        pct_utf8_info info;
        pct_utf8_check(p, n, &info);
        int escape = !info.valid;
        if (escape && n > (SIZE_MAX - 1) / 3)
            return PCT_ERR_TOO_LARGE;
        int rc = pct_buf_reserve(pc->out, escape ? 3 * n : n, pc->limit);
        if (rc != PCT_OK)
            return rc;
        if (escape)
            pc->out->len += pct_utf8_repair(p, n, PCT_UTF8_ESCAPE, pc->out->data + pc->out->len);
        else if (n)
            memcpy(pc->out->data + pc->out->len, p, n);
        if (!escape)
            pc->out->len += n;
        pc->ends[r - pc->r0] = (int64_t)pc->out->len;
        pc->valid[r >> 3] |= (uint8_t)(1u << (r & 7));
    } else {
        pc->ends[r - pc->r0] = check ? -1 : (int64_t)pc->out->len;
    }
    return PCT_OK;
}

/* Row r of the piece (its text p[0..n)) after the core's outcome rc: the
 * work the core leaves to Python (IDNA, func), then its result. PCT_OK, or
 * the outcome that stops the piece. */
static int finish_row(piece *pc, int64_t r, int rc, const uint8_t *p, size_t n,
                      pct_batch_info *info)
{
    int check = pc->op->code == OP_CHECK;
    int64_t position = -1;
    pc->why.no_form = 0; /* (host_row sets it) */
    pc->why.refused = 0;
    if (rc == PCT_ROW_FAILED && info->refused) { /* (set by the core for this row: cleared) */
        pc->why.refused = 1;
        pc->why.host = info->host;
        info->refused = 0;
    }
    if (rc == PCT_ROW_NULL) { /* query_param_many: no such parameter */
        pc->ends[r - pc->r0] = (int64_t)pc->out->len;
        return PCT_OK;
    }
    if (rc == PCT_ROW_HOST)
        rc = host_row(pc, p, n, info);
    else if (rc == PCT_ROW_CALLER)
        rc = python_row(pc, p, n, &position);
    else if (rc == PCT_OK && check)
        position = info->position;
    if (rc == PCT_ROW_NULL) { /* DOMAIN: no such part, of the IDNA form or by func */
        pc->ends[r - pc->r0] = (int64_t)pc->out->len;
        return PCT_OK;
    }
    if (rc == PCT_ROW_FAILED) /* raising: func's own error; else the policy, the exception made later */
        rc = pc->op->on_error == ON_ERROR_RAISE ? python_row(pc, p, n, &position) : PCT_ROW_REJECTED;
    if (rc == PCT_ROW_REJECTED)
        return reject_row(pc, r, p, n);
    if (rc != PCT_OK)
        return rc;
    if (check && position < 0) {
        pc->ends[r - pc->r0] = -1;
        return PCT_OK;
    }
    pc->ends[r - pc->r0] = check ? position : (int64_t)pc->out->len;
    pc->valid[r >> 3] |= (uint8_t)(1u << (r & 7));
    return PCT_OK;
}

/* Rows r0 .. r0 + count - 1 of the array into pc->out. Offset columns go
 * to the core a run of rows at a time (pct_batch_rows stops at a row it
 * leaves to the caller, which is done here, and the run resumes after it);
 * views and all-Python operations row by row. PCT_OK, or the outcome of
 * the row that stops it (pc->err_row). */
int batch_chunk(piece *pc, int64_t r0, int64_t count)
{
    const batch_op *op = pc->op;
    const pct_arrow_strings *in = pc->in;
    int check = op->code == OP_CHECK;
    pct_rows whole = {in->kind == 'u' ? 4 : 8, in->index, NULL, in->validity, in->offset};
    int by_runs = !op->all_python && (in->kind == 'u' || in->kind == 'U') && in->data
                  && !op->bases;
    if (by_runs)
        whole.data = in->data[0];
    pc->row_base = op->spec.base; /* RESOLVE: one base for all, or the column's below */
    pc->row_base_n = op->spec.base_len;
    int64_t end = r0 + count;
    pct_batch_info info; /* the core's, of the row it stopped at */
    info.refused = 0;    /* (the core only sets it; finish_row clears it) */
    for (int64_t r = r0; r < end; r++) {
        const uint8_t *p = NULL;
        size_t n = 0;
        int rc;
        if (op->bases) { /* RESOLVE over a base column: null when either is */
            rc = pct_arrow_row(in, r, &p, &n);
            int got = rc > 0 ? pct_arrow_row(op->bases, r, &pc->row_base, &pc->row_base_n) : rc;
            if (rc == 0 || got == 0) {
                pc->ends[r - pc->r0] = (int64_t)pc->out->len;
                continue;
            }
            rc = rc < 0 || got < 0 ? PCT_ROW_MALFORMED
               : op->all_python ? PCT_ROW_CALLER
                                : pct_batch_resolve_row(&op->spec, pc->row_base, pc->row_base_n, p,
                                                        n, pc->out, pc->limit, &info);
        } else if (by_runs) {
            /* slots from the chunk's first row (a multiple of 8: valid's bits
             * from a byte's start) */
            r += pct_batch_rows(&op->spec, &whole, r, end - r, r - pc->r0, pc->out, pc->limit,
                                pc->ends, pc->valid + pc->r0 / 8, &rc, &info, pc->hosts);
            if (r == end)
                break;
            if (rc != PCT_ROW_MALFORMED)
                pct_rows_get(&whole, r, &p, &n); /* the row it left */
        } else {
            rc = pct_arrow_row(in, r, &p, &n);
            if (rc == 0) {
                pc->ends[r - pc->r0] = check ? -1 : (int64_t)pc->out->len;
                continue;
            }
            rc = rc < 0 ? PCT_ROW_MALFORMED
               : op->all_python ? PCT_ROW_CALLER
                                : pct_batch_row(&op->spec, p, n, pc->out, pc->limit, &info);
        }
        if (rc != PCT_ROW_MALFORMED)
            rc = finish_row(pc, r, rc, p, n, &info);
        if (rc != PCT_OK) {
            pc->err_row = r;
            return rc;
        }
    }
    return PCT_OK;
}
static int reject_order(const void *a, const void *b)
{
    int64_t x = ((const struct reject *)a)->row, y = ((const struct reject *)b)->row;
    return (x > y) - (x < y);
}

/* The rejects of every piece to op->rejects, in row order (each piece's
 * exceptions taken). */
static int add_rejects(const batch_op *op, const pct_arrow_strings *in, piece *pcs, int np, int64_t base)
{
    size_t total = 0, at = 0;
    for (int k = 0; k < np; k++)
        total += pcs[k].n_rejects;
    if (!total)
        return 0;
    struct reject *all = total <= SIZE_MAX / sizeof *all ? malloc(total * sizeof *all) : NULL;
    if (!all) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < np; k++) {
        if (pcs[k].n_rejects)
            memcpy(all + at, pcs[k].rejects, pcs[k].n_rejects * sizeof *all);
        at += pcs[k].n_rejects;
        pcs[k].n_rejects = 0; /* taken */
    }
    /* one thread's rejects, or pieces done in row order, are in order
     * already: sorted only when they are not */
    for (size_t j = 1; j < total; j++)
        if (all[j - 1].row > all[j].row) {
            qsort(all, total, sizeof *all, reject_order);
            break;
        }
    int rc = 0;
    for (size_t j = 0; j < total; j++) {
        PyObject *exc = all[j].exc;
        if (rc == 0 && j && gil_loop_poll(j) < 0)
            rc = -1; /* Ctrl-C: the rest are dropped */
        if (rc < 0) {
            Py_XDECREF(exc);
            continue;
        }
        if (op->rows_only) { /* the index alone */
            rc = add_reject(op, (Py_ssize_t)(base + all[j].row), NULL, exc ? exc : Py_NewRef(Py_None));
            continue;
        }
        const uint8_t *p = NULL;
        size_t n = 0;
        pct_utf8_info info = {0, 0, 0};
        PyObject *value = NULL;
        if (pct_arrow_row(in, all[j].row, &p, &n) > 0) {
            /* the row's text; bytes that are no UTF-8 (a producer's fault)
             * as surrogateescape shows them */
            pct_utf8_check(p, n, &info);
            value = info.valid ? str_from_utf8(p, n, &info)
                               : PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)n, "surrogateescape");
        }
        int same = value && !exc && info.valid; /* the row's bytes are value's UTF-8 */
        if (value && !exc && !(exc = failed_row_exception(op, value, same ? p : NULL, n, &all[j].why))) {
            Py_DECREF(value);
            value = NULL; /* its error stands */
            exc = Py_NewRef(Py_None);
        }
        rc = value ? add_reject(op, (Py_ssize_t)(base + all[j].row), value, exc) : (Py_DECREF(exc), -1);
        Py_XDECREF(value);
        if (rc < 0 && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "malformed Arrow array: a rejected row is gone");
    }
    free(all);
    return rc;
}

/* 1 when the piece stopped for what stops a run under any on_error: a
 * BaseException that is not an Exception (KeyboardInterrupt, SystemExit),
 * a MemoryError, or a lack of memory of the core's. */
static int stops_run(const piece *pc)
{
    if (pc->status == PCT_ERR_INTERRUPTED)
        return 2; /* before any row's error: Ctrl-C is the caller's */
    if (pc->status == PCT_ERR_NO_MEMORY)
        return 1;
    return pc->status == PCT_ROW_PYTHON_ERROR && pc->exc
           && (!PyErr_GivenExceptionMatches(pc->exc, PyExc_Exception)
               || PyErr_GivenExceptionMatches(pc->exc, PyExc_MemoryError));
}
/* Runs the rows of `in` on up to `threads` threads (the worker pool) into
 * a result of `kind` appended to rl; on an error raises it for the first failing row
 * (base: the index of in's first row in the whole column). */
static int run_array(PyObject *module, const batch_op *op, const pct_arrow_strings *in, int threads,
                     int64_t base, char kind, result_list *rl)
{
    shared_run run;
    int np = 0;
    piece *pcs = pool_run(op, in, threads, kind, rl, &run, &np);
    if (!pcs)
        return -1;
    /* the lowest failing row's error, but an interrupt, an exit or a lack
     * of memory first, whichever row met it */
    piece *first = NULL;
    int first_stops = 0;
    for (int k = 0; k < np; k++) {
        if (pcs[k].status == PCT_OK)
            continue;
        int stops = stops_run(&pcs[k]);
        if (!first || stops > first_stops || (stops == first_stops && pcs[k].err_row < first->err_row)) {
            first = &pcs[k];
            first_stops = stops;
        }
    }
    if (first && first->status == PCT_ERR_INTERRUPTED) {
        PyErr_SetRaisedException_compat(first->exc); /* the handler's, as it raised it */
        first->exc = NULL;
        pool_free(pcs, np, &run);
        return -1;
    }
    if (first) {
        if (first->status == PCT_ROW_PYTHON_ERROR) {
            PyErr_SetRaisedException_compat(first->exc);
            first->exc = NULL;
        } else {
            raise_status(first->status);
        }
        raise_at(module, (Py_ssize_t)(base + first->err_row));
        pool_free(pcs, np, &run);
        return -1;
    }
    int rc = add_rejects(op, in, pcs, np, base);
    pool_free(pcs, np, &run);
    return rc;
}

/* RESOLVE's base column: a (schema capsule, array capsule) pair of a
 * string array as long as `in`. */
static int base_strings(PyObject *pair, const pct_arrow_strings *in, const char *fname, int64_t base,
                        pct_arrow_strings *bases)
{
    struct ArrowSchema *schema;
    struct ArrowArray *array;
    PyObject *sizes;
    char kind = 0;
    if (arrow_import(pair, fname, &schema, &array, &sizes) < 0 || !(kind = schema_kind(schema, fname))
        || strings_init(bases, kind, array, sizes, base) < 0) /* checked as the references are */
        return -1;
    if (bases->length != in->length) {
        PyErr_Format(PyExc_ValueError, "%s() needs as many bases as references (%lld, not %lld)",
                     fname, (long long)in->length, (long long)bases->length);
        return -1;
    }
    return 0;
}

/* (schema capsule, array capsule) of the results put together (their
 * data and offsets taken). The room the data buffer has past its bytes is
 * not cut: never written, it holds no page, and the pool (big_free) hands
 * the whole buffer to the next call. */
static PyObject *result_capsules(result_list *rl, char kind)
{
    arrow_piece *parts = malloc((size_t)(rl->n ? rl->n : 1) * sizeof *parts);
    if (!parts)
        return PyErr_NoMemory();
    for (int k = 0; k < rl->n; k++) {
        result *res = &rl->items[k];
        pct_buf *out = &res->out;
        parts[k] = res->part;
        parts[k].data = out->data;
        parts[k].len = out->len;
        out->data = NULL; /* taken */
        out->len = out->cap = 0;
    }
    PyObject *r = pieces_capsules(parts, rl->n, kind);
    for (int k = 0; k < rl->n; k++) { /* what arrow_build took is NULL */
        rl->items[k].part.offsets = parts[k].offsets;
        rl->items[k].part.valid = parts[k].valid;
    }
    free(parts);
    return r;
}

PyDoc_STRVAR(many_arrow_doc,
"_many_arrow($module, source, op, func, safe, encoding, errors, opts, on_error, rejects, threads, base, /)\n--\n\n"
"The batch operation `op` over an Arrow array, `source` a (schema capsule,\n"
"array capsule) pair (and a tuple of its buffers' sizes when they are\n"
"known, -1 for one that is not), or over an Arrow stream capsule. Returns the result\n"
"as a (schema capsule, array capsule) pair of one array; `base` is the index\n"
"of the first row in error messages.");

static PyObject *many_arrow(PyObject *module, PyObject *const *args, batch_op *op);

static PyObject *py_many_arrow(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    batch_op op;
    if (batch_op_decode(module, args, nargs, 2, "_many_arrow", &op) < 0)
        return NULL;
    PyObject *r = many_arrow(module, args, &op);
    batch_op_release(&op);
    return r;
}

/* py_many_arrow's work, with its op decoded. */
static PyObject *many_arrow(PyObject *module, PyObject *const *args, batch_op *opp)
{
    batch_op op = *opp; /* (a copy: its references stay the caller's) */
    const char *fname = batch_op_name(op.code);
    long threads = PyLong_AsLong(args[1 + N_OP_ARGS]);
    if (threads == -1 && PyErr_Occurred())
        return NULL;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (threads < -MAX_THREADS)
        threads = -MAX_THREADS;
    int64_t base = PyLong_AsLongLong(args[2 + N_OP_ARGS]);
    if (base == -1 && PyErr_Occurred())
        return NULL;
    PyObject *source = args[0], *result = NULL;
    result_list rl = {NULL, 0, 0};
    char kind = 0, out_kind = 0;
    if (PyTuple_Check(source) && (PyTuple_GET_SIZE(source) == 2 || PyTuple_GET_SIZE(source) == 3)) {
        struct ArrowSchema *schema;
        struct ArrowArray *array;
        PyObject *sizes;
        pct_arrow_strings in, bases;
        if (arrow_import(source, fname, &schema, &array, &sizes) < 0 || !(kind = schema_kind(schema, fname)) || strings_init(&in, kind, array, sizes, base) < 0
            || (op.base_column && base_strings(op.base_column, &in, fname, base, &bases) < 0))
            goto done;
        if (op.base_column)
            op.bases = &bases;
        out_kind = op.code == OP_CHECK ? 'l' : kind;
        if (run_array(module, &op, &in, (int)threads, base, out_kind, &rl) < 0)
            goto done;
    } else {
        if (op.base_column) {
            PyErr_Format(PyExc_TypeError, "%s() takes its base column as one array", fname);
            goto done;
        }
        struct ArrowArrayStream *stream;
        if (!(kind = arrow_stream_open(source, fname, &stream)))
            goto done;
        out_kind = op.code == OP_CHECK ? 'l' : kind;
        for (;;) {
            struct ArrowArray array;
            int got = arrow_stream_next(stream, &array);
            if (got < 0)
                goto done;
            if (!got)
                break; /* the end */
            pct_arrow_strings in;
            int failed = strings_init(&in, kind, &array, NULL, base) < 0
                         || run_array(module, &op, &in, (int)threads, base, out_kind, &rl) < 0;
            base += array.length;
            array.release(&array);
            if (failed)
                goto done;
        }
    }
    result = result_capsules(&rl, out_kind);
done:
    results_free(&rl);
    return result;
}

PyMethodDef batch_methods[] = {
    {"_many_list", (PyCFunction)(void (*)(void))py_many_list, METH_FASTCALL, many_list_doc},
    {"_many_arrow", (PyCFunction)(void (*)(void))py_many_arrow, METH_FASTCALL, many_arrow_doc},
    {NULL, NULL, 0, NULL},
};
