// SPDX-License-Identifier: MIT
// One pass over the pairs, in pair order, that scatters per-item and per-worker sums
// (the MM sweep's denominators, the responsibilities' wins and worker totals) without
// gathering through an index: the pairs are cut into a few contiguous chunks, each
// chunk adds into its own table, and the tables are added up in chunk order. The
// chunks depend on the data only (never on the thread count), so every sum is
// bit-identical for any number of threads (DESIGN.md, Determinism).
//
// Why not along per-item rows (each item's pairs): a sweep along the rows reads each
// pair's weights twice through an index, a random gather from an array of 24 bytes a
// pair (24 MB at 10^6 pairs, beyond L2), and the worker models rebuilt the rows after
// every E-step; measured at 10^6 comparisons that rebuild and the gather of each
// worker's responsibilities were 30 % of crowd-bt's time (bench/README.md, issue 35).
// A chunk's table of items and workers stays in L2.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ranking/bt_steps.hpp"
#include "util/parallel.hpp"

namespace cs {

class PairChunks {
public:
    /// At most this many chunks (enough to keep two to eight threads busy).
    static constexpr int64_t kMaxChunks = 16, kMinChunks = 4;

    /// Chunks for `pairs` pairs adding into tables of `width` doubles: as many as keep
    /// the tables' final addition (chunks x width) at a quarter of the pass or less, but
    /// at least kMinChunks once there are that many blocks of kPairBlock pairs (so that a
    /// fit of many items, whose tables are wide, still runs on several threads), at most
    /// kMaxChunks.
    PairChunks(int64_t pairs, int64_t width) : pairs_(pairs), width_(std::max<int64_t>(1, width)) {
        const int64_t by_width = pairs / (4 * width_), by_blocks = std::min(kMinChunks, pairs / kPairBlock);
        count_ = std::max<int64_t>(1, std::min<int64_t>(kMaxChunks, std::max(by_width, by_blocks)));
        tables_.assign(static_cast<std::size_t>(count_ * width_), 0.0);
        partial_.assign(static_cast<std::size_t>(count_), 0.0);
    }

    int64_t width() const { return width_; }

    /// f(begin, end, table) for every chunk, table = its zeroed `width` doubles; the
    /// double f returns is the chunk's partial sum. Returns the partial sums' total in
    /// chunk order; `out` receives the tables' sum (width doubles).
    template <class F>
    double run(Team &team, std::vector<double> &out, F &&f) {
        std::fill(tables_.begin(), tables_.end(), 0.0);
        team.run(count_, [&](int64_t c) {
            const int64_t begin = pairs_ * c / count_, end = pairs_ * (c + 1) / count_;
            partial_[static_cast<std::size_t>(c)] = f(begin, end, tables_.data() + c * width_);
        });
        out.resize(static_cast<std::size_t>(width_));
        for_blocks(team, width_, kItemBlock, [&](int64_t begin, int64_t end, int64_t) {
            for (int64_t e = begin; e < end; ++e) {
                double sum = tables_[static_cast<std::size_t>(e)];
                for (int64_t c = 1; c < count_; ++c) sum += tables_[static_cast<std::size_t>(c * width_ + e)];
                out[static_cast<std::size_t>(e)] = sum;
            }
        });
        return sum_in_order(partial_);
    }

private:
    int64_t pairs_, width_, count_;
    std::vector<double> tables_, partial_;
};

/// Two sums per item accumulated along the pairs' lower items: pairs come sorted by lo,
/// so a run of pairs shares lo and its sums stay in registers, added to the tables once
/// per run. Without it consecutive pairs wait on each other's store to the same entry
/// (a read-modify-write chain through memory, about 10 cycles a pair).
struct LowItemSums {
    std::size_t item = static_cast<std::size_t>(-1);
    double a = 0.0, b = 0.0;

    /// Moves to item `lo`, first adding the previous item's sums to into_a and into_b
    /// (into_b may be null: b is then not used).
    void move_to(std::size_t lo, double *into_a, double *into_b) {
        if (lo == item) return;
        flush(into_a, into_b);
        item = lo;
    }
    void flush(double *into_a, double *into_b) {
        if (item != static_cast<std::size_t>(-1)) {
            into_a[item] += a;
            if (into_b != nullptr) into_b[item] += b;
        }
        a = b = 0.0;
    }
};

/// Sums of logarithms with one log() per many terms: sum_k log(x_k) as log(prod_k x_k),
/// the product flushed into the sum before it leaves [1e-200, 1e200]; a factor outside
/// [1e-100, 1e100] goes to the sum directly, so the product never under- or
/// overflows. Rounding: about one ulp per factor, relative to the product, i.e. below
/// 1e-13 absolute on the sum for a thousand factors -- far below any tolerance of a fit.
class LogProduct {
public:
    void add(double x) {
        if (x < 1e-100 || x > 1e100) {
            sum_ += std::log(x);
            return;
        }
        product_ *= x;
        if (product_ < 1e-200 || product_ > 1e200) {
            sum_ += std::log(product_);
            product_ = 1.0;
        }
    }
    /// add(x) for 0 < x <= 1 (a probability): one test fewer.
    void add_probability(double x) {
        if (x < 1e-100) {
            sum_ += std::log(x);
            return;
        }
        product_ *= x;
        if (product_ < 1e-200) {
            sum_ += std::log(product_);
            product_ = 1.0;
        }
    }
    double total() const { return sum_ + std::log(product_); }

private:
    double product_ = 1.0, sum_ = 0.0;
};

}  // namespace cs
