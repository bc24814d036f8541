// SPDX-License-Identifier: MIT
// THE list of methods (see registry.hpp): one row per method, in the order
// cs_method_at() enumerates them (crowd methods, points, graphs, numbers, tags).
#include "api/registry.hpp"

#include <cstring>

#include "crowd/bayes/bcc.hpp"
#include "crowd/bayes/bwa.hpp"
#include "crowd/bayes/ebcc.hpp"
#include "crowd/em/crowd_lloyd.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "crowd/em/glad.hpp"
#include "crowd/em/mace.hpp"
#include "crowd/minimax/minimax_entropy.hpp"
#include "crowd/minimax/ordinal_ds.hpp"
#include "crowd/spectral/opt_ds.hpp"
#include "crowd/spectral/split_methods.hpp"
#include "crowd/voting/crowdlab.hpp"
#include "crowd/voting/light_aggregation.hpp"
#include "crowd/voting/m_msr.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "crowd/voting/weighted_vote.hpp"
#include "ranking/run_comparisons.hpp"
#include "numeric/baselines.hpp"
#include "numeric/truth_discovery.hpp"
#include "numeric/worker_model.hpp"
#include "tags/tag_pooled.hpp"

namespace cs {

namespace {

MethodInfo crowd(int32_t id, const char *name, CrowdMethod fit, const char *summary) {
    return {id, name, InputKind::Crowd, summary, fit, nullptr, nullptr};
}

MethodInfo points(int32_t id, const char *name, PointsMethod fit, const char *summary) {
    return {id, name, InputKind::Points, summary, nullptr, fit, nullptr};
}

MethodInfo graph(int32_t id, const char *name, GraphMethod fit, const char *summary) {
    return {id, name, InputKind::Graph, summary, nullptr, nullptr, fit};
}

MethodInfo comparisons(int32_t id, const char *name, ComparisonMethod fit, const char *summary) {
    return {id, name, InputKind::Comparisons, summary, nullptr, nullptr, nullptr, fit};
}

MethodInfo numbers(int32_t id, const char *name, NumbersMethod fit, const char *summary) {
    return {id, name, InputKind::Numbers, summary, nullptr, nullptr, nullptr, nullptr, fit, nullptr};
}

MethodInfo tags(int32_t id, const char *name, TagsMethod fit, const char *summary) {
    return {id, name, InputKind::Tags, summary, nullptr, nullptr, nullptr, nullptr, nullptr, fit};
}

}  // namespace

const std::vector<MethodInfo> &method_table() {
    static const std::vector<MethodInfo> table = {
        // Crowd labels (cs_fit).
        crowd(CS_METHOD_MV, "mv", fit_mv, "majority vote, ties to the lowest class"),
        crowd(CS_METHOD_DS, "ds", fit_ds, "Dawid-Skene EM from the soft majority vote (MV-D&S)"),
        crowd(CS_METHOD_OPT_DS, "opt-ds", fit_opt_ds,
              "spectral estimate of the confusion matrices, then D&S EM"),
        crowd(CS_METHOD_CROWD_LLOYD, "crowd-lloyd", fit_crowd_lloyd,
              "Lloyd's algorithm on the one-hot labels (Lu and Zhou)"),
        crowd(CS_METHOD_KOS, "kos", fit_kos, "spectral Karger-Oh-Shah on k-1 binary splits"),
        crowd(CS_METHOD_KOS_MP, "kos-mp", fit_kos_message_passing,
              "Karger-Oh-Shah message passing on k-1 binary splits"),
        crowd(CS_METHOD_GHOSH_SVD, "ghosh-svd", fit_ghosh_svd,
              "top singular vector of the +-1 label matrix (Ghosh et al.)"),
        crowd(CS_METHOD_EIGEN_RATIO, "eigen-ratio", fit_eigen_ratio,
              "ratio of worker-agreement eigenvectors (Dalvi et al.)"),
        crowd(CS_METHOD_ONE_COIN_DS, "one-coin-ds", fit_one_coin_ds,
              "MV-D&S with one accuracy per worker, errors uniform"),
        crowd(CS_METHOD_CLASS_ONE_COIN_DS, "class-one-coin-ds", fit_class_one_coin_ds,
              "MV-D&S with one accuracy per worker and true class"),
        crowd(CS_METHOD_WAWA, "wawa", fit_wawa, "majority vote reweighted by each worker's agreement with it"),
        crowd(CS_METHOD_ZBS, "zbs", fit_zbs, "Zero-Based Skill: skills stepped towards agreement with the vote"),
        crowd(CS_METHOD_GLAD, "glad", fit_glad, "GLAD: worker abilities and item difficulties, MAP-EM (Whitehill)"),
        crowd(CS_METHOD_MACE, "mace", fit_mace, "MACE: each worker knows the answer or spams, VB (Hovy et al.)"),
        crowd(CS_METHOD_M_MSR, "m-msr", fit_m_msr, "one-coin skills by robust rank-one completion (Ma, Olshevsky)"),
        crowd(CS_METHOD_EBCC, "ebcc", fit_ebcc,
              "enhanced BCC: per-class subtype mixtures, variational Bayes (Li et al.)"),
        crowd(CS_METHOD_BCC, "bcc", fit_bcc,
              "Bayesian classifier combination, variational Bayes (Kim, Ghahramani)"),
        crowd(CS_METHOD_BWA, "bwa", fit_bwa,
              "Bayesian weighted average: per-class worker precisions, closed form (Li et al.)"),
        crowd(CS_METHOD_LA, "la", fit_la, "LA two-pass: online worker abilities, then a second vote (Yang et al.)"),
        crowd(CS_METHOD_LA_ONEPASS, "la-onepass", fit_la_onepass,
              "LA one-pass: each item decided once, online, by the current abilities (Yang et al.)"),
        crowd(CS_METHOD_AUTO, "auto", fit_auto,
              "the default: D&S EM, each worker pulled towards workers of like activity; calibrated"),
        crowd(CS_METHOD_MINIMAX_ENTROPY, "minimax-entropy", fit_minimax_entropy,
              "minimax conditional entropy: worker and item confusion matrices (Zhou et al.)"),
        crowd(CS_METHOD_ORDINAL_MINIMAX, "ordinal-minimax", fit_ordinal_minimax,
              "minimax conditional entropy for ordered grades (Zhou, Liu, Platt, Meek)"),
        crowd(CS_METHOD_ORDINAL_DS, "ordinal-ds", fit_ordinal_ds,
              "Dawid-Skene EM with ordered-logit workers: a bias and a noise on a graded scale"),
        crowd(CS_METHOD_CROWDLAB, "crowdlab", fit_crowdlab,
              "CROWDLAB: a classifier's probabilities and the labels, weighted ensemble (Goh et al.)"),
        // Points (cs_fit_points).
        points(CS_METHOD_LLOYD, "lloyd", fit_lloyd_points,
               "spectral initialisation, then Lloyd's iterations"),
        points(CS_METHOD_KMEANS_PP, "kmeans++", fit_kmeanspp_points, "k-means++ seeding, then Lloyd's iterations"),
        // Graphs (cs_fit_graph).
        graph(CS_METHOD_COMMU_LLOYD, "commu-lloyd", fit_commu_lloyd,
              "trimmed spectral initialisation, then CommuLloyd (Lu and Zhou)"),
        graph(CS_METHOD_SPEC, "spec", fit_spec, "the trimmed spectral initialisation alone"),
        graph(CS_METHOD_SPEC_MLE, "spec-mle", fit_spec_mle,
              "the spectral initialisation, then one likelihood step (Gao et al.)"),
        // Pairwise comparisons (cs_fit_comparisons).
        comparisons(CS_METHOD_BT, "bt", fit_bt,
                    "Bradley-Terry by MM (Hunter), Davidson ties, a weak prior so scores always exist"),
        comparisons(CS_METHOD_NOISY_BT, "noisy-bt", fit_noisy_bt,
                    "Bradley-Terry with each worker's skill and left/right bias (crowd-kit's NoisyBT), EM"),
        comparisons(CS_METHOD_CROWD_BT, "crowd-bt", fit_crowd_bt,
                    "Crowd-BT: each worker states the true preference with probability eta (Chen et al.), EM"),
        // Numeric answers (cs_fit_numbers).
        numbers(CS_METHOD_MEAN, "mean", fit_mean, "numbers: the mean of each item's answers"),
        numbers(CS_METHOD_MEDIAN, "median", fit_median, "numbers: the median of each item's answers"),
        numbers(CS_METHOD_GAUSSIAN, "gaussian", fit_gaussian,
                "numbers: a bias and a noise per worker, Gaussian, fitted by EM (Raykar et al.)"),
        numbers(CS_METHOD_CATD, "catd", fit_catd,
                "numbers: weights from confidence intervals of worker variances (Li et al. 2014)"),
        numbers(CS_METHOD_CRH, "crh", fit_crh, "numbers: CRH/PM truth discovery, -log loss-share weights (Li et al.)"),
        numbers(CS_METHOD_STUDENT_T, "student-t", fit_student_t,
                "numbers: the gaussian model with Student-t noise, robust to outlying answers"),
        numbers(CS_METHOD_TRIMMED_MEAN, "trimmed-mean", fit_trimmed_mean,
                "numbers: each item's mean without its lowest and highest answers"),
        // Tags (cs_fit_tags; every crowd method above also runs on each tag).
        tags(CS_METHOD_TAG_POOLED, "tag-pooled", fit_tag_pooled,
             "tags: per-tag D&S, each worker's rates pulled to its own average over tags"),
    };
    return table;
}

const MethodInfo *find_method(int32_t id) {
    for (const MethodInfo &m : method_table())
        if (m.id == id) return &m;
    return nullptr;
}

const MethodInfo *find_method(const char *name) {
    for (const MethodInfo &m : method_table())
        if (std::strcmp(m.name, name) == 0) return &m;
    return nullptr;
}

}  // namespace cs
