// SPDX-License-Identifier: MIT
#include "io/label_file.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <deque>
#include <iterator>
#include <new>
#include <unordered_map>

#include "io/column_layout.hpp"
#include "io/foreign_formats.hpp"
#include "io/id_interner.hpp"
#include "io/json_labels.hpp"
#include "io/parallel_reader.hpp"
#include "io/text_values.hpp"

namespace cli {

namespace {

// Quotes a value for an error message so that blanks and empty strings stay visible
// (control characters escaped: the message stays one line).
std::string quoted(std::string_view s) { return quote_field(s); }

// map[src[0]], ..., map[src[n - 1]] as a forward range, for vector::insert: appending
// through it constructs each new element once, where resize() would first fill the
// new elements with zeros (a gigabyte of memory written twice at 10^8 labels).
template <class T>
class MappedIds {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T *;
    using reference = T;
    MappedIds(const int32_t *at, const int32_t *map) : at_(at), map_(map) {}
    T operator*() const { return static_cast<T>(map_[static_cast<std::size_t>(*at_)]); }
    MappedIds &operator++() {
        ++at_;
        return *this;
    }
    MappedIds operator++(int) {
        MappedIds before = *this;
        ++at_;
        return before;
    }
    bool operator==(const MappedIds &o) const { return at_ == o.at_; }
    bool operator!=(const MappedIds &o) const { return at_ != o.at_; }

private:
    const int32_t *at_;
    const int32_t *map_;
};

template <class T>
void append_mapped(std::vector<T> &out, const int32_t *src, std::size_t n, const int32_t *map) {
    out.insert(out.end(), MappedIds<T>(src, map), MappedIds<T>(src + n, map));
}

// Reading the records of a crowd file (parallel_reader.hpp's Job).
struct CrowdJob {
    const Layout &layout;
    const InputOptions &input;
    CrowdTable &table;
    std::size_t c_item, c_worker, c_label;
    bool skip_empty_label;
    Interner items, workers, labels;
    std::unordered_map<std::string, std::size_t> gold_seen;  // in-file gold: item -> entry
    std::size_t records = 0;                                 // records after the header
    std::size_t estimate;                                    // bytes of input, to reserve

    CrowdJob(const Layout &l, const InputOptions &in, CrowdTable &t, std::size_t bytes)
        : layout(l), input(in), table(t), c_item(l.columns[0]), c_worker(l.columns[1]), c_label(l.columns[2]),
          skip_empty_label(l.preset == Preset::LabelStudio), items(false), workers(false), estimate(bytes) {
        compact.item_runs = compact.label_bytes = in.grouped;
    }

    struct Local {
        RoleScratch items, workers, labels;
        uint32_t generation = 0;
        std::vector<std::string_view> fields, plain;
    };
    struct Run {
        std::size_t index, line;
    };
    struct Chunk {
        LocalIds items, workers, labels;
        // The chunk's triples are item[0, n) etc.: the arrays only grow (chunks are
        // reused), so that adding a triple is a store, not a vector's push_back.
        std::vector<int32_t> item, worker, label;
        std::size_t n = 0;
        std::vector<Run> runs;  // consecutive lines, as in LineMap
        std::size_t records = 0, skipped_rejected = 0, skipped_no_answer = 0;
        std::size_t bytes = 0;
        void clear() {
            items.clear();
            workers.clear();
            labels.clear();
            n = 0;
            runs.clear();
            records = skipped_rejected = skipped_no_answer = bytes = 0;
        }
        void grow() {
            const std::size_t size = std::max<std::size_t>(4096, 2 * item.size());
            item.resize(size);
            worker.resize(size);
            label.resize(size);
        }
    };
    std::vector<int32_t> ti, tw, tl;  // merge(): local -> global ids of a chunk
    CompactColumns compact;            // grouped reads: items as runs, labels as bytes
    std::size_t guess = 0;             // labels expected in the file (from the first chunk)

    // Items as runs no longer pay (more than one run per 3 labels): the item array.
    void spill_runs(std::size_t n) {
        table.item.reserve(std::max(guess, n));
        for (std::size_t r = 0; r < compact.run_item.size(); ++r) {
            const std::size_t end = r + 1 < compact.run_start.size() ? static_cast<std::size_t>(compact.run_start[r + 1]) : n;
            table.item.insert(table.item.end(), end - static_cast<std::size_t>(compact.run_start[r]), compact.run_item[r]);
        }
        compact.free_runs();
    }
    // A label id beyond a byte: the label array.
    void spill_labels() {
        table.label.reserve(std::max(guess, compact.label8.size()));
        table.label.insert(table.label.end(), compact.label8.begin(), compact.label8.end());
        compact.free_labels();
    }

    // The in-file gold column: one gold label per item, across the file, so the job
    // is serial when there is one.
    bool serial() const { return layout.gold != kNoColumn; }

    // The records' triples are added by add(); `last_line` tracks the runs of lines.
    inline void add(Chunk &c, Local &local, RecordReader &reader, std::string_view item, std::string_view worker,
                    std::string_view label, std::size_t &last_line) {
        if (item.empty() || worker.empty() || label.empty())
            reader.fail(std::string("empty ") + (item.empty() ? "item id" : worker.empty() ? "worker id" : "label") +
                        " (expected a value in column " +
                        std::to_string((item.empty() ? c_item : worker.empty() ? c_worker : c_label) + 1) + ")");
        const std::size_t line = reader.line();
        if (c.n == 0 || line != last_line + 1) c.runs.push_back({c.n, line});
        last_line = line;
        if (c.n == c.item.size()) c.grow();
        c.item[c.n] = intern_local(c.items, local.items, local.generation, item, line);
        c.worker[c.n] = intern_local(c.workers, local.workers, local.generation, worker, line);
        c.label[c.n] = intern_local(c.labels, local.labels, local.generation, label, line);
        ++c.n;
    }

    void parse(RecordReader &reader, Chunk &c, Local &local) {
        ++local.generation;
        local.items.index.clear();
        local.workers.index.clear();
        local.labels.index.clear();
        std::vector<std::string_view> &fields = local.fields;
        const std::size_t begin = reader.position();
        std::size_t last_line = 0;
        // Plain lines (no quotes, the right field count) take the reader's fast path
        // when nothing but the three columns matters; any other line, and every line
        // of a file with gold or status columns, the general one.
        const bool plain_ok = layout.gold == kNoColumn && layout.status == kNoColumn && !skip_empty_label &&
                              layout.radio.columns.empty() && layout.n_fields >= 2;
        local.plain.resize(layout.n_fields);
        std::string_view *const plain = local.plain.data();
        for (;;) {
            if (plain_ok) {
                const RecordReader::Plain got = reader.next_plain(plain, layout.n_fields);
                if (got == RecordReader::Plain::End) break;
                if (got == RecordReader::Plain::Record) {
                    ++c.records;
                    add(c, local, reader, plain[c_item], plain[c_worker], plain[c_label], last_line);
                    continue;
                }
            }
            if (!reader.next(fields)) break;
            ++c.records;
            check_field_count(fields, layout, reader);
            const std::string_view item = fields[c_item], worker = fields[c_worker];
            const bool radio = !layout.radio.columns.empty();
            const std::string_view label = radio ? radio_label(fields, layout.radio, reader) : fields[c_label];
            if (layout.gold != kNoColumn && !fields[layout.gold].empty() && !item.empty()) {
                // The task's gold label, whatever happens to this row's answer (serial:
                // reader.line() is the file's line).
                const std::string_view gold = fields[layout.gold];
                auto [it, added] = gold_seen.emplace(std::string(item), table.file_gold.entries.size());
                if (added) {
                    table.file_gold.entries.emplace_back(std::string(item), std::string(gold));
                    table.file_gold.line.push_back(reader.line());
                } else if (table.file_gold.entries[it->second].second != gold) {
                    reader.fail("item " + quoted(item) + " has gold label " + quoted(gold) + " in column " +
                                quoted(layout.gold_name) + " here but " +
                                quoted(table.file_gold.entries[it->second].second) + " on line " +
                                std::to_string(table.file_gold.line[it->second]) + " (expected one gold label per item)");
                }
            }
            if (layout.status != kNoColumn) {
                const RowStatus status = classify_status(layout.preset, fields[layout.status]);
                if (status == RowStatus::NoAnswer) {
                    ++c.skipped_no_answer;
                    continue;
                }
                if (status == RowStatus::Rejected && !input.keep_rejected) {
                    ++c.skipped_rejected;
                    continue;
                }
            }
            if ((skip_empty_label || radio) && label.empty()) {
                ++c.skipped_no_answer;
                continue;
            }
            add(c, local, reader, item, worker, label, last_line);
        }
        c.bytes = reader.position() - begin;
    }

    void merge(Chunk &c, std::size_t offset) {
        records += c.records;
        table.skipped_rejected += c.skipped_rejected;
        table.skipped_no_answer += c.skipped_no_answer;
        const std::size_t n = c.n;
        if (n == 0) return;
        translate(items, c.items, offset, ti);
        translate(workers, c.workers, offset, tw);
        translate(labels, c.labels, offset, tl);
        const std::size_t base = table.worker.size();
        if (base == 0) {
            // Room for the whole file at this chunk's bytes per label, plus a little.
            const double per_byte = c.bytes > 0 ? static_cast<double>(n) / static_cast<double>(c.bytes) : 0.0;
            guess = static_cast<std::size_t>(per_byte * static_cast<double>(estimate) * 1.05) + 16;
            table.worker.reserve(guess);
            if (!compact.item_runs) table.item.reserve(guess);
            if (!compact.label_bytes) table.label.reserve(guess);
            else compact.label8.reserve(guess);
        }
        if (compact.item_runs) {
            const std::size_t before = compact.run_item.size();
            for (std::size_t r = 0; r < n; ++r) {
                const int32_t id = ti[static_cast<std::size_t>(c.item[r])];
                if (compact.run_item.empty() || compact.run_item.back() != id) {
                    compact.run_item.push_back(id);
                    compact.run_start.push_back(static_cast<int64_t>(base + r));
                }
            }
            if (base == 0) {  // as many runs again per label for the rest of the file
                const std::size_t runs = static_cast<std::size_t>(
                    static_cast<double>(guess) * static_cast<double>(compact.run_item.size() - before) /
                    static_cast<double>(n) * 1.05) + 16;
                compact.run_item.reserve(runs);
                compact.run_start.reserve(runs);
            }
            if (3 * compact.run_item.size() > base + n && base + n >= (std::size_t{1} << 16)) spill_runs(base + n);
        } else {
            append_mapped(table.item, c.item.data(), n, ti.data());
        }
        append_mapped(table.worker, c.worker.data(), n, tw.data());
        if (compact.label_bytes && !tl.empty() && *std::max_element(tl.begin(), tl.end()) > 255) spill_labels();
        if (compact.label_bytes) append_mapped(compact.label8, c.label.data(), n, tl.data());
        else append_mapped(table.label, c.label.data(), n, tl.data());
        for (std::size_t k = 0; k < c.runs.size(); ++k) {
            const std::size_t end = k + 1 < c.runs.size() ? c.runs[k + 1].index : n;
            table.line.push_run(c.runs[k].line + offset, end - c.runs[k].index);
        }
    }
};

CrowdTable read_crowd_input(InputBytes &in, const ParseSettings &settings, const std::string &path,
                            const ClassSpec &classes, const InputOptions &input, std::size_t first_line,
                            bool part_of_file);

// The whole of `in` (a stream's window grows to the end), valid while `in` is.
std::string_view whole_input(InputBytes &in) {
    while (!in.at_eof()) in.advance(0);
    return std::string_view(in.data(), in.size());
}

// A JSON crowd file: its records read as CSV (read_json_as_table).
CrowdTable read_crowd_json(InputBytes &in, const ParseSettings &settings, const std::string &path,
                           const ClassSpec &classes, const InputOptions &input, bool part_of_file) {
    // (io/json_labels.hpp: the CSV table of its records, read by every rule of CSV files)
    return read_json_as_table(whole_input(in), display_name(path), [&](const JsonTable &json) {
        InputBytes csv(json.csv);
        CrowdTable table =
            read_crowd_input(csv, settings, path, classes, json_csv_options(input), json.first_line, part_of_file);
        table.format = json.layout;
        return table;
    });
}

// read_crowd_file and read_crowd_text: the records of `in`, whose first line is
// `first_line` of the file named `path`.
CrowdTable read_crowd_input(InputBytes &in, const ParseSettings &settings, const std::string &path,
                            const ClassSpec &classes, const InputOptions &input, std::size_t first_line,
                            bool part_of_file) {
    CrowdTable table;
    table.source = display_name(path);
    try {
        complete_first_line(in);
        // A regular file with the magic bytes was read as a binary file; this one comes
        // from a pipe (standard input, a FIFO), which cannot be mapped.
        if (in.size() >= sizeof kBinaryMagic && std::memcmp(in.data(), kBinaryMagic, sizeof kBinaryMagic) == 0)
            throw CliError(kExitInput, table.source +
                                           ": a crowdspec binary label file, which is read mapped from a regular "
                                           "file: give its file name instead of a pipe or standard input");
        reject_foreign_format(std::string_view(in.data(), std::min<std::size_t>(in.size(), 64)), path, table.source);
        if (looks_like_json(std::string_view(in.data(), std::min<std::size_t>(in.size(), 64))))
            return read_crowd_json(in, settings, path, classes, input, part_of_file);
        const std::vector<Role> roles = crowd_roles(input);
        const TextFormat format = resolve_text_format(
            input.format, path, std::string_view(in.data(), in.size()), input.header,
            [&](const std::vector<std::string_view> &fields) { return names_columns(fields, roles); });
        table.format = text_format_name(format);
        std::deque<std::string> escapes;
        std::vector<std::string_view> fields;
        Layout layout;
        const FirstRecord first = read_first_record(in, format, table.source, escapes, fields, first_line,
                                                    [&](const RecordReader &r) {
            layout = plan_layout(fields, roles, input.header, r, input.preset, &input.gold_col);
        });
        if (!first.found)
            throw CliError(kExitInput, table.source + ": the file is empty (expected `item worker label` lines, "
                                                      "or a header line naming the columns and then records)");
        table.preset = layout.preset;
        table.columns = layout.columns_note;
        if (layout.gold != kNoColumn) table.file_gold.source = table.source + " column " + quoted(layout.gold_name);
        // Without a header the first record is a label: start over at the top.
        const std::size_t start = layout.header ? first.after : first.begin;
        CrowdJob job(layout, input, table, in.size() - start);
        read_chunks(in, start, layout.header ? first.after_line : first_line, format, table.source, settings, job);
        if (layout.header && job.records == 0)
            input_error(table.source, layout.header_line,
                        "the file has a header line but no labels after it (expected one record per label)");

        const std::vector<int32_t> item_rank = id_order(job.items);
        const std::vector<int32_t> worker_rank = id_order(job.workers);
        std::vector<int32_t> label_map;
        switch (classes.kind) {
            case ClassSpec::Kind::Infer:
                label_map = inferred_class_order(job.labels.names());
                table.class_names = ordered_names(job.labels.names(), label_map);
                break;
            case ClassSpec::Kind::Count:
                label_map = counted_class_map(job.labels, classes, table.source, table.class_names);
                break;
            case ClassSpec::Kind::List:
                label_map = listed_class_map(job.labels, classes, table.source);
                table.class_names = classes.names;
                break;
        }
        if (table.worker.empty() && !part_of_file)
            throw CliError(kExitInput, table.source + ": no labels left after skipping " +
                                           std::to_string(table.skipped_rejected + table.skipped_no_answer) +
                                           " rows (" + std::to_string(table.skipped_rejected) + " rejected, " +
                                           std::to_string(table.skipped_no_answer) + " without an answer)" +
                                           (table.skipped_rejected > 0 ? "; --keep-rejected uses rejected ones" : ""));
        const std::size_t k = table.class_names.size();
        // Codes worker * k + label need k >= 2 and fit 32 bits (the library's limits);
        // otherwise the library's messages about the classes come from cs_fit.
        const bool group = input.grouped && !table.worker.empty() && k >= 2 &&
                           static_cast<uint64_t>(worker_rank.size()) * k <= UINT32_MAX;
        if (!group) {  // the compact columns, if any, as the triples' arrays
            if (job.compact.item_runs) job.spill_runs(table.worker.size());
            if (job.compact.label_bytes) job.spill_labels();
        }
        if (group) {
            number_grouped(table, job.compact, item_rank, worker_rank, label_map, settings.threads);
        } else {
            // The final numbering, in one parallel pass (string ids keep theirs).
            const bool items_same = is_identity(item_rank), workers_same = is_identity(worker_rank),
                       labels_same = is_identity(label_map);
            parallel_for(table.item.size(), settings.threads, [&](std::size_t lo, std::size_t hi) {
                for (std::size_t t = lo; t < hi; ++t) {
                    if (!items_same) table.item[t] = item_rank[static_cast<std::size_t>(table.item[t])];
                    if (!workers_same) table.worker[t] = worker_rank[static_cast<std::size_t>(table.worker[t])];
                    if (!labels_same) table.label[t] = label_map[static_cast<std::size_t>(table.label[t])];
                }
            });
        }
        table.item_names = ordered_names(job.items.names(), item_rank, settings.threads);
        table.worker_names = ordered_names(job.workers.names(), worker_rank, settings.threads);
    } catch (const std::bad_alloc &) {
        throw CliError(kExitInput, table.source + ": out of memory while reading the labels");
    }  // the interners end here
    return table;
}

}  // namespace

CrowdTable read_crowd_text_file(const std::string &path, const ClassSpec &classes, const InputOptions &input) {
    const ParseSettings settings = parse_settings(input.threads);
    InputBytes in(path, settings.chunk_bytes * (2 * settings.threads + 2));
    return read_crowd_input(in, settings, path, classes, input, 1, false);
}

CrowdTable read_crowd_text(std::string text, const std::string &path, const ClassSpec &classes,
                           const InputOptions &input, std::size_t first_line, bool part_of_file) {
    InputBytes in(std::move(text));
    return read_crowd_input(in, parse_settings(input.threads), path, classes, input, first_line, part_of_file);
}

namespace {

// Reading the records of a truth or gold file: one label per item, identical repeats
// allowed. Serial, since a repeat names the line of the item's first entry.
struct TruthJob {
    const Layout &layout;
    TruthTable &truth;
    Interner seen;  // item -> its entry (ids are numbered in entry order)
    std::size_t records = 0;

    struct Local {
        std::vector<std::string_view> fields;
    };
    struct Chunk {
        void clear() {}
    };
    bool serial() const { return true; }

    void parse(RecordReader &reader, Chunk &, Local &local) {
        std::vector<std::string_view> &fields = local.fields;
        while (reader.next(fields)) {
            ++records;
            check_field_count(fields, layout, reader);
            const std::string_view item = fields[layout.columns[0]];
            const bool radio = !layout.radio.columns.empty();
            const std::string_view label = radio ? radio_label(fields, layout.radio, reader) : fields[layout.columns[1]];
            if (radio && label.empty()) continue;  // no option chosen: no gold label
            if (item.empty() || label.empty())
                reader.fail(std::string("empty ") + (item.empty() ? "item id" : "label") + " (expected a value in column " +
                            std::to_string(layout.columns[item.empty() ? 0 : 1] + 1) + ")");
            const std::size_t e = static_cast<std::size_t>(seen.intern(item, reader.line()));
            if (e < truth.entries.size()) {
                const std::string &before = truth.entries[e].second;
                if (before != label)
                    reader.fail("item " + quoted(item) + " has label " + quoted(label) + " here but " + quoted(before) +
                                " on line " + std::to_string(truth.line[e]) + " (expected one label per item)");
                continue;  // an identical repeat (dog_truth.txt repeats every line)
            }
            truth.entries.emplace_back(std::string(item), std::string(label));
            truth.line.push_back(reader.line());
        }
    }
    void merge(Chunk &, std::size_t) {}
};

}  // namespace

namespace {

// The records of a truth or gold file in `in`, whose header (if any) is on `first_line`.
TruthTable read_truth_input(InputBytes &in, const ParseSettings &settings, const std::string &path,
                            const InputOptions &input, std::size_t first_line) {
    TruthTable truth;
    truth.source = display_name(path);
    const std::vector<Role> roles = truth_roles(input);
    const TextFormat format =
        resolve_text_format(input.format, path, std::string_view(in.data(), in.size()), input.header,
                            [&](const std::vector<std::string_view> &fields) { return names_columns(fields, roles); });
    std::deque<std::string> escapes;
    std::vector<std::string_view> fields;
    Layout layout;
    const FirstRecord first =
        read_first_record(in, format, truth.source, escapes, fields, first_line, [&](const RecordReader &r) {
            layout = plan_layout(fields, roles, input.header, r);
        });
    if (!first.found)
        throw CliError(kExitInput, truth.source + ": the file is empty (expected `item label` lines, or a header "
                                                  "line naming the columns and then records)");
    TruthJob job{layout, truth, Interner(), 0};
    read_chunks(in, layout.header ? first.after : first.begin, layout.header ? first.after_line : first_line, format,
                truth.source, settings, job);
    if (layout.header && job.records == 0)
        input_error(truth.source, layout.header_line, "the file has a header line but no labels after it");
    return truth;
}

}  // namespace

TruthTable read_truth_file(const std::string &path, const InputOptions &input) {
    ParseSettings settings = parse_settings(input.threads);
    settings.threads = 1;
    InputBytes in(path, settings.chunk_bytes * 4);
    complete_first_line(in);
    if (!looks_like_json(std::string_view(in.data(), std::min<std::size_t>(in.size(), 64))))
        return read_truth_input(in, settings, path, input, 1);
    // JSON records (e.g. what `fit --output x.json` writes) or a Label Studio export.
    return read_json_as_table(whole_input(in), display_name(path), [&](const JsonTable &json) {
        InputBytes csv(json.csv);
        return read_truth_input(csv, settings, path, json_csv_options(input), json.first_line);
    });
}

}  // namespace cli
