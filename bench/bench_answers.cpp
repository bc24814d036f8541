// SPDX-License-Identifier: MIT
// Numeric answers and tags (issue 37): accuracy of every method on simulated crowds
// (the measurements behind the defaults, docs/defaults.md), fit time and peak memory at
// 10^6 and 10^7 answers, and a simulated tag crowd written as CSV for crowd-kit
// (bench/compare_crowdkit_tags.py). One JSON line per measurement.
//
//   build/bench/bench_answers --mode accuracy-numbers [--seeds 5]
//   build/bench/bench_answers --mode accuracy-tags [--seeds 5]
//   build/bench/bench_answers --mode speed-numbers --answers 1e7 [--methods gaussian,catd] [--threads 0]
//   build/bench/bench_answers --mode speed-tags --answers 1e7 [--tags 5] [--methods tag-pooled,mv]
//   build/bench/bench_answers --mode write-tags --answers 1e5 --out crowd.csv --truth truth.csv
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "crowdspec/crowdspec.h"
#include "sim/answer_sim.hpp"

namespace {

const char kUsage[] =
    "usage: bench_answers --mode accuracy-numbers|accuracy-tags|speed-numbers|speed-tags|write-tags\n"
    "       [--seeds N] [--answers N] [--tags T] [--methods a,b:param=value] [--threads N] [--out FILE] [--truth FILE]\n";

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = s.find(',', start);
        out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) return out;
        start = comma + 1;
    }
}

// A method of --methods: NAME or NAME:param=value:param=value.
cs_model *configured(const std::string &spec) {
    cs_model *m = cs_create();
    std::size_t colon = spec.find(':');
    cs_set_param_string(m, "method", spec.substr(0, colon).c_str());
    while (colon != std::string::npos) {
        const std::size_t next = spec.find(':', colon + 1);
        const std::string kv = spec.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1);
        const std::size_t eq = kv.find('=');
        if (eq == std::string::npos || cs_set_param_string(m, kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str()) != CS_OK) {
            std::fprintf(stderr, "bad method parameter '%s': %s\n", kv.c_str(), cs_last_error(m));
            std::exit(2);
        }
        colon = next;
    }
    return m;
}

// CPU seconds of the process so far (every thread, user and system): on a shared
// machine the fit's CPU time is steadier than its wall time.
double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double peak_rss_mb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

struct NumberRun {
    std::vector<double> value;
    double seconds = 0.0, cpu = 0.0;
    int32_t iterations = 0;
};

NumberRun run_numbers(const cs::sim::NumericCrowd &c, const std::string &method, int threads) {
    cs_model *m = configured(method);
    cs_set_int(m, CS_PARAM_THREADS, threads);
    NumberRun r;
    const double t0 = bench::now(), c0 = cpu_seconds();
    if (cs_fit_numbers(m, c.item.data(), c.worker.data(), c.value.data(), c.value.size()) != CS_OK) {
        std::fprintf(stderr, "%s: %s\n", method.c_str(), cs_last_error(m));
        std::exit(1);
    }
    r.seconds = bench::now() - t0;
    r.cpu = cpu_seconds() - c0;
    r.value.resize(static_cast<std::size_t>(c.n_items));
    cs_number_estimates(m, r.value.data(), nullptr, r.value.size());
    cs_iterations(m, &r.iterations);
    cs_destroy(m);
    return r;
}

struct TagRun {
    std::vector<int32_t> member;
    double seconds = 0.0, cpu = 0.0;
    int32_t iterations = 0;
};

TagRun run_tags(const cs::sim::TagCrowd &c, const std::string &method, int threads) {
    cs_model *m = configured(method);
    cs_set_int(m, CS_PARAM_THREADS, threads);
    TagRun r;
    const double t0 = bench::now(), c0 = cpu_seconds();
    if (cs_fit_tags(m, c.item.data(), c.worker.data(), c.tag_start.data(), c.tag.data(), c.item.size(), c.n_tags) !=
        CS_OK) {
        std::fprintf(stderr, "%s: %s\n", method.c_str(), cs_last_error(m));
        std::exit(1);
    }
    r.seconds = bench::now() - t0;
    r.cpu = cpu_seconds() - c0;
    r.member.resize(static_cast<std::size_t>(c.n_items) * c.n_tags);
    cs_tag_sets(m, nullptr, 0, r.member.data(), r.member.size());
    cs_iterations(m, &r.iterations);
    cs_destroy(m);
    return r;
}

// The numeric scenarios: the worker mixes of docs/defaults.md.
struct NumberScenario {
    const char *name;
    cs::sim::NumbersSpec spec;
};

std::vector<NumberScenario> number_scenarios() {
    std::vector<NumberScenario> s;
    cs::sim::NumbersSpec mixed;  // good, biased, noisy and adversarial workers
    s.push_back({"mixed", mixed});
    cs::sim::NumbersSpec outliers;
    outliers.good = 1.0;
    outliers.biased = outliers.noisy = outliers.adversarial = 0.0;
    outliers.outlier_rate = 0.05;
    s.push_back({"outliers-5pc", outliers});
    cs::sim::NumbersSpec sparse = mixed;  // 1000 workers of about 10 answers each
    sparse.n_workers = 1000;
    s.push_back({"sparse-workers", sparse});
    cs::sim::NumbersSpec homogeneous = outliers;
    homogeneous.outlier_rate = 0.0;
    s.push_back({"homogeneous", homogeneous});
    cs::sim::NumbersSpec noisy_only = homogeneous;  // good and noisy workers only
    noisy_only.noisy = 0.5;
    s.push_back({"good-and-noisy", noisy_only});
    cs::sim::NumbersSpec mixed_outliers = mixed;
    mixed_outliers.outlier_rate = 0.02;
    s.push_back({"mixed-outliers-2pc", mixed_outliers});
    return s;
}

// Every method on every scenario, seeds 1..seeds: score(crowd, method) gives two
// figures, averaged over the seeds and printed under `names`.
template <class Scenario, class Simulate, class Score>
void accuracy_grid(const std::vector<Scenario> &scenarios, int seeds, const std::vector<std::string> &methods,
                   const char *const (&names)[2], Simulate simulate, Score score) {
    for (const Scenario &sc : scenarios) {
        std::vector<std::pair<double, double>> sum(methods.size(), {0.0, 0.0});
        for (int seed = 1; seed <= seeds; ++seed) {
            auto spec = sc.spec;
            spec.seed = static_cast<uint64_t>(seed);
            const auto crowd = simulate(spec);
            for (std::size_t k = 0; k < methods.size(); ++k) {
                const std::pair<double, double> f = score(crowd, methods[k]);
                sum[k].first += f.first / seeds;
                sum[k].second += f.second / seeds;
            }
        }
        for (std::size_t k = 0; k < methods.size(); ++k)
            bench::Json().str("scenario", sc.name).str("method", methods[k]).num(names[0], sum[k].first, "%.5f")
                .num(names[1], sum[k].second, "%.4f").integer("seeds", seeds).print();
    }
}

// MAE and RMSE of a method on a numeric crowd.
std::pair<double, double> number_errors(const cs::sim::NumericCrowd &c, const std::string &method) {
    const NumberRun r = run_numbers(c, method, 1);
    double a = 0.0, q = 0.0;
    for (std::size_t j = 0; j < c.truth.size(); ++j) {
        a += std::fabs(r.value[j] - c.truth[j]);
        q += (r.value[j] - c.truth[j]) * (r.value[j] - c.truth[j]);
    }
    const double n = static_cast<double>(c.truth.size());
    return {a / n, std::sqrt(q / n)};
}

struct TagScenario {
    const char *name;
    cs::sim::TagsSpec spec;
};

std::vector<TagScenario> tag_scenarios() {
    std::vector<TagScenario> s;
    cs::sim::TagsSpec base;  // 60 workers, 5 answers per item, 6 correlated tags
    base.n_workers = 60;
    s.push_back({"default", base});
    cs::sim::TagsSpec sparse = base;  // 1000 workers of about 10 answers each
    sparse.n_workers = 1000;
    s.push_back({"sparse-workers", sparse});
    cs::sim::TagsSpec many = base;
    many.n_tags = 20;
    many.base_rate = 0.1;
    s.push_back({"20-rare-tags", many});
    cs::sim::TagsSpec few = base;  // 3 answers per item
    few.answers_per_item = 3;
    s.push_back({"3-answers-per-item", few});
    cs::sim::TagsSpec sparse_few = sparse;
    sparse_few.answers_per_item = 3;
    s.push_back({"sparse-3-answers", sparse_few});
    cs::sim::TagsSpec varying = sparse;  // rates differing by up to 0.25 between a worker's tags
    varying.tag_spread = 0.25;
    s.push_back({"sparse-tag-varying", varying});
    return s;
}

// Hamming loss and exact-set accuracy of a method on a tag crowd.
std::pair<double, double> tag_errors(const cs::sim::TagCrowd &c, const std::string &method) {
    const TagRun r = run_tags(c, method, 1);
    double wrong = 0.0, same = 0.0;
    for (int32_t j = 0; j < c.n_items; ++j) {
        bool all = true;
        for (int32_t g = 0; g < c.n_tags; ++g) {
            const std::size_t e = static_cast<std::size_t>(j) * c.n_tags + g;
            const bool miss = (r.member[e] != 0) != (c.truth[e] != 0);
            wrong += miss;
            all = all && !miss;
        }
        same += all;
    }
    return {wrong / (static_cast<double>(c.n_items) * c.n_tags), same / c.n_items};
}

// Sizes for n answers: 5 answers per item, a worker per 1000 answers.
cs::sim::NumbersSpec numbers_of_size(double answers) {
    cs::sim::NumbersSpec spec;
    spec.answers_per_item = 5;
    spec.n_items = static_cast<int32_t>(answers / 5);
    spec.n_workers = std::max(50, static_cast<int32_t>(answers / 1000));
    return spec;
}

cs::sim::TagsSpec tags_of_size(double answers, int tags) {
    cs::sim::TagsSpec spec;
    spec.answers_per_item = 5;
    spec.n_items = static_cast<int32_t>(answers / 5);
    spec.n_workers = std::max(60, static_cast<int32_t>(answers / 1000));
    spec.n_tags = tags;
    return spec;
}

}  // namespace

int main(int argc, char **argv) {
    bench::Args args(argc, argv, kUsage);
    const std::string mode = args.str("mode", "accuracy-numbers");
    const int seeds = static_cast<int>(args.num("seeds", 5));
    const double answers = args.num("answers", 1e6);
    const int tags = static_cast<int>(args.num("tags", 5));
    const int threads = static_cast<int>(args.num("threads", 0));
    const std::string out = args.str("out", "tags.csv"), truth = args.str("truth", "tags_truth.csv");
    const std::string default_methods = mode.find("numbers") != std::string::npos
                                            ? "mean,median,trimmed-mean,gaussian,student-t,catd,crh"
                                            : "mv,ds,auto,tag-pooled";
    const std::vector<std::string> methods = split(args.str("methods", default_methods));
    args.done();
    if (mode == "accuracy-numbers") {
        const char *const names[2] = {"mae", "rmse"};
        accuracy_grid(number_scenarios(), seeds, methods, names, cs::sim::simulate_numbers, number_errors);
    } else if (mode == "accuracy-tags") {
        const char *const names[2] = {"hamming_loss", "exact_set_accuracy"};
        accuracy_grid(tag_scenarios(), seeds, methods, names, cs::sim::simulate_tags, tag_errors);
    } else if (mode == "speed-numbers") {
        const cs::sim::NumericCrowd c = cs::sim::simulate_numbers(numbers_of_size(answers));
        for (const std::string &method : methods) {
            const NumberRun r = run_numbers(c, method, threads);
            bench::Json().str("method", method).integer("answers", static_cast<long long>(c.value.size()))
                .num("seconds", r.seconds, "%.3f").num("cpu_seconds", r.cpu, "%.3f").integer("iterations", r.iterations)
                .num("answers_x_iterations_per_cpu_s", c.value.size() * std::max(1, r.iterations) / r.cpu, "%.4g")
                .num("peak_rss_mb", peak_rss_mb(), "%.0f").print();
        }
    } else if (mode == "speed-tags") {
        const cs::sim::TagCrowd c = cs::sim::simulate_tags(tags_of_size(answers, tags));
        for (const std::string &method : methods) {
            const TagRun r = run_tags(c, method, threads);
            bench::Json().str("method", method).integer("answers", static_cast<long long>(c.item.size()))
                .integer("tags", c.n_tags).num("seconds", r.seconds, "%.3f").num("cpu_seconds", r.cpu, "%.3f")
                .integer("iterations", r.iterations)
                .num("peak_rss_mb", peak_rss_mb(), "%.0f").print();
        }
    } else if (mode == "write-tags") {
        const cs::sim::TagCrowd c = cs::sim::simulate_tags(tags_of_size(answers, tags));
        std::FILE *f = std::fopen(out.c_str(), "w");
        std::FILE *t = std::fopen(truth.c_str(), "w");
        if (!f || !t) return 1;
        std::fprintf(f, "task,worker,tags\n");
        for (std::size_t a = 0; a < c.item.size(); ++a) {
            std::fprintf(f, "%d,%d,", c.item[a], c.worker[a]);
            for (int64_t e = c.tag_start[a]; e < c.tag_start[a + 1]; ++e)
                std::fprintf(f, "%st%d", e > c.tag_start[a] ? "|" : "", c.tag[e]);
            std::fputc('\n', f);
        }
        std::fprintf(t, "task,tags\n");
        for (int32_t j = 0; j < c.n_items; ++j) {
            std::fprintf(t, "%d,", j);
            bool first = true;
            for (int32_t g = 0; g < c.n_tags; ++g)
                if (c.truth[static_cast<std::size_t>(j) * c.n_tags + g]) {
                    std::fprintf(t, "%st%d", first ? "" : "|", g);
                    first = false;
                }
            std::fputc('\n', t);
        }
        std::fclose(f);
        std::fclose(t);
    } else {
        std::fputs(kUsage, stderr);
        return 2;
    }
    return 0;
}
