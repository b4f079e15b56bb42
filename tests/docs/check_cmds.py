#!/usr/bin/env python3
"""Checks the capplan command lines quoted in README.md and docs/*.md
(tests/suite_docs.sh).

Usage: check_cmds.py ROOT CAPPLAN

A command line is a line of a code block (fenced, or indented by four
spaces) that starts with `capplan CMD`, `build/capplan CMD` or either
after `$ `, joined with the lines its trailing backslashes continue. Lines
of output (`capplan export: 26 job scripts ...`) are not command lines.
For each, prints one line per fault:

  command FILE:LINE: C     C is not a command (or import kind, fit mode,
                           export target) of `capplan`: its --help fails
  option FILE:LINE: O      O is not an option of the command
                           (`capplan CMD --list-options`, with every
                           command's -h, --help, -q, --quiet, --list-options)
  path FILE:LINE: P        P names a repository file (examples/, tests/,
                           docs/, bench/, fuzz/; a glob counts when it
                           matches) that does not exist

Synopses are command lines too: `[--format md|csv|json]` names
--format, `skypilot|gavel` names both kinds; words in capitals
(FILE..., PLAN) are placeholders and not checked.
Prints "checked N command lines" last; exit status 0 when nothing else
is printed, 1 otherwise.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

ROOT, CAPPLAN = sys.argv[1], sys.argv[2]
COMMON = {"-h", "--help", "-q", "--quiet", "--list-options"}
# commands whose second word picks a sub-command with its own options
SUBS = {"import", "fit", "export"}
REPO_DIRS = ("examples/", "tests/", "docs/", "bench/", "fuzz/")
START = re.compile(r"^(?:\$ )?(?:build/)?capplan ([a-z][a-z-]*)(?=\s|$)")

cache = {}


def run(args):
    key = tuple(args)
    if key not in cache:
        p = subprocess.run([CAPPLAN] + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           cwd=ROOT)
        cache[key] = (p.returncode, p.stdout.decode("utf-8", "replace").split())
    return cache[key]


def code_lines(path):
    """(line number, text) of every line in a code block."""
    fenced = False
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            yield n, line.strip()
        elif line.startswith("    "):
            yield n, line.strip()


def commands(path):
    lines = list(code_lines(path))
    i = 0
    while i < len(lines):
        n, text = lines[i]
        i += 1
        if not START.match(text):
            continue
        while text.endswith("\\") and i < len(lines) and lines[i][0] == lines[i - 1][0] + 1:
            text = text[:-1] + " " + lines[i][1]
            i += 1
        yield n, text


def words(text):
    text = re.sub(r"^\$ ", "", text)
    try:
        lex = shlex.shlex(text, posix=True, punctuation_chars=False)
        lex.whitespace_split = True
        lex.commenters = "#"
        return list(lex)
    except ValueError:
        return text.split()


def placeholder(w):
    return re.search(r"[A-Z]{2,}|^[A-Z](\.|$)", w) is not None or "..." in w


def check(rel, n, text, out):
    ws = [w.strip("[]") for w in words(text)]
    ws = [w for w in ws if w]
    cmd = ws[1]
    rest = ws[2:]
    if cmd.endswith(":"):
        return False  # a line of output
    targets = [[cmd]]
    if cmd in SUBS and rest and not rest[0].startswith("-") and not placeholder(rest[0]):
        targets = [[cmd, s] for s in rest[0].split("|") if s]
        rest = rest[1:]
    elif cmd == "whatif" and rest and rest[0] == "merge":
        targets = [["whatif", "merge"]]
        rest = rest[1:]
    known = set(COMMON)
    for t in targets:
        rc, _ = run(t + ["--help"])
        if rc != 0:
            out.append("command %s:%d: %s" % (rel, n, " ".join(t)))
            return True
        rc, opts = run(t + ["--list-options"])
        known.update(opts)
    for w in rest:
        if w.startswith("-") and w != "-" and not w.startswith("--") and len(w) > 2:
            names = ["-" + c for c in w[1:]]  # clustered short options
        elif w.startswith("--"):
            names = [w.split("=", 1)[0]]
        elif w.startswith("-") and w != "-":
            names = [w]
        else:
            names = []
            if w.startswith(REPO_DIRS) and not placeholder(w):
                for p in w.split("|"):
                    if not glob.glob(os.path.join(ROOT, p)):
                        out.append("path %s:%d: %s" % (rel, n, p))
        for o in names:
            if o not in known and not placeholder(o):
                out.append("option %s:%d: %s (capplan %s)" % (rel, n, o, " ".join(targets[0])))
    return True


def main():
    files = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    out, count = [], 0
    for f in files:
        rel = os.path.relpath(f, ROOT)
        for n, text in commands(f):
            count += check(rel, n, text, out)
    for line in out:
        print(line)
    print("checked %d command lines" % count)
    return 1 if out else 0


sys.exit(main())
