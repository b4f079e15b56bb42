/*
 * Checked double -> integer conversions (cp_num.h). The range test is
 * done on the truncated value against +-2^63, the one range a cast to
 * long is defined on; within it the comparison with [lo, hi] is an
 * integer comparison, so no bound is ever rounded to a double (LONG_MAX
 * as a double is 2^63, one past the range).
 */
#include "cp_num.h"

#include <limits.h>
#include <math.h>

_Static_assert(LONG_MAX == 0x7fffffffffffffffL, "the range test assumes a 64-bit long");

cp_num_fit cp_num_to_long(double v, long lo, long hi, long *out)
{
    if (isnan(v)) {
        *out = lo;
        return CP_NUM_NAN;
    }
    double t = trunc(v);
    if (t < -0x1p63) {
        *out = lo;
        return CP_NUM_BELOW;
    }
    if (t >= 0x1p63) {
        *out = hi;
        return CP_NUM_ABOVE;
    }
    long l = (long)t;
    if (l < lo) {
        *out = lo;
        return CP_NUM_BELOW;
    }
    if (l > hi) {
        *out = hi;
        return CP_NUM_ABOVE;
    }
    *out = l;
    return CP_NUM_IN;
}

long cp_num_clamp_long(double v, long lo, long hi)
{
    long l;
    cp_num_to_long(v, lo, hi, &l);
    return l;
}

int cp_num_clamp_int(double v, int lo, int hi)
{
    return (int)cp_num_clamp_long(v, lo, hi);
}

bool cp_num_is_whole(double v, long lo, long hi, long *out)
{
    long l;
    if (!isfinite(v) || v != floor(v) || cp_num_to_long(v, lo, hi, &l) != CP_NUM_IN)
        return false;
    *out = l;
    return true;
}
