"""tests/suite_handoff.sh: export slurm's submit.sh submitted the plan's
pool jobs as planned, by the calls a stand-in `sbatch` recorded.

usage: python3 sbatch_as_planned.py PLAN DIR CALLS INPUT.yaml...
DIR is the export; CALLS holds "ID ARGS" per sbatch call. For every pool
job of the plan: one submission of its script, after those of its
predecessors on pools and with --dependency=afterok: on exactly their ids;
the script asks for --begin at horizon.start (UTC) plus its start hour,
--time its slots (minutes, rounded up), --nodes and --nodelist its nodes
through the pool's hosts, --cpus-per-task and --mem its share per node,
--gres=gpu:TYPE:k per node (a dataflow job: the node's GPUs, and
--exclusive). In every slot, the jobs on a node ask for no more GPUs,
CPUs and memory than it has, and an --exclusive job is alone: Slurm can
start jobs that share a node at once, each with its own GPUs.

Services (capplan.5 §10.4): each submission of a services/ script is one
replica on one host from its --begin for its --time; for every pool
deployment of the plan and every slot, the runs of its script (the
service and configuration its CAPPLAN_SERVICE and CAPPLAN_CONFIG say)
on each host are as many as the plan's replicas on that node; the script
asks for the configuration's CPUs, memory and GPUs; runs side by side on
a host have ports of their own (CAPPLAN_PORT) and count with the jobs in
the node's capacity. Prints one line per problem and a summary; exits 1
on a problem."""
import datetime
import math
import re
import shlex
import sys

import yaml

plan_path, folder, calls_path, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
plan = yaml.safe_load(open(plan_path, encoding="utf-8"))
pools, jobs, horizon, services = {}, {}, {}, {}
for f in files:
    doc = yaml.safe_load(open(f, encoding="utf-8")) or {}
    pools.update({p["name"]: p for p in doc.get("pools", [])})
    jobs.update({j["name"]: j for j in doc.get("jobs", [])})
    services.update({v["name"]: v for v in doc.get("services", [])})
    horizon.update(doc.get("horizon", {}))
slot_h = horizon.get("slot_hours", 1)
t0 = datetime.datetime.fromisoformat(str(horizon["start"]).replace("Z", "+00:00"))


def host(node):
    pool, i = node.rsplit("/", 1)
    h, first = pools[pool]["hosts"], 0
    if isinstance(h, list):
        return h[int(i)]
    if isinstance(h, dict):
        h, first = h["pattern"], h.get("first", 0)
    return h % (first + int(i))


problems = []
subs = {}  # plan index -> (id, order, dependency ids, directives)
replicas = []  # (script, directives, env, options) per services/ submission
for order, line in enumerate(open(calls_path, encoding="utf-8")):
    w = line.split()
    jid, script = w[0], w[-1]
    if script.startswith("services/"):
        d, env = {}, {}
        for l in open("%s/%s" % (folder, script), encoding="utf-8"):
            m = re.match(r"#SBATCH --([a-z-]+)(?:=(.*))?$", l.rstrip("\n"))
            if m:
                d[m.group(1)] = m.group(2) or ""
            m = re.match(r"(CAPPLAN_[A-Z_]+)=(.*)$", l.rstrip("\n"))
            if m:
                env[m.group(1)] = shlex.split(m.group(2))[0]
        opts = dict(a[2:].split("=", 1) for a in w[1:-1] if a.startswith("--") and "=" in a)
        replicas.append((script, d, env, opts))
        continue
    deps = set()
    for a in w[1:-1]:
        if a.startswith("--dependency=afterok:"):
            deps = set(a.split(":")[1:])
    d = {}
    for l in open("%s/%s" % (folder, script), encoding="utf-8"):
        m = re.match(r"#SBATCH --([a-z-]+)(?:=(.*))?$", l.rstrip("\n"))
        if m:
            d[m.group(1)] = m.group(2) or ""  # --exclusive: present, no value
    idx = int(re.match(r"jobs/(\d+)-", script).group(1))
    if idx in subs:
        problems.append("%s submitted twice" % script)
    subs[idx] = (jid, order, deps, d)

pool_jobs = {pj["name"]: (i, pj) for i, pj in enumerate(plan["jobs"])
             if pj["status"] == "scheduled" and pj["market"] == "pool"}
use = {}  # (host, slot) -> [gpus, cpus, MiB, jobs, exclusive]
for name, (i, pj) in pool_jobs.items():
    if i not in subs:
        problems.append("%s: never submitted" % name)
        continue
    jid, order, deps, d = subs[i]
    k, pool = len(pj["nodes"]), pools[pj["resource"]]
    node = pool["node"]
    dataflow = jobs[name]["kind"] == "dataflow"
    gpus = node.get("accelerators", 0) if dataflow else pj.get("count", 0) // k
    gpus = gpus if node.get("accelerator") else 0
    cpus = math.ceil(pj["cpus"] / k - 1e-9)
    mib = math.ceil(pj["memory_gb"] * 1024 / k - 1e-6)
    begin = t0 + datetime.timedelta(hours=pj["start_slot"] * slot_h)
    minutes = math.ceil(pj["slots"] * slot_h * 60 - 1e-9)
    want = {
        "begin": begin.strftime("%Y-%m-%dT%H:%M:%S"),
        "time": "%02d:%02d:00" % (minutes // 60, minutes % 60) if minutes < 1440 else d.get("time"),
        "nodes": str(k),
        "nodelist": ",".join(host(x) for x in pj["nodes"]),
        "cpus-per-task": str(max(cpus, 1)),
        "mem": "%dM" % max(mib, 1),
        "gres": "gpu:%s:%d" % (node["accelerator"], gpus) if gpus else None,
        "exclusive": "" if dataflow else None,
    }
    got = {key: d.get(key) for key in want}
    if got != want:
        problems.append("%s: the script asks for %r, the plan %r" % (name, got, want))
    pre = {subs[pool_jobs[a][0]][0] for a in jobs[name].get("after", []) if a in pool_jobs}
    if deps != pre:
        problems.append("%s: --dependency=afterok on %s, its predecessors on pools are %s"
                        % (name, sorted(deps), sorted(pre)))
    for a in jobs[name].get("after", []):
        if a in pool_jobs and subs[pool_jobs[a][0]][1] > order:
            problems.append("%s: submitted before its predecessor %s" % (name, a))
    for s in range(pj["start_slot"], pj["start_slot"] + pj["slots"]):
        for x in pj["nodes"]:
            u = use.setdefault((pj["resource"], host(x), s), [0, 0, 0, [], False])
            u[0] += gpus
            u[1] += max(cpus, 1)
            u[2] += max(mib, 1)
            u[3].append(name)
            u[4] |= dataflow


def check_replicas():
    """The services/ submissions against the plan's pool deployments;
    returns the count of pool deployments."""
    slots = int(horizon["slots"])
    have, ports = {}, {}  # (service, config, host, slot) -> runs; (host, slot) -> ports
    for script, d, env, opts in replicas:
        name, config = env.get("CAPPLAN_SERVICE"), int(env.get("CAPPLAN_CONFIG", -1))
        if name not in services or not 0 <= config < len(services[name]["replicas"]):
            problems.append("%s: no service and configuration of the inputs" % script)
            continue
        cf = services[name]["replicas"][config]
        want = {"nodes": "1", "ntasks-per-node": "1",
                "cpus-per-task": str(max(math.ceil(cf.get("cpus", 0) - 1e-9), 1)),
                "mem": "%dM" % max(math.ceil(cf.get("memory_gb", 0) * 1024 - 1e-6), 1),
                "gres": "gpu:%s:%d" % (cf["accelerator"], cf.get("count", 1))}
        got = {k: d.get(k) for k in want}
        if got != want:
            problems.append("%s: the script asks for %r, the configuration %r" % (script, got, want))
        begin = datetime.datetime.fromisoformat(opts["begin"] + "+00:00")
        first = round((begin - t0).total_seconds() / 3600 / slot_h)
        days, _, hms = opts["time"].rpartition("-")
        hh, mm, _ = (int(x) for x in hms.split(":"))
        n = round((int(days or 0) * 1440 + hh * 60 + mm) / 60 / slot_h)
        port = int(opts["export"].split("CAPPLAN_PORT=")[1])
        for s in range(first, first + n):
            key = (name, config, opts["nodelist"], s)
            have[key] = have.get(key, 0) + 1
            if port in ports.setdefault((opts["nodelist"], s), []):
                problems.append("%s, slot %d: two replicas on port %d" % (opts["nodelist"], s, port))
            ports[(opts["nodelist"], s)].append(port)
            pool = next(p for p in pools if any(host("%s/%d" % (p, i)) == opts["nodelist"]
                                                for i in range(pools[p]["nodes"])))
            u = use.setdefault((pool, opts["nodelist"], s), [0, 0, 0, [], False])
            u[0] += cf.get("count", 1)
            u[1] += int(want["cpus-per-task"])
            u[2] += int(want["mem"][:-1])
            u[3].append(name)
    deps = 0
    for e in plan.get("services", []):
        for dp in e["deployments"]:
            if dp["market"] != "pool" or not any(dp["replicas"]):
                continue
            deps += 1
            for s in range(slots):
                want = {}
                for x in dp.get("nodes", [[]] * slots)[s]:
                    want[host(x)] = want.get(host(x), 0) + 1
                hosts = set(want) | {k[2] for k in have if k[:2] == (e["name"], dp["config"]) and k[3] == s}
                for h in sorted(hosts):
                    got = have.get((e["name"], dp["config"], h, s), 0)
                    if got != want.get(h, 0):
                        problems.append("%s config %d on %s, slot %d: %d replicas run, planned %d"
                                        % (e["name"], dp["config"], h, s, got, want.get(h, 0)))
    return deps


n_pool_deps = check_replicas() if replicas or plan.get("services") else 0
for (pool, h, s), (g, c, m, names, excl) in sorted(use.items()):
    node = pools[pool]["node"]
    if g > node.get("accelerators", 0) or c > node["cpus"] or m > node["memory_gb"] * 1024:
        problems.append("%s, slot %d: %s ask for %d GPUs, %d CPUs, %d MiB of %d, %g, %g"
                        % (h, s, names, g, c, m, node.get("accelerators", 0), node["cpus"],
                           node["memory_gb"] * 1024))
    if excl and len(names) > 1:
        problems.append("%s, slot %d: %s share a node with an --exclusive job" % (h, s, names))
shared = [u[3] for u in use.values() if len(u[3]) > 1]
for p in problems:
    print(p)
if n_pool_deps:
    print("%d replica runs of %d pool deployment%s checked slot by slot"
          % (len(replicas), n_pool_deps, "" if n_pool_deps == 1 else "s"))
print("%d pool jobs, %d node-slots with jobs side by side (%d at most), %d problems"
      % (len(pool_jobs), len(shared), max([len(v) for v in shared] or [0]), len(problems)))
sys.exit(1 if problems else 0)
