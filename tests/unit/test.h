/*
 * A tiny test harness. Each test file defines tests with TEST(name); they
 * register themselves before main() runs, so adding a test file needs no
 * central list. CHECK* record a failure and go on; the runner prints
 * "N passed, N failed" and exits non-zero on any failure.
 */
#ifndef CP_TEST_H
#define CP_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef void (*cp_test_fn)(void);
void cp_test_register(const char *name, cp_test_fn fn);
extern int cp_test_failures; /* failures in the current test */

#define TEST(name)                                                            \
    static void test_##name(void);                                            \
    __attribute__((constructor)) static void register_##name(void)            \
    {                                                                         \
        cp_test_register(#name, test_##name);                                 \
    }                                                                         \
    static void test_##name(void)

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            cp_test_failures++;                                               \
        }                                                                     \
    } while (0)

#define CHECK_INT(a, b)                                                       \
    do {                                                                      \
        long long va_ = (long long)(a), vb_ = (long long)(b);                 \
        if (va_ != vb_) {                                                     \
            fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, va_, vb_); \
            cp_test_failures++;                                               \
        }                                                                     \
    } while (0)

/* |a-b| <= tol * max(1, |b|) */
#define CHECK_NEAR(a, b, tol)                                                 \
    do {                                                                      \
        double va_ = (a), vb_ = (b);                                          \
        double sc_ = fabs(vb_) > 1 ? fabs(vb_) : 1;                           \
        if (!(fabs(va_ - vb_) <= (tol) * sc_)) {                              \
            fprintf(stderr, "%s:%d: %s == %.17g, expected %.17g\n", __FILE__, __LINE__, #a, va_, vb_); \
            cp_test_failures++;                                               \
        }                                                                     \
    } while (0)

#define CHECK_STR(a, b)                                                       \
    do {                                                                      \
        const char *va_ = (a), *vb_ = (b);                                    \
        if (!va_ || strcmp(va_, vb_) != 0) {                                  \
            fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, va_ ? va_ : "(null)", vb_); \
            cp_test_failures++;                                               \
        }                                                                     \
    } while (0)

#endif
