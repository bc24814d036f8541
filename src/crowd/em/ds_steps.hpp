// SPDX-License-Identifier: MIT
// The passes of one Dawid-Skene EM round over a fit's workspace (ds_workspace.hpp):
// the E-step (Z-4) of every partition, with the next M-step's counts scattered in the
// same pass (ds_e_step.cpp), and the M-step (Z-5) that turns those counts into
// confusion matrices, the prior and the logs the next E-step reads (ds_m_step.cpp).
// The EM loop, its starts and its acceleration (dawid_skene.cpp) are built from these.
#pragma once

#include <vector>

#include "core/fit_options.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "crowd/em/ds_workspace.hpp"
#include "data/crowd_data.hpp"

namespace cs::ds {

// ---- E-step (ds_e_step.cpp)

// The E-step at `params`: posteriors q, the log-likelihood and the impossible items;
// with `scatter`, also the next M-step's counts. `logs_ready` when the finish_m_step
// that produced `params` has already filled the logs.
EStep run_e_step(const CrowdData &d, const DsParams &params, Workspace &ws, std::vector<double> &q,
                 bool scatter, bool logs_ready = false);

// ---- M-step (ds_m_step.cpp)

// Counts of the posteriors q in every partition (the M-step of a posterior start).
void scatter_posteriors(const CrowdData &d, Workspace &ws, const double *q);

// Pull mode (Workspace::pull): the prior sums of every partition, and q for the
// M-step's gather.
void pull_from(const CrowdData &d, Workspace &ws, const double *q);

// The M-step (Z-5) from the counts of the last pass; with `logs`, also the logs of the
// next E-step (see the definition).
void finish_m_step(const CrowdData &d, Workspace &ws, const FitOptions &options, DsParams &params,
                   bool logs = true);

// The counts the last E-step scattered, summed over the partitions as finish_m_step sums
// them: counts[code * k + l] = sum over the labels of that code (worker * k + label) of
// their item's q(l), and class_mass[l] = sum_j q_j(l), over this process's items (in a
// distributed fit, the caller sums them over the shards as it would its own). Returns
// false, with both empty, when no table holds them: pull mode (gathered by code), no
// table, or an engine's items (cs_fit_stats). Callers read them only while q is the
// posteriors of that E-step.
bool counted_posteriors(const CrowdData &d, const Workspace &ws, std::vector<double> &counts,
                        std::vector<double> &class_mass);

// log pi and log w of given parameters, for an E-step at parameters that did not come
// from finish_m_step (a start, an extrapolated SQUAREM point).
void prepare_logs(const CrowdData &d, const DsParams &params, Workspace &ws);

// k = 2: the log ratios of the logs in ws.log_pi, for logs that were taken elsewhere.
void ratios_from_logs(const CrowdData &d, Workspace &ws);

// The M-step (Z-5) from counts summed elsewhere, without a workspace: counts n_workers x
// k (observed) x k (true), the class mass (k), the items of the whole problem, and the
// workers' activity strata (pooled_prior.hpp; used with smoothing_center = strata).
// The same arithmetic as finish_m_step on the same sums.
void m_step_from_totals(const double *counts, const double *class_mass, int32_t n_workers, int32_t k,
                        int64_t n_items, const std::vector<int32_t> &strata, int32_t n_strata,
                        const FitOptions &options, DsParams &params);

// The E-step (Z-4) of the listed items alone (an incremental update), one after another:
// for each item j of `items`, q_j from log_pi (worker x observed x true, as the kernels
// read it) and log_prior, its log-likelihood term in item_ll[j] (0 for an impossible
// item) and impossible[j]; with `counts` (codes x k) and `class_mass`, q_j is added
// into the rows of its labels and into the class mass. `allowed`: the answer sets of
// every item (n_items x k), or null. `item_terms` (n_items x k, or null): each item's
// model term m_j(t) (crowd/em/model_worker.hpp), added to its sums as the full E-step does.
void e_step_items(const CrowdData &d, const int32_t *items, std::size_t n, const double *log_pi,
                  const double *log_prior, const double *prior, const uint8_t *allowed, double *q,
                  double *item_ll, uint8_t *impossible, double *counts, double *class_mass,
                  const double *item_terms = nullptr);

// One round of incremental EM (ds_settle.cpp) over the items [0, n) of `d` (an update's gathered working
// set, whose items hold nothing else), in one pass: each item's posterior q_j (Z-4) at
// log_pi and log_prior, and the sums moved by it -- with `shares_in_sums` the item's
// previous q_j is already in `counts` and `class_mass` and the change q_j(new) - q_j(old)
// is added, else q_j itself -- clamped at 0 as remove-then-add clamps (a count is never
// negative). Per item, top[j] and sum[j] of its log-likelihood term (term = top + log sum
// for an ordinary item, top for a gold one, 0 when impossible; item_log_likelihood) and
// impossible[j]. Returns the items' total log-likelihood (one log per batch of items, as
// the full E-step takes it), in `moved` the largest change of a posterior entry, and in
// `margin` the smallest gap between an item's largest and second largest posterior
// entry after the round (0 at an exact tie; gold and impossible items, whose posteriors
// do not move, left out; infinity when no item is left).
// `item_terms` (n x k, or null): each item's classifier term m_j(t)
// (crowd/em/model_worker.hpp), added to its sums as the full E-step adds it.
double e_step_settle(const CrowdData &d, int64_t n, const double *log_pi, const double *log_prior,
                     const double *prior, const uint8_t *allowed, bool shares_in_sums, double *q, double *top,
                     double *sum, uint8_t *impossible, double *counts, double *class_mass, double &moved,
                     double &margin, const double *item_terms = nullptr);

// The largest entry of a posterior row of k less the second largest (0 at an exact tie):
// e_step_settle's margin of one item.
double top_margin(const double *q, int32_t k);

// Item j's log-likelihood term from e_step_settle's top and sum.
double item_log_likelihood(const CrowdData &d, int64_t j, double top, double sum, bool impossible);

}  // namespace cs::ds
