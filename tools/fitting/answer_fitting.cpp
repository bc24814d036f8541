// SPDX-License-Identifier: MIT
#include "fitting/answer_fitting.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include "common/interrupt.hpp"
#include "io/id_mapping.hpp"
#include "io/label_file.hpp"

namespace cli {

AnswerKind parse_answer_kind(const std::string &value) {
    if (value == "classes") return AnswerKind::Classes;
    if (value == "tags") return AnswerKind::Tags;
    if (value == "numbers") return AnswerKind::Numbers;
    throw CliError(kExitUsage, "--answers " + quote_field(value) + ": expected classes, tags or numbers");
}

namespace {

const char *kind_word(AnswerKind kind) { return kind == AnswerKind::Tags ? "tags" : "numbers"; }

// The default method of a kind: what the library runs for `auto`.
const char *default_method(AnswerKind kind) { return kind == AnswerKind::Tags ? "tag-pooled" : "student-t"; }

bool takes(int32_t method, AnswerKind kind) {
    const int32_t input = cs_method_input(method);
    if (kind == AnswerKind::Numbers) return input == CS_INPUT_NUMBERS;
    return input == CS_INPUT_TAGS || input == CS_INPUT_CROWD;
}

// The first (item, worker) pair answered twice, in file order, as the message of the
// duplicates error ("" when there is none).
std::string duplicate_answer_message(const AnswerTable &t) {
    std::unordered_map<uint64_t, std::size_t> first;
    for (std::size_t a = 0; a < t.item.size(); ++a) {
        const uint64_t key = static_cast<uint64_t>(static_cast<uint32_t>(t.item[a])) << 32 |
                             static_cast<uint32_t>(t.worker[a]);
        const auto [it, fresh] = first.emplace(key, a);
        if (!fresh)
            return repeated_label_message(t.source, t.line[a], t.worker_names[static_cast<std::size_t>(t.worker[a])],
                                          t.item_names[static_cast<std::size_t>(t.item[a])], t.line[it->second]);
    }
    return std::string();
}

// Runs `fit` (a cs_fit_* call) with the monitor and the interrupt, timing it.
template <class Fit>
double timed_answer_fit(cs_model *model, const std::string &name, FitMonitor *monitor, const AnswerTable &table,
                        Fit fit) {
    if (monitor) monitor->begin(model, name);
    const auto start = std::chrono::steady_clock::now();
    const cs_status status = fit();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (monitor) monitor->end();
    if (status == CS_ERR_CANCELLED) throw_if_interrupted();
    if (status == CS_ERR_DUPLICATE) {
        const std::string where = duplicate_answer_message(table);
        if (!where.empty()) throw CliError(kExitFit, where);
    }
    if (status != CS_OK) throw CliError(kExitFit, name + ": " + cs_last_error(model));
    return seconds;
}

// What every answer fit reports after its results: iterations, convergence, notes
// (and the notes' explanation on stderr unless --quiet).
template <class Outcome>
void finish_answer_fit(const cs_model *model, const FitSettings &settings, Outcome &out) {
    int32_t converged = 0;
    cs_iterations(model, &out.iterations);
    cs_converged(model, &converged);
    cs_fit_notes(model, &out.notes);
    out.converged = converged != 0;
    if (!settings.quiet) report_fit_notes(model, out.method);
}

void check(const cs_model *model, cs_status status, const char *what) {
    if (status != CS_OK) throw CliError(kExitFit, std::string(what) + ": " + cs_last_error(model));
}

}  // namespace

std::string answer_method_name(int32_t method, AnswerKind kind) {
    const char *name = cs_method_name(method);
    const std::string n = name ? name : "?";
    if (method == CS_METHOD_AUTO) return "auto (" + std::string(default_method(kind)) + ")";
    return n;
}

std::vector<int32_t> answer_methods(AnswerKind kind) {
    std::vector<int32_t> ids;
    const int32_t n = cs_method_count();
    for (int32_t i = 0; i < n; ++i) {
        const int32_t id = cs_method_at(i);
        if (kind == AnswerKind::Tags ? cs_method_input(id) == CS_INPUT_TAGS : cs_method_input(id) == CS_INPUT_NUMBERS)
            ids.push_back(id);
    }
    if (kind == AnswerKind::Tags)
        for (int32_t i = 0; i < n; ++i)
            if (cs_method_input(cs_method_at(i)) == CS_INPUT_CROWD) ids.push_back(cs_method_at(i));
    return ids;
}

std::vector<int32_t> answer_method_list(const std::string &value, AnswerKind kind) {
    if (value == "all") return answer_methods(kind);
    std::vector<int32_t> ids;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = value.find(',', start);
        const std::string name = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const int32_t id = method_id(name);
        if (!takes(id, kind) && id != CS_METHOD_AUTO)
            throw CliError(kExitUsage, "--method " + name + ": does not take " + kind_word(kind) +
                                           (kind == AnswerKind::Numbers ? " (mean, median, gaussian, catd, crh, "
                                                                          "student-t, trimmed-mean)"
                                                                        : " (tag-pooled, or a crowd method run on "
                                                                          "each tag)"));
        ids.push_back(id);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return ids;
}

NumberOutcome fit_number_table(int32_t method, const FitSettings &settings, const AnswerTable &table,
                               FitMonitor *monitor) {
    ModelPtr model = make_model(method, settings);
    NumberOutcome out;
    out.method = answer_method_name(method, AnswerKind::Numbers);
    out.seconds = timed_answer_fit(model.get(), out.method, monitor, table, [&] {
        return cs_fit_numbers(model.get(), table.item.data(), table.worker.data(), table.value.data(),
                              table.value.size());
    });
    const std::size_t n = table.item_names.size(), m = table.worker_names.size();
    out.value.resize(n);
    out.se.resize(n);
    out.bias.resize(m);
    out.noise.resize(m);
    check(model.get(), cs_number_estimates(model.get(), out.value.data(), out.se.data(), n), "estimates");
    check(model.get(), cs_number_workers(model.get(), out.bias.data(), out.noise.data(), m), "workers");
    finish_answer_fit(model.get(), settings, out);
    return out;
}

TagOutcome fit_tag_table(int32_t method, const FitSettings &settings, const AnswerTable &table, FitMonitor *monitor) {
    ModelPtr model = make_model(method, settings);
    TagOutcome out;
    out.method = answer_method_name(method, AnswerKind::Tags);
    const int32_t T = static_cast<int32_t>(table.tag_names.size());
    if (T == 0) throw CliError(kExitInput, table.source + ": no answer has a tag");
    out.seconds = timed_answer_fit(model.get(), out.method, monitor, table, [&] {
        return cs_fit_tags(model.get(), table.item.data(), table.worker.data(), table.tag_start.data(),
                           table.tag.data(), table.item.size(), T);
    });
    const std::size_t n = table.item_names.size(), m = table.worker_names.size();
    out.p.resize(n * static_cast<std::size_t>(T));
    out.sensitivity.resize(m * static_cast<std::size_t>(T));
    out.specificity.resize(m * static_cast<std::size_t>(T));
    check(model.get(), cs_tag_probabilities(model.get(), out.p.data(), out.p.size()), "tag probabilities");
    check(model.get(), cs_tag_workers(model.get(), out.sensitivity.data(), out.specificity.data(), out.sensitivity.size()),
          "tag workers");
    finish_answer_fit(model.get(), settings, out);
    return out;
}

std::vector<double> parse_thresholds(const std::string &value, const std::vector<std::string> &tag_names) {
    std::vector<double> t(tag_names.size(), 0.5);
    if (value.find('=') == std::string::npos) {
        const double all = parse_number_option("--threshold", value, 0.0, 1.0);
        std::fill(t.begin(), t.end(), all);
        return t;
    }
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = value.find(',', start);
        const std::string part = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const std::size_t eq = part.rfind('=');
        if (eq == std::string::npos || eq == 0)
            throw CliError(kExitUsage, "--threshold " + quote_field(part) + ": expected TAG=VALUE");
        const std::string tag = part.substr(0, eq);
        const auto it = std::find(tag_names.begin(), tag_names.end(), tag);
        if (it == tag_names.end())
            throw CliError(kExitUsage, "--threshold: no tag " + quote_field(tag) + " in the answers");
        t[static_cast<std::size_t>(it - tag_names.begin())] =
            parse_number_option("--threshold " + tag, part.substr(eq + 1), 0.0, 1.0);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return t;
}

std::vector<int32_t> tag_members(const TagOutcome &fit, const std::vector<double> &threshold, std::size_t n_tags) {
    std::vector<int32_t> member(fit.p.size());
    for (std::size_t e = 0; e < member.size(); ++e) member[e] = fit.p[e] >= threshold[e % n_tags] ? 1 : 0;
    return member;
}

NumberScores score_numbers(const AnswerTable &table, const NumberOutcome &fit, const std::string &truth_path,
                           const InputOptions &input) {
    const TruthTable truth = read_truth_file(truth_path, input);
    const NameIndex items(table.item_names, true);
    NumberScores s;
    double abs_sum = 0.0, sq_sum = 0.0;
    for (std::size_t e = 0; e < truth.entries.size(); ++e) {
        const int32_t j = items.find(truth.entries[e].first);
        if (j < 0) continue;
        const std::string &text = truth.entries[e].second;
        char *end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(v))
            throw CliError(kExitInput, truth.source + ":" + std::to_string(truth.line[e]) + ": the true value " +
                                           quote_field(text) + " is not a number");
        const double d = fit.value[static_cast<std::size_t>(j)] - v;
        abs_sum += std::fabs(d);
        sq_sum += d * d;
        ++s.scored;
    }
    if (s.scored == 0) throw CliError(kExitInput, truth.source + ": no truth item is among the answers' items");
    s.mae = abs_sum / static_cast<double>(s.scored);
    s.rmse = std::sqrt(sq_sum / static_cast<double>(s.scored));
    return s;
}

TagScores score_tags(const AnswerTable &table, const std::vector<int32_t> &member, const std::string &truth_path,
                     const InputOptions &input, const std::string &delimiter) {
    const auto truth = read_tag_truth(truth_path, input, delimiter);
    const NameIndex items(table.item_names, true);
    std::unordered_map<std::string, std::size_t> tag_at;
    for (std::size_t g = 0; g < table.tag_names.size(); ++g) tag_at.emplace(table.tag_names[g], g);
    const std::size_t T = table.tag_names.size();
    TagScores s;
    std::vector<double> tp(T, 0.0), fp(T, 0.0), fn(T, 0.0);
    double wrong = 0.0, extra_wrong = 0.0, exact = 0.0;
    for (const auto &[item, tags] : truth) {
        const int32_t j = items.find(item);
        if (j < 0) continue;
        std::vector<char> is_true(T, 0);
        double unknown = 0.0;  // true tags nobody ever gave: never predicted, each a miss
        for (const std::string &tag : tags) {
            const auto it = tag_at.find(tag);
            if (it == tag_at.end()) {
                unknown += 1.0;
                continue;
            }
            is_true[it->second] = 1;
        }
        bool same = unknown == 0.0;
        for (std::size_t g = 0; g < T; ++g) {
            const bool pred = member[static_cast<std::size_t>(j) * T + g] != 0;
            tp[g] += pred && is_true[g];
            fp[g] += pred && !is_true[g];
            fn[g] += !pred && is_true[g];
            if (pred != (is_true[g] != 0)) {
                wrong += 1.0;
                same = false;
            }
        }
        extra_wrong += unknown;
        exact += same;
        ++s.scored;
    }
    if (s.scored == 0) throw CliError(kExitInput, display_name(truth_path) + ": no truth item is among the answers' items");
    const double n = static_cast<double>(s.scored);
    s.hamming_loss = (wrong + extra_wrong) / (n * static_cast<double>(T));
    s.exact_set_accuracy = exact / n;
    double f1_sum = 0.0, f1_count = 0.0, TP = 0.0, FP = 0.0, FN = 0.0;
    s.f1.assign(T, std::nan(""));
    for (std::size_t g = 0; g < T; ++g) {
        TP += tp[g];
        FP += fp[g];
        FN += fn[g];
        const double denom = 2.0 * tp[g] + fp[g] + fn[g];
        if (denom == 0.0) continue;
        s.f1[g] = 2.0 * tp[g] / denom;
        f1_sum += s.f1[g];
        f1_count += 1.0;
    }
    s.macro_f1 = f1_count > 0 ? f1_sum / f1_count : std::nan("");
    const double denom = 2.0 * TP + FP + FN;
    s.micro_f1 = denom > 0 ? 2.0 * TP / denom : std::nan("");
    return s;
}

}  // namespace cli
