/* CPython binding of the CSV record cutter (src/core/pct_csv.c), for the
 * table mode of the command line (src/pctcodec/cli/_csv.py, src/pctcodec/cli/_tables.py):
 * _csv_cut gives the chosen field of each record of a buffer as text and the
 * bytes between those fields as they are; _csv_join puts new fields back
 * between them; _csv_header gives every field of the first record. The per-row work of the table mode is all here. */
#include "_pctcodec.h" /* first: Python.h before the standard headers */
#include <string.h>

#include "pct_batch.h"
#include "pct_csv.h"

/* Field flags, one byte per row in _csv_cut's result. */
enum { FIELD_PLAIN = 0, FIELD_QUOTED = 1, FIELD_MALFORMED = 2, FIELD_RAGGED = 3, FIELD_UNCLOSED = 4 };

/* Appends buf[start..end) to list as bytes. */
static int append_bytes(PyObject *list, const uint8_t *buf, size_t start, size_t end)
{
    PyObject *b = PyBytes_FromStringAndSize((const char *)buf + start, (Py_ssize_t)(end - start));
    int rc = b ? PyList_Append(list, b) : -1;
    Py_XDECREF(b);
    return rc;
}

/* The text of the raw field f[0..n) appended to list (decoded as UTF-8 with
 * surrogateescape; a quoted field unquoted, a doubled quote made one), and
 * its flag: FIELD_MALFORMED (the raw bytes appended) for text after the
 * closing quote. */
static int append_field(PyObject *list, const uint8_t *f, size_t n, uint8_t *flag,
                        pct_buf *scratch)
{
    PyObject *v;
    if (n == 0 || f[0] != '"') {
        *flag = FIELD_PLAIN;
        v = PyUnicode_DecodeUTF8((const char *)f, (Py_ssize_t)n, "surrogateescape");
    } else {
        int ok = n >= 2 && f[n - 1] == '"';
        size_t len = 0;
        if (ok && pct_buf_reserve(scratch, n, (size_t)PY_SSIZE_T_MAX) != PCT_OK) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t i = 1; ok && i + 1 < n; i++) {
            if (f[i] == '"') { /* inside: only a doubled quote */
                if (i + 2 >= n || f[i + 1] != '"') {
                    ok = 0;
                    break;
                }
                i++;
            }
            scratch->data[len++] = f[i];
        }
        *flag = ok ? FIELD_QUOTED : FIELD_MALFORMED;
        v = ok ? PyUnicode_DecodeUTF8((const char *)scratch->data, (Py_ssize_t)len, "surrogateescape")
               : PyBytes_FromStringAndSize((const char *)f, (Py_ssize_t)n);
    }
    int rc = v ? PyList_Append(list, v) : -1;
    Py_XDECREF(v);
    return rc;
}

static const char csv_cut_doc[] =
"_csv_cut($module, buf, pos, final, delimiter, index, expect, rows, line, /)\n--\n\n"
"Up to `rows` data rows of the CSV bytes `buf` from `pos`, field `index` of\n"
"each taken out: (gaps, values, flags, lines, counts, pos, rows, status, line).\n"
"values: the field of each row as text (unquoted); flags: a byte per row,\n"
"0 plain, 1 quoted, 2 text after the closing quote (the value is then the raw\n"
"bytes), 3 a record without `expect` fields (0: any) or without the field,\n"
"4 a quoted field never closed (for 3 and 4 the value is the raw record, its\n"
"terminator left in the next gap); counts: the field count of each row\n"
"flagged 3 or 4 (for 4, the number of the field that opens the quote);\n"
"lines: the file line each row starts on, as native int64; gaps: the bytes\n"
"around the values, one more than values (gaps[0] + field 0 + gaps[1] + ...\n"
"is the input up to pos; blank lines are in the gaps). `line`: the line at\n"
"`pos`; the one at the returned pos comes back. status: 0 rows done, 2 more\n"
"data needed, 5 the end (see src/core/pct_csv.h).";

/* The arguments both cutters take: (buf, pos, final, delimiter, ...). */
typedef struct {
    const uint8_t *buf, *delim;
    size_t n, dlen, pos;
    int final;
} cut_args;

static int parse_cut_args(PyObject *const *args, const char *name, cut_args *a)
{
    if (!PyBytes_Check(args[0]) || !PyBytes_Check(args[3]) || PyBytes_GET_SIZE(args[3]) < 1) {
        PyErr_Format(PyExc_TypeError, "%s() needs bytes data and a bytes delimiter", name);
        return -1;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return -1;
    if ((a->final = PyObject_IsTrue(args[2])) < 0)
        return -1;
    a->buf = (const uint8_t *)PyBytes_AS_STRING(args[0]);
    a->n = (size_t)PyBytes_GET_SIZE(args[0]);
    a->delim = (const uint8_t *)PyBytes_AS_STRING(args[3]);
    a->dlen = (size_t)PyBytes_GET_SIZE(args[3]);
    if (pos < 0 || (size_t)pos > a->n) {
        PyErr_Format(PyExc_ValueError, "%s(): position out of range", name);
        return -1;
    }
    a->pos = (size_t)pos;
    return 0;
}

/* A non-negative Py_ssize_t argument; -1 with an exception set otherwise. */
static Py_ssize_t count_arg(PyObject *arg)
{
    Py_ssize_t v = PyLong_AsSsize_t(arg);
    if (v < -1 || (v == -1 && !PyErr_Occurred()))
        PyErr_SetString(PyExc_ValueError, "_csv_cut(): a count out of range");
    return v < 0 ? -1 : v;
}

static int append_size(PyObject *list, size_t v)
{
    PyObject *o = PyLong_FromSize_t(v);
    int rc = o ? PyList_Append(list, o) : -1;
    Py_XDECREF(o);
    return rc;
}

static PyObject *py_csv_cut(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    cut_args a;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "_csv_cut() takes 8 arguments");
        return NULL;
    }
    if (parse_cut_args(args, "_csv_cut", &a) < 0)
        return NULL;
    Py_ssize_t index = count_arg(args[4]), expect, rows, line;
    if (index < 0 || (expect = count_arg(args[5])) < 0 || (rows = count_arg(args[6])) < 0
        || (line = count_arg(args[7])) < 0)
        return NULL;
    PyObject *gaps = PyList_New(0), *values = PyList_New(0), *counts = PyList_New(0);
    PyObject *flags = NULL, *lines = NULL;
    pct_buf scratch, flag_bytes, line_words; /* a flag byte and an int64 line per row */
    pct_buf_init(&scratch);
    pct_buf_init(&flag_bytes);
    pct_buf_init(&line_words);
    Py_ssize_t done = 0;
    size_t at = a.pos, gap = a.pos;
    int64_t at_line = (int64_t)line;
    pct_csv_status status = PCT_CSV_OK;
    if (!gaps || !values || !counts)
        goto fail;
    while (done < rows) {
        pct_csv_record rec;
        status = pct_csv_cut(a.buf, a.n, at, a.delim, a.dlen, (size_t)index, (size_t)expect,
                             a.final, &rec);
        if (status == PCT_CSV_MORE || status == PCT_CSV_END)
            break;
        if (status != PCT_CSV_BLANK) { /* a blank line stays in the gap */
            if (pct_buf_reserve(&flag_bytes, 1, (size_t)PY_SSIZE_T_MAX) != PCT_OK
                || pct_buf_reserve(&line_words, sizeof at_line, (size_t)PY_SSIZE_T_MAX) != PCT_OK) {
                PyErr_NoMemory();
                goto fail;
            }
            memcpy(line_words.data + line_words.len, &at_line, sizeof at_line);
            line_words.len += sizeof at_line;
            uint8_t *flag = &flag_bytes.data[flag_bytes.len++];
            if (status == PCT_CSV_OK) {
                if (append_bytes(gaps, a.buf, gap, rec.field_start) < 0
                    || append_field(values, a.buf + rec.field_start,
                                    rec.field_end - rec.field_start, flag, &scratch) < 0)
                    goto fail;
                gap = rec.field_end;
            } else { /* the whole record, as it is, stands for its field */
                *flag = status == PCT_CSV_UNCLOSED ? FIELD_UNCLOSED : FIELD_RAGGED;
                if (append_bytes(gaps, a.buf, gap, at) < 0
                    || append_bytes(values, a.buf, at, rec.content_end) < 0
                    || append_size(counts, rec.fields) < 0)
                    goto fail;
                gap = rec.content_end;
            }
            done++;
        }
        at = rec.end;
        at_line += (int64_t)rec.lines;
        status = PCT_CSV_OK;
    }
    if (append_bytes(gaps, a.buf, gap, at) < 0
        || !(flags = PyBytes_FromStringAndSize((const char *)flag_bytes.data, done))
        || !(lines = PyBytes_FromStringAndSize((const char *)line_words.data,
                                               (Py_ssize_t)line_words.len)))
        goto fail;
    pct_buf_free(&flag_bytes);
    pct_buf_free(&line_words);
    pct_buf_free(&scratch);
    return Py_BuildValue("(NNNNNnnIL)", gaps, values, flags, lines, counts, (Py_ssize_t)at, done,
                         (unsigned)status, (long long)at_line);
fail:
    pct_buf_free(&flag_bytes);
    pct_buf_free(&line_words);
    pct_buf_free(&scratch);
    Py_XDECREF(gaps);
    Py_XDECREF(values);
    Py_XDECREF(counts);
    Py_XDECREF(flags);
    return NULL;
}

static const char csv_header_doc[] =
"_csv_header($module, buf, pos, final, delimiter, line, /)\n--\n\n"
"The first record of the CSV bytes `buf` from `pos` (blank lines before it\n"
"skipped), every field taken out, in one pass: (status, values, flags, start,\n"
"end, line, next_line). status: 0 a record, 2 more data needed, 3 a quoted\n"
"field never closed, 5 nothing but blank lines; values and flags as\n"
"_csv_cut's, for each field; start, end: the record's first byte and the end\n"
"of its terminator; line, next_line: the file lines the record starts on and\n"
"the one after it (`line` being the one at `pos`).";

static PyObject *py_csv_header(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    cut_args a;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "_csv_header() takes 5 arguments");
        return NULL;
    }
    if (parse_cut_args(args, "_csv_header", &a) < 0)
        return NULL;
    Py_ssize_t line = count_arg(args[4]);
    if (line < 0)
        return NULL;
    pct_csv_record rec;
    pct_csv_status status;
    size_t at = a.pos;
    /* the record's extent first (index past any field), then its fields */
    while ((status = pct_csv_cut(a.buf, a.n, at, a.delim, a.dlen, (size_t)-1, 0, a.final, &rec))
           == PCT_CSV_BLANK) {
        at = rec.end;
        line += (Py_ssize_t)rec.lines;
    }
    if (status == PCT_CSV_MORE || status == PCT_CSV_END)
        return Py_BuildValue("(I[]yiinn)", (unsigned)status, "", 0, 0, line, line);
    if (status == PCT_CSV_UNCLOSED)
        return Py_BuildValue("(I[]ynnnn)", (unsigned)status, "", (Py_ssize_t)at,
                             (Py_ssize_t)rec.end, line, line + (Py_ssize_t)rec.lines);
    PyObject *values = PyList_New(0), *flags = NULL;
    pct_buf scratch, flag_bytes;
    pct_buf_init(&scratch);
    pct_buf_init(&flag_bytes);
    if (!values)
        goto fail;
    if (pct_buf_reserve(&flag_bytes, rec.fields, (size_t)PY_SSIZE_T_MAX) != PCT_OK) {
        PyErr_NoMemory();
        goto fail;
    }
    for (size_t i = at;;) {
        pct_csv_field_span f;
        pct_csv_stop stop = pct_csv_field(a.buf, a.n, i, a.delim, a.dlen, a.final, &f);
        if (append_field(values, a.buf + f.start, f.end - f.start,
                         &flag_bytes.data[flag_bytes.len++], &scratch) < 0)
            goto fail;
        if (stop != PCT_CSV_DELIMITER)
            break;
        i = f.next;
    }
    if (!(flags = PyBytes_FromStringAndSize((const char *)flag_bytes.data,
                                            (Py_ssize_t)flag_bytes.len)))
        goto fail;
    pct_buf_free(&scratch);
    pct_buf_free(&flag_bytes);
    return Py_BuildValue("(INNnnnn)", (unsigned)PCT_CSV_OK, values, flags, (Py_ssize_t)at,
                         (Py_ssize_t)rec.end, line, line + (Py_ssize_t)rec.lines);
fail:
    pct_buf_free(&scratch);
    pct_buf_free(&flag_bytes);
    Py_XDECREF(values);
    return NULL;
}

static const char csv_join_doc[] =
"_csv_join($module, gaps, fields, flags, delimiter, /)\n--\n\n"
"gaps[0] + field 0 + gaps[1] + ... + gaps[-1] as bytes, len(gaps) being\n"
"len(fields) + 1. A field that is bytes is written as it is; a str is\n"
"encoded as UTF-8 (surrogateescape) and quoted, its quotes doubled, when its\n"
"flag (a byte of `flags`) is 1 or it holds the delimiter, a quote, CR or LF.\n"
"An empty field that is its record's only field (the gap before it empty or\n"
"ending at a line end, the gap after it empty or starting with one) is\n"
"written \"\", as csv.writer writes it: a blank line is no record.";

/* 1 when the field needs quotes. */
static int needs_quotes(const uint8_t *p, size_t n, const uint8_t *delim, size_t dlen)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '"' || c == '\r' || c == '\n')
            return 1;
        if (c == delim[0] && dlen <= n - i && memcmp(p + i, delim, dlen) == 0)
            return 1;
    }
    return 0;
}

static int put(pct_buf *out, const void *p, size_t n)
{
    if (pct_buf_reserve(out, n, (size_t)PY_SSIZE_T_MAX) != PCT_OK) {
        PyErr_NoMemory();
        return -1;
    }
    if (n)
        memcpy(out->data + out->len, p, n);
    out->len += n;
    return 0;
}

/* 1 when the bytes object `gap` is empty or holds a line end at its end
 * (`at_end`) or at its start: the field beside it starts (ends) its record. */
static int line_edge(PyObject *gap, int at_end)
{
    Py_ssize_t n = PyBytes_GET_SIZE(gap);
    if (n == 0)
        return 1;
    char c = PyBytes_AS_STRING(gap)[at_end ? n - 1 : 0];
    return c == '\n' || c == '\r';
}

/* Writes field f (str or bytes) into out; `alone`: f is its record's only
 * field, so that empty it is written "" (unquoted, the record would be a
 * blank line, which is read as no record: the row would be lost). */
static int put_field(pct_buf *out, PyObject *f, int quoted, int alone, const uint8_t *delim,
                     size_t dlen)
{
    if (PyBytes_Check(f)) {
        if (alone && PyBytes_GET_SIZE(f) == 0)
            return put(out, "\"\"", 2);
        return put(out, PyBytes_AS_STRING(f), (size_t)PyBytes_GET_SIZE(f));
    }
    if (!PyUnicode_Check(f)) {
        PyErr_Format(PyExc_TypeError, "_csv_join() field must be str or bytes, not %.200s",
                     Py_TYPE(f)->tp_name);
        return -1;
    }
    PyObject *owner = NULL;
    const uint8_t *p;
    size_t n;
    if (PyUnicode_IS_ASCII(f)) {
        p = PyUnicode_1BYTE_DATA(f);
        n = (size_t)PyUnicode_GET_LENGTH(f);
    } else {
        if (!(owner = PyUnicode_AsEncodedString(f, "utf-8", "surrogateescape")))
            return -1;
        p = (const uint8_t *)PyBytes_AS_STRING(owner);
        n = (size_t)PyBytes_GET_SIZE(owner);
    }
    int rc;
    if (!quoted && !(alone && n == 0) && !needs_quotes(p, n, delim, dlen)) {
        rc = put(out, p, n);
    } else {
        rc = put(out, "\"", 1);
        size_t from = 0;
        for (size_t i = 0; rc == 0 && i < n; i++)
            if (p[i] == '"') { /* up to and with the quote, then the quote again */
                rc = put(out, p + from, i + 1 - from);
                from = i;
            }
        if (rc == 0)
            rc = put(out, p + from, n - from);
        if (rc == 0)
            rc = put(out, "\"", 1);
    }
    Py_XDECREF(owner);
    return rc;
}

static PyObject *py_csv_join(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "_csv_join() takes 4 arguments");
        return NULL;
    }
    PyObject *gaps = args[0], *fields = args[1], *flags = args[2], *delimiter = args[3];
    if (!PyList_CheckExact(gaps) || !PyList_CheckExact(fields) || !PyBytes_Check(flags)
        || !PyBytes_Check(delimiter) || PyBytes_GET_SIZE(delimiter) < 1
        || PyList_GET_SIZE(gaps) != PyList_GET_SIZE(fields) + 1
        || PyBytes_GET_SIZE(flags) != PyList_GET_SIZE(fields)) {
        PyErr_SetString(PyExc_TypeError,
                        "_csv_join() needs a list of gaps, a list of fields one shorter, "
                        "a flag byte per field and a bytes delimiter");
        return NULL;
    }
    const uint8_t *delim = (const uint8_t *)PyBytes_AS_STRING(delimiter);
    size_t dlen = (size_t)PyBytes_GET_SIZE(delimiter);
    const uint8_t *flag = (const uint8_t *)PyBytes_AS_STRING(flags);
    pct_buf out;
    pct_buf_init(&out);
    Py_ssize_t count = PyList_GET_SIZE(fields);
    /* Each item taken with a reference under its list's critical section
     * (free-threaded builds: another thread may change the lists). */
    for (Py_ssize_t i = 0; i <= count; i++) {
        PyObject *gap = seq_item_ref(gaps, i), *field = NULL;
        if (!gap || (i < count && !(field = seq_item_ref(fields, i)))) {
            Py_XDECREF(gap);
            PyErr_SetString(PyExc_RuntimeError, "_csv_join(): a list changed size");
            goto fail;
        }
        int rc = 0;
        if (!PyBytes_Check(gap)) {
            PyErr_SetString(PyExc_TypeError, "_csv_join() gaps must be bytes");
            rc = -1;
        } else {
            rc = put(&out, PyBytes_AS_STRING(gap), (size_t)PyBytes_GET_SIZE(gap));
        }
        if (rc == 0 && field) {
            /* the gap after the field, for whether the field ends its record */
            PyObject *next = seq_item_ref(gaps, i + 1);
            if (!next) {
                PyErr_SetString(PyExc_RuntimeError, "_csv_join(): a list changed size");
                rc = -1;
            } else if (!PyBytes_Check(next)) {
                PyErr_SetString(PyExc_TypeError, "_csv_join() gaps must be bytes");
                rc = -1;
            } else {
                int alone = line_edge(gap, 1) && line_edge(next, 0);
                rc = put_field(&out, field, flag[i] == FIELD_QUOTED, alone, delim, dlen);
            }
            Py_XDECREF(next);
        }
        Py_DECREF(gap);
        Py_XDECREF(field);
        if (rc < 0)
            goto fail;
    }
    PyObject *r = PyBytes_FromStringAndSize((const char *)out.data, (Py_ssize_t)out.len);
    pct_buf_free(&out);
    return r;
fail:
    pct_buf_free(&out);
    return NULL;
}

PyMethodDef csv_methods[] = {
    {"_csv_cut", (PyCFunction)(void (*)(void))py_csv_cut, METH_FASTCALL, csv_cut_doc},
    {"_csv_header", (PyCFunction)(void (*)(void))py_csv_header, METH_FASTCALL, csv_header_doc},
    {"_csv_join", (PyCFunction)(void (*)(void))py_csv_join, METH_FASTCALL, csv_join_doc},
    {NULL, NULL, 0, NULL},
};
