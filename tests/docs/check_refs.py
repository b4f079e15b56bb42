#!/usr/bin/env python3
"""Checks that the repository's references lead somewhere (tests/suite_docs.sh).

Usage: check_refs.py ROOT

Reads the comments and text of ROOT's sources, scripts, docs, man pages
and YAML inputs, and prints one line per reference that leads nowhere:

  path FILE:LINE: P       a repository path (models/..., docs/..., tests/...,
                          ...) that names no file or folder; a path also
                          counts when it is the stem of files (tests/bad/x
                          for x.yaml and x.out), the source of a built
                          program (bench/gen for bench/gen.c) or a glob
                          that matches, a prefix ending in _ or -
                          (tests/suite_); placeholders in capitals
                          (tests/suite_NAME.sh) and lines with a URL are
                          skipped
  link FILE:LINE: P       a Markdown link target, relative to its file
  man FILE:LINE: P        `man ./P` where P is not a file
  section FILE:LINE: §N   a § section that capplan.5 does not have
                          (every § in the tree is one of capplan.5's)
  outside FILE:LINE: T    a citation of an outside document by section
                          (the word SPEC) or of a tracker's numbers
                          (issue N): cite capplan.5 or docs/ instead

Exit status 0 when nothing is printed, 1 otherwise.
"""
import glob
import os
import re
import subprocess
import sys

TOP = r"(?:models|solvers|planner|tests|docs|bench|examples|fuzz|\.ci)"
PATH_RX = re.compile(r"(?<![\w./~$:-])(" + TOP + r"/[A-Za-z0-9_.*/+-]*)")
LINK_RX = re.compile(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)")
MAN_RX = re.compile(r"\bman (?:-l )?(\./[\w./-]*\w)")
SECTION_RX = re.compile(r"§(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?")
OUTSIDE_RX = re.compile(r"\bSPEC\b|\b[Ii]ssues? #?\d+\b")
PLACEHOLDER_RX = re.compile(r"(?:^|[_/.-])[A-Z]+(?:[_/.-]|$)")

# What is read: text that people write. Test inputs built to be hostile
# (fuzz regressions, attack names) and the licence are not references.
SCANNED_EXT = (".c", ".h", ".sh", ".py", ".md", ".mk", ".1", ".5", ".yaml", ".dict")
SCANNED_NAMES = ("Makefile", ".ci/run")
SKIPPED_DIRS = ("tests/fuzz-regress/", "tests/attack/", "build")
# the checker and its suite: their examples and planted tree are not references
SELF = ("tests/docs/check_refs.py", "tests/suite_docs.sh")


def repo_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True,
                             text=True, check=True).stdout.split("\n")
        files = [f for f in out if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
        for n in names:
            files.append(os.path.relpath(os.path.join(d, n), root))
    return files


def scanned(f):
    if f.startswith(SKIPPED_DIRS) or f == "LICENSE" or f in SELF:
        return False
    return f.endswith(SCANNED_EXT) or f in SCANNED_NAMES


def man_text(text):
    """A man page's text with the escapes that split words undone."""
    text = text.replace("\\(sc", "§").replace("\\-", "-")
    return re.sub(r"\\f[BIRP]", "", text)


def capplan5_sections(root):
    try:
        text = open(os.path.join(root, "capplan.5"), encoding="utf-8").read()
    except OSError:
        return set()
    return set(re.findall(r"^\.S[HS] (\d+(?:\.\d+)?)\.?\s", text, re.M))


def path_exists(root, p):
    full = os.path.join(root, p)
    if "*" in p:
        return bool(glob.glob(full))
    if os.path.exists(full.rstrip("/")):
        return True
    if p.endswith(("_", "-")):  # a prefix of names (tests/suite_, x-)
        return bool(glob.glob(glob.escape(full) + "*"))
    # a stem of files (tests/bad/x: x.yaml, x.out) or a built program's source
    return bool(glob.glob(glob.escape(full) + ".*"))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    sections = capplan5_sections(root)
    problems = []
    for f in sorted(repo_files(root)):
        if not scanned(f):
            continue
        try:
            text = open(os.path.join(root, f), encoding="utf-8").read()
        except (OSError, UnicodeDecodeError):
            continue
        if f.endswith((".1", ".5")):
            text = man_text(text)
        yaml = f.endswith((".yaml", ".dict"))
        for ln, line in enumerate(text.split("\n"), 1):
            if yaml and "#" not in line:
                continue
            where = f"{f}:{ln}"
            for m in OUTSIDE_RX.finditer(line):
                problems.append(f"outside {where}: {m.group(0)}")
            for m in SECTION_RX.finditer(line):
                for n in m.groups():
                    if n and n not in sections:
                        problems.append(f"section {where}: §{n}")
            if "://" in line or "github.com" in line:
                continue
            for m in PATH_RX.finditer(line):
                if line[m.end():m.end() + 1] in ("$", "{", "("):
                    continue  # a shell or make variable completes it
                p = m.group(1).rstrip(".,+-")
                if "no-such" in p or PLACEHOLDER_RX.search(p.split("/", 1)[1]):
                    continue
                if not path_exists(root, p):
                    problems.append(f"path {where}: {p}")
            for m in MAN_RX.finditer(line):
                if PLACEHOLDER_RX.search(m.group(1)[2:]):
                    continue
                if not os.path.exists(os.path.join(root, m.group(1))):
                    problems.append(f"man {where}: {m.group(1)}")
            if f.endswith(".md"):
                for m in LINK_RX.finditer(line):
                    target = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
                    if not os.path.exists(os.path.join(root, target)):
                        problems.append(f"link {where}: {m.group(1)}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
