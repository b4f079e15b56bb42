/*
 * Checked conversions of a double to an integer. C leaves the conversion
 * of a value that does not fit the integer type (or of a NaN) undefined
 * (C11 6.3.1.4): on x86-64 it gives INT_MIN or LONG_MIN, so a time limit
 * of 3e6 s became a negative GLPK limit and an absurd figure from a file
 * became a negative time in a script. Every double -> integer conversion
 * of the library goes through these functions (docs/reliability.md,
 * "Numbers"); `make asan` builds with -fsanitize=float-cast-overflow,
 * which reports any that does not.
 *
 * The rule: a caller whose value can only be out of range through a
 * bound it already states (a time limit far beyond the search, a pixel
 * count) clamps; a caller whose value comes from a file refuses it with
 * the value's position and the range, using cp_num_to_long's answer.
 */
#ifndef CP_NUM_H
#define CP_NUM_H

#include <stdbool.h>

/* Where a double stood against a range [lo, hi]. */
typedef enum cp_num_fit {
    CP_NUM_IN = 0, /* inside: the conversion is exact up to truncation */
    CP_NUM_NAN,    /* not a number */
    CP_NUM_BELOW,  /* below lo (or -inf) */
    CP_NUM_ABOVE   /* above hi (or +inf) */
} cp_num_fit;

/* v truncated toward zero, as a cast would, into [lo, hi] (lo <= hi).
 * *out is always written: the truncation when it lies in [lo, hi], else
 * the nearer bound (lo for a NaN). Returns where v stood. */
cp_num_fit cp_num_to_long(double v, long lo, long hi, long *out);

/* The same, clamped without telling: for values whose range the caller
 * knows is only a bound of its own (milliseconds handed to GLPK, pixels). */
long cp_num_clamp_long(double v, long lo, long hi);
int cp_num_clamp_int(double v, int lo, int hi);

/* true when v is a whole number in [lo, hi]; then *out is it. */
bool cp_num_is_whole(double v, long lo, long hi, long *out);

#endif
