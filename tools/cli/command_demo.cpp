// SPDX-License-Identifier: MIT
// `crowdspec demo`: simulate a realistic crowd with known truth, fit mv, ds, opt-ds and auto
// through the public C API and show how close each gets to the Bayes-optimal labels
// and to the true worker confusion matrices.
#include <cmath>
#include <cstdio>
#include <new>
#include <stdexcept>

#include "cli/command_args.hpp"
#include "cli/commands.hpp"
#include "fitting/fitting.hpp"
#include "io/output.hpp"
#include "sim/crowd_sim.hpp"

namespace cli {

std::string demo_help() {
    return "Usage: crowdspec demo [options]\n"
           "\n"
           "Simulate a crowd (experts, ordinary workers, spammers and a few adversaries,\n"
           "each with its own confusion matrix), fit mv, ds, opt-ds and auto, and print a table:\n"
           "error rate, the oracle (Bayes-optimal) error rate given the true confusion\n"
           "matrices and a uniform prior, iterations, seconds of the fit, and the mean\n"
           "absolute error of the estimated confusion entries (averaged over workers\n"
           "weighted by their label counts; for mv its plug-in estimate from the vote\n"
           "shares). Results depend only on the seed (seconds vary).\n"
           "\n"
           "Options:\n"
           "      --seed N            seed of the simulation and of the fits (default 1)\n"
           "      --items N           items (default 2000)\n"
           "      --workers N         workers (default 100)\n"
           "      --classes K         classes (default 3)\n"
           "      --labels-per-item N distinct workers per item (default 5)\n"
           "      --threads N         threads used inside a fit; 0 = automatic (default)\n"
           "  -h, --help              show this help\n"
           "\n" +
           std::string(kExitCodesHelp);
}

namespace {

/// One row of the demo table.
struct DemoRow {
    std::string method;
    double error = 0.0;
    int32_t iterations = 0;
    double seconds = 0.0;
    double confusion_mae = 0.0;
};

// Fraction of items whose label differs from the simulated truth.
double error_against(const std::vector<int32_t> &labels, const std::vector<int32_t> &truth) {
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < truth.size(); ++j)
        if (labels[j] != truth[j]) ++wrong;
    return static_cast<double>(wrong) / static_cast<double>(truth.size());
}

// Mean |estimated - true| over the k*k entries of each worker's confusion matrix,
// averaged over workers weighted by how many labels each gave: a worker seen twice
// cannot be estimated well and should not count as much as one seen 200 times.
double confusion_mae(const std::vector<double> &estimate, const cs::sim::Crowd &crowd) {
    const std::size_t kk = static_cast<std::size_t>(crowd.k) * static_cast<std::size_t>(crowd.k);
    std::vector<std::size_t> count(static_cast<std::size_t>(crowd.n_workers), 0);
    for (int32_t w : crowd.worker) ++count[static_cast<std::size_t>(w)];
    double total = 0.0, weight = 0.0;
    for (std::size_t i = 0; i < count.size(); ++i) {
        if (count[i] == 0) continue;
        double sum = 0.0;
        for (std::size_t e = 0; e < kk; ++e) sum += std::fabs(estimate[i * kk + e] - crowd.confusion[i * kk + e]);
        total += static_cast<double>(count[i]) * sum / static_cast<double>(kk);
        weight += static_cast<double>(count[i]);
    }
    return weight > 0.0 ? total / weight : 0.0;
}

// Fits one method on the simulated crowd through the public API and scores it.
DemoRow fit_demo_method(const char *name, const cs::sim::Crowd &crowd, const FitSettings &settings) {
    ModelPtr model = make_model(method_id(name), settings);
    CrowdTable table;  // only what timed_fit uses: the triples and names for messages
    table.source = "<simulated crowd>";
    table.item = crowd.item;
    table.worker = crowd.worker;
    table.label = crowd.label;
    DemoRow row;
    row.method = name;
    row.seconds = timed_fit(model.get(), table, name);
    report_fit_notes(model.get(), name);
    row.error = error_against(fitted_labels(model.get(), static_cast<std::size_t>(crowd.n_items)), crowd.truth);
    check_status(model.get(), cs_iterations(model.get(), &row.iterations), "reading the iterations");
    std::vector<double> confusion(crowd.confusion.size());
    check_status(model.get(), cs_confusion(model.get(), confusion.data(), confusion.size()),
                 "reading the confusion matrices");
    row.confusion_mae = confusion_mae(confusion, crowd);
    return row;
}

}  // namespace

int run_demo(const std::vector<std::string> &args, std::size_t first) {
    const std::vector<OptionSpec> specs = {{"seed", true, '\0'},    {"items", true, '\0'},
                                           {"workers", true, '\0'}, {"classes", true, '\0'},
                                           {"labels-per-item", true, '\0'}, {"threads", true, '\0'}};
    const std::optional<ParsedArgs> maybe_parsed = parse_command("demo", args, first, specs, demo_help);
    if (!maybe_parsed) return kExitOk;
    const ParsedArgs &parsed = *maybe_parsed;
    if (!parsed.positionals.empty())
        throw CliError(kExitUsage, "demo: unexpected argument '" + parsed.positionals[0] + "'");

    cs::sim::CrowdSpec spec;  // the simulator's defaults: 2000 items, 100 workers, k = 3, 5 per item
    const auto int_option = [&](const char *name, long long lo, long long hi, long long fallback) {
        const std::optional<std::string> v = parsed.last(name);
        return v ? parse_integer_option(name, *v, lo, hi) : fallback;
    };
    const long long seed = int_option("seed", 0, 9223372036854775807LL, 1);
    spec.seed = static_cast<uint64_t>(seed);
    spec.n_items = static_cast<int32_t>(int_option("items", 1, 10000000, spec.n_items));
    spec.n_workers = static_cast<int32_t>(int_option("workers", 1, 1000000, spec.n_workers));
    spec.k = static_cast<int32_t>(int_option("classes", 2, 100, spec.k));
    spec.labels_per_item = static_cast<int32_t>(int_option("labels-per-item", 1, 1000000, spec.labels_per_item));

    if (static_cast<long long>(spec.n_items) * spec.labels_per_item > 100000000LL)
        throw CliError(kExitUsage, "demo: --items x --labels-per-item must be at most 10^8 labels");

    FitSettings settings;
    settings.params.push_back({"--seed", "seed", std::to_string(seed)});
    settings.params.push_back({"--classes", "classes", std::to_string(spec.k)});
    // The library counts items and workers from the largest id; declare them so that
    // a worker who happened to get no labels keeps its place.
    settings.params.push_back({"--items", "items", std::to_string(spec.n_items)});
    settings.params.push_back({"--workers", "workers", std::to_string(spec.n_workers)});
    if (auto t = parsed.last("threads")) settings.params.push_back({"--threads", "threads", *t});

    cs::sim::Crowd crowd;
    try {
        crowd = cs::sim::simulate_crowd(spec);
    } catch (const std::invalid_argument &e) {
        throw CliError(kExitUsage, std::string("demo: ") + e.what());
    } catch (const std::bad_alloc &) {
        throw CliError(kExitUsage, "demo: the requested crowd does not fit in memory");
    }
    const std::vector<double> uniform(static_cast<std::size_t>(spec.k), 1.0 / spec.k);
    const double oracle = error_against(cs::sim::oracle_labels(crowd, uniform), crowd.truth);

    std::size_t by_type[4] = {0, 0, 0, 0};
    for (cs::sim::WorkerType t : crowd.type) ++by_type[static_cast<int>(t)];

    std::string text;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "Simulated crowd (seed %lld): %d items, %d classes, %d workers "
                  "(%zu experts, %zu normal, %zu spammers, %zu adversaries),\n"
                  "%d labels per item, %zu labels in all.\n\n",
                  seed, crowd.n_items, crowd.k, crowd.n_workers, by_type[0], by_type[1], by_type[2], by_type[3],
                  spec.labels_per_item, crowd.item.size());
    text += buf;
    std::snprintf(buf, sizeof buf, "%-8s %9s %9s %11s %10s %15s\n", "method", "error", "oracle", "iterations",
                  "seconds", "confusion MAE");
    text += buf;
    for (const char *name : {"mv", "ds", "opt-ds", "auto"}) {
        const DemoRow row = fit_demo_method(name, crowd, settings);
        std::snprintf(buf, sizeof buf, "%-8s %8.2f%% %8.2f%% %11d %10.4f %15.4f\n", row.method.c_str(),
                      100.0 * row.error, 100.0 * oracle, row.iterations, row.seconds, row.confusion_mae);
        text += buf;
    }
    text +=
        "\nerror: fraction of items labelled wrongly; oracle: the Bayes-optimal labels given\n"
        "the true confusion matrices (uniform prior); confusion MAE: mean absolute error of\n"
        "the estimated confusion entries, averaged over workers weighted by label count.\n";
    write_stdout(text);
    return kExitOk;
}

}  // namespace cli
