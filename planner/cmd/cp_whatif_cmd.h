/* The distributed what-if's command-line side (cmd_whatif_dist.c):
 * `capplan whatif merge` and the scripts of `whatif --slurm-array`. */
#ifndef CP_WHATIF_CMD_H
#define CP_WHATIF_CMD_H

#include "cp_opt.h"
#include "cp_whatif.h"

/* --format md|csv|json of whatif and whatif merge: each a cp_whatif_format. */
extern const cp_opt_word cp_whatif_formats[];

/* capplan whatif merge [-o TABLE] [--format md|csv|json] SHARD...;
 * argv[0] is "merge". Returns the exit status. */
int cp_whatif_merge_main(int argc, char **argv);

/* Writes DIR/whatif-array.sbatch (--array=0-(n_shards-1), each task
 * `capplan whatif --shard $SLURM_ARRAY_TASK_ID/N` with the options whatif
 * read into args, less the ones only this run means: cp_cli_args_canonical),
 * DIR/whatif-merge.sbatch and DIR/submit.sh (the array, then the merge
 * with afterok on it). rows are the table's rows; per_row_s the seconds
 * one row may take; cpus what a task asks for; format and out the merged
 * table's format and path (NULL: DIR/whatif.FMT). Prints its errors;
 * returns the exit status. */
int cp_whatif_array_write(const cp_cli_args *args, const char *dir, int n_shards, int rows,
                          double per_row_s, int cpus, cp_whatif_format format, const char *out);

#endif
