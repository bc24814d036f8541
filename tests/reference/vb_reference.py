#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent dense reference of the bcc / ebcc variational updates (numpy + scipy).

Written from the model (Li, Rubinstein and Cohn, ICML 2019; crowdspec.h, CS_METHOD_EBCC)
without looking at the C++ engine's loops: the responsibilities are a full
items x k x M array, the parameters full Dirichlet arrays, and the evidence lower bound
is computed term by term (expected complete-data log-likelihood + entropies - the
Dirichlet expectations), not by the log-normaliser shortcut the library uses. Its
printed numbers are pasted as constants into tests/test_vb.cpp; it is not run by the
test suite.

    /usr/bin/python3 tests/reference/vb_reference.py hand       # the hand-computed cases
    /usr/bin/python3 tests/reference/vb_reference.py DATASET M  # converge on a shared set
"""
import sys

import numpy as np
from scipy.special import digamma, gammaln


def dirichlet_elog(a):
    return digamma(a) - digamma(a.sum(axis=-1, keepdims=True))


def log_beta(a):
    return gammaln(a).sum(axis=-1) - gammaln(a.sum(axis=-1))


def parameters(items, workers, labels, r, n_workers, k, M, a_pi, alpha, a_v, b_v):
    """Dirichlet posteriors given responsibilities r (n x k x M)."""
    beta = np.full((k, k), b_v)
    np.fill_diagonal(beta, a_v)
    mu = np.broadcast_to(beta[None, :, None, :], (n_workers, k, M, k)).copy()  # i, l, m, c
    counts = np.zeros((n_workers, k, k, M))  # i, c, l, m
    np.add.at(counts, (workers, labels), r[items])
    mu += counts.transpose(0, 2, 3, 1)
    nu = alpha + r.sum(axis=(0, 2))
    eta = a_pi / M + r.sum(axis=0)
    return mu, nu, eta, beta


def tau_elog(nu, uniform):
    """E log tau: the Dirichlet's, or log(1/k) for a class prior fixed at uniform."""
    return np.full(nu.shape, -np.log(nu.size)) if uniform else dirichlet_elog(nu)


def responsibilities(items, workers, labels, n_items, mu, nu, eta, gold=None, uniform=False):
    k, M = eta.shape
    s = np.broadcast_to(tau_elog(nu, uniform)[:, None] + (dirichlet_elog(eta) if M > 1 else 0.0),
                        (n_items, k, M)).copy()
    ev = dirichlet_elog(mu)
    np.add.at(s, items, ev[workers, :, :, labels])
    if gold:
        for j, y in gold.items():
            mask = np.ones(k, bool)
            mask[y] = False
            s[j, mask, :] = -np.inf
    flat = s.reshape(n_items, -1)
    top = flat.max(axis=1, keepdims=True)
    r = np.exp(flat - top)
    r /= r.sum(axis=1, keepdims=True)
    return r.reshape(n_items, k, M), s


def elbo(items, workers, labels, r, mu, nu, eta, beta, alpha, a_pi, uniform=False):
    """E_q[log p(y, z, g, tau, pi, V)] - E_q[log q], term by term."""
    n, k, M = r.shape
    et, ep, ev = tau_elog(nu, uniform), (dirichlet_elog(eta) if M > 1 else np.zeros((k, M))), dirichlet_elog(mu)
    value = (r.sum(axis=(0, 2)) * et).sum() + (r.sum(axis=0) * ep).sum()
    value += (r[items] * ev[workers, :, :, labels]).sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        value -= np.where(r > 0, r * np.log(r), 0.0).sum()
    # log p(tau) - log q(tau), and likewise for pi_l and V_ilm, in expectation.
    if not uniform:  # a fixed tau has no prior or posterior density terms
        value += -log_beta(np.full(k, alpha)) + ((alpha - 1) * et).sum()
        value -= -log_beta(nu) + ((nu - 1) * et).sum()
    if M > 1:
        prior = np.full(M, a_pi / M)
        for l in range(k):
            value += -log_beta(prior) + ((prior - 1) * ep[l]).sum()
            value -= -log_beta(eta[l]) + ((eta[l] - 1) * ep[l]).sum()
    value += (-log_beta(np.broadcast_to(beta[None, :, None, :], mu.shape)) + ((beta[None, :, None, :] - 1) * ev).sum(-1)).sum()
    value -= (-log_beta(mu) + ((mu - 1) * ev).sum(-1)).sum()
    return value


def run(items, workers, labels, n_items, n_workers, k, M, r0, iterations, a_pi=0.1, alpha=1.0, a_v=4.0,
        b_v=1.0, gold=None, tol=None, uniform=False):
    r = r0
    trace = []
    for _ in range(iterations):
        mu, nu, eta, beta = parameters(items, workers, labels, r, n_workers, k, M, a_pi, alpha, a_v, b_v)
        r, _ = responsibilities(items, workers, labels, n_items, mu, nu, eta, gold, uniform)
        trace.append(elbo(items, workers, labels, r, mu, nu, eta, beta, alpha, a_pi, uniform))
        if tol and len(trace) > 1 and abs(trace[-1] - trace[-2]) < tol * abs(trace[-2]):
            break
    eta_mean = eta / eta.sum(axis=1, keepdims=True)
    conf = np.einsum("lm,ilmc->ilc", eta_mean, mu / mu.sum(axis=-1, keepdims=True))
    return r, trace, conf, (np.full(k, 1.0 / k) if uniform else nu / nu.sum())


def soft_vote(items, labels, n_items, k):
    v = np.zeros((n_items, k))
    for j, c in zip(items, labels):
        v[j, c] += 1
    v[v.sum(1) == 0] = 1
    return v / v.sum(1, keepdims=True)


def show(name, values):
    print(name + " = {" + ", ".join("%.17g" % x for x in np.ravel(values)) + "}")


def hand():
    # The tiny crowd of tests/test_em.cpp: items 0..2, workers 0..1, k = 2.
    items, workers, labels = [0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 0, 1], [0, 0, 1, 0, 1, 1]
    v = soft_vote(items, labels, 3, 2)
    print("# bcc, defaults (alpha 1, a_v 4, b_v 1), soft-vote start, 1 and 2 iterations")
    for it in (1, 2):
        r, tr, conf, prior = run(items, workers, labels, 3, 2, 2, 1, v[:, :, None], it)
        show("bcc%d_posteriors" % it, r.sum(2))
        show("bcc%d_trace" % it, tr)
        show("bcc%d_confusion" % it, conf)
        show("bcc%d_prior" % it, prior)
    print("# bcc, class prior fixed uniform, on an unbalanced crowd, 2 iterations")
    items_u, workers_u, labels_u = [0, 0, 1, 1, 2, 2, 3], [0, 1, 0, 1, 0, 1, 0], [0, 0, 0, 1, 1, 1, 0]
    v = soft_vote(items_u, labels_u, 4, 2)
    for uniform in (True, False):
        r, tr, conf, prior = run(items_u, workers_u, labels_u, 4, 2, 2, 1, v[:, :, None], 2, uniform=uniform)
        tag = "uniform" if uniform else "estimated"
        show("bcc_%s_posteriors" % tag, r.sum(2))
        show("bcc_%s_trace" % tag, tr)
        show("bcc_%s_prior" % tag, prior)
    print("# ebcc, M = 2, defaults, start r0 below, 1 iteration")
    r0 = np.array([[[0.7, 0.3], [0.0, 0.0]],
                   [[0.1, 0.4], [0.25, 0.25]],
                   [[0.0, 0.0], [0.6, 0.4]]])
    show("ebcc_start", r0)
    r, tr, conf, prior = run(items, workers, labels, 3, 2, 2, 2, r0, 1)
    show("ebcc1_posteriors", r.sum(2))
    show("ebcc1_responsibilities", r)
    show("ebcc1_trace", tr)
    show("ebcc1_confusion", conf)
    show("ebcc1_prior", prior)
    print("# ebcc, M = 2, k = 3, a_pi 0.5, alpha 2, a_v 3, b_v 0.5, gold item 1 = class 2, 2 iterations")
    items3, workers3, labels3 = [0, 0, 1, 1, 2, 3], [0, 1, 0, 2, 1, 2], [0, 2, 1, 2, 2, 0]
    rng = np.random.default_rng(5)
    r0 = rng.dirichlet(np.ones(6), 4).reshape(4, 3, 2)
    r0[1] = 0.0
    r0[1, 2] = [0.5, 0.5]
    show("ebcc3_start", r0)
    r, tr, conf, prior = run(items3, workers3, labels3, 4, 3, 3, 2, r0, 2, a_pi=0.5, alpha=2.0, a_v=3.0,
                             b_v=0.5, gold={1: 2})
    show("ebcc3_posteriors", r.sum(2))
    show("ebcc3_trace", tr)
    show("ebcc3_confusion", conf)
    show("ebcc3_prior", prior)


def fixed_split(n, k, M):
    """The deterministic subtype split of tests/test_vb.cpp: w_jlm proportional to
    1 + ((7 j + 3 l + m) mod M), so that the library and this script start alike."""
    j, l, m = np.meshgrid(np.arange(n), np.arange(k), np.arange(M), indexing="ij")
    return (1.0 + (7 * j + 3 * l + m) % M) / (M * (M + 1) / 2.0)


def dataset(stem, M):
    d = "../shared/datasets/"
    raw = np.loadtxt(d + stem + "_crowd.txt", dtype=int) - 1
    truth = dict((a - 1, b - 1) for a, b in np.loadtxt(d + stem + "_truth.txt", dtype=int))
    items, workers, labels = raw[:, 0], raw[:, 1], raw[:, 2]
    n, m, k = items.max() + 1, workers.max() + 1, labels.max() + 1
    v = soft_vote(items, labels, n, k)
    r0 = v[:, :, None] * fixed_split(n, k, M)
    r, tr, _, _ = run(items, workers, labels, n, m, k, M, r0, 1000, tol=1e-10)
    z = r.sum(2).argmax(1)
    wrong = sum(int(z[j] != y) for j, y in truth.items())
    print("%s M %d: iterations %d, elbo %.12g, errors %d of %d (%.2f %%)"
          % (stem, M, len(tr), tr[-1], wrong, len(truth), 100.0 * wrong / len(truth)))


if __name__ == "__main__":
    if sys.argv[1] == "hand":
        hand()
    else:
        dataset(sys.argv[1], int(sys.argv[2]))
