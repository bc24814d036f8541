// SPDX-License-Identifier: MIT
// The workspace of one Dawid-Skene EM fit (ds_workspace.hpp): how its tables are sized
// and filled once per fit.
#include "crowd/em/ds_workspace.hpp"

#include "priors/pooled_prior.hpp"

#include "crowd/em/dawid_skene.hpp"
#include "util/simd_quad.hpp"

namespace cs::ds {

namespace {

// The number of labels with each code, counted on the team: each task counts one range
// of the labels, and the ranges' counts are added in order (integers, so exact).
std::vector<double> count_codes(const CrowdData &data, std::size_t codes, Team &team) {
    const std::size_t n = data.n_labels();
    const std::size_t ranges = n >= 2 * kMinParallelLabels ? static_cast<std::size_t>(team.size()) : 1;
    std::vector<int64_t> count(ranges * codes, 0);
    team.run(static_cast<int64_t>(ranges), [&](int64_t r) {
        int64_t *own = count.data() + static_cast<std::size_t>(r) * codes;
        const std::size_t last = (static_cast<std::size_t>(r) + 1) * n / ranges;
        for (std::size_t p = static_cast<std::size_t>(r) * n / ranges; p < last; ++p) ++own[data.item_code[p]];
    });
    std::vector<double> out(codes, 0.0);
    for (std::size_t c = 0; c < codes; ++c) {
        int64_t sum = 0;
        for (std::size_t r = 0; r < ranges; ++r) sum += count[r * codes + c];
        out[c] = static_cast<double>(sum);  // exact: counts below 2^53
    }
    return out;
}

}  // namespace

Workspace::Workspace(const CrowdData &data, const FitOptions &options, bool scatter, bool support,
                     const std::vector<uint8_t> *shared, const LabelsByCode *shared_by_code)
    : k(data.k),
      table(static_cast<int64_t>(data.n_workers) * data.k * data.k),
      parts(partition_items(data, table, 4)),
      total(scatter ? static_cast<std::size_t>(table + data.k) : 0),
      prior_sums(parts.size() * static_cast<std::size_t>(data.k)),
      log_prior(static_cast<std::size_t>(data.k)),
      part_ll(parts.size()),
      part_impossible(parts.size()),
      threads(threads_for(options.threads, static_cast<int64_t>(data.n_labels()))),
      team(threads) {
    // About 32,768 table entries read per M-step task (every partition's copy of
    // the block's rows), so that the sum of the copies spreads over the team.
    const int64_t kk = static_cast<int64_t>(data.k) * data.k;
    worker_block = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, kk * n_parts()));
    allocate_table(log_pi, static_cast<std::size_t>(table));
#if defined(CS_HAVE_QUAD)
    // The same bound as the pair kernels' choice between by item and batched (ds_e_step.cpp).
    wide = options.wide_kernels && data.k >= 3 && data.k <= 5 && table * 16 <= (int64_t{1} << 20) &&
           cpu_has_avx2();
#endif
    const int64_t codes = static_cast<int64_t>(data.n_workers) * data.k;
    count_row = wide ? wide_row(data.k) : data.k;
    count_table = codes * count_row;
    if (wide) allocate_table(wide_log_pi, static_cast<std::size_t>(codes * count_row));
    empty_items = options.copy_empty_items && data.k >= 2 && data.k <= 5 && data.unlabeled_items() > 0;
    // The labels per code, counted once on the team: the k = 2 ratio kernel's
    // code_labels, and the strata's labels per worker when the codes do not outnumber
    // the labels (then a table by code is cheaper than a pass by worker).
    const bool want_strata = scatter && options.smoothing_center == CS_SMOOTHING_CENTER_STRATA;
    std::vector<double> code_counts;
    if (data.k == 2 || (want_strata && static_cast<uint64_t>(codes) <= data.n_labels()))
        code_counts = count_codes(data, static_cast<std::size_t>(codes), team);
    if (want_strata)
        strata = code_counts.empty() ? worker_strata(data, n_strata) : worker_strata_of_codes(data, code_counts, n_strata);
    if (scatter && gathers_counts(data, options)) {
        if (shared_by_code == nullptr) {
            own_by_code = labels_by_code(data, team);
            shared_by_code = &own_by_code;
        }
        by_code = shared_by_code;
    } else if (scatter) {
        allocate_table(counts, parts.size() * static_cast<std::size_t>(count_table));
    }
    if (data.k == 2) {
        allocate_table(ratio, static_cast<std::size_t>(codes));
        code_labels = std::move(code_counts);
        block_ll.assign(static_cast<std::size_t>(n_worker_blocks(data.n_workers)), 0.0);
        block_special.assign(block_ll.size(), 0.0);
    }
    if (!support || !restricts_support(data, options)) return;
    if (shared == nullptr) {
        own_allowed = answer_sets(data);
        shared = &own_allowed;
    }
    allowed = shared->data();
}

}  // namespace cs::ds
