/* CPython binding of the CSV record cutter (src/core/pct_csv.c), for the
 * table mode of the command line (pctcodec/_csv.py): the records of a
 * buffer, each cut around the chosen field, as bytes objects. */
#include "_pctcodec.h"
#include "pct_csv.h"

/* (before, field, after, size) of a record; for a blank line (line, None, b"", size). */
static PyObject *record_tuple(const uint8_t *buf, size_t pos, const pct_csv_record *rec, int blank)
{
    if (blank)
        return Py_BuildValue("(y#Oy#n)", (const char *)buf + pos, (Py_ssize_t)(rec->end - pos),
                             Py_None, "", (Py_ssize_t)0, (Py_ssize_t)(rec->end - pos));
    return Py_BuildValue("(y#y#y#n)", (const char *)buf + pos, (Py_ssize_t)(rec->field_start - pos),
                         (const char *)buf + rec->field_start,
                         (Py_ssize_t)(rec->field_end - rec->field_start),
                         (const char *)buf + rec->field_end, (Py_ssize_t)(rec->end - rec->field_end),
                         (Py_ssize_t)(rec->end - pos));
}

const char csv_cut_doc[] =
"_csv_cut($module, buf, pos, final, delimiter, index, rows, /)\n--\n\n"
"Up to `rows` data rows of the CSV bytes `buf` from `pos`, each cut around\n"
"field `index`: (records, pos, rows, status, info), records a list of\n"
"(before, field, after, size) and of (line, None, b'', size) for blank lines.\n"
"status: 0 rows done, 2 more data needed, 3 unclosed quote (info: where it\n"
"opens), 4 a record without the field (info: its fields; pos: its start),\n"
"5 the end (see src/core/pct_csv.h).";

PyObject *py_csv_cut(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

PyObject *py_csv_cut(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
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
    PyObject *records = PyList_New(0);
    if (!records)
        return NULL;
    Py_ssize_t done = 0;
    size_t at = (size_t)pos, info = 0;
    pct_csv_status status = PCT_CSV_OK;
    while (done < rows) {
        pct_csv_record rec;
        status = pct_csv_cut(buf, n, at, delim, dlen, (size_t)index, final, &rec);
        if (status == PCT_CSV_OK || status == PCT_CSV_BLANK) {
            PyObject *t = record_tuple(buf, at, &rec, status == PCT_CSV_BLANK);
            if (!t || PyList_Append(records, t) < 0) {
                Py_XDECREF(t);
                Py_DECREF(records);
                return NULL;
            }
            Py_DECREF(t);
            done += status == PCT_CSV_OK;
            at = rec.end;
            status = PCT_CSV_OK;
            continue;
        }
        if (status == PCT_CSV_UNCLOSED)
            info = rec.open_quote;
        else if (status == PCT_CSV_MISSING)
            info = rec.fields;
        break;
    }
    return Py_BuildValue("(NnnIn)", records, (Py_ssize_t)at, done, (unsigned)status, (Py_ssize_t)info);
}
