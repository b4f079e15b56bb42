"""tests/suite_execution.sh: after replan.sh, Slurm holds the re-plan.

usage: python3 replan_as_planned.py NEW OLD NOW SUBMIT_OUT REPLAN_OUT INPUT.yaml...
NEW is the re-plan of OLD from slot NOW (capplan.5 §10.5), SUBMIT_OUT what
OLD's submit.sh printed ("ID NAME" per job), REPLAN_OUT what NEW's
replan.sh printed ("ID NAME" per job it submits, "ID NAME start moved" per
pending job whose start it moved), INPUT the inputs (hosts, horizon.start).
The rules come from the two plans, not from the exporter
(docs/execution.md, section 6), per job name:
- NEW runs it on a pool with OLD's run (a started job, or one whose
  resource, count, nodes and start are OLD's): OLD's Slurm job, not
  cancelled, and nothing new submitted for it;
- NEW runs it on a pool on OLD's nodes with only another start, and OLD
  had not started it: OLD's Slurm job, still pending, its start moved;
- NEW runs it on a pool otherwise: a new Slurm job, and OLD's (if any)
  CANCELLED;
- NEW does not run it on a pool (cloud, dropped, gone): OLD's Slurm job,
  if any, CANCELLED.
Every live job (not CANCELLED) is on the plan's nodes with the plan's
start as its begin time (pending: StartTime, running or done: at or after
it) and its predecessors' live jobs as afterok dependencies when it is
new; no other job of the name is alive. Prints one line per problem and a
summary; exits 1 on a problem."""
import calendar
import subprocess
import sys
import time

import yaml

new_path, old_path, now, submit_out, replan_out = sys.argv[1:6]
now, files = int(now), sys.argv[6:]
new = {j["name"]: j for j in yaml.safe_load(open(new_path, encoding="utf-8"))["jobs"]}
old = {j["name"]: j for j in yaml.safe_load(open(old_path, encoding="utf-8"))["jobs"]}
pools, jobs, horizon = {}, {}, {}
for f in files:
    doc = yaml.safe_load(open(f, encoding="utf-8")) or {}
    pools.update({p["name"]: p for p in doc.get("pools", [])})
    jobs.update({j["name"]: j for j in doc.get("jobs", [])})
    horizon.update(doc.get("horizon", {}))
t0 = calendar.timegm(time.strptime(horizon["start"], "%Y-%m-%dT%H:%M:%SZ"))
slot_s = horizon.get("slot_hours", 1) * 3600


def ids_of(path):
    out, moved = {}, set()
    for line in open(path, encoding="utf-8"):
        jid, name = line.rstrip("\n").split(" ", 1)
        if name.endswith(" start moved"):
            name = name[: -len(" start moved")]
            moved.add(name)
        out[name] = jid
    return out, moved


sub, _ = ids_of(submit_out)
re_ids, re_moved = ids_of(replan_out)


def host(node):
    pool, i = node.rsplit("/", 1)
    h, first = pools[pool]["hosts"], 0
    if isinstance(h, list):
        return h[int(i)]
    if isinstance(h, dict):
        h, first = h["pattern"], h.get("first", 0)
    return h % (first + int(i))


def show(jid):
    out = subprocess.run(["scontrol", "-o", "show", "job", jid], capture_output=True,
                         text=True).stdout
    return dict(kv.split("=", 1) for kv in out.split() if "=" in kv)


def hosts(expr):
    return sorted(subprocess.run(["scontrol", "show", "hostnames", expr], capture_output=True,
                                 text=True).stdout.split())


def stamp(s):  # scontrol's times, in the TZ the suite gives (UTC)
    return calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%S"))


def on_pool(j):
    return j is not None and j.get("status") == "scheduled" and j.get("market") == "pool"


def run_of(j):
    return (j["resource"], j["count"], j.get("shape"), j.get("power_limit_w"), j["nodes"])


problems, n = [], {"kept": 0, "moved": 0, "new": 0, "cancelled": 0}
live = {}
for name in sorted(set(old) | set(new)):
    o, w = old.get(name), new.get(name)
    if name in sub and not on_pool(o):
        problems.append("%s: OLD's submit.sh submitted a job OLD did not run on a pool" % name)
    if on_pool(w):
        if on_pool(o) and run_of(o) == run_of(w) and (o["start_slot"] == w["start_slot"] or
                                                      o["start_slot"] >= now):
            want = "kept" if o["start_slot"] == w["start_slot"] else "moved"
            jid = sub.get(name)
        else:
            want, jid = "new", re_ids.get(name)
        if jid is None:
            problems.append("%s: no Slurm job for it (%s)" % (name, want))
            continue
        n[want] += 1
        live[name] = jid
        if want != "new" and name in re_ids and name not in re_moved:
            problems.append("%s: replan.sh submitted it again" % name)
        if want == "moved" and name not in re_moved:
            problems.append("%s: replan.sh did not say it moved its start" % name)
        if want == "new" and on_pool(o) and show(sub[name]).get("JobState") != "CANCELLED":
            problems.append("%s: OLD's job %s is %s, not CANCELLED" %
                            (name, sub[name], show(sub[name]).get("JobState")))
    elif on_pool(o):
        n["cancelled"] += 1
        st = show(sub[name]).get("JobState")
        if st != "CANCELLED":
            problems.append("%s: OLD's job %s is %s, not CANCELLED" % (name, sub[name], st))
for name, jid in live.items():
    w, f = new[name], show(jid)
    st, begin = f.get("JobState"), t0 + w["start_slot"] * slot_s
    if st in (None, "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL"):
        problems.append("%s (job %s): %s" % (name, jid, st))
        continue
    nodes = hosts(f.get("ReqNodeList", "(null)") if st == "PENDING" else f.get("NodeList", ""))
    if nodes != sorted(host(x) for x in w["nodes"]):
        problems.append("%s (job %s): nodes %s, the plan says %s" % (name, jid, nodes, w["nodes"]))
    got = stamp(f["StartTime"])
    if (st == "PENDING" and got != begin) or (st != "PENDING" and got < begin):
        problems.append("%s (job %s, %s): starts at %s, the plan at %s" % (
            name, jid, st, f["StartTime"], time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(begin))))
    if jid in re_ids.values() and name not in re_moved:
        for pred in jobs[name].get("after") or []:
            p = live.get(pred)
            if p and show(p).get("JobState") in ("PENDING", "RUNNING") and \
                    "afterok:%s" % p not in f.get("Dependency", ""):
                problems.append("%s (job %s): no afterok on %s's job %s: %s" % (
                    name, jid, pred, p, f.get("Dependency")))
alive = subprocess.run(["squeue", "-h", "-o", "%i %j"], capture_output=True, text=True).stdout
for line in alive.splitlines():
    jid, name = line.split(" ", 1)
    if name in old or name in new:
        if live.get(name) != jid:
            problems.append("%s: job %s is alive, the plan's is %s" % (name, jid, live.get(name)))
for p in problems:
    print(p)
print("%d kept, %d start moved, %d new, %d cancelled; %d problems" % (
    n["kept"], n["moved"], n["new"], n["cancelled"], len(problems)))
sys.exit(1 if problems else 0)
