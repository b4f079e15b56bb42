/*
 * models/base/cp_num.h: double -> integer conversions at and past the
 * ends of the range, NaN and infinities, with no undefined cast (the
 * suite runs under -fsanitize=float-cast-overflow in `make asan`).
 */
#include "test.h"

#include "cp_num.h"

#include <limits.h>

TEST(num_to_long_range)
{
    long v = 7;
    CHECK(cp_num_to_long(2.9, 0, 10, &v) == CP_NUM_IN && v == 2);
    CHECK(cp_num_to_long(-2.9, -10, 10, &v) == CP_NUM_IN && v == -2);
    CHECK(cp_num_to_long(10.5, 0, 10, &v) == CP_NUM_IN && v == 10);
    CHECK(cp_num_to_long(11, 0, 10, &v) == CP_NUM_ABOVE && v == 10);
    CHECK(cp_num_to_long(-0.5, 0, 10, &v) == CP_NUM_IN && v == 0);
    CHECK(cp_num_to_long(-1, 0, 10, &v) == CP_NUM_BELOW && v == 0);
    CHECK(cp_num_to_long(NAN, 3, 10, &v) == CP_NUM_NAN && v == 3);
    CHECK(cp_num_to_long(INFINITY, 0, 10, &v) == CP_NUM_ABOVE && v == 10);
    CHECK(cp_num_to_long(-INFINITY, 0, 10, &v) == CP_NUM_BELOW && v == 0);
    /* 2^63 is one past LONG_MAX; its cast is the undefined one */
    CHECK(cp_num_to_long(0x1p63, LONG_MIN, LONG_MAX, &v) == CP_NUM_ABOVE && v == LONG_MAX);
    CHECK(cp_num_to_long(-0x1p63, LONG_MIN, LONG_MAX, &v) == CP_NUM_IN && v == LONG_MIN);
    CHECK(cp_num_to_long(1e300, LONG_MIN, LONG_MAX, &v) == CP_NUM_ABOVE && v == LONG_MAX);
    CHECK(cp_num_to_long(0x1p62, LONG_MIN, LONG_MAX, &v) == CP_NUM_IN && v == 0x4000000000000000L);
}

TEST(num_clamp_and_whole)
{
    /* a time limit of 3e6 s in milliseconds: past INT_MAX */
    CHECK(cp_num_clamp_int(3e6 * 1000, 1, INT_MAX) == INT_MAX);
    CHECK(cp_num_clamp_int(-5, 1, INT_MAX) == 1);
    CHECK(cp_num_clamp_int(NAN, 1, INT_MAX) == 1);
    CHECK(cp_num_clamp_long(1e19, 0, 100) == 100);
    long v = -1;
    CHECK(cp_num_is_whole(4, 0, 10, &v) && v == 4);
    CHECK(!cp_num_is_whole(2.5, 0, 10, &v) && v == 4);
    CHECK(!cp_num_is_whole(1e300, 0, 100000, &v));
    CHECK(!cp_num_is_whole(NAN, 0, 10, &v));
    CHECK(!cp_num_is_whole(-1, 0, 10, &v));
}
