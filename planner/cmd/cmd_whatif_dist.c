/*
 * Distributed what-if, command-line side (docs/whatif.md, "Shards"):
 *  - `capplan whatif merge SHARD...` reads the shard files of one run
 *    (cp_whatif_merge) and writes the table an unsharded run writes;
 *  - `capplan whatif --slurm-array DIR` writes a Slurm job array with one
 *    task per shard and a merge job that waits for it (afterok).
 * The scripts re-run this very binary (/proc/self/exe) from the folder
 * the command was run in, with the options whatif's parser understood
 * rebuilt as --name=VALUE words (cp_cli_args_canonical), then "--" and
 * the input files, each single-quoted (cp_sh_quote): nothing of the
 * user's is interpolated raw, and no word is repeated as typed.
 */
#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_buf.h"
#include "cp_cli.h"
#include "cp_export.h"
#include "cp_whatif.h"
#include "cp_whatif_cmd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const cp_opt_word cp_whatif_formats[] = {
    {"md", CP_WHATIF_MD}, {"csv", CP_WHATIF_CSV}, {"json", CP_WHATIF_JSON}, {NULL, 0}};

static const cp_cli_help merge_help = {
    "usage: capplan whatif merge [-o TABLE] [--format md|csv|json] SHARD...\n"
    "\n"
    "Join the shard files of one what-if run (written by 'capplan whatif\n"
    "--shard K/N ... -o SHARD', all N of them, in any order) into the table\n"
    "the unsharded run writes, byte for byte: the baseline row once, deltas\n"
    "against it.\n"
    "\n",
    "\n"
    "Exit status: 0 written, 2 bad usage or shard files (missing, twice, of\n"
    "another run), 1 other errors. Options may come before, between or after\n"
    "the shard files; '--' ends them. See man ./capplan.1 in the source tree.\n"};

int cp_whatif_merge_main(int argc, char **argv)
{
    int fmt = CP_WHATIF_MD;
    const char *out_path = NULL;
    const cp_opt opts[] = {
        CP_OPT_STRING('o', NULL, &out_path, "TABLE",
                      "write the table there (atomically); default stdout"),
        CP_OPT_ENUM(0, "format", &fmt, cp_whatif_formats, NULL,
                    "table format; default md (Markdown)"),
        CP_OPT_QUIET("accepted for symmetry: merge prints only errors"),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int st = cp_cli_parse(&a, "whatif merge", argc, argv, opts, &merge_help);
    if (st != CP_CLI_RUN)
        return st;
    if (a.n_operands == 0) {
        fprintf(stderr, "capplan whatif merge: no shard files (see 'capplan whatif merge --help')\n");
        cp_cli_args_release(&a);
        return 2;
    }
    const char *const outs[] = {"-o", out_path, NULL};
    st = cp_cli_outputs_ok("whatif merge", a.operands, a.n_operands, NULL, outs);
    if (st) {
        cp_cli_args_release(&a);
        return st;
    }
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan whatif merge: out of memory\n");
        cp_cli_args_release(&a);
        return 1;
    }
    cp_diags_init(d);
    cp_whatif_table *t = NULL;
    int status = 0;
    cp_buf out;
    cp_buf_init(&out);
    cp_err err;
    cp_err_init(&err);
    if (cp_whatif_merge((const char *const *)a.operands, a.n_operands, &t, d)) {
        cp_diags_print(d, stderr);
        status = d->worst == CP_ERR_NOMEM ? 1 : 2;
    } else if (cp_whatif_table_write(t, (cp_whatif_format)fmt, &out, &err) ||
               cp_write_file_atomic(out_path, out.s, out.len, &err)) {
        cp_err_print(&err, stderr);
        status = 1;
    }
    cp_buf_release(&out);
    cp_whatif_table_free(t);
    cp_free(d);
    cp_cli_args_release(&a);
    return status;
}

/* One word of a task's command line, quoted; `bad` notes a word no
 * script can hold. */
typedef struct words {
    cp_buf *b;
    bool bad;
} words;

static void put_word(void *arg, const char *w)
{
    words *ws = arg;
    ws->bad |= cp_export_has_control(w);
    cp_buf_putc(ws->b, ' ');
    cp_sh_quote(ws->b, w);
}

static const char *format_word(cp_whatif_format f)
{
    for (const cp_opt_word *w = cp_whatif_formats; w->word; w++)
        if (w->value == (int)f)
            return w->word;
    return "md";
}

static int put(const char *dir, const char *name, const cp_buf *b, bool exec)
{
    cp_buf path;
    cp_buf_init(&path);
    cp_buf_printf(&path, "%s/%s", dir, name);
    cp_err err;
    cp_err_init(&err);
    int status = 0;
    if (!cp_buf_ok(&path) || !cp_buf_ok(b)) {
        fprintf(stderr, "capplan whatif: out of memory\n");
        status = 1;
    } else if (cp_write_file_atomic(path.s, b->s, b->len, &err)) {
        cp_err_print(&err, stderr);
        status = 1;
    } else if (exec && chmod(path.s, 0755) != 0) {
        fprintf(stderr, "capplan whatif: cannot make '%s' executable: %s\n", path.s,
                strerror(errno));
        status = 1;
    }
    cp_buf_release(&path);
    return status;
}

/* This program's path and the current folder, which the scripts run
 * from: 0, or 1 with the message printed. */
static int where(char exe[PATH_MAX], char cwd[PATH_MAX])
{
    ssize_t n = readlink("/proc/self/exe", exe, PATH_MAX - 1);
    if (n <= 0) {
        fprintf(stderr, "capplan whatif: cannot find this program's path (/proc/self/exe): %s\n",
                strerror(errno));
        return 1;
    }
    exe[n] = 0;
    if (!getcwd(cwd, PATH_MAX)) {
        fprintf(stderr, "capplan whatif: cannot read the current folder: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

/* The tasks' options into task: what this run's parser understood, less
 * its own (.local), rebuilt as --name=VALUE words, never argv's words (an
 * abbreviation or a cluster such as -qo FILE would carry this run's
 * outputs into every task). 0, or the exit status with the message
 * printed; none of the words and paths may hold a control character. */
static int task_options(const cp_cli_args *args, const char *dir, const char *cwd, const char *exe,
                        cp_buf *task)
{
    words ws = {task, false};
    if (cp_cli_args_canonical(args, put_word, &ws) || !cp_buf_ok(task)) {
        fprintf(stderr, "capplan whatif: out of memory\n");
        return 1;
    }
    if (ws.bad) {
        fprintf(stderr, "capplan whatif: an argument holds a control character: no script can "
                        "repeat it safely\n");
        return 2;
    }
    if (cp_export_has_control(dir) || cp_export_has_control(cwd) || cp_export_has_control(exe)) {
        fprintf(stderr, "capplan whatif: a path holds a control character: no script can hold it "
                        "safely\n");
        return 2;
    }
    return 0;
}

/* The array: one shard per task. */
static void put_array(cp_buf *a, int n_shards, int rows, double per_row_s, int cpus,
                      const char *cwd, const char *exe, const char *dir, const char *task)
{
    int per = (rows + n_shards - 1) / n_shards;
    double minutes = per * (per_row_s + 30) / 60;
    cp_buf_printf(a,
                  "#!/bin/sh\n"
                  "# written by capplan whatif --slurm-array: task K plans shard K/%d of the\n"
                  "# %d rows (round-robin, baseline = row 0); regenerate rather than edit\n"
                  "#SBATCH --job-name=capplan-whatif\n"
                  "#SBATCH --array=0-%d\n"
                  "#SBATCH --ntasks=1\n"
                  "#SBATCH --cpus-per-task=%d\n"
                  "#SBATCH --time=",
                  n_shards, rows, n_shards - 1, cpus);
    if (!cp_slurm_time(a, minutes)) {
        cp_buf_puts(a, "UNLIMITED");
        fprintf(stderr,
                "capplan whatif: warning: %d rows of --time-limit %g s are longer than Slurm's "
                "longest time limit (%ld minutes): the array asks for --time=UNLIMITED\n",
                per, per_row_s, CP_SLURM_MAX_MINUTES);
    }
    cp_buf_puts(a, "\nset -eu\ncd ");
    cp_sh_quote(a, cwd);
    cp_buf_puts(a, "\nexec ");
    cp_sh_quote(a, exe);
    cp_buf_printf(a, " whatif --shard \"$SLURM_ARRAY_TASK_ID/%d\" -o ", n_shards);
    cp_sh_quote(a, dir);
    cp_buf_puts(a, "/shard-\"$SLURM_ARRAY_TASK_ID\".json");
    cp_buf_puts(a, task);
    cp_buf_putc(a, '\n');
}

/* The merge of the shards into the table outp. */
static void put_merge(cp_buf *m, int n_shards, const char *fmt, const char *cwd, const char *exe,
                      const char *dir, const char *outp)
{
    cp_buf_puts(m, "#!/bin/sh\n"
                   "# written by capplan whatif --slurm-array: joins the shards into the table\n"
                   "#SBATCH --job-name=capplan-whatif-merge\n"
                   "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --time=00:10:00\n"
                   "set -eu\ncd ");
    cp_sh_quote(m, cwd);
    cp_buf_puts(m, "\nexec ");
    cp_sh_quote(m, exe);
    cp_buf_printf(m, " whatif merge --format %s -o ", fmt);
    cp_sh_quote(m, outp);
    for (int k = 0; k < n_shards; k++) {
        cp_buf_putc(m, ' ');
        cp_sh_quote(m, dir);
        cp_buf_printf(m, "/shard-%d.json", k);
    }
    cp_buf_putc(m, '\n');
}

int cp_whatif_array_write(const cp_cli_args *args, const char *dir, int n_shards, int rows,
                          double per_row_s, int cpus, cp_whatif_format format, const char *out)
{
    char exe[PATH_MAX], cwd[PATH_MAX];
    const char *fmt = format_word(format);
    if (where(exe, cwd))
        return 1;
    cp_buf task;
    cp_buf_init(&task);
    int status = task_options(args, dir, cwd, exe, &task);
    if (!status && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "capplan whatif: cannot create '%s': %s\n", dir, strerror(errno));
        status = 1;
    }
    if (status) {
        cp_buf_release(&task);
        return status;
    }
    cp_buf a, m, s, outp;
    cp_buf_init(&a);
    cp_buf_init(&m);
    cp_buf_init(&s);
    cp_buf_init(&outp);
    put_array(&a, n_shards, rows, per_row_s, cpus, cwd, exe, dir, task.s);
    if (out)
        cp_buf_puts(&outp, out);
    else
        cp_buf_printf(&outp, "%s/whatif.%s", dir, fmt);
    put_merge(&m, n_shards, fmt, cwd, exe, dir, outp.s ? outp.s : "");
    /* submit.sh */
    cp_buf_puts(&s, "#!/bin/sh\n"
                    "# written by capplan whatif --slurm-array: submits the array, then the merge\n"
                    "# (afterok on the whole array); prints both job ids\n"
                    "set -eu\ncd \"$(dirname \"$0\")\"\n"
                    "a=$(sbatch --parsable whatif-array.sbatch)\na=${a%%;*}\n"
                    "m=$(sbatch --parsable --dependency=afterok:$a whatif-merge.sbatch)\nm=${m%%;*}\n"
                    "printf '%s array\\n' \"$a\"\nprintf '%s merge\\n' \"$m\"\n");
    status = put(dir, "whatif-array.sbatch", &a, true);
    if (!status)
        status = put(dir, "whatif-merge.sbatch", &m, true);
    if (!status)
        status = put(dir, "submit.sh", &s, true);
    if (!status)
        fprintf(stderr, "capplan whatif: %d-task array, merge job and submit.sh in %s (the table: %s)\n",
                n_shards, dir, outp.s ? outp.s : "");
    cp_buf_release(&task);
    cp_buf_release(&a);
    cp_buf_release(&m);
    cp_buf_release(&s);
    cp_buf_release(&outp);
    return status;
}
