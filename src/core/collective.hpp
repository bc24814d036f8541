// SPDX-License-Identifier: MIT
// Sums across the processes of a distributed fit.
//
// A distributed fit (libcrowdspec_mpi, cs_fit_mpi) gives every process the labels of
// its own items. The algorithms stay the same: everything they compute per item
// (E-steps, vote shares, posteriors) needs only that item's labels, and everything
// they compute per worker or per class is a sum over items -- the M-step's count
// tables and class mass, the log-likelihood, the Opt-D&S moments, the worker
// signatures and label counts, the vote agreement that names the classes. Each such
// sum is completed by one call here at the point where the single-process code has
// its total, and every decision is taken from completed sums, so all processes take
// the same branches and call the same operations in the same order.
//
// The single-process library never has a Collective: CrowdData::shard is null and the
// helpers of data/crowd_shard.hpp do nothing, so a single-process fit runs exactly the
// code (and gives exactly the numbers) it did before. LocalCollective is the trivial
// implementation, one process that is the whole problem (used by tests).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cs {

class Collective {
public:
    virtual ~Collective() = default;

    /// This process's number, 0 .. size() - 1.
    virtual int32_t rank() const = 0;
    /// Number of processes.
    virtual int32_t size() const = 0;

    /// In place: values[e] becomes the sum of values[e] over all processes. Every
    /// process ends with the same bytes (the sum is formed once, in an order fixed by
    /// the number of processes; not necessarily the single-process order).
    virtual void sum(double *values, std::size_t n) = 0;
    /// The same for unsigned integers, modulo 2^64: exact whatever the order.
    virtual void sum(uint64_t *values, std::size_t n) = 0;
    /// In place: the largest value over all processes.
    virtual void max(int64_t *values, std::size_t n) = 0;
};

/// The items of a fit held outside the library, by an engine that computes their E-step
/// statistics (cs_fit_stats): before each E-step the fit tells it the parameters, and
/// the Collective of the same fit then hands back the sums of that E-step.
class RemoteItems {
public:
    virtual ~RemoteItems() = default;
    /// The E-step of every remote item at these parameters (n_workers x k x k, k).
    virtual void e_step(const double *confusion, const double *prior) = 0;
};

/// One process holding the whole problem: every operation leaves its input as it is.
class LocalCollective final : public Collective {
public:
    int32_t rank() const override { return 0; }
    int32_t size() const override { return 1; }
    void sum(double *, std::size_t) override {}
    void sum(uint64_t *, std::size_t) override {}
    void max(int64_t *, std::size_t) override {}
};

}  // namespace cs
