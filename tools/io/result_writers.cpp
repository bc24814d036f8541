// SPDX-License-Identifier: MIT
#include "io/result_writers.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "common/errors.hpp"

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

// Formats rows [0, n) in blocks of `kRows` (each into its own string by
// format(text, lo, hi)) and hands the blocks to emit(text, lo, hi) in order. With
// threads > 1, `threads` formatting threads work ahead of the calling thread, which
// only emits: writing a block (the kernel copying it into the page cache) overlaps
// with formatting the next ones. At most 2 * threads + 2 blocks are in flight, their
// strings reused. An exception from format() or emit() stops the formatters and is
// rethrown here once they have ended.
template <class Format, class Emit>
void blocks_in_order(std::size_t n, std::size_t threads, Format format, Emit emit) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    constexpr std::size_t kRows = 8192;  // rows per block: about a megabyte of text
    const std::size_t blocks = (n + kRows - 1) / kRows;
    const auto rows = [&](std::size_t b) { return std::make_pair(b * kRows, std::min(n, (b + 1) * kRows)); };
    if (threads <= 1 || blocks <= 1) {
        std::string text;
        for (std::size_t b = 0; b < blocks; ++b) {
            const auto [lo, hi] = rows(b);
            text.clear();
            format(text, lo, hi);
            emit(text, lo, hi);
        }
        return;
    }
    struct Slot {
        std::string text;
        std::exception_ptr error;
        bool done = false;
    };
    const std::size_t ring = 2 * threads + 2;
    std::vector<Slot> slots(ring);
    std::mutex mutex;
    std::condition_variable ready, room;
    std::size_t next = 0, emitted = 0;  // the next block to format, blocks emitted
    bool stop = false;
    std::vector<std::thread> pool;
    const auto finish = [&] {
        {
            std::lock_guard<std::mutex> lock(mutex);
            stop = true;
        }
        room.notify_all();
        for (std::thread &t : pool) t.join();
        pool.clear();
    };
    try {
        for (std::size_t t = 0; t < std::min(threads, blocks); ++t)
            pool.emplace_back([&] {
                for (;;) {
                    std::size_t b;
                    {
                        std::unique_lock<std::mutex> lock(mutex);
                        room.wait(lock, [&] { return stop || next >= blocks || next < emitted + ring; });
                        if (stop || next >= blocks) return;
                        b = next++;
                    }
                    Slot &s = slots[b % ring];  // its previous block was emitted
                    s.text.clear();
                    try {
                        const auto [lo, hi] = rows(b);
                        format(s.text, lo, hi);
                    } catch (...) {
                        s.error = std::current_exception();
                    }
                    {
                        std::lock_guard<std::mutex> lock(mutex);
                        s.done = true;
                    }
                    ready.notify_all();
                }
            });
        for (std::size_t b = 0; b < blocks; ++b) {
            Slot &s = slots[b % ring];
            {
                std::unique_lock<std::mutex> lock(mutex);
                ready.wait(lock, [&] { return s.done; });
            }
            if (s.error) std::rethrow_exception(s.error);
            const auto [lo, hi] = rows(b);
            emit(s.text, lo, hi);
            {
                std::lock_guard<std::mutex> lock(mutex);
                s.done = false;
                emitted = b + 1;
            }
            room.notify_all();
        }
    } catch (...) {
        finish();
        throw;
    }
    finish();
}

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
        if (*value == "jsonl") return ResultFormat::Jsonl;
        if (*value == "json-nested") return ResultFormat::JsonNested;
        throw CliError(kExitUsage, std::string(option) + " '" + *value + "': expected csv, tsv, json, jsonl or json-nested");
    }
    std::string lower = path;
    for (char &c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    const auto ends = [&](const char *s) {
        const std::string suffix(s);
        return lower.size() >= suffix.size() && lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends(".json")) return ResultFormat::Json;
    if (ends(".jsonl") || ends(".ndjson")) return ResultFormat::Jsonl;
    if (ends(".tsv") || ends(".tab")) return ResultFormat::Tsv;
    return ResultFormat::Csv;
}

RecordWriter::RecordWriter(ResultFormat format, std::vector<std::string> columns, std::size_t first_row)
    : out_(nullptr), format_(format), columns_(std::move(columns)), rows_(first_row) {
    if (format_ == ResultFormat::JsonNested)
        throw CliError(kExitUsage, "internal error: json-nested is not a record layout");
}

std::string RecordWriter::take() {
    std::string out;
    out.swap(buf_);
    return out;
}

void RecordWriter::write_raw(std::string_view text, std::size_t rows) {
    rows_ += rows;
    if (buf_.size() + text.size() >= kChunk) {
        out_->write(buf_);
        buf_.clear();
        out_->write(text);
        return;
    }
    buf_.append(text);
}

RecordWriter::RecordWriter(OutputFile &out, ResultFormat format, std::vector<std::string> columns)
    : out_(&out), format_(format), columns_(std::move(columns)) {
    if (format_ == ResultFormat::JsonNested)
        throw CliError(kExitUsage, "internal error: json-nested is not a record layout");
    if (format_ == ResultFormat::Csv || format_ == ResultFormat::Tsv) {
        const char d = format_ == ResultFormat::Tsv ? '\t' : ',';
        for (std::size_t c = 0; c < columns_.size(); ++c) {
            if (c) buf_.push_back(d);
            append_delimited_field(buf_, columns_[c], d);
        }
        buf_.push_back('\n');
    } else if (format_ == ResultFormat::Json) {
        buf_ = "[";
    }
}

void RecordWriter::begin_field() {
    if (field_ >= columns_.size()) throw CliError(kExitOutput, "internal error: a row has too many fields");
    switch (format_) {
        case ResultFormat::Csv:
        case ResultFormat::Tsv:
            if (field_) buf_.push_back(format_ == ResultFormat::Tsv ? '\t' : ',');
            break;
        default:
            if (field_ == 0) buf_ += format_ == ResultFormat::Json ? (rows_ ? ",\n{" : "\n{") : "{";
            else buf_.push_back(',');
            append_json_string(buf_, columns_[field_]);
            buf_.push_back(':');
    }
    ++field_;
}

void RecordWriter::text(std::string_view value) {
    begin_field();
    if (format_ == ResultFormat::Csv || format_ == ResultFormat::Tsv)
        append_delimited_field(buf_, value, format_ == ResultFormat::Tsv ? '\t' : ',');
    else
        append_json_string(buf_, value);
}

void RecordWriter::append_value(double value, const char *format) {
    const bool delimited = format_ == ResultFormat::Csv || format_ == ResultFormat::Tsv;
    if (delimited && !std::isfinite(value)) return;  // an empty field
    append_number(buf_, format, value);
}

void RecordWriter::number(double value, const char *format) {
    begin_field();
    append_value(value, format);
}

void RecordWriter::kept_number(double value) {
    begin_field();
    kept_begin_ = buf_.size();
    append_value(value, "%.10g");
    kept_end_ = buf_.size();
}

void RecordWriter::repeat_kept_number() {
    char text[64];  // a copy: appending a string's own bytes to it may move them
    const std::size_t length = std::min(kept_end_ - kept_begin_, sizeof text);
    buf_.copy(text, length, kept_begin_);
    begin_field();
    buf_.append(text, length);
}

void RecordWriter::integer(long long value) {
    begin_field();
    buf_ += std::to_string(value);
}

void RecordWriter::end_row() {
    if (field_ != columns_.size()) throw CliError(kExitOutput, "internal error: a row has too few fields");
    if (format_ == ResultFormat::Json) buf_.push_back('}');
    else if (format_ == ResultFormat::Jsonl) buf_ += "}\n";
    else buf_.push_back('\n');
    field_ = 0;
    ++rows_;
    if (out_ != nullptr) flush_if_full(*out_, buf_);
}

void RecordWriter::finish() {
    if (format_ == ResultFormat::Json) buf_ += rows_ ? "\n]\n" : "]\n";
    if (out_ != nullptr) out_->write(buf_);
    buf_.clear();
}

std::string nested_items_opening(const std::string &method, const std::vector<std::string> &classes) {
    std::string buf = "{\"method\":";
    append_json_string(buf, method);
    buf += ",\"classes\":";
    json_string_array(buf, classes);
    buf += ",\"items\":[";
    return buf;
}

void append_nested_item(std::string &out, std::string_view item, const std::vector<std::string> &classes,
                        int32_t label, const double *posterior) {
    const std::size_t k = classes.size();
    out += "{\"item\":";
    append_json_string(out, item);
    out += ",\"label\":";
    append_json_string(out, classes[static_cast<std::size_t>(label)]);
    out += ",\"confidence\":";
    append_number(out, "%.10g", *std::max_element(posterior, posterior + k));
    out += ",\"posterior\":{";
    for (std::size_t l = 0; l < k; ++l) {
        if (l) out.push_back(',');
        append_json_string(out, classes[l]);
        out.push_back(':');
        append_number(out, "%.10g", posterior[l]);
    }
    out += "}}";
}

void write_item_results(OutputFile &out, ResultFormat format, const CrowdTable &table, const FitOutcome &fit,
                        const std::string &method, std::size_t threads) {
    const std::size_t k = fit.k;
    std::string buf;
    if (format == ResultFormat::JsonNested) {
        out.write(nested_items_opening(method, table.class_names));
        blocks_in_order(
            fit.n_items, threads,
            [&](std::string &text, std::size_t lo, std::size_t hi) {
                for (std::size_t j = lo; j < hi; ++j) {
                    text += j ? ",\n" : "\n";
                    append_nested_item(text, table.item_names[j], table.class_names, fit.labels[j],
                                       fit.posteriors.data() + j * k);
                    if (!fit.median_grades.empty()) {  // ordered grades: before the item's closing brace
                        text.pop_back();
                        text += ",\"median_grade\":";
                        append_json_string(text, table.class_names[static_cast<std::size_t>(fit.median_grades[j])]);
                        text += ",\"mean_grade\":";
                        append_number(text, "%.10g", written_mean_grade(table.class_names, fit, j));
                        text.push_back('}');
                    }
                }
            },
            [&](const std::string &text, std::size_t, std::size_t) { out.write(text); });
        out.write("\n]}\n");
        return;
    }
    std::vector<std::string> columns = {"item", "label", "confidence"};
    for (const std::string &c : table.class_names) columns.push_back("p_" + c);
    const bool grades = !fit.median_grades.empty();
    if (grades) {
        columns.push_back("median_grade");
        columns.push_back("mean_grade");
    }
    RecordWriter w(out, format, columns);
    blocks_in_order(
        fit.n_items, threads,
        [&](std::string &text, std::size_t lo, std::size_t hi) {
            RecordWriter part(format, columns, lo);
            for (std::size_t j = lo; j < hi; ++j) {
                const double *p = fit.posteriors.data() + j * k;
                part.text(table.item_names[j]);
                part.text(table.class_names[static_cast<std::size_t>(fit.labels[j])]);
                const double confidence = *std::max_element(p, p + k);
                part.kept_number(confidence);
                // The class (or classes) at the confidence print the same text: copied,
                // which saves one of the k + 1 conversions of every row.
                for (std::size_t l = 0; l < k; ++l) {
                    if (p[l] == confidence) part.repeat_kept_number();
                    else part.number(p[l]);
                }
                if (grades) {
                    part.text(table.class_names[static_cast<std::size_t>(fit.median_grades[j])]);
                    part.number(written_mean_grade(table.class_names, fit, j));
                }
                part.end_row();
            }
            text = part.take();
        },
        [&](const std::string &text, std::size_t lo, std::size_t hi) { w.write_raw(text, hi - lo); });
    w.finish();
}

void write_worker_results(OutputFile &out, ResultFormat format, const WorkerReport &r, std::size_t threads) {
    const std::vector<std::string> &workers = *r.worker_names;
    const std::vector<std::string> &classes = *r.class_names;
    const std::vector<double> &pi = *r.confusion;
    const std::size_t k = classes.size(), m = workers.size();
    const std::vector<double> accuracy = worker_accuracy(pi, *r.prior, m, k);
    std::string buf;
    if (format == ResultFormat::JsonNested) {
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
        buf += "]";
        if (r.calibrated) {
            buf += ",\"calibration\":{\"temperature\":";
            append_number(buf, "%.17g", r.temperature);
            buf += ",\"mixing\":";
            append_number(buf, "%.17g", r.mixing);
            buf += "}";
        }
        buf += ",\"accuracy_definition\":\"sum over true classes l of class_prior[l] * confusion[l][l]\"";
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
            buf += "]";
            if (r.spammer != nullptr) {
                const int32_t worst = (*r.worst_class)[i];
                buf += ",\"spammer\":";
                append_number(buf, "%.10g", (*r.spammer)[i]);
                buf += ",\"worst_class\":";
                if (worst >= 0) append_json_string(buf, classes[static_cast<std::size_t>(worst)]);
                else buf += "null";
                for (const auto &[key, values] : {std::pair<const char *, const std::vector<double> *>{
                                                      "label_accuracy", r.label_accuracy},
                                                  {"label_accuracy_low", r.label_accuracy_low},
                                                  {"label_accuracy_high", r.label_accuracy_high}}) {
                    buf += std::string(",\"") + key + "\":";
                    if (std::isfinite((*values)[i])) append_number(buf, "%.10g", (*values)[i]);
                    else buf += "null";
                }
            }
            buf += "}";
            flush_if_full(out, buf);
        }
        buf += "\n]}\n";
        out.write(buf);
        return;
    }
    std::vector<std::string> columns = {"worker", "labels", "accuracy"};
    if (r.types != nullptr) columns.emplace_back("type");
    for (std::size_t l = 0; l < k; ++l)
        for (std::size_t c = 0; c < k; ++c) columns.push_back("pi_" + classes[l] + "_" + classes[c]);
    // The class prior, the same on every row, so that `predict --workers` and
    // `fit --init-workers` can read it back (and a record stays self-contained).
    for (std::size_t l = 0; l < k; ++l) columns.push_back("prior_" + classes[l]);
    if (r.calibrated) {
        columns.emplace_back("calibration_temperature");
        columns.emplace_back("calibration_mixing");
    }
    if (r.spammer != nullptr)
        for (const char *name : {"spammer", "worst_class", "label_accuracy", "label_accuracy_low", "label_accuracy_high"})
            columns.emplace_back(name);
    RecordWriter w(out, format, columns);
    blocks_in_order(
        m, threads,
        [&](std::string &text, std::size_t lo, std::size_t hi) {
            RecordWriter part(format, columns, lo);
            for (std::size_t i = lo; i < hi; ++i) {
                part.text(workers[i]);
                part.integer(static_cast<long long>(r.labels[i]));
                part.number(accuracy[i]);
                if (r.types != nullptr) part.text((*r.types)[i]);
                for (std::size_t e = 0; e < k * k; ++e) part.number(pi[i * k * k + e]);
                for (std::size_t l = 0; l < k; ++l) part.number((*r.prior)[l]);
                if (r.calibrated) {
                    part.number(r.temperature, "%.17g");
                    part.number(r.mixing, "%.17g");
                }
                if (r.spammer != nullptr) {
                    const int32_t worst = (*r.worst_class)[i];
                    part.number((*r.spammer)[i]);
                    part.text(worst >= 0 ? std::string_view(classes[static_cast<std::size_t>(worst)]) : std::string_view());
                    part.number((*r.label_accuracy)[i]);
                    part.number((*r.label_accuracy_low)[i]);
                    part.number((*r.label_accuracy_high)[i]);
                }
                part.end_row();
            }
            text = part.take();
        },
        [&](const std::string &text, std::size_t lo, std::size_t hi) { w.write_raw(text, hi - lo); });
    w.finish();
}

}  // namespace cli
