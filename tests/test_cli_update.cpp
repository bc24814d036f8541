// SPDX-License-Identifier: MIT
// `crowdspec fit --save` then `crowdspec update --model` (issue 38) against the library
// doing the same: a crowd with string ids is fitted from a first file and updated with a
// second one that labels known items, new items and brings a new worker, its rows in
// another order. The program must map the names of the second file to the model's ids
// (known names keep theirs, new ones follow in order of first appearance), so that the
// model it rewrites is bit for bit the library's cs_update of the same labels, and its
// output names every item with the library's label and posteriors (10 significant
// digits). Usage: test_cli_update PATH/TO/crowdspec.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"

namespace {

std::string g_program;  // the crowdspec program (argv[1])
std::string g_dir;      // a fresh temporary directory

constexpr int32_t kItems = 240, kWorkers = 16, kClasses = 3, kPerItem = 5;

struct Label {
    int32_t item, worker, label;
};

// One-coin workers of accuracy 0.55-0.95 (a linear congruential generator: the test
// needs a fixed crowd, not a good one). Worker kWorkers - 1 labels only in the second
// file, so the update meets a new worker.
std::vector<Label> simulate() {
    uint64_t s = 38;
    auto uniform = [&s]() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(s >> 11) * 0x1.0p-53;
    };
    std::vector<double> accuracy(kWorkers);
    for (double &a : accuracy) a = 0.55 + 0.4 * uniform();
    std::vector<Label> out;
    for (int32_t j = 0; j < kItems; ++j) {
        const int32_t truth = static_cast<int32_t>(uniform() * kClasses) % kClasses;
        for (int32_t r = 0; r < kPerItem; ++r) {
            const int32_t w = (j * 3 + r * 5) % kWorkers;
            const int32_t other = (truth + 1 + static_cast<int32_t>(uniform() * (kClasses - 1))) % kClasses;
            out.push_back({j, w, uniform() < accuracy[w] ? truth : other});
        }
    }
    return out;
}

std::string item_name(int32_t j) { return "task-" + std::to_string(j * 7919 % 1000); }
std::string class_name(int32_t c) { return std::string("class-") + static_cast<char>('a' + c); }

void write_csv(const std::string &path, const std::vector<Label> &rows) {
    std::ofstream f(path);
    f << "item,worker,label\n";
    for (const Label &l : rows)
        // Worker names with a comma and quotes: `ann, "7"`, quoted as CSV quotes them.
        f << item_name(l.item) << ",\"ann, \"\"" << l.worker << "\"\"\"," << class_name(l.label) << "\n";
}

// Library ids in order of first appearance over the first file, then the second: the
// rule the program follows (its reader numbers names so; update appends new ones).
struct Ids {
    std::map<int32_t, int32_t> item, worker;
    std::vector<int32_t> item_order;  // library id -> simulated item
    void add(const Label &l) {
        if (item.emplace(l.item, static_cast<int32_t>(item.size())).second) item_order.push_back(l.item);
        worker.emplace(l.worker, static_cast<int32_t>(worker.size()));
    }
    test::Triples triples(const std::vector<Label> &rows) const {
        test::Triples t;
        for (const Label &l : rows) t.add(item.at(l.item), worker.at(l.worker), l.label);
        return t;
    }
};

int run(const std::string &args) {
    const std::string command = "cd '" + g_dir + "' && '" + g_program + "' " + args;
    return std::system(command.c_str());
}

// The rows of a CSV result: item name -> its fields after the item.
std::map<std::string, std::vector<std::string>> read_result(const std::string &path, std::string &header) {
    std::ifstream f(path);
    std::map<std::string, std::vector<std::string>> rows;
    std::string line;
    std::getline(f, header);
    while (std::getline(f, line)) {
        std::stringstream ss(line);
        std::string field, name;
        std::getline(ss, name, ',');
        std::vector<std::string> fields;
        while (std::getline(ss, field, ',')) fields.push_back(field);
        rows[name] = fields;
    }
    return rows;
}

void assert_same_bits(const std::vector<double> &a, const std::vector<double> &b) {
    assert_int_equal(a.size(), b.size());
    assert_true(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

static void test_update_equals_library(void **) {
    const std::vector<Label> all = simulate();
    // The first file: every label of items 0-179 but those of the last worker. The
    // second: the rest (items 180-239 are new, the last worker is new), rows reversed
    // so that its first appearances differ from the first file's.
    std::vector<Label> first, second;
    for (const Label &l : all) (l.item < 180 && l.worker != kWorkers - 1 ? first : second).push_back(l);
    std::reverse(second.begin(), second.end());
    write_csv(g_dir + "/first.csv", first);
    write_csv(g_dir + "/second.csv", second);

    assert_int_equal(run("fit -q --threads 1 --save model.csm -o fit.csv first.csv && cp model.csm fit.csm"), 0);
    assert_int_equal(run("update -q --threads 1 --model model.csm -o updated.csv second.csv"), 0);

    Ids ids;
    for (const Label &l : first) ids.add(l);
    for (const Label &l : second) ids.add(l);
    test::Model lib(cs_create());
    assert_int_equal(test::fit(lib.get(), ids.triples(first)), CS_OK);
    // The program's fit is the library's, bit for bit.
    test::Model fitted(cs_create());
    assert_int_equal(cs_load(fitted.get(), (g_dir + "/fit.csm").c_str()), CS_OK);
    assert_true(test::labels(fitted.get()) == test::labels(lib.get()));
    assert_same_bits(test::posteriors(fitted.get()), test::posteriors(lib.get()));
    const test::Triples batch = ids.triples(second);
    assert_int_equal(cs_update(lib.get(), batch.item.data(), batch.worker.data(), batch.label.data(), batch.size()),
                     CS_OK);

    // The rewritten model file holds exactly the library's updated fit.
    test::Model from_file(cs_create());
    assert_int_equal(cs_load(from_file.get(), (g_dir + "/model.csm").c_str()), CS_OK);
    assert_true(test::labels(from_file.get()) == test::labels(lib.get()));
    assert_same_bits(test::posteriors(from_file.get()), test::posteriors(lib.get()));
    assert_same_bits(test::confusion(from_file.get()), test::confusion(lib.get()));

    // The output names every item, old and new, with the library's results.
    std::string header;
    const auto rows = read_result(g_dir + "/updated.csv", header);
    assert_string_equal(header.c_str(), "item,label,confidence,p_class-a,p_class-b,p_class-c");
    assert_int_equal(rows.size(), kItems);
    const std::vector<int32_t> labels = test::labels(lib.get());
    const std::vector<double> post = test::posteriors(lib.get());
    for (std::size_t id = 0; id < ids.item_order.size(); ++id) {
        const auto row = rows.find(item_name(ids.item_order[id]));
        assert_true(row != rows.end());
        assert_int_equal(row->second.size(), 2 + kClasses);
        assert_string_equal(row->second[0].c_str(), class_name(labels[id]).c_str());
        for (int32_t c = 0; c < kClasses; ++c) {
            const double got = std::strtod(row->second[2 + c].c_str(), nullptr);
            assert_true(std::fabs(got - post[id * kClasses + c]) <= 1e-9);
        }
    }
}

// A second update with labels the model already has from the same worker is refused
// (exit 3, one line naming the file), and neither the model nor the output changes.
static void test_refused_update_keeps_the_model(void **) {
    std::ifstream before_file(g_dir + "/model.csm", std::ios::binary);
    const std::string before((std::istreambuf_iterator<char>(before_file)), std::istreambuf_iterator<char>());
    assert_false(before.empty());
    assert_int_equal(run("update -q --model model.csm -o again.csv second.csv 2>err.txt") != 0, 1);
    std::ifstream after_file(g_dir + "/model.csm", std::ios::binary);
    const std::string after((std::istreambuf_iterator<char>(after_file)), std::istreambuf_iterator<char>());
    assert_true(before == after);
    std::ifstream again(g_dir + "/again.csv");
    assert_false(again.good());
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s PATH/TO/crowdspec\n", argv[0]);
        return 2;
    }
    char resolved[4096];
    g_program = realpath(argv[1], resolved) != nullptr ? resolved : argv[1];  // the test changes directory
    char pattern[] = "/tmp/crowdspec-cli-update.XXXXXX";
    if (mkdtemp(pattern) == nullptr) return 2;
    g_dir = pattern;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_update_equals_library),
        cmocka_unit_test(test_refused_update_keeps_the_model),
    };
    const int failed = cmocka_run_group_tests(tests, nullptr, nullptr);
    std::system(("rm -rf '" + g_dir + "'").c_str());
    return failed;
}
