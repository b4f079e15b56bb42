"""tests/suite_attack.sh: export skypilot on hostile strings
(tests/attack/names-cloud.yaml). Every file reads back with PyYAML (the
reader SkyPilot uses) to the input's own strings: a cluster's
resources.cloud and region are its offer's provider and region (the
cluster of a job is the one launch.sh runs its task on), a task's
envs.CAPPLAN_JOB is its job's name and its run that job's run (or the loud
failure of a job without one). launch.md's tables keep their 9 and 6
cells per row and hold no raw '<' of a name (Markdown passes HTML
through).

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
cloud = {j["name"]: j for j in plan["jobs"]
         if j["status"] == "scheduled" and j["market"] != "pool"}
problems = []


def load(path):
    return yaml.safe_load(open(path, encoding="utf-8", newline=""))


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


clusters = {}
for path in glob.glob(folder + "/clusters/*.yaml"):
    c = load(path)
    clusters[c["name"]] = c
# launch.sh: "sky exec -d CLUSTER tasks/FILE" for every task
on = dict((t, c) for c, t in re.findall(r"^sky exec -d (\S+) (\S+) ",
                                       open(folder + "/launch.sh", encoding="utf-8").read(), re.M))
seen = set()
for path in sorted(glob.glob(folder + "/tasks/*.yaml")):
    task = load(path)
    name = task["envs"]["CAPPLAN_JOB"]
    seen.add(name)
    if name not in cloud:
        problems.append("%s: CAPPLAN_JOB %r is no cloud job of the plan" % (path, name))
        continue
    run = runs.get(name)
    if run is None:
        msg = "capplan: job '%s' has no run command: add run: to it in the input" % name
        want = "printf '%%s\\n' %s >&2\nexit 1\n" % sh_quote(msg)
    else:
        want = run if run.endswith("\n") else run + "\n"
    if task["run"] != want:
        problems.append("%s: run is %r, want %r" % (path, task["run"], want))
    rel = path[len(folder) + 1:]
    res = clusters.get(on.get(rel), {}).get("resources", {})
    offer = offers[cloud[name]["resource"]]
    for key, want in (("cloud", offer.get("provider")), ("region", offer.get("region"))):
        if res.get(key) != want:
            problems.append("%s: its cluster's %s reads back as %r, the input says %r"
                            % (path, key, res.get(key), want))
if seen != set(cloud):
    problems.append("tasks for %r, the plan's cloud jobs are %r" % (sorted(seen), sorted(cloud)))

rows = [l for l in open(folder + "/launch.md", encoding="utf-8").read().split("\n") if l.startswith("|")]
widths = []
for row in rows:
    cells = re.split(r"(?<!\\)\|", row)
    widths.append(len(cells) - 2)
    if "<" in row:
        problems.append("launch.md: a raw '<' in %r" % row)
want = [9] * (2 + len(clusters)) + [6] * (2 + len(cloud))
if widths != want:
    problems.append("launch.md: rows of %r cells, want %r" % (widths, want))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
