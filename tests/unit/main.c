/* Runs every registered unit test (or those whose name contains argv[1]). */
#include "test.h"

#include <stdlib.h>

int cp_test_failures;

#define MAX_TESTS 1024
static struct {
    const char *name;
    cp_test_fn fn;
} tests[MAX_TESTS];
static int n_tests;

void cp_test_register(const char *name, cp_test_fn fn)
{
    if (n_tests < MAX_TESTS) {
        tests[n_tests].name = name;
        tests[n_tests].fn = fn;
        n_tests++;
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    qsort(tests, (size_t)n_tests, sizeof tests[0], by_name);
    for (int i = 0; i < n_tests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1]))
            continue;
        cp_test_failures = 0;
        tests[i].fn();
        if (cp_test_failures) {
            failed++;
            fprintf(stderr, "FAIL %s\n", tests[i].name);
        } else {
            passed++;
        }
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
