// SPDX-License-Identifier: MIT
// The binary label file (docs/binary-format.md): crowd labels grouped by item as 4-byte
// codes worker * k + label, with the class, item and worker dictionaries, written by
// `crowdspec convert` and read memory-mapped by fit, evaluate, report and predict.
//
// The codes are exactly what cs_fit_csr() takes, so a fit from a binary file passes the
// mapped pages to the library without reading them into arrays: about 4 bytes per label
// stay resident instead of the 20 of a text file's triples and line numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/crowd_table.hpp"

namespace cli {

/// Format version this program writes and reads.
constexpr uint32_t kBinaryVersion = 1;

/// Whether `path` is a regular file that starts with kBinaryMagic ("-" and unreadable
/// paths: false, so the text reader reports them as before).
bool is_binary_label_file(const std::string &path);

/// The 64-bit check value of docs/binary-format.md ("checksum"): four interleaved
/// lanes over the little-endian 64-bit words of the bytes (the last word zero-padded),
/// then combined with the length. Incremental: update() with any split of the bytes
/// gives the value of the whole.
class Checksum {
public:
    void update(const void *data, std::size_t n);
    uint64_t value() const;

private:
    void word(uint64_t w);
    uint64_t lane_[4] = {0x243F6A8885A308D3ULL, 0x13198A2E03707344ULL, 0xA4093822299F31D0ULL,
                         0x082EFA98EC4E6C89ULL};
    uint64_t words_ = 0;
    uint64_t bytes_ = 0;
    unsigned char pending_[8] = {};
    std::size_t n_pending_ = 0;
};

/// One dictionary to write: explicit names, or the decimal integers first, first + 1,
/// ... (count of them), stored as just (first, count).
struct Dictionary {
    const std::vector<std::string> *names = nullptr;  ///< explicit names (when not a range)
    bool range = false;
    int64_t first = 0;
    uint64_t count = 0;
    uint64_t size() const { return range ? count : names->size(); }
};

/// The dictionary for `names`: a range when they are the canonical decimal integers
/// first, first + 1, ... in order (a simulated crowd's 1..n), else the names themselves.
Dictionary dictionary_of(const std::vector<std::string> &names);

/// Writes a binary label file item by item: the dictionaries first, then each item's
/// codes in order (add_item), then commit() writes the offsets and the header and
/// renames the temporary file (PATH.tmp.<pid>) onto PATH. Without commit() the
/// destructor removes the temporary file and PATH is left as it was. Throws
/// CliError(kExitOutput) on any write error.
class BinaryLabelWriter {
public:
    /// k = classes.size(); the item count is checked at commit().
    BinaryLabelWriter(const std::string &path, const Dictionary &classes, const Dictionary &items,
                      const Dictionary &workers);
    ~BinaryLabelWriter();
    BinaryLabelWriter(const BinaryLabelWriter &) = delete;
    BinaryLabelWriter &operator=(const BinaryLabelWriter &) = delete;

    /// The next item's labels, as codes worker * k + label (checked); stored in worker
    /// order (stable), the order the library keeps.
    void add_item(const uint32_t *codes, std::size_t n);
    /// Completes the file. Returns its size in bytes.
    uint64_t commit();

private:
    void write(const void *data, std::size_t n);
    void flush();
    void pad_to(uint64_t alignment);
    void write_dictionary(int section, const Dictionary &d);
    [[noreturn]] void fail(const std::string &what);

    std::string path_, temp_;
    int fd_ = -1;
    uint64_t position_ = 0;  // bytes written so far (buffered ones included)
    std::string buffer_;
    uint64_t n_items_ = 0, n_workers_ = 0, k_ = 0, n_labels_ = 0, code_limit_ = 0;
    std::vector<uint32_t> sorted_;  // an item's codes put in worker order (add_item)
    std::vector<int64_t> item_start_;
    struct Section {
        uint64_t offset = 0, size = 0, check = 0;
    } sections_[5];
    Checksum codes_check_;
    bool committed_ = false;
};

/// A binary label file, mapped read-only and fully checked when opened (header,
/// lengths, every section's checksum, offsets, dictionaries, codes < n_workers x k).
class BinaryLabels {
public:
    /// Opens and checks PATH. Throws CliError(kExitInput) "PATH: ..." naming what is
    /// wrong (not a binary label file, truncated, corrupt, unsupported version).
    static std::shared_ptr<BinaryLabels> open(const std::string &path);
    ~BinaryLabels();
    BinaryLabels(const BinaryLabels &) = delete;
    BinaryLabels &operator=(const BinaryLabels &) = delete;

    uint64_t n_items() const { return n_items_; }
    uint64_t n_workers() const { return n_workers_; }
    uint64_t k() const { return k_; }
    uint64_t n_labels() const { return n_labels_; }
    uint64_t file_size() const { return size_; }
    const std::string &source() const { return source_; }

    /// n_items + 1 offsets into codes(): item j's labels are codes()[item_start()[j]] ..
    const int64_t *item_start() const;
    /// n_labels codes worker * k + label, grouped by item.
    const uint32_t *codes() const;

    /// The names of a dictionary: 0 classes, 1 items, 2 workers.
    std::vector<std::string> names(int which) const;
    /// Labels per worker (one pass over the codes).
    std::vector<std::size_t> labels_per_worker() const;

    /// Tells the kernel the codes are not needed for now (MADV_DONTNEED: their pages
    /// leave the process's resident set; reading them again maps them back in).
    void release_codes() const;

private:
    BinaryLabels() = default;
    std::string source_;
    const unsigned char *base_ = nullptr;
    uint64_t size_ = 0;
    uint64_t n_items_ = 0, n_workers_ = 0, k_ = 0, n_labels_ = 0;
    uint64_t offset_[5] = {}, length_[5] = {};
};

/// Reads a binary label file as a CrowdTable whose labels stay in the mapped file
/// (table.binary; item, worker, label and line are empty). Its classes are the file's:
/// --classes (`classes`) must name them (K, or the same list in the same order; a list
/// from a workers file, the same set), else CliError. `with_item_names` false leaves
/// table.item_names empty, to be filled by fill_item_names() once needed (a fit needs
/// no names; its output does).
CrowdTable read_binary_crowd_file(const std::string &path, const ClassSpec &classes, bool with_item_names = true);

/// Fills table.item_names of a binary table read without them (else does nothing).
void fill_item_names(CrowdTable &table);

/// The triples of a binary table, in item order, for commands that take triples
/// (predict, report): fills table.item, worker and label (and the item names) and
/// drops table.binary. With a class list in another order (a workers file's), the
/// labels and class_names follow the list.
void expand_binary_triples(CrowdTable &table, const ClassSpec &classes);

/// For a binary table whose fit failed with CS_ERR_DUPLICATE: "FILE: worker 'w' labels
/// item 'i' twice; ..." for the first such pair, or "" for another table.
std::string binary_duplicate_message(const CrowdTable &table);

/// Writes `table` (text or binary) as a binary label file at `path`: its labels in
/// item order (a stable sort: each item's labels keep the file's order), so that a
/// fit of the binary file equals a fit of the original bit for bit. Returns the size.
uint64_t write_binary_labels(const std::string &path, const CrowdTable &table);

}  // namespace cli
