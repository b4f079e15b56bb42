"""tests/suite_execution.sh: the Slurm nodes of an input's pools, so one
machine can stand in for the fleet a plan was made for.

usage: python3 fleet_conf.py STATE_DIR INPUT.yaml...
Writes STATE_DIR/nodes.conf (one NodeName line per pool node: its host name
from the pool's `hosts`, the pool's CPUs, memory in MiB and GPUs as GRES,
all on 127.0.0.1 with a port of its own from $CP_PORT + 1 on) and
STATE_DIR/gres.conf (per GPU node its GPUs, as links to /dev/null: gres/gpu
counts device files), and prints the node names, one a line. The inputs are
read with PyYAML and merged as capplan merges them (sequences
concatenated); only `pools` and `accelerators` are used."""
import math
import os
import sys

import yaml

state, files = sys.argv[1], sys.argv[2:]
pools = []
for f in files:
    doc = yaml.safe_load(open(f, encoding="utf-8")) or {}
    pools += doc.get("pools", [])
port = int(os.environ["CP_PORT"])


def host_names(pool):
    """The pool's hosts, as docs/spec-notes.md ("Execution") defines them."""
    h, n = pool["hosts"], pool["nodes"]
    if isinstance(h, list):
        return h
    first = 0
    if isinstance(h, dict):
        h, first = h["pattern"], h.get("first", 0)
    return [h % (first + i) for i in range(n)]  # %d, %02d; %% is a literal %


nodes, gres = [], []
for pool in pools:
    node = pool["node"]
    gpus = node.get("accelerators", 0) if node.get("accelerator") else 0
    for name in host_names(pool)[: pool["nodes"]]:
        line = "NodeName=%s NodeAddr=127.0.0.1 Port=%d CPUs=%d RealMemory=%d" % (
            name, port + 1 + len(nodes), math.ceil(node["cpus"]),
            math.ceil(node["memory_gb"] * 1024))
        if gpus:
            line += " Gres=gpu:%s:%d" % (node["accelerator"], gpus)
            dev = os.path.join(state, "dev", name)
            os.makedirs(dev, exist_ok=True)
            for k in range(gpus):
                os.symlink("/dev/null", os.path.join(dev, "gpu%d" % k))
            gres.append("NodeName=%s Name=gpu Type=%s File=%s/gpu[0-%d]" % (
                name, node["accelerator"], dev, gpus - 1))
        nodes.append((name, line))
with open(os.path.join(state, "nodes.conf"), "w") as out:
    for _, line in nodes:
        out.write(line + " State=UNKNOWN\n")
    out.write("PartitionName=fleet Nodes=%s Default=YES MaxTime=INFINITE State=UP\n"
              % ",".join(n for n, _ in nodes))
with open(os.path.join(state, "gres.conf"), "w") as out:
    out.write("".join(g + "\n" for g in gres))
for n, _ in nodes:
    print(n)
