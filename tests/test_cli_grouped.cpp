// SPDX-License-Identifier: MIT
// The crowd reader's grouped read (InputOptions::grouped, what `crowdspec fit` uses)
// against its plain read of the same bytes (triples): on random small crowds, in item
// order or not, with integer ids (near together and far apart), string ids and up to
// 300 labels, whatever the chunk size and the number of parsing threads, a grouped
// table turned back into triples must be the plain read exactly (ids, names, classes,
// lines), and it must be grouped exactly when the plain read's items come in index
// order (item 0 first, each item's labels together) with at least 2 classes. A 20 MB
// file, read memory-mapped (its pages let go as they are merged), must equal the same
// text read from memory.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// The reader's headers come before cmocka's, whose `fail` macro clashes with their
// fail() members.
#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "support/cmocka_cpp.hpp"

namespace {

// A small deterministic generator (splitmix64): the cases are the same on every run.
struct Random {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

// One random crowd as text: `items` items with 1-4 labels each, listed item after item
// or shuffled, ids as integers (1..n, or spread over 10^7) or strings.
std::string random_crowd(Random &r, std::size_t items, bool in_order, int id_kind, std::size_t classes) {
    struct Line {
        std::size_t item, worker, label;
    };
    std::vector<Line> lines;
    for (std::size_t j = 0; j < items; ++j) {
        const std::size_t n = 1 + r.below(4);
        for (std::size_t l = 0; l < n; ++l) lines.push_back({j, r.below(40), r.below(classes)});
    }
    if (!in_order)
        for (std::size_t i = lines.size(); i > 1; --i) std::swap(lines[i - 1], lines[r.below(i)]);
    const auto id = [&](std::size_t v, const char *prefix) {
        if (id_kind == 0) return std::to_string(v + 1);
        if (id_kind == 1) return std::to_string(v * 48611 % 10000000 + 1);  // far apart, not in value order
        return std::string(prefix) + std::to_string(v);
    };
    std::string text;
    for (const Line &x : lines) text += id(x.item, "item-") + " " + id(x.worker, "w") + " c" + std::to_string(x.label) + "\n";
    return text;
}

// Whether the plain read's items come in index order (the grouped read's condition).
bool items_in_order(const cli::CrowdTable &t) {
    if (t.item.empty() || t.item[0] != 0) return false;
    for (std::size_t p = 1; p < t.item.size(); ++p)
        if (t.item[p] != t.item[p - 1] && t.item[p] != t.item[p - 1] + 1) return false;
    return t.item.back() + 1 == static_cast<int32_t>(t.item_names.size());
}

void expect_same_table(const cli::CrowdTable &plain, cli::CrowdTable grouped) {
    assert_false(plain.grouped());
    const bool expect_grouped = items_in_order(plain) && plain.class_names.size() >= 2;
    assert_int_equal(grouped.grouped(), expect_grouped);
    if (grouped.grouped()) {
        // item_start: where each item's first label is in the plain read.
        assert_int_equal(grouped.item_start.size(), plain.item_names.size() + 1);
        for (std::size_t p = 0; p < plain.item.size(); ++p)
            if (p == 0 || plain.item[p] != plain.item[p - 1])
                assert_int_equal(grouped.item_start[static_cast<std::size_t>(plain.item[p])], p);
        assert_int_equal(grouped.item_start.back(), plain.item.size());
        assert_int_equal(grouped.n_labels(), plain.item.size());
        cli::expand_grouped_triples(grouped);
        assert_false(grouped.grouped());
    }
    assert_true(grouped.item == plain.item);
    assert_true(grouped.worker == plain.worker);
    assert_true(grouped.label == plain.label);
    assert_true(grouped.item_names == plain.item_names);
    assert_true(grouped.worker_names == plain.worker_names);
    assert_true(grouped.class_names == plain.class_names);
    assert_int_equal(grouped.line.size(), plain.line.size());
    for (std::size_t p = 0; p < plain.line.size(); ++p) assert_int_equal(grouped.line[p], plain.line[p]);
}

cli::CrowdTable read_text(const std::string &text, std::size_t threads, bool grouped) {
    cli::InputOptions input;
    input.threads = threads;
    input.grouped = grouped;
    return cli::read_crowd_text(text, "crowd.txt", cli::ClassSpec(), input);
}

}  // namespace

/* Random crowds under every chunking: the grouped read is the plain one. */
static void grouped_equals_plain(void **) {
    Random r{12345};
    const char *chunks[] = {"7", "64", "1000", "1000000"};
    std::size_t grouped_cases = 0, plain_cases = 0;
    for (int c = 0; c < 120; ++c) {
        const std::size_t items = 1 + r.below(c < 100 ? 60 : 3000);
        const bool in_order = r.below(3) != 0;
        const int id_kind = static_cast<int>(r.below(3));
        const std::size_t classes = c % 10 == 9 ? 300 : 1 + r.below(4);
        const std::string text = random_crowd(r, items, in_order, id_kind, classes);
        setenv("CROWDSPEC_PARSE_CHUNK", chunks[c % 4], 1);
        const std::size_t threads = 1 + static_cast<std::size_t>(c % 3);
        const cli::CrowdTable plain = read_text(text, threads, false);
        cli::CrowdTable grouped = read_text(text, threads, true);
        (grouped.grouped() ? grouped_cases : plain_cases) += 1;
        expect_same_table(plain, std::move(grouped));
    }
    unsetenv("CROWDSPEC_PARSE_CHUNK");
    // Both kinds of table came up (the test exercised both paths).
    assert_true(grouped_cases >= 20);
    assert_true(plain_cases >= 20);
}

/* A 20 MB file in item order, read mapped on 2 threads (pages let go every 16 MB as
 * the chunks are merged), against the same text read from memory. */
static void large_mapped_file(void **) {
    std::string text;
    text.reserve(21u << 20);
    Random r{99};
    for (std::size_t j = 0; text.size() < (20u << 20); ++j)
        for (int l = 0; l < 5; ++l)
            text += std::to_string(j + 1) + " " + std::to_string(1 + r.below(1000)) + " " + std::to_string(1 + r.below(2)) + "\n";
    const char *dir = std::getenv("TMPDIR");
    const std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/test_cli_grouped_" +
                             std::to_string(static_cast<long long>(r.next() % 1000000)) + ".txt";
    std::FILE *f = std::fopen(path.c_str(), "wb");
    assert_non_null(f);
    assert_int_equal(std::fwrite(text.data(), 1, text.size(), f), text.size());
    assert_int_equal(std::fclose(f), 0);
    cli::InputOptions input;
    input.threads = 2;
    input.grouped = true;
    cli::CrowdTable mapped = cli::read_crowd_file(path, cli::ClassSpec(), input);
    input.grouped = false;
    const cli::CrowdTable mapped_plain = cli::read_crowd_file(path, cli::ClassSpec(), input);
    std::remove(path.c_str());
    const cli::CrowdTable memory = read_text(text, 2, false);
    assert_true(mapped.grouped());
    assert_true(mapped_plain.item == memory.item && mapped_plain.worker == memory.worker &&
                mapped_plain.label == memory.label);
    expect_same_table(memory, std::move(mapped));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grouped_equals_plain),
        cmocka_unit_test(large_mapped_file),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
