// SPDX-License-Identifier: MIT
#include "report/report_page.hpp"

#include <cstdio>

#include "report/svg.hpp"

namespace cli {
namespace report {

bool traces_bound(const std::string &method) { return method == "ebcc" || method == "bcc"; }

std::string fmt(const char *format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string percent(double part, double whole) { return whole > 0 ? fmt("%.1f%%", 100.0 * part / whole) : "0%"; }

const char kStyle[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;"
    "margin:2em auto;max-width:72em;padding:0 1em;color:#1a1a1a;line-height:1.45;background:#fff}\n"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}\n"
    "table.summary{border-collapse:collapse}table.summary th{text-align:left;font-weight:600;padding:.2em 1.5em .2em 0;"
    "vertical-align:top}table.summary td{padding:.2em 0}\n"
    "svg.chart{display:block;margin:.5em 0;max-width:100%;height:auto;font-family:inherit}\n"
    ".bar{fill:#4a7fb5}.bar:hover,.cell:hover{opacity:.8}.grid{stroke:#ececec}.axis{stroke:#333}\n"
    ".tick{font-size:11px;fill:#333}.axis-label{font-size:12px;fill:#111}\n"
    ".series{fill:none;stroke:#c0392b;stroke-width:2}.point{fill:#c0392b}\n"
    ".reference{stroke:#777;stroke-dasharray:4 3}.note{font-size:11px;fill:#555}\n"
    ".cell{stroke:#fff;stroke-width:1}.cell-text{font-size:11px;fill:#111}.cell-text.dark{fill:#fff}\n"
    ".empty{fill:#fafafa;stroke:#ccc}.workers{display:flex;flex-wrap:wrap;gap:1.5em}\n"
    "figure{margin:0}figcaption{font-size:.9em;color:#444;max-width:26em}.muted{color:#555}\n"
    "footer{margin-top:3em;font-size:.85em;color:#666}\n"
    "table.summary td{overflow-wrap:anywhere}svg.chart.wide{width:100%;max-width:100%;height:auto}\n"
    ".table-wrap{max-width:100%;overflow-x:auto;margin:.5em 0 1em}\n"
    "table.data{border-collapse:collapse;font-size:.92em}\n"
    "table.data th,table.data td{padding:.25em .75em .25em 0;border-bottom:1px solid #e6e6e6;text-align:left;"
    "vertical-align:top}\n"
    "table.data th{font-weight:600;border-bottom:1px solid #999}table.data .num{text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "table.data td.id{overflow-wrap:anywhere;word-break:break-word;min-width:6em;max-width:28em}\n"
    "table.data td.text{overflow-wrap:anywhere;min-width:12em}\n"
    ".tag{display:inline-block;padding:0 .45em;margin:0 .3em .1em 0;border-radius:.6em;font-size:.85em;"
    "white-space:nowrap;background:#eee}\n"
    ".tag-spammer{background:#fde2b8}.tag-adversary{background:#f6c4bd}.tag-below-chance{background:#d9e4f5}\n"
    "dl.rules dt{font-weight:600;float:left;clear:left;width:8.5em}dl.rules dd{margin:0 0 .3em 9em}\n"
    ".stat{font-size:1.15em}\n";


std::string class_list(const std::vector<std::string> &names) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < 30; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > 30) s += ", ... (" + std::to_string(names.size()) + " in all)";
    return s;
}


void row(std::string &html, const std::string &name, const std::string &value_html) {
    html += "<tr><th scope=\"row\">" + svg::escape(name) + "</th><td>" + value_html + "</td></tr>\n";
}


std::string num_cell(const std::string &text) { return "<td class=\"num\">" + text + "</td>"; }
std::string id_cell(const std::string &text) { return "<td class=\"id\">" + svg::escape(text) + "</td>"; }

std::string table_open(const char *id, std::initializer_list<std::pair<const char *, bool>> columns) {
    std::string html = "<div class=\"table-wrap\"><table class=\"data\" id=\"" + std::string(id) + "\">\n<thead><tr>";
    for (const auto &[name, numeric] : columns)
        html += std::string(numeric ? "<th scope=\"col\" class=\"num\">" : "<th scope=\"col\">") + name + "</th>";
    return html + "</tr></thead>\n<tbody>\n";
}

const char kTableClose[] = "</tbody></table></div>\n";

// Votes of an item, most frequent first: "cat 2, dog 1".
std::string votes_text(const std::vector<std::size_t> &votes, const std::vector<std::string> &classes) {
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < votes.size(); ++c)
        if (votes[c] > 0) order.push_back(c);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return votes[a] > votes[b]; });
    std::string text;
    for (std::size_t i = 0; i < order.size(); ++i)
        text += (i ? ", " : "") + classes[order[i]] + " " + std::to_string(votes[order[i]]);
    return text;
}

std::string tag_html(const std::vector<std::string> &tags) {
    std::string html;
    for (const std::string &tag : tags) html += "<span class=\"tag tag-" + tag + "\">" + tag + "</span>";
    return html;
}

std::string gold_text(const GoldTally &g) {
    return g.labels == 0 ? std::string("&ndash;")
                         : std::to_string(g.correct) + "/" + std::to_string(g.labels) + " (" +
                               fmt("%.2f", static_cast<double>(g.correct) / static_cast<double>(g.labels)) + ")";
}

}  // namespace report
}  // namespace cli
