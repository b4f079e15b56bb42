/*
 * "Did you mean": the one rule that picks a suggestion for a mistyped
 * name, shared by the loader (an unknown key), the command line (an
 * unknown option, command, import kind or export target) and anything
 * else that matches a word against a known list.
 *
 * The rule: the first candidate, in the list's order, at the smallest
 * Levenshtein distance from the word when that distance is at most 2;
 * else, for a word of 4 or more bytes, the first candidate that starts
 * with it (a dropped suffix: 'carbon_price' for 'carbon_price_per_ton').
 * Words or candidates over 40 bytes are never near anything.
 */
#ifndef CP_SUGGEST_H
#define CP_SUGGEST_H

/* Levenshtein distance of a and b; 99 when either is over 40 bytes. */
int cp_edit_distance(const char *a, const char *b);

/* The suggestion for `word` among `cands` (NULL-terminated), or NULL.
 * An exact match is never suggested (the caller knew it). */
const char *cp_suggest(const char *word, const char *const *cands);

#endif
