// SPDX-License-Identifier: MIT
#include "fitting/model_assist.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "fitting/fitting.hpp"
#include "io/binary_labels.hpp"
#include "io/id_mapping.hpp"
#include "io/model_probs_file.hpp"

namespace cli {

ModelRowsRead read_model_rows(const std::string &path, const std::vector<std::string> &item_names,
                              const std::vector<std::string> &class_names, const std::string &labels_source) {
    const ModelProbsFile f = read_model_probs_file(path);
    const std::size_t k = class_names.size(), cols = f.classes.size();
    const NameIndex classes(class_names, true);
    std::vector<std::size_t> column_of(k, cols);  // the file's column of each class
    for (std::size_t c = 0; c < cols; ++c) {
        const int32_t l = classes.find(f.classes[c]);
        if (l < 0)
            throw CliError(kExitInput, f.source + ":1: column " + quote_field(f.classes[c]) +
                                           " is not one of the classes of " + labels_source +
                                           " (declare every class with --classes A,B,...)");
        column_of[static_cast<std::size_t>(l)] = c;
    }
    for (std::size_t l = 0; l < k; ++l)
        if (column_of[l] == cols)
            throw CliError(kExitInput, f.source + ":1: no column for class " + quote_field(class_names[l]) +
                                           " (expected p_" + class_names[l] + ")");
    const NameIndex items(item_names, true);
    ModelRowsRead out;
    out.source = f.source;
    const std::size_t rows = f.items.size();
    for (std::size_t r = 0; r < rows; ++r) {
        const int32_t j = items.find(f.items[r]);
        if (j < 0) {
            ++out.absent;
            continue;
        }
        out.item.push_back(j);
        for (std::size_t l = 0; l < k; ++l) out.probs.push_back(f.values[r * cols + column_of[l]]);
    }
    return out;
}

std::string model_rows_note(const ModelRowsRead &rows, std::size_t n_items, const std::string &where) {
    std::string note = "model probabilities for " + std::to_string(rows.item.size()) + " of the " +
                       std::to_string(n_items) + " items from " + rows.source;
    if (rows.absent > 0) note += "; " + std::to_string(rows.absent) + " of its items are not in " + where + " (ignored)";
    return note;
}

std::string apply_model_probs(cs_model *model, CrowdTable &table, const std::string &path) {
    fill_item_names(table);  // a binary table read without them
    const ModelRowsRead rows = read_model_rows(path, table.item_names, table.class_names, table.source);
    const std::size_t k = table.class_names.size();
    const cs_status s =
        cs_set_model_probs(model, rows.item.data(), rows.probs.data(), rows.item.size(), static_cast<int32_t>(k));
    if (s != CS_OK) throw CliError(kExitInput, rows.source + ": " + cs_last_error(model));
    return model_rows_note(rows, table.item_names.size(), table.source);
}

LabelList table_labels(const CrowdTable &table) {
    LabelList out;
    const uint32_t k = static_cast<uint32_t>(table.class_names.size());
    const auto grouped = [&](const int64_t *start, const uint32_t *code, std::size_t n_items) {
        for (std::size_t j = 0; j < n_items; ++j)
            for (int64_t p = start[j]; p < start[j + 1]; ++p) {
                out.item.push_back(static_cast<int32_t>(j));
                out.worker.push_back(static_cast<int32_t>(code[p] / k));
                out.label.push_back(static_cast<int32_t>(code[p] % k));
            }
    };
    if (table.binary)
        grouped(table.binary->item_start(), table.binary->codes(), table.binary->n_items());
    else if (table.grouped())
        grouped(table.item_start.data(), table.codes(), table.item_start.size() - 1);
    else
        out = {table.item, table.worker, table.label};
    return out;
}

WorkerDiagnostics fetch_worker_diagnostics(const cs_model *model, std::size_t n_workers) {
    WorkerDiagnostics d;
    d.spammer.resize(n_workers);
    d.accuracy.resize(n_workers);
    d.low.resize(n_workers);
    d.high.resize(n_workers);
    d.worst_class.resize(n_workers);
    if (cs_worker_diagnostics(model, d.spammer.data(), d.worst_class.data(), d.accuracy.data(), d.low.data(),
                              d.high.data(), n_workers) != CS_OK)
        return WorkerDiagnostics();
    return d;
}

std::vector<double> fetch_label_next(const cs_model *model, std::size_t n_items) {
    std::vector<double> s(n_items);
    if (cs_label_next(model, s.data(), s.size()) != CS_OK) return {};
    return s;
}

std::vector<double> fetch_label_wrong(const cs_model *model, const LabelList &labels) {
    std::vector<double> w(labels.item.size());
    if (cs_label_wrong(model, labels.item.data(), labels.label.data(), w.size(), w.data()) != CS_OK) return {};
    return w;
}

}  // namespace cli
