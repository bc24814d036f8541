// SPDX-License-Identifier: MIT
#include "cli/clustering_run.hpp"

#include "cli/command_args.hpp"

#include "crowdspec/crowdspec.h"
#include "sim/scoring.hpp"

namespace cli {

int32_t method_of_kind(const std::string &command, const std::string &name, int32_t kind) {
    int32_t id = 0;
    if (cs_method_from_name(name.c_str(), &id) == CS_OK && cs_method_input(id) == kind) return id;
    std::string known;
    for (int32_t i = 0; i < cs_method_count(); ++i) {
        const int32_t m = cs_method_at(i);
        if (cs_method_input(m) != kind) continue;
        known += (known.empty() ? "" : ", ") + std::string(cs_method_name(m));
    }
    throw CliError(kExitUsage, command + ": " + (id == 0 ? "unknown method '" : "method '") + name +
                                   (id == 0 ? "'" : "' does not apply here") + "; known methods: " + known);
}

std::optional<ClusteringRun> start_clustering(
    const std::string &command, const std::string &input_noun, const std::string &default_method,
    int32_t input_kind, const std::vector<OptionSpec> &specs,
    const std::vector<std::pair<std::string, std::string>> &params, const std::string &help,
    const std::vector<std::string> &args, std::size_t first) {
    ClusteringRun run;
    std::optional<ParsedArgs> parsed_args =
        parse_command(command, args, first, specs, [&help] { return help; });
    if (!parsed_args) return std::nullopt;
    run.parsed = std::move(*parsed_args);
    const ParsedArgs &parsed = run.parsed;
    single_input(parsed, command, input_noun + " file");
    if (!parsed.has("k")) throw CliError(kExitUsage, command + ": --k K is required");
    run.method = parsed.last("method").value_or(default_method);
    run.truth_path = parsed.last("truth");
    if (run.truth_path && *run.truth_path == "-" && parsed.positionals[0] == "-")
        throw CliError(kExitUsage, command + ": " + input_noun + " and --truth cannot both be standard input");
    if (run.truth_path && parsed.has("output"))
        throw CliError(kExitUsage, command + ": --output writes labels; with --truth the result is the JSON line");

    // Configure the handle first: bad options fail before the file is read.
    const int32_t id = method_of_kind(command, run.method, input_kind);
    FitSettings settings;
    for (const auto &[option, value] : parsed.options)
        for (const auto &[opt, name] : params)
            if (option == opt) settings.params.push_back({"--" + option, name, value});
    run.model = make_model(id, settings);
    return run;
}

std::string clustering_json(const ClusteringRun &run, const std::vector<int32_t> &labels,
                            const TruthClasses &truth, double seconds) {
    cs_model *model = run.model.get();
    std::size_t k = 0;
    int32_t iterations = 0, converged = 0;
    check_status(model, cs_n_classes(model, &k), "reading k");
    check_status(model, cs_iterations(model, &iterations), "reading the iterations");
    check_status(model, cs_converged(model, &converged), "reading the converged flag");
    const cs::sim::Misclustering score = cs::sim::misclustering_rate(
        labels.data(), truth.label.data(), labels.size(), static_cast<int32_t>(k), truth.classes);
    std::string line = "{\"method\":";
    append_json_string(line, run.method);
    line += ",\"error_rate\":";
    append_number(line, "%.6f", score.rate);
    line += ",\"scored\":" + std::to_string(score.scored);
    line += ",\"iterations\":" + std::to_string(iterations);
    line += converged ? ",\"converged\":true" : ",\"converged\":false";
    line += ",\"seconds\":";
    append_number(line, "%.6f", seconds);
    line += ",\"k\":" + std::to_string(k);
    return line;
}

void finish_clustering_json(const ClusteringRun &run, std::string &line) {
    int32_t notes = 0;
    check_status(run.model.get(), cs_fit_notes(run.model.get(), &notes), "reading the fit notes");
    append_notes(line, notes);
    line += "}\n";
    write_stdout(line);
}

}  // namespace cli
