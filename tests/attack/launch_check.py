"""tests/suite_attack.sh: export skypilot on hostile strings
(tests/attack/names-cloud.yaml). Every task reads back with PyYAML (the
reader SkyPilot uses) to the input's own strings: resources.cloud and
region are the offer's provider and region, each "# job" comment line of
run: names one of the lease's jobs, single-quoted, and is one line; the
body after it is that job's run (or the loud failure of a job without
one). launch.md's table keeps 7 cells per row and holds no raw '<' of a
name (Markdown passes HTML through).

usage: python3 launch_check.py INPUT.yaml PLAN.yaml DIR
Prints one line per problem; exits 1 when there is one."""
import glob
import re
import sys

import yaml

inp_path, plan_path, folder = sys.argv[1:4]
inp = yaml.safe_load(open(inp_path, encoding="utf-8"))
plan = yaml.safe_load(open(plan_path, encoding="utf-8"))
offers = {o["name"]: o for o in inp["offers"]}
runs = {j["name"]: j.get("run") for j in inp["jobs"]}
leases = [(p["market"], l) for p in plan["provisioning"] for l in p.get("leases", [])]
problems = []
tasks = sorted(glob.glob(folder + "/launch/*.yaml"))
if len(tasks) != len(leases):
    problems.append("%d tasks for %d leases" % (len(tasks), len(leases)))


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


for path, (market, lease) in zip(tasks, leases):
    task = yaml.safe_load(open(path, encoding="utf-8", newline=""))
    offer = offers[market]
    res = task["resources"]
    for key, want in (("cloud", offer.get("provider")), ("region", offer.get("region"))):
        if res.get(key) != want:
            problems.append("%s: %s reads back as %r, the input says %r" % (path, key, res.get(key), want))
    script = task["run"]
    want = "set -e\n"
    for name in lease["jobs"]:
        slot = next(j["start_slot"] for j in plan["jobs"] if j["name"] == name)
        want += "# job %s, from slot %d\n" % (sh_quote(name), slot)
        run = runs.get(name)
        if run is None:
            msg = "capplan: job '%s' has no run command: add run: to it in the input" % name
            want += "echo %s >&2\nexit 1\n" % sh_quote(msg)
        else:
            want += run if run.endswith("\n") else run + "\n"
    if script != want:
        problems.append("%s: run is %r, want %r" % (path, script, want))

rows = [l for l in open(folder + "/launch.md", encoding="utf-8").read().split("\n") if l.startswith("|")]
for row in rows:
    cells = re.split(r"(?<!\\)\|", row)
    if len(cells) != 9:  # 7 cells between 8 bars
        problems.append("launch.md: %d cells in %r" % (len(cells) - 2, row))
    if "<" in row:
        problems.append("launch.md: a raw '<' in %r" % row)
if len(rows) != 2 + len(leases):
    problems.append("launch.md: %d table rows for %d leases" % (len(rows) - 2, len(leases)))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
