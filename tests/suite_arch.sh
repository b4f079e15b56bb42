#!/bin/sh
# The architecture's rules that a build alone does not show
# (docs/architecture.md):
#   - every header compiles with its own layer's -I flags alone (make
#     check-layers), and a header of a higher layer is out of reach of a
#     lower one, for every pair of layers that must not see each other;
#   - no #include names a path: the -I flags of a folder are its only
#     view of the others, so a relative include cannot go around them;
#   - the methods of the table (cp_solvers[], shown by `plan --help`) are
#     exactly the methods the man page describes, and each is accepted;
#   - every symbol libcapplan.a exports has the cp_ prefix, and no two
#     files of one folder call each other (nm on the build's objects: the
#     layers point one way, and so do the files inside a folder);
#   - every command's options, as its option table declares them
#     (`--list-options`), are exactly the options capplan.1 describes
#     under that command (the option names of its .TP entries; -q and -h
#     are every command's), and every command and import kind has its
#     section.
SUITE=arch
. "$(dirname "$0")/lib.sh"

if make -s --no-print-directory check-layers >"$tmp/out" 2>&1; then ok; else bad check-layers "$(oneline "$tmp/out" 5)"; fi

# LAYER HEADER VISIBLE: whether a file of LAYER can include HEADER
reach() {
    flags=$(make -s --no-print-directory print-inc LAYER="$1")
    printf '#include "%s"\n' "$2" >"$tmp/probe.c"
    if $CC -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $flags $(pkg-config --cflags yaml-0.1 2>/dev/null) \
        -fsyntax-only "$tmp/probe.c" 2>"$tmp/cc.err"; then got=yes; else got=no; fi
    if [ "$got" = "$3" ]; then ok; else bad "layer $1 sees $2: $got, want $3" "$(oneline "$tmp/cc.err" 2)"; fi
}
reach models/base cp_yaml.h no
reach models/base cp_err.h yes
reach models/formats cp_input.h no
reach models/formats cp_buf.h yes
reach models/fit cp_input.h no
reach models/fit cp_csv.h yes
reach models cp_plan.h no
reach models cp_fit.h yes
reach solvers cp_methods.h no
reach solvers cp_modes.h yes
reach solvers/methods cp_verify.h no
reach solvers/methods cp_usage.h yes
reach planner/import cp_plan.h no
reach planner/verify cp_solver.h no
reach planner/verify cp_modes.h yes
# export turns a plan file and the inputs into scripts: models and below,
# never the solvers (it must not re-plan) nor the other planner folders
reach planner/export cp_plan.h no
reach planner/export cp_whatif.h no
reach planner/export cp_input.h yes
reach planner/export cp_plan_read.h yes
reach planner/whatif cp_export.h no
reach planner/whatif cp_report.h no
reach planner/report cp_cli.h no
reach planner/report cp_verify.h yes
reach planner cp_plan.h no

n=$(grep -rlE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' planner models solvers | wc -l)
if [ "$n" = 0 ]; then ok; else bad "includes with a path" "$(grep -rlE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' planner models solvers | tr '\n' ' ')"; fi

# the methods: from --help's --method line, e.g. "auto (default), milp, ... or pop"
help_methods=$($CAPPLAN plan --help | sed -n 's/^  --method NAME  *//p' | sed 's/ (default)//; s/,/ /g; s/ or / /' | tr -s ' ' '\n' | sort)
man_methods=$(sed -n 's/^\.BR \\-\\-method " \(.*\)"$/\1/p' capplan.1 | tr '|' '\n' | sort)
if [ -n "$help_methods" ] && [ "$help_methods" = "$man_methods" ]; then ok; else
    bad "methods: --help has [$(echo $help_methods)], the man page [$(echo $man_methods)]"; fi
for m in $help_methods; do
    # each is described in the man page's --method paragraph, and plans
    if sed -n '/^\.BR \\-\\-method /,/^\.TP/p' capplan.1 | grep -qE "(^|[ .])$m( \(default\))?:"; then ok; else bad "man page: no description of method $m"; fi
    rm -f "$tmp/p.yaml"
    if $CAPPLAN plan -q --no-timing --node-limit 5 --method "$m" examples/tiny.yaml >"$tmp/p.yaml" 2>"$tmp/err" &&
        grep -qE "^  method: $m(/|\$)" "$tmp/p.yaml"; then ok; else bad "method $m does not plan" "$(oneline "$tmp/err")"; fi
done
$CAPPLAN plan --method nope examples/tiny.yaml >/dev/null 2>"$tmp/err"
rc=$?
want="capplan plan: unknown method 'nope' ($(echo $($CAPPLAN plan --help | sed -n 's/^  --method NAME  *//p' | sed 's/ (default)//')))"
if [ $rc = 2 ] && [ "$(cat "$tmp/err")" = "$want" ]; then ok; else bad "unknown method: exit $rc, $(oneline "$tmp/err")"; fi

# ---- symbols: the prefix, and no two files of a folder calling each other --
# the build of $CAPPLAN (its last word: make valgrind puts a tool first)
for w in $CAPPLAN; do bin=$w; done
bdir=$(dirname "$bin")
if [ -f "$bdir/libcapplan.a" ]; then
    # T/D/B/R: code and data the library exports; __*: the compiler's own
    # (sanitizers add some), a name no source of ours may define
    nm "$bdir/libcapplan.a" | awk 'NF == 3 && $2 ~ /^[TDBR]$/ && $3 !~ /^cp_/ && $3 !~ /^__/ && $3 !~ /\./ { print $3 }' |
        sort -u >"$tmp/noprefix"
    if [ ! -s "$tmp/noprefix" ]; then ok "exported symbols: cp_"; else
        bad "exported symbols without cp_" "$(tr '\n' ' ' <"$tmp/noprefix")"; fi
else
    bad "no $bdir/libcapplan.a beside $bin"
fi
# the objects of the library's sources (a stale object of a removed file
# does not count), each line "OBJECT: NAME TYPE ..." (nm -A -P)
: >"$tmp/objs"
for src in $(find models solvers planner -name '*.c' | sort); do
    o=$bdir/${src%.c}.o
    [ -f "$o" ] && echo "$o" >>"$tmp/objs"
done
if [ -s "$tmp/objs" ]; then
    # shellcheck disable=SC2046 # one word per object path
    nm -A -P $(cat "$tmp/objs") 2>/dev/null | awk '
    { f = $1; sub(/:$/, "", f); dir = f; sub(/\/[^\/]*$/, "", dir); folder[f] = dir
      if ($3 == "U") use[f, $2] = 1; else if ($3 ~ /^[TDBR]$/) def[$2] = f }
    END {
        for (k in use) {
            split(k, p, SUBSEP); g = def[p[2]]
            if (g != "" && g != p[1] && folder[g] == folder[p[1]]) calls[p[1], g] = 1
        }
        for (k in calls) {
            split(k, p, SUBSEP)
            if (((p[2], p[1]) in calls) && p[1] < p[2]) print p[1] " <-> " p[2]
        }
    }' | sort >"$tmp/knots"
    if [ ! -s "$tmp/knots" ]; then ok "no two files of a folder call each other"; else
        bad "files of one folder calling each other" "$(tr '\n' ';' <"$tmp/knots")"; fi
else
    bad "no objects of the library's sources in $bdir"
fi

# ---- the option tables and the man page ---------------------------------
# capplan.1's COMMANDS: "S<TAB>ARGS" for each ".SS capplan ..." heading
# (ARGS: its leading lower-case words, the first of each a|b, e.g. "export
# slurm"), then "O<TAB>NAME" for each option named in a .TP entry's tag
awk '
/^\.SH / { cmds = ($0 ~ /^\.SH COMMANDS/); tp = 0; next }
!cmds { next }
/^\.SS capplan / {
    n = split($0, w, " "); args = ""
    for (i = 3; i <= n; i++) {
        x = w[i]
        if (x !~ /^[a-z][a-z0-9|]*$/) break
        sub(/\|.*/, "", x)
        args = args (args == "" ? "" : " ") x
    }
    print "S\t" args; tp = 0; next
}
/^\.TP/ { tp = 1; next }
tp {
    tp = 0; line = $0
    if (line !~ /^\.(B|BI|BR|I|IR|IB) /) next
    gsub(/\\-/, "-", line); gsub(/\\f[BIRP]/, "", line)
    while (match(line, /(^|[ ",(])--?[A-Za-z][A-Za-z0-9-]*/)) {
        tok = substr(line, RSTART, RLENGTH); sub(/^[ ",(]/, "", tok)
        print "O\t" tok
        line = substr(line, RSTART + RLENGTH)
    }
}' capplan.1 >"$tmp/man.opts"
# SECTION: the table's options against the man page's, both ways
opts_cmp() {
    sort -u "$tmp/sec.man" | grep -vxE -- '-q|--quiet|-h|--help' >"$tmp/sec.man.s"
    # shellcheck disable=SC2086 # ARGS are words
    if $CAPPLAN $1 --list-options >"$tmp/sec.tab" 2>"$tmp/sec.err"; then
        sort -u "$tmp/sec.tab" >"$tmp/sec.tab.s"
        if cmp -s "$tmp/sec.tab.s" "$tmp/sec.man.s"; then ok "capplan.1: options of '$1'"; else
            bad "capplan.1: options of '$1'" "table only: [$(comm -23 "$tmp/sec.tab.s" "$tmp/sec.man.s" | tr '\n' ' ')], man page only: [$(comm -13 "$tmp/sec.tab.s" "$tmp/sec.man.s" | tr '\n' ' ')]"
        fi
    else
        bad "capplan $1 --list-options" "$(oneline "$tmp/sec.err")"
    fi
}
sec="" sections=""
: >"$tmp/sec.man"
while IFS="$(printf '\t')" read -r kind word; do
    if [ "$kind" = S ]; then
        [ -n "$sec" ] && opts_cmp "$sec"
        sec=$word sections="$sections|$word|"
        : >"$tmp/sec.man"
    else
        printf '%s\n' "$word" >>"$tmp/sec.man"
    fi
done <"$tmp/man.opts"
[ -n "$sec" ] && opts_cmp "$sec"
# every command of `capplan --help`, and every import kind of the synopsis, has its section
cmds=$($CAPPLAN --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
kinds=$(sed -n 's/^\.B capplan import \([a-z0-9|]*\)$/\1/p' capplan.1 | tr '|' ' ')
for c in $cmds; do
    case "$sections" in *"|$c|"* | *"|$c "*) ok ;; *) bad "capplan.1: no section for command '$c'" ;; esac
done
if [ -n "$kinds" ]; then ok; else bad "capplan.1: no import kinds in the synopsis"; fi
for k in $kinds; do
    case "$sections" in *"|import $k|"*) ok ;; *) bad "capplan.1: no section for 'import $k'" ;; esac
done

test_done
