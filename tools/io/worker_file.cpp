// SPDX-License-Identifier: MIT
#include "io/worker_file.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <unordered_map>
#include <utility>

#include "common/errors.hpp"
#include "io/json_text.hpp"
#include "io/table_reader.hpp"

namespace cli {

namespace {

[[noreturn]] void file_error(const std::string &source, std::size_t line, const std::string &what) {
    throw CliError(kExitInput, source + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what);
}

// ---------------------------------------------------------------------------------
// Every record layout is brought to one shape: column names and rows of text fields.

struct Field {
    std::string text;
    bool present = true;
};

struct Rows {
    std::vector<std::string> columns;
    std::vector<std::vector<Field>> rows;
    std::vector<std::size_t> line;  // where each row starts
};

// A number, strictly: the whole text, finite, >= 0.
double parse_value(const WorkerFile &wf, std::size_t line, const std::string &column, const Field &field) {
    if (!field.present) file_error(wf.source, line, "no value for " + quote_field(column));
    const std::string &t = field.text;
    char *end = nullptr;
    errno = 0;
    const double v = t.empty() ? NAN : std::strtod(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v) || v < 0.0)
        file_error(wf.source, line,
                   quote_field(column) + " is " + quote_field(t) + ", expected a finite number >= 0");
    return v;
}

std::string json_scalar_text(const WorkerFile &wf, const JsonValue &v, const std::string &key) {
    switch (v.kind) {
        case JsonValue::Kind::String:
        case JsonValue::Kind::Number: return v.text;
        case JsonValue::Kind::Null: return std::string();
        default: file_error(wf.source, v.line, quote_field(key) + " must be a string or a number");
    }
}

Rows rows_from_json_records(const WorkerFile &wf, const std::vector<const JsonValue *> &records) {
    Rows r;
    if (records.empty()) return r;
    for (const JsonValue *rec : records)
        if (rec->kind != JsonValue::Kind::Object)
            file_error(wf.source, rec->line, "expected one JSON object {\"worker\": ...} per worker");
    for (const auto &[key, value] : records[0]->members) r.columns.push_back(key);
    for (const JsonValue *rec : records) {
        std::vector<Field> row;
        for (const std::string &c : r.columns) {
            const JsonValue *v = rec->member(c);
            Field f;
            if (v == nullptr) f.present = false;
            else f.text = json_scalar_text(wf, *v, c);
            row.push_back(std::move(f));
        }
        r.rows.push_back(std::move(row));
        r.line.push_back(rec->line);
    }
    return r;
}

Rows rows_from_delimited(WorkerFile &wf, std::string &text, const std::string &path) {
    const TextFormat format = resolve_text_format(
        TextFormat::Auto, path, text, HeaderMode::Yes, [](const std::vector<std::string_view> &) { return true; });
    if (format == TextFormat::Whitespace)
        file_error(wf.source, 1, "expected a CSV or TSV header (worker,labels,accuracy,pi_<true>_<observed>...)");
    wf.layout = format == TextFormat::Tsv ? "tsv" : "csv";
    RecordReader reader(text, format, wf.source);
    std::vector<std::string_view> fields;
    Rows r;
    if (!reader.next(fields)) return r;
    for (std::string_view f : fields) r.columns.emplace_back(f);
    while (reader.next(fields)) {
        if (fields.size() != r.columns.size())
            reader.fail("has " + std::to_string(fields.size()) + " fields; the header has " +
                        std::to_string(r.columns.size()));
        std::vector<Field> row;
        for (std::string_view f : fields) row.push_back(Field{std::string(f), true});
        r.rows.push_back(std::move(row));
        r.line.push_back(reader.line());
    }
    return r;
}

// The classes named by the pi_ columns alone: k x k columns whose diagonal
// (columns l k + l) are pi_<c>_<c>. Returns false when they do not read so.
bool classes_from_pi_columns(const std::vector<std::string> &pi, std::vector<std::string> &classes) {
    std::size_t k = 0;
    while ((k + 1) * (k + 1) <= pi.size()) ++k;
    if (k < 2 || k * k != pi.size()) return false;
    classes.clear();
    for (std::size_t l = 0; l < k; ++l) {
        const std::string &name = pi[l * k + l];  // "pi_" + c + "_" + c
        if (name.size() < 5 || (name.size() - 4) % 2 != 0) return false;
        const std::size_t len = (name.size() - 4) / 2;
        const std::string c = name.substr(3, len);
        if (name.compare(3 + len, 1, "_") != 0 || name.compare(4 + len, len, c) != 0) return false;
        classes.push_back(c);
    }
    return true;
}

void fill_from_rows(WorkerFile &wf, const Rows &r) {
    if (r.columns.empty()) file_error(wf.source, 0, "empty workers file (expected the file `crowdspec fit --workers` writes)");
    int worker_col = -1, temperature_col = -1, mixing_col = -1;
    std::vector<std::size_t> pi_cols, prior_cols;
    std::vector<std::string> pi_names;
    for (std::size_t c = 0; c < r.columns.size(); ++c) {
        const std::string &name = r.columns[c];
        if (name == "worker") {
            if (worker_col >= 0) file_error(wf.source, 1, "two 'worker' columns");
            worker_col = static_cast<int>(c);
        } else if (name.compare(0, 3, "pi_") == 0) {
            pi_cols.push_back(c);
            pi_names.push_back(name);
        } else if (name.compare(0, 6, "prior_") == 0) {
            prior_cols.push_back(c);
            wf.class_names.push_back(name.substr(6));
        } else if (name == "calibration_temperature") {
            temperature_col = static_cast<int>(c);
        } else if (name == "calibration_mixing") {
            mixing_col = static_cast<int>(c);
        }
    }
    const std::size_t header_line = r.line.empty() ? 1 : (wf.layout == "csv" || wf.layout == "tsv" ? 1 : r.line[0]);
    if (worker_col < 0) file_error(wf.source, header_line, "no 'worker' column (expected the file `crowdspec fit --workers` writes)");
    if (pi_cols.empty())
        file_error(wf.source, header_line, "no pi_<true>_<observed> columns (the workers' confusion matrices)");
    if (prior_cols.empty() && !classes_from_pi_columns(pi_names, wf.class_names))
        file_error(wf.source, header_line,
                   "cannot tell the classes from the " + std::to_string(pi_cols.size()) +
                       " pi_ columns (expected k x k columns pi_<true>_<observed> with k >= 2, row by row; or "
                       "add prior_<class> columns)");
    const std::size_t k = wf.class_names.size();
    if (k < 2) file_error(wf.source, header_line, "the prior_ columns name only one class; at least 2 are needed");
    std::unordered_map<std::string, std::size_t> class_index;
    for (std::size_t l = 0; l < k; ++l)
        if (!class_index.emplace(wf.class_names[l], l).second)
            file_error(wf.source, header_line, "class " + quote_field(wf.class_names[l]) + " is named twice");
    // Every pi_ column is pi_<true>_<observed> for exactly one pair of classes.
    std::map<std::string, std::size_t> pair_of;  // column name -> l k + c
    for (std::size_t l = 0; l < k; ++l)
        for (std::size_t c = 0; c < k; ++c) pair_of.emplace("pi_" + wf.class_names[l] + "_" + wf.class_names[c], l * k + c);
    if (pair_of.size() != k * k)
        file_error(wf.source, header_line, "the class names make the pi_ column names ambiguous");
    std::vector<std::size_t> entry_of(pi_cols.size());
    std::vector<bool> seen(k * k, false);
    for (std::size_t p = 0; p < pi_cols.size(); ++p) {
        auto it = pair_of.find(pi_names[p]);
        if (it == pair_of.end())
            file_error(wf.source, header_line,
                       "column " + quote_field(pi_names[p]) + " is not pi_<true>_<observed> for the classes " +
                           class_list_text(wf.class_names));
        if (seen[it->second]) file_error(wf.source, header_line, "column " + quote_field(pi_names[p]) + " appears twice");
        seen[it->second] = true;
        entry_of[p] = it->second;
    }
    for (std::size_t e = 0; e < k * k; ++e)
        if (!seen[e])
            file_error(wf.source, header_line,
                       "no column pi_" + wf.class_names[e / k] + "_" + wf.class_names[e % k] + " (a " +
                           std::to_string(k) + "-class file needs all " + std::to_string(k * k) + " pi_ columns)");
    if (r.rows.empty()) file_error(wf.source, header_line, "no workers (only a header)");

    std::unordered_map<std::string, std::size_t> worker_row;
    wf.confusion.assign(r.rows.size() * k * k, 0.0);
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const std::vector<Field> &row = r.rows[i];
        const std::size_t line = r.line[i];
        const Field &id = row[static_cast<std::size_t>(worker_col)];
        if (!id.present || id.text.empty()) file_error(wf.source, line, "a worker without an id");
        auto [it, inserted] = worker_row.emplace(id.text, i);
        if (!inserted)
            file_error(wf.source, line,
                       "worker " + quote_field(id.text) + " appears twice (first on line " +
                           std::to_string(r.line[it->second]) + ")");
        wf.worker_names.push_back(id.text);
        for (std::size_t p = 0; p < pi_cols.size(); ++p)
            wf.confusion[i * k * k + entry_of[p]] = parse_value(wf, line, pi_names[p], row[pi_cols[p]]);
        if (i == 0 && temperature_col >= 0 && mixing_col >= 0) {  // the same on every row: the first row's
            const auto t = static_cast<std::size_t>(temperature_col), e = static_cast<std::size_t>(mixing_col);
            wf.temperature = parse_value(wf, line, r.columns[t], row[t]);
            wf.mixing = parse_value(wf, line, r.columns[e], row[e]);
            wf.calibrated = true;
        }
        if (prior_cols.empty()) continue;
        std::vector<double> prior(k);
        for (std::size_t l = 0; l < k; ++l)
            prior[l] = parse_value(wf, line, r.columns[prior_cols[l]], row[prior_cols[l]]);
        if (i == 0) {
            double sum = 0.0;
            for (double v : prior) sum += v;
            if (!(sum > 0.0)) file_error(wf.source, line, "the prior_ columns are all 0");
            wf.prior = prior;
        } else if (prior != wf.prior) {
            file_error(wf.source, line,
                       "the prior_ columns differ from those on line " + std::to_string(r.line[0]) +
                           " (the class prior is the same on every row)");
        }
    }
}

void fill_from_nested(WorkerFile &wf, const JsonValue &doc) {
    const JsonValue *classes = doc.member("classes");
    const JsonValue *workers = doc.member("workers");
    const JsonValue *prior = doc.member("class_prior");
    const JsonValue *calibration = doc.member("calibration");
    if (classes == nullptr || classes->kind != JsonValue::Kind::Array)
        file_error(wf.source, doc.line, "the nested document needs \"classes\": [...]");
    if (workers->kind != JsonValue::Kind::Array) file_error(wf.source, workers->line, "\"workers\" must be an array");
    for (const JsonValue &c : classes->items) {
        if (c.kind != JsonValue::Kind::String && c.kind != JsonValue::Kind::Number)
            file_error(wf.source, c.line, "a class name must be a string");
        for (const std::string &seen : wf.class_names)
            if (seen == c.text) file_error(wf.source, c.line, "class " + quote_field(c.text) + " is named twice");
        wf.class_names.push_back(c.text);
    }
    const std::size_t k = wf.class_names.size();
    if (k < 2) file_error(wf.source, classes->line, "\"classes\" must name at least 2 classes");
    const auto number = [&](const JsonValue &v, const std::string &what) {
        if (v.kind != JsonValue::Kind::Number) file_error(wf.source, v.line, what + " must be a number");
        return parse_value(wf, v.line, what, Field{v.text, true});
    };
    if (prior != nullptr && prior->kind != JsonValue::Kind::Null) {
        if (prior->kind != JsonValue::Kind::Array || prior->items.size() != k)
            file_error(wf.source, prior->line, "\"class_prior\" must be an array of " + std::to_string(k) + " numbers");
        double sum = 0.0;
        for (const JsonValue &v : prior->items) {
            wf.prior.push_back(number(v, "class_prior"));
            sum += wf.prior.back();
        }
        if (!(sum > 0.0)) file_error(wf.source, prior->line, "\"class_prior\" is all 0");
    }
    if (calibration != nullptr && calibration->kind != JsonValue::Kind::Null) {
        const JsonValue *t = calibration->kind == JsonValue::Kind::Object ? calibration->member("temperature") : nullptr;
        const JsonValue *e = calibration->kind == JsonValue::Kind::Object ? calibration->member("mixing") : nullptr;
        if (t == nullptr || e == nullptr)
            file_error(wf.source, calibration->line, "\"calibration\" must be {\"temperature\": T, \"mixing\": eps}");
        wf.temperature = number(*t, "calibration temperature");
        wf.mixing = number(*e, "calibration mixing");
        wf.calibrated = true;
    }
    std::unordered_map<std::string, std::size_t> line_of;
    for (const JsonValue &w : workers->items) {
        const JsonValue *id = w.kind == JsonValue::Kind::Object ? w.member("worker") : nullptr;
        const JsonValue *conf = w.kind == JsonValue::Kind::Object ? w.member("confusion") : nullptr;
        if (id == nullptr || conf == nullptr)
            file_error(wf.source, w.line, "each worker needs \"worker\" and \"confusion\"");
        const std::string name = json_scalar_text(wf, *id, "worker");
        if (name.empty()) file_error(wf.source, w.line, "a worker without an id");
        auto [it, inserted] = line_of.emplace(name, w.line);
        if (!inserted)
            file_error(wf.source, w.line,
                       "worker " + quote_field(name) + " appears twice (first on line " + std::to_string(it->second) + ")");
        wf.worker_names.push_back(name);
        if (conf->kind != JsonValue::Kind::Array || conf->items.size() != k)
            file_error(wf.source, conf->line, "\"confusion\" of worker " + quote_field(name) + " must be " +
                                                  std::to_string(k) + " rows of " + std::to_string(k) + " numbers");
        for (const JsonValue &row : conf->items) {
            if (row.kind != JsonValue::Kind::Array || row.items.size() != k)
                file_error(wf.source, row.line, "\"confusion\" of worker " + quote_field(name) + " must be " +
                                                    std::to_string(k) + " rows of " + std::to_string(k) + " numbers");
            for (const JsonValue &v : row.items) wf.confusion.push_back(number(v, "confusion"));
        }
    }
    if (wf.worker_names.empty()) file_error(wf.source, workers->line, "no workers");
}

}  // namespace

std::string class_list_text(const std::vector<std::string> &names) {
    std::string text;
    for (std::size_t l = 0; l < names.size() && l < 20; ++l) text += (l ? ", " : "") + names[l];
    if (names.size() > 20) text += ", ...";
    return escape_controls(text);
}

ClassSpec worker_file_classes(const WorkerFile &wf) {
    ClassSpec spec;
    spec.kind = ClassSpec::Kind::List;
    spec.count = static_cast<int32_t>(wf.class_names.size());
    spec.names = wf.class_names;
    spec.text = class_list_text(wf.class_names);
    spec.origin = wf.source;
    return spec;
}

std::vector<std::size_t> match_worker_classes(const WorkerFile &wf, const std::vector<std::string> &classes,
                                              const std::string &data_source, const std::string &hint) {
    std::unordered_map<std::string, std::size_t> in_file;
    for (std::size_t l = 0; l < wf.class_names.size(); ++l) in_file.emplace(wf.class_names[l], l);
    std::vector<std::size_t> map;
    for (const std::string &c : classes) {
        auto it = in_file.find(c);
        if (it == in_file.end())
            throw CliError(kExitInput, "class " + quote_field(c) + " of " + data_source + " is not one of the classes of " +
                                           wf.source + " (" + class_list_text(wf.class_names) + ")" + hint);
        map.push_back(it->second);
    }
    if (classes.size() != wf.class_names.size()) {
        std::vector<bool> used(wf.class_names.size(), false);
        for (std::size_t l : map) used[l] = true;
        for (std::size_t l = 0; l < used.size(); ++l)
            if (!used[l])
                throw CliError(kExitInput, "class " + quote_field(wf.class_names[l]) + " of " + wf.source +
                                               " is not one of the classes of " + data_source + " (" +
                                               class_list_text(classes) + ")" + hint);
    }
    return map;
}

WorkerFile read_worker_file(const std::string &path) {
    WorkerFile wf;
    wf.source = display_name(path);
    std::string text = read_whole_file(path);
    std::size_t first = 0;
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) first = 3;
    while (first < text.size() && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r' || text[first] == '\n'))
        ++first;
    if (first >= text.size()) file_error(wf.source, 0, "empty workers file (expected the file `crowdspec fit --workers` writes)");
    if (text[first] != '[' && text[first] != '{') {
        fill_from_rows(wf, rows_from_delimited(wf, text, path));
        return wf;
    }
    JsonParser parser(text, wf.source);
    std::vector<JsonValue> values;
    while (parser.more()) values.push_back(parser.value());
    std::vector<const JsonValue *> records;
    if (values.size() == 1 && values[0].kind == JsonValue::Kind::Object && values[0].member("workers") != nullptr) {
        wf.layout = "json-nested";
        fill_from_nested(wf, values[0]);
        return wf;
    }
    if (values.size() == 1 && values[0].kind == JsonValue::Kind::Array) {
        wf.layout = "json";
        for (const JsonValue &v : values[0].items) records.push_back(&v);
    } else {
        wf.layout = "jsonl";
        for (const JsonValue &v : values) records.push_back(&v);
    }
    if (records.empty()) file_error(wf.source, 1, "no workers (an empty JSON array)");
    fill_from_rows(wf, rows_from_json_records(wf, records));
    return wf;
}

}  // namespace cli
