#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent reference of bwa and la / la-onepass (numpy), for tests/test_bwa_la.cpp.

Written from the model equations (docs/algorithms.md; Li, Rubinstein and Cohn, WWW 2019,
for BWA; Yang et al., TKDD 2024, for LA), not from the C++ loops: BWA works on dense
per-class arrays with np.bincount, LA walks a Python dict of each item's labels. Its
printed numbers are pasted as constants into tests/test_bwa_la.cpp; the suite does not
run it.

    /usr/bin/python3 tests/reference/bwa_la_reference.py hand          # the small cases
    /usr/bin/python3 tests/reference/bwa_la_reference.py sets DIR...   # errors on real sets
    /usr/bin/python3 tests/reference/bwa_la_reference.py items DIR...  # LA in item-id order
"""
import os
import sys

import numpy as np


def bwa(items, workers, labels, n, m, k, a_v=15.0, lam=1.0, correction=True, max_iter=500,
        rtol=1e-3, atol=1e-8):
    """Scores z (n x k) and per-class iteration counts.

    Per class c (one-vs-rest): y = 1[label == c]; soft vote z0; prior scale
    b_v = a_v * adj * sum_i n_i z0_i (1 - z0_i) / L; then repeat
      mu = mean of z over labelled items
      v_j = (a_v + N_j) / (b_v + sum_{i in I(j)} (y_ij - z_i)^2)
      z_i = (lam mu + sum_j v_j y_ij) / (lam + sum_j v_j)
    until |z_new - z_old| <= atol + rtol |z_new| everywhere. b_v = 0: z = z0.
    """
    L = len(items)
    n_i = np.bincount(items, minlength=n).astype(float)
    N_j = np.bincount(workers, minlength=m).astype(float)
    labelled = n_i > 0
    adj = 4.0 * (1.0 - 1.0 / k) if correction else 1.0
    z = np.zeros((n, k))
    its = []
    for c in range(k):
        y = (labels == c).astype(float)
        z0 = np.zeros(n)
        z0[labelled] = np.bincount(items, weights=y, minlength=n)[labelled] / n_i[labelled]
        b_v = a_v * adj * np.sum(n_i * z0 * (1.0 - z0)) / L
        zc = z0.copy()
        zc[~labelled] = z0[labelled].mean()
        t = 0
        if b_v > 0.0:
            for t in range(1, max_iter + 1):
                mu = zc[labelled].mean()
                err = np.bincount(workers, weights=(y - zc[items]) ** 2, minlength=m)
                v = (a_v + N_j) / (b_v + err)
                num = lam * mu + np.bincount(items, weights=v[workers] * y, minlength=n)
                den = lam + np.bincount(items, weights=v[workers], minlength=n)
                znew = num / den
                done = np.all(np.abs(znew - zc) <= atol + rtol * np.abs(znew))
                zc = znew
                if done:
                    break
        z[:, c] = zc
        its.append(t)
    return z, its


def la(items, workers, labels, n, m, k, order, alpha=2.0, beta=2.0, two_pass=True):
    """Hard labels (n; -1 for items without labels) and abilities (m).

    Pass 1 over the items in `order`: vote with the current abilities a_w over the
    classes the item got (ties to the lowest class), then every labeller's counts:
    t_w += 1, c_w += [label == decision], a_w = (alpha - 1 + c_w) / (alpha + beta - 2 + t_w).
    Pass 2 (two-pass): vote again with weights k a_w - 1 (ties to the lowest class).
    """
    by_item = {}
    for j, w, l in zip(items, workers, labels):
        by_item.setdefault(int(j), []).append((int(w), int(l)))
    agree = np.zeros(m)
    seen = np.zeros(m)

    def ability(w):
        den = alpha + beta - 2.0 + seen[w]
        return 0.5 if den == 0.0 else (alpha - 1.0 + agree[w]) / den

    decided = np.full(n, -1)
    for j in order:
        if j not in by_item:
            continue
        score = {}
        for w, l in by_item[j]:
            score[l] = score.get(l, 0.0) + ability(w)
        best = min(score, key=lambda c: (-score[c], c))
        decided[j] = best
        for w, l in by_item[j]:
            seen[w] += 1.0
            agree[w] += l == best
    a = np.array([ability(w) for w in range(m)])
    if not two_pass:
        return decided, a
    out = np.full(n, -1)
    for j, pairs in by_item.items():
        score = {}
        for w, l in pairs:
            score[l] = score.get(l, 0.0) + k * a[w] - 1.0
        out[j] = min(score, key=lambda c: (-score[c], c))
    return out, a


def read_set(directory, name):
    crowd = np.loadtxt(os.path.join(directory, name + "_crowd.txt"), dtype=np.int64, ndmin=2)
    truth = np.loadtxt(os.path.join(directory, name + "_truth.txt"), dtype=np.int64, ndmin=2)
    items, workers, labels = crowd[:, 0] - 1, crowd[:, 1] - 1, crowd[:, 2] - 1
    n = int(max(items.max(), truth[:, 0].max())) + 1
    return items, workers, labels, n, int(workers.max()) + 1, int(labels.max()) + 1, truth


def error(pred, truth):
    return 100.0 * np.mean(pred[truth[:, 0] - 1] != truth[:, 1] - 1)


def shuffled(n, seed):
    return np.random.default_rng(seed).permutation(n)


def hand():
    np.set_printoptions(precision=17)
    # Case A: 3 items, 3 workers, k = 2 (worker 2 disagrees on item 1, item 2 split 1-1).
    a = (np.array([0, 0, 0, 1, 1, 1, 2, 2]), np.array([0, 1, 2, 0, 1, 2, 0, 1]),
         np.array([0, 0, 1, 1, 1, 1, 0, 1]))
    for max_iter, rtol in ((1, 1e-3), (2, 1e-3), (500, 1e-3), (10000, 1e-10)):
        z, its = bwa(*a, 3, 3, 2, max_iter=max_iter, rtol=rtol, atol=1e-8 if rtol > 1e-9 else 0.0)
        print("A bwa max_iter", max_iter, "rtol", rtol, "iterations", its)
        print(repr(z.ravel()))
    z, _ = bwa(*a, 3, 3, 2, a_v=2.0, lam=0.5, correction=False, max_iter=1)
    print("A bwa a_v=2 lam=0.5 no correction, one iteration", repr(z.ravel()))
    # Case B: 4 items, 4 workers, k = 3, item 3 without labels.
    b = (np.array([0, 0, 0, 1, 1, 2, 2, 2, 2]), np.array([0, 1, 2, 1, 3, 0, 1, 2, 3]),
         np.array([0, 0, 2, 1, 1, 2, 2, 0, 1]))
    z, its = bwa(*b, 4, 4, 3, max_iter=1)
    print("B bwa one iteration", repr(z.ravel()))
    z, its = bwa(*b, 4, 4, 3, max_iter=100000, rtol=1e-12, atol=0.0)
    print("B bwa converged", its, repr(z.ravel()))
    # LA on case B in item order and in the order 2, 0, 1, 3.
    for order in ([0, 1, 2, 3], [2, 0, 1, 3]):
        y1, a1 = la(*b, 4, 4, 3, order, two_pass=False)
        y2, _ = la(*b, 4, 4, 3, order)
        print("B la order", order, "one-pass", y1, "abilities", repr(a1), "two-pass", y2)
    # Case C: the one-pass order matters (k = 2).
    c = (np.array([0, 0, 1, 1, 1, 2, 2]), np.array([0, 1, 0, 1, 2, 1, 2]),
         np.array([0, 1, 0, 1, 1, 1, 0]))
    for order in ([0, 1, 2], [1, 2, 0]):
        y1, a1 = la(*c, 3, 3, 2, order, two_pass=False)
        y2, _ = la(*c, 3, 3, 2, order)
        print("C la order", order, "one-pass", y1, "abilities", repr(a1), "two-pass", y2)


def each_set(directories):
    """(name, items, workers, labels, n, m, k, truth) of every NAME_crowd.txt in the directories."""
    for d in directories:
        for f in sorted(os.listdir(d)):
            if f.endswith("_crowd.txt"):
                name = f[: -len("_crowd.txt")]
                yield (name,) + read_set(d, name)


def sets(directories):
    for name, items, workers, labels, n, m, k, truth in each_set(directories):
        z, its = bwa(items, workers, labels, n, m, k)
        e_ref = error(np.argmax(z, axis=1), truth)
        z, its_full = bwa(items, workers, labels, n, m, k, max_iter=1000, rtol=1e-10, atol=0.0)
        e_full = error(np.argmax(z, axis=1), truth)
        one = [error(la(items, workers, labels, n, m, k, shuffled(n, s), two_pass=False)[0], truth)
               for s in range(20)]
        two = [error(la(items, workers, labels, n, m, k, shuffled(n, s))[0], truth) for s in range(20)]
        print(f"{name:11s} bwa {e_ref:6.2f} (iters {max(its):3d}) full {e_full:6.2f} (iters {max(its_full):4d})"
              f"  la1 {np.mean(one):6.2f} ({np.std(one):.2f})  la2 {np.mean(two):6.2f} ({np.std(two):.2f})",
              flush=True)


def items_order(directories):
    """LA with the items in id order (la_order = items): deterministic, pinned exactly."""
    for name, items, workers, labels, n, m, k, truth in each_set(directories):
        order = np.arange(n)
        one = error(la(items, workers, labels, n, m, k, order, two_pass=False)[0], truth)
        two = error(la(items, workers, labels, n, m, k, order)[0], truth)
        print(f"{name:11s} la-onepass {one:6.2f}  la {two:6.2f}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "hand":
        hand()
    elif len(sys.argv) >= 3 and sys.argv[1] == "sets":
        sets(sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "items":
        items_order(sys.argv[2:])
    else:
        print(__doc__)
        sys.exit(2)
