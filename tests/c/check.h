/* The counting CHECK of the C unit tests: a failed check is reported (the
 * first 20 of them) and counted, and the run goes on. */
#ifndef PCT_TEST_CHECK_H
#define PCT_TEST_CHECK_H

#include <stdio.h>

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
