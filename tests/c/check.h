/* The counting CHECK of the C unit tests: a failed check is reported (the
 * first 20 of them) and counted, and the run goes on. */
#ifndef PCT_TEST_CHECK_H
#define PCT_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

/* A random test's round count n, divided by the environment's
 * PCT_TEST_SCALE when set (CI's sanitized and emulated runs take a sample;
 * a plain local run does every round), never below 1. */
static inline long test_rounds(long n)
{
    const char *e = getenv("PCT_TEST_SCALE");
    long d = e ? atol(e) : 1;
    if (d < 1)
        d = 1;
    return n / d > 0 ? n / d : 1;
}

static long failures = 0, checks = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            failures++;                                                              \
            if (failures < 20)                                                       \
                fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#endif /* PCT_TEST_CHECK_H */
