/* CPython binding of the CSV record cutter (src/core/pct_csv.c), for the
 * table mode of the command line (src/pctcodec/cli/_csv.py, src/pctcodec/cli/_tables.py):
 * _csv_cut gives the chosen field of each record of a buffer as text and the
 * bytes between those fields as they are; _csv_join puts new fields back
 * between them. The per-row work of the table mode is all here. */
#include <string.h>

#include "_pctcodec.h"
#include "pct_batch.h"
#include "pct_csv.h"

/* Field flags, one byte per row in _csv_cut's result. */
enum { FIELD_PLAIN = 0, FIELD_QUOTED = 1, FIELD_MALFORMED = 2 };

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
                        pct_out *scratch)
{
    PyObject *v;
    if (n == 0 || f[0] != '"') {
        *flag = FIELD_PLAIN;
        v = PyUnicode_DecodeUTF8((const char *)f, (Py_ssize_t)n, "surrogateescape");
    } else {
        int ok = n >= 2 && f[n - 1] == '"';
        size_t len = 0;
        if (ok && pct_out_reserve(scratch, n, (size_t)PY_SSIZE_T_MAX) != PCT_OK) {
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
"_csv_cut($module, buf, pos, final, delimiter, index, rows, /)\n--\n\n"
"Up to `rows` data rows of the CSV bytes `buf` from `pos`, field `index` of\n"
"each taken out: (gaps, values, flags, pos, rows, status, info). values: the\n"
"field of each row as text (unquoted); flags: a byte per row, 0 plain,\n"
"1 quoted, 2 text after the closing quote (the value is then the raw bytes);\n"
"gaps: the bytes around them, one more than values (gaps[0] + field 0 +\n"
"gaps[1] + ... is the input up to pos; blank lines are in the gaps). status:\n"
"0 rows done, 2 more data needed, 3 unclosed quote (info: where it opens),\n"
"4 a record without the field (info: its fields; pos: its start), 5 the end\n"
"(see src/core/pct_csv.h).";

static PyObject *py_csv_cut(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "_csv_cut() takes 6 arguments");
        return NULL;
    }
    if (!PyBytes_Check(args[0]) || !PyBytes_Check(args[3]) || PyBytes_GET_SIZE(args[3]) < 1) {
        PyErr_SetString(PyExc_TypeError, "_csv_cut() needs bytes data and a bytes delimiter");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    int final = PyObject_IsTrue(args[2]);
    Py_ssize_t index = PyLong_AsSsize_t(args[4]);
    Py_ssize_t rows = PyLong_AsSsize_t(args[5]);
    if ((pos == -1 || index == -1 || rows == -1 || final < 0) && PyErr_Occurred())
        return NULL;
    const uint8_t *buf = (const uint8_t *)PyBytes_AS_STRING(args[0]);
    size_t n = (size_t)PyBytes_GET_SIZE(args[0]);
    if (pos < 0 || (size_t)pos > n || index < 0 || rows < 0) {
        PyErr_SetString(PyExc_ValueError, "_csv_cut(): position, index or rows out of range");
        return NULL;
    }
    const uint8_t *delim = (const uint8_t *)PyBytes_AS_STRING(args[3]);
    size_t dlen = (size_t)PyBytes_GET_SIZE(args[3]);
    PyObject *gaps = PyList_New(0), *values = PyList_New(0), *flags = NULL;
    pct_out scratch, flag_bytes; /* flag_bytes: a byte per row cut */
    pct_out_init(&scratch);
    pct_out_init(&flag_bytes);
    Py_ssize_t done = 0;
    size_t at = (size_t)pos, gap = (size_t)pos, info = 0;
    pct_csv_status status = PCT_CSV_OK;
    if (!gaps || !values)
        goto fail;
    while (done < rows) {
        pct_csv_record rec;
        status = pct_csv_cut(buf, n, at, delim, dlen, (size_t)index, final, &rec);
        if (status == PCT_CSV_OK) {
            if (pct_out_reserve(&flag_bytes, 1, (size_t)PY_SSIZE_T_MAX) != PCT_OK) {
                PyErr_NoMemory();
                goto fail;
            }
            if (append_bytes(gaps, buf, gap, rec.field_start) < 0
                || append_field(values, buf + rec.field_start, rec.field_end - rec.field_start,
                                &flag_bytes.data[flag_bytes.len++], &scratch) < 0)
                goto fail;
            gap = rec.field_end;
            done++;
        } else if (status != PCT_CSV_BLANK) { /* a blank line stays in the gap */
            if (status == PCT_CSV_UNCLOSED)
                info = rec.open_quote;
            else if (status == PCT_CSV_MISSING)
                info = rec.fields;
            break;
        }
        at = rec.end;
        status = PCT_CSV_OK;
    }
    if (append_bytes(gaps, buf, gap, at) < 0
        || !(flags = PyBytes_FromStringAndSize((const char *)flag_bytes.data, done)))
        goto fail;
    pct_out_free(&flag_bytes);
    pct_out_free(&scratch);
    return Py_BuildValue("(NNNnnIn)", gaps, values, flags, (Py_ssize_t)at, done, (unsigned)status,
                         (Py_ssize_t)info);
fail:
    pct_out_free(&flag_bytes);
    pct_out_free(&scratch);
    Py_XDECREF(gaps);
    Py_XDECREF(values);
    return NULL;
}

static const char csv_join_doc[] =
"_csv_join($module, gaps, fields, flags, delimiter, /)\n--\n\n"
"gaps[0] + field 0 + gaps[1] + ... + gaps[-1] as bytes, len(gaps) being\n"
"len(fields) + 1. A field that is bytes is written as it is; a str is\n"
"encoded as UTF-8 (surrogateescape) and quoted, its quotes doubled, when its\n"
"flag (a byte of `flags`) is 1 or it holds the delimiter, a quote, CR or LF.";

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

static int put(pct_out *out, const void *p, size_t n)
{
    if (pct_out_reserve(out, n, (size_t)PY_SSIZE_T_MAX) != PCT_OK) {
        PyErr_NoMemory();
        return -1;
    }
    if (n)
        memcpy(out->data + out->len, p, n);
    out->len += n;
    return 0;
}

/* Writes field f (str or bytes) into out. */
static int put_field(pct_out *out, PyObject *f, int quoted, const uint8_t *delim, size_t dlen)
{
    if (PyBytes_Check(f))
        return put(out, PyBytes_AS_STRING(f), (size_t)PyBytes_GET_SIZE(f));
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
    if (!quoted && !needs_quotes(p, n, delim, dlen)) {
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
    pct_out out;
    pct_out_init(&out);
    Py_ssize_t count = PyList_GET_SIZE(fields);
    for (Py_ssize_t i = 0; i <= count; i++) {
        PyObject *gap = PyList_GET_ITEM(gaps, i);
        if (!PyBytes_Check(gap)) {
            PyErr_SetString(PyExc_TypeError, "_csv_join() gaps must be bytes");
            goto fail;
        }
        if (put(&out, PyBytes_AS_STRING(gap), (size_t)PyBytes_GET_SIZE(gap)) < 0)
            goto fail;
        if (i < count && put_field(&out, PyList_GET_ITEM(fields, i), flag[i] == FIELD_QUOTED,
                                   delim, dlen) < 0)
            goto fail;
    }
    PyObject *r = PyBytes_FromStringAndSize((const char *)out.data, (Py_ssize_t)out.len);
    pct_out_free(&out);
    return r;
fail:
    pct_out_free(&out);
    return NULL;
}

PyMethodDef csv_methods[] = {
    {"_csv_cut", (PyCFunction)(void (*)(void))py_csv_cut, METH_FASTCALL, csv_cut_doc},
    {"_csv_join", (PyCFunction)(void (*)(void))py_csv_join, METH_FASTCALL, csv_join_doc},
    {NULL, NULL, 0, NULL},
};
