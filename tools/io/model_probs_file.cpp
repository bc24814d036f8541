// SPDX-License-Identifier: MIT
#include "io/model_probs_file.hpp"

#include <cmath>
#include <string_view>

#include "common/errors.hpp"
#include "io/table_reader.hpp"
#include "io/text_values.hpp"

namespace cli {

ModelProbsFile read_model_probs_file(const std::string &path) {
    ModelProbsFile f;
    f.source = display_name(path);
    std::string text = read_whole_file(path);
    const TextFormat format = resolve_text_format(TextFormat::Auto, path, text, HeaderMode::Yes,
                                                  [](const std::vector<std::string_view> &) { return true; });
    RecordReader reader(text, format == TextFormat::Whitespace ? TextFormat::Csv : format, f.source);
    std::vector<std::string_view> fields;
    if (!reader.next(fields))
        throw CliError(kExitInput, f.source + ": the file is empty (expected a header line: item, then one column "
                                              "per class, e.g. item,p_cat,p_dog)");
    if (fields.size() < 3)
        reader.fail("the header names " + std::to_string(fields.size()) +
                    " columns; expected the item column and one column per class (at least 2)");
    for (std::size_t c = 1; c < fields.size(); ++c) {
        std::string_view name = fields[c];
        if (name.substr(0, 2) == "p_") name.remove_prefix(2);
        f.classes.emplace_back(name);
    }
    const std::size_t k = f.classes.size();
    while (reader.next(fields)) {
        if (fields.size() != k + 1)
            reader.fail("a row of " + std::to_string(fields.size()) + " fields; the header has " +
                        std::to_string(k + 1) + " columns");
        f.items.emplace_back(fields[0]);
        f.lines.push_back(reader.line());
        for (std::size_t c = 1; c <= k; ++c) {
            double v = 0.0;
            if (!parse_number(fields[c], v) || !std::isfinite(v) || v < 0.0)
                reader.fail("column " + quote_field(f.classes[c - 1]) + ": " + quote_field(fields[c]) +
                            " is not a probability (a finite number >= 0)");
            f.values.push_back(v);
        }
    }
    if (f.items.empty()) throw CliError(kExitInput, f.source + ": the file has a header but no rows");
    return f;
}

}  // namespace cli
