// SPDX-License-Identifier: MIT
//! Saved models, incremental updates and the sufficient-statistics API of the header
//! (0.2): cs_save ... cs_refit, cs_stats_length ... cs_fit_stats, with their status
//! codes, parameters and note. Re-exported by the crate root; `tests/header.rs` reads
//! this file with `lib.rs`.

use std::os::raw::{c_char, c_void};

use crate::{cs_fit_note, cs_model, cs_param, cs_status, cs_status_code};

/// [`cs_load`], [`cs_load_buffer`]: the bytes are not a saved model, are truncated, fail
/// their checksum or hold inconsistent values (since 0.2).
pub const CS_ERR_CORRUPT_MODEL: cs_status_code = -22;
/// [`cs_load`], [`cs_load_buffer`]: the model was saved in a newer format version (since 0.2).
pub const CS_ERR_MODEL_VERSION: cs_status_code = -23;
/// int `"keep_labels"` (since 0.2): 1 keeps a Dawid-Skene fit's labels for [`cs_save`],
/// [`cs_update`] and [`cs_refit`].
pub const CS_PARAM_KEEP_LABELS: cs_param = 660;
/// int `"update_rounds"` (since 0.2): most incremental EM rounds of one [`cs_update`].
pub const CS_PARAM_UPDATE_ROUNDS: cs_param = 661;
/// double `"update_sweep"` (since 0.2): labels of untouched items an update revisits per
/// new label.
pub const CS_PARAM_UPDATE_SWEEP: cs_param = 662;
/// double `"update_recalibrate"` (since 0.2): label growth that re-fits the calibration.
pub const CS_PARAM_UPDATE_RECALIBRATE: cs_param = 663;
/// double `"update_refit"` (since 0.2): label growth (a multiple) that refits in full.
pub const CS_PARAM_UPDATE_REFIT: cs_param = 664;
/// double `"update_refit_work"` (since 0.2): share of the labels an update would work on
/// that makes it a full refit instead.
pub const CS_PARAM_UPDATE_REFIT_WORK: cs_param = 665;
/// The results come from incremental updates ([`cs_update`]) since the last full fit
/// (since 0.2).
pub const CS_NOTE_INCREMENTAL: cs_fit_note = 16777216;

/// E-step callback of [`cs_fit_stats`] (`cs_e_step_fn`): given the parameters, write
/// the summed statistics of every shard into `stats`; non-zero stops the fit.
pub type cs_e_step_fn =
    Option<unsafe extern "C" fn(user: *mut c_void, confusion: *const f64, prior: *const f64, stats: *mut f64) -> i32>;

extern "C" {
    /// Save the handle's crowd fit to the file `path` (since 0.2).
    pub fn cs_save(model: *mut cs_model, path: *const c_char) -> cs_status;
    /// Save it into a caller's buffer; `size` receives the bytes needed (since 0.2).
    pub fn cs_save_buffer(model: *mut cs_model, buffer: *mut c_void, capacity: usize, size: *mut usize)
        -> cs_status;
    /// Load a saved model from the file `path` (since 0.2).
    pub fn cs_load(model: *mut cs_model, path: *const c_char) -> cs_status;
    /// Load a saved model from a buffer (since 0.2).
    pub fn cs_load_buffer(model: *mut cs_model, buffer: *const c_void, size: usize) -> cs_status;
    /// Bytes of the caller's saved with the model (copied; since 0.2).
    pub fn cs_set_user_data(model: *mut cs_model, bytes: *const c_void, n: usize) -> cs_status;
    /// Copy out the user data; `n` receives its size (since 0.2).
    pub fn cs_user_data(model: *const cs_model, bytes: *mut c_void, capacity: usize, n: *mut usize) -> cs_status;
    /// Add labels to a saved-model state and refit incrementally (since 0.2).
    pub fn cs_update(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        label: *const i32,
        n_labels: usize,
    ) -> cs_status;
    /// Full refit of every label the model holds (since 0.2).
    pub fn cs_refit(model: *mut cs_model) -> cs_status;
    /// Values of one shard's statistics for n_workers and k (0 on overflow; since 0.2).
    pub fn cs_stats_length(n_workers: usize, k: usize) -> usize;
    /// Make the handle a shard of a crowd (since 0.2).
    pub fn cs_shard_labels(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        label: *const i32,
        n_labels: usize,
        n_items: usize,
        n_workers: usize,
        k: usize,
    ) -> cs_status;
    /// The shard's statistics of the start (the soft majority vote; since 0.2).
    pub fn cs_shard_start(model: *mut cs_model, stats: *mut f64, capacity: usize) -> cs_status;
    /// The shard's E-step at the given parameters (since 0.2).
    pub fn cs_shard_e_step(
        model: *mut cs_model,
        confusion: *const f64,
        prior: *const f64,
        stats: *mut f64,
        capacity: usize,
    ) -> cs_status;
    /// The M-step from summed statistics (since 0.2).
    pub fn cs_m_step(
        model: *mut cs_model,
        stats: *const f64,
        n_stats: usize,
        n_items: usize,
        n_workers: usize,
        k: usize,
        confusion: *mut f64,
        confusion_capacity: usize,
        prior: *mut f64,
        prior_capacity: usize,
    ) -> cs_status;
    /// EM on statistics an engine sums, through the `e_step` callback (since 0.2).
    pub fn cs_fit_stats(
        model: *mut cs_model,
        n_items: usize,
        n_workers: usize,
        k: usize,
        start: *const f64,
        n_stats: usize,
        e_step: cs_e_step_fn,
        user: *mut c_void,
    ) -> cs_status;
}
