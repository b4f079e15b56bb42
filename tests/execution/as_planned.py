"""tests/suite_execution.sh: the plan's pool jobs ran on Slurm as planned.

usage: python3 as_planned.py PLAN SUBMIT_OUT TRACE_DIR INPUT.yaml...
SUBMIT_OUT is what the exported submit.sh printed ("ID NAME" per job);
TRACE_DIR holds one file per job name with "start T" and "end T" lines
(the stand-in payload writes them). For every job the plan runs on a pool:
`scontrol show job` says COMPLETED, on the plan's nodes through the pool's
hosts, with the plan's CPUs and memory per node, its GPUs per node as
GRES, and its slots as the time limit (minutes, rounded up); every job
started after each of its predecessors (`after`) ended. Prints one line
per problem and a summary; exits 1 on a problem."""
import math
import subprocess
import sys

import yaml

plan_path, submit_out, trace, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
plan = yaml.safe_load(open(plan_path, encoding="utf-8"))
pools, jobs, horizon = {}, {}, {}
for f in files:
    doc = yaml.safe_load(open(f, encoding="utf-8")) or {}
    pools.update({p["name"]: p for p in doc.get("pools", [])})
    jobs.update({j["name"]: j for j in doc.get("jobs", [])})
    horizon.update(doc.get("horizon", {}))
slot_h = horizon.get("slot_hours", 1)
ids = {}
for line in open(submit_out, encoding="utf-8"):
    jid, name = line.rstrip("\n").split(" ", 1)
    ids[name.strip("'")] = jid


def host(node):
    pool, i = node.rsplit("/", 1)
    h, first = pools[pool]["hosts"], 0
    if isinstance(h, list):
        return h[int(i)]
    if isinstance(h, dict):
        h, first = h["pattern"], h.get("first", 0)
    return h % (first + int(i))


def times(name):
    t = dict(l.split() for l in open("%s/%s" % (trace, name), encoding="utf-8"))
    return float(t["start"]), float(t["end"])


problems, n = [], 0
for pj in plan["jobs"]:
    if pj["status"] != "scheduled" or pj["market"] != "pool":
        continue
    n += 1
    name = pj["name"]
    if name not in ids:
        problems.append("%s: submit.sh did not submit it" % name)
        continue
    out = subprocess.run(["scontrol", "-o", "show", "job", ids[name]], capture_output=True,
                         text=True).stdout
    f = dict(kv.split("=", 1) for kv in out.split() if "=" in kv)
    got_nodes = subprocess.run(["scontrol", "show", "hostnames", f.get("NodeList", "")],
                               capture_output=True, text=True).stdout.split()
    k = len(pj["nodes"])
    mem = f.get("MinMemoryNode", "0M")
    mem_mib = float(mem[:-1]) * {"M": 1, "G": 1024, "T": 1048576}[mem[-1]]
    tl = f.get("TimeLimit", "0:0:0").split("-")
    hms = [int(x) for x in tl[-1].split(":")]
    minutes = (int(tl[0]) * 1440 if len(tl) > 1 else 0) + hms[0] * 60 + hms[1]
    gpus = pj["count"] // k if jobs[name]["kind"] == "training" and pj.get("accelerator") else 0
    want = {
        "state": "COMPLETED",
        "nodes": sorted(host(x) for x in pj["nodes"]),
        "cpus/node": math.ceil(pj["cpus"] / k - 1e-9),
        "MiB/node": math.ceil(pj["memory_gb"] * 1024 / k - 1e-9),
        "gres/node": "gres:gpu:%s:%d" % (pj["accelerator"], gpus) if gpus else "",
        "minutes": math.ceil(pj["slots"] * slot_h * 60 - 1e-9),
    }
    got = {
        "state": f.get("JobState"),
        "nodes": sorted(got_nodes),
        "cpus/node": int(f.get("CPUs/Task", 0)),
        "MiB/node": round(mem_mib),
        "gres/node": f.get("TresPerNode", ""),
        "minutes": minutes,
    }
    for key in want:
        if want[key] != got[key]:
            problems.append("%s (job %s): %s is %r, the plan says %r" % (name, ids[name], key,
                                                                         got[key], want[key]))
for name, j in jobs.items():
    for pred in j.get("after") or []:
        if name in ids and pred in ids and times(name)[0] < times(pred)[1]:
            problems.append("%s started before its predecessor %s ended" % (name, pred))
for p in problems:
    print(p)
print("%d pool jobs, %d problems" % (n, len(problems)))
sys.exit(1 if problems or n == 0 else 0)
