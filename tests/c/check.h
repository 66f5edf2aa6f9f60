/* The counting CHECK of the C unit tests: a failed check is reported (the
 * first 20 of them) and counted, and the run goes on. */
#ifndef PCT_TEST_CHECK_H
#define PCT_TEST_CHECK_H

#include <stdio.h>
#include <stdint.h>
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

/* The tests' shared helpers: a xorshift generator (its state never 0) and
 * a code point's UTF-8 at d (its length). */
static inline uint64_t test_xorshift64(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static inline size_t test_put_utf8(unsigned char *d, unsigned long c)
{
    if (c < 0x80) {
        d[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        d[0] = (unsigned char)(0xC0 | c >> 6);
        d[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        d[0] = (unsigned char)(0xE0 | c >> 12);
        d[1] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        d[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    d[0] = (unsigned char)(0xF0 | c >> 18);
    d[1] = (unsigned char)(0x80 | (c >> 12 & 0x3F));
    d[2] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
    d[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

#endif /* PCT_TEST_CHECK_H */
