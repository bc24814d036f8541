#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs the code snippets of README.md and bindings/*/README.md as they are written.

usage: check_readme_snippets.py --source DIR --cli PATH --library PATH [--include DIR]
                                [--python PYTHON] [--work DIR]

Every fenced block with a language is handled; the output says what happened to each
(file:line, language, ran / not run and why), and the test fails when a snippet that
is run fails.

- sh: a block whose every command is `crowdspec ...` or `man crowdspec` is run with
  bash -e in a fresh directory holding the files it names (written here: a crowd,
  truth and gold files, a Toloka and an MTurk export, points and edges), the built
  program first on PATH and the page in a MANPATH. Blocks that build, install or run
  a test suite are not run (CI's package jobs and ctest do that), and say so.
- python: the blocks of one README run in order in one interpreter, as a reader
  pasting them would (PYTHONPATH = bindings/python, CROWDSPEC_LIBRARY = the build);
  skipped (said so) when the interpreter has no numpy or pandas.
- r: the same in one R session, with the package installed into a temporary library
  against the build; skipped (said so) when R is missing.
- rust: each block is a program (fn main) built against bindings/rust/crowdspec with
  cargo --offline and run; skipped when cargo is missing.
- julia: the blocks of one README in one julia process; skipped when julia is missing.
- c: a block with main() is compiled against the header and the library and run;
  an excerpt (no main) is checked for names: every cs_* and CS_* it uses must be
  declared in include/crowdspec.
- toml and blocks without a language (file trees) are not code.
Exit 0 when every snippet that was run passed (skipped languages are listed), 1
otherwise.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\w*)\s*$")
SH_RUNNABLE = re.compile(r"^(crowdspec\b|man crowdspec\b)")


def blocks(path):
    """(line, language, text) of every fenced block of a Markdown file."""
    out, lang, start, body = [], None, 0, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = FENCE.match(line.rstrip("\n"))
            if lang is None and m:
                lang, start, body = m.group(1).lower(), number, []
            elif lang is not None and line.startswith("```"):
                out.append((start, lang, "".join(body)))
                lang = None
            elif lang is not None:
                body.append(line)
    return out


def commands(text):
    """The shell commands of a block: continuation lines joined, comments and blanks dropped."""
    joined = text.replace("\\\n", " ")
    return [c.strip() for c in joined.splitlines() if c.strip() and not c.strip().startswith("#")]


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def cli_fixtures(d, cli, block):
    """The files the README's command-line examples name, small and consistent."""
    run = lambda *a: subprocess.run([cli, *a], cwd=d, check=True, capture_output=True)
    run("simulate", "--items", "60", "--workers", "12", "--classes", "3", "--seed", "5",
        "--labels", "answers.csv", "--truth", "truth.csv")
    for name in ("crowd.csv", "all.csv", "batch_results.csv", "new_batch.csv"):
        shutil.copy(os.path.join(d, "answers.csv"), os.path.join(d, name))
    with open(os.path.join(d, "answers.csv")) as f:
        rows = [line.rstrip("\n").split(",") for line in f][1:]
    write(os.path.join(d, "crowd.txt"), "".join("%s %s %s\n" % tuple(r) for r in rows))
    with open(os.path.join(d, "truth.csv")) as f:
        truth = [line.rstrip("\n").split(",") for line in f][1:]
    write(os.path.join(d, "gold.csv"), "item,label\n" + "".join("%s,%s\n" % tuple(t) for t in truth[:5]))
    # a classifier's probabilities (--model-probs): 0.7 on the true class of each item
    classes = sorted({r[2] for r in rows})
    write(os.path.join(d, "probs.csv"), "item," + ",".join("p_" + c for c in classes) + "\n" +
          "".join(t[0] + "," + ",".join("0.7" if c == t[1] else "%.4f" % (0.3 / (len(classes) - 1))
                                        for c in classes) + "\n" for t in truth))
    write(os.path.join(d, "export.tsv"), "task\tannotator\tanswer\n" +
          "".join("%s\t%s\t%s\n" % tuple(r) for r in rows))
    write(os.path.join(d, "assignments.tsv"), "INPUT:image\tOUTPUT:result\tASSIGNMENT:worker_id\tASSIGNMENT:status\n" +
          "".join("%s.jpg\t%s\tw%s\tAPPROVED\n" % (r[0], r[2], r[1]) for r in rows))
    # the other answer kinds: comparisons of 8 items by 4 workers (the lower id wins 3 times
    # in 4), tag sets and numbers of 6 items by 3 workers
    write(os.path.join(d, "sbs.csv"), "worker,left,right,winner\n" + "".join(
        "w%d,i%d,i%d,i%d\n" % (w, a, b, a if (a + b + w) % 4 else b)
        for w in range(4) for a in range(8) for b in range(a + 1, 8)))
    write(os.path.join(d, "tags_export.csv"), "item,worker,tags\n" + "".join(
        "%d,w%d,%s\n" % (i, w, ["cat", "cat|outdoor", "dog", ""][(i + w * (i % 2)) % 4])
        for i in range(6) for w in range(3)))
    write(os.path.join(d, "numbers.csv"), "item,worker,value\n" + "".join(
        "%d,w%d,%g\n" % (i, w, 10 * i + (w - 1) * 0.5) for i in range(6) for w in range(3)))
    # points: 10 well separated blobs of 20 rows in 2-D; edges: 5 cliques of 6 in a ring.
    points, labels = [], []
    for c in range(10):
        for i in range(20):
            points.append("%g,%g" % (100 * c + (i % 5), 50 * (c % 3) + (i // 5)))
            labels.append(c)
    write(os.path.join(d, "points.csv"), "x,y\n" + "\n".join(points) + "\n")
    edges = ["%d %d" % (6 * c + a, 6 * c + b) for c in range(5) for a in range(6) for b in range(a + 1, 6)]
    edges += ["%d %d" % (6 * c, 6 * ((c + 1) % 5) + 1) for c in range(5)]
    write(os.path.join(d, "edges.txt"), "\n".join(edges) + "\n")
    if "cluster" in block and "--truth truth.txt" in block:  # the points' truth: `row label`
        write(os.path.join(d, "truth.txt"), "".join("%d %d\n" % (i + 1, c) for i, c in enumerate(labels)))
    else:
        write(os.path.join(d, "truth.txt"), "".join("%s %s\n" % tuple(t) for t in truth))


class Checker:
    def __init__(self, args):
        self.args = args
        self.failures = 0
        self.tmp = tempfile.mkdtemp(prefix="cs_snippets.")
        self.r_lib = None

    def report(self, where, lang, what):
        print("%-34s %-7s %s" % (where, lang, what), flush=True)

    def fail(self, where, lang, what, output=""):
        self.failures += 1
        self.report(where, lang, "FAILED: " + what)
        for line in output.strip().splitlines()[-25:]:
            print("    | " + line)

    def run(self, where, lang, argv, cwd, env=None, stdin=None, timeout=600):
        e = dict(os.environ)
        e.update(env or {})
        try:
            p = subprocess.run(argv, cwd=cwd, env=e, input=stdin, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.fail(where, lang, "timed out after %d s" % timeout)
            return False
        if p.returncode != 0:
            self.fail(where, lang, "exit %d" % p.returncode, p.stdout + p.stderr)
            return False
        return True

    # --- per language -------------------------------------------------------------
    def sh(self, where, text):
        cmds = commands(text)
        if not cmds or not all(SH_RUNNABLE.match(c) for c in cmds):
            self.report(where, "sh", "not run: builds, installs or runs a test suite (CI and ctest do that)")
            return
        d = tempfile.mkdtemp(dir=self.tmp)
        cli_fixtures(d, self.args.cli, text)
        bindir, mandir = os.path.join(d, ".bin"), os.path.join(d, ".man", "man1")
        os.makedirs(bindir)
        os.makedirs(mandir)
        os.symlink(self.args.cli, os.path.join(bindir, "crowdspec"))
        shutil.copy(os.path.join(self.args.source, "docs", "crowdspec.1"), mandir)
        env = {"PATH": bindir + os.pathsep + os.environ.get("PATH", ""), "MANPATH": os.path.join(d, ".man"),
               "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80", "OMP_NUM_THREADS": "1"}
        if shutil.which("man") is None:
            env["PATH"] = bindir + os.pathsep + env["PATH"]
            write(os.path.join(bindir, "man"), "#!/bin/sh\necho 'man is not installed: man crowdspec not run'\n")
            os.chmod(os.path.join(bindir, "man"), 0o755)
        script = "set -e\n" + "".join(c + "\n" for c in cmds)
        if self.run(where, "sh", ["bash", "-c", script], d, env):
            self.report(where, "sh", "ran %d commands" % len(cmds))

    def python(self, where, snippets):
        probe = subprocess.run([self.args.python, "-c", "import numpy, pandas"], capture_output=True)
        if probe.returncode != 0:
            self.report(where, "python", "SKIPPED: %s has no numpy or pandas" % self.args.python)
            return
        env = {"PYTHONPATH": os.path.join(self.args.source, "bindings", "python"),
               "CROWDSPEC_LIBRARY": self.args.library, "PYTHONDONTWRITEBYTECODE": "1",
               "MPLBACKEND": "Agg"}
        program = "\n".join("# --- %s\n%s" % (w, t) for w, t in snippets)
        d = tempfile.mkdtemp(dir=self.tmp)
        if self.run(where, "python", [self.args.python, "-"], d, env, stdin=program):
            self.report(where, "python", "ran %d blocks in one session" % len(snippets))

    def r_library(self):
        if self.r_lib is not None:
            return self.r_lib
        lib = os.path.join(self.tmp, "Rlib")
        os.makedirs(lib)
        env = {"CROWDSPEC_CFLAGS": "-I" + self.args.include,
               "CROWDSPEC_LIBS": "-L%s -lcrowdspec -Wl,-rpath,%s" % (os.path.dirname(self.args.library),
                                                                   os.path.dirname(self.args.library)),
               "R_LIBS_USER": "/dev/null", "MAKEFLAGS": ""}
        src = os.path.join(self.tmp, "rpkg")
        shutil.copytree(os.path.join(self.args.source, "bindings", "r"), src)  # the build writes into the tree
        ok = self.run("bindings/r", "r", ["R", "CMD", "INSTALL", "--no-test-load", "-l", lib, src], self.tmp, env)
        self.r_lib = lib if ok else ""
        return self.r_lib

    def r(self, where, snippets):
        if shutil.which("Rscript") is None or shutil.which("R") is None:
            self.report(where, "r", "SKIPPED: R is not installed")
            return
        lib = self.r_library()
        if not lib:
            return
        program = "\n".join("# --- %s\n%s" % (w, t) for w, t in snippets)
        d = tempfile.mkdtemp(dir=self.tmp)
        write(os.path.join(d, "snippets.R"), "pdf(NULL)\n" + program)
        if self.run(where, "r", ["Rscript", "--vanilla", "snippets.R"], d, {"R_LIBS": lib}):
            self.report(where, "r", "ran %d blocks in one session" % len(snippets))

    def rust(self, where, text):
        cargo = shutil.which("cargo") or os.path.expanduser("~/.cargo/bin/cargo")
        if not os.path.exists(cargo):
            self.report(where, "rust", "SKIPPED: cargo is not installed")
            return
        # A rustup proxy without a toolchain for this HOME (a Debian package build sets
        # its own HOME) is there but cannot run: skipped as the rust_bindings test does.
        probe = subprocess.run([cargo, "--version"], capture_output=True)
        if probe.returncode != 0:
            self.report(where, "rust", "SKIPPED: %s --version failed" % cargo)
            return
        if "fn main" not in text:
            self.fail(where, "rust", "not a program (no fn main): a reader cannot run it as written")
            return
        d = tempfile.mkdtemp(dir=self.tmp)
        crate = os.path.join(self.args.source, "bindings", "rust", "crowdspec")
        write(os.path.join(d, "Cargo.toml"),
              '[package]\nname = "snippet"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n'
              'crowdspec = { path = "%s" }\n\n[workspace]\n' % crate)
        os.makedirs(os.path.join(d, "src"))
        write(os.path.join(d, "src", "main.rs"), text)
        shutil.copy(os.path.join(self.args.source, "bindings", "rust", "Cargo.lock"), d)
        lib_dir = os.path.dirname(self.args.library)
        env = {"CROWDSPEC_LIB_DIR": lib_dir, "CROWDSPEC_INCLUDE_DIR": self.args.include,
               "LD_LIBRARY_PATH": lib_dir, "CARGO_TARGET_DIR": os.path.join(self.args.work, "rust-target")}
        if self.run(where, "rust", [cargo, "run", "--offline", "--quiet"], d, env):
            self.report(where, "rust", "built and ran")

    def julia(self, where, snippets):
        if shutil.which("julia") is None:
            self.report(where, "julia", "SKIPPED: julia is not installed")
            return
        program = "\n".join("# --- %s\n%s" % (w, t) for w, t in snippets)
        d = tempfile.mkdtemp(dir=self.tmp)
        env = {"CROWDSPEC_LIBRARY": self.args.library}
        project = os.path.join(self.args.source, "bindings", "julia")
        if self.run(where, "julia", ["julia", "--project=" + project, "-e", program], d, env):
            self.report(where, "julia", "ran %d blocks in one session" % len(snippets))

    def c(self, where, text):
        if re.search(r"\bmain\s*\(", text):
            d = tempfile.mkdtemp(dir=self.tmp)
            write(os.path.join(d, "snippet.c"), text)
            lib_dir = os.path.dirname(self.args.library)
            if self.run(where, "c", ["cc", "-std=c99", "-I" + self.args.include, "snippet.c", "-L" + lib_dir,
                                     "-lcrowdspec", "-Wl,-rpath," + lib_dir, "-o", "snippet"], d) and \
               self.run(where, "c", ["./snippet"], d):
                self.report(where, "c", "compiled and ran")
            return
        declared = set()
        for root, _, files in os.walk(os.path.join(self.args.include, "crowdspec")):
            for name in files:
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    declared |= set(re.findall(r"\b(?:cs|CS)_\w+", f.read()))
        used = set(re.findall(r"\b(?:cs|CS)_\w+", text))
        missing = sorted(used - declared)
        if missing:
            self.fail(where, "c", "an excerpt naming what the header does not declare: " + ", ".join(missing))
        else:
            self.report(where, "c", "an excerpt (no main): its %d cs_/CS_ names are all declared" % len(used))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--library", required=True, help="libcrowdspec.so of the build")
    ap.add_argument("--include", help="the public headers (default SOURCE/include)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter of the Python snippets")
    ap.add_argument("--work", help="a directory kept between runs (cargo's target; default a temporary one)")
    args = ap.parse_args()
    args.source = os.path.abspath(args.source)
    args.cli = os.path.abspath(args.cli)
    args.library = os.path.abspath(args.library)
    args.include = os.path.abspath(args.include or os.path.join(args.source, "include"))
    checker = Checker(args)
    args.work = os.path.abspath(args.work) if args.work else checker.tmp
    os.makedirs(args.work, exist_ok=True)
    readmes = ["README.md"] + sorted(os.path.join("bindings", d, "README.md")
                                     for d in os.listdir(os.path.join(args.source, "bindings"))
                                     if os.path.exists(os.path.join(args.source, "bindings", d, "README.md")))
    total = 0
    try:
        for readme in readmes:
            sessions = {"python": [], "r": [], "julia": []}
            for line, lang, text in blocks(os.path.join(args.source, readme)):
                where = "%s:%d" % (readme, line)
                total += 1
                if lang in ("sh", "bash", "shell", "console"):
                    checker.sh(where, text)
                elif lang in sessions:
                    sessions[lang].append((where, text))
                elif lang == "rust":
                    checker.rust(where, text)
                elif lang == "c":
                    checker.c(where, text)
                else:
                    checker.report(where, lang or "-", "not code (%s)" % ("a file layout" if not lang else lang))
            if sessions["python"]:
                checker.python(sessions["python"][0][0], sessions["python"])
            if sessions["r"]:
                checker.r(sessions["r"][0][0], sessions["r"])
            if sessions["julia"]:
                checker.julia(sessions["julia"][0][0], sessions["julia"])
    finally:
        shutil.rmtree(checker.tmp, ignore_errors=True)
    print("%d fenced blocks in %d READMEs; %d failed" % (total, len(readmes), checker.failures))
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
