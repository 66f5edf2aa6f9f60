/* The entry file of the CPython binding (pctcodec._pctcodec): the module
 * state, the kernel choice and multi-phase init; the functions themselves
 * live in the other src/_pctcodec_*.c files, one job each (see
 * src/_pctcodec.h). The encoding and decoding happen in src/core.
 *
 * Every urllib.parse-compatible function reproduces urllib.parse of the
 * interpreter it is built for, down to the type of the result and the class
 * of the exception; the comments name the urllib behaviour each branch
 * mirrors.
 */
#include "_pctcodec.h" /* Python.h first, as it asks */

#include <stdlib.h>
#include <string.h>

#include "_pctcodec_memory.h"
#include "pct.h"

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

PyDoc_STRVAR(after_fork_doc, "_after_fork($module, /)\n--\n\n"
"In a child after os.fork(): the result pool's lock free again (os.register_at_fork calls it).");

static PyObject *py_after_fork(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    big_after_fork();
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_kernel", py_kernel, METH_NOARGS, kernel_doc},
    {"_kernels", py_kernels, METH_NOARGS, kernels_doc},
    {"_after_fork", py_after_fork, METH_NOARGS, after_fork_doc},
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
    for (size_t i = 0; i < N_SPECIAL; i++)
        INTERN(special[i], SPECIAL_METHODS[i])
    for (size_t i = 0; i < N_NAMED; i++)
        INTERN(named[i], NAMED_METHODS[i])
#undef INTERN
    PyMethodDef *const parts[] = {quote_methods, unquote_methods, urlencode_methods,
                                  ecma_methods, batch_methods, csv_methods, uri_methods,
                                  query_methods, split_methods, domain_methods, idna_methods,
                                  query_arrow_methods, url_methods};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (PyModule_AddFunctions(module, parts[i]) < 0)
            return -1;
    return 0;
}

static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    module_state *st = get_state(module);
    if (st) {
        Py_VISIT(st->last_safe);
        Py_VISIT(st->urllib_copy);
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
    Py_CLEAR(st->urllib_copy);
    for (size_t i = 0; i < N_SPECIAL; i++)
        Py_CLEAR(st->special[i]);
    for (size_t i = 0; i < N_NAMED; i++)
        Py_CLEAR(st->named[i]);
    Py_CLEAR(st->s_eq);
    Py_CLEAR(st->s_amp);
    Py_CLEAR(st->s_items);
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

