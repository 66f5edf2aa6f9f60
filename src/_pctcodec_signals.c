/* Ctrl-C in loops over columns: the sig_gate of _pctcodec.h. A loop polls
 * it between chunks of rows; the poll costs a clock read, and every
 * SIG_GATE_NS the signal handlers run (the GIL taken back for that moment
 * when the loop runs without it).
 */
#include "_pctcodec.h"

#ifdef _WIN32
#include <windows.h>
static uint64_t now_ns(void)
{
    return (uint64_t)GetTickCount64() * 1000000u;
}
#else
#include <time.h>
static uint64_t now_ns(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_MONOTONIC, &t) != 0)
        return 0; /* no clock: every poll checks */
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
#endif

void sig_gate_init(sig_gate *g)
{
    g->ts = NULL;
    g->next = now_ns() + SIG_GATE_NS;
}

int sig_gate_poll(sig_gate *g)
{
    uint64_t t = now_ns();
    if (t && t < g->next)
        return 0;
    g->next = t + SIG_GATE_NS;
    if (!g->ts)
        return PyErr_CheckSignals();
    PyEval_RestoreThread(g->ts);
    int rc = PyErr_CheckSignals();
    g->ts = PyEval_SaveThread(); /* the exception, if any, stays in the thread state */
    return rc;
}

int sig_gate_callback(void *gate)
{
    return sig_gate_poll(gate) < 0;
}

int gil_loop_poll(size_t i)
{
    if (i % PCT_INTERRUPT_STEP != 0)
        return 0;
    Py_BEGIN_ALLOW_THREADS /* a thread that asked for the GIL gets it now */
    Py_END_ALLOW_THREADS
    return PyErr_CheckSignals();
}
