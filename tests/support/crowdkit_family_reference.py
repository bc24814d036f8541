# SPDX-License-Identifier: MIT
"""Independent reference values for tests/test_crowdkit_family.cpp.

Written from the specifications (crowdspec.h, the comments at the top of
src/crowd/voting/weighted_vote.cpp, m_msr.cpp, src/crowd/em/glad.cpp and mace.cpp),
not from the C++ code: numpy and scipy (digamma, gammaln) do the arithmetic. Run with
/usr/bin/python3; it prints the constants pasted into the test.
"""
import math

import numpy as np
from scipy.special import digamma, gammaln

# The toy crowd: (item, worker, label), 10 items, 4 workers, k = 3.
LABELS = [
    (0, 0, 0), (0, 1, 0), (0, 2, 1), (0, 3, 0),
    (1, 0, 1), (1, 1, 1), (1, 2, 1),
    (2, 0, 2), (2, 1, 0), (2, 2, 2), (2, 3, 2),
    (3, 0, 0), (3, 2, 2), (3, 3, 0),
    (4, 0, 1), (4, 1, 1), (4, 3, 2),
    (5, 1, 2), (5, 2, 2), (5, 3, 2),
    (6, 0, 0), (6, 1, 1), (6, 2, 0), (6, 3, 0),
    (7, 0, 2), (7, 2, 1), (7, 3, 2),
    (8, 1, 0), (8, 2, 0),
    (9, 0, 1), (9, 1, 2), (9, 2, 1), (9, 3, 1),
]
N, M, K = 10, 4, 3
MASK = (1 << 64) - 1


class Rng:
    """splitmix64-seeded xoshiro256**, uniform = (next >> 11) * 2^-53 (util/rng.hpp's
    documented generator)."""

    def __init__(self, seed):
        x = seed
        self.s = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & MASK
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            self.s.append(z ^ (z >> 31))

    @staticmethod
    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK

    def next(self):
        s = self.s
        result = (self.rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self.rotl(s[3], 45)
        return result

    def uniform(self):
        return (self.next() >> 11) * 2.0 ** -53


def by_item():
    return [[(w, c) for (j, w, c) in LABELS if j == item] for item in range(N)]


def weighted_vote(weights):
    q = np.zeros((N, K))
    for j, labels in enumerate(by_item()):
        for w, c in labels:
            q[j, c] += weights[w]
        q[j] = q[j] / q[j].sum() if q[j].sum() > 0 else 1.0 / K
    return q


def agreement(labels):
    acc = np.zeros(M)
    for w in range(M):
        mine = [(j, c) for (j, ww, c) in LABELS if ww == w]
        acc[w] = sum(c == labels[j] for j, c in mine) / len(mine)
    return acc


def wawa():
    mv = weighted_vote(np.ones(M)).argmax(axis=1)
    return weighted_vote(agreement(mv))


def zbs(rounds):
    skill = np.ones(M)
    q = weighted_vote(skill)
    lr = 1.0
    for r in range(1, rounds + 1):
        if r % 20 == 0:
            lr *= 0.5
        acc = agreement(q.argmax(axis=1))
        skill = acc if r == 1 else skill + lr * (acc - skill)
        q = weighted_vote(skill)
    return q, skill


def softplus(x):
    return np.logaddexp(0.0, x)


def glad(rounds):
    alpha = np.ones(M)
    b = np.ones(N)

    def e_step():
        q = np.zeros((N, K))
        total = 0.0
        for j, labels in enumerate(by_item()):
            lp = np.full(K, math.log(1.0 / K))
            for w, c in labels:
                t = alpha[w] * math.exp(b[j])
                for l in range(K):
                    lp[l] += -softplus(-t) if l == c else -softplus(t) - math.log(K - 1)
            top = lp.max()
            z = np.exp(lp - top).sum()
            q[j] = np.exp(lp - top) / z
            total += top + math.log(z)
        return q, total - 0.5 * ((alpha - 1) ** 2).sum() - 0.5 * ((b - 1) ** 2).sum()

    def term(p, t):
        return p * -softplus(-t) + (1 - p) * -softplus(t)

    def ascend(x, step, f0, f):
        step = max(-4.0, min(4.0, step))
        for _ in range(30):
            if step == 0.0:
                break
            if f(x + step) >= f0:
                return x + step
            step *= 0.5
        return x

    q, obj = e_step()
    trace = []
    for _ in range(rounds):
        for w in range(M):
            mine = [(j, c) for (j, ww, c) in LABELS if ww == w]
            a = alpha[w]

            def fa(x, mine=mine):
                return -0.5 * (x - 1) ** 2 + sum(term(q[j, c], x * math.exp(b[j])) for j, c in mine)

            g = -(a - 1) + sum((q[j, c] - 1 / (1 + math.exp(-a * math.exp(b[j])))) * math.exp(b[j]) for j, c in mine)
            h = 1 + sum((lambda s: s * (1 - s))(1 / (1 + math.exp(-a * math.exp(b[j])))) * math.exp(b[j]) ** 2
                        for j, c in mine)
            alpha[w] = ascend(a, g / h, fa(a), fa)
        for j, labels in enumerate(by_item()):
            bj = b[j]

            def fb(x, j=j, labels=labels):
                return -0.5 * (x - 1) ** 2 + sum(term(q[j, c], alpha[w] * math.exp(x)) for w, c in labels)

            g, h = -(bj - 1), 1.0
            for w, c in labels:
                t = alpha[w] * math.exp(bj)
                s = 1 / (1 + math.exp(-t))
                g += (q[j, c] - s) * t
                h += s * (1 - s) * t * t
            b[j] = ascend(bj, g / h, fb(bj), fb)
        q, obj2 = e_step()
        trace.append(obj2)
    return q, obj, trace


def mace(rounds, seed=0):
    rng = Rng(seed)
    n_w = np.array([sum(1 for (_, w, _) in LABELS if w == i) for i in range(M)], dtype=float)
    A, B, G = np.zeros(M), np.zeros(M), np.zeros((M, K))
    for i in range(M):
        x = 1 + 1.5 * rng.uniform()
        y = 1 + 1.5 * rng.uniform()
        z = np.array([1 + 1.5 * rng.uniform() for _ in range(K)])
        theta = x / (x + y)
        A[i] = 0.5 + n_w[i] * theta
        B[i] = 0.5 + n_w[i] * (1 - theta)
        G[i] = 10 + n_w[i] * (1 - theta) * z / z.sum()

    def kl():
        out = 0.0
        for i in range(M):
            a, b = A[i], B[i]
            out += (gammaln(0.5) * 2 - gammaln(1.0)) - (gammaln(a) + gammaln(b) - gammaln(a + b)) \
                + (a - 0.5) * (digamma(a) - digamma(a + b)) + (b - 0.5) * (digamma(b) - digamma(a + b))
            g = G[i]
            out += gammaln(g.sum()) - gammaln(g).sum() - gammaln(10.0 * K) + K * gammaln(10.0) \
                + ((g - 10) * (digamma(g) - digamma(g.sum()))).sum()
        return out

    def e_step():
        know = np.exp(digamma(A) - digamma(A + B))
        spam = np.exp(digamma(B) - digamma(A + B))
        strat = np.exp(digamma(G) - digamma(G.sum(axis=1))[:, None])
        q = np.zeros((N, K))
        total = 0.0
        for j, labels in enumerate(by_item()):
            like = np.ones(K)
            for w, c in labels:
                for l in range(K):
                    like[l] *= spam[w] * strat[w, c] + (know[w] if l == c else 0.0)
            q[j] = like / like.sum()
            total += math.log(like.sum() / K)
        return q, total - kl(), know, spam, strat

    q, elbo, know, spam, strat = e_step()
    trace = []
    for _ in range(rounds):
        for i in range(M):
            r = [q[j, c] * know[i] / (spam[i] * strat[i, c] + know[i]) for (j, w, c) in LABELS if w == i]
            cs = [c for (j, w, c) in LABELS if w == i]
            A[i] = 0.5 + sum(r)
            B[i] = 0.5 + sum(1 - x for x in r)
            G[i] = 10.0
            for x, c in zip(r, cs):
                G[i, c] += 1 - x
        q, e2, know, spam, strat = e_step()
        trace.append(e2)
    return q, elbo, trace


def m_msr(rounds, seed=0):
    rng = Rng(seed)
    labelled = N
    floor = 1 / math.sqrt(labelled)
    lab = {(j, w): c for (j, w, c) in LABELS}
    C = {}
    for i in range(M):
        for o in range(M):
            if o == i:
                continue
            shared = [j for j in range(N) if (j, i) in lab and (j, o) in lab]
            if shared:
                agree = sum(lab[(j, i)] == lab[(j, o)] for j in shared)
                C[(i, o)] = (K * agree / len(shared) - 1) / (K - 1)
    deg = [sum(1 for (i, o) in C if i == w) for w in range(M)]
    f = max(0, min(d for d in deg if d > 0) // 2 - 1)
    assert f == 0  # every worker has 3 neighbours: plain means
    u = np.array([max(floor, rng.uniform()) for _ in range(M)])
    v = u.copy()
    for _ in range(rounds):
        for i in range(M):
            v[i] = max(floor, np.mean(sorted(abs(C[(i, o)]) / u[o] for o in range(M) if (i, o) in C)))
        for i in range(M):
            u[i] = max(floor, np.mean(sorted(abs(C[(i, o)]) / v[o] for o in range(M) if (i, o) in C)))
    # Signs: the signed pair graph here is balanced with every worker positive (checked).
    assert all(c >= 0 for c in C.values())
    s = np.clip(np.sqrt(u * v), -1 / (K - 1) + floor, 1 - floor)
    p = ((K - 1) * s + 1) / K
    w = np.log((K - 1) * p / (1 - p))
    q = np.zeros((N, K))
    for j, labels in enumerate(by_item()):
        for ww, c in labels:
            q[j, c] += w[ww]
        q[j] = np.exp(q[j] - q[j].max())
        q[j] /= q[j].sum()
    return q, p


def show(name, values):
    flat = np.asarray(values, dtype=float).ravel()
    print("static const double %s[%d] = {" % (name, flat.size))
    print(",\n".join("    " + ", ".join("%.17g" % x for x in flat[i:i + 3]) for i in range(0, flat.size, 3)))
    print("};")


if __name__ == "__main__":
    show("kWawaPosteriors", wawa())
    q, skill = zbs(3)
    show("kZbsPosteriors3", q)
    show("kZbsSkills3", skill)
    q0, obj0, _ = glad(0)
    show("kGladPosteriors0", q0)
    show("kGladObjective0", [obj0])
    q1, _, trace = glad(1)
    show("kGladPosteriors1", q1)
    show("kGladObjective1", trace)
    q0, elbo0, _ = mace(0)
    show("kMaceElbo0", [elbo0])
    q1, _, trace = mace(1)
    show("kMacePosteriors1", q1)
    show("kMaceElbo1", trace)
    q, p = m_msr(1)
    show("kMmsrPosteriors1", q)
    show("kMmsrAccuracy1", p)
