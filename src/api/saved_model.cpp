// SPDX-License-Identifier: MIT
// Saved models (cs_save, cs_save_buffer, cs_load, cs_load_buffer, cs_set_user_data,
// cs_user_data): the handle's crowd fit and update state to bytes and back, in the
// format of docs/saved-models.md. Writing collects the sections, then the header with
// the payload's checksum; reading checks the header, the checksum and every value
// before it changes the handle, so that a corrupt file can never reach an algorithm.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "api/arguments.hpp"
#include "api/guard.hpp"
#include "api/model.hpp"
#include "api/params.hpp"
#include "api/saved_state.hpp"
#include "util/byte_io.hpp"

using cs::ByteReader;
using cs::ByteWriter;
using cs::Error;
using cs::require;

namespace {

constexpr uint8_t kMagic[8] = {0x89, 'C', 'S', 'M', 0x0D, 0x0A, 0x1A, 0x0A};
constexpr std::size_t kHeader = 32;
// The sections, in their order (docs/saved-models.md); MODL (version 2) only when the
// model has a classifier's probabilities (issue 34).
constexpr char kSize[] = "SIZE", kParams[] = "PARM", kResult[] = "RSLT", kLabels[] = "LABL", kGold[] = "GOLD",
               kStats[] = "STAT", kModel[] = "MODL", kUser[] = "USER";
// A model without a classifier is written in version 1, byte for byte as before, so
// that libraries reading only version 1 still load it.
constexpr uint32_t kFirstVersion = 1;
constexpr uint64_t kMaxMessage = 1 << 20;

[[noreturn]] void corrupt(const std::string &what) { throw Error(CS_ERR_CORRUPT_MODEL, "corrupt model: " + what); }

// ---- writing

void begin_section(ByteWriter &w, const char *tag, std::size_t &length_at) {
    w.raw(tag, 4);
    w.u32(0);
    length_at = w.size();
    w.u64(0);  // patched by end_section
}

void end_section(ByteWriter &w, std::size_t length_at) {
    const uint64_t n = w.size() - length_at - 8;
    for (int b = 0; b < 8; ++b) w.bytes()[length_at + b] = static_cast<uint8_t>(n >> (8 * b));
}

std::vector<uint8_t> serialise(const cs_model &model) {
    const cs::FitResult &fit = *model.fit;
    const cs::UpdateState &s = *model.state;
    const cs::CrowdData &d = s.data;
    const int32_t k = d.k;
    ByteWriter w;
    w.reserve(kHeader + d.n_labels() * 4 + static_cast<std::size_t>(d.n_items) * (8 * (2 * k + 3) + 5) +
              s.counts.size() * 16 + 4096);
    w.raw(kMagic, 8);
    w.u32(s.model_table.empty() ? kFirstVersion : CS_MODEL_FORMAT_VERSION);
    w.u32(0);
    w.u64(0);  // payload length and checksum, patched below
    w.u64(0);
    std::size_t at = 0;

    begin_section(w, kSize, at);
    w.i32(static_cast<int32_t>(model.fit_params->get_int(CS_PARAM_METHOD)));
    w.i32(d.n_items);
    w.i32(d.n_workers);
    w.i32(k);
    w.u64(d.n_labels());
    w.u8(d.gold.empty() ? 0 : 1);
    end_section(w, at);

    begin_section(w, kParams, at);
    const auto &table = cs::param_table();
    w.u32(static_cast<uint32_t>(table.size()));
    for (const cs::ParamSpec &p : table) {
        w.i32(p.id);
        w.u8(p.integer ? 1 : 0);
        if (p.integer) w.i64(model.fit_params->get_int(p.id));
        else w.f64(model.fit_params->get_double(p.id));
    }
    end_section(w, at);

    begin_section(w, kResult, at);
    w.array(fit.labels.data(), fit.labels.size());
    w.array(fit.posteriors.data(), fit.posteriors.size());
    w.array(s.params.confusion.data(), s.params.confusion.size());
    w.array(s.params.prior.data(), s.params.prior.size());
    w.f64(fit.temperature);
    w.f64(fit.mixing);
    w.i32(fit.calibration);
    w.i32(fit.iterations);
    w.u8(fit.converged ? 1 : 0);
    w.i32(fit.notes);
    w.u64(fit.trace.size());
    w.array(fit.trace.data(), fit.trace.size());
    const std::string message = fit.note_message.substr(0, kMaxMessage);
    w.u64(message.size());
    w.raw(message.data(), message.size());
    end_section(w, at);

    begin_section(w, kLabels, at);
    w.array(d.item_start.data(), d.item_start.size());
    w.array(d.item_code.data(), d.n_labels());
    end_section(w, at);

    if (!d.gold.empty()) {
        begin_section(w, kGold, at);
        w.array(d.gold.data(), d.gold.size());
        end_section(w, at);
    }

    begin_section(w, kStats, at);
    w.array(s.counts.data(), s.counts.size());
    w.array(s.class_mass.data(), s.class_mass.size());
    w.array(s.q.data(), s.q.size());
    w.array(s.item_ll.data(), s.item_ll.size());
    w.array(s.impossible.data(), s.impossible.size());
    w.i64(s.cursor);
    w.i64(s.calibrated_labels);
    w.i64(s.fitted_labels);
    w.u8(s.incremental ? 1 : 0);
    w.f64(s.log_likelihood);
    end_section(w, at);

    if (!s.model_table.empty()) {
        // The classifier: the rows that inform (the others are uniform), then pi_M.
        std::vector<int32_t> items;
        for (int32_t j = 0; j < d.n_items; ++j) {
            const double *p = s.model_table.data() + static_cast<int64_t>(j) * k;
            if (std::any_of(p, p + k, [k](double x) { return x != 1.0 / k; })) items.push_back(j);
        }
        begin_section(w, kModel, at);
        w.u64(items.size());
        w.array(items.data(), items.size());
        for (int32_t j : items) w.array(s.model_table.data() + static_cast<int64_t>(j) * k, static_cast<std::size_t>(k));
        w.u8(s.params.model_confusion.empty() ? 0 : 1);
        w.array(s.params.model_confusion.data(), s.params.model_confusion.size());
        end_section(w, at);
    }

    begin_section(w, kUser, at);
    w.raw(model.user_data.data(), model.user_data.size());
    end_section(w, at);

    std::vector<uint8_t> &bytes = w.bytes();
    const uint64_t payload = bytes.size() - kHeader;
    const uint64_t sum = cs::checksum64(bytes.data() + kHeader, payload);
    for (int b = 0; b < 8; ++b) {
        bytes[16 + b] = static_cast<uint8_t>(payload >> (8 * b));
        bytes[24 + b] = static_cast<uint8_t>(sum >> (8 * b));
    }
    return std::move(bytes);
}

// The state to save: built at the first save (or update) after a fit from its labels.
void ensure_state(cs_model *model) {
    if (!model->fit) throw Error(CS_ERR_NOT_FITTED, "no fit to save: call cs_fit (or cs_load) first");
    if (model->state) return;
    const cs::FitResult &fit = *model->fit;
    if (fit.input_kind != CS_INPUT_CROWD || !model->fit_params)
        throw Error(CS_ERR_INVALID_ARGUMENT, "only crowd fits of the Dawid-Skene family can be saved");
    const cs::FitOptions options = model->fit_params->fit_options();
    if (!cs::is_ds_family(options.method))
        throw Error(CS_ERR_INVALID_ARGUMENT, std::string("only fits of the Dawid-Skene family (ds, opt-ds, one-coin-ds, "
                                                         "class-one-coin-ds, auto) can be saved; this fit is '") +
                                                 cs_method_name(options.method) + "'");
    if (fit.total_items > 0) throw Error(CS_ERR_INVALID_ARGUMENT, "a distributed fit (cs_fit_mpi) cannot be saved");
    if (!model->kept_data)
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "the fit did not keep its labels (CS_PARAM_KEEP_LABELS = 0, or it was cancelled): fit again "
                    "with keep_labels = 1 to save it");
    cs::FitOptions threads = options;
    threads.threads = static_cast<int32_t>(model->params.get_int(CS_PARAM_THREADS));
    model->state = std::make_unique<cs::UpdateState>(
        cs::state_from_fit(std::move(*model->kept_data), std::move(model->kept_model_table), threads, fit));
    model->kept_data.reset();
    model->kept_model_table.clear();
}

// ---- reading

struct Loaded {
    cs::Params params;
    std::unique_ptr<cs::FitResult> fit;
    std::unique_ptr<cs::UpdateState> state;
    std::vector<int32_t> gold_item, gold_label;
    std::vector<uint8_t> user;
};

ByteReader section(ByteReader &r, const char *tag, bool optional = false, bool *present = nullptr) {
    if (present != nullptr) *present = false;
    if (r.remaining() < 16) {
        if (optional) return ByteReader(nullptr, 0);
        corrupt(std::string("section ") + tag + " is missing (the payload ends at byte offset " +
                std::to_string(r.offset()) + ")");
    }
    ByteReader peek = r;
    const uint8_t *name = peek.take(4, "a section tag");
    if (std::memcmp(name, tag, 4) != 0) {
        if (optional) return ByteReader(nullptr, 0);
        corrupt(std::string("expected section ") + tag + " at byte offset " + std::to_string(r.offset()));
    }
    r.take(4, "a section tag");
    if (r.u32("a section's reserved word") != 0) corrupt(std::string("section ") + tag + ": reserved word not 0");
    const uint64_t n = r.u64("a section length");
    if (present != nullptr) *present = true;
    return r.sub(n, tag);
}

void finite_at_least_zero(const std::vector<double> &v, const char *what) {
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!(std::isfinite(v[i]) && v[i] >= 0.0)) corrupt(std::string(what) + "[" + std::to_string(i) + "] is not finite and >= 0");
}

void end_of(const ByteReader &r, const char *tag) {
    if (r.remaining() != 0) corrupt(std::string("section ") + tag + " has " + std::to_string(r.remaining()) + " bytes too many");
}

Loaded parse(const uint8_t *bytes, std::size_t n, int32_t threads) {
    if (n < kHeader || std::memcmp(bytes, kMagic, 8) != 0)
        corrupt(n < 8 ? "too short for a crowdspec model (" + std::to_string(n) + " bytes)"
                      : "not a crowdspec model (wrong magic number)");
    ByteReader head(bytes, kHeader);
    head.take(8, "magic");
    const uint32_t version = head.u32("version");
    if (version == 0) corrupt("format version 0");
    if (version > CS_MODEL_FORMAT_VERSION)
        throw Error(CS_ERR_MODEL_VERSION, "the model was saved in format version " + std::to_string(version) +
                                              "; this library (" + cs_version_string() + ") reads versions up to " +
                                              std::to_string(CS_MODEL_FORMAT_VERSION));
    if (head.u32("flags") != 0) corrupt("unknown flags in the header");
    const uint64_t payload = head.u64("payload length");
    const uint64_t sum = head.u64("checksum");
    if (payload != n - kHeader)
        corrupt(payload > n - kHeader ? "truncated: the header announces " + std::to_string(payload) +
                                            " bytes of payload, " + std::to_string(n - kHeader) + " are there"
                                      : std::to_string(n - kHeader - payload) + " bytes after the end of the model");
    if (cs::checksum64(bytes + kHeader, static_cast<std::size_t>(payload)) != sum)
        corrupt("checksum mismatch: the bytes changed after they were saved");

    ByteReader r(bytes + kHeader, static_cast<std::size_t>(payload), kHeader);
    Loaded out;
    ByteReader sz = section(r, kSize);
    const int32_t method = sz.i32("method"), n_items = sz.i32("n_items"), n_workers = sz.i32("n_workers"),
                  k = sz.i32("k");
    const uint64_t n_labels = sz.u64("n_labels");
    const uint8_t has_gold = sz.u8("gold flag");
    end_of(sz, kSize);
    if (!cs::is_ds_family(method)) corrupt("method " + std::to_string(method) + " is not of the Dawid-Skene family");
    if (k < 2 || k > CS_MAX_CROWD_CLASSES) corrupt("k = " + std::to_string(k));
    if (n_items < 0 || n_workers < 1 || static_cast<uint64_t>(n_workers) * static_cast<uint64_t>(k) >= (uint64_t{1} << 32))
        corrupt("sizes n_items = " + std::to_string(n_items) + ", n_workers = " + std::to_string(n_workers));
    if (has_gold > 1) corrupt("gold flag " + std::to_string(has_gold));
    const std::size_t items = static_cast<std::size_t>(n_items);
    const std::size_t table = static_cast<std::size_t>(n_workers) * static_cast<std::size_t>(k) * static_cast<std::size_t>(k);

    ByteReader pr = section(r, kParams);
    const uint32_t count = pr.u32("parameter count");
    for (uint32_t i = 0; i < count; ++i) {
        const int32_t id = pr.i32("parameter id");
        const uint8_t integer = pr.u8("parameter type");
        const cs::ParamSpec *spec = cs::find_param(id);
        if (spec == nullptr || (spec->integer ? 1 : 0) != integer)
            corrupt("unknown parameter id " + std::to_string(id) + " or wrong type");
        try {
            if (integer) out.params.set_int(id, pr.i64("parameter value"));
            else out.params.set_double(id, pr.f64("parameter value"));
        } catch (const Error &e) {
            if (e.status() == CS_ERR_CORRUPT_MODEL) throw;
            corrupt(std::string("parameter '") + spec->name + "': " + e.what());
        }
    }
    end_of(pr, kParams);
    if (out.params.get_int(CS_PARAM_METHOD) != method) corrupt("the method differs between sections SIZE and PARM");
    out.params.set_int(CS_PARAM_THREADS, threads);

    auto fit = std::make_unique<cs::FitResult>();
    ByteReader rs = section(r, kResult);
    fit->input_kind = CS_INPUT_CROWD;
    fit->n_items = n_items;
    fit->n_workers = n_workers;
    fit->k = k;
    fit->labels = rs.array<int32_t>(items, "labels");
    fit->posteriors = rs.array<double>(items * k, "posteriors");
    fit->confusion = rs.array<double>(table, "confusion");
    fit->prior = rs.array<double>(static_cast<uint64_t>(k), "prior");
    fit->temperature = rs.f64("temperature");
    fit->mixing = rs.f64("mixing");
    fit->calibration = rs.i32("calibration");
    fit->iterations = rs.i32("iterations");
    const uint8_t converged = rs.u8("converged");
    fit->notes = rs.i32("notes");
    const uint64_t trace = rs.u64("trace length");
    fit->trace = rs.array<double>(trace, "trace");
    const uint64_t message = rs.u64("message length");
    if (message > kMaxMessage) corrupt("a message of " + std::to_string(message) + " bytes");
    const uint8_t *text = rs.take(message, "message");
    fit->note_message.assign(reinterpret_cast<const char *>(text), static_cast<std::size_t>(message));
    end_of(rs, kResult);
    for (std::size_t j = 0; j < items; ++j)
        if (fit->labels[j] < 0 || fit->labels[j] >= k) corrupt("label of item " + std::to_string(j));
    finite_at_least_zero(fit->posteriors, "posteriors");
    finite_at_least_zero(fit->confusion, "confusion");
    finite_at_least_zero(fit->prior, "prior");
    double prior_sum = 0.0;
    for (double w : fit->prior) prior_sum += w;
    if (!(prior_sum > 0.0)) corrupt("the prior sums to 0");
    for (double v : fit->trace)
        if (!std::isfinite(v)) corrupt("a trace value is not finite");
    if (!(fit->temperature >= 1e-6 && fit->temperature <= 1e6) || !(fit->mixing >= 0.0 && fit->mixing < 1.0) ||
        fit->calibration < CS_CALIBRATION_NONE || fit->calibration > CS_CALIBRATION_GOLD)
        corrupt("calibration (" + std::to_string(fit->temperature) + ", " + std::to_string(fit->mixing) + ")");
    if (fit->iterations < 0 || converged > 1) corrupt("iterations or converged flag");
    fit->converged = converged == 1;
    fit->has_log_likelihood = true;

    auto state = std::make_unique<cs::UpdateState>();
    cs::CrowdData &d = state->data;
    d.n_items = n_items;
    d.n_workers = n_workers;
    d.k = k;
    ByteReader lr = section(r, kLabels);
    d.item_start = lr.array<int64_t>(items + 1, "item starts");
    const std::vector<uint32_t> codes = lr.array<uint32_t>(n_labels, "label codes");
    end_of(lr, kLabels);
    if (d.item_start[0] != 0 || static_cast<uint64_t>(d.item_start[items]) != n_labels)
        corrupt("the item starts do not span the labels");
    for (std::size_t j = 0; j < items; ++j) {
        // Increasing and within the labels (the last is n_labels, checked above; one in
        // between beyond it would send this loop past the codes).
        if (d.item_start[j + 1] < d.item_start[j] || static_cast<uint64_t>(d.item_start[j + 1]) > n_labels)
            corrupt("item starts decrease or pass the labels at item " + std::to_string(j));
        int64_t last_worker = -1;
        for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
            const uint32_t c = codes[static_cast<std::size_t>(p)];
            const int64_t w = c / static_cast<uint32_t>(k);
            if (c >= table / static_cast<std::size_t>(k) || w <= last_worker)
                corrupt("label code at position " + std::to_string(p) + " (out of range or out of worker order)");
            last_worker = w;
        }
    }
    d.item_code.resize(codes.size());
    if (!codes.empty()) std::memcpy(d.item_code.owned_data(), codes.data(), codes.size() * sizeof(uint32_t));

    bool gold_present = false;
    ByteReader gr = section(r, kGold, true, &gold_present);
    if (gold_present != (has_gold == 1)) corrupt("the gold section does not match the gold flag");
    if (gold_present) {
        d.gold = gr.array<int32_t>(items, "gold");
        end_of(gr, kGold);
        for (std::size_t j = 0; j < items; ++j) {
            if (d.gold[j] < -1 || d.gold[j] >= k) corrupt("gold class of item " + std::to_string(j));
            if (d.gold[j] >= 0) {
                out.gold_item.push_back(static_cast<int32_t>(j));
                out.gold_label.push_back(d.gold[j]);
            }
        }
    }

    ByteReader st = section(r, kStats);
    state->counts = st.array<double>(table, "counts");
    state->class_mass = st.array<double>(static_cast<uint64_t>(k), "class mass");
    state->q = st.array<double>(items * k, "EM posteriors");
    state->item_ll = st.array<double>(items, "item log-likelihoods");
    state->impossible = st.array<uint8_t>(items, "impossible flags");
    state->cursor = st.i64("cursor");
    state->calibrated_labels = st.i64("calibrated labels");
    state->fitted_labels = st.i64("labels of the last full fit");
    const uint8_t incremental = st.u8("incremental flag");
    state->log_likelihood = st.f64("log-likelihood");
    end_of(st, kStats);
    finite_at_least_zero(state->counts, "counts");
    finite_at_least_zero(state->class_mass, "class mass");
    finite_at_least_zero(state->q, "EM posteriors");
    for (std::size_t j = 0; j < items; ++j)
        if (!std::isfinite(state->item_ll[j]) || state->impossible[j] > 1) corrupt("the state of item " + std::to_string(j));
    if (state->cursor < 0 || state->cursor > n_items || state->calibrated_labels < 0 || state->fitted_labels < 0 ||
        incremental > 1 ||
        !std::isfinite(state->log_likelihood))
        corrupt("the update bookkeeping");
    state->incremental = incremental == 1;
    state->params.confusion = fit->confusion;
    state->params.prior = fit->prior;
    state->temperature = fit->temperature;
    state->mixing = fit->mixing;
    state->calibration = fit->calibration;

    if (version >= 2) {
        // The classifier (issue 34): rows of items in increasing order, then pi_M.
        ByteReader mr = section(r, kModel);
        const uint64_t rows = mr.u64("model rows");
        if (rows > items) corrupt("model rows: " + std::to_string(rows) + " for " + std::to_string(items) + " items");
        const std::vector<int32_t> row_items = mr.array<int32_t>(rows, "model row items");
        const std::vector<double> probs = mr.array<double>(rows * static_cast<uint64_t>(k), "model probabilities");
        const uint8_t has_pi = mr.u8("model matrix flag");
        if (has_pi > 1) corrupt("model matrix flag " + std::to_string(has_pi));
        std::vector<double> pi = mr.array<double>(has_pi ? static_cast<uint64_t>(k) * k : 0, "model confusion");
        end_of(mr, kModel);
        finite_at_least_zero(probs, "model probabilities");
        for (std::size_t t = 0; t < row_items.size(); ++t) {
            if (row_items[t] < 0 || row_items[t] >= n_items || (t > 0 && row_items[t] <= row_items[t - 1]))
                corrupt("model row " + std::to_string(t) + ": item out of range or out of order");
            double row_sum = 0.0;
            for (int32_t o = 0; o < k; ++o) row_sum += probs[t * k + o];
            if (!(std::fabs(row_sum - 1.0) <= 1e-9)) corrupt("model row " + std::to_string(t) + " does not sum to 1");
        }
        for (std::size_t e = 0; e < pi.size(); ++e)
            if (!(std::isfinite(pi[e]) && pi[e] > 0.0)) corrupt("model confusion[" + std::to_string(e) + "] is not finite and > 0");
        state->model_table.assign(items * k, 1.0 / k);
        for (std::size_t t = 0; t < row_items.size(); ++t)
            std::copy_n(probs.data() + t * k, k, state->model_table.data() + static_cast<int64_t>(row_items[t]) * k);
        state->params.model_confusion = pi;
        fit->model_confusion = std::move(pi);
        state->attach_model();
    }

    ByteReader ur = section(r, kUser);
    const std::size_t user_bytes = ur.remaining();
    const uint8_t *user = ur.take(user_bytes, "user data");
    out.user.assign(user, user + user_bytes);
    if (r.remaining() != 0) corrupt(std::to_string(r.remaining()) + " bytes after the last section");

    state->prepare(out.params.fit_options());
    out.fit = std::move(fit);
    out.state = std::move(state);
    return out;
}

void install(cs_model *model, Loaded loaded) {
    cs::clear_fit(model);
    model->initial = cs::InitialParams{};
    model->gold_item = std::move(loaded.gold_item);
    model->gold_label = std::move(loaded.gold_label);
    model->params = loaded.params;
    model->fit_params = std::make_unique<cs::Params>(loaded.params);
    model->user_data = std::move(loaded.user);
    model->message = loaded.fit->note_message;
    model->fit = std::move(loaded.fit);
    model->state = std::move(loaded.state);
}

// A file's bytes; errors name the file and the system's reason.
std::vector<uint8_t> read_file(const char *path) {
    std::unique_ptr<FILE, int (*)(FILE *)> f(std::fopen(path, "rb"), std::fclose);
    if (!f) throw Error(CS_ERR_INVALID_ARGUMENT, std::string("cannot open ") + path + ": " + std::strerror(errno));
    std::vector<uint8_t> bytes;
    uint8_t buffer[1 << 16];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, f.get())) > 0) bytes.insert(bytes.end(), buffer, buffer + got);
    if (std::ferror(f.get())) throw Error(CS_ERR_INVALID_ARGUMENT, std::string("cannot read ") + path + ": " + std::strerror(errno));
    return bytes;
}

// Write to a temporary file beside `path`, then rename it over `path`.
void write_file_atomically(const char *path, const std::vector<uint8_t> &bytes) {
    const std::string temp = std::string(path) + ".tmp-cs";
    FILE *f = std::fopen(temp.c_str(), "wb");
    if (f == nullptr) throw Error(CS_ERR_INVALID_ARGUMENT, "cannot create " + temp + ": " + std::strerror(errno));
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    const int saved_errno = errno;
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed) {
        std::remove(temp.c_str());
        throw Error(CS_ERR_INVALID_ARGUMENT, "cannot write " + temp + ": " + std::strerror(written ? errno : saved_errno));
    }
    if (std::rename(temp.c_str(), path) != 0) {
        const int e = errno;
        std::remove(temp.c_str());
        throw Error(CS_ERR_INVALID_ARGUMENT, std::string("cannot rename ") + temp + " to " + path + ": " + std::strerror(e));
    }
}

}  // namespace

namespace cs {

void ensure_update_state(cs_model *model) { ensure_state(model); }

}  // namespace cs

extern "C" {

CS_API cs_status cs_save(cs_model *model, const char *path) {
    return cs::guard(model, [&] {
        require(path, "path");
        ensure_state(model);
        write_file_atomically(path, serialise(*model));
    });
}

CS_API cs_status cs_save_buffer(cs_model *model, void *buffer, size_t capacity, size_t *size) {
    return cs::guard(model, [&] {
        require(size, "size");
        ensure_state(model);
        const std::vector<uint8_t> bytes = serialise(*model);
        *size = bytes.size();
        if (buffer == nullptr) return;
        if (capacity < bytes.size())
            throw Error(CS_ERR_BUFFER_TOO_SMALL, "buffer: capacity " + std::to_string(capacity) + " < " +
                                                     std::to_string(bytes.size()) + " bytes");
        std::memcpy(buffer, bytes.data(), bytes.size());
    });
}

CS_API cs_status cs_load(cs_model *model, const char *path) {
    return cs::guard(model, [&] {
        require(path, "path");
        const std::vector<uint8_t> bytes = read_file(path);
        install(model, parse(bytes.data(), bytes.size(), static_cast<int32_t>(model->params.get_int(CS_PARAM_THREADS))));
    });
}

CS_API cs_status cs_load_buffer(cs_model *model, const void *buffer, size_t size) {
    return cs::guard(model, [&] {
        if (size > 0) require(buffer, "buffer");
        install(model, parse(static_cast<const uint8_t *>(buffer), size,
                             static_cast<int32_t>(model->params.get_int(CS_PARAM_THREADS))));
    });
}

CS_API cs_status cs_set_user_data(cs_model *model, const void *bytes, size_t n) {
    return cs::guard(model, [&] {
        if (n > 0) require(bytes, "bytes");
        if (static_cast<uint64_t>(n) >= (uint64_t{1} << 40))
            throw Error(CS_ERR_TOO_LARGE, "user data of " + std::to_string(n) + " bytes (at most 2^40 - 1)");
        const auto *p = static_cast<const uint8_t *>(bytes);
        model->user_data.assign(p, p + n);
    });
}

CS_API cs_status cs_user_data(const cs_model *model, void *bytes, size_t capacity, size_t *n) {
    return cs::guard(model, [&] {
        require(n, "n");
        *n = model->user_data.size();
        if (bytes == nullptr) return;
        if (capacity < model->user_data.size())
            throw Error(CS_ERR_BUFFER_TOO_SMALL, "user data: capacity " + std::to_string(capacity) + " < " +
                                                     std::to_string(model->user_data.size()) + " bytes");
        if (!model->user_data.empty()) std::memcpy(bytes, model->user_data.data(), model->user_data.size());
    });
}

}  // extern "C"
