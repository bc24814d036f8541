// SPDX-License-Identifier: MIT
// libFuzzer target: the tags reader (tools/io/answer_file, `fit --answers tags`: tag rows,
// delimited lists, JSON lists, Label Studio choices, Toloka OUTPUT columns) on arbitrary
// file contents with random input options and delimiters, then the table fitted by a
// tag method (tag-pooled, or a crowd method on each tag). Invariants: the reader returns
// a consistent table (fuzz_answers.hpp) with one answer per (item, worker), each
// answer's tags sorted, distinct and within the tag names, or throws a one-line input
// error naming the file; the fit succeeds whenever some answer has a tag, and every
// probability, sensitivity and specificity is in [0, 1].
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "crowdspec/crowdspec.h"
#include "fuzz_answers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input in(data, size);
    const uint8_t opts = in.byte(), cols = in.byte(), method = in.byte();
    static const char *const delimiters[] = {"|", ";", ",", " ", "||"};
    const char *delimiter = delimiters[(method >> 4) % 5];
    std::string path;
    const cli::InputOptions input = fuzz::answer_options(opts, cols, path);
    cli::AnswerTable t;
    try {
        t = cli::read_tag_text(std::string(in.rest()), path, input, delimiter);
    } catch (const cli::CliError &e) {
        fuzz::check_answer_error(e, path);
        return 0;
    }
    fuzz::check_answer_table(t);
    const std::size_t n = t.item.size(), T = t.tag_names.size();
    if (t.tag_start.size() != n + 1 || t.tag_start[0] != 0 || static_cast<std::size_t>(t.tag_start[n]) != t.tag.size())
        fuzz::fail("tag offsets inconsistent");
    std::set<std::pair<int32_t, int32_t>> pairs;
    for (std::size_t a = 0; a < n; ++a) {
        if (!pairs.insert({t.item[a], t.worker[a]}).second) fuzz::fail("two answers of one (item, worker)");
        for (int64_t e = t.tag_start[a]; e < t.tag_start[a + 1]; ++e) {
            if (t.tag[e] < 0 || static_cast<std::size_t>(t.tag[e]) >= T) fuzz::fail("tag index out of range");
            if (e > t.tag_start[a] && t.tag[e] <= t.tag[e - 1]) fuzz::fail("an answer's tags not sorted and distinct");
        }
    }
    if (T == 0) return 0;  // no tag anywhere: the command stops before the library
    static const char *const methods[] = {"auto", "tag-pooled", "mv", "ds", "wawa", "glad", "mace", "bwa"};
    cs_model *m = cs_create();
    cs_set_param_string(m, "method", methods[method % 8]);
    cs_set_param_string(m, "max_iter", "30");
    const cs_status s = cs_fit_tags(m, t.item.data(), t.worker.data(), t.tag_start.data(), t.tag.data(), n,
                                    static_cast<int32_t>(T));
    if (s != CS_OK) fuzz::fail("cs_fit_tags refused a table the reader accepted: %s", cs_last_error(m));
    std::vector<double> p(t.item_names.size() * T), sens(t.worker_names.size() * T), spec(sens.size());
    if (cs_tag_probabilities(m, p.data(), p.size()) != CS_OK ||
        cs_tag_workers(m, sens.data(), spec.data(), sens.size()) != CS_OK)
        fuzz::fail("results not available: %s", cs_last_error(m));
    for (const auto *values : {&p, &sens, &spec})
        for (double v : *values)
            if (!(v >= 0.0 && v <= 1.0)) fuzz::fail("a probability outside [0, 1]");
    cs_destroy(m);
    return 0;
}
