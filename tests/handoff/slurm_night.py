"""tests/suite_handoff.sh: what Slurm ran of a night re-planned at slot S.

Usage: slurm_night.py CALLS START SLOT_HOURS S

CALLS holds the stand-ins' calls (tests/handoff/bin) of OLD's submit.sh
and then of the re-plan's replan.sh, run at slot S: "ID ARGS" per sbatch,
"N scancel ID" per scancel, "N scontrol update JobId=ID ..." per
scontrol. Prints the sbatch lines of what ran, as sbatch_as_planned.py
reads them: a run whose TimeLimit= scontrol cut runs for that long, a
run cancelled before its --begin
(START plus its slots of SLOT_HOURS) is left out, and one cancelled while
it ran (begun before S) ends at S: its --time is cut to S less its first
slot."""
import datetime
import sys

calls, start, slot_h, now = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
t0 = datetime.datetime.fromisoformat(start.replace("Z", "+00:00"))
lines = [line.split() for line in open(calls, encoding="utf-8")]
gone = {w[2] for w in lines if len(w) > 2 and w[1] == "scancel"}
limit = {}  # job id -> its TimeLimit= from the stand-in scontrol
for w in lines:
    if len(w) > 3 and w[1] == "scontrol" and w[2] == "update":
        for a in w[4:]:
            if a.startswith("TimeLimit="):
                limit[w[3][len("JobId="):]] = a[len("TimeLimit="):]
for w in lines:
    if len(w) > 1 and w[1] in ("scancel", "scontrol"):
        continue
    if w[0] in limit:
        w = [a if not a.startswith("--time=") else "--time=" + limit[w[0]] for a in w]
    if w[0] in gone:
        begin = next(a for a in w if a.startswith("--begin="))[len("--begin="):]
        b = datetime.datetime.fromisoformat(begin + "+00:00")
        first = round((b - t0).total_seconds() / 3600 / slot_h)
        if first >= now:
            continue
        minutes = round((now - first) * slot_h * 60)
        w = [a if not a.startswith("--time=") else "--time=%02d:%02d:00" % divmod(minutes, 60) for a in w]
    print(" ".join(w))
