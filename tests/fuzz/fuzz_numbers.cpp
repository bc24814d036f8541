// SPDX-License-Identifier: MIT
// libFuzzer target: the numbers reader (tools/io/answer_file, `fit --answers numbers`)
// on arbitrary file contents with random input options, then the table fitted by a
// numeric method of the library (cs_fit_numbers). Invariants: the reader returns a
// consistent table (fuzz_answers.hpp) whose values are finite and at most 1e100 in
// magnitude, or throws a one-line input error naming the file; the fit of a table
// without repeated (item, worker) pairs succeeds (duplicates: 'first') and every
// estimate, standard error, bias and noise is finite.
#include <cmath>
#include <vector>

#include "crowdspec/crowdspec.h"
#include "fuzz_answers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input in(data, size);
    const uint8_t opts = in.byte(), cols = in.byte(), method = in.byte();
    std::string path;
    const cli::InputOptions input = fuzz::answer_options(opts, cols, path);
    cli::AnswerTable t;
    try {
        t = cli::read_number_text(std::string(in.rest()), path, input);
    } catch (const cli::CliError &e) {
        fuzz::check_answer_error(e, path);
        return 0;
    }
    fuzz::check_answer_table(t);
    if (t.value.size() != t.item.size()) fuzz::fail("values and answers differ in number");
    for (double v : t.value)
        if (!(std::fabs(v) <= 1e100)) fuzz::fail("a value not finite or beyond 1e100 was read");
    static const char *const methods[] = {"auto", "mean", "median", "gaussian", "catd", "crh", "student-t",
                                          "trimmed-mean"};
    cs_model *m = cs_create();
    cs_set_param_string(m, "method", methods[method % 8]);
    cs_set_param_string(m, "duplicates", "first");
    cs_set_param_string(m, "max_iter", "50");
    if (method & 8) cs_set_param_string(m, "worker_bias", "off");
    if (method & 16) cs_set_param_string(m, "variance_prior", "0");
    const cs_status s = cs_fit_numbers(m, t.item.data(), t.worker.data(), t.value.data(), t.value.size());
    if (s != CS_OK) fuzz::fail("cs_fit_numbers refused a table the reader accepted: %s", cs_last_error(m));
    std::vector<double> value(t.item_names.size()), se(value.size()), bias(t.worker_names.size()), noise(bias.size());
    if (cs_number_estimates(m, value.data(), se.data(), value.size()) != CS_OK ||
        cs_number_workers(m, bias.data(), noise.data(), bias.size()) != CS_OK)
        fuzz::fail("results not available: %s", cs_last_error(m));
    for (double v : value)
        if (!std::isfinite(v)) fuzz::fail("an estimate is not finite");
    for (double v : se)
        if (!(v >= 0.0) || !std::isfinite(v)) fuzz::fail("a standard error is negative or not finite");
    for (double v : bias)
        if (!std::isfinite(v)) fuzz::fail("a bias is not finite");
    for (double v : noise)
        if (!(v >= 0.0) || !std::isfinite(v)) fuzz::fail("a noise is negative or not finite");
    cs_destroy(m);
    return 0;
}
