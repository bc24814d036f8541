// SPDX-License-Identifier: MIT
// The result files of `fit --answers tags|numbers`, as CSV, TSV, JSON records or JSON
// lines (RecordWriter of io/result_writers.hpp; json-nested is for class labels only).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/answer_file.hpp"
#include "io/output.hpp"
#include "io/result_writers.hpp"

namespace cli {

/// One row per item: item, value, se.
void write_number_items(OutputFile &out, ResultFormat format, const AnswerTable &table,
                        const std::vector<double> &value, const std::vector<double> &se);
/// One row per worker: worker, answers, bias, noise.
void write_number_workers(OutputFile &out, ResultFormat format, const AnswerTable &table,
                          const std::vector<double> &bias, const std::vector<double> &noise);
/// One row per item: item, tags (the set at the thresholds, joined by `delimiter`, in
/// tag order), p_<tag> for every tag.
void write_tag_items(OutputFile &out, ResultFormat format, const AnswerTable &table, const std::vector<double> &p,
                     const std::vector<int32_t> &member, const std::string &delimiter);
/// One row per worker: worker, answers, then sensitivity_<tag> and specificity_<tag>
/// for every tag.
void write_tag_workers(OutputFile &out, ResultFormat format, const AnswerTable &table,
                       const std::vector<double> &sensitivity, const std::vector<double> &specificity);

}  // namespace cli
