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

// log pi and log w of given parameters, for an E-step at parameters that did not come
// from finish_m_step (a start, an extrapolated SQUAREM point).
void prepare_logs(const CrowdData &d, const DsParams &params, Workspace &ws);

// k = 2: the log ratios of the logs in ws.log_pi, for logs that were taken elsewhere.
void ratios_from_logs(const CrowdData &d, Workspace &ws);

}  // namespace cs::ds
