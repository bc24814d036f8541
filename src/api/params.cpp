// SPDX-License-Identifier: MIT
#include "api/params.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "api/registry.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

std::vector<EnumName> method_names() {
    std::vector<EnumName> names;
    for (const MethodInfo &m : method_table()) names.push_back({m.name, m.id});
    return names;
}

std::string format_number(double v) {
    std::ostringstream out;
    out.precision(17);
    out << v;
    return out.str();
}

}  // namespace

// Defaults and ranges are documented in crowdspec.h; the reasons for the defaults
// are in docs/defaults.md.
const std::vector<ParamSpec> &param_table() {
    static const std::vector<ParamSpec> table = {
        {CS_PARAM_METHOD, "method", true, 1, 999, CS_METHOD_AUTO, method_names()},
        {CS_PARAM_CLASSES, "classes", true, 0, 100000, 0, {}},
        {CS_PARAM_ITEMS, "items", true, 0, 2147483647.0, 0, {}},
        {CS_PARAM_WORKERS, "workers", true, 0, 2147483647.0, 0, {}},
        {CS_PARAM_SEED, "seed", true, 0, 9223372036854775807.0, 0, {}},
        {CS_PARAM_THREADS, "threads", true, 0, 1024, 0, {}},
        {CS_PARAM_DUPLICATES, "duplicates", true, 0, 2, CS_DUPLICATES_REJECT,
         {{"reject", CS_DUPLICATES_REJECT},
          {"first", CS_DUPLICATES_KEEP_FIRST},
          {"last", CS_DUPLICATES_KEEP_LAST}}},
        {CS_PARAM_MAX_ITER, "max_iter", true, 0, 10000000, 1000, {}},
        {CS_PARAM_TOL, "tol", false, 0, 1, 1e-10, {}},
        {CS_PARAM_CONFUSION, "confusion", true, 0, 2, CS_CONFUSION_FULL,
         {{"full", CS_CONFUSION_FULL},
          {"one-coin", CS_CONFUSION_ONE_COIN},
          {"class-one-coin", CS_CONFUSION_CLASS_ONE_COIN}}},
        {CS_PARAM_PRIOR, "prior", true, 0, 1, CS_PRIOR_ESTIMATED,
         {{"uniform", CS_PRIOR_UNIFORM}, {"estimated", CS_PRIOR_ESTIMATED}}},
        {CS_PARAM_SMOOTHING, "smoothing", false, 0, 1e6, 0.0, {}},
        {CS_PARAM_SUPPORT, "support", true, 0, 2, CS_SUPPORT_AUTO,
         {{"all", CS_SUPPORT_ALL}, {"answered", CS_SUPPORT_ANSWERED}, {"auto", CS_SUPPORT_AUTO}}},
        {CS_PARAM_ACCEL, "accel", true, 0, 1, CS_ACCEL_SQUAREM,
         {{"none", CS_ACCEL_NONE}, {"squarem", CS_ACCEL_SQUAREM}}},
        {CS_PARAM_IDENTIFY, "identify", true, 0, 1, CS_IDENTIFY_VOTE,
         {{"vote", CS_IDENTIFY_VOTE}, {"reference", CS_IDENTIFY_REFERENCE}}},
        {CS_PARAM_DELTA, "delta", false, 0, 0.5, 1e-6, {}},
        {CS_PARAM_POWER_STARTS, "power_starts", true, 1, 100000, 100, {}},
        {CS_PARAM_POWER_ITERS, "power_iters", true, 1, 100000, 100, {}},
        {CS_PARAM_GROUPS, "groups", true, 0, 1, CS_GROUPS_BALANCED,
         {{"balanced", CS_GROUPS_BALANCED}, {"reference", CS_GROUPS_REFERENCE}}},
        {CS_PARAM_STARTS, "starts", true, 0, 1000, 0, {}},
        {CS_PARAM_START_ROUNDS, "start_rounds", true, 0, 10000000, 0, {}},
        {CS_PARAM_N_INIT, "n_init", true, 1, 10000, 1, {}},
        {CS_PARAM_TRIM, "trim", false, 0, 1e6, 3.0, {}},
        {CS_PARAM_SMOOTHING_CENTER, "smoothing_center", true, 0, 2, CS_SMOOTHING_CENTER_UNIFORM,
         {{"uniform", CS_SMOOTHING_CENTER_UNIFORM},
          {"pooled", CS_SMOOTHING_CENTER_POOLED},
          {"strata", CS_SMOOTHING_CENTER_STRATA}}},
        {CS_PARAM_SMOOTHING_STRENGTH, "smoothing_strength", false, 0, 1e6, 0.0, {}},
        {CS_PARAM_SUBTYPES, "subtypes", true, 1, 1000, 10, {}},
        {CS_PARAM_SUBTYPE_CONCENTRATION, "subtype_concentration", false, 1e-6, 1e6, 0.1, {}},
        {CS_PARAM_CLASS_CONCENTRATION, "class_concentration", false, 1e-6, 1e6, 1.0, {}},
        {CS_PARAM_CONFUSION_DIAGONAL, "confusion_diagonal", false, 1e-6, 1e6, 4.0, {}},
        {CS_PARAM_CONFUSION_OFF_DIAGONAL, "confusion_off_diagonal", false, 1e-6, 1e6, 1.0, {}},
        {CS_PARAM_BWA_STRENGTH, "bwa_strength", false, 1e-6, 1e6, 15.0, {}},
        {CS_PARAM_BWA_ITEM_PRECISION, "bwa_item_precision", false, 1e-6, 1e6, 1.0, {}},
        {CS_PARAM_BWA_PRIOR_CORRECTION, "bwa_prior_correction", true, 0, 1, 1, {{"off", 0}, {"on", 1}}},
        {CS_PARAM_LA_ALPHA, "la_alpha", false, 1, 1e6, 2.0, {}},
        {CS_PARAM_LA_BETA, "la_beta", false, 1, 1e6, 2.0, {}},
        {CS_PARAM_LA_ORDER, "la_order", true, 0, 1, CS_LA_ORDER_RANDOM,
         {{"random", CS_LA_ORDER_RANDOM}, {"items", CS_LA_ORDER_ITEMS}}},
        {CS_PARAM_CALIBRATION, "calibration", true, 0, 2, CS_CALIBRATION_AUTO,
         {{"none", CS_CALIBRATION_NONE}, {"auto", CS_CALIBRATION_AUTO}, {"labels", CS_CALIBRATION_LABELS}}},
        {CS_PARAM_ORDINAL, "ordinal", true, 0, 1, 0, {}},
        {CS_PARAM_GAMMA, "gamma", false, 0, 1e6, 0.25, {}},
        {CS_PARAM_CV_FOLDS, "cv_folds", true, 2, 100, 5, {}},
        {CS_PARAM_MINIMAX_START, "minimax_start", true, 0, 1, CS_MINIMAX_START_VOTE,
         {{"vote", CS_MINIMAX_START_VOTE}, {"ds", CS_MINIMAX_START_DS}}},
        {CS_PARAM_KEEP_LABELS, "keep_labels", true, 0, 1, 1, {{"no", 0}, {"yes", 1}}},
        {CS_PARAM_UPDATE_ROUNDS, "update_rounds", true, 1, 100000, 50, {}},
        {CS_PARAM_UPDATE_SWEEP, "update_sweep", false, 0, 1e6, 4.0, {}},
        {CS_PARAM_UPDATE_RECALIBRATE, "update_recalibrate", false, 0, 1e6, 0.1, {}},
        {CS_PARAM_UPDATE_REFIT, "update_refit", false, 0, 1e6, 2.0, {}},
        {CS_PARAM_UPDATE_REFIT_WORK, "update_refit_work", false, 0, 1, 0.5, {}},
        {CS_PARAM_COMPARISON_PRIOR, "comparison_prior", false, 0, 1e6, 1.0, {}},
        {CS_PARAM_TIES, "ties", true, 0, 3, CS_TIES_AUTO,
         {{"auto", CS_TIES_AUTO}, {"davidson", CS_TIES_DAVIDSON}, {"half", CS_TIES_HALF}, {"ignore", CS_TIES_IGNORE}}},
        {CS_PARAM_SE_ITEMS, "se_items", true, 0, 100000, 2000, {}},
        {CS_PARAM_CROWD_BT_ALPHA, "crowd_bt_alpha", false, 1, 1e6, 4.0, {}},
        {CS_PARAM_CROWD_BT_BETA, "crowd_bt_beta", false, 1, 1e6, 1.0, {}},
        {CS_PARAM_SCORE_TOL, "score_tol", false, 0, 1, 1e-3, {}},
        {CS_PARAM_WORKER_BIAS, "worker_bias", true, 0, 1, 1, {{"off", 0}, {"on", 1}}},
        {CS_PARAM_T_DOF, "t_dof", false, 0.5, 1e6, 8.0, {}},
        {CS_PARAM_CATD_ALPHA, "catd_alpha", false, 1e-6, 0.5, 0.05, {}},
        {CS_PARAM_VARIANCE_PRIOR, "variance_prior", false, 0, 1e6, 2.0, {}},
        {CS_PARAM_TRIM_FRACTION, "trim_fraction", false, 0, 0.49, 0.2, {}},
    };
    return table;
}

const ParamSpec *find_param(int32_t id) {
    for (const ParamSpec &p : param_table())
        if (p.id == id) return &p;
    return nullptr;
}

const ParamSpec *find_param(const std::string &name) {
    for (const ParamSpec &p : param_table())
        if (name == p.name) return &p;
    return nullptr;
}

Params::Params() {
    const auto &table = param_table();
    ints_.resize(table.size());
    doubles_.resize(table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        ints_[i] = static_cast<int64_t>(table[i].default_value);
        doubles_[i] = table[i].default_value;
    }
}

std::size_t Params::index(int32_t id) const {
    const auto &table = param_table();
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].id == id) return i;
    throw Error(CS_ERR_UNKNOWN_PARAM, "unknown parameter id " + std::to_string(id));
}

const ParamSpec &Params::spec(int32_t id) const { return param_table()[index(id)]; }

void Params::set_int(int32_t id, int64_t value) {
    const std::size_t i = index(id);
    const ParamSpec &p = param_table()[i];
    if (!p.integer) {
        set_double(id, static_cast<double>(value));
        return;
    }
    if (id == CS_PARAM_METHOD && find_method(static_cast<int32_t>(value)) == nullptr)
        throw Error(CS_ERR_UNKNOWN_METHOD, "unknown method id " + std::to_string(value));
    // Compare in long double so that the int64 bounds (seed) are exact.
    const long double v = static_cast<long double>(value);
    if (v < static_cast<long double>(p.lower) || v > static_cast<long double>(p.upper)) {
        throw Error(CS_ERR_PARAM_RANGE, std::string("parameter '") + p.name + "' = " +
                                            std::to_string(value) + " is outside [" +
                                            format_number(p.lower) + ", " +
                                            format_number(p.upper) + "]");
    }
    if (id == CS_PARAM_CLASSES && value == 1)
        throw Error(CS_ERR_TOO_FEW_CLASSES,
                    "parameter 'classes' = 1: at least 2 classes are needed (0 infers k)");
    ints_[i] = value;
    doubles_[i] = static_cast<double>(value);
}

void Params::set_double(int32_t id, double value) {
    const std::size_t i = index(id);
    const ParamSpec &p = param_table()[i];
    if (std::isnan(value))
        throw Error(CS_ERR_PARAM_RANGE, std::string("parameter '") + p.name + "' is NaN");
    if (p.integer) {
        if (value != std::floor(value))
            throw Error(CS_ERR_PARAM_RANGE, std::string("parameter '") + p.name +
                                                "' is an integer; got " + format_number(value));
        // Every whole double in [-2^63, 2^63) converts exactly to int64.
        if (value < -0x1p63 || value >= 0x1p63)
            throw Error(CS_ERR_PARAM_RANGE, std::string("parameter '") + p.name + "' = " +
                                                format_number(value) + " is outside [" +
                                                format_number(p.lower) + ", " +
                                                format_number(p.upper) + "]");
        set_int(id, static_cast<int64_t>(value));
        return;
    }
    if (!(value >= p.lower && value <= p.upper)) {
        throw Error(CS_ERR_PARAM_RANGE, std::string("parameter '") + p.name + "' = " +
                                            format_number(value) + " is outside [" +
                                            format_number(p.lower) + ", " +
                                            format_number(p.upper) + "]");
    }
    doubles_[i] = value;
    ints_[i] = static_cast<int64_t>(value);
}

void Params::set_string(const std::string &name, const std::string &value) {
    const ParamSpec *p = find_param(name);
    if (p == nullptr) throw Error(CS_ERR_UNKNOWN_PARAM, "unknown parameter '" + name + "'");
    for (const EnumName &e : p->names) {
        if (value == e.name) {
            set_int(p->id, e.value);
            return;
        }
    }
    const char *begin = value.c_str();
    char *end = nullptr;
    errno = 0;
    if (p->integer) {
        const long long v = std::strtoll(begin, &end, 10);
        if (end != begin && *end == '\0' && errno == 0) {
            set_int(p->id, v);
            return;
        }
    } else {
        const double v = std::strtod(begin, &end);
        if (end != begin && *end == '\0' && errno == 0) {
            set_double(p->id, v);
            return;
        }
    }
    std::string expected = p->integer ? "an integer" : "a number";
    if (!p->names.empty()) {
        expected = "one of";
        for (const EnumName &e : p->names) expected += std::string(" '") + e.name + "'";
    }
    if (p->id == CS_PARAM_METHOD)
        throw Error(CS_ERR_UNKNOWN_METHOD, "unknown method '" + value + "'; expected " + expected);
    throw Error(CS_ERR_INVALID_ARGUMENT,
                "parameter '" + name + "': cannot read '" + value + "' as " + expected);
}

int64_t Params::get_int(int32_t id) const { return ints_[index(id)]; }

double Params::get_double(int32_t id) const {
    const std::size_t i = index(id);
    return param_table()[i].integer ? static_cast<double>(ints_[i]) : doubles_[i];
}

FitOptions Params::fit_options() const {
    FitOptions o;
    o.method = static_cast<int32_t>(get_int(CS_PARAM_METHOD));
    o.classes = static_cast<int32_t>(get_int(CS_PARAM_CLASSES));
    o.items = static_cast<int32_t>(get_int(CS_PARAM_ITEMS));
    o.workers = static_cast<int32_t>(get_int(CS_PARAM_WORKERS));
    o.seed = static_cast<uint64_t>(get_int(CS_PARAM_SEED));
    o.threads = static_cast<int32_t>(get_int(CS_PARAM_THREADS));
    o.duplicates = static_cast<int32_t>(get_int(CS_PARAM_DUPLICATES));
    o.max_iter = static_cast<int32_t>(get_int(CS_PARAM_MAX_ITER));
    o.tol = get_double(CS_PARAM_TOL);
    o.confusion = static_cast<int32_t>(get_int(CS_PARAM_CONFUSION));
    o.prior = static_cast<int32_t>(get_int(CS_PARAM_PRIOR));
    o.smoothing = get_double(CS_PARAM_SMOOTHING);
    o.support = static_cast<int32_t>(get_int(CS_PARAM_SUPPORT));
    o.accel = static_cast<int32_t>(get_int(CS_PARAM_ACCEL));
    o.identify = static_cast<int32_t>(get_int(CS_PARAM_IDENTIFY));
    o.groups = static_cast<int32_t>(get_int(CS_PARAM_GROUPS));
    o.starts = static_cast<int32_t>(get_int(CS_PARAM_STARTS));
    o.start_rounds = static_cast<int32_t>(get_int(CS_PARAM_START_ROUNDS));
    o.delta = get_double(CS_PARAM_DELTA);
    o.power_starts = static_cast<int32_t>(get_int(CS_PARAM_POWER_STARTS));
    o.power_iters = static_cast<int32_t>(get_int(CS_PARAM_POWER_ITERS));
    o.n_init = static_cast<int32_t>(get_int(CS_PARAM_N_INIT));
    o.trim = get_double(CS_PARAM_TRIM);
    o.smoothing_center = static_cast<int32_t>(get_int(CS_PARAM_SMOOTHING_CENTER));
    o.smoothing_strength = get_double(CS_PARAM_SMOOTHING_STRENGTH);
    o.subtypes = static_cast<int32_t>(get_int(CS_PARAM_SUBTYPES));
    o.subtype_concentration = get_double(CS_PARAM_SUBTYPE_CONCENTRATION);
    o.class_concentration = get_double(CS_PARAM_CLASS_CONCENTRATION);
    o.confusion_diagonal = get_double(CS_PARAM_CONFUSION_DIAGONAL);
    o.confusion_off_diagonal = get_double(CS_PARAM_CONFUSION_OFF_DIAGONAL);
    o.bwa_strength = get_double(CS_PARAM_BWA_STRENGTH);
    o.bwa_item_precision = get_double(CS_PARAM_BWA_ITEM_PRECISION);
    o.bwa_prior_correction = static_cast<int32_t>(get_int(CS_PARAM_BWA_PRIOR_CORRECTION));
    o.la_alpha = get_double(CS_PARAM_LA_ALPHA);
    o.la_beta = get_double(CS_PARAM_LA_BETA);
    o.la_order = static_cast<int32_t>(get_int(CS_PARAM_LA_ORDER));
    o.calibration = static_cast<int32_t>(get_int(CS_PARAM_CALIBRATION));
    o.ordinal = static_cast<int32_t>(get_int(CS_PARAM_ORDINAL));
    o.gamma = get_double(CS_PARAM_GAMMA);
    o.cv_folds = static_cast<int32_t>(get_int(CS_PARAM_CV_FOLDS));
    o.minimax_start = static_cast<int32_t>(get_int(CS_PARAM_MINIMAX_START));
    o.keep_labels = get_int(CS_PARAM_KEEP_LABELS) != 0;
    o.update_rounds = static_cast<int32_t>(get_int(CS_PARAM_UPDATE_ROUNDS));
    o.update_sweep = get_double(CS_PARAM_UPDATE_SWEEP);
    o.update_recalibrate = get_double(CS_PARAM_UPDATE_RECALIBRATE);
    o.update_refit = get_double(CS_PARAM_UPDATE_REFIT);
    o.update_refit_work = get_double(CS_PARAM_UPDATE_REFIT_WORK);
    o.comparison_prior = get_double(CS_PARAM_COMPARISON_PRIOR);
    o.ties = static_cast<int32_t>(get_int(CS_PARAM_TIES));
    o.se_items = static_cast<int32_t>(get_int(CS_PARAM_SE_ITEMS));
    o.crowd_bt_alpha = get_double(CS_PARAM_CROWD_BT_ALPHA);
    o.crowd_bt_beta = get_double(CS_PARAM_CROWD_BT_BETA);
    o.score_tol = get_double(CS_PARAM_SCORE_TOL);
    o.worker_bias = static_cast<int32_t>(get_int(CS_PARAM_WORKER_BIAS));
    o.t_dof = get_double(CS_PARAM_T_DOF);
    o.catd_alpha = get_double(CS_PARAM_CATD_ALPHA);
    o.variance_prior = get_double(CS_PARAM_VARIANCE_PRIOR);
    o.trim_fraction = get_double(CS_PARAM_TRIM_FRACTION);
    return o;
}

}  // namespace cs
