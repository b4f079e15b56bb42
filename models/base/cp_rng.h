/*
 * The project's one random-number generator: splitmix64 (Steele, Lea and
 * Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
 * A 64-bit state that moves by a fixed odd step and a mixing function of
 * it: tiny, fast, and every seed gives a full-period stream, so a solve
 * driven by --seed is reproducible on every machine and compiler (no
 * libc rand(), whose sequence differs between platforms).
 *
 * The state is a plain value the caller owns (no allocation, no global),
 * so threads each keep their own. Everything is static inline: the
 * generator sits in the solvers' inner loops.
 *
 * bench/gen.c and tests/gen/geninst.c keep a copy of their own on purpose:
 * they are stand-alone programs that link none of the project's code.
 */
#ifndef CP_RNG_H
#define CP_RNG_H

#include <stdint.h>

typedef struct cp_rng {
    uint64_t state;
} cp_rng;

/* The golden-ratio step of splitmix64, also handy to spread a seed. */
#define CP_RNG_GAMMA 0x9E3779B97F4A7C15ull

/* A generator whose first step starts from `seed` (any value). */
static inline cp_rng cp_rng_make(uint64_t seed)
{
    cp_rng r = {seed};
    return r;
}

/* The next 64 random bits. */
static inline uint64_t cp_rng_next(cp_rng *r)
{
    uint64_t z = (r->state += CP_RNG_GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in [0, n), n > 0, by remainder (its bias, at most n / 2^64,
 * is far below anything a heuristic's choices could notice). */
static inline int cp_rng_below(cp_rng *r, int n)
{
    return (int)(cp_rng_next(r) % (uint64_t)n);
}

#endif
