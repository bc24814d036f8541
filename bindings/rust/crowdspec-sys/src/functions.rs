// SPDX-License-Identifier: MIT
//! The functions of the header (every `CS_API` declaration but those of saved models,
//! updates and the statistics API, which are in `saved.rs`), in the header's order.
//! Re-exported by the crate root; `tests/header.rs` reads every file of `src/`.

use std::os::raw::{c_char, c_void};

use crate::*;

extern "C" {
    /// Name of a status code, e.g. `"CS_ERR_INVALID_ID"` (a static string, never NULL).
    pub fn cs_status_string(status: cs_status) -> *const c_char;

    /// Version of the linked library as MAJOR * 10000 + MINOR * 100 + PATCH.
    pub fn cs_version_number() -> i32;
    /// Version of the linked library as `"MAJOR.MINOR.PATCH"` (a static string).
    pub fn cs_version_string() -> *const c_char;

    /// The [`cs_input_kind`] a method takes, or 0 for an unknown id.
    pub fn cs_method_input(method: i32) -> i32;
    /// Number of methods.
    pub fn cs_method_count() -> i32;
    /// Id of the index-th method (0-based), or 0 when out of range.
    pub fn cs_method_at(index: i32) -> i32;
    /// Short name of a method (a static string), or NULL for an unknown id.
    pub fn cs_method_name(method: i32) -> *const c_char;
    /// One line saying what a method does (a static string, no trailing newline), or
    /// NULL for an unknown id.
    pub fn cs_method_summary(method: i32) -> *const c_char;
    /// Method id from its short name: [`CS_OK`], [`CS_ERR_NULL_POINTER`] or
    /// [`CS_ERR_UNKNOWN_METHOD`].
    pub fn cs_method_from_name(name: *const c_char, method: *mut i32) -> cs_status;

    /// Name of a parameter (a static string), or NULL for an unknown id.
    pub fn cs_param_name(param: i32) -> *const c_char;
    /// Parameter id from its name: [`CS_OK`], [`CS_ERR_NULL_POINTER`] or
    /// [`CS_ERR_UNKNOWN_PARAM`].
    pub fn cs_param_from_name(name: *const c_char, param: *mut i32) -> cs_status;
    /// Number of parameters.
    pub fn cs_param_count() -> i32;
    /// Id of the index-th parameter (0-based), or 0 when out of range.
    pub fn cs_param_at(index: i32) -> i32;
    /// Range, default and kind (`is_integer` 1 or 0) of a parameter; each out-pointer
    /// may be NULL.
    pub fn cs_param_info(
        param: i32,
        lower: *mut f64,
        upper: *mut f64,
        default_value: *mut f64,
        is_integer: *mut i32,
    ) -> cs_status;

    /// A new handle with every parameter at its default, or NULL when memory is
    /// exhausted. Free it with [`cs_destroy`].
    pub fn cs_create() -> *mut cs_model;
    /// Free a handle (NULL is ignored).
    pub fn cs_destroy(model: *mut cs_model);
    /// Message about the last failure (or the last fit's notes) on the handle; owned by
    /// the handle and valid until the next call on it; never NULL.
    pub fn cs_last_error(model: *const cs_model) -> *const c_char;
    /// Set a parameter from an integer.
    pub fn cs_set_int(model: *mut cs_model, param: i32, value: i64) -> cs_status;
    /// Set a parameter from a double (whole numbers for int parameters).
    pub fn cs_set_double(model: *mut cs_model, param: i32, value: f64) -> cs_status;
    /// Read an int parameter.
    pub fn cs_get_int(model: *const cs_model, param: i32, value: *mut i64) -> cs_status;
    /// Read any parameter as a double.
    pub fn cs_get_double(model: *const cs_model, param: i32, value: *mut f64) -> cs_status;
    /// Set a parameter from its name and a textual value (`"tol"`, `"1e-8"`).
    pub fn cs_set_param_string(
        model: *mut cs_model,
        name: *const c_char,
        value: *const c_char,
    ) -> cs_status;
    /// Install (or with `None` remove) the progress/cancel callback.
    pub fn cs_set_progress(model: *mut cs_model, fn_: cs_progress_fn, user: *mut c_void)
        -> cs_status;

    /// Known true labels of some items for later crowd fits (copied; n = 0 clears).
    pub fn cs_set_gold(
        model: *mut cs_model,
        item: *const i32,
        label: *const i32,
        n: usize,
    ) -> cs_status;
    /// Warm start: worker confusion matrices (the layout of [`cs_confusion`]) that later
    /// EM fits start from (copied; n = 0 clears; a row of zeros marks an unknown worker).
    pub fn cs_set_initial_confusion(model: *mut cs_model, confusion: *const f64, n: usize)
        -> cs_status;
    /// The class prior a warm start begins from (copied; n = 0 clears).
    pub fn cs_set_initial_prior(model: *mut cs_model, prior: *const f64, n: usize) -> cs_status;
    /// The calibration [`cs_predict`] applies with the initial matrices when the handle
    /// has no fit: temperature in [1e-6, 1e6], mixing (the prior's weight) in [0, 1).
    pub fn cs_set_initial_calibration(model: *mut cs_model, temperature: f64, mixing: f64)
        -> cs_status;
    /// Fit the method to `n_labels` (item, worker, label) triples (copied).
    pub fn cs_fit(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        label: *const i32,
        n_labels: usize,
    ) -> cs_status;
    /// Fit the method to labels grouped by item: item j's labels are
    /// `code[item_start[j]..item_start[j + 1]]`, each code `worker * k + label`; the
    /// arrays are read in place during the call (not copied).
    pub fn cs_fit_csr(
        model: *mut cs_model,
        n_items: usize,
        item_start: *const i64,
        code: *const u32,
        k: i32,
    ) -> cs_status;
    /// Label a new batch of items by known workers without refitting: one E-step with the
    /// confusion matrices and prior of the last crowd fit (or the initial ones).
    pub fn cs_predict(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        label: *const i32,
        n_labels: usize,
    ) -> cs_status;
    /// Cluster n points of dimension d (row-major, leading dimension `ld`, 0 = d).
    pub fn cs_fit_points(
        model: *mut cs_model,
        x: *const f64,
        n: usize,
        d: usize,
        ld: usize,
    ) -> cs_status;
    /// Find the communities of an undirected graph given as an edge list.
    pub fn cs_fit_graph(
        model: *mut cs_model,
        n_nodes: usize,
        u: *const i32,
        v: *const i32,
        n_edges: usize,
    ) -> cs_status;

    /// Number of items (points, nodes) of the last fit.
    pub fn cs_n_items(model: *const cs_model, n: *mut usize) -> cs_status;
    /// Number of workers of the last fit (0 for points and graphs).
    pub fn cs_n_workers(model: *const cs_model, n: *mut usize) -> cs_status;
    /// Number of classes k of the last fit.
    pub fn cs_n_classes(model: *const cs_model, n: *mut usize) -> cs_status;
    /// Hard labels, n_items values.
    pub fn cs_labels(model: *const cs_model, labels: *mut i32, capacity: usize) -> cs_status;
    /// Posteriors, n_items x k row-major.
    pub fn cs_posteriors(model: *const cs_model, posteriors: *mut f64, capacity: usize)
        -> cs_status;
    /// Confusion matrices, n_workers x k x k row-major (worker x true x observed).
    pub fn cs_confusion(model: *const cs_model, confusion: *mut f64, capacity: usize)
        -> cs_status;
    /// Class prior, k values.
    pub fn cs_class_prior(model: *const cs_model, prior: *mut f64, capacity: usize)
        -> cs_status;
    /// Length of the objective trace.
    pub fn cs_trace_length(model: *const cs_model, n: *mut usize) -> cs_status;
    /// Objective after each iteration.
    pub fn cs_trace(model: *const cs_model, trace: *mut f64, capacity: usize) -> cs_status;
    /// Completed iterations of the last fit.
    pub fn cs_iterations(model: *const cs_model, iterations: *mut i32) -> cs_status;
    /// 1 when the last fit met its stopping rule, else 0.
    pub fn cs_converged(model: *const cs_model, converged: *mut i32) -> cs_status;
    /// Final log-likelihood of an EM fit (0 for methods that do not compute it).
    pub fn cs_log_likelihood(model: *const cs_model, log_likelihood: *mut f64) -> cs_status;
    /// How the posteriors of the last fit were calibrated: temperature, the prior's
    /// weight and the source (a [`cs_calibration`](tyalias@cs_calibration)); each
    /// pointer may be NULL.
    pub fn cs_calibration(
        model: *const cs_model,
        temperature: *mut f64,
        mixing: *mut f64,
        source: *mut i32,
    ) -> cs_status;
    /// Notes of the last fit: an OR of [`cs_fit_note`] bits.
    pub fn cs_fit_notes(model: *const cs_model, notes: *mut i32) -> cs_status;
    /// Dimension of the points of the last fit (0 when not a points fit).
    pub fn cs_n_dims(model: *const cs_model, d: *mut usize) -> cs_status;
    /// Cluster centres of a points fit, k x d row-major.
    pub fn cs_centres(model: *const cs_model, centres: *mut f64, capacity: usize) -> cs_status;
    /// Within- and between-community edge densities of a graph fit (either pointer may
    /// be NULL).
    pub fn cs_graph_densities(
        model: *const cs_model,
        within: *mut f64,
        between: *mut f64,
    ) -> cs_status;

    /// A method-specific estimate of the last fit by name (rows x cols, row-major);
    /// `values` may be NULL to ask for the shape only.
    pub fn cs_estimate(
        model: *const cs_model,
        name: *const c_char,
        values: *mut f64,
        capacity: usize,
        rows: *mut usize,
        cols: *mut usize,
    ) -> cs_status;
    /// Krippendorff's alpha of (item, label) pairs and the k x k coincidence matrix.
    pub fn cs_agreement(
        model: *mut cs_model,
        item: *const i32,
        label: *const i32,
        n_labels: usize,
        alpha: *mut f64,
        coincidence: *mut f64,
        capacity: usize,
    ) -> cs_status;
    /// Uncertainty (entropy of the skill-weighted votes) by item or worker
    /// ([`cs_measure_by`]).
    pub fn cs_uncertainty(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        label: *const i32,
        n_labels: usize,
        skill: *const f64,
        n_skills: usize,
        by: i32,
        values: *mut f64,
        capacity: usize,
    ) -> cs_status;
    /// Consistency of the labels with given aggregate labels under the workers' skills.
    pub fn cs_consistency(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        label: *const i32,
        n_labels: usize,
        skill: *const f64,
        n_skills: usize,
        aggregate: *const i32,
        n_aggregate: usize,
        values: *mut f64,
        capacity: usize,
    ) -> cs_status;
    /// Each worker's share of labels that agree with given aggregate labels, and overall.
    pub fn cs_accuracy_on_aggregates(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        label: *const i32,
        n_labels: usize,
        aggregate: *const i32,
        n_aggregate: usize,
        values: *mut f64,
        capacity: usize,
        overall: *mut f64,
    ) -> cs_status;
    /// Numbers n strings (NUL-separated in `text`, or cut at `offsets`) by a hash table:
    /// codes, the first occurrence of each distinct string, their number.
    pub fn cs_intern_strings(
        model: *mut cs_model,
        text: *const c_char,
        text_size: usize,
        offsets: *const i64,
        n: usize,
        sorted: i32,
        codes: *mut i32,
        first: *mut i64,
        n_distinct: *mut usize,
    ) -> cs_status;
    /// Numbers n 64-bit integer keys by a hash table (since 0.2): codes (in ascending key
    /// order when `sorted`), the first occurrence of each distinct key, their number.
    pub fn cs_intern_integers(
        model: *mut cs_model,
        keys: *const i64,
        n: usize,
        sorted: i32,
        codes: *mut i32,
        first: *mut i64,
        n_distinct: *mut usize,
    ) -> cs_status;
    /// Posterior median grade of each item (ordered classes only), n_items values.
    pub fn cs_median_grades(model: *const cs_model, grades: *mut i32, capacity: usize) -> cs_status;
    /// Posterior mean grade of each item (ordered classes only), n_items values.
    pub fn cs_mean_grades(model: *const cs_model, grades: *mut f64, capacity: usize) -> cs_status;
    /// Rank items from pairwise comparisons (since 0.2): worker (may be NULL), left and
    /// right item ids and [`cs_answer`] values, `n` of each.
    pub fn cs_fit_comparisons(
        model: *mut cs_model,
        worker: *const i32,
        left: *const i32,
        right: *const i32,
        answer: *const i32,
        n: usize,
    ) -> cs_status;

    /// Scores, standard errors and ranks of a comparisons fit (any pointer may be NULL).
    pub fn cs_scores(
        model: *const cs_model,
        score: *mut f64,
        se: *mut f64,
        rank: *mut i32,
        capacity: usize,
    ) -> cs_status;

    /// Each worker's reliability in a noisy-bt or crowd-bt fit.
    pub fn cs_worker_reliability(model: *const cs_model, reliability: *mut f64, capacity: usize) -> cs_status;
    /// Fit numeric answers (item, worker, value) (since 0.2).
    pub fn cs_fit_numbers(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        value: *const f64,
        n_answers: usize,
    ) -> cs_status;
    /// The estimate and standard error of every item of a numbers fit (either may be NULL).
    pub fn cs_number_estimates(model: *const cs_model, value: *mut f64, se: *mut f64, capacity: usize)
        -> cs_status;
    /// Each worker's bias and noise in a numbers fit (either may be NULL).
    pub fn cs_number_workers(model: *const cs_model, bias: *mut f64, noise: *mut f64, capacity: usize)
        -> cs_status;
    /// Fit sets of tags: answer t's tags are `tag[tag_start[t] .. tag_start[t + 1])` (since 0.2).
    pub fn cs_fit_tags(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        tag_start: *const i64,
        tag: *const i32,
        n_answers: usize,
        n_tags: i32,
    ) -> cs_status;
    /// Number of tags of the last tags fit.
    pub fn cs_n_tags(model: *const cs_model, n: *mut usize) -> cs_status;
    /// P(tag applies), n_items x n_tags row-major.
    pub fn cs_tag_probabilities(model: *const cs_model, p: *mut f64, capacity: usize) -> cs_status;
    /// The tag sets at thresholds (NULL and 0: 0.5; 1 value; or n_tags values).
    pub fn cs_tag_sets(
        model: *const cs_model,
        threshold: *const f64,
        n_threshold: usize,
        member: *mut i32,
        capacity: usize,
    ) -> cs_status;
    /// Each worker's sensitivity and specificity per tag, n_workers x n_tags (either may be NULL).
    pub fn cs_tag_workers(
        model: *const cs_model,
        sensitivity: *mut f64,
        specificity: *mut f64,
        capacity: usize,
    ) -> cs_status;
    /// A classifier's probabilities for the next crowd fits: n_rows rows of k values, row r
    /// for item `item[r]` (item NULL: row r is item r); n_rows = 0 clears them.
    pub fn cs_set_model_probs(
        model: *mut cs_model,
        item: *const i32,
        probs: *const f64,
        n_rows: usize,
        k: i32,
    ) -> cs_status;
    /// The classifier's k x k confusion matrix EM estimated in the last fit.
    pub fn cs_model_confusion(model: *const cs_model, confusion: *mut f64, capacity: usize) -> cs_status;
    /// [`cs_predict`] with a classifier's rows for items of the batch (batch item ids;
    /// model_item NULL: row r is item r), weighed by the classifier's matrix of the fit.
    pub fn cs_predict_model_probs(
        model: *mut cs_model,
        item: *const i32,
        worker: *const i32,
        label: *const i32,
        n_labels: usize,
        model_item: *const i32,
        probs: *const f64,
        n_rows: usize,
    ) -> cs_status;
    /// Each item's "label next" score, n_items values.
    pub fn cs_label_next(model: *const cs_model, scores: *mut f64, capacity: usize) -> cs_status;
    /// The posterior probability that each of n given labels is wrong.
    pub fn cs_label_wrong(
        model: *const cs_model,
        item: *const i32,
        label: *const i32,
        n: usize,
        wrong: *mut f64,
    ) -> cs_status;
    /// Per worker: spammer score, worst class, accuracy and its 95 % interval (any may be NULL).
    pub fn cs_worker_diagnostics(
        model: *const cs_model,
        spammer: *mut f64,
        worst_class: *mut i32,
        accuracy: *mut f64,
        low: *mut f64,
        high: *mut f64,
        capacity: usize,
    ) -> cs_status;
}
