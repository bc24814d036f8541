// SPDX-License-Identifier: MIT
// The public header used from C++: it must compile cleanly as C++ (extern "C", no C-only
// constructs) and its functions must link with C linkage.
#include "crowdspec/crowdspec.h"

#include <cstdio>
#include <cstring>
#include <type_traits>

static_assert(std::is_same<cs_status, int32_t>::value, "cs_status is int32_t");
static_assert(CS_VERSION_NUMBER == CS_VERSION_MAJOR * 10000 + CS_VERSION_MINOR * 100 +
                                       CS_VERSION_PATCH,
              "CS_VERSION_NUMBER");
static_assert(CS_ERR_WRONG_INPUT_KIND == -17 && CS_PARAM_POWER_ITERS == 202 &&
                  CS_NOTE_CANCELLED == 16,
              "pinned enum values");

namespace {
int32_t on_progress(void *, int32_t, double) noexcept { return 0; }
}  // namespace

int main() {
    cs_model *m = cs_create();
    if (m == nullptr) return 1;
    const cs_progress_fn fn = on_progress;
    int failures = 0;
    failures += cs_set_progress(m, fn, nullptr) != CS_OK;
    failures += cs_version_number() != CS_VERSION_NUMBER;
    failures += std::strcmp(cs_status_string(CS_OK), "CS_OK") != 0;
    const int32_t item[] = {0, 0, 1, 1}, worker[] = {0, 1, 0, 1}, label[] = {0, 0, 1, 1};
    failures += cs_fit(m, item, worker, label, 4) != CS_OK;
    cs_destroy(m);
    if (failures != 0) std::fprintf(stderr, "%d checks failed\n", failures);
    return failures == 0 ? 0 : 1;
}
