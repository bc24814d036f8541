// SPDX-License-Identifier: MIT
// libFuzzer target: cs_load_buffer, the reader of saved models (docs/saved-models.md).
// The first byte chooses the input's meaning:
//   0 mod 3  the rest is a model file, loaded as it is (the header, the magic, the
//            version, the checksum are the first line of defence);
//   1 mod 3  the same, with the header's payload length and checksum made right, so
//            that mutated payloads reach the section parser and its checks;
//   2 mod 3  a recipe: a small crowd (fuzz_input.hpp decisions) is fitted with a
//            Dawid-Skene method and saved; then the recipe's edits (offset, byte) are
//            written over the payload and the checksum is made right again.
// Invariants: the status is CS_OK, CS_ERR_CORRUPT_MODEL or CS_ERR_MODEL_VERSION; a
// refused model leaves the handle without a fit and a one-line message; a loaded one
// has labels in range and finite posteriors, saves again to bytes that load and save to
// the same bytes, predicts and updates a small batch with a documented status and
// finite results. An unedited recipe must load (a saved model is always readable).
// Two labels are a large share of these small models, so with the loaded parameters
// the update is mostly a full refit (update_refit_work; cs_fit, which fuzz_fit covers):
// for three inputs in four (by their size) the update is kept incremental.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"
#include "support/fit_helpers.hpp"
#include "util/byte_io.hpp"

namespace {

constexpr std::size_t kHeader = 32;  // magic 8, version 4, flags 4, payload length 8, checksum 8

// Rewrites the payload length and checksum of a header (when there is one).
void repair_header(std::vector<uint8_t> &bytes) {
    if (bytes.size() < kHeader) return;
    const uint64_t payload = bytes.size() - kHeader;
    const uint64_t sum = cs::checksum64(bytes.data() + kHeader, payload);
    for (int b = 0; b < 8; ++b) {
        bytes[16 + b] = static_cast<uint8_t>(payload >> (8 * b));
        bytes[24 + b] = static_cast<uint8_t>(sum >> (8 * b));
    }
}

std::vector<uint8_t> saved_bytes(cs_model *m) {
    std::size_t n = 0;
    if (cs_save_buffer(m, nullptr, 0, &n) != CS_OK) fuzz::fail("cs_save_buffer (size) failed: %s", cs_last_error(m));
    std::vector<uint8_t> bytes(n);
    if (cs_save_buffer(m, bytes.data(), bytes.size(), &n) != CS_OK || n != bytes.size())
        fuzz::fail("cs_save_buffer failed: %s", cs_last_error(m));
    return bytes;
}

// A saved model of a small crowd fitted as the recipe says; empty when the crowd
// cannot be fitted (the recipe is then uninteresting).
std::vector<uint8_t> recipe_model(fuzz::Input &in) {
    static const int32_t methods[] = {CS_METHOD_DS, CS_METHOD_OPT_DS, CS_METHOD_ONE_COIN_DS,
                                      CS_METHOD_CLASS_ONE_COIN_DS, CS_METHOD_AUTO};
    const int32_t method = methods[in.byte() % 5];
    const int32_t n_items = in.in(1, 10), n_workers = in.in(1, 6), k = in.in(2, 4), n_labels = in.in(1, 40);
    test::Triples t;
    for (int32_t i = 0; i < n_labels; ++i) t.add(in.in(0, n_items - 1), in.in(0, n_workers - 1), in.in(0, k - 1));
    test::Model m(cs_create());
    cs_set_int(m.get(), CS_PARAM_METHOD, method);
    cs_set_int(m.get(), CS_PARAM_CLASSES, k);
    cs_set_int(m.get(), CS_PARAM_DUPLICATES, CS_DUPLICATES_KEEP_LAST);
    if (in.flip(3)) {
        const int32_t gold_item = in.in(0, n_items - 1), gold_label = in.in(0, k - 1);
        cs_set_gold(m.get(), &gold_item, &gold_label, 1);
    }
    if (in.flip(2)) {
        // A classifier's rows for some items (issue 34): the model is then saved in
        // format version 2 with its section MODL.
        std::vector<int32_t> rows;
        std::vector<double> probs;
        for (int32_t j = 0; j < n_items; ++j) {
            if (!in.flip(2)) continue;
            rows.push_back(j);
            for (int32_t c = 0; c < k; ++c) probs.push_back(static_cast<double>(in.byte() % 8));
            probs.back() += 1.0;  // never a row of zeros
        }
        if (!rows.empty() && cs_set_model_probs(m.get(), rows.data(), probs.data(), rows.size(), k) != CS_OK)
            fuzz::fail("cs_set_model_probs refused valid rows: %s", cs_last_error(m.get()));
    }
    if (test::fit(m.get(), t) != CS_OK) return {};
    std::vector<uint8_t> bytes = saved_bytes(m.get());
    test::Model again(cs_create());
    if (cs_load_buffer(again.get(), bytes.data(), bytes.size()) != CS_OK)
        fuzz::fail("a model just saved does not load: %s", cs_last_error(again.get()));
    return bytes;
}

void check_loaded(cs_model *m, bool incremental) {
    std::size_t n_items = 0, k = 0;
    if (cs_n_items(m, &n_items) != CS_OK || cs_n_classes(m, &k) != CS_OK || k < 2)
        fuzz::fail("a loaded model has no sizes");
    const std::vector<int32_t> labels = test::labels(m);
    for (int32_t l : labels)
        if (l < 0 || static_cast<std::size_t>(l) >= k) fuzz::fail("a loaded label %d is outside 0..%zu", l, k - 1);
    for (double p : test::posteriors(m))
        if (!std::isfinite(p)) fuzz::fail("a loaded posterior is not finite");
    // Saving is stable: save, load, save gives the same bytes.
    const std::vector<uint8_t> first = saved_bytes(m);
    test::Model copy(cs_create());
    cs_set_int(copy.get(), CS_PARAM_THREADS, 1);  // the saved parameters carry the handle's thread count
    if (cs_load_buffer(copy.get(), first.data(), first.size()) != CS_OK)
        fuzz::fail("a loaded model saves to bytes that do not load: %s", cs_last_error(copy.get()));
    if (saved_bytes(copy.get()) != first) fuzz::fail("save -> load -> save changed the bytes");
    // A small batch: the known workers and a new one, a known item and a new one.
    const int32_t item[] = {0, static_cast<int32_t>(n_items)}, worker[] = {0, 1000}, label[] = {1, 0};
    const cs_status ps = cs_predict(copy.get(), item, worker, label, 2);
    if (ps != CS_OK) fuzz::fail("cs_predict on a loaded model: %s (%s)", cs_status_string(ps), cs_last_error(copy.get()));
    // With a classifier's row for the batch's first item: OK when the model has the
    // classifier's matrix, else the documented refusal.
    std::vector<double> row(k, 1.0);
    row[0] = 3.0;
    const int32_t first_item = 0;
    const bool has_matrix = cs_model_confusion(copy.get(), nullptr, 0) != CS_ERR_NOT_FITTED;
    const cs_status pm = cs_predict_model_probs(copy.get(), item, worker, label, 2, &first_item, row.data(), 1);
    if (pm != (has_matrix ? CS_OK : CS_ERR_INVALID_ARGUMENT))
        fuzz::fail("cs_predict_model_probs on a loaded model: %s (%s)", cs_status_string(pm), cs_last_error(copy.get()));
    if (pm == CS_OK)
        for (double p : test::posteriors(copy.get()))
            if (!std::isfinite(p)) fuzz::fail("a posterior predicted with model probabilities is not finite");
    if (cs_set_model_probs(m, &first_item, row.data(), 1, static_cast<int32_t>(k)) != CS_OK)
        fuzz::fail("cs_set_model_probs: %s", cs_last_error(m));
    if (incremental && cs_set_double(m, CS_PARAM_UPDATE_REFIT_WORK, 0.0) != CS_OK)
        fuzz::fail("update_refit_work = 0 refused: %s", cs_last_error(m));
    const cs_status us = cs_update(m, item, worker, label, 2);
    if (us != CS_OK && us != CS_ERR_DUPLICATE && us != CS_ERR_TOO_LARGE)
        fuzz::fail("cs_update on a loaded model returned %s: %s", cs_status_string(us), cs_last_error(m));
    if (us == CS_OK)
        for (double p : test::posteriors(m))
            if (!std::isfinite(p)) fuzz::fail("an updated posterior is not finite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input in(data, size);
    const uint8_t mode = in.byte() % 3;
    std::vector<uint8_t> bytes;
    if (mode == 2) {
        bytes = recipe_model(in);
        if (bytes.empty()) return 0;
        for (int32_t edits = in.in(0, 8); edits > 0 && bytes.size() > kHeader; --edits) {
            const std::size_t at = kHeader + in.u32() % (bytes.size() - kHeader);
            bytes[at] = in.byte();
        }
        if (in.flip(4) && bytes.size() > kHeader) bytes.resize(kHeader + in.u32() % (bytes.size() - kHeader));
        repair_header(bytes);
    } else {
        const std::string_view rest = in.rest();
        bytes.assign(rest.begin(), rest.end());
        if (mode == 1) repair_header(bytes);
    }

    test::Model model(cs_create());
    cs_model *m = model.get();
    cs_set_int(m, CS_PARAM_THREADS, 1);
    const cs_status s = cs_load_buffer(m, bytes.empty() ? nullptr : bytes.data(), bytes.size());
    if (s == CS_OK) {
        check_loaded(m, size % 4 != 0);
        return 0;
    }
    if (s != CS_ERR_CORRUPT_MODEL && s != CS_ERR_MODEL_VERSION)
        fuzz::fail("cs_load_buffer returned %s, not in its documented list: %s", cs_status_string(s), cs_last_error(m));
    std::size_t n = 0;
    if (cs_n_items(m, &n) != CS_ERR_NOT_FITTED) fuzz::fail("a refused model left a fit");
    if (cs_last_error(m)[0] == '\0') fuzz::fail("a refused model (%s) left no message", cs_status_string(s));
    if (std::strchr(cs_last_error(m), '\n') != nullptr) fuzz::fail("a message spans lines: %s", cs_last_error(m));
    return 0;
}
