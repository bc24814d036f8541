#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The accuracy table of docs/accuracy.md: every method's error and calibration (ECE) on
the fifteen shared crowds, next to crowd-kit 1.4.1's reference errors.

    bench/accuracy_table.py --build build [--data ../shared] > docs/accuracy.md

For each set NAME in DATA/datasets and DATA/datasets-dev (NAME_crowd.txt, NAME_truth.txt)
it runs `crowdspec evaluate -q --method all` (one fit per method, the library's
defaults), and once more for the default method with 15 % of the truth items given as
gold (`--gold`, three seeded draws, scored on the other items). crowd-kit's errors are
read from the two READMEs' reference tables (DATA/datasets/README.md,
DATA/datasets-dev/README.md), where they were measured with crowd-kit's defaults.

Columns of the output, per set: the error % of each method, then the mean over the
fifteen sets; the same for ECE (expected calibration error, 10 equal-width bins of the
confidence, items with truth); "lost" counts the items a method loses to the better
of majority vote and crowd-kit's DawidSkene on a set (the issue's criterion: more than
one item is a loss). A benchmark to run by hand (a minute or two), not a test.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

SETS = ["bluebird", "rte", "trec", "dog", "web", "adult2", "bm", "face", "fact", "hitspam_cf",
        "labelme", "mill", "ms", "possent", "product"]
CK_NAMES = {"MajorityVote": "MV", "Wawa": "Wawa", "ZeroBasedSkill": "ZBS", "GLAD": "GLAD",
            "DawidSkene": "DS", "OneCoinDawidSkene": "OneCoinDS", "MACE": "MACE", "M-MSR": "MMSR"}


def crowd_kit_errors(data):
    """{set: {method: error %}} from the READMEs' crowd-kit tables."""
    out = {}
    paper = open(os.path.join(data, "datasets", "README.md")).read()
    block = paper[paper.index("## crowd-kit 1.4.1 on these sets"):]
    rows = [l for l in block.splitlines() if l.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    for r in rows[2:]:
        cells = [c.strip() for c in r.strip("|").split("|")]
        method = CK_NAMES.get(cells[0], cells[0])
        for name, v in zip(header[1:], cells[1:]):
            out.setdefault(name, {})[method] = float(v)
    dev = open(os.path.join(data, "datasets-dev", "README.md")).read()
    block = dev[dev.index("## Reference error rates"):]
    rows = [l for l in block.splitlines() if l.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    for r in rows[2:]:
        cells = [c.strip() for c in r.strip("|").split("|")]
        if cells[0] == "mean":
            continue
        for method, v in zip(header[1:], cells[1:]):
            if re.match(r"^[0-9.]+$", v):
                out.setdefault(cells[0], {})[method] = float(v)
    return out


def set_paths(data, name):
    for folder in ("datasets", "datasets-dev"):
        crowd = os.path.join(data, folder, name + "_crowd.txt")
        if os.path.exists(crowd):
            return crowd, os.path.join(data, folder, name + "_truth.txt")
    return None, None


def evaluate(cli, crowd, truth, extra):
    out = subprocess.run([cli, "evaluate", "-q", "--truth", truth, crowd] + extra, check=False,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def truth_items(truth):
    seen = {}
    for line in open(truth):
        f = line.split()
        if len(f) >= 2:
            seen.setdefault(f[0], f[1])
    return seen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--data", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))
    ap.add_argument("--methods", default="all")
    ap.add_argument("--gold-share", type=float, default=0.15)
    args = ap.parse_args()
    cli = os.path.join(args.build, "tools", "crowdspec")
    ck = crowd_kit_errors(args.data)
    err, ece, lost = {}, {}, {}
    gold_ece, gold_err = {}, {}
    default = None
    with tempfile.TemporaryDirectory() as work:
        for name in SETS:
            crowd, truth = set_paths(args.data, name)
            if crowd is None:
                print("skipped: %s not found under %s" % (name, args.data), file=sys.stderr)
                continue
            rows = evaluate(cli, crowd, truth, ["--method", args.methods])
            scored = rows[0]["scored"]
            best_ref = min(ck[name].get("MV", 100.0), ck[name].get("DS", 100.0))
            for r in rows:
                m = r["method"]
                err.setdefault(m, {})[name] = 100.0 * r["error_rate"]
                ece.setdefault(m, {})[name] = r["calibration"]["ece"]
                lost.setdefault(m, {})[name] = round((r["error_rate"] - best_ref / 100.0) * scored)
            # The default method with gold: three draws of gold-share of the truth items.
            if default is None:
                default = json.loads(subprocess.run([cli, "evaluate", "-q", "--truth", truth, crowd],
                                                    stdout=subprocess.PIPE, universal_newlines=True,
                                                    check=False).stdout.splitlines()[0])["method"]
            items = sorted(truth_items(truth).items())
            e_sum = r_sum = 0.0
            for seed in range(3):
                rng = random.Random(seed)
                chosen = rng.sample(items, max(1, int(round(args.gold_share * len(items)))))
                gold = os.path.join(work, "gold.txt")
                with open(gold, "w") as f:
                    f.writelines("%s %s\n" % kv for kv in chosen)
                g = evaluate(cli, crowd, truth, ["--gold", gold])[0]
                e_sum += g["calibration"]["ece"]
                r_sum += 100.0 * g["error_rate"]
            gold_ece[name], gold_err[name] = e_sum / 3, r_sum / 3
    names = [s for s in SETS if any(s in v for v in err.values())]
    methods = list(err)
    print("| method | " + " | ".join(names) + " | mean |")
    print("|---" * (len(names) + 2) + "|")
    for m in methods:
        vals = [err[m][s] for s in names]
        print("| %s | %s | **%.2f** |" % (m, " | ".join("%.2f" % v for v in vals), sum(vals) / len(vals)))
    for ckm in ["MV", "DS", "GLAD", "MACE", "OneCoinDS", "Wawa", "ZBS"]:
        vals = [ck[s].get(ckm) for s in names]
        if None in vals:
            continue
        print("| crowd-kit %s | %s | **%.2f** |" % (ckm, " | ".join("%.2f" % v for v in vals), sum(vals) / len(vals)))
    print()
    print("Items lost to the better of majority vote and crowd-kit's DawidSkene (positive = worse):")
    print()
    print("| method | " + " | ".join(names) + " | sets lost by > 1 item |")
    print("|---" * (len(names) + 2) + "|")
    for m in methods:
        vals = [lost[m][s] for s in names]
        print("| %s | %s | %d |" % (m, " | ".join("%+d" % v for v in vals), sum(1 for v in vals if v > 1)))
    print()
    print("ECE (expected calibration error of the posteriors):")
    print()
    print("| method | " + " | ".join(names) + " | mean |")
    print("|---" * (len(names) + 2) + "|")
    for m in methods:
        vals = [ece[m][s] for s in names]
        print("| %s | %s | **%.3f** |" % (m, " | ".join("%.3f" % v for v in vals), sum(vals) / len(vals)))
    vals = [gold_ece[s] for s in names]
    print("| %s, %d %% gold | %s | **%.3f** |" % (default, round(100 * args.gold_share),
                                                 " | ".join("%.3f" % v for v in vals), sum(vals) / len(vals)))
    print()
    print("Error %% of %s with %d %% of the truth as gold (non-gold items; mean of 3 draws): %s; mean %.2f" % (
        default, round(100 * args.gold_share), ", ".join("%s %.2f" % (s, gold_err[s]) for s in names),
        sum(gold_err[s] for s in names) / len(names)))


if __name__ == "__main__":
    main()
