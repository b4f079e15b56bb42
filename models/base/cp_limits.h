/*
 * The input limits every layer checks against: the loader refuses what
 * exceeds them, and the importers and fits, which write inputs, refuse or
 * skip it first so that what they write always loads. docs/reliability.md.
 */
#ifndef CP_LIMITS_H
#define CP_LIMITS_H

/* The longest string an input may give (names, references, sites), in
 * bytes: long enough for any real name, short enough that every id built
 * from names and a what-if file name DIR/NAME.yaml with the writer's
 * temporary suffix stay within NAME_MAX (255). */
#define CP_NAME_MAX 200

/* The largest magnitude of a number in an input (1e15, CSV's bound too).
 * A total multiplies at most a handful of input numbers (a price, a power,
 * a PUE, hours, counts up to 1e6, slots up to 10000, jobs up to 100000),
 * so with every factor at most 1e15 no total can overflow a double. */
#define CP_INPUT_NUM_MAX 1e15

/* The largest count an input may give: accelerators per node or instance,
 * nodes per pool, a job's accelerator counts and speedup keys. */
#define CP_INPUT_COUNT_MAX 1000000

#endif
