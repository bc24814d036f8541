// SPDX-License-Identifier: MIT
#include "io/crowd_table.hpp"

#include <algorithm>
#include <climits>

#include "io/text_values.hpp"

namespace cli {

const char kInputHelp[] =
    "Input files (crowd labels, --truth, --gold):\n"
    "  Formats: CSV and TSV (RFC 4180 \"double quotes\", \"\" for a quote, line breaks\n"
    "  inside quotes), or fields separated by blanks/tabs. CRLF line ends and a UTF-8 BOM\n"
    "  are fine; blank lines are skipped; FILE - reads standard input. --input-format\n"
    "  auto picks per file: .csv -> csv, .tsv/.tab -> tsv; otherwise a header line with\n"
    "  a tab -> tsv, a first line with a comma -> csv, else whitespace. Unquoted CSV/TSV\n"
    "  fields are trimmed of surrounding blanks. JSON is recognised by its first\n"
    "  character ([ or {): records (an array of objects, as fit --output x.json and\n"
    "  pandas' to_json(orient=\"records\") write), JSON lines (one object per line),\n"
    "  fit's --format json-nested, or Label Studio's JSON export (tasks with\n"
    "  annotations: item = the task id, worker = completed_by, label = the choice);\n"
    "  each key is a column, read by the rules below. Spreadsheets, Parquet, zip and\n"
    "  compressed files are refused with what to do instead.\n"
    "  Header: with --header auto the first line is a header if a field names a column\n"
    "  (a default name below or one given by --item-col/--worker-col/--label-col). Then\n"
    "  the columns are found by name, case-insensitively (a number is a 1-based\n"
    "  position), other columns are ignored, and every line must have as many fields\n"
    "  as the header. Default names, the first present wins:\n"
    "    item    task, item, question\n"
    "    worker  worker, annotator, user, performer\n"
    "    label   label, answer, response, output  (truth/gold files also: truth, gold,\n"
    "            golden, true_label, ground_truth, correct)\n"
    "  A name also matches with an _id or id suffix and a `prefix:` or `prefix.` in front\n"
    "  (task_id, WorkerId, ASSIGNMENT:worker_id). Without a header, crowd lines are\n"
    "  `item worker label` (exactly 3 fields, or the positions given by --item-col etc.)\n"
    "  and truth/gold lines `item label`. In gold and truth files --gold-item-col and\n"
    "  --gold-label-col must name a column; --item-col/--label-col apply when present.\n";

std::vector<OptionSpec> input_option_specs() {
    return {{"input-format", true, '\0'}, {"header", true, '\0'},        {"item-col", true, '\0'},
            {"worker-col", true, '\0'},   {"label-col", true, '\0'},     {"preset", true, '\0'},
            {"gold-col", true, '\0'},     {"gold-item-col", true, '\0'}, {"gold-label-col", true, '\0'},
            {"keep-rejected", false, '\0'}};
}

InputOptions input_options_from(const ParsedArgs &args) {
    InputOptions in;
    if (auto v = args.last("input-format")) in.format = parse_text_format(*v);
    if (auto v = args.last("header")) in.header = parse_header_mode(*v);
    const auto column = [&](const char *name, std::string &out) {
        if (auto v = args.last(name)) {
            if (v->empty()) throw CliError(kExitUsage, std::string("--") + name + ": expected a column name or number");
            out = *v;
        }
    };
    column("item-col", in.item_col);
    column("worker-col", in.worker_col);
    column("label-col", in.label_col);
    column("gold-col", in.gold_col);
    column("gold-item-col", in.gold_item_col);
    column("gold-label-col", in.gold_label_col);
    if (auto v = args.last("preset")) in.preset = parse_preset(*v);
    in.keep_rejected = args.has("keep-rejected");
    // --threads (a fitting option where a command has one) also sets how many threads
    // parse; the library validates the value itself, so a bad one is left to it.
    if (auto v = args.last("threads")) {
        int64_t n = 0;
        if (parse_int64(*v, n) && n >= 0 && n <= 1024) in.threads = static_cast<std::size_t>(n);
    }
    return in;
}

ClassSpec parse_class_spec(const std::string &text) {
    ClassSpec spec;
    spec.text = text;
    int64_t k = 0;
    if (parse_int64(text, k)) {
        if (k < 2)
            throw CliError(kExitUsage, "--classes " + text + ": at least 2 classes are needed");
        if (k > INT32_MAX)
            throw CliError(kExitUsage, "--classes " + text + ": too many classes");
        spec.kind = ClassSpec::Kind::Count;
        spec.count = static_cast<int32_t>(k);
        return spec;
    }
    spec.kind = ClassSpec::Kind::List;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (name.empty())
            throw CliError(kExitUsage, "--classes '" + text + "': empty class name in the list");
        if (std::find(spec.names.begin(), spec.names.end(), name) != spec.names.end())
            throw CliError(kExitUsage, "--classes '" + text + "': class '" + name + "' is listed twice");
        spec.names.push_back(std::move(name));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (spec.names.size() < 2)
        throw CliError(kExitUsage, "--classes '" + text + "': give K >= 2 or a list of at least 2 classes (A,B,...)");
    spec.count = static_cast<int32_t>(spec.names.size());
    return spec;
}

std::string crowd_read_note(const CrowdTable &t) {
    std::string note;
    if (t.preset != Preset::Generic)
        note = t.source + " read by the " + preset_name(t.preset) + " preset (" + preset_title(t.preset) +
               "): " + t.columns;
    if (t.skipped_rejected > 0)
        note += (note.empty() ? "" : "; ") + std::string("skipped ") + std::to_string(t.skipped_rejected) +
                " rejected assignments (--keep-rejected uses them)";
    if (t.skipped_no_answer > 0)
        note += (note.empty() ? "" : "; ") + std::string("skipped ") + std::to_string(t.skipped_no_answer) +
                " rows without an answer";
    return note;
}

void expand_grouped_triples(CrowdTable &table) {
    if (!table.grouped()) return;
    const std::size_t n = table.code_storage.size(), n_items = table.item_start.size() - 1;
    const uint32_t k = static_cast<uint32_t>(table.class_names.size());
    const uint32_t *const code = table.codes();
    table.item.resize(n);
    table.label.resize(n);
    for (std::size_t j = 0; j < n_items; ++j)
        std::fill(table.item.begin() + table.item_start[j], table.item.begin() + table.item_start[j + 1],
                  static_cast<int32_t>(j));
    for (std::size_t p = 0; p < n; ++p) table.label[p] = static_cast<int32_t>(code[p] % k);
    // The worker ids take the codes' place.
    int32_t *const worker = table.code_storage.data();
    for (std::size_t p = 0; p < n; ++p) worker[p] = static_cast<int32_t>(code[p] / k);
    table.worker = std::move(table.code_storage);
    std::vector<int64_t>().swap(table.item_start);
    std::vector<int32_t>().swap(table.code_storage);
}

void LineMap::push_run(std::size_t first, std::size_t count) {
    if (count == 0) return;
    const bool continues = !runs_.empty() && runs_.back().line + (size_ - runs_.back().index) == first;
    if (!continues) runs_.push_back({size_, first});
    size_ += count;
}

std::size_t LineMap::operator[](std::size_t t) const {
    auto it = std::upper_bound(runs_.begin(), runs_.end(), t, [](std::size_t v, const Run &r) { return v < r.index; });
    --it;  // runs_[0].index == 0 <= t
    return it->line + (t - it->index);
}

}  // namespace cli
