// SPDX-License-Identifier: MIT
// `crowdspec simulate`: Dawid-Skene crowd labels with known truth, written as files the
// other commands read — for testing settings on data like one's own, and for benchmarks.
#include <charconv>
#include <cstdio>
#include <new>
#include <stdexcept>

#include "cli/command_args.hpp"
#include "cli/commands.hpp"
#include "fitting/fitting.hpp"
#include "common/interrupt.hpp"
#include "io/output.hpp"
#include "io/result_writers.hpp"
#include "sim/crowd_sim.hpp"

namespace cli {

std::string simulate_help() {
    return std::string(
               "Usage: crowdspec simulate [options] [--labels FILE] [--truth FILE]\n"
               "\n"
               "Draw a crowd from the Dawid-Skene model: every worker gets a confusion matrix by\n"
               "its type, every item a true class from the class prior, and --labels-per-item\n"
               "distinct workers label each item by their confusion matrices. Worker types:\n"
               "  expert     accuracy 0.90-0.98 per class, errors spread at random\n"
               "  normal     accuracy 0.55-0.85 per class\n"
               "  spammer    one fixed answer distribution whatever the item\n"
               "  adversary  accuracy 0.05-0.20; most errors go to one wrong class\n"
               "Items, workers and labels are written as 1-based integers (like the shared\n"
               "datasets). The output depends only on the options and the seed: the same command\n"
               "writes byte-identical files on every machine.\n"
               "\n"
               "Options:\n"
               "  -l, --labels FILE       the labels, `item worker label` (default: standard output)\n"
               "  -t, --truth FILE        the true class of every item, `item label`\n"
               "      --confusion FILE    the true confusion matrices, laid out like fit --workers\n"
               "                          (worker, labels, accuracy, type, pi_<true>_<observed>...;\n"
               "                          JSON records for .json, JSON lines for .jsonl, TSV\n"
               "                          for .tsv, else CSV)\n"
               "      --confusion-format csv|tsv|json|jsonl|json-nested\n"
               "                          format of --confusion, as fit --workers-format\n"
               "      --format csv|tsv|whitespace   format of --labels and --truth (default: by\n"
               "                          extension, .csv or .tsv with a header line; anything\n"
               "                          else: whitespace-separated lines without a header)\n"
               "      --items N           items (default 2000)\n"
               "      --workers N         workers (default 100)\n"
               "      --classes K         classes, 2..1000 (default 3)\n"
               "      --labels-per-item N distinct workers per item, 1..workers (default 5)\n"
               "      --experts F, --normal F, --spammers F, --adversaries F\n"
               "                          worker mix: each worker's type is drawn with these\n"
               "                          weights, normalised to sum 1 (defaults 0.10, 0.65,\n"
               "                          0.20, 0.05; a weight not given keeps its default)\n"
               "      --class-prior W1,...,WK   class frequencies (normalised; default uniform)\n"
               "      --seed N            seed (default 1)\n"
               "  -q, --quiet             no summary on stderr\n"
               "  -h, --help              show this help\n"
               "\n") +
           kExitCodesHelp;
}

namespace {

enum class LabelFormat { Csv, Tsv, Whitespace };

LabelFormat label_format(const std::optional<std::string> &value, const std::string &path) {
    if (value) {
        if (*value == "csv") return LabelFormat::Csv;
        if (*value == "tsv") return LabelFormat::Tsv;
        if (*value == "whitespace" || *value == "ws" || *value == "txt") return LabelFormat::Whitespace;
        throw CliError(kExitUsage, "--format '" + *value + "': expected csv, tsv or whitespace");
    }
    std::string lower = path;
    for (char &c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    const auto ends = [&](const std::string &suffix) {
        return lower.size() >= suffix.size() && lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends(".csv")) return LabelFormat::Csv;
    if (ends(".tsv") || ends(".tab")) return LabelFormat::Tsv;
    return LabelFormat::Whitespace;
}

// Appends a 1-based id: std::to_chars, as 10^8 lines through snprintf would dominate.
void append_id(std::string &buf, int64_t zero_based) {
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, zero_based + 1);
    buf.append(digits, static_cast<std::size_t>(result.ptr - digits));
}

char separator(LabelFormat f) { return f == LabelFormat::Csv ? ',' : f == LabelFormat::Tsv ? '\t' : ' '; }

void write_labels(OutputFile &out, LabelFormat format, const cs::sim::Crowd &crowd) {
    const char sep = separator(format);
    std::string buf;
    if (format != LabelFormat::Whitespace) buf = std::string("item") + sep + "worker" + sep + "label\n";
    for (std::size_t t = 0; t < crowd.item.size(); ++t) {
        append_id(buf, crowd.item[t]);
        buf.push_back(sep);
        append_id(buf, crowd.worker[t]);
        buf.push_back(sep);
        append_id(buf, crowd.label[t]);
        buf.push_back('\n');
        if (buf.size() >= (1u << 20)) {
            out.write(buf);
            buf.clear();
        }
    }
    out.write(buf);
}

void write_truth(OutputFile &out, LabelFormat format, const cs::sim::Crowd &crowd) {
    const char sep = separator(format);
    std::string buf;
    if (format != LabelFormat::Whitespace) buf = std::string("item") + sep + "label\n";
    for (std::size_t j = 0; j < crowd.truth.size(); ++j) {
        append_id(buf, static_cast<int64_t>(j));
        buf.push_back(sep);
        append_id(buf, crowd.truth[j]);
        buf.push_back('\n');
        if (buf.size() >= (1u << 20)) {
            out.write(buf);
            buf.clear();
        }
    }
    out.write(buf);
}

const char *type_name(cs::sim::WorkerType t) {
    switch (t) {
        case cs::sim::WorkerType::Expert: return "expert";
        case cs::sim::WorkerType::Normal: return "normal";
        case cs::sim::WorkerType::Spammer: return "spammer";
        case cs::sim::WorkerType::Adversary: return "adversary";
    }
    return "unknown";
}

}  // namespace

int run_simulate(const std::vector<std::string> &args, std::size_t first) {
    const std::vector<OptionSpec> specs = {
        {"labels", true, 'l'},      {"truth", true, 't'},       {"confusion", true, '\0'}, {"confusion-format", true, '\0'},
        {"format", true, '\0'},     {"items", true, '\0'},      {"workers", true, '\0'},
        {"classes", true, '\0'},    {"labels-per-item", true, '\0'}, {"experts", true, '\0'},
        {"normal", true, '\0'},     {"spammers", true, '\0'},   {"adversaries", true, '\0'},
        {"class-prior", true, '\0'}, {"seed", true, '\0'},      {"quiet", false, 'q'}};
    const std::optional<ParsedArgs> maybe_parsed = parse_command("simulate", args, first, specs, simulate_help);
    if (!maybe_parsed) return kExitOk;
    const ParsedArgs &parsed = *maybe_parsed;
    if (!parsed.positionals.empty())
        throw CliError(kExitUsage, "simulate: unexpected argument '" + parsed.positionals[0] +
                                       "' (the output files are --labels FILE and --truth FILE)");
    const InterruptGuard interrupt_guard;

    cs::sim::CrowdSpec spec;  // the simulator's defaults, also those of `crowdspec demo`
    const auto int_option = [&](const char *name, long long lo, long long hi, long long fallback) {
        const std::optional<std::string> v = parsed.last(name);
        return v ? parse_integer_option(name, *v, lo, hi) : fallback;
    };
    const auto weight_option = [&](const char *name, double fallback) {
        const std::optional<std::string> v = parsed.last(name);
        return v ? parse_number_option(name, *v, 0.0, 1e9) : fallback;
    };
    spec.seed = static_cast<uint64_t>(int_option("seed", 0, 9223372036854775807LL, 1));
    spec.n_items = static_cast<int32_t>(int_option("items", 1, 1000000000, spec.n_items));
    spec.n_workers = static_cast<int32_t>(int_option("workers", 1, 100000000, spec.n_workers));
    spec.k = static_cast<int32_t>(int_option("classes", 2, 1000, spec.k));
    spec.labels_per_item = static_cast<int32_t>(int_option("labels-per-item", 1, 100000000, spec.labels_per_item));
    spec.expert = weight_option("experts", spec.expert);
    spec.normal = weight_option("normal", spec.normal);
    spec.spammer = weight_option("spammers", spec.spammer);
    spec.adversary = weight_option("adversaries", spec.adversary);
    if (!(spec.expert + spec.normal + spec.spammer + spec.adversary > 0.0))
        throw CliError(kExitUsage, "simulate: the worker weights --experts/--normal/--spammers/--adversaries sum to 0");
    if (spec.labels_per_item > spec.n_workers)
        throw CliError(kExitUsage, "simulate: --labels-per-item " + std::to_string(spec.labels_per_item) +
                                       " exceeds --workers " + std::to_string(spec.n_workers) +
                                       " (each item is labelled by distinct workers)");
    if (static_cast<long long>(spec.n_items) * spec.labels_per_item > 1000000000LL)
        throw CliError(kExitUsage, "simulate: --items x --labels-per-item must be at most 10^9 labels");
    if (auto prior = parsed.last("class-prior")) {
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = prior->find(',', start);
            const std::string part = prior->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            spec.class_prior.push_back(parse_number_option("class-prior", part, 0.0, 1e9));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        if (static_cast<int32_t>(spec.class_prior.size()) != spec.k)
            throw CliError(kExitUsage, "--class-prior '" + *prior + "': expected " + std::to_string(spec.k) +
                                           " weights (one per class, --classes " + std::to_string(spec.k) + "), got " +
                                           std::to_string(spec.class_prior.size()));
        double total = 0.0;
        for (double w : spec.class_prior) total += w;
        if (!(total > 0.0)) throw CliError(kExitUsage, "--class-prior '" + *prior + "': the weights sum to 0");
    }

    const std::string labels_path = parsed.last("labels").value_or("");
    const std::string truth_path = parsed.last("truth").value_or("");
    const std::string confusion_path = parsed.last("confusion").value_or("");
    const LabelFormat labels_format = label_format(parsed.last("format"), labels_path);
    const LabelFormat truth_format = label_format(parsed.last("format"), truth_path);
    const ResultFormat confusion_format = result_format(parsed.last("confusion-format"), confusion_path, "--confusion-format");
    int to_stdout = 0;
    for (const char *name : {"truth", "confusion"})
        if (parsed.has(name) && (parsed.last(name)->empty() || *parsed.last(name) == "-")) ++to_stdout;
    if (labels_path.empty() || labels_path == "-") ++to_stdout;
    if (to_stdout > 1)
        throw CliError(kExitUsage, "simulate: only one of --labels, --truth and --confusion can go to standard output");

    // Create every output first: a missing directory fails before the simulation runs.
    OutputFile labels_out(labels_path);
    std::optional<OutputFile> truth_out, confusion_out;
    if (parsed.has("truth")) truth_out.emplace(truth_path);
    if (parsed.has("confusion")) confusion_out.emplace(confusion_path);

    cs::sim::Crowd crowd;
    try {
        crowd = cs::sim::simulate_crowd(spec);
    } catch (const std::invalid_argument &e) {
        throw CliError(kExitUsage, e.what());
    } catch (const std::bad_alloc &) {
        throw CliError(kExitUsage, "simulate: the requested crowd does not fit in memory");
    }
    throw_if_interrupted();

    write_labels(labels_out, labels_format, crowd);
    if (truth_out) write_truth(*truth_out, truth_format, crowd);
    if (confusion_out) {
        std::vector<std::string> workers, classes, types;
        for (int32_t i = 0; i < crowd.n_workers; ++i) {
            workers.push_back(std::to_string(i + 1));
            types.emplace_back(type_name(crowd.type[static_cast<std::size_t>(i)]));
        }
        for (int32_t l = 0; l < crowd.k; ++l) classes.push_back(std::to_string(l + 1));
        std::vector<double> prior(spec.class_prior);
        if (prior.empty()) prior.assign(static_cast<std::size_t>(crowd.k), 1.0);
        double total = 0.0;
        for (double w : prior) total += w;
        for (double &w : prior) w /= total;
        WorkerReport report;
        report.worker_names = &workers;
        report.class_names = &classes;
        report.labels.assign(workers.size(), 0);
        for (int32_t w : crowd.worker) ++report.labels[static_cast<std::size_t>(w)];
        report.confusion = &crowd.confusion;
        report.prior = &prior;
        report.types = &types;
        write_worker_results(*confusion_out, confusion_format, report);
    }
    labels_out.commit();
    if (truth_out) truth_out->commit();
    if (confusion_out) confusion_out->commit();

    if (!parsed.has("quiet")) {
        std::size_t by_type[4] = {0, 0, 0, 0};
        for (cs::sim::WorkerType t : crowd.type) ++by_type[static_cast<int>(t)];
        std::fprintf(stderr,
                     "crowdspec: simulated %d items, %d classes, %d workers (%zu experts, %zu normal, %zu spammers, "
                     "%zu adversaries), %zu labels (seed %llu)\n",
                     crowd.n_items, crowd.k, crowd.n_workers, by_type[0], by_type[1], by_type[2], by_type[3],
                     crowd.item.size(), static_cast<unsigned long long>(spec.seed));
    }
    return kExitOk;
}

}  // namespace cli
