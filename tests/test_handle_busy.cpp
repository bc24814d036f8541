// SPDX-License-Identifier: MIT
// One handle used by two callers at once (issue 40, R7). A handle is used by one thread
// at a time (crowdspec.h, Threads); a program that breaks the rule used to get a
// heap-use-after-free (the second fit freed the first one's results under it). Now the
// second call returns CS_ERR_BUSY and changes nothing:
//   - the progress callback calling back into the handle of its own fit;
//   - a second thread fitting while the first fit is held inside its callback, and the
//     first fit's results afterwards equal a fit on its own;
//   - two threads fitting the same handle in a loop: every call is CS_OK or
//     CS_ERR_BUSY, and every successful fit's posteriors are the reference ones (the
//     ThreadSanitizer stage of CI runs this; without the flag it reports the race).
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "crowdspec/crowdspec.h"

namespace {

int failures = 0;

void expect(bool ok, const char *what) {
    if (!ok) {
        std::printf("FAIL: %s\n", what);
        ++failures;
    }
}

// The 6-item, 4-worker, 3-class crowd of cs_test.h.
const int32_t kItem[18] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5};
const int32_t kWorker[18] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 3, 1, 2, 3};
const int32_t kLabel[18] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 2, 2, 2, 2, 1, 2};
constexpr size_t kPosteriors = 6 * 3;

cs_status fit(cs_model *m) { return cs_fit(m, kItem, kWorker, kLabel, 18); }

std::vector<double> reference_posteriors() {
    cs_model *m = cs_create();
    std::vector<double> post(kPosteriors, -1.0);
    if (m == nullptr || cs_set_int(m, CS_PARAM_METHOD, CS_METHOD_DS) != CS_OK || fit(m) != CS_OK ||
        cs_posteriors(m, post.data(), post.size()) != CS_OK)
        expect(false, "reference fit");
    cs_destroy(m);
    return post;
}

// --- the callback calls back into its own handle ---------------------------------------
struct Reentry {
    cs_model *model;
    cs_status getter = CS_OK, setter = CS_OK, refit = CS_OK;
    bool called = false;
};

int32_t reenter(void *user, int32_t, double) {
    Reentry *r = static_cast<Reentry *>(user);
    if (r->called) return 0;
    r->called = true;
    int32_t iterations = 0;
    r->getter = cs_iterations(r->model, &iterations);
    r->setter = cs_set_int(r->model, CS_PARAM_MAX_ITER, 1);
    r->refit = fit(r->model);
    return 0;
}

void callback_reentry(const std::vector<double> &reference) {
    cs_model *m = cs_create();
    Reentry r{m};
    cs_set_int(m, CS_PARAM_METHOD, CS_METHOD_DS);
    cs_set_progress(m, reenter, &r);
    const cs_status s = fit(m);
    expect(s == CS_OK, "the fit whose callback re-enters succeeds");
    expect(r.called, "the callback ran");
    expect(r.getter == CS_ERR_BUSY, "cs_iterations inside the callback is CS_ERR_BUSY");
    expect(r.setter == CS_ERR_BUSY, "cs_set_int inside the callback is CS_ERR_BUSY");
    expect(r.refit == CS_ERR_BUSY, "cs_fit inside the callback is CS_ERR_BUSY");
    int64_t max_iter = 0;
    cs_get_int(m, CS_PARAM_MAX_ITER, &max_iter);
    expect(max_iter != 1, "the refused cs_set_int changed nothing");
    std::vector<double> post(kPosteriors, -1.0);
    expect(cs_posteriors(m, post.data(), post.size()) == CS_OK && post == reference,
           "the fit's results are the reference ones");
    expect(std::strcmp(cs_status_string(CS_ERR_BUSY), "CS_ERR_BUSY") == 0, "cs_status_string(CS_ERR_BUSY)");
    // Once the fit returned, the handle is free again.
    cs_set_progress(m, nullptr, nullptr);
    expect(fit(m) == CS_OK, "the handle is usable after the fit");
    cs_destroy(m);
}

// --- a second thread while the first fit waits inside its callback -------------------
struct Gate {
    std::mutex lock;
    std::condition_variable changed;
    bool first_inside = false, second_done = false;
};

// The first fit's first report waits until the second thread is done. Any other call
// (a second fit that was let through, as before the flag) returns at once, so that a
// missing flag fails the test rather than deadlocking it.
int32_t hold(void *user, int32_t iteration, double) {
    Gate *g = static_cast<Gate *>(user);
    if (iteration != 0) return 0;
    std::unique_lock<std::mutex> guard(g->lock);
    if (g->first_inside) return 0;
    g->first_inside = true;
    g->changed.notify_all();
    g->changed.wait(guard, [&] { return g->second_done; });
    return 0;
}

void second_thread_while_fitting(const std::vector<double> &reference) {
    cs_model *m = cs_create();
    Gate gate;
    cs_set_int(m, CS_PARAM_METHOD, CS_METHOD_DS);
    cs_set_progress(m, hold, &gate);
    cs_status first = CS_ERR_INTERNAL, second = CS_OK, second_getter = CS_OK;
    std::thread a([&] { first = fit(m); });
    {
        std::unique_lock<std::mutex> guard(gate.lock);
        gate.changed.wait(guard, [&] { return gate.first_inside; });
    }
    std::thread b([&] {
        second = fit(m);
        size_t n = 0;
        second_getter = cs_n_items(m, &n);
        std::lock_guard<std::mutex> guard(gate.lock);
        gate.second_done = true;
        gate.changed.notify_all();
    });
    b.join();
    a.join();
    expect(second == CS_ERR_BUSY, "a second thread's cs_fit during the fit is CS_ERR_BUSY");
    expect(second_getter == CS_ERR_BUSY, "a second thread's cs_n_items during the fit is CS_ERR_BUSY");
    expect(first == CS_OK, "the first fit succeeds");
    std::vector<double> post(kPosteriors, -1.0);
    expect(cs_posteriors(m, post.data(), post.size()) == CS_OK && post == reference,
           "the first fit's results are untouched by the refused call");
    cs_destroy(m);
}

// --- two threads hammering one handle ---------------------------------------------------
void two_threads_in_a_loop(const std::vector<double> &reference) {
    cs_model *m = cs_create();
    cs_set_int(m, CS_PARAM_METHOD, CS_METHOD_DS);
    std::atomic<int> ok{0}, busy{0}, other{0}, wrong{0};
    auto run = [&] {
        for (int round = 0; round < 300; ++round) {
            const cs_status s = fit(m);
            if (s == CS_ERR_BUSY) {
                ++busy;
                continue;
            }
            if (s != CS_OK) {
                ++other;
                continue;
            }
            ++ok;
            // The other thread may refit in between: the read is CS_OK (the same
            // posteriors, same data and seed) or CS_ERR_BUSY, never a torn copy nor
            // CS_ERR_NOT_FITTED (a refit's reset seen half-way).
            std::vector<double> post(kPosteriors, -1.0);
            const cs_status r = cs_posteriors(m, post.data(), post.size());
            if (r == CS_OK && post != reference) ++wrong;
            if (r != CS_OK && r != CS_ERR_BUSY) ++other;
        }
    };
    std::thread a(run), b(run);
    a.join();
    b.join();
    std::printf("two threads, one handle: %d fits, %d CS_ERR_BUSY\n", ok.load(), busy.load());
    expect(other.load() == 0, "every call is CS_OK or CS_ERR_BUSY");
    expect(wrong.load() == 0, "every posterior read is the reference");
    expect(ok.load() + busy.load() == 600 && ok.load() > 0, "600 calls, some of them fits");
    cs_destroy(m);
}

}  // namespace

int main() {
    const std::vector<double> reference = reference_posteriors();
    callback_reentry(reference);
    second_thread_while_fitting(reference);
    two_threads_in_a_loop(reference);
    if (failures != 0) {
        std::printf("%d failure(s)\n", failures);
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
