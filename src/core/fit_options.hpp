// SPDX-License-Identifier: MIT
// Options of a fit of any kind (crowd labels, points, graphs), read from the handle's
// parameters (src/api/params.cpp) and passed by value to the algorithms, which never
// see the C API. Beside FitResult (core/fit_result.hpp): every problem folder uses both.
#pragma once

#include <cstdint>

#include "crowdspec/crowdspec.h"

namespace cs {

struct FitOptions {
    int32_t method = CS_METHOD_AUTO;
    int32_t classes = 0;        // 0 = infer from the labels
    int32_t items = 0;          // 0 = infer
    int32_t workers = 0;        // 0 = infer
    uint64_t seed = 0;
    int32_t threads = 0;        // 0 = automatic (threads_for in util/parallel.hpp)
    int32_t duplicates = CS_DUPLICATES_REJECT;
    int32_t max_iter = 1000;
    double tol = 1e-10;
    int32_t confusion = CS_CONFUSION_FULL;
    int32_t prior = CS_PRIOR_ESTIMATED;
    double smoothing = 0.0;
    int32_t support = CS_SUPPORT_AUTO;      // posterior support of every EM method
    int32_t accel = CS_ACCEL_SQUAREM;       // EM extrapolation
    int32_t identify = CS_IDENTIFY_VOTE;    // naming of classes found up to a permutation
    int32_t groups = CS_GROUPS_BALANCED;    // opt-ds: the first start's worker partition
    int32_t starts = 0;                     // opt-ds: EM starts (spectral ones + majority vote); 0 = auto
    int32_t start_rounds = 0;               // opt-ds: rounds before only the best start goes on
    double delta = 1e-6;
    int32_t power_starts = 100;
    int32_t power_iters = 100;
    int32_t n_init = 1;         // k-means++ restarts (points; spectral k-means of graphs)
    double trim = 3.0;          // graphs: trim nodes of degree > trim x average degree; 0 = none

    // Pooled-centre smoothing of the Dawid-Skene M-step (every EM method).
    int32_t smoothing_center = CS_SMOOTHING_CENTER_UNIFORM;
    double smoothing_strength = 0.0;        // pseudo-labels per confusion row; 0 = auto (k)
    // Variational Bayes methods (bcc, ebcc): the priors of Li, Rubinstein and Cohn.
    int32_t subtypes = 10;                  // ebcc: subtypes per class (M)
    double subtype_concentration = 0.1;     // ebcc: a_pi, split as a_pi / M per subtype
    double class_concentration = 1.0;       // alpha: Dirichlet of the class proportions
    double confusion_diagonal = 4.0;        // a_v: Dirichlet of a confusion row, its own class
    double confusion_off_diagonal = 1.0;    // b_v: every other class
    // bwa (Li, Rubinstein and Cohn, WWW 2019).
    double bwa_strength = 15.0;             // a_v: prior pseudo-labels of a worker's variance
    double bwa_item_precision = 1.0;        // lambda: prior precision of an item's score
    int32_t bwa_prior_correction = 1;       // adj = 4 (1 - 1/k) when 1, else 1
    // la and la-onepass (Yang et al., TKDD 2024).
    double la_alpha = 2.0;                  // Beta(alpha, beta) prior of a worker's ability
    double la_beta = 2.0;
    int32_t la_order = CS_LA_ORDER_RANDOM;  // the first pass's item order
    // Calibration of the Dawid-Skene family's posteriors (crowd/calibration/).
    int32_t calibration = CS_CALIBRATION_AUTO;
    // Ordered classes and the minimax-entropy methods (issue 36).
    int32_t ordinal = 0;                    // 1: the classes are grades ordered by index
    double gamma = 0.25;                    // minimax regularisation; 0 = cross-validated
    int32_t cv_folds = 5;                   // folds of that cross-validation
    int32_t minimax_start = CS_MINIMAX_START_VOTE;  // the minimax methods' start posteriors
    // Pairwise comparisons (src/ranking/): bt, noisy-bt, crowd-bt.
    double comparison_prior = 1.0;          // lambda: virtual wins and losses per item
    int32_t ties = CS_TIES_AUTO;
    int32_t se_items = 2000;                // exact standard errors up to this many items
    double crowd_bt_alpha = 4.0;            // crowd-bt: Beta(alpha, beta) prior of eta
    double crowd_bt_beta = 1.0;
    double score_tol = 1e-3;                // stop when scores move < this many (least) SEs
    // Saved models and incremental updates (crowd/em/incremental.hpp).
    bool keep_labels = true;                // keep a crowd fit's labels on the handle
    int32_t update_rounds = 50;             // most incremental EM rounds per update
    double update_sweep = 4.0;              // labels of other items revisited per new label
    double update_recalibrate = 0.1;        // label growth that re-fits the calibration
    double update_refit = 2.0;              // label growth (a multiple) that refits in full
    double update_refit_work = 0.5;         // share of the labels an update works on that refits
    // Numeric answers (src/numeric/).
    int32_t worker_bias = 1;                // gaussian, student-t: a bias per worker
    double t_dof = 8.0;                     // student-t: degrees of freedom
    double catd_alpha = 0.05;               // catd: (1 - alpha) interval of each variance
    double variance_prior = 2.0;            // a_0 of the inverse-gamma prior on a worker's variance
    double trim_fraction = 0.2;             // trimmed-mean: share dropped at either end

    // Internal, not a parameter of the C API (results do not depend on it): the size of
    // one Dawid-Skene count table, in bytes, from which EM with k >= 3 gathers its
    // M-step counts by code instead of scattering them (crowd/em/dawid_skene.cpp,
    // gathers_counts). Tests set 0 (always gather) or the largest value (never) to run both
    // ways on one crowd.
    int64_t pull_table_bytes = int64_t{8} << 20;
    // Internal as well (results do not depend on it): whether Dawid-Skene EM at k = 4, 5
    // may run its AVX2 E-step kernel where the processor has it (crowd/em/ds_kernel_wide.hpp),
    // and the classifier's M-step its AVX2 sums (crowd/em/model_worker.cpp). Tests set
    // false to compare them with the SSE2 and scalar code bit for bit.
    bool wide_kernels = true;
    // Internal as well (results do not depend on it): whether the E-step kernels of k =
    // 2..5 (k = 2's ratio kernel, the SSE2 pair kernels, the AVX2 kernel of k = 3, 4, 5)
    // form the posterior of items without labels once and copy it
    // (Workspace::empty_items). Tests set false to compare the copies with every row
    // computed, bit for bit.
    bool copy_empty_items = true;
};

}  // namespace cs
