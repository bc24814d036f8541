// SPDX-License-Identifier: MIT
// Crowd labels after validation, as compressed sparse rows by item: every method
// passes over the labels item by item (E-steps, majority vote, Lloyd updates) and
// scatters what concerns workers into small per-worker tables, so no by-worker copy
// of the labels is kept (see data/item_partitions.hpp). The one exception: a
// Dawid-Skene fit whose count tables are beyond the caches groups the labels by code
// for its M-step (data/labels_by_code.hpp).
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "core/fit_options.hpp"
#include "util/default_init.hpp"

namespace cs {

struct Shard;  // data/crowd_shard.hpp

/// The label codes of CrowdData: either an array the library owns or a read-only view
/// of the caller's array (cs_fit_csr, whose codes already have the library's layout:
/// they are used in place for the length of the call, no copy). Reading is the same
/// either way (one pointer, like a std::vector); writing (operator[] on a non-const
/// object, resize) is only for owned codes, and resize() drops a view.
class LabelCodes {
public:
    LabelCodes() = default;
    LabelCodes(const LabelCodes &other) { *this = other; }
    LabelCodes(LabelCodes &&other) noexcept { *this = std::move(other); }
    LabelCodes &operator=(const LabelCodes &other) {
        if (this == &other) return *this;
        own_ = other.own_;
        ptr_ = other.is_view() ? other.ptr_ : own_.data();
        size_ = other.size_;
        return *this;
    }
    LabelCodes &operator=(LabelCodes &&other) noexcept {
        if (this == &other) return *this;
        const bool view = other.is_view();
        own_ = std::move(other.own_);
        ptr_ = view ? other.ptr_ : own_.data();
        size_ = other.size_;
        other.own_.clear();
        other.ptr_ = nullptr;
        other.size_ = 0;
        return *this;
    }

    /// Use `n` codes at `codes` in place (the array must outlive every use).
    void view(const uint32_t *codes, std::size_t n) {
        own_.clear();
        own_.shrink_to_fit();
        ptr_ = codes;
        size_ = n;
    }
    /// Owned storage of `n` codes (a view is dropped; owned values are kept).
    void resize(std::size_t n) {
        if (is_view()) {
            const uint32_t *src = ptr_;
            const std::size_t keep = std::min(n, size_);
            own_.assign(src, src + keep);
        }
        own_.resize(n);
        ptr_ = own_.data();
        size_ = n;
    }
    /// Owned storage for at least `n` codes without a move as they grow (a view is kept).
    void reserve(std::size_t n) {
        if (is_view()) return;
        own_.reserve(n);
        ptr_ = own_.data();
    }
    void shrink_to_fit() {
        if (is_view()) return;
        own_.shrink_to_fit();
        ptr_ = own_.data();
    }
    /// True when the codes are the caller's (a view).
    bool is_view() const { return ptr_ != nullptr && ptr_ != own_.data(); }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const uint32_t *data() const { return ptr_; }
    const uint32_t &operator[](std::size_t p) const { return ptr_[p]; }
    /// Owned codes only.
    uint32_t &operator[](std::size_t p) { return own_[p]; }
    /// The owned codes, for writing (null for a view).
    uint32_t *owned_data() { return is_view() ? nullptr : own_.data(); }
    const uint32_t *begin() const { return ptr_; }
    const uint32_t *end() const { return ptr_ + size_; }

private:
    // Owned codes are written by the build's parallel passes right after resize():
    // not zero-filled first, so each page is first touched by the thread that fills it.
    std::vector<uint32_t, DefaultInitAllocator<uint32_t>> own_;
    const uint32_t *ptr_ = nullptr;
    std::size_t size_ = 0;
};

struct CrowdData {
    int32_t n_items = 0;
    int32_t n_workers = 0;
    int32_t k = 0;

    // By item: the labels of item j are positions item_start[j] .. item_start[j+1]-1
    // of item_code, in increasing worker order (each worker once), whatever the order
    // of the input: every sum over an item's labels is formed in this one order, so no
    // fit depends on how the labels were listed. A label is stored as one code, worker * k + label:
    // half the memory of two ids, and the code indexes every per-worker table laid
    // out worker x observed label (log pi, M-step counts) directly. The codes are the
    // caller's own array when it gave them in this layout and order (build_csr): then
    // the by-item layout costs no copy of the labels.
    std::vector<int64_t> item_start;
    LabelCodes item_code;

    int32_t worker_of(int64_t p) const { return static_cast<int32_t>(item_code[p] / static_cast<uint32_t>(k)); }
    int32_t label_of(int64_t p) const { return static_cast<int32_t>(item_code[p] % static_cast<uint32_t>(k)); }

    // Known true labels (cs_set_gold): gold[j] is item j's class, or -1. Empty when
    // no gold was given.
    std::vector<int32_t> gold;

    /// Item j's gold class, or -1.
    int32_t gold_of(int32_t j) const { return gold.empty() ? -1 : gold[j]; }

    // A classifier's probabilities (cs_set_model_probs): n_items x k, row j item j's
    // probability of each class (each row sums to 1), or null. Not owned: the caller's
    // copy (the handle's) outlives the fit. Dawid-Skene EM takes it as a soft-labelling
    // worker (crowd/em/model_worker.hpp), crowdlab as its model.
    const double *model_probs = nullptr;

    /// Number of labels kept (after the duplicate policy).
    std::size_t n_labels() const { return item_code.size(); }

    /// A distributed fit (cs_fit_mpi): these data are one process's items, and the
    /// shard completes the sums over items across the processes (crowd_shard.hpp).
    /// Null for a single-process fit, where n_items and n_labels are the whole problem.
    const Shard *shard = nullptr;

    /// Number of items in [0, n_items) without any label (gold items excepted).
    int32_t unlabeled_items() const;

    /// Validate triples against the options (ids, labels, k, duplicates) and build
    /// the by-item layout, each item's labels in worker order (the duplicate policy's
    /// 'first' and 'last' refer to the input order). Runs on threads_for(options.threads,
    /// n_labels) threads; the result is the same for any count. Throws cs::Error with the status and a message naming the
    /// offending label index on invalid input. The caller's arrays are only read.
    static CrowdData build(const int32_t *item, const int32_t *worker, const int32_t *label,
                           std::size_t n_labels, const FitOptions &options,
                           const std::vector<int32_t> &gold_item = {},
                           const std::vector<int32_t> &gold_label = {});

    /// The same from labels already grouped by item (cs_fit_csr): item j's labels are
    /// code[item_start[j]] .. code[item_start[j + 1] - 1], each code worker * k + label.
    /// Checks item_start (0 first, non-decreasing, at least one label), k (>= 2, equal to
    /// the 'classes' parameter when that is set), the codes (their worker against the
    /// 'workers' parameter) and the duplicates. The codes are used in place, without a
    /// copy, when each item's codes are in worker order already: `code` must then stay
    /// valid and unchanged for as long as the CrowdData is used; otherwise they are
    /// copied and sorted (duplicates resolved in the given order). Gives exactly the
    /// CrowdData of build() on the same labels as triples in this order. Throws
    /// cs::Error naming the position.
    static CrowdData build_csr(std::size_t n_items, const int64_t *item_start, const uint32_t *code,
                               int32_t k, const FitOptions &options,
                               const std::vector<int32_t> &gold_item = {},
                               const std::vector<int32_t> &gold_label = {});
};

/// Check the ids of one array against a declared count (0 = infer) and return the
/// count: the declared one, or the largest id + 1. Throws cs::Error (CS_ERR_INVALID_ID)
/// naming the first id that is negative or >= the declared count ("item id 7 at label
/// index 3 is >= n_items (5)"); n must be > 0. `what` is "item" or "worker",
/// `count_name` "n_items" or "n_workers".
int32_t check_id_range(const int32_t *ids, std::size_t n, int32_t declared, const char *what,
                       const char *count_name);

/// Per class c of data.k: 1 when some label of this process's items is c (an answer
/// class in use), else 0. O(labels).
std::vector<char> answer_classes_in_use(const CrowdData &data);

/// The end of the message for an id of 2^31 - 1, which states the limit (issue 40):
/// "; ids must be at most 2147483646 (...)".
std::string id_limit_text();

/// Check a gold set on its own (cs_set_gold): values >= 0, no item with two
/// different classes. Throws cs::Error.
void check_gold(const std::vector<int32_t> &item, const std::vector<int32_t> &label);

}  // namespace cs
