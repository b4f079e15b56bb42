"""tests/suite_handoff.sh: export skypilot's launch.sh ran the plan's cloud
jobs as planned, by the calls a stand-in `sky` recorded.

usage: python3 sky_as_planned.py PLAN DIR CALLS INPUT.yaml...
DIR is the export; CALLS holds "CLOCK sky ARGS" per call (the fake clock
in seconds since 1970; horizon.start is the night's 0, in UTC when it
has no zone, as the stand-in date reads it).
For every cloud job of the plan: one `sky exec -d CLUSTER TASK` at its
planned start, on a cluster launched (`sky launch -c CLUSTER ... FILE`)
at the start of its first job and downed (`sky autostop CLUSTER ...
--down`) at the end of its last, of the job's offer (cloud, region,
instance type, spot or not); the task has num_nodes the instances the job
spans (no more than its cluster's), accelerators TYPE:k per node, its
CPUs per node and its run (or the loud failure of a job without one). In every slot, the jobs running on a cluster
use no more instances than the cluster has nodes, and no instance more
accelerators or CPUs than it holds: SkyPilot's job queue can start each at
once, side by side. Prints one line per problem and a summary; exits 1 on
a problem.

Services (capplan.5 §10.4): each cloud deployment of the plan is one
SkyServe service, brought up (`sky serve up -y -n NAME FILE`), scaled
(`sky serve update -y NAME FILE`) and taken down (`sky serve down -y
NAME`) so that at the start of every slot it has the replicas the plan
gives the deployment then (the `replicas:` of its last file), none
after the horizon; its files are of the deployment's offer and market,
with the service's port, readiness probe, run and CAPPLAN_SERVICE and
CAPPLAN_CONFIG envs."""
import datetime
import math
import sys

import yaml

plan_path, folder, calls_path, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
plan = yaml.safe_load(open(plan_path, encoding="utf-8"))
offers, jobs, horizon, services = {}, {}, {}, {}
for f in files:
    doc = yaml.safe_load(open(f, encoding="utf-8")) or {}
    offers.update({o["name"]: o for o in doc.get("offers", [])})
    jobs.update({j["name"]: j for j in doc.get("jobs", [])})
    services.update({v["name"]: v for v in doc.get("services", [])})
    horizon.update(doc.get("horizon", {}))
slot_s = horizon.get("slot_hours", 1) * 3600
# a start without a zone is read as UTC, as the stand-in date (TZ=UTC0) does
t0 = datetime.datetime.fromisoformat(str(horizon["start"]).replace("Z", "+00:00"))
t0 = (t0 if t0.tzinfo else t0.replace(tzinfo=datetime.timezone.utc)).timestamp()


def want_run(name):
    run = jobs[name].get("run")
    if run is None:  # the task fails loudly
        msg = "capplan: job '%s' has no run command: add run: to it in the input" % name
        return "printf '%%s\\n' '%s' >&2\nexit 1\n" % msg.replace("'", "'\\''")
    return run if run.endswith("\n") else run + "\n"


def load(rel):
    return yaml.safe_load(open("%s/%s" % (folder, rel), encoding="utf-8", newline=""))


problems = []
launch, stop, execs, serve = {}, {}, [], []
for line in open(calls_path, encoding="utf-8"):
    w = line.split()
    t, cmd, args = int(w[0]) - t0, w[2], w[3:]
    if cmd == "launch":
        name, yml = args[args.index("-c") + 1], args[-1]
        if name in launch:
            problems.append("cluster %s launched twice" % name)
        launch[name] = (t, load(yml))
    elif cmd == "exec":
        execs.append((t, args[-2], load(args[-1])))
    elif cmd == "serve":
        serve.append((t, args))
    elif cmd == "autostop" and "--down" in args:
        stop.setdefault(args[0], []).append(t)
    else:
        problems.append("an unexpected call: %s" % line.strip())

by_job = {}
for t, cluster, task in execs:
    by_job.setdefault(task["envs"]["CAPPLAN_JOB"], []).append((t, cluster, task))
cloud = [pj for pj in plan["jobs"] if pj["status"] == "scheduled" and pj["market"] != "pool"]
life = {}  # cluster -> its jobs' first start and last end, in seconds
use = {}  # (cluster, slot) -> {instance id: [accelerators, cpus]}
side = {}  # (cluster, slot) -> jobs running
for pj in cloud:
    name = pj["name"]
    runs = by_job.pop(name, [])
    if len(runs) != 1:
        problems.append("%s: %d sky exec, want 1" % (name, len(runs)))
        continue
    t, cluster, task = runs[0]
    start, end = pj["start_slot"] * slot_s, (pj["start_slot"] + pj["slots"]) * slot_s
    if t != start:
        problems.append("%s: queued at %+.0f s, planned at %+.0f s" % (name, t, start))
    lo, hi = life.get(cluster, (start, end))
    life[cluster] = (min(lo, start), max(hi, end))
    if cluster not in launch:
        problems.append("%s: runs on %s, which is never launched" % (name, cluster))
        continue
    lt, c = launch[cluster]
    offer, k = offers[pj["resource"]], len(pj["nodes"])
    res, inst = c.get("resources", {}), offer.get("instance", {})
    itype = offer["name"].split(":")[2].split("+")[0] if offer["name"].count(":") >= 2 else inst.get("type")
    want = {"cloud": offer.get("provider"), "region": offer.get("region"),
            "instance_type": itype, "use_spot": pj["market"] == "spot"}
    got = {key: res.get(key) for key in want}
    if got != want:
        problems.append("%s: cluster %s is %r, the offer %r" % (name, cluster, got, want))
    acc = inst.get("accelerators", 0) if inst.get("accelerator") else 0
    per = acc if jobs[name]["kind"] == "dataflow" else pj.get("count", 0) // k if acc else 0
    cpus = math.ceil(pj.get("cpus", 0) / k - 1e-9)
    tres = task.get("resources", {})
    want = {"num_nodes": k, "accelerators": "%s:%d" % (inst["accelerator"], per) if per else None,
            "cpus": cpus or None, "run": want_run(name)}
    got = {"num_nodes": task.get("num_nodes"), "accelerators": tres.get("accelerators"),
           "cpus": tres.get("cpus"), "run": task.get("run")}
    if got != want:
        problems.append("%s: the task is %r, the plan %r" % (name, got, want))
    if k > c.get("num_nodes", 1):
        problems.append("%s: %d nodes on %s of %d" % (name, k, cluster, c.get("num_nodes", 1)))
    for s in range(pj["start_slot"], pj["start_slot"] + pj["slots"]):
        side.setdefault((cluster, s), []).append(name)
        u = use.setdefault((cluster, s), {})
        for node in pj["nodes"]:
            a = u.setdefault(node, [0, 0])
            a[0] += per
            a[1] += cpus
for name in by_job:
    problems.append("%s: queued, but it is no cloud job of the plan" % name)
for cluster, (lo, hi) in sorted(life.items()):
    lt = launch.get(cluster, (None,))[0]
    if lt != lo:
        problems.append("%s: launched at %s s, its first job starts at %.0f s" % (cluster, lt, lo))
    if stop.get(cluster) != [hi]:
        problems.append("%s: downed at %s s, its last job ends at %.0f s" % (cluster, stop.get(cluster), hi))
for name in set(launch) - set(life):
    problems.append("%s: launched, but no job runs on it" % name)
for (cluster, s), u in sorted(use.items()):
    offer = launch[cluster][1]["resources"]
    nodes = launch[cluster][1].get("num_nodes", 1)
    pj0 = next(p for p in cloud if p["name"] == side[(cluster, s)][0])
    inst = offers[pj0["resource"]]["instance"]
    if len(u) > nodes:
        problems.append("%s, slot %d: %d instances in use on %d nodes" % (cluster, s, len(u), nodes))
    for node, (a, c) in sorted(u.items()):
        if a > inst.get("accelerators", 0) or c > inst.get("cpus", 0):
            problems.append("%s, slot %d: %s holds %d accelerators and %d CPUs of %d and %g"
                            % (cluster, s, node, a, c, inst.get("accelerators", 0), inst.get("cpus", 0)))


def offer_resources(offer, spot):
    inst = offer.get("instance", {})
    itype = offer["name"].split(":")[2].split("+")[0] if offer["name"].count(":") >= 2 else inst.get("type")
    return {"cloud": offer.get("provider"), "region": offer.get("region"),
            "instance_type": itype, "use_spot": spot}


def check_services():
    """The SkyServe calls against the plan's cloud deployments; returns
    how many there are."""
    count, spec, seen = {}, {}, {}  # SkyServe name -> replicas now, its deployment, when set
    slots = int(horizon["slots"])
    at = {}  # slot -> {name: replicas at its start}
    calls = sorted(serve, key=lambda c: c[0])

    def settle(upto):
        for s in range(slots + 1):
            if s * slot_s <= upto and s not in at:
                at[s] = None
    i = 0
    for s in range(slots + 1):
        while i < len(calls) and calls[i][0] <= s * slot_s:
            t, args = calls[i]
            i += 1
            if t % slot_s:
                problems.append("sky serve %s at %+.0f s: not at a slot's start" % (" ".join(args), t))
            verb = args[0]
            if verb in ("up", "update"):
                name = args[args.index("-n") + 1] if verb == "up" else args[2]
                if (verb == "up") != (count.get(name, 0) == 0):
                    problems.append("%s: sky serve %s while it has %d replicas" % (name, verb, count.get(name, 0)))
                doc = load(args[-1])
                count[name] = doc["service"]["replicas"]
                key = (doc["envs"]["CAPPLAN_SERVICE"], int(doc["envs"]["CAPPLAN_CONFIG"]),
                       doc["resources"].get("region"), doc["resources"].get("instance_type"),
                       doc["resources"].get("use_spot"))
                if spec.setdefault(name, (key, doc))[0] != key:
                    problems.append("%s: its files are of %r and %r" % (name, spec[name][0], key))
            elif verb == "down" and "-y" in args:
                count[args[-1]] = 0
            else:
                problems.append("an unexpected call: sky serve %s" % " ".join(args))
        at[s] = dict(count)
    deps = []
    for e in plan.get("services", []):
        for d in e["deployments"]:
            if d["market"] in ("on_demand", "spot") and any(d["replicas"]):
                deps.append((e["name"], d))
    for name, d in deps:
        offer = offers[d["resource"]]
        want_res = offer_resources(offer, d["market"] == "spot")
        key = (name, d["config"], want_res["region"], want_res["instance_type"], want_res["use_spot"])
        mine = [n for n, (k, _) in spec.items() if k == key]
        if len(mine) != 1:
            problems.append("%s config %d on %s: %d SkyServe services, want 1" % (name, d["config"], d["resource"], len(mine)))
            continue
        n, doc = mine[0], spec[mine[0]][1]
        sv = services[name]
        run = sv.get("run")
        if run is None:
            msg = "capplan: service '%s' has no run command: add run: to it in the input" % name
            run = "printf '%%s\\n' '%s' >&2\nexit 1\n" % msg.replace("'", "'\\''")
        elif not run.endswith("\n"):
            run += "\n"
        res = doc["resources"]
        got = {k: res.get(k) for k in want_res}
        got.update(ports=res.get("ports"), probe=doc["service"].get("readiness_probe"), run=doc.get("run"))
        want_res.update(ports=sv.get("port", 8080), probe=sv.get("readiness_probe", "/"), run=run)
        if got != want_res:
            problems.append("%s: its file is %r, the plan %r" % (n, got, want_res))
        for s in range(slots + 1):
            want = d["replicas"][s] if s < slots else 0
            have = at[s].get(n, 0)
            if have != want:
                problems.append("%s (%s config %d on %s), slot %d: %d replicas, planned %d"
                                % (n, name, d["config"], d["resource"], s, have, want))
    for n in spec:
        if not any(spec[n][0][:2] == (name, d["config"]) and spec[n][0][2:] == tuple(
                offer_resources(offers[d["resource"]], d["market"] == "spot")[k]
                for k in ("region", "instance_type", "use_spot")) for name, d in deps):
            problems.append("%s: no cloud deployment of the plan" % n)
    return len(deps)


n_serve = check_services() if serve or plan.get("services") else 0
shared = [v for v in side.values() if len(v) > 1]
for p in problems:
    print(p)
if n_serve:
    print("%d SkyServe services with the planned replicas in every slot" % n_serve)
print("%d cloud jobs on %d cluster%s, %d cluster-slots with jobs side by side (%d at most), %d problems"
      % (len(cloud), len(launch), "" if len(launch) == 1 else "s", len(shared), max([len(v) for v in shared] or [0]), len(problems)))
sys.exit(1 if problems else 0)
