// SPDX-License-Identifier: MIT
// The address-space ladder of issue 12, item 3: every method fits a crowd, points or a
// graph in a child process whose address space (RLIMIT_AS) is limited to what it already
// uses plus a budget, for decreasing budgets: 256 MB, then 32 rungs from 4 MB down to
// nothing. At every rung the
// fit must return CS_OK with the unconstrained labels, or CS_ERR_OUT_OF_MEMORY with a
// handle that is still usable: no fit, the message "out of memory", and, once the limit
// is lifted, a normal fit with the same labels. The parent kills a child that takes
// longer than 60 s: a hang is a failure, as is a crash (an allocation failing where no
// exception may pass, e.g. inside an OpenMP region) or a different answer (a LAPACK
// allocation failure passed off as a numerical one). A child that libgomp itself ended
// (its team allocation failed on entering a parallel region) is counted apart: that
// is the OpenMP runtime's limit, not the library's (README, Limits).
//
// It needs a BLAS that fails cleanly: tests/CMakeLists.txt links this program to
// Debian's reference BLAS and LAPACK (libblas-dev, liblapack-dev) explicitly when they
// are installed, whatever BLAS the library itself uses. It exits 77 (ctest "Skipped")
// with the reason when OpenBLAS is loaded anyway -- OpenBLAS 0.3.21 retries its buffer
// allocation forever (OpenBLAS issue 5289, README "Limits") -- and in sanitizer builds,
// whose shadow memory does not fit under an address-space limit.
#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "crowdspec/crowdspec.h"
#include "support/crowd_invariants.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CS_LADDER_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define CS_LADDER_SANITIZED 1
#endif
#endif

namespace {

constexpr int kSkip = 77;
// CS_LADDER_TIMEOUT (seconds) overrides it: with CS_LADDER_ANY_BLAS=1 the ladder also
// runs with OpenBLAS loaded, to see which methods hang there (README, Limits).
int g_timeout_seconds = 60;
// Child exit codes.
constexpr int kFitOk = 0, kFitOutOfMemory = 10;

struct Inputs {
    std::vector<int32_t> item, worker, label;  // crowd: 4000 items x 5 labels, k = 3
    std::vector<double> x;                     // points: 600 x 300, three clusters
    std::vector<int32_t> u, v;                 // graph: 1500 nodes, two blocks
    std::vector<int32_t> left, right, answer;  // comparisons: the crowd's items in pairs
    std::vector<double> value;                 // numbers: each crowd label plus noise
    std::vector<int64_t> tag_start;            // tags: each crowd label as a one-tag set
};

Inputs make_inputs() {
    Inputs in;
    test::SplitMix rng(12);
    for (int32_t j = 0; j < 4000; ++j) {
        const int32_t truth = rng.below(3);
        for (int32_t t = 0; t < 5; ++t) {
            const int32_t w = (7 * j + 6 * t) % 30;  // five distinct workers per item
            in.item.push_back(j);
            in.worker.push_back(w);
            in.label.push_back(rng.chance(0.3 + 0.02 * w) ? truth : rng.below(3));
        }
    }
    // d = 300: lloyd's spectral step takes the Gram matrix and LAPACKE_dsyevd, whose work
    // and transposition arrays (2 MB) are then the fit's largest allocations, so that
    // the ladder's rungs make them fail.
    for (int32_t i = 0; i < 600; ++i)
        for (int32_t c = 0; c < 300; ++c) in.x.push_back(4.0 * (c < 3 && i % 3 == c) + rng.unit() - 0.5);
    for (int32_t a = 0; a < 1500; ++a)
        for (int32_t b = a + 1; b < 1500; ++b)
            if (rng.chance((a % 2) == (b % 2) ? 0.02 : 0.002)) {
                in.u.push_back(a);
                in.v.push_back(b);
            }
    for (std::size_t t = 0; t < in.item.size(); ++t) {
        in.left.push_back(in.item[t]);
        in.right.push_back((in.item[t] + 1 + in.label[t]) % 4000);
        in.answer.push_back(in.label[t]);  // 0 left, 1 right, 2 tie
        in.value.push_back(in.label[t] + rng.unit());
        in.tag_start.push_back(static_cast<int64_t>(t));
    }
    in.tag_start.push_back(static_cast<int64_t>(in.item.size()));
    return in;
}

cs_status fit(cs_model *m, int32_t method, const Inputs &in) {
    switch (cs_method_input(method)) {
        case CS_INPUT_CROWD:
            return cs_fit(m, in.item.data(), in.worker.data(), in.label.data(), in.item.size());
        case CS_INPUT_POINTS: return cs_fit_points(m, in.x.data(), 600, 300, 0);
        case CS_INPUT_COMPARISONS:
            return cs_fit_comparisons(m, in.worker.data(), in.left.data(), in.right.data(), in.answer.data(),
                                      in.left.size());
        case CS_INPUT_NUMBERS: return cs_fit_numbers(m, in.item.data(), in.worker.data(), in.value.data(), in.item.size());
        case CS_INPUT_TAGS:
            return cs_fit_tags(m, in.item.data(), in.worker.data(), in.tag_start.data(), in.label.data(),
                               in.item.size(), 3);
        default: return cs_fit_graph(m, 1500, in.u.data(), in.v.data(), in.u.size());
    }
}

cs_model *make_model(int32_t method) {
    cs_model *m = cs_create();
    if (m == nullptr || cs_set_int(m, CS_PARAM_METHOD, method) != CS_OK ||
        cs_set_int(m, CS_PARAM_THREADS, 1) != CS_OK ||  // no thread stacks to map (README, Limits)
        ((cs_method_input(method) == CS_INPUT_POINTS || cs_method_input(method) == CS_INPUT_GRAPH) &&
         cs_set_int(m, CS_PARAM_CLASSES, 3 - (method >= 200)) != CS_OK))
        return nullptr;
    return m;
}

// How many int32 codes answer_of() gives: the fit's labels (crowd, points, graph), its
// ranks (comparisons), its tag memberships (tags) or the bits of its estimates (numbers).
size_t answer_size(const cs_model *m, int32_t method) {
    size_t n = 0, tags = 0;
    if (cs_n_items(m, &n) != CS_OK) return 0;
    if (cs_method_input(method) == CS_INPUT_NUMBERS) return 2 * n;
    if (cs_method_input(method) == CS_INPUT_TAGS) return cs_n_tags(m, &tags) == CS_OK ? n * tags : 0;
    return n;
}

// The fit's answer into `out` (sized by answer_size), with `scratch` of n doubles for the
// estimates: allocates nothing, so it runs under the limit too.
bool answer_of(const cs_model *m, int32_t method, std::vector<int32_t> &out, std::vector<double> &scratch) {
    const size_t n = out.size();
    switch (cs_method_input(method)) {
        case CS_INPUT_COMPARISONS: return cs_scores(m, nullptr, nullptr, out.data(), n) == CS_OK;
        case CS_INPUT_NUMBERS:
            if (scratch.size() * 2 != n || cs_number_estimates(m, scratch.data(), nullptr, n / 2) != CS_OK) return false;
            std::memcpy(out.data(), scratch.data(), n * sizeof(int32_t));
            return true;
        case CS_INPUT_TAGS: return cs_tag_sets(m, nullptr, 0, out.data(), n) == CS_OK;
        default: return cs_labels(m, out.data(), n) == CS_OK;
    }
}

std::vector<int32_t> labels_of(const cs_model *m, int32_t method) {
    std::vector<int32_t> out(answer_size(m, method));
    std::vector<double> scratch(out.size() / 2);
    if (out.empty() || !answer_of(m, method, out, scratch)) return {};
    return out;
}

size_t mapped_bytes() {
    FILE *f = std::fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f == nullptr) return 0;
    if (std::fscanf(f, "%lu", &pages) != 1) pages = 0;
    std::fclose(f);
    return pages * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

// In the child: the fit under the limit, then the checks. Never returns.
[[noreturn]] void child(int32_t method, const Inputs &in, size_t budget, const std::vector<int32_t> &reference) {
    auto die = [](int code, const std::string &why) {
        std::fprintf(stderr, "%s\n", why.c_str());
        std::fflush(stderr);
        _exit(code);
    };
    cs_model *m = make_model(method);
    if (m == nullptr) die(2, "cannot set up the handle");
    // Everything the checks need is allocated before the limit.
    std::vector<int32_t> got(reference.size());
    std::vector<double> scratch(reference.size() / 2);
    auto same_labels = [&] {
        return answer_size(m, method) == got.size() && answer_of(m, method, got, scratch) && got == reference;
    };
    struct rlimit old, lim;
    if (getrlimit(RLIMIT_AS, &old) != 0) die(2, "getrlimit failed");
    lim = old;
    lim.rlim_cur = static_cast<rlim_t>(mapped_bytes() + budget);
    if (old.rlim_cur != RLIM_INFINITY && lim.rlim_cur > old.rlim_cur) lim.rlim_cur = old.rlim_cur;
    if (setrlimit(RLIMIT_AS, &lim) != 0) die(2, "setrlimit failed");
    const cs_status s = fit(m, method, in);
    if (s == CS_OK) {
        // Read the labels under the limit too: the getters must not need memory.
        if (!same_labels()) die(3, "CS_OK with labels different from the unconstrained fit");
        _exit(kFitOk);
    }
    if (s != CS_ERR_OUT_OF_MEMORY)
        die(4, std::string("returned ") + cs_status_string(s) + ": " + cs_last_error(m));
    if (std::strstr(cs_last_error(m), "out of memory") == nullptr)
        die(5, std::string("CS_ERR_OUT_OF_MEMORY with the message \"") + cs_last_error(m) + "\"");
    int32_t lab = 0;
    if (cs_labels(m, &lab, 1) != CS_ERR_NOT_FITTED) die(5, "a failed fit left results on the handle");
    if (setrlimit(RLIMIT_AS, &old) != 0) die(2, "cannot lift the limit");
    const cs_status again = fit(m, method, in);
    if (again != CS_OK) die(6, std::string("the fit after lifting the limit returned ") + cs_status_string(again));
    if (!same_labels()) die(6, "the fit after lifting the limit gave different labels");
    cs_destroy(m);
    _exit(kFitOutOfMemory);
}

// The unconstrained labels, fitted in a child process: the parent's heap must not keep
// the memory a fit freed, or the children would find it mapped and reuse it under the
// limit (glibc keeps freed chunks, and raises its mmap threshold after freeing a large
// one). Empty on failure (printed).
std::vector<int32_t> reference_labels(int32_t method, const Inputs &in) {
    int fd[2];
    if (pipe(fd) != 0) return {};
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        cs_model *m = make_model(method);
        const cs_status s = m ? fit(m, method, in) : CS_ERR_OUT_OF_MEMORY;
        if (s != CS_OK) {
            std::printf("  %s: the unconstrained fit failed: %s\n", cs_method_name(method), m ? cs_last_error(m) : "");
            std::fflush(stdout);
            _exit(1);
        }
        const std::vector<int32_t> labels = labels_of(m, method);
        const char *p = reinterpret_cast<const char *>(labels.data());
        size_t left = labels.size() * sizeof(int32_t);
        while (left > 0) {
            const ssize_t w = write(fd[1], p, left);
            if (w <= 0) _exit(1);
            p += w;
            left -= static_cast<size_t>(w);
        }
        _exit(0);
    }
    close(fd[1]);
    std::vector<int32_t> labels;
    int32_t buf[1024];
    for (;;) {
        const ssize_t r = read(fd[0], buf, sizeof buf);
        if (r <= 0) break;
        labels.insert(labels.end(), buf, buf + r / static_cast<ssize_t>(sizeof(int32_t)));
    }
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return {};
    return labels;
}

// Runs one rung in a child; returns its exit code, or -1 after printing why it failed
// (killed after the timeout, or ended by a signal).
// Exit code of a child that libgomp ended: gomp_malloc prints "libgomp: Out of memory
// allocating N bytes" and exits(1) when it cannot allocate a team on entering a parallel
// region (even a one-thread one). That is the OpenMP runtime, not the library; it is
// counted apart (README, Limits) and is not a failure of the ladder.
constexpr int kLibgompExit = 1000;

int rung(int32_t method, const Inputs &in, size_t budget, const std::vector<int32_t> &reference) {
    std::fflush(stdout);
    int err[2];  // the child's stderr, read back here
    if (pipe(err) != 0) {
        std::printf("pipe failed\n");
        return -1;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        std::printf("fork failed\n");
        return -1;
    }
    if (pid == 0) {
        close(err[0]);
        dup2(err[1], STDERR_FILENO);
        child(method, in, budget, reference);
    }
    close(err[1]);
    const auto start = std::chrono::steady_clock::now();
    int status = 0;
    bool hung = false;
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(g_timeout_seconds)) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            hung = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::string text;
    char buf[4096];
    for (ssize_t r; (r = read(err[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(r));
    close(err[0]);
    while (!text.empty() && text[0] == '\n') text.erase(0, 1);
    if (!text.empty()) std::printf("  %s, budget %zu K: %s", cs_method_name(method), budget >> 10, text.c_str());
    if (hung) {
        std::printf("  %s, budget %zu bytes: no answer after %d s (killed): a hang\n", cs_method_name(method),
                    budget, g_timeout_seconds);
        return -1;
    }
    if (WIFSIGNALED(status)) {
        std::printf("  %s, budget %zu bytes: the child died of signal %d (%s)\n", cs_method_name(method), budget,
                    WTERMSIG(status), strsignal(WTERMSIG(status)));
        return -1;
    }
    if (WEXITSTATUS(status) == 1 && text.find("libgomp: Out of memory") != std::string::npos) return kLibgompExit;
    return WEXITSTATUS(status);
}

int find_openblas(struct dl_phdr_info *info, size_t, void *data) {
    std::string *found = static_cast<std::string *>(data);
    if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "openblas") != nullptr) *found = info->dlpi_name;
    return 0;
}

int list_blas(struct dl_phdr_info *info, size_t, void *) {
    const char *name = info->dlpi_name;
    if (name != nullptr && (std::strstr(name, "blas") != nullptr || std::strstr(name, "lapack") != nullptr))
        std::printf("  loaded: %s\n", name);
    return 0;
}

}  // namespace

int main() {
#ifdef CS_LADDER_SANITIZED
    std::printf("SKIPPED: a sanitizer build: its shadow memory does not fit under an address-space limit\n");
    return kSkip;
#else
    if (const char *t = std::getenv("CS_LADDER_TIMEOUT")) g_timeout_seconds = std::max(1, std::atoi(t));
    std::string openblas;
    dl_iterate_phdr(find_openblas, &openblas);
    const char *any_blas = std::getenv("CS_LADDER_ANY_BLAS");
    if (!openblas.empty() && (any_blas == nullptr || std::strcmp(any_blas, "1") != 0)) {
        std::printf("SKIPPED: OpenBLAS is loaded (%s): under an address-space limit OpenBLAS 0.3.21 retries its "
                    "buffer allocation forever (OpenBLAS issue 5289; README, Limits). Install Debian's reference "
                    "BLAS and LAPACK (libblas-dev liblapack-dev; tools/scripts/install-deps.sh --test-extras) and "
                    "reconfigure: this test is then linked to them.\n",
                    openblas.c_str());
        return kSkip;
    }
    std::printf("address-space ladder with:\n");
    dl_iterate_phdr(list_blas, nullptr);
    const Inputs in = make_inputs();
    // 256 MB, then from 4 MB down by factors of 0.8 to 5 KB (the fits of these inputs
    // need 0.3-2 MB, so allocations fail all along them), then nothing at all.
    // CS_LADDER_COARSE=1: only 256 MB, 16 MB, 1 MB and nothing (a quick look).
    std::vector<size_t> budgets = {256u << 20};
    if (const char *coarse = std::getenv("CS_LADDER_COARSE"); coarse != nullptr && std::strcmp(coarse, "1") == 0)
        budgets.insert(budgets.end(), {16u << 20, 1u << 20});
    else
        for (double b = 4.0 * (1 << 20); b > 5000.0; b *= 0.8) budgets.push_back(static_cast<size_t>(b));
    budgets.push_back(0);
    int failures = 0, total_libgomp = 0;
    for (int32_t i = 0; i < cs_method_count(); ++i) {
        const int32_t method = cs_method_at(i);
        const std::vector<int32_t> reference = reference_labels(method, in);
        if (reference.empty()) {
            ++failures;
            continue;
        }
        int n_ok = 0, n_oom = 0, n_libgomp = 0;
        size_t smallest_ok = 0, largest_oom = 0;
        for (size_t budget : budgets) {
            const int code = rung(method, in, budget, reference);
            if (code == kFitOk) {
                ++n_ok;
                smallest_ok = budget;
            } else if (code == kFitOutOfMemory) {
                if (n_oom++ == 0) largest_oom = budget;
            } else if (code == kLibgompExit) {
                ++n_libgomp;
            } else {
                if (code >= 0)
                    std::printf("  %s, budget %zu K: failed (exit %d, see above)\n", cs_method_name(method),
                                budget >> 10, code);
                ++failures;
            }
        }
        std::printf("%-18s CS_OK at %2d rungs (down to %4zu K), CS_ERR_OUT_OF_MEMORY at %2d (from %4zu K down)%s\n",
                    cs_method_name(method), n_ok, smallest_ok >> 10, n_oom, largest_oom >> 10,
                    n_libgomp > 0 ? (", libgomp exited at " + std::to_string(n_libgomp)).c_str() : "");
        total_libgomp += n_libgomp;
        if (n_oom == 0) {  // the ladder must reach failing allocations, or it tested nothing
            std::printf("  %s: no rung ran out of memory\n", cs_method_name(method));
            ++failures;
        }
        if (n_ok == 0) {
            std::printf("  %s: not even 256 MB sufficed\n", cs_method_name(method));
            ++failures;
        }
    }
    if (total_libgomp > 0)
        std::printf("libgomp ended %d children (its own allocation failed on entering a parallel region; "
                    "README, Limits)\n", total_libgomp);
    std::printf(failures == 0 ? "ladder passed\n" : "ladder: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
#endif
}
