#!/bin/sh
# The repository explains itself (docs/README.md):
#   - every repository path quoted in comments, docs, README.md, the man
#     pages and the YAML inputs' comments names a file or folder, every
#     Markdown link and `man ./FILE` resolves, and every § names a section
#     of capplan.5 (tests/docs/check_refs.py);
#   - no comment or doc cites the outside specification by section or a
#     tracker's issue numbers;
#   - docs/README.md lists every page of docs/;
#   - every capplan command line quoted in README.md and docs/ names a
#     command, its options and repository files that exist
#     (tests/docs/check_cmds.py), and README.md's walk-through
#     (`$ build/capplan ...`) runs, each line exiting 0;
#   - no tracked file names a folder of one machine (a home, the
#     development machine's work tree): scripts, docs and tests read the
#     repository's own files (public data: examples/data/README.md);
#   - the checker finds each kind of dead reference it looks for, on a
#     small tree planted with one of each.
SUITE=docs
. "$(dirname "$0")/lib.sh"

check=tests/docs/check_refs.py
if ! command -v python3 >/dev/null; then
    bad "python3 is missing (make deps installs it)"
    test_done
fi

python3 "$check" . >"$tmp/refs" 2>&1
rc=$?
for kind in path link man section outside; do
    if grep -q "^$kind " "$tmp/refs"; then
        bad "dead references ($kind)" "$(grep "^$kind " "$tmp/refs" | head -n 10 | tr '\n' ';')"
    else
        ok "$kind"
    fi
done
if [ "$rc" = 0 ] && [ ! -s "$tmp/refs" ]; then ok checker-exit; else bad "check_refs.py: exit $rc" "$(oneline "$tmp/refs")"; fi

for page in docs/*.md; do
    name=${page#docs/}
    [ "$name" = README.md ] && continue
    if grep -q "($name)" docs/README.md 2>/dev/null; then ok "$name"; else bad "docs/README.md does not list $name"; fi
done

# The command lines the docs quote, and the README's walk-through run as
# written (in a scratch folder that sees the repository's examples/ and
# tests/, with build/capplan this build).
# CAPPLAN may be a command line (valgrind ... build/capplan): its words
# that name files here are made absolute, for use from another folder
abs=
for word in $CAPPLAN; do
    case $word in /* | -*) ;; *) [ -e "$word" ] && word=$PWD/$word ;; esac
    abs="$abs $word"
done
python3 tests/docs/check_cmds.py . "${abs##* }" >"$tmp/cmds" 2>&1
crc=$?
if [ "$crc" = 0 ] && grep -q '^checked [1-9]' "$tmp/cmds"; then ok "$(tail -n 1 "$tmp/cmds")"
else bad "quoted command lines" "$(grep -v '^checked' "$tmp/cmds" | head -n 8 | tr '\n' ';')"; fi
# the checker on a planted README: an unknown option, import kind and
# file, and a line of output it must leave alone
p=$tmp/planted-cmds
mkdir -p "$p/docs" "$p/examples"
: >"$p/examples/tiny.yaml"
printf '    $ capplan plan --bogus examples/tiny.yaml\n    capplan import gavle x.csv\n    capplan check examples/nope.yaml\n    capplan export: 3 job scripts\n' >"$p/README.md"
python3 tests/docs/check_cmds.py "$p" "${abs##* }" >"$tmp/planted-cmds.out" 2>&1
if [ "$(grep -c -e '^option README.md:1: --bogus' -e '^command README.md:2: import gavle' \
    -e '^path README.md:3: examples/nope.yaml' "$tmp/planted-cmds.out")" = 3 ] &&
    grep -q '^checked 3 command lines$' "$tmp/planted-cmds.out"; then ok "check_cmds.py planted"
else bad "check_cmds.py on a planted README" "$(oneline "$tmp/planted-cmds.out" 5)"; fi
w=$tmp/walk
mkdir -p "$w/build"
ln -s "$PWD/examples" "$w/examples"
ln -s "$PWD/tests" "$w/tests"
printf '#!/bin/sh\nexec%s "$@"\n' "$abs" >"$w/build/capplan"
chmod +x "$w/build/capplan"
n=0
sed -n 's/^    \$ \(build\/capplan .*\)$/\1/p' README.md | sed 's/ *#.*$//' >"$tmp/walk.cmds"
while read -r line; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    if (cd "$w" && timeout -k 5 120 sh -c "$line" >"$tmp/walk.out" 2>&1); then ok "README: $line"
    else bad "README: $line" "$(oneline "$tmp/walk.out" 3)"; fi
done <"$tmp/walk.cmds"
if [ "$n" -ge 5 ]; then ok "README walk-through: $n commands"; else bad "README walk-through" "$n commands found"; fi

# Absolute paths of a machine, in any tracked file. The pattern is built
# from pieces so that this file does not match it.
w=work h=home r=root u=Users
pat="/$w/|/$h/[a-z]|/$r/|/$u/[A-Za-z]"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z | xargs -0 grep -n -I -E "$pat" -- >"$tmp/abs" 2>/dev/null
else
    find . -path ./build -prune -o -path './build-*' -prune -o -path ./.git -prune -o -type f -print0 |
        xargs -0 grep -n -I -E "$pat" -- >"$tmp/abs" 2>/dev/null
fi
if [ -s "$tmp/abs" ]; then bad "absolute paths of a machine" "$(oneline "$tmp/abs" 5)"; else ok "no absolute paths"; fi
# the rule finds what it looks for
printf 'DATA=/%s/shared/data\n' "$w" >"$tmp/planted.sh"
if grep -q -E "$pat" "$tmp/planted.sh"; then ok "absolute path planted"; else bad "the absolute-path rule misses /$w/shared"; fi

# The checker on a planted tree: one dead reference of each kind, and
# their live twins, which it must accept.
t=$tmp/tree
mkdir -p "$t/docs" "$t/models" "$t/tests/bad"
printf '.SH 1. INPUT FILES\n.SS 1.2 horizon\n.SH 4. OBJECTIVE\n' >"$t/capplan.5"
: >"$t/models/load.c"
: >"$t/tests/bad/x.yaml"
cat >"$t/docs/a.md" <<'EOF'
See docs/a.md, models/load.c, tests/bad/x, capplan.5 §1.2 and §1-4,
[a](a.md) and man ./capplan.5.
See docs/gone.md, [b](b.md), man ./capplan.9, capplan.5 §7.1,
SPEC 3 and issue 12.
EOF
python3 "$check" "$t" >"$tmp/planted" 2>&1
prc=$?
cat >"$tmp/want" <<'EOF'
outside docs/a.md:4: SPEC
outside docs/a.md:4: issue 12
section docs/a.md:3: §7.1
path docs/a.md:3: docs/gone.md
man docs/a.md:3: ./capplan.9
link docs/a.md:3: b.md
EOF
if [ "$prc" = 1 ] && sort "$tmp/want" | cmp -s - "$(sort "$tmp/planted" >"$tmp/got"; echo "$tmp/got")"; then
    ok planted
else
    bad "check_refs.py on a planted tree: exit $prc" "$(oneline "$tmp/planted" 8)"
fi

test_done
