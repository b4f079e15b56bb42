/*
 * Building blocks of positioned message lists (the plan reader's
 * problems, verify's violations): a message formatted into a new string,
 * and a stable sort by position, so that a list reads like the file it
 * is about. The lists themselves stay their owners' types.
 */
#ifndef CP_MSG_H
#define CP_MSG_H

#include "cp_err.h"

#include <stdarg.h>
#include <stddef.h>

/* The formatted text in a new string (cp_free), NULL on out of memory. */
char *cp_msg_vformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Sorts `n` records of `size` bytes by the cp_pos at byte offset
 * `pos_off` in each (line, then column), keeping the order of records at
 * equal positions. CP_OK, or CP_ERR_NOMEM with the order unchanged. */
int cp_msg_sort(void *items, size_t n, size_t size, size_t pos_off);

#endif
