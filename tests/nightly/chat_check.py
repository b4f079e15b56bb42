#!/usr/bin/env python3
"""The nightly example's chat service in a plan, re-derived by hand from
examples/nightly/services.yaml (capplan.5 §10.4), without capplan's code:

  - the plan has the service `chat`, with a deployment of replicas;
  - min_replicas (1) held in every slot: the replicas of all deployments;
  - each class's shares and unserved share add up to 1 in every slot;
  - unserved_requests = sum over classes and slots of load * u * 3600
    (slot_hours 1), and the requests served that total less it;
  - its cost = each replica's instance share (count / the offer's
    accelerators) * price_hour, + start_cost * the replicas each
    deployment adds over the slot before, + unserved_penalty * unserved
    (the offers have no site: no carbon; no pool: no energy).

Usage: chat_check.py PLAN SERVICES_YAML. Prints one line of figures;
exits 1 with the first mismatch."""
import sys

import yaml

plan = yaml.safe_load(open(sys.argv[1]))
inp = yaml.safe_load(open(sys.argv[2]))
svc = inp["services"][0]
offers = {o["name"]: o for o in inp["offers"]}
T = 24


def fail(msg):
    print(msg)
    sys.exit(1)


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(1.0, abs(b))


ps = [s for s in plan.get("services") or [] if s["name"] == svc["name"]]
if len(ps) != 1 or not ps[0].get("deployments"):
    fail("no service %r with deployments in the plan" % svc["name"])
ps = ps[0]
deps = ps["deployments"]
for t in range(T):
    n = sum(d["replicas"][t] for d in deps)
    if n < svc["min_replicas"]:
        fail("slot %d: %d replicas, min_replicas %d" % (t, n, svc["min_replicas"]))
cls = {c["name"]: c["load"] for c in svc["classes"]}
unserved = 0.0
for r in ps["routing"]:
    for t in range(T):
        s = sum(r["shares"][t]) + r["unserved"][t]
        if cls[r["class"]][t] > 0 and not close(s, 1.0):
            fail("class %s slot %d: shares and unserved add up to %.9g" % (r["class"], t, s))
        unserved += cls[r["class"]][t] * r["unserved"][t] * 3600
total = sum(sum(v) for v in cls.values()) * 3600
if not close(ps["unserved_requests"], unserved):
    fail("unserved_requests %.9g, by hand %.9g" % (ps["unserved_requests"], unserved))
cost, starts, rh = 0.0, 0, 0
for d in deps:
    cfg = svc["replicas"][d["config"]]
    off = offers[d["resource"]]
    share = cfg["count"] / off["instance"]["accelerators"]
    prev = 0
    for t in range(T):
        n = d["replicas"][t]
        cost += n * share * off["price_hour"]
        rh += n
        starts += max(0, n - prev)
        prev = n
cost += svc["start_cost"] * starts + svc["unserved_penalty"] * unserved
if not close(ps["cost"], cost):
    fail("cost %.9g, by hand %.9g" % (ps["cost"], cost))
print("chat: %d replica-hours, %d starts, %.2f of %.0f requests unserved, %.0f served, $%.2f"
      % (rh, starts, unserved, total, total - unserved, cost))
