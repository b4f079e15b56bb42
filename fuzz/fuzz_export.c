/*
 * libFuzzer harness for the exporters (planner/export/cp_export.h, what
 * `capplan export slurm|skypilot` writes): names from the input and the
 * plan end up in shell scripts, sbatch directives, SkyPilot YAML and a
 * Markdown table, so every one of them is hostile.
 *
 * The input holds up to 3 files separated by a line "--8<--" (as in
 * fuzz_load). When there are two or more and the last one is a map with
 * a `status` key, it is the plan and the others are the inputs; else the
 * files are the inputs and, when they are valid and small, the plan is
 * the heuristic's (cp_plan_solve, as fuzz_load), written as YAML and read
 * back. The plan goes through cp_plan_read as `capplan export` reads it
 * (a plan with problems, or an infeasible one, is refused before any
 * export), then through cp_export_slurm (--begin now when the input's
 * size is odd) and cp_export_launch, with a plan name full of shell
 * syntax in half the runs, and in half of them (size & 4) through
 * cp_export_slurm_replan and cp_export_launch_replan too, the plan as a
 * re-plan of itself from its middle slot (replan.sh keeps every job; the
 * re-plan's launch.sh has the steps from that slot on). Three files of
 * which the last two have a `status` are an input, an earlier plan OLD
 * and its re-plan: then cp_export_slurm_replan and cp_export_launch_replan
 * from a slot S the input's size picks (`export slurm|skypilot --from OLD
 * --now S`), with the same properties for replan.sh, launch.sh and their
 * files. Properties:
 *   - each exporter returns CP_OK, CP_ERR_INPUT or CP_ERR_NOMEM, CP_OK
 *     exactly when it reported no error (warnings are fine), else the
 *     code of its first error;
 *   - on success every file name is relative, unique, one or two parts of
 *     [A-Za-z0-9._-] that do not start with '.' or '-', and no file holds
 *     a NUL byte;
 *   - the shell scripts (submit.sh, replan.sh, jobs/ *.sbatch, services/ *.sbatch,
 *     launch.sh, the run: of each task and service YAML) hold the names only quoted or in comments: with
 *     each job's and service's `run` command (shell code by design) swapped for a fixed
 *     word, every line, once its single-quoted strings are read as one
 *     token Q and its comment dropped, is one of the exporters' own line
 *     shapes (shapes[] below), with only words of [A-Za-z0-9._/-] where a
 *     file name or variable goes. A name that escaped its quotes (a
 *     newline, `$(`, a backquote, a quote, a ';') makes a line of another
 *     shape. Every `#SBATCH` line is `--KEY` or `--KEY=VALUE` with VALUE
 *     of [A-Za-z0-9._:,-] (what sbatch reads as a directive cannot carry
 *     anything else), and they all come before the first command (sbatch
 *     ignores later ones);
 *   - each cluster YAML parses back as a map with resources and no run;
 *     each task YAML as a map whose `run` holds its job's run command as
 *     it is in the input; each SkyServe service YAML (services/) as a map
 *     with resources and service.replicas whose `run` holds the run
 *     command of the service its envs.CAPPLAN_SERVICE names;
 *   - launch.md's cluster table has 10 column bars a row and its job
 *     table 7 (escaped bars excepted), one row per cluster and per job;
 *     with services, its services table 9 bars a row and its replicas
 *     table one more than the services plus 2, a row per service and
 *     per slot.
 * A mismatch aborts and prints the file. The exporters' shapes are
 * template text: when an exporter's output changes on purpose, change
 * shapes[] with it.
 */
#include "cp_alloc.h"
#include "cp_export.h"
#include "cp_input.h"
#include "cp_methods.h"
#include "cp_modes.h"
#include "cp_plan_read.h"
#include "cp_plan_write.h"
#include "cp_yaml.h"
#include "fuzz_split.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 3
/* "Small": bounded so one execution stays in milliseconds (fuzz_load's) */
#define PLAN_MAX_MODES 400
#define PLAN_MAX_SLOTS 200
#define PLAN_MAX_JOBS 40

/* what each job's run command becomes for the shape check */
#define RUN_WORD "capplan_fuzz_run"

static const char *const names[MAX_FILES] = {"a.yaml", "b.yaml", "c.yaml"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The lines the exporters write as shell code, after abstract_line: Q is
 * a single-quoted string, @ a word of [A-Za-z0-9._/-], ~ "$@" with any
 * more ":$@" (afterok's list of job ids), ^ a literal @ (the shell's
 * "$@"), ? any run of ":$@" and "$(queued Q)" (replan.sh's
 * dependencies, maybe none). */
static const char *const shapes[] = {
    "",
    "set -eu",
    "set -e",
    "cd \"$(dirname \"$0\")\"",
    "TZ=UTC0; export TZ",
    "@=$(sbatch --parsable @)",
    "@=$(sbatch --parsable --dependency=afterok:~ @)",
    /* replan.sh's new runs: ? is their dependencies */
    "dep=\"?\"",
    "@=$(sbatch --parsable ${dep:+--dependency=afterok$dep} @)",
    "@=${@%%;*}",
    "printf Q \"$@\" Q",
    "printf Q Q >&2",
    "exit 1",
    "srun --ntasks-per-node=1 sh -c Q || printf Q Q >&2",
    RUN_WORD,
    /* submit.sh's replica runs of services (capplan.5 §10.4): --begin,
     * --time, --nodelist, --export and --comment single-quoted; a run at
     * the start of a --begin now night has no --begin */
    "@=$(sbatch --parsable Q Q Q Q Q @)",
    "@=$(sbatch --parsable Q Q Q Q @)",
    /* a services/ script's variables */
    "CAPPLAN_SERVICE=Q",
    "CAPPLAN_CONFIG=@",
    "CAPPLAN_ACCELERATOR=Q",
    "CAPPLAN_ACCELERATOR_COUNT=@",
    "export CAPPLAN_SERVICE CAPPLAN_CONFIG CAPPLAN_ACCELERATOR CAPPLAN_ACCELERATOR_COUNT",
    /* replan.sh (export slurm --from): cancellations, start moves */
    "queued() { for n in \"$^\"; do squeue -h -u \"$(id -un)\" -n \"$n\" -o Q; done | tr -d Q; }",
    /* replan.sh's replica runs of services, found by their --comment */
    "run_ids() { squeue -h -u \"$(id -un)\" -o Q | awk -v k=\"$1\" Q; }",
    "for id in $(run_ids Q); do scancel \"$id\" && printf Q \"$id\" Q; done",
    "for id in $(run_ids Q); do scontrol update JobId=\"$id\" Q && printf Q \"$id\" Q; done",
    "for id in $(run_ids Q); do scontrol update JobId=\"$id\" Q Q && printf Q \"$id\" Q; done",
    "scancel --name=Q",
    "scancel --state=PENDING --name=Q",
    "id=$(squeue -h -u \"$(id -un)\" -t PENDING -n Q -o %i | head -n 1)",
    "if [ -n \"$id\" ]; then scontrol update JobId=\"$id\" StartTime=@; printf Q \"$id\" Q; fi",
    ("if [ -n \"$id\" ]; then scontrol update JobId=\"$id\" StartTime=@:@:@; printf Q \"$id\" Q; "
     "fi"),
    /* launch.sh (export skypilot): its header, then one block per time */
    "set -u",
    "cd \"$(dirname \"$0\")\" || exit 1",
    "t0=@",
    "t0=$(date +%s)",
    "t0=$(date -d Q +%s)",
    "t0=$(($(date +%s) - @))",
    "case $t0 in Q | *[!0-9]*)",
    "printf Q \"$t0\" >&2",
    "exit 1 ;;",
    "esac",
    "status=0",
    "at() {",
    "now=$(date +%s)",
    "if [ \"$((t0 + $1))\" -gt \"$now\" ]; then sleep \"$((t0 + $1 - now))\"; fi",
    "}",
    "say() { printf Q \"$1\" >&2; }",
    "failed() { printf Q \"$1\" >&2; status=1; }",
    "at @",
    "say Q",
    "sky launch -y -c @ -i @ --down @ &",
    "@=$!",
    "wait \"$@\" || failed Q",
    "sky exec -d @ @ || failed Q",
    "sky autostop @ -i 1 --down || failed Q",
    "sky down -y @ || failed Q",
    /* launch.sh's SkyServe steps (capplan.5 §10.4) */
    "sky serve up -y -n @ @ &",
    "sky serve update -y @ @ &",
    "sky serve update -y @ @ || failed Q",
    "sky serve down -y @ || failed Q",
    "failed Q",
    "exit \"$status\"",
};

static void fail(const char *what, const char *file, const char *text, size_t len)
{
    fprintf(stderr, "fuzz_export: %s\n--- %s\n%.*s\n---\n", what, file ? file : "", (int)len,
            text ? text : "");
    abort();
}

static bool is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-' || c == '/';
}

/* Matches a word run at s; returns its length (0: none). */
static size_t word_len(const char *s)
{
    size_t n = 0;
    while (is_word(s[n]))
        n++;
    return n;
}

/* Whether line `s` (abstracted) has shape `p`. */
static bool shape_match(const char *s, const char *p)
{
    for (; *p; p++) {
        if (*p == '@') {
            size_t n = word_len(s);
            if (!n)
                return false;
            s += n;
        } else if (*p == '~') {
            do {
                size_t n = s[0] == '$' ? word_len(s + 1) : 0;
                if (!n)
                    return false;
                s += 1 + n;
            } while (s[0] == ':' && s[1] == '$' && s++);
        } else if (*p == '?') {
            for (;;) {
                size_t n = s[0] == ':' && s[1] == '$' ? word_len(s + 2) : 0;
                if (n)
                    s += 2 + n;
                else if (!strncmp(s, "$(queued Q)", 11))
                    s += 11;
                else
                    break;
            }
        } else if (*s++ != (*p == '^' ? '@' : *p)) {
            return false;
        }
    }
    return !*s;
}

/* The shell line [s, s+len) as shapes[] spell it, into out (cap bytes):
 * single-quoted strings, with the '\'' joins cp_sh_quote writes, become
 * one Q; the comment is dropped (a '#' at the start of a word, outside
 * quotes); runs of blanks become one space, none at either end. A $( )
 * opens unquoted text even within double quotes, as the shell reads it
 * (replan.sh's "$(queued 'NAME')"). Returns false when a single quote is
 * not closed on the line (no name may hold a newline, and the run
 * commands are swapped out). */
static bool abstract_line(const char *s, size_t len, char *out, size_t cap)
{
    size_t o = 0;
    bool dq = false;
    unsigned outer = 0; /* bit k: within double quotes outside the k-th $( */
    int depth = 0;
    for (size_t i = 0; i < len && o + 3 < cap; i++) {
        char c = s[i];
        char last = o ? out[o - 1] : ' ';
        if (c == '$' && i + 1 < len && s[i + 1] == '(' && depth < 16) {
            outer = dq ? outer | 1u << depth : outer & ~(1u << depth);
            depth++;
            dq = false;
            out[o++] = c;
            out[o++] = s[++i];
        } else if (c == ')' && depth > 0 && !dq) {
            depth--;
            dq = outer >> depth & 1;
            out[o++] = c;
        } else if (c == '\'' && !dq) {
            const char *q = memchr(s + i + 1, '\'', len - i - 1);
            if (!q)
                return false;
            if (last != 'Q')
                out[o++] = 'Q';
            i = (size_t)(q - s);
        } else if (c == '\\' && !dq && last == 'Q' && i + 2 < len && s[i + 1] == '\'' &&
                   s[i + 2] == '\'') {
            i++; /* the \' between two quoted parts: the next ' opens the next part */
        } else if (c == '\\' && i + 1 < len) {
            out[o++] = c;
            out[o++] = s[++i];
        } else if (c == '#' && !dq && last == ' ') {
            break;
        } else if (c == ' ' || c == '\t') {
            if (!dq && last == ' ')
                continue;
            out[o++] = dq ? c : ' ';
        } else {
            if (c == '"')
                dq = !dq;
            out[o++] = c;
        }
    }
    while (o && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
    return true;
}

/* An sbatch directive line: "#SBATCH --KEY[=VALUE]". */
static bool directive_ok(const char *s, size_t len)
{
    static const char head[] = "#SBATCH --";
    size_t i = sizeof head - 1;
    if (len <= i || memcmp(s, head, i))
        return false;
    size_t k = i;
    while (k < len && ((s[k] >= 'a' && s[k] <= 'z') || s[k] == '-'))
        k++;
    if (k == i)
        return false;
    if (k == len)
        return true;
    if (s[k] != '=' || k + 1 == len)
        return false;
    for (k++; k < len; k++) {
        char c = s[k];
        if (!(is_word(c) && c != '/') && c != ':' && c != ',')
            return false;
    }
    return true;
}

/* Checks every line of shell text `t` against shapes[] (`run_swapped`:
 * the run commands are RUN_WORD; else only the lines before the first
 * run command, which follows the first empty line of an sbatch script,
 * are checked), and an sbatch script's directives. */
static void check_shell(const char *file, const char *t, size_t len, bool sbatch,
                        bool run_swapped)
{
    char line[4096];
    bool commands = false;
    for (const char *l = t; l < t + len;) {
        const char *e = memchr(l, '\n', (size_t)(t + len - l));
        size_t n = e ? (size_t)(e - l) : (size_t)(t + len - l);
        if (!run_swapped && sbatch && n == 0)
            return; /* the run command follows */
        if (sbatch && n >= 7 && !memcmp(l, "#SBATCH", 7)) {
            if (!directive_ok(l, n))
                fail("an #SBATCH line is not --KEY[=VALUE] of Slurm's words", file, t, len);
            if (commands)
                fail("an #SBATCH line after the first command (sbatch ignores it)", file, t,
                     len);
        }
        if (!abstract_line(l, n, line, sizeof line))
            fail("a single-quoted string spans lines", file, t, len);
        bool known = false;
        for (size_t k = 0; k < sizeof shapes / sizeof *shapes && !known; k++)
            known = shape_match(line, shapes[k]);
        if (!known) {
            char m[4200];
            snprintf(m, sizeof m, "a line of shell code is none of the exporter's shapes: '%s'",
                     line);
            fail(m, file, t, len);
        }
        commands |= line[0] != '\0';
        l = e ? e + 1 : t + len;
    }
}

static bool name_part_ok(const char *s, size_t n)
{
    if (!n || s[0] == '.' || s[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!is_word(s[i]) || s[i] == '/')
            return false;
    return true;
}

static void check_names(const cp_export *x)
{
    for (int i = 0; i < x->n; i++) {
        const char *nm = x->files[i].name;
        const char *slash = strchr(nm, '/');
        size_t n1 = slash ? (size_t)(slash - nm) : strlen(nm);
        if (!name_part_ok(nm, n1) || (slash && !name_part_ok(slash + 1, strlen(slash + 1))))
            fail("a file name is not one or two safe parts", nm, "", 0);
        for (int k = 0; k < i; k++)
            if (!strcmp(nm, x->files[k].name))
                fail("two files have one name", nm, "", 0);
        const cp_buf *b = &x->files[i].text;
        if (b->len && strlen(b->s) != b->len)
            fail("a file holds a NUL byte", nm, b->s, b->len);
    }
}

static const cp_node *map_get(const cp_node *m, const char *key)
{
    if (!m || m->kind != CP_NODE_MAP)
        return NULL;
    for (size_t i = 0; i < m->n; i++)
        if (m->kids[2 * i]->kind == CP_NODE_SCALAR && !strcmp(m->kids[2 * i]->str, key))
            return m->kids[2 * i + 1];
    return NULL;
}

/* A cluster file (clusters/NNN-OFFER.yaml) parses as a map with
 * resources: and no run:; a task file (tasks/NNN-NAME.yaml) as a map
 * whose run: holds its job's run command as it is (the job named by
 * envs.CAPPLAN_JOB, its name unchanged). */
static void check_launch_yaml(const cp_input *in, const cp_export_file *f, bool run_swapped)
{
    cp_diags *d = malloc(sizeof *d);
    if (!d)
        abort();
    cp_diags_init(d);
    cp_node *root = NULL;
    const char *t = f->text.s ? f->text.s : "";
    int rc = cp_yaml_load_string(f->name, t, f->text.len, &root, d);
    if (rc == CP_ERR_NOMEM)
        goto out;
    if (rc != CP_OK) {
        cp_diags_print(d, stderr);
        fail("a launch file does not parse back", f->name, t, f->text.len);
    }
    const cp_node *run = map_get(root, "run");
    if (!strncmp(f->name, "clusters/", 9)) {
        if (run || !map_get(root, "resources"))
            fail("a cluster file has a run: or no resources:", f->name, t, f->text.len);
        goto out;
    }
    if (!strncmp(f->name, "services/", 9)) {
        /* a SkyServe service: resources, a service section with replicas,
         * and the run of the service named by envs.CAPPLAN_SERVICE */
        const cp_node *sv = map_get(map_get(root, "envs"), "CAPPLAN_SERVICE");
        int vi = sv && sv->kind == CP_NODE_SCALAR ? cp_input_find_service(in, sv->str) : -1;
        if (!map_get(root, "resources") || !map_get(map_get(root, "service"), "replicas") ||
            !run || run->kind != CP_NODE_SCALAR || vi < 0)
            fail("a service file has no resources:, service.replicas, run: string or service",
                 f->name, t, f->text.len);
        if (run_swapped)
            check_shell(f->name, run->str, strlen(run->str), false, true);
        else if (in->services[vi].run && !strstr(run->str, in->services[vi].run))
            fail("a service file's run: does not hold the service's run command as it is",
                 f->name, t, f->text.len);
        goto out;
    }
    if (strncmp(f->name, "tasks/", 6))
        fail("a launch file is neither under clusters/, tasks/ nor services/", f->name, t,
             f->text.len);
    const cp_node *job = map_get(map_get(root, "envs"), "CAPPLAN_JOB");
    int ji = job && job->kind == CP_NODE_SCALAR ? cp_input_find_job(in, job->str) : -1;
    if (!run || run->kind != CP_NODE_SCALAR || ji < 0)
        fail("a task file has no run: string or names no job of the input", f->name, t,
             f->text.len);
    if (run_swapped)
        check_shell(f->name, run->str, strlen(run->str), false, true);
    else if (in->jobs[ji].run && !strstr(run->str, in->jobs[ji].run))
        fail("a task file's run: does not hold its job's run command as it is", f->name, t,
             f->text.len);
out:
    cp_node_free(root);
    free(d);
}

/* launch.md's two tables: clusters (9 columns, 10 bars a row) and jobs
 * (6 columns, 7 bars), each a header, a rule and one row per item; then,
 * with services, the SkyServe services (8 columns, 9 bars) and their
 * replicas per slot (slot, start and one column per service), each a
 * header, a rule and one row per service and per slot. */
static void check_md(const cp_export_file *f, int n_clusters, int n_jobs, int n_services,
                     int slots)
{
    const char *t = f->text.s ? f->text.s : "";
    int rows10 = 0, rows7 = 0, rows9 = 0, rows_slot = 0;
    bool svc = false;
    for (const char *l = t; *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        if (n == 23 && !memcmp(l, "## Services on SkyServe", 23))
            svc = true;
        if (n && l[0] == '|') {
            int bars = 0;
            for (size_t i = 0; i < n; i++) {
                if (l[i] == '\\')
                    i++;
                else
                    bars += l[i] == '|';
            }
            if (svc && bars == 9 && rows9 < n_services + 2)
                rows9++;
            else if (svc && bars == n_services + 3)
                rows_slot++;
            else if (!svc && bars == 10)
                rows10++;
            else if (!svc && bars == 7)
                rows7++;
            else
                fail("a row of launch.md has neither 10 nor 7 bars (9 or a column per service "
                     "in its services section)", f->name, t, f->text.len);
        }
        l = e ? e + 1 : l + n;
    }
    if (rows10 != n_clusters + 2 || rows7 != n_jobs + 2 ||
        rows9 != (n_services ? n_services + 2 : 0) || rows_slot != (n_services ? slots + 2 : 0))
        fail("launch.md's tables do not have one row per cluster, job, service and slot",
             f->name, t, f->text.len);
}

/* The exporter's contract on its return code and diagnostics. */
static void check_rc(const char *who, int rc, const cp_diags *d)
{
    int errors = d->n - d->n_warnings + d->dropped;
    bool known = rc == CP_OK || rc == CP_ERR_INPUT || rc == CP_ERR_NOMEM;
    if (!known || (rc == CP_OK) != (errors == 0) || (rc != CP_OK && rc != d->worst)) {
        cp_diags_print(d, stderr);
        fprintf(stderr, "fuzz_export: %s returned %d with %d errors (first's code %d)\n", who,
                rc, errors, d->worst);
        abort();
    }
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* One export (a re-plan of `old` from slot `now` when now >= 0); on
 * success the checks of the header comment. Returns rc. */
static int export_one(const cp_input *in, const cp_plan_file *pf, const cp_plan_file *old,
                      bool slurm, int now, const cp_export_opts *o, bool run_swapped, cp_diags *d)
{
    cp_export x;
    cp_export_init(&x);
    cp_diags_init(d);
    int rc = now >= 0 ? (slurm ? cp_export_slurm_replan(in, pf, old, now, o, &x, d)
                               : cp_export_launch_replan(in, pf, old, now, o, &x, d))
             : slurm  ? cp_export_slurm(in, pf, o, &x, d)
                      : cp_export_launch(in, pf, o, &x, d);
    check_rc(slurm ? "cp_export_slurm" : "cp_export_launch", rc, d);
    if (rc == CP_OK) {
        check_names(&x);
        for (int i = 0; i < x.n; i++) {
            const cp_export_file *f = &x.files[i];
            const char *t = f->text.s ? f->text.s : "";
            if (slurm || ends_with(f->name, ".sh"))
                check_shell(f->name, t, f->text.len, ends_with(f->name, ".sbatch"), run_swapped);
            else if (!strcmp(f->name, "launch.md"))
                check_md(f, x.n_clusters, x.n_jobs, x.n_services, in->slots);
            else
                check_launch_yaml(in, f, run_swapped);
        }
    }
    cp_export_release(&x);
    return rc;
}

/* Swaps the jobs' and the services' run commands (those that have one)
 * with RUN_WORD, keeping them in runs[]; a second call puts them back. */
static void swap_runs(cp_input *in, char **runs)
{
    static char run_word[] = RUN_WORD; /* one address to tell it by */
    for (int j = 0; j < in->n_jobs + in->n_services; j++) {
        char **run = j < in->n_jobs ? &in->jobs[j].run : &in->services[j - in->n_jobs].run;
        if (*run && *run != run_word) {
            runs[j] = *run;
            *run = run_word;
        } else if (*run) {
            *run = runs[j];
        }
    }
}

/* Both exports, with the input's run commands and then with RUN_WORD
 * for each (the same result: a run command only goes into scripts). */
static void export_all(cp_input *in, const cp_plan_file *pf, unsigned sel)
{
    if (!cp_plan_file_is_ok(pf) || pf->infeasible)
        return; /* refused by `capplan export` before any export */
    cp_diags *d = malloc(sizeof *d);
    char **runs = calloc((size_t)(in->n_jobs + in->n_services) + 1, sizeof *runs);
    if (!d || !runs)
        abort();
    cp_export_opts o;
    cp_export_opts_init(&o);
    o.begin_now = sel & 1;
    if (sel & 2)
        o.plan_name = "it's \"$(touch x)\" `touch y`; rm -rf / # .yaml";
    for (int v = 0; v < (sel & 4 ? 4 : 2); v++) {
        int slurm = v & 1, now = v < 2 ? -1 : in->slots / 2;
        int rc = export_one(in, pf, pf, slurm, now, &o, false, d);
        swap_runs(in, runs);
        int rc2 = export_one(in, pf, pf, slurm, now, &o, true, d);
        swap_runs(in, runs);
        if (rc != rc2 && rc != CP_ERR_NOMEM && rc2 != CP_ERR_NOMEM) {
            fprintf(stderr, "fuzz_export: %s returned %d, and %d once the run commands are "
                            "swapped out\n",
                    slurm ? "slurm" : "launch", rc, rc2);
            abort();
        }
    }
    free(runs);
    free(d);
}

static void export_tree(cp_input *in, const cp_node *plan_root, unsigned sel)
{
    cp_plan_read_opts ro;
    cp_plan_read_opts_init(&ro);
    ro.slots = in->slots;
    cp_plan_file pf;
    cp_plan_file_init(&pf);
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_read(plan_root, &ro, &pf, &err) == CP_OK)
        export_all(in, &pf, sel);
    cp_plan_file_release(&pf);
}

/* export slurm --from OLD --now S of the re-plan `now_root`: replan.sh
 * and its scripts under export_one's checks. */
static void export_replan(cp_input *in, const cp_node *old_root, const cp_node *now_root,
                          unsigned sel)
{
    cp_plan_read_opts ro;
    cp_plan_read_opts_init(&ro);
    ro.slots = in->slots;
    cp_plan_file old, pf;
    cp_plan_file_init(&old);
    cp_plan_file_init(&pf);
    cp_err err;
    cp_err_init(&err);
    cp_diags *d = malloc(sizeof *d);
    if (!d)
        abort();
    cp_diags_init(d);
    /* what `capplan export` refuses before any export */
    if (cp_plan_read(old_root, &ro, &old, &err) != CP_OK || !cp_plan_file_is_ok(&old) ||
        cp_plan_read(now_root, &ro, &pf, &err) != CP_OK || !cp_plan_file_is_ok(&pf) ||
        pf.infeasible)
        goto out;
    cp_export_opts o;
    cp_export_opts_init(&o);
    o.begin_now = sel & 1;
    if (sel & 2)
        o.plan_name = "it's \"$(touch x)\" `touch y`; rm -rf / # .yaml";
    int now = (int)(sel / 4 % (unsigned)(in->slots + 2));
    for (int swapped = 0; swapped < 2; swapped++) {
        char **runs = NULL;
        if (swapped) {
            if (!(runs = calloc((size_t)(in->n_jobs + in->n_services) + 1, sizeof *runs)))
                abort();
            swap_runs(in, runs);
        }
        for (int slurm = 0; slurm < 2; slurm++)
            export_one(in, &pf, &old, slurm, now, &o, swapped, d);
        if (runs) {
            swap_runs(in, runs);
            free(runs);
        }
    }
out:
    cp_plan_file_release(&old);
    cp_plan_file_release(&pf);
    free(d);
}

/* The heuristic's plan of `in` as `capplan plan` writes it, then the
 * exports of that plan. */
static void plan_and_export(cp_input *in, unsigned sel)
{
    cp_modeset *ms = NULL;
    cp_plan *plan = NULL;
    cp_err err;
    cp_err_init(&err);
    cp_buf b;
    cp_buf_init(&b);
    cp_node *root = NULL;
    cp_diags *d = NULL;
    if (cp_modes_build(in, &ms, &err) != CP_OK || ms->n_modes > PLAN_MAX_MODES ||
        in->slots > PLAN_MAX_SLOTS || in->n_jobs > PLAN_MAX_JOBS)
        goto out;
    if (cp_plan_new(in, ms, &plan) != CP_OK)
        goto out;
    cp_solve_opts so;
    cp_solve_opts_init(&so);
    so.time_limit = 1;
    so.node_limit = 50;
    so.seed = sel;
    int rc = cp_plan_solve(in, ms, &cp_solver_heuristic, &so, plan, &err);
    if (rc != CP_OK || plan->status == CP_STATUS_NOPLAN || plan->status == CP_STATUS_INFEASIBLE)
        goto out;
    cp_plan_write_opts wo = {CP_FMT_YAML, false, NULL};
    if (cp_plan_write(plan, &wo, &b, &err) != CP_OK)
        goto out;
    if (!(d = malloc(sizeof *d)))
        goto out;
    cp_diags_init(d);
    rc = cp_yaml_load_string("plan.yaml", b.s, b.len, &root, d);
    if (rc == CP_OK)
        export_tree(in, root, sel);
    else if (rc != CP_ERR_NOMEM)
        fail("the plan written does not parse back", "plan.yaml", b.s, b.len);
out:
    free(d);
    cp_node_free(root);
    cp_buf_release(&b);
    cp_plan_free(plan);
    cp_modeset_free(ms);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *part[MAX_FILES];
    size_t len[MAX_FILES];
    int n = fuzz_split(text, size, MAX_FILES, part, len);
    cp_diags *d = malloc(sizeof *d);
    cp_node *roots[MAX_FILES] = {NULL};
    int rc = CP_OK;
    cp_input *in = NULL;
    if (!d)
        goto out;
    cp_diags_init(d);
    for (int i = 0; i < n && rc == CP_OK; i++)
        rc = cp_yaml_load_string(names[i], part[i], len[i], &roots[i], d);
    if (rc != CP_OK)
        goto out;
    /* the last of two or more files is the plan when it says a status;
     * of three, the last two are an earlier plan and its re-plan when
     * both do */
    bool plan_given = n >= 2 && map_get(roots[n - 1], "status");
    bool replan = plan_given && n == 3 && map_get(roots[1], "status");
    int n_in = replan ? 1 : plan_given ? n - 1 : n;
    if (cp_input_from_trees(roots, n_in, &in, d) != CP_OK)
        goto out;
    if (replan)
        export_replan(in, roots[1], roots[2], (unsigned)size);
    else if (plan_given)
        export_tree(in, roots[n - 1], (unsigned)size);
    else
        plan_and_export(in, (unsigned)size);
out:
    cp_input_free(in);
    for (int i = 0; i < n; i++)
        cp_node_free(roots[i]);
    free(d);
    free(text);
    return 0;
}
