#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the Julia module against the C header without Julia (which Debian 12 lacks).

    check_ccalls.py --header include/crowdspec/crowdspec.h [--library libcrowdspec.so]
                    [--nm nm] [--lezer DIR] FILE.jl...

The files checked are the given ones and every file they `include("...")`, followed
from file to file, so that the module's source files need not be listed one by one;
a .jl file beside the module (in its directory or below) that nothing includes fails
the check, as does an include of a missing file. For every `ccall` in those files:
  - the callee is a literal symbol, `f(:cs_name)` or `(:cs_name, lib)`;
  - cs_name is a CS_API function of the header and (with --library) a dynamic symbol
    the library defines (`nm -D --defined-only`);
  - the argument-type tuple has as many entries as the C function has parameters, and
    as many values follow it;
  - each argument type and the return type is one that matches the C type (int32_t:
    Int32/Cint, size_t: Csize_t, double: Cdouble/Float64, T *: Ptr{T} or Ref{T},
    const char *: Cstring/Ptr{UInt8}, cs_model *: Ptr{Cvoid}, ...).
Every `const CS_...` of the files has the header's value, and the module (--module with
the files it includes) defines every status code, fit note and input kind of the
header. With --project, Project.toml parses
(Python >= 3.11), names the package CrowdSpec with a UUID, and every package a file loads
with `using`/`import` is the package itself, a dependency (for the module) or a test
target (for the tests).

With --lezer DIR (a directory holding node_modules/@plutojl/lezer-julia, which
tools/scripts/install-deps.sh --test-extras installs) and node on the PATH, every file is also
parsed by that Julia grammar and any syntax error node fails the check; without them the
parse is reported as skipped.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

# ------------------------------------------------------------------ the header


def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def header_functions(text):
    """name -> (return C type, [parameter C types])"""
    code = "\n".join(l for l in strip_c_comments(text).splitlines()
                     if not l.lstrip().startswith("#"))
    out = {}
    for m in re.finditer(r"CS_API\s+([^;]*?)\(([^;]*?)\)\s*;", code, re.S):
        ret_and_name = " ".join(m.group(1).split())
        name = re.search(r"(\w+)$", ret_and_name).group(1)
        ret = ret_and_name[: -len(name)].strip()
        params = " ".join(m.group(2).split())
        types = []
        if params not in ("", "void"):
            for p in params.split(","):
                p = p.strip()
                pname = re.search(r"(\w+)$", p).group(1)
                types.append(p[: -len(pname)].strip())
        out[name] = (ret, types)
    return out


def header_constants(text):
    """enum name -> {CS_NAME: value}, plus the CS_VERSION_* macros under "#define"."""
    code = strip_c_comments(text)
    enums = {}
    for m in re.finditer(r"enum\s+(\w+)\s*\{(.*?)\}", code, re.S):
        enums[m.group(1)] = {n: int(v) for n, v in re.findall(r"(CS_\w+)\s*=\s*(-?\d+)", m.group(2))}
    enums["#define"] = {n: int(v) for n, v in re.findall(r"#define\s+(CS_VERSION_\w+)\s+(\d+)\s", code)}
    return enums


def c_to_julia(ctype, is_return=False):
    """The Julia spellings that match a C type of the header."""
    t = " ".join(ctype.replace("*", " * ").split())
    stars = t.count("*")
    base = " ".join(w for w in t.replace("*", " ").split() if w != "const")
    scalar = {
        "int32_t": {"Int32", "Cint"},
        "cs_status": {"Int32", "Cint"},
        "int64_t": {"Int64", "Clonglong"},
        "size_t": {"Csize_t", "UInt"},
        "double": {"Cdouble", "Float64"},
        "cs_progress_fn": {"Ptr{Cvoid}"},
    }
    if stars == 0:
        if base == "void":
            return {"Cvoid", "Nothing"} if is_return else set()
        return scalar.get(base, set())
    if stars != 1:
        return set()
    if base == "char":
        return {"Cstring", "Ptr{UInt8}", "Ptr{Cchar}"}
    if base in ("cs_model", "void"):
        return {"Ptr{Cvoid}"}
    inner = scalar.get(base, set())
    return {"%s{%s}" % (w, j) for w in ("Ptr", "Ref") for j in inner}


# ------------------------------------------------------------------ Julia sources


JULIA_KEYWORDS = {"return", "in", "isa", "else", "elseif", "if", "where", "do", "for", "while",
                  "begin", "let", "try", "catch", "finally", "end", "local", "global", "const"}


def mask_julia(src):
    """The source with comments, strings and character literals blanked (same length,
    newlines kept), so that brackets and commas can be matched on what remains."""
    out = list(src)
    i, n = 0, len(src)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("#=", i):  # nested block comment
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("#=", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("=#", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c == "#":
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif c == '"':
            triple = src.startswith('"""', i)
            quote = '"""' if triple else '"'
            j = i + len(quote)
            while j < n and not src.startswith(quote, j):
                j += 2 if src[j] == "\\" else 1
            blank(i + len(quote), j)
            i = j + len(quote)
        elif c == "'":
            before = src[:i].rstrip()
            prev = before[-1:]
            word = re.search(r"(\w+)$", before)
            keyword = word is not None and word.group(1) in JULIA_KEYWORDS
            if prev and (prev.isalnum() or prev in "_)]}'") and not keyword:
                i += 1  # the adjoint operator
            else:
                j = i + 1
                while j < n and src[j] != "'":
                    j += 2 if src[j] == "\\" else 1
                blank(i + 1, j)
                i = j + 1
        else:
            i += 1
    return "".join(out)


def matching(masked, open_at):
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    for k in range(open_at, len(masked)):
        ch = masked[k]
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]}":
            if not stack or stack.pop() != ch:
                raise ValueError("unbalanced bracket at offset %d" % k)
            if not stack:
                return k
    raise ValueError("unclosed bracket at offset %d" % open_at)


def split_top(masked, a, b):
    """Top-level comma-separated pieces of masked[a:b]."""
    parts, depth, start = [], 0, a
    for k in range(a, b):
        ch = masked[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(masked[start:k])
            start = k + 1
    parts.append(masked[start:b])
    parts = [" ".join(p.split()) for p in parts]
    if parts and parts[-1] == "":
        parts.pop()  # trailing comma
    return parts


def line_of(src, offset):
    return src.count("\n", 0, offset) + 1


def with_includes(paths):
    """(files, problems): the paths, each followed by the files it includes with a
    literal `include("file.jl")` (relative to its directory), recursively, each once."""
    files, problems = [], []

    def visit(path):
        path = os.path.normpath(path)
        if path in files:
            return
        files.append(path)
        src = open(path, encoding="utf-8").read()
        masked = mask_julia(src)
        # the file name is a string, blanked in `masked`: match the call there and read
        # the name from the source at the same offsets
        for m in re.finditer(r"(?<![\w.])include\s*\(\s*\"\s*\"\s*\)", masked):
            name = re.search(r'"([^"]*)"', src[m.start():m.end()]).group(1)
            target = os.path.join(os.path.dirname(path), name)
            if not os.path.isfile(target):
                problems.append("%s:%d: includes %s, which does not exist"
                                % (os.path.relpath(path), line_of(src, m.start()), name))
                continue
            visit(target)

    for path in paths:
        visit(path)
    return files, problems


def not_included(module, files):
    """The .jl files in the module's directory (and below) that are not in files."""
    root = os.path.dirname(os.path.abspath(module))
    seen = {os.path.abspath(f) for f in files}
    out = []
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            path = os.path.join(directory, name)
            if name.endswith(".jl") and os.path.abspath(path) not in seen:
                out.append(path)
    return out


def julia_ccalls(path):
    src = open(path, encoding="utf-8").read()
    masked = mask_julia(src)
    calls = []
    for m in re.finditer(r"(?<![\w.@])ccall\s*\(", masked):
        open_at = m.end() - 1
        close_at = matching(masked, open_at)
        args = split_top(masked, open_at + 1, close_at)
        calls.append((line_of(src, m.start()), args))
    return src, masked, calls


def callee_name(expr):
    m = re.fullmatch(r"[\w.]+\(\s*:(\w+)\s*\)", expr) or re.fullmatch(r"\(\s*:(\w+)\s*,.*\)", expr)
    return m.group(1) if m else None


def type_tuple(expr):
    expr = expr.strip()
    if not (expr.startswith("(") and expr.endswith(")")):
        return None
    inner = expr[1:-1]
    if inner.strip() == "":
        return []
    # a one-element tuple needs its trailing comma: `(Int32,)`
    parts = split_top(inner, 0, len(inner))
    if len(parts) == 1 and not inner.rstrip().endswith(","):
        return None
    return parts


# ------------------------------------------------------------------ checks


def library_symbols(library, nm):
    out = subprocess.run([nm, "-D", "--defined-only", library], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("check_ccalls: %s -D failed on %s: %s" % (nm, library, out.stderr))
    names = set()
    for line in out.stdout.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[1] in ("T", "W", "i"):
            names.add(fields[2].split("@")[0])  # cs_fit@@CS_0.1: the version node aside
    return names


def lezer_parse(files, lezer_dir):
    """(ran, problems): parse with the lezer Julia grammar when it is installed."""
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        return False, "node not found"
    if not lezer_dir or not os.path.isdir(os.path.join(lezer_dir, "node_modules", "@plutojl", "lezer-julia")):
        return False, "@plutojl/lezer-julia not installed in %s (tools/scripts/install-deps.sh --test-extras)" % lezer_dir
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parse_julia.cjs")
    env = dict(os.environ, NODE_PATH=os.path.join(lezer_dir, "node_modules"))
    out = subprocess.run([node, script] + files, capture_output=True, text=True, env=env)
    sys.stdout.write(out.stdout)
    if out.returncode != 0:
        return True, (out.stderr.strip() or "syntax errors")
    return True, None


def check_project(project, files, module_files):
    """Problems of Project.toml and of the packages the files load (a file of the module
    may load dependencies only; the tests test targets too)."""
    try:
        import tomllib
    except ImportError:
        print("check_ccalls: Project.toml not parsed (Python < 3.11 has no tomllib)")
        return []
    problems = []
    with open(project, "rb") as f:
        meta = tomllib.load(f)
    if meta.get("name") != "CrowdSpec":
        problems.append("Project.toml: name is %r, not CrowdSpec" % meta.get("name"))
    uuid_re = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    if not re.fullmatch(uuid_re, str(meta.get("uuid", ""))):
        problems.append("Project.toml: uuid %r is not a UUID" % meta.get("uuid"))
    deps = set(meta.get("deps", {}))
    extras = set(meta.get("extras", {}))
    test_target = set(meta.get("targets", {}).get("test", []))
    for name in test_target - extras - deps:
        problems.append("Project.toml: test target %s is neither in [extras] nor in [deps]" % name)
    for table in ("deps", "extras"):
        for name, uuid in meta.get(table, {}).items():
            if not re.fullmatch(uuid_re, uuid):
                problems.append("Project.toml: [%s] %s has no UUID" % (table, name))
    module_paths = {os.path.abspath(f) for f in module_files}
    for path in files:
        masked = mask_julia(open(path, encoding="utf-8").read())
        allowed = {"CrowdSpec", "Base", "Core"} | deps
        if os.path.abspath(path) not in module_paths:
            allowed |= test_target
        for m in re.finditer(r"^\s*(?:using|import)\s+([\w., :]+)", masked, re.M):
            for entry in m.group(1).split(","):
                package = entry.split(":")[0].strip().split(".")[0]
                if package and package not in allowed:
                    problems.append("%s: loads %s, which Project.toml does not provide"
                                    % (os.path.relpath(path), package))
    return problems


def check_exports(module_files):
    """Every name exported by the module (the first file) is defined in it or in a file
    it includes, with a docstring before its first definition."""
    path = module_files[0]
    sources = [(f, open(f, encoding="utf-8").read()) for f in module_files]
    sources = [(f, src, mask_julia(src)) for f, src in sources]
    m = re.search(r"^export\s+(.*?)(?=\n\s*\n)", sources[0][2], re.M | re.S)
    if not m:
        return ["%s: no export list" % os.path.relpath(path)], []
    names = [n.strip() for n in m.group(1).replace("\n", " ").split(",") if n.strip()]
    problems = []
    for name in names:
        pattern = (r"^(?:function\s+|mutable\s+struct\s+|struct\s+|const\s+)?%s\s*(?:\(|=|<:|$)"
                   % re.escape(name))
        found = [(f, src, d) for f, src, masked in sources
                 for d in [re.search(pattern, masked, re.M)] if d is not None]
        if not found:
            problems.append("%s: exported %s is not defined" % (os.path.relpath(path), name))
            continue
        where, src, d = found[0]
        before = src[: d.start()].rstrip()
        if not before.endswith('"""'):
            problems.append("%s:%d: exported %s has no docstring" % (os.path.relpath(where), line_of(src, d.start()), name))
    return problems, names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--header", required=True)
    ap.add_argument("--library")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--lezer")
    ap.add_argument("--module", help="the file whose constants must cover the header's enums")
    ap.add_argument("--project", help="Project.toml to check")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()

    header_text = open(a.header, encoding="utf-8").read()
    functions = header_functions(header_text)
    enums = header_constants(header_text)
    all_constants = {k: v for values in enums.values() for k, v in values.items()}
    if len(functions) < 40:
        raise SystemExit("check_ccalls: only %d CS_API functions parsed from %s" % (len(functions), a.header))
    exported = library_symbols(a.library, a.nm) if a.library else None

    files, failures = with_includes(a.files)
    module_files = []
    if a.module:
        module_files, problems = with_includes([a.module])
        failures.extend(p for p in problems if p not in failures)
        for path in not_included(a.module, module_files):
            failures.append("%s: not included by %s, so neither loaded nor checked"
                            % (os.path.relpath(path), os.path.relpath(a.module)))
        files += [f for f in module_files if f not in files]
    print("check_ccalls: files: %s" % ", ".join(os.path.relpath(f) for f in files))
    module_paths = {os.path.abspath(f) for f in module_files}
    module_constants = set()

    checked, used = 0, set()
    for path in files:
        src, masked, calls = julia_ccalls(path)
        where = os.path.relpath(path)
        for line, args in calls:
            tag = "%s:%d" % (where, line)
            if len(args) < 3:
                failures.append("%s: ccall with %d arguments" % (tag, len(args)))
                continue
            name = callee_name(args[0])
            if name is None:
                failures.append("%s: callee `%s` is not a literal symbol" % (tag, args[0]))
                continue
            used.add(name)
            if name not in functions:
                failures.append("%s: %s is not a CS_API function of the header" % (tag, name))
                continue
            if exported is not None and name not in exported:
                failures.append("%s: %s is not exported by %s" % (tag, name, a.library))
            c_ret, c_params = functions[name]
            types = type_tuple(args[2])
            if types is None:
                failures.append("%s: %s: argument types `%s` are not a literal tuple" % (tag, name, args[2]))
                continue
            values = args[3:]
            if len(types) != len(c_params):
                failures.append("%s: %s takes %d parameters, ccall declares %d types"
                                % (tag, name, len(c_params), len(types)))
            if len(values) != len(types):
                failures.append("%s: %s: %d argument types but %d values" % (tag, name, len(types), len(values)))
            for k, (jt, ct) in enumerate(zip(types, c_params)):
                if jt not in c_to_julia(ct):
                    failures.append("%s: %s parameter %d is C `%s`, ccall says `%s` (expected one of %s)"
                                    % (tag, name, k + 1, ct, jt, sorted(c_to_julia(ct))))
            if args[1] not in c_to_julia(c_ret, is_return=True):
                failures.append("%s: %s returns C `%s`, ccall says `%s`" % (tag, name, c_ret, args[1]))
            checked += 1

        for m in re.finditer(r"^\s*const\s+(CS_\w+)\s*=\s*(?:Int32\(\s*)?(-?\d+)", masked, re.M):
            cname, value = m.group(1), int(m.group(2))
            if cname not in all_constants:
                failures.append("%s: const %s is not in the header" % (where, cname))
            elif all_constants[cname] != value:
                failures.append("%s: const %s = %d, the header says %d" % (where, cname, value, all_constants[cname]))
        if os.path.abspath(path) in module_paths:
            module_constants.update(re.findall(r"^\s*const\s+(CS_\w+)\s*=", masked, re.M))

    if a.module:
        where = os.path.relpath(a.module)
        for enum in ("cs_status_code", "cs_fit_note", "cs_input_kind"):
            for cname in enums.get(enum, {}):
                if cname not in module_constants:
                    failures.append("%s: no const %s (header enum %s)" % (where, cname, enum))
        if "CS_VERSION_MAJOR" not in module_constants:
            failures.append("%s: no const CS_VERSION_MAJOR" % where)
    if a.project:
        failures.extend(check_project(a.project, files, module_files))
    if a.module:
        problems, names = check_exports(module_files)
        failures.extend(problems)
        print("check_ccalls: %d exported names, each defined with a docstring%s"
              % (len(names), "" if not problems else " (but see below)"))

    unused = sorted(set(functions) - used)
    print("check_ccalls: %d ccalls checked against %d CS_API functions%s"
          % (checked, len(functions), " and the library's exports" if exported is not None else ""))
    if unused:
        print("check_ccalls: header functions no ccall uses: %s" % ", ".join(unused))

    ran, problem = lezer_parse(files, a.lezer)
    if not ran:
        print("check_ccalls: Julia syntax parse skipped: %s" % problem)
    elif problem:
        failures.append("Julia syntax: %s" % problem)

    for f in failures:
        print("FAIL " + f)
    print("check_ccalls: %s" % ("ok" if not failures else "%d problem(s)" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
