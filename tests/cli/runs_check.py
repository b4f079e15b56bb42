"""tests/suite_cli.sh: every SkyPilot task of an export reads back (PyYAML,
the reader SkyPilot uses) with the run the input gives its job.

usage: python3 runs_check.py INPUT.yaml DIR LITERAL_COUNT
Prints one line per problem; exits 1 when there is one, or when the number
of tasks written as a literal block (`run: |`) is not LITERAL_COUNT."""
import glob
import sys

import yaml

inp, folder, want_literal = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = {j["name"]: j.get("run") for j in yaml.safe_load(open(inp, encoding="utf-8"))["jobs"]}
problems, literal, seen = [], 0, set()
for path in sorted(glob.glob(folder + "/tasks/*.yaml")):
    text = open(path, encoding="utf-8", newline="").read()
    literal += "\nrun: |\n" in text
    task = yaml.safe_load(text)
    name = task["envs"]["CAPPLAN_JOB"]
    seen.add(name)
    want = runs.get(name)
    want = want if want.endswith("\n") else want + "\n"
    if task["run"] != want:
        problems.append("%s: job %r runs %r, the input says %r" % (path, name, task["run"], want))
if seen != set(runs):
    problems.append("tasks for %s, the input's jobs are %s" % (sorted(seen), sorted(runs)))
if literal != want_literal:
    problems.append("%d tasks with run: |, want %d" % (literal, want_literal))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
