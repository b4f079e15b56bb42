#!/usr/bin/python3
"""bench/highs_lp.py: HiGHS on capplan's exported model (bench tooling).

Bench tooling, not product: `make bench` and docs/performance.md use it to
compare capplan's plans with HiGHS's on the same model; nothing in capplan
depends on it.  It needs Debian's python3-scipy (HiGHS as
scipy.optimize.milp, scipy >= 1.9); run it with /usr/bin/python3.

    /usr/bin/python3 bench/highs_lp.py MODEL.lp SOLUTION [TIME_LIMIT_S]

reads MODEL.lp, the CPLEX LP file `capplan plan --export-lp` writes through
GLPK's glp_write_lp, into matrices, solves it with milp(time_limit=...) and
writes SOLUTION in CBC's solu format ("STATUS - objective value X", then
"INDEX NAME VALUE COST" per nonzero column), which `capplan place
--solution SOLUTION INPUTS...` reads.  One summary line goes to stderr:

    highs: status=S objective=X bound=B gap=G time_s=T rows=R cols=C ints=I

The LP reader covers the subset glp_write_lp writes: '\\' comments, one
Minimize/Maximize objective (a constant term allowed), Subject To rows
"name: TERMS (<=|>=|=) RHS" over any number of lines, Bounds ("l <= x <= u",
"x >= l", "x <= u", "-inf <= x <= u", "x = v", "x free"), Generals,
Binaries and End.  A column without a bound line is [0, +inf); a binary is
[0, 1].  Anything else is an error with its line number.

Exit status: 0 with a solution written (optimal or stopped with an
incumbent), 1 when HiGHS found none (the file then says "No integer
solution" or "Infeasible", which place refuses or reports), 2 on a bad
model or usage.
"""
import re
import sys
import time

SENSES = {"<=": "L", "=<": "L", "<": "L", ">=": "G", "=>": "G", ">": "G", "=": "E"}
NUM = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
INF = {"inf", "+inf", "infinity", "+infinity"}
NINF = {"-inf", "-infinity"}


class LPError(Exception):
    pass


def number(tok, lineno):
    t = tok.lower()
    if t in INF:
        return float("inf")
    if t in NINF:
        return float("-inf")
    if not NUM.match(tok):
        raise LPError("line %d: expected a number, found '%s'" % (lineno, tok))
    return float(tok)


def is_number(tok):
    return bool(NUM.match(tok)) or tok.lower() in INF or tok.lower() in NINF


class Model:
    def __init__(self):
        self.names = []          # column names in order of first use
        self.index = {}          # name -> column
        self.obj = {}            # column -> coefficient
        self.obj_const = 0.0
        self.sense = 1           # 1 minimize, -1 maximize
        self.rows = []           # (name, {col: coef}, sense, rhs)
        self.lb = {}
        self.ub = {}
        self.ints = set()
        self.bins = set()

    def col(self, name):
        j = self.index.get(name)
        if j is None:
            j = self.index[name] = len(self.names)
            self.names.append(name)
        return j


def parse_terms(toks, m, lineno_of, allow_const):
    """toks: [(tok, line)] of '+ 3 x - y + 2.5 z ...'; returns ({col: coef}, const)."""
    terms, const = {}, 0.0
    i, n = 0, len(toks)
    while i < n:
        sign = 1.0
        tok, ln = toks[i]
        if tok in ("+", "-"):
            sign = -1.0 if tok == "-" else 1.0
            i += 1
            if i >= n:
                raise LPError("line %d: a sign without a term" % ln)
            tok, ln = toks[i]
        coef = 1.0
        if is_number(tok):
            coef = number(tok, ln)
            i += 1
            if i >= n or toks[i][0] in ("+", "-"):
                if not allow_const:
                    raise LPError("line %d: a constant term where a variable was expected" % ln)
                const += sign * coef
                continue
            tok, ln = toks[i]
        if is_number(tok) or tok in SENSES or tok.endswith(":"):
            raise LPError("line %d: expected a variable name, found '%s'" % (ln, tok))
        j = m.col(tok)
        terms[j] = terms.get(j, 0.0) + sign * coef
        i += 1
    return terms, const


def read_lp(path):
    m = Model()
    section = None
    sections = {"minimize": "obj", "minimum": "obj", "min": "obj",
                "maximize": "obj", "maximum": "obj", "max": "obj",
                "subject to": "rows", "such that": "rows", "st": "rows", "s.t.": "rows",
                "bounds": "bounds", "bound": "bounds",
                "generals": "gen", "general": "gen", "gen": "gen",
                "binaries": "bin", "binary": "bin", "bin": "bin", "end": "end"}
    obj_toks, row_toks = [], []   # [(tok, line)]
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("\\", 1)[0].strip()
            if not line:
                continue
            key = line.lower()
            if key in sections:
                section = sections[key]
                if key.startswith("max"):
                    m.sense = -1
                if section == "end":
                    break
                continue
            if section is None:
                raise LPError("line %d: text before the objective section" % lineno)
            toks = [(t, lineno) for t in line.replace(":", ": ").split()]
            # "name:" may have been split into "name:" already; join "name" ":" pairs
            fixed = []
            for t, ln in toks:
                if t == ":" and fixed:
                    fixed[-1] = (fixed[-1][0] + ":", ln)
                else:
                    fixed.append((t, ln))
            toks = fixed
            if section == "obj":
                obj_toks.extend(toks)
            elif section == "rows":
                row_toks.extend(toks)
            elif section == "bounds":
                bound_line([t for t, _ in toks], m, lineno)
            elif section in ("gen", "bin"):
                for t, _ in toks:
                    j = m.col(t)
                    (m.ints if section == "gen" else m.bins).add(j)
    if section != "end":
        raise LPError("no End line: the file is cut short")
    if obj_toks and obj_toks[0][0].endswith(":"):
        obj_toks = obj_toks[1:]
    m.obj, m.obj_const = parse_terms(obj_toks, m, None, True)
    # rows: name: TERMS SENSE RHS
    i, n = 0, len(row_toks)
    while i < n:
        tok, ln = row_toks[i]
        name = "r%d" % (len(m.rows) + 1)
        if tok.endswith(":"):
            name = tok[:-1]
            i += 1
        start = i
        while i < n and row_toks[i][0] not in SENSES:
            i += 1
        if i + 1 >= n:
            raise LPError("line %d: row '%s' has no sense and right-hand side" % (ln, name))
        terms, const = parse_terms(row_toks[start:i], m, None, False)
        sense = SENSES[row_toks[i][0]]
        rhs = number(row_toks[i + 1][0], row_toks[i + 1][1])
        m.rows.append((name, terms, sense, rhs - const))
        i += 2
    return m


def bound_line(t, m, lineno):
    low = [x.lower() for x in t]
    if len(t) == 2 and low[1] == "free":
        j = m.col(t[0])
        m.lb[j], m.ub[j] = float("-inf"), float("inf")
    elif len(t) == 5 and t[1] in ("<=", "<") and t[3] in ("<=", "<"):
        j = m.col(t[2])
        m.lb[j], m.ub[j] = number(t[0], lineno), number(t[4], lineno)
    elif len(t) == 3 and t[1] in SENSES and not is_number(t[0]):
        j, v = m.col(t[0]), number(t[2], lineno)
        s = SENSES[t[1]]
        if s == "L":
            m.ub[j] = v
        elif s == "G":
            m.lb[j] = v
        else:
            m.lb[j] = m.ub[j] = v
    elif len(t) == 3 and t[1] in SENSES and is_number(t[0]):
        j, v = m.col(t[2]), number(t[0], lineno)
        s = SENSES[t[1]]   # v <= x is x >= v
        if s == "L":
            m.lb[j] = v
        elif s == "G":
            m.ub[j] = v
        else:
            m.lb[j] = m.ub[j] = v
    else:
        raise LPError("line %d: not a bound of the GLPK subset: '%s'" % (lineno, " ".join(t)))


def solve(m, time_limit):
    import numpy as np
    from scipy.optimize import milp, LinearConstraint, Bounds
    from scipy.sparse import coo_matrix

    n = len(m.names)
    c = np.zeros(n)
    for j, v in m.obj.items():
        c[j] = m.sense * v
    ri, ci, vals = [], [], []
    rlo = np.empty(len(m.rows))
    rup = np.empty(len(m.rows))
    for r, (_, terms, s, rhs) in enumerate(m.rows):
        for j, v in terms.items():
            ri.append(r)
            ci.append(j)
            vals.append(v)
        rlo[r] = rhs if s in ("G", "E") else -np.inf
        rup[r] = rhs if s in ("L", "E") else np.inf
    A = coo_matrix((vals, (ri, ci)), shape=(len(m.rows), n)).tocsr()
    lb = np.zeros(n)
    ub = np.full(n, np.inf)
    for j, v in m.lb.items():
        lb[j] = v
    for j, v in m.ub.items():
        ub[j] = v
    integ = np.zeros(n)
    for j in m.ints:
        integ[j] = 1
    for j in m.bins:
        integ[j] = 1
        lb[j] = max(lb[j], 0.0)
        ub[j] = min(ub[j], 1.0)
    cons = [LinearConstraint(A, rlo, rup)] if len(m.rows) else []
    t0 = time.monotonic()
    res = milp(c, constraints=cons, integrality=integ, bounds=Bounds(lb, ub),
               options={"time_limit": float(time_limit), "disp": True, "presolve": True})
    return res, time.monotonic() - t0


def write_solu(path, m, res):
    # milp status: 0 optimal, 1 iteration or time limit, 2 infeasible,
    # 3 unbounded, 4 other.  CBC's words, so `capplan place` reads them.
    have = res.x is not None
    obj = m.sense * res.fun + m.obj_const if have and res.fun is not None else None
    if res.status == 0 and have:
        head = "Optimal - objective value %.12g" % obj
    elif res.status == 2:
        head = "Infeasible - objective value 0"
    elif res.status == 3:
        head = "Unbounded - objective value 0"
    elif have:
        head = "Stopped on time - objective value %.12g" % obj
    else:
        head = "Stopped on time (no integer solution) - objective value 0"
    with open(path, "w") as f:
        f.write(head + "\n")
        if have:
            integ = m.ints | m.bins
            for j, name in enumerate(m.names):
                v = float(res.x[j])
                if j in integ:
                    v = float(round(v))
                if v != 0.0:
                    f.write("%7d %s %.12g %.12g\n" % (j, name, v, m.obj.get(j, 0.0)))
    return have, obj


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: highs_lp.py MODEL.lp SOLUTION [TIME_LIMIT_S]\n")
        return 2
    tl = float(argv[3]) if len(argv) == 4 else 600.0
    t0 = time.monotonic()
    try:
        m = read_lp(argv[1])
    except (OSError, LPError) as e:
        sys.stderr.write("highs_lp: %s: %s\n" % (argv[1], e))
        return 2
    sys.stderr.write("highs_lp: read %d rows, %d columns (%d integer) in %.1f s\n"
                     % (len(m.rows), len(m.names), len(m.ints | m.bins), time.monotonic() - t0))
    res, secs = solve(m, tl)
    have, obj = write_solu(argv[2], m, res)
    bound = getattr(res, "mip_dual_bound", None)
    if bound is not None:
        bound = m.sense * bound + m.obj_const
    gap = getattr(res, "mip_gap", None)
    sys.stderr.write("highs: status=%d (%s) objective=%s bound=%s gap=%s time_s=%.1f rows=%d cols=%d ints=%d\n"
                     % (res.status, res.message, "-" if obj is None else "%.6f" % obj,
                        "-" if bound is None else "%.6f" % bound, "-" if gap is None else "%.6g" % gap,
                        secs, len(m.rows), len(m.names), len(m.ints | m.bins)))
    return 0 if have else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
