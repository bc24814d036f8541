// SPDX-License-Identifier: MIT
// What a fit produces, whatever its input kind: everything the cs_* result getters
// copy out. Fields a method does not produce stay empty.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crowdspec/crowdspec.h"

namespace cs {

struct FitResult {
    int32_t input_kind = CS_INPUT_CROWD;  // cs_input_kind of the fit
    int32_t n_items = 0;                  // items, points or nodes
    int32_t n_workers = 0;
    int32_t k = 0;
    std::vector<int32_t> labels;      // n_items
    std::vector<double> posteriors;   // n_items x k
    std::vector<double> confusion;    // n_workers x k (true) x k (observed)
    std::vector<double> prior;        // k
    std::vector<double> model_confusion;  // k x k: the model's, when EM estimated one (cs_model_confusion)
    // Crowd fits (crowd/worker_diagnostics.hpp, issue 34): the typical worker's
    // confusion matrix (k x k, label-weighted soft counts) behind cs_label_next, and
    // per worker the spammer score, worst class and accuracy with its 95 % interval.
    std::vector<double> typical_confusion;
    std::vector<double> worker_spammer;
    std::vector<int32_t> worker_worst_class;
    std::vector<double> worker_accuracy, worker_accuracy_low, worker_accuracy_high;
    // Dawid-Skene EM fits, handed from EM to the steps that end the same fit and cleared
    // there (run_crowd.cpp), never kept with a model: the soft counts of `posteriors` by
    // label code, posterior_counts[code * k + t] = sum over the labels of that code
    // (worker * k + label) of their item's q(t), and posterior_class_mass[t] = sum_j
    // q_j(t), as EM's last E-step scattered them (ds::counted_posteriors). The
    // calibration and the worker diagnostics read them instead of a pass over the labels
    // of their own. Empty when EM did not keep them, and emptied by whatever changes the
    // posteriors after EM (drop_posterior_counts), except the calibration, which counts
    // the rows it tempers in their place (crowd/calibration/calibration.hpp).
    std::vector<double> posterior_counts;
    std::vector<double> posterior_class_mass;
    std::vector<double> trace;        // objective after each completed iteration
    bool has_log_likelihood = false;  // trace holds log-likelihoods (EM methods)
    int32_t iterations = 0;
    bool converged = false;
    // Calibration applied to the posteriors (crowd/calibration/calibration.hpp).
    double temperature = 1.0;
    double mixing = 0.0;
    int32_t calibration = CS_CALIBRATION_NONE;  // the source used
    int32_t notes = 0;                // cs_fit_note bits
    std::string note_message;         // explanation of the notes, for cs_last_error
    bool ordered = false;             // crowd fits: the classes are ordered grades (an
                                      // ordinal method, or the "ordinal" parameter)

    // Method-specific estimates (cs_estimate), e.g. glad's worker abilities: a name
    // and a rows x cols row-major table.
    struct Estimate {
        std::string name;
        int32_t rows = 0;
        int32_t cols = 0;
        std::vector<double> values;
    };
    std::vector<Estimate> estimates;

    // Distributed crowd fits (cs_fit_mpi): n_items and the item rows above are this
    // process's items; item_ids holds their global ids, total_items the whole
    // problem's item count. Empty / 0 for every other fit.
    std::vector<int32_t> item_ids;
    int64_t total_items = 0;

    // Points fits (cs_fit_points).
    int32_t n_dims = 0;
    std::vector<double> centres;      // k x n_dims, row-major: the cluster means

    // Numbers fits (cs_fit_numbers): per item the estimate and its standard error, per
    // worker the bias and the noise (a standard deviation).
    std::vector<double> values;
    std::vector<double> standard_errors;
    std::vector<double> worker_bias;
    std::vector<double> worker_noise;

    // Tags fits (cs_fit_tags): P(tag applies), n_items x n_tags; per worker and tag the
    // sensitivity and specificity, n_workers x n_tags.
    int32_t n_tags = 0;
    std::vector<double> tag_probabilities;
    std::vector<double> sensitivity;
    std::vector<double> specificity;

    // Graph fits (cs_fit_graph): edge densities under the final labels.
    double within_density = 0.0;
    double between_density = 0.0;

    // Comparisons fits (cs_fit_comparisons): per item score, standard error and rank
    // (1 = best); per worker reliability (noisy-bt, crowd-bt; empty for bt).
    std::vector<double> scores;
    std::vector<double> score_se;
    std::vector<int32_t> ranks;
    std::vector<double> reliability;

    /// Forget EM's counts of the posteriors (posterior_counts): called by whatever
    /// changes `posteriors` after EM, and when the fit ends (the memory goes with them).
    void drop_posterior_counts() {
        std::vector<double>().swap(posterior_counts);
        std::vector<double>().swap(posterior_class_mass);
    }
};

}  // namespace cs
