#!/bin/sh
# Drop reasons that name the real cause (docs/spec-notes.md): each input of
# tests/reasons/ (its cause derived in its header comment) and
# tests/plan/precedence_drop.yaml (a predecessor the optimizer drops, one
# without a mode) is planned by every method; the dropped jobs' reasons,
# one `job: reason` line each, must equal tests/reasons/NAME.reasons byte
# for byte, and every plan must verify. `--update` (or CP_GOLDEN_UPDATE=1)
# rewrites the goldens that differ: read the diff.
SUITE=reasons
. "$(dirname "$0")/lib.sh"

methods="milp heuristic auto lagrange pop"

# reasons PLAN: the dropped jobs of a YAML plan as `name: reason` lines
reasons() {
    awk '
        /^- name: / { name = substr($0, 9); st = "" }
        /^  status: / { st = substr($0, 11) }
        /^  reason: / { r = substr($0, 11); inr = 1; if (st == "dropped") out = name ": " r; next }
        inr && /^    / { sub(/^    /, " "); out = out $0; next }
        { if (inr && out != "") print out; inr = 0; out = "" }
        END { if (inr && out != "") print out }
    ' "$1" | sed -e "s/: '\\(.*\\)'\$/: \\1/" -e "s/''/'/g"
}

for f in tests/reasons/*.yaml tests/plan/precedence_drop.yaml; do
    name=$(basename "$f" .yaml)
    for m in $methods; do
        plan_verify "$name/$m" "$tmp/$name.$m.yaml" --method "$m" -- "$f" || continue
        reasons "$tmp/$name.$m.yaml" >"$tmp/$name.$m.reasons"
        if [ "$m" = milp ]; then
            test_cmp "tests/reasons/$name.reasons" "$tmp/$name.$m.reasons"
        elif cmp -s "$tmp/$name.milp.reasons" "$tmp/$name.$m.reasons"; then
            ok
        else
            bad "$name/$m" "reasons differ from milp's: $(diff "$tmp/$name.milp.reasons" "$tmp/$name.$m.reasons" | grep '^>' | head -n 2 | tr '\n' ' ')"
        fi
    done
done
test_done
