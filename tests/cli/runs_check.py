"""tests/suite_cli.sh: every SkyPilot task of an export reads back (PyYAML,
the reader SkyPilot uses) with the run the input gives each of its jobs.

usage: python3 runs_check.py INPUT.yaml DIR LITERAL_COUNT
Prints one line per problem; exits 1 when there is one, or when the number
of tasks written as a literal block (`run: |`) is not LITERAL_COUNT."""
import glob
import re
import sys

import yaml

inp, folder, want_literal = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = {j["name"]: j.get("run") for j in yaml.safe_load(open(inp, encoding="utf-8"))["jobs"]}
problems, literal = [], 0
for path in sorted(glob.glob(folder + "/launch/*.yaml")):
    text = open(path, encoding="utf-8", newline="").read()
    literal += "\nrun: |\n" in text
    script = yaml.safe_load(text)["run"]
    parts = re.split(r"^# job '((?:[^']|'\\'')*)', from slot \d+\n", script, flags=re.M)
    if parts[0] != "set -e\n":
        problems.append("%s: does not start with 'set -e': %r" % (path, parts[0]))
    for name, body in zip(parts[1::2], parts[2::2]):
        name = name.replace("'\\''", "'")
        want = runs.get(name)
        want = want if want.endswith("\n") else want + "\n"
        if body != want:
            problems.append("%s: job %r runs %r, the input says %r" % (path, name, body, want))
if literal != want_literal:
    problems.append("%d tasks with run: |, want %d" % (literal, want_literal))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
