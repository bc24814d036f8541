// SPDX-License-Identifier: MIT
#include "io/foreign_formats.hpp"

#include <algorithm>
#include <cctype>

#include "common/errors.hpp"

namespace cli {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string extension(const std::string &path) {
    const std::size_t dot = path.rfind('.');
    if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return "";
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

constexpr const char *kAsCsv = "export it as CSV (columns item, worker, label) and give that file";

}  // namespace

void reject_foreign_format(std::string_view head, const std::string &path, const std::string &source) {
    std::string what;
    const std::string ext = extension(path);
    if (starts_with(head, std::string_view("PK\x03\x04", 4))) {
        if (ext == "xlsx" || ext == "xlsm")
            what = std::string("an Excel workbook (.xlsx), which crowdspec does not read: save the sheet as CSV "
                               "(File > Save As > CSV), or in Python pandas.read_excel(FILE).to_csv('labels.csv', "
                               "index=False), and give the CSV file");
        else if (ext == "ods")
            what = std::string("an OpenDocument spreadsheet (.ods), which crowdspec does not read: ") + kAsCsv;
        else
            what = "a zip archive (or a spreadsheet saved as one, such as .xlsx), which crowdspec does not read: "
                   "unzip it (unzip -p FILE NAME.csv > labels.csv) and give the CSV file inside";
    } else if (starts_with(head, "PAR1")) {
        what = "an Apache Parquet file, which crowdspec does not read: write it as CSV, e.g. "
               "pandas.read_parquet(FILE).to_csv('labels.csv', index=False), and give that file";
    } else if (starts_with(head, "ARROW1")) {
        what = std::string("an Arrow/Feather file, which crowdspec does not read: ") + kAsCsv;
    } else if (starts_with(head, std::string_view("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8))) {
        what = "an old Excel workbook (.xls), which crowdspec does not read: save the sheet as CSV and give that file";
    } else if (starts_with(head, "\x1f\x8b")) {
        what = "gzip-compressed data, which crowdspec does not decompress: gunzip -c FILE | crowdspec fit - "
               "(or gunzip it first)";
    } else if (starts_with(head, "BZh") || starts_with(head, std::string_view("\xFD" "7zXZ", 5)) ||
               starts_with(head, std::string_view("\x28\xB5\x2F\xFD", 4))) {
        what = "compressed data (bzip2, xz or zstd), which crowdspec does not decompress: decompress it to "
               "standard output and pipe it in (e.g. xz -dc FILE | crowdspec fit -)";
    } else if (starts_with(head, "SQLite format 3")) {
        what = std::string("an SQLite database, which crowdspec does not read: ") + kAsCsv;
    }
    if (!what.empty()) throw CliError(kExitInput, source + ": " + what);
}

}  // namespace cli
