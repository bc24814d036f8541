// SPDX-License-Identifier: MIT
// The HTML page of `crowdspec report` and its CSV side files (--relabel,
// --review-workers), built from a fitted crowd (internal to tools/report/, used by
// cli/command_report.cpp, which reads the input, fits and writes the files). The page is
// self-contained -- no scripts, no network, no external stylesheets or fonts -- with
// inline SVG charts (report/svg.hpp) of what a team lead checks before trusting the
// labels, and tables of what to act on (report/quality.hpp).
//
// Where each part lives: report_page.cpp assembles the page and writes the side files;
// chart_sections.cpp draws the summary, accuracy, agreement, worker and likelihood
// sections; table_sections.cpp the relabel, review, gold and agreement tables;
// page_helpers.cpp the formatting they share and the style sheet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "io/crowd_table.hpp"
#include "io/fit_outcome.hpp"
#include "io/output.hpp"
#include "io/result_writers.hpp"
#include "report/quality.hpp"

namespace cli {
namespace report {

// One method scored on the truth items.
struct MethodScore {
    std::string method;
    std::size_t scored = 0, correct = 0;
    std::string failure;  // the fit's error message when it failed
};

// A worker's labels on the reference items (truth, else gold).
struct GoldTally {
    std::size_t labels = 0, correct = 0;
};

struct ReportInput {
    const CrowdTable *table;
    const FitOutcome *fit;
    std::vector<int32_t> mv_labels;
    std::string method, notes_message, gold_note, read_note;
    std::size_t worst = 6, min_labels = 10, relabel_count = 20;
    std::vector<std::size_t> kept;            // the triples counted (one per item and worker)
    std::vector<bool> pinned;                 // per item: a gold item
    std::vector<int32_t> reference;           // per item: truth (or gold) class, -1 none, -2 not a class
    std::string reference_name;               // "truth.csv" / "the gold items"
    bool have_truth = false;                  // reference is --truth (else pinned gold)
    std::size_t truth_pinned = 0;             // truth items left unscored because pinned
    std::vector<MethodScore> scores;          // with --truth
    std::string relabel_path, review_path;    // the CSV files, for the text
    std::vector<double> label_next;           // per item (cs_label_next); empty: none
    // Per worker (cs_worker_diagnostics); empty: none.
    std::vector<double> spammer, accuracy_low, accuracy_high;
    std::vector<int32_t> worst_class;
};

/// The reference label of item j: >= 0 a class, -1 none, -2 a label that is not a class.
inline bool has_reference(const ReportInput &in, std::size_t j) { return in.reference[j] != -1; }

// One item of the relabel list: its votes per class and label count.
struct RelabelRow {
    std::size_t item;
    std::vector<std::size_t> votes;  // per class
    std::size_t labels;
};

// One worker of the review list.
struct ReviewRow {
    std::size_t worker;
    WorkerReview review;
};

// Everything the tables need, computed once (the page and the CSV files agree).
struct ReportTables {
    std::vector<double> accuracy;
    std::vector<RelabelRow> relabel;
    std::vector<ReviewRow> review;
    std::vector<GoldTally> gold;
    Agreement agreement;
};

/// The tables of the page and side files, from the fit and the kept triples.
ReportTables report_tables(const ReportInput &in);
/// The whole HTML page.
std::string report_html(const ReportInput &in, const ReportTables &tables);
/// The --relabel side file: the items to relabel first, in the page's order.
void write_relabel_file(OutputFile &out, ResultFormat format, const ReportInput &in, const std::vector<RelabelRow> &rows);
/// The --review-workers side file: the workers to review, with their tags and reasons.
void write_review_file(OutputFile &out, ResultFormat format, const ReportInput &in, const std::vector<ReviewRow> &rows,
                       const std::vector<double> &accuracy, const std::vector<GoldTally> &gold);

// ---- shared by the section files (page_helpers.cpp)

/// bcc and ebcc trace the evidence lower bound of variational Bayes, not a likelihood.
bool traces_bound(const std::string &method);
/// One number through printf's `format`.
std::string fmt(const char *format, double v);
/// "12.3%" of part in whole ("0%" when whole is 0).
std::string percent(double part, double whole);
/// The page's style sheet.
extern const char kStyle[];
/// The class list for the summary: every name when few, else the first ones.
std::string class_list(const std::vector<std::string> &names);
/// Drawing width of the charts that span the page (scaled down by CSS on narrower
/// screens): about the width of the page's text column at 1280 px.
constexpr double kWideWidth = 1100;
/// A row of the summary table.
void row(std::string &html, const std::string &name, const std::string &value_html);
/// Table cells: a number, an id (escaped).
std::string num_cell(const std::string &text);
std::string id_cell(const std::string &text);
/// A data table's opening tags with its column heads (true = numeric column).
std::string table_open(const char *id, std::initializer_list<std::pair<const char *, bool>> columns);
extern const char kTableClose[];
/// An item's votes as "cat 3, dog 1".
std::string votes_text(const std::vector<std::size_t> &votes, const std::vector<std::string> &classes);
/// The review tags as HTML spans.
std::string tag_html(const std::vector<std::string> &tags);
/// "3 of 4" for a worker's labels on the reference items.
std::string gold_text(const GoldTally &g);

// ---- the sections (chart_sections.cpp, table_sections.cpp)

std::string summary_section(const ReportInput &in);
std::string accuracy_section(const ReportInput &in, const std::vector<double> &accuracy);
std::string agreement_section(const ReportInput &in);
std::string workers_section(const ReportInput &in, const std::vector<double> &accuracy);
std::string likelihood_section(const ReportInput &in);
std::string calibration_section(const ReportInput &in);
std::vector<RelabelRow> relabel_rows(const ReportInput &in);
std::string relabel_section(const ReportInput &in, const std::vector<RelabelRow> &rows);
std::string review_section(const ReportInput &in, const std::vector<ReviewRow> &rows,
                           const std::vector<double> &accuracy, const std::vector<GoldTally> &gold);
std::string gold_section(const ReportInput &in, const std::vector<GoldTally> &gold);
std::string agreement_stats_section(const ReportInput &in, const Agreement &a);
std::vector<ReviewRow> review_rows(const ReportInput &in, const std::vector<double> &accuracy);
std::vector<GoldTally> gold_tallies(const ReportInput &in);

}  // namespace report
}  // namespace cli
