// SPDX-License-Identifier: MIT
#include "io/export_presets.hpp"

#include <algorithm>

#include "common/errors.hpp"

namespace cli {

const char kPresetHelp[] =
    "  Platform exports (--preset auto|generic|toloka|mturk|labelstudio; default auto:\n"
    "  recognised by the header, else the default names above):\n"
    "    toloka       item = the INPUT:* column, worker = ASSIGNMENT:worker_id, label =\n"
    "                 the OUTPUT:* column, in-file gold = GOLDEN:<name> of OUTPUT:<name>;\n"
    "                 ASSIGNMENT:status REJECTED rows skipped (--keep-rejected keeps them),\n"
    "                 SKIPPED/EXPIRED/ACTIVE rows skipped (no answer). E.g. (tabs):\n"
    "                   INPUT:image OUTPUT:result GOLDEN:result ASSIGNMENT:worker_id\n"
    "                   a.jpg       cat                         w1\n"
    "                   b.jpg       dog           dog           w2\n"
    "    mturk        item = HITId, worker = WorkerId, label = the Answer.* column;\n"
    "                 AssignmentStatus Rejected rows skipped (--keep-rejected keeps them)\n"
    "                   HITId,WorkerId,AssignmentStatus,Input.image_url,Answer.category\n"
    "                   3A1B,A2XYZ,Approved,a.jpg,cat\n"
    "                   3A1B,A3QRS,Rejected,a.jpg,dog\n"
    "                 A radio-button export (one Answer.<option>.on column per option,\n"
    "                 true/false) gives label = the option whose column is true; rows\n"
    "                 where none is true are skipped (no answer), several is an error:\n"
    "                   HITId,WorkerId,Answer.cat.on,Answer.dog.on\n"
    "                   3A1B,A2XYZ,true,false\n"
    "    labelstudio  item = id (the task id; else the one data-like column), worker =\n"
    "                 annotator, label = the choice column (the one column that is not\n"
    "                 Label Studio's own -- annotation_id, created_at, updated_at,\n"
    "                 lead_time, agreement -- with a choice-like name such as choice,\n"
    "                 sentiment, label, class; else the one without a data-like name\n"
    "                 such as image, text, audio, url); rows with an empty choice skipped\n"
    "                   image,id,choice,annotator,annotation_id,created_at,lead_time\n"
    "                   /data/a.jpg,1,cat,ann@example.org,11,2024-05-01T10:00:00Z,4.2\n"
    "                   /data/a.jpg,1,dog,bob@example.org,12,2024-05-01T10:01:00Z,3.9\n"
    "    generic      the default names above only\n"
    "  Detection: an INPUT:, OUTPUT:, GOLDEN: or ASSIGNMENT: column means toloka; HITId\n"
    "  (or WorkerId with an Answer.* column) mturk; annotator with annotation_id\n"
    "  labelstudio. --item-col/--worker-col/--label-col/--gold-col override any rule;\n"
    "  when a rule finds several candidates the error names them and the option.\n"
    "  Gold and truth files are recognised the same way (toloka: INPUT:* and GOLDEN:*,\n"
    "  else OUTPUT:*; mturk: HITId and Answer.*; labelstudio: id and the choice column).\n";

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

bool istarts(std::string_view s, std::string_view prefix) {
    return s.size() > prefix.size() && iequal(s.substr(0, prefix.size()), prefix);
}

bool one_of(std::string_view s, std::initializer_list<std::string_view> names) {
    for (std::string_view n : names)
        if (iequal(s, n)) return true;
    return false;
}

// Label Studio's own columns in its CSV export (everything else is task data or a
// control tag's result).
bool labelstudio_own(std::string_view s) {
    return one_of(s, {"id", "annotator", "annotation_id", "created_at", "updated_at", "lead_time", "agreement"});
}

bool choice_like(std::string_view s) {
    return one_of(s, {"choice", "choices", "label", "labels", "class", "category", "sentiment", "answer", "rating",
                      "result", "taxonomy"});
}

bool data_like(std::string_view s) {
    return one_of(s, {"image", "img", "text", "audio", "video", "html", "url", "pdf", "document", "ocr", "dialogue",
                      "sentence", "title", "paragraphs", "timeseries", "caption", "question", "context"});
}

// MTurk's radio-button column of one option: Answer.<option>.on.
bool radio_column(std::string_view s) {
    return s.size() > 10 && istarts(s, "Answer.") && iequal(s.substr(s.size() - 3), ".on");
}

// The columns one rule could take: not already chosen for another role.
class Candidates {
public:
    Candidates(const std::vector<std::string_view> &header, const ExportColumns &taken)
        : header_(header), taken_(taken) {}

    template <class Pred>
    std::vector<std::size_t> where(Pred pred) const {
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < header_.size(); ++i)
            if (!is_taken(i) && pred(header_[i])) out.push_back(i);
        return out;
    }

    bool is_taken(std::size_t i) const {
        return i == taken_.item || i == taken_.worker || i == taken_.label || i == taken_.gold || i == taken_.status;
    }

private:
    const std::vector<std::string_view> &header_;
    const ExportColumns &taken_;
};

std::string names_of(const std::vector<std::string_view> &header, const std::vector<std::size_t> &columns) {
    std::string out;
    for (std::size_t i = 0; i < columns.size() && i < 8; ++i) out += (i ? ", " : "") + quote_field(header[columns[i]]);
    if (columns.size() > 8) out += ", ... (" + std::to_string(columns.size()) + " in all)";
    return out;
}

// The one column of `hits`, kNoColumn for none; several stop with a message naming
// them, the role, what they are and the option that chooses one, e.g. "columns
// 'OUTPUT:a' and 'OUTPUT:b' could each be the label (Toloka output columns); choose one
// with --label-col".
std::size_t single(const std::vector<std::string_view> &header, const std::vector<std::size_t> &hits,
                   const std::string &role, const std::string &what, const std::string &option,
                   const RecordReader &reader, const std::string &hint = std::string()) {
    if (hits.empty()) return kNoColumn;
    if (hits.size() > 1) {
        std::string names = names_of(header, hits);
        if (hits.size() == 2) names.replace(names.find(", "), 2, " and ");
        reader.fail("columns " + names + " could each be the " + role + " (" + what + "); choose one with " + option +
                    hint);
    }
    return hits[0];
}

std::size_t exact(const Candidates &c, std::string_view name) {
    const std::vector<std::size_t> hits = c.where([&](std::string_view s) { return iequal(s, name); });
    return hits.empty() ? kNoColumn : hits[0];
}

void toloka(const std::vector<std::string_view> &h, FileKind kind, bool want_gold, const RoleOptions &o,
            const RecordReader &r, ExportColumns &cols) {
    const auto open = [](std::size_t c) { return c == kNoColumn; };
    const auto with_prefix = [](std::string_view p) { return [p](std::string_view s) { return istarts(s, p); }; };
    if (open(cols.item)) {
        Candidates c(h, cols);
        std::string hint;
        if (kind == FileKind::Crowd && exact(c, "ASSIGNMENT:task_id") != kNoColumn)
            hint = " (or " + std::string(o.item) + " ASSIGNMENT:task_id for Toloka's task id)";
        cols.item = single(h, c.where(with_prefix("INPUT:")), "item key", "Toloka input columns", o.item, r, hint);
    }
    if (kind == FileKind::Crowd) {
        if (open(cols.worker)) cols.worker = exact(Candidates(h, cols), "ASSIGNMENT:worker_id");
        if (open(cols.label))
            cols.label = single(h, Candidates(h, cols).where(with_prefix("OUTPUT:")), "label", "Toloka output columns",
                                o.label, r);
        if (open(cols.status)) cols.status = exact(Candidates(h, cols), "ASSIGNMENT:status");
        if (want_gold && open(cols.gold)) {
            // GOLDEN:<name> belongs to OUTPUT:<name>; with another label column, the one GOLDEN:*.
            Candidates c(h, cols);
            if (cols.label != kNoColumn && istarts(h[cols.label], "OUTPUT:")) {
                const std::string golden = "GOLDEN:" + std::string(h[cols.label].substr(7));
                cols.gold = exact(c, golden);
            } else {
                cols.gold = single(h, c.where(with_prefix("GOLDEN:")), "gold label", "Toloka gold columns", o.gold, r);
            }
        }
    } else if (open(cols.label)) {
        Candidates c(h, cols);
        cols.label = single(h, c.where(with_prefix("GOLDEN:")), "label", "Toloka gold columns", o.label, r);
        if (open(cols.label))
            cols.label = single(h, c.where(with_prefix("OUTPUT:")), "label", "Toloka output columns", o.label, r);
    }
}

void mturk(const std::vector<std::string_view> &h, FileKind kind, const RoleOptions &o, const RecordReader &r,
           ExportColumns &cols) {
    if (cols.item == kNoColumn) cols.item = exact(Candidates(h, cols), "HITId");
    if (kind == FileKind::Crowd && cols.worker == kNoColumn) cols.worker = exact(Candidates(h, cols), "WorkerId");
    if (cols.label == kNoColumn) {
        // A radio-button template writes one Answer.<option>.on column per option
        // (true for the chosen one): the label is that option (label_from_choices).
        cols.radio.columns = Candidates(h, cols).where(radio_column);
        if (!cols.radio.columns.empty()) {
            cols.label = cols.radio.columns.front();
            for (std::size_t c : cols.radio.columns) {
                cols.radio.options.emplace_back(h[c].substr(7, h[c].size() - 10));  // Answer.<option>.on
                cols.radio.headers.emplace_back(h[c]);
            }
        } else {
            cols.label = single(h, Candidates(h, cols).where([](std::string_view s) { return istarts(s, "Answer."); }),
                                "label", "MTurk answer columns", o.label, r);
        }
    }
    if (kind == FileKind::Crowd && cols.status == kNoColumn)
        cols.status = exact(Candidates(h, cols), "AssignmentStatus");
}

void labelstudio(const std::vector<std::string_view> &h, FileKind kind, const RoleOptions &o,
                 const RecordReader &r, ExportColumns &cols) {
    if (kind == FileKind::Crowd && cols.worker == kNoColumn) cols.worker = exact(Candidates(h, cols), "annotator");
    if (cols.label == kNoColumn) {
        Candidates c(h, cols);
        const auto foreign = [](std::string_view s) { return !labelstudio_own(s); };
        cols.label = single(h, c.where([&](std::string_view s) { return foreign(s) && choice_like(s); }), "label",
                            "Label Studio choice columns", o.label, r);
        if (cols.label == kNoColumn)
            cols.label = single(h, c.where([&](std::string_view s) { return foreign(s) && !data_like(s); }), "label",
                                "Label Studio writes a column per data field and per control tag", o.label, r);
    }
    if (cols.item == kNoColumn) {
        Candidates c(h, cols);
        cols.item = exact(c, "id");
        if (cols.item == kNoColumn)
            cols.item = single(h, c.where([](std::string_view s) { return !labelstudio_own(s) && data_like(s); }),
                               "item", "Label Studio data columns; the export has no task id", o.item, r);
    }
}

}  // namespace

Preset parse_preset(const std::string &value) {
    if (value == "auto") return Preset::Auto;
    if (value == "generic") return Preset::Generic;
    if (value == "toloka") return Preset::Toloka;
    if (value == "mturk") return Preset::MTurk;
    if (value == "labelstudio" || value == "label-studio") return Preset::LabelStudio;
    throw CliError(kExitUsage, "--preset " + quote_field(value) + ": expected auto, generic, toloka, mturk or labelstudio");
}

const char *preset_name(Preset preset) {
    switch (preset) {
        case Preset::Auto: return "auto";
        case Preset::Generic: return "generic";
        case Preset::Toloka: return "toloka";
        case Preset::MTurk: return "mturk";
        case Preset::LabelStudio: return "labelstudio";
    }
    return "generic";
}

const char *preset_title(Preset preset) {
    switch (preset) {
        case Preset::Toloka: return "Toloka";
        case Preset::MTurk: return "Amazon Mechanical Turk";
        case Preset::LabelStudio: return "Label Studio";
        case Preset::Auto:
        case Preset::Generic: break;
    }
    return "generic";
}

Preset detect_preset(const std::vector<std::string_view> &header) {
    bool hit = false, worker_id = false, answer = false, annotator = false, annotation_id = false;
    for (std::string_view s : header) {
        if (istarts(s, "INPUT:") || istarts(s, "OUTPUT:") || istarts(s, "GOLDEN:") || istarts(s, "ASSIGNMENT:"))
            return Preset::Toloka;
        hit |= iequal(s, "HITId");
        worker_id |= iequal(s, "WorkerId");
        answer |= istarts(s, "Answer.");
        annotator |= iequal(s, "annotator");
        annotation_id |= iequal(s, "annotation_id");
    }
    if (hit || (worker_id && answer)) return Preset::MTurk;
    if (annotator && annotation_id) return Preset::LabelStudio;
    return Preset::Generic;
}

bool has_export_column(const std::vector<std::string_view> &fields) {
    for (std::string_view s : fields)
        if (istarts(s, "INPUT:") || istarts(s, "OUTPUT:") || istarts(s, "GOLDEN:") || istarts(s, "ASSIGNMENT:") ||
            istarts(s, "Answer.") || iequal(s, "HITId") || iequal(s, "annotation_id"))
            return true;
    return false;
}

ExportColumns export_columns(const std::vector<std::string_view> &header, Preset preset, FileKind kind,
                             const ExportColumns &fixed, bool want_gold, const RoleOptions &options,
                             const RecordReader &reader) {
    ExportColumns cols = fixed;
    cols.preset = preset == Preset::Auto ? detect_preset(header) : preset;
    switch (cols.preset) {
        case Preset::Toloka: toloka(header, kind, want_gold, options, reader, cols); break;
        case Preset::MTurk: mturk(header, kind, options, reader, cols); break;
        case Preset::LabelStudio: labelstudio(header, kind, options, reader, cols); break;
        case Preset::Auto:
        case Preset::Generic: break;
    }
    return cols;
}

std::string expected_column(Preset preset, FileKind kind, std::string_view role) {
    const bool item = role == "item", worker = role == "worker";
    switch (preset) {
        case Preset::Toloka:
            if (item) return "an INPUT:* column";
            if (worker) return "ASSIGNMENT:worker_id";
            return kind == FileKind::Crowd ? "an OUTPUT:* column" : "a GOLDEN:* or OUTPUT:* column";
        case Preset::MTurk: return item ? "HITId" : worker ? "WorkerId" : "an Answer.* column";
        case Preset::LabelStudio: return item ? "id" : worker ? "annotator" : "a choice column";
        case Preset::Auto:
        case Preset::Generic: break;
    }
    return std::string();
}

std::string_view radio_label(const std::vector<std::string_view> &fields, const RadioChoices &radio,
                             const RecordReader &reader) {
    const std::vector<std::string> &header_names = radio.headers;
    std::size_t chosen = kNoColumn;
    for (std::size_t k = 0; k < radio.columns.size(); ++k) {
        const std::string_view v = fields[radio.columns[k]];
        bool on = false;
        if (one_of(v, {"true", "1", "yes", "on", "x"})) on = true;
        else if (!v.empty() && !one_of(v, {"false", "0", "no", "off"}))
            reader.fail("column " + quote_field(header_names[k]) + " is " + quote_field(v) +
                        ", expected true or false (a radio-button answer)");
        if (!on) continue;
        if (chosen != kNoColumn)
            reader.fail("two options are true, " + quote_field(header_names[chosen]) + " and " +
                        quote_field(header_names[k]) +
                        " (a radio-button answer has one; for check boxes give the column to fit with --label-col)");
        chosen = k;
    }
    return chosen == kNoColumn ? std::string_view() : std::string_view(radio.options[chosen]);
}

RowStatus classify_status(Preset preset, std::string_view value) {
    if (preset == Preset::Toloka) {
        if (iequal(value, "REJECTED")) return RowStatus::Rejected;
        if (one_of(value, {"SKIPPED", "EXPIRED", "ACTIVE"})) return RowStatus::NoAnswer;
    } else if (preset == Preset::MTurk) {
        if (iequal(value, "Rejected")) return RowStatus::Rejected;
    }
    return RowStatus::Keep;
}

}  // namespace cli
