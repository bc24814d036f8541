// SPDX-License-Identifier: MIT
#include "result_writers.hpp"

#include <algorithm>

#include "cli.hpp"

namespace cli {

namespace {

// Results are built in memory a megabyte at a time, then written: memory stays bounded
// for millions of items and the writes stay large.
constexpr std::size_t kChunk = 1u << 20;

void flush_if_full(OutputFile &out, std::string &buf) {
    if (buf.size() < kChunk) return;
    out.write(buf);
    buf.clear();
}

// A delimited (CSV/TSV) row cell, or a JSON string.
void cell(std::string &buf, const std::string &text, char delimiter) { append_delimited_field(buf, text, delimiter); }

void json_string_array(std::string &buf, const std::vector<std::string> &names) {
    buf.push_back('[');
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) buf.push_back(',');
        append_json_string(buf, names[i]);
    }
    buf.push_back(']');
}

}  // namespace

ResultFormat result_format(const std::optional<std::string> &value, const std::string &path, const char *option) {
    if (value) {
        if (*value == "csv") return ResultFormat::Csv;
        if (*value == "tsv") return ResultFormat::Tsv;
        if (*value == "json") return ResultFormat::Json;
        throw CliError(kExitUsage, std::string(option) + " '" + *value + "': expected csv, tsv or json");
    }
    std::string lower = path;
    for (char &c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    const auto ends = [&](const char *s) {
        const std::string suffix(s);
        return lower.size() >= suffix.size() && lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends(".json")) return ResultFormat::Json;
    if (ends(".tsv") || ends(".tab")) return ResultFormat::Tsv;
    return ResultFormat::Csv;
}

void write_item_results(OutputFile &out, ResultFormat format, const CrowdTable &table, const FitOutcome &fit,
                        const std::string &method) {
    const std::size_t k = fit.k;
    std::string buf;
    if (format == ResultFormat::Json) {
        buf = "{\"method\":";
        append_json_string(buf, method);
        buf += ",\"classes\":";
        json_string_array(buf, table.class_names);
        buf += ",\"items\":[";
        for (std::size_t j = 0; j < fit.n_items; ++j) {
            const double *p = fit.posteriors.data() + j * k;
            buf += j ? ",\n{\"item\":" : "\n{\"item\":";
            append_json_string(buf, table.item_names[j]);
            buf += ",\"label\":";
            append_json_string(buf, table.class_names[static_cast<std::size_t>(fit.labels[j])]);
            buf += ",\"confidence\":";
            append_number(buf, "%.10g", *std::max_element(p, p + k));
            buf += ",\"posterior\":{";
            for (std::size_t l = 0; l < k; ++l) {
                if (l) buf.push_back(',');
                append_json_string(buf, table.class_names[l]);
                buf.push_back(':');
                append_number(buf, "%.10g", p[l]);
            }
            buf += "}}";
            flush_if_full(out, buf);
        }
        buf += "\n]}\n";
        out.write(buf);
        return;
    }
    const char d = format == ResultFormat::Tsv ? '\t' : ',';
    buf = "item";
    buf += d;
    buf += "label";
    buf += d;
    buf += "confidence";
    for (const std::string &c : table.class_names) {
        buf.push_back(d);
        cell(buf, "p_" + c, d);
    }
    buf.push_back('\n');
    for (std::size_t j = 0; j < fit.n_items; ++j) {
        const double *p = fit.posteriors.data() + j * k;
        cell(buf, table.item_names[j], d);
        buf.push_back(d);
        cell(buf, table.class_names[static_cast<std::size_t>(fit.labels[j])], d);
        buf.push_back(d);
        append_number(buf, "%.10g", *std::max_element(p, p + k));
        for (std::size_t l = 0; l < k; ++l) {
            buf.push_back(d);
            append_number(buf, "%.10g", p[l]);
        }
        buf.push_back('\n');
        flush_if_full(out, buf);
    }
    out.write(buf);
}

void write_worker_results(OutputFile &out, ResultFormat format, const WorkerReport &r) {
    const std::vector<std::string> &workers = *r.worker_names;
    const std::vector<std::string> &classes = *r.class_names;
    const std::vector<double> &pi = *r.confusion;
    const std::size_t k = classes.size(), m = workers.size();
    const std::vector<double> accuracy = worker_accuracy(pi, *r.prior, m, k);
    std::string buf;
    if (format == ResultFormat::Json) {
        buf = "{";
        if (!r.method.empty()) {
            buf += "\"method\":";
            append_json_string(buf, r.method);
            buf.push_back(',');
        }
        buf += "\"classes\":";
        json_string_array(buf, classes);
        buf += ",\"class_prior\":[";
        for (std::size_t l = 0; l < k; ++l) {
            if (l) buf.push_back(',');
            append_number(buf, "%.10g", (*r.prior)[l]);
        }
        buf += "],\"accuracy_definition\":\"sum over true classes l of class_prior[l] * confusion[l][l]\"";
        buf += ",\"confusion_definition\":\"confusion[l][c] = P(the worker answers classes[c] | true class classes[l])\"";
        buf += ",\"workers\":[";
        for (std::size_t i = 0; i < m; ++i) {
            buf += i ? ",\n{\"worker\":" : "\n{\"worker\":";
            append_json_string(buf, workers[i]);
            buf += ",\"labels\":" + std::to_string(r.labels[i]);
            buf += ",\"accuracy\":";
            append_number(buf, "%.10g", accuracy[i]);
            if (r.types != nullptr) {
                buf += ",\"type\":";
                append_json_string(buf, (*r.types)[i]);
            }
            buf += ",\"confusion\":[";
            for (std::size_t l = 0; l < k; ++l) {
                buf += l ? ",[" : "[";
                for (std::size_t c = 0; c < k; ++c) {
                    if (c) buf.push_back(',');
                    append_number(buf, "%.10g", pi[(i * k + l) * k + c]);
                }
                buf.push_back(']');
            }
            buf += "]}";
            flush_if_full(out, buf);
        }
        buf += "\n]}\n";
        out.write(buf);
        return;
    }
    const char d = format == ResultFormat::Tsv ? '\t' : ',';
    buf = "worker";
    buf += d;
    buf += "labels";
    buf += d;
    buf += "accuracy";
    if (r.types != nullptr) {
        buf += d;
        buf += "type";
    }
    for (std::size_t l = 0; l < k; ++l)
        for (std::size_t c = 0; c < k; ++c) {
            buf.push_back(d);
            cell(buf, "pi_" + classes[l] + "_" + classes[c], d);
        }
    buf.push_back('\n');
    for (std::size_t i = 0; i < m; ++i) {
        cell(buf, workers[i], d);
        buf.push_back(d);
        buf += std::to_string(r.labels[i]);
        buf.push_back(d);
        append_number(buf, "%.10g", accuracy[i]);
        if (r.types != nullptr) {
            buf.push_back(d);
            cell(buf, (*r.types)[i], d);
        }
        for (std::size_t e = 0; e < k * k; ++e) {
            buf.push_back(d);
            append_number(buf, "%.10g", pi[i * k * k + e]);
        }
        buf.push_back('\n');
        flush_if_full(out, buf);
    }
    out.write(buf);
}

}  // namespace cli
