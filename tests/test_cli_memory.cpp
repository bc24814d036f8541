// SPDX-License-Identifier: MIT
// Memory of the command-line readers on a file whose first line is one huge field
// (issue 12, item 10: a 1 GB first line cost 3.15 GB, header sniffing copied the field
// twice). The readers are compiled into this test, and every operator new is counted,
// so the peak is exact and the same on every machine: no timing, no RSS noise.
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

// The readers' headers come before cmocka's, whose `fail` macro clashes with their
// fail() members.
#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "io/point_files.hpp"
#include "support/cmocka_cpp.hpp"

namespace {

// Heap bytes live now and at most since the last reset.
std::size_t g_live = 0, g_peak = 0;

void *counted_alloc(std::size_t n) {
    // A header in front of the block remembers its size (max_align_t keeps alignment).
    constexpr std::size_t kHeader = alignof(std::max_align_t);
    char *p = static_cast<char *>(std::malloc(n + kHeader));
    if (p == nullptr) throw std::bad_alloc();
    *reinterpret_cast<std::size_t *>(p) = n;
    g_live += n;
    if (g_live > g_peak) g_peak = g_live;
    return p + kHeader;
}

void counted_free(void *q) noexcept {
    if (q == nullptr) return;
    constexpr std::size_t kHeader = alignof(std::max_align_t);
    char *p = static_cast<char *>(q) - kHeader;
    g_live -= *reinterpret_cast<std::size_t *>(p);
    std::free(p);
}

}  // namespace

void *operator new(std::size_t n) { return counted_alloc(n); }
void *operator new[](std::size_t n) { return counted_alloc(n); }
void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
    try {
        return counted_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void *operator new[](std::size_t n, const std::nothrow_t &t) noexcept { return operator new(n, t); }
void operator delete(void *p) noexcept { counted_free(p); }
void operator delete[](void *p) noexcept { counted_free(p); }
void operator delete(void *p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void *p, std::size_t) noexcept { counted_free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { counted_free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { counted_free(p); }

namespace {

constexpr std::size_t kHuge = std::size_t{16} << 20;  // 16 MB: the field of the first line

std::string write_file(const char *name, const std::string &head, const std::string &rest) {
    const std::string path = std::string(name) + "." + std::to_string(static_cast<long>(std::rand()));
    std::FILE *f = std::fopen(path.c_str(), "wb");
    assert_non_null(f);
    assert_int_equal(std::fwrite(head.data(), 1, head.size(), f), head.size());
    assert_int_equal(std::fwrite(rest.data(), 1, rest.size(), f), rest.size());
    assert_int_equal(std::fclose(f), 0);
    return path;
}

// Peak heap bytes of fn() above what was live before, as a multiple of kHuge.
template <class Fn>
double peak_ratio(Fn &&fn) {
    const std::size_t base = g_live;
    g_peak = g_live;
    fn();
    return static_cast<double>(g_peak - base) / static_cast<double>(kHuge);
}

}  // namespace

/* A crowd file without extension (its format is sniffed) whose first record has a
 * 16 MB item id, tab- or comma-separated, and one whose header has a 16 MB column
 * name. The file buffer (1x) and the id kept in the table (1x) are needed; sniffing
 * and header matching must add nothing of the field's size. */
static void crowd_file_huge_first_field(void **) {
    const std::string huge(kHuge, 'x');
    for (const char *sep : {"\t", ","}) {
        const std::string s(sep);
        const std::string path = write_file("huge_record", huge + s + "w1" + s + "1\n", "b" + s + "w1" + s + "2\n");
        double ratio = 0;
        ratio = peak_ratio([&] {
            const cli::CrowdTable t = cli::read_crowd_file(path, cli::ClassSpec());
            assert_int_equal(t.item_names.size(), 2);
        });
        std::remove(path.c_str());
        if (!(ratio < 2.2)) print_error("separator '%s': peak %.2f x the field\n", sep, ratio);
        assert_true(ratio < 2.2);
    }
    for (const char *sep : {"\t", ","}) {
        const std::string s(sep);
        const std::string path =
            write_file("huge_header", "task" + s + "worker" + s + "label" + s + huge + "\n", "a" + s + "w1" + s + "1" + s + "z\n");
        double ratio = 0;
        ratio = peak_ratio([&] {
            const cli::CrowdTable t = cli::read_crowd_file(path, cli::ClassSpec());
            assert_int_equal(t.item_names.size(), 1);
        });
        std::remove(path.c_str());
        if (!(ratio < 1.2)) print_error("header, separator '%s': peak %.2f x the field\n", sep, ratio);
        assert_true(ratio < 1.2);
    }
}

/* The same for a truth file (its own sniffing path). */
static void truth_file_huge_first_field(void **) {
    const std::string huge(kHuge, 'x');
    const std::string path = write_file("huge_truth", "item\tlabel\t" + huge + "\n", "a\t1\tz\n");
    const double ratio = peak_ratio([&] {
        const cli::TruthTable t = cli::read_truth_file(path);
        assert_int_equal(t.entries.size(), 1);
    });
    std::remove(path.c_str());
    if (!(ratio < 1.2)) print_error("truth header: peak %.2f x the field\n", ratio);
    assert_true(ratio < 1.2);
}

/* Edge and point files: splitting the first line reserved a std::string per byte of it
 * (32 x its length); the edge reader keeps the id in its index, its names and a
 * temporary, so a few copies of the field are expected, not dozens. */
static void cluster_files_huge_first_field(void **) {
    const std::string huge(kHuge, 'x');
    const std::string edges = write_file("huge_edges", huge + " n1\n", "n1 n2\n");
    double ratio = peak_ratio([&] {
        const cli::EdgeTable t = cli::read_edges_file(edges);
        assert_int_equal(t.u.size(), 2);
    });
    std::remove(edges.c_str());
    if (!(ratio < 6)) print_error("edges: peak %.2f x the field\n", ratio);
    assert_true(ratio < 6);
    const std::string points = write_file("huge_points", "a b " + std::string(kHuge, ' ') + "\n", "1 2\n3 4\n");
    ratio = peak_ratio([&] {
        const cli::PointTable t = cli::read_points_file(points);
        assert_int_equal(t.n, 2);
    });
    std::remove(points.c_str());
    if (!(ratio < 2)) print_error("points: peak %.2f x the line\n", ratio);
    assert_true(ratio < 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crowd_file_huge_first_field),
        cmocka_unit_test(truth_file_huge_first_field),
        cmocka_unit_test(cluster_files_huge_first_field),
    };
    return cmocka_run_group_tests_name("cli_memory", tests, nullptr, nullptr);
}
