// SPDX-License-Identifier: MIT
#include "io/answer_results.hpp"

#include "common/errors.hpp"

namespace cli {

namespace {

void check_format(ResultFormat format) {
    if (format == ResultFormat::JsonNested)
        throw CliError(kExitUsage, "json-nested is the layout of class labels; tags and numbers are written as csv, "
                                   "tsv, json or jsonl");
}

std::vector<std::size_t> answers_per_worker(const AnswerTable &table) {
    std::vector<std::size_t> count(table.worker_names.size(), 0);
    for (int32_t w : table.worker) ++count[static_cast<std::size_t>(w)];
    return count;
}

}  // namespace

void write_number_items(OutputFile &out, ResultFormat format, const AnswerTable &table,
                        const std::vector<double> &value, const std::vector<double> &se) {
    check_format(format);
    RecordWriter w(out, format, {"item", "value", "se"});
    for (std::size_t j = 0; j < table.item_names.size(); ++j) {
        w.text(table.item_names[j]);
        w.number(value[j], "%.12g");
        w.number(se[j], "%.6g");
        w.end_row();
    }
    w.finish();
}

void write_number_workers(OutputFile &out, ResultFormat format, const AnswerTable &table,
                          const std::vector<double> &bias, const std::vector<double> &noise) {
    check_format(format);
    const std::vector<std::size_t> count = answers_per_worker(table);
    RecordWriter w(out, format, {"worker", "answers", "bias", "noise"});
    for (std::size_t i = 0; i < table.worker_names.size(); ++i) {
        w.text(table.worker_names[i]);
        w.integer(static_cast<long long>(count[i]));
        w.number(bias[i], "%.8g");
        w.number(noise[i], "%.8g");
        w.end_row();
    }
    w.finish();
}

void write_tag_items(OutputFile &out, ResultFormat format, const AnswerTable &table, const std::vector<double> &p,
                     const std::vector<int32_t> &member, const std::string &delimiter) {
    check_format(format);
    const std::size_t T = table.tag_names.size();
    std::vector<std::string> columns = {"item", "tags"};
    for (const std::string &t : table.tag_names) columns.push_back("p_" + t);
    RecordWriter w(out, format, columns);
    std::string set;
    for (std::size_t j = 0; j < table.item_names.size(); ++j) {
        w.text(table.item_names[j]);
        set.clear();
        for (std::size_t g = 0; g < T; ++g)
            if (member[j * T + g]) set += (set.empty() ? "" : delimiter) + table.tag_names[g];
        w.text(set);
        for (std::size_t g = 0; g < T; ++g) w.number(p[j * T + g], "%.6g");
        w.end_row();
    }
    w.finish();
}

void write_tag_workers(OutputFile &out, ResultFormat format, const AnswerTable &table,
                       const std::vector<double> &sensitivity, const std::vector<double> &specificity) {
    check_format(format);
    const std::size_t T = table.tag_names.size();
    const std::vector<std::size_t> count = answers_per_worker(table);
    std::vector<std::string> columns = {"worker", "answers"};
    for (const std::string &t : table.tag_names) columns.push_back("sensitivity_" + t);
    for (const std::string &t : table.tag_names) columns.push_back("specificity_" + t);
    RecordWriter w(out, format, columns);
    for (std::size_t i = 0; i < table.worker_names.size(); ++i) {
        w.text(table.worker_names[i]);
        w.integer(static_cast<long long>(count[i]));
        for (std::size_t g = 0; g < T; ++g) w.number(sensitivity[i * T + g], "%.6g");
        for (std::size_t g = 0; g < T; ++g) w.number(specificity[i * T + g], "%.6g");
        w.end_row();
    }
    w.finish();
}

}  // namespace cli
