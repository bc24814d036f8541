// SPDX-License-Identifier: MIT
// Helpers shared by the C++ tests: an owning handle, one-call fits and result
// readers over the public C API, and the loader of ../shared/datasets.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "crowdspec/crowdspec.h"

namespace test {

struct ModelDeleter {
    void operator()(cs_model *m) const { cs_destroy(m); }
};
using Model = std::unique_ptr<cs_model, ModelDeleter>;

/// The parameters that make opt-ds the paper's algorithm as its reference code runs it:
/// worker i in group i mod 3, one spectral start named by column matching, the uniform
/// prior, plain EM, every class possible.
inline const std::vector<std::pair<const char *, const char *>> kOptDsReference = {
    {"groups", "reference"}, {"starts", "1"},   {"identify", "reference"},
    {"prior", "uniform"},    {"accel", "none"}, {"support", "all"}};

inline Model make_model(const char *method) {
    Model m(cs_create());
    if (m && method) cs_set_param_string(m.get(), "method", method);
    return m;
}

struct Triples {
    std::vector<int32_t> item, worker, label;
    std::size_t size() const { return item.size(); }
    void add(int32_t j, int32_t i, int32_t c) {
        item.push_back(j);
        worker.push_back(i);
        label.push_back(c);
    }
};

inline cs_status fit(cs_model *m, const Triples &t) {
    return cs_fit(m, t.item.data(), t.worker.data(), t.label.data(), t.size());
}

inline std::vector<int32_t> labels(const cs_model *m) {
    std::size_t n = 0;
    cs_n_items(m, &n);
    std::vector<int32_t> out(n);
    cs_labels(m, out.data(), out.size());
    return out;
}

inline std::vector<double> posteriors(const cs_model *m) {
    std::size_t n = 0, k = 0;
    cs_n_items(m, &n);
    cs_n_classes(m, &k);
    std::vector<double> out(n * k);
    cs_posteriors(m, out.data(), out.size());
    return out;
}

inline std::vector<double> confusion(const cs_model *m) {
    std::size_t w = 0, k = 0;
    cs_n_workers(m, &w);
    cs_n_classes(m, &k);
    std::vector<double> out(w * k * k);
    cs_confusion(m, out.data(), out.size());
    return out;
}

inline std::vector<double> trace(const cs_model *m) {
    std::size_t n = 0;
    cs_trace_length(m, &n);
    std::vector<double> out(n);
    cs_trace(m, out.data(), out.size());
    return out;
}

inline int32_t iterations(const cs_model *m) {
    int32_t it = -1;
    cs_iterations(m, &it);
    return it;
}

inline int32_t notes(const cs_model *m) {
    int32_t n = -1;
    cs_fit_notes(m, &n);
    return n;
}

/// One of the five shared datasets: 1-based integer files turned 0-based.
struct Dataset {
    bool found = false;
    Triples labels;
    std::map<int32_t, int32_t> truth;  // item -> class (files repeat lines: read as a map)
};

inline Dataset load_dataset(const std::string &stem) {
    Dataset d;
    const std::string dir = CS_DATASETS_DIR;
    FILE *crowd = std::fopen((dir + "/" + stem + "_crowd.txt").c_str(), "r");
    FILE *truth = std::fopen((dir + "/" + stem + "_truth.txt").c_str(), "r");
    if (crowd && truth) {
        int a, b, c;
        while (std::fscanf(crowd, "%d %d %d", &a, &b, &c) == 3) d.labels.add(a - 1, b - 1, c - 1);
        while (std::fscanf(truth, "%d %d", &a, &b) == 2) d.truth[a - 1] = b - 1;
        d.found = !d.labels.item.empty();
    }
    if (crowd) std::fclose(crowd);
    if (truth) std::fclose(truth);
    return d;
}

/// Fraction of items with truth whose label differs.
inline double error_rate(const std::vector<int32_t> &predicted, const std::map<int32_t, int32_t> &truth) {
    std::size_t wrong = 0, scored = 0;
    for (const auto &kv : truth) {
        if (kv.first >= static_cast<int32_t>(predicted.size())) continue;
        ++scored;
        wrong += predicted[kv.first] != kv.second;
    }
    return scored ? static_cast<double>(wrong) / scored : 0.0;
}

}  // namespace test
