// SPDX-License-Identifier: MIT
//! Raw declarations of the C API of libcrowdspec (`include/crowdspec/crowdspec.h`).
//!
//! Every function, enum value and version macro of the header has a counterpart
//! here, written by hand with the same name, and a test (`tests/header.rs`) parses the
//! header and checks both directions: every `CS_API` function is declared with the
//! same parameter and return types, nothing extra is declared, and every constant has
//! the header's value.
//!
//! Everything here is `unsafe` to call and follows the C conventions: status codes
//! (`CS_OK` = 0, negative on failure), caller-owned output buffers with a capacity
//! in elements, 0-based `i32` ids, row-major matrices. The safe API is the
//! `crowdspec` crate.
//!
//! C enums are passed as `int32_t` values by the header, so each enum is a type alias
//! of [`i32`] and its values are constants of that alias.
//!
//! # Linking
//!
//! The build script links `libcrowdspec` found by, in order:
//! 1. `CROWDSPEC_LIB_DIR`: the directory holding `libcrowdspec.so` (or `.a`);
//! 2. the `pkg-config` program (`PKG_CONFIG` names another one), package `crowdspec`.
//!
//! `CROWDSPEC_STATIC=1` links `libcrowdspec.a` instead, with the C++ runtime, OpenMP
//! and BLAS/LAPACKE that `pkg-config --static` lists. For a shared library the
//! directory is written into the test and example binaries as an rpath, and given to
//! dependent crates' build scripts as `DEP_CROWDSPEC_LIBDIR` (the `links` metadata
//! `libdir`), so that they can do the same.
#![allow(non_camel_case_types)]
#![deny(missing_docs)]

use std::os::raw::c_void;

mod functions;
mod saved;
pub use functions::*;
pub use saved::*;

/// Result of a call: [`CS_OK`] (0) on success, a negative code on failure.
pub type cs_status = i32;

/// The values a [`cs_status`] takes (the header's `enum cs_status_code`).
pub type cs_status_code = i32;
/// Success.
pub const CS_OK: cs_status_code = 0;
/// The model handle is NULL.
pub const CS_ERR_NULL_HANDLE: cs_status_code = -1;
/// A required pointer argument is NULL.
pub const CS_ERR_NULL_POINTER: cs_status_code = -2;
/// An argument is invalid (the message says which).
pub const CS_ERR_INVALID_ARGUMENT: cs_status_code = -3;
/// No parameter has this id or name.
pub const CS_ERR_UNKNOWN_PARAM: cs_status_code = -4;
/// A parameter value is outside its documented range.
pub const CS_ERR_PARAM_RANGE: cs_status_code = -5;
/// No method has this id or name.
pub const CS_ERR_UNKNOWN_METHOD: cs_status_code = -6;
/// No labels, points or edges were given.
pub const CS_ERR_EMPTY_INPUT: cs_status_code = -7;
/// An item or worker id is negative or not below its declared count.
pub const CS_ERR_INVALID_ID: cs_status_code = -8;
/// A label is negative or not below the number of classes.
pub const CS_ERR_INVALID_LABEL: cs_status_code = -9;
/// Fewer than two classes.
pub const CS_ERR_TOO_FEW_CLASSES: cs_status_code = -10;
/// A worker labelled the same item twice (see [`CS_PARAM_DUPLICATES`]).
pub const CS_ERR_DUPLICATE: cs_status_code = -11;
/// An output buffer is smaller than the result.
pub const CS_ERR_BUFFER_TOO_SMALL: cs_status_code = -12;
/// A result was asked for before a successful fit.
pub const CS_ERR_NOT_FITTED: cs_status_code = -13;
/// The progress callback stopped the fit; the last completed iteration is kept.
pub const CS_ERR_CANCELLED: cs_status_code = -14;
/// An allocation failed; the handle stays valid.
pub const CS_ERR_OUT_OF_MEMORY: cs_status_code = -15;
/// An unexpected internal failure (a bug in the library).
pub const CS_ERR_INTERNAL: cs_status_code = -16;
/// The method does not take this kind of input.
pub const CS_ERR_WRONG_INPUT_KIND: cs_status_code = -17;
/// A point coordinate is NaN, infinite or larger in magnitude than 1e100.
pub const CS_ERR_NON_FINITE: cs_status_code = -18;
/// The number of classes exceeds the number of points or nodes.
pub const CS_ERR_TOO_MANY_CLASSES: cs_status_code = -19;
/// The input's sizes exceed a limit of the library's layout (n_workers x k >= 2^32).
pub const CS_ERR_TOO_LARGE: cs_status_code = -20;
/// Another call is running on the same handle (another thread); nothing was done.
pub const CS_ERR_BUSY: cs_status_code = -21;
/// [`cs_fit_comparisons`]: an answer is not a [`cs_answer`] value (since 0.2).
pub const CS_ERR_INVALID_ANSWER: cs_status_code = -24;
/// [`cs_fit_comparisons`] without a prior: the maximum-likelihood scores do not exist
/// (the comparison graph is not strongly connected; since 0.2).
pub const CS_ERR_NOT_CONNECTED: cs_status_code = -25;

/// Inference methods (the header's `enum cs_method`), values of [`CS_PARAM_METHOD`].
/// 1-99 take crowd labels, 100-199 points, 200-299 graphs.
pub type cs_method = i32;
/// `"mv"`: majority vote, ties to the lowest class index.
pub const CS_METHOD_MV: cs_method = 1;
/// `"ds"`: Dawid-Skene EM from the soft majority vote.
pub const CS_METHOD_DS: cs_method = 2;
/// `"opt-ds"`: spectral estimate of the confusion matrices, then Dawid-Skene EM (the default).
pub const CS_METHOD_OPT_DS: cs_method = 3;
/// `"crowd-lloyd"`: Lloyd's algorithm on one-hot labels.
pub const CS_METHOD_CROWD_LLOYD: cs_method = 4;
/// `"kos"`: spectral Karger-Oh-Shah (a baseline).
pub const CS_METHOD_KOS: cs_method = 5;
/// `"kos-mp"`: message-passing Karger-Oh-Shah (a baseline).
pub const CS_METHOD_KOS_MP: cs_method = 6;
/// `"ghosh-svd"`: top singular vector of the label matrix (a baseline).
pub const CS_METHOD_GHOSH_SVD: cs_method = 7;
/// `"eigen-ratio"`: ratio of worker-agreement eigenvectors (a baseline).
pub const CS_METHOD_EIGEN_RATIO: cs_method = 8;
/// `"one-coin-ds"`: Dawid-Skene EM with one accuracy per worker.
pub const CS_METHOD_ONE_COIN_DS: cs_method = 9;
/// `"class-one-coin-ds"`: Dawid-Skene EM with one accuracy per worker and class.
pub const CS_METHOD_CLASS_ONE_COIN_DS: cs_method = 10;
/// `"wawa"`: majority vote reweighted by each worker's agreement with it.
pub const CS_METHOD_WAWA: cs_method = 11;
/// `"zbs"`: Zero-Based Skill, skills stepped towards agreement with the weighted vote.
pub const CS_METHOD_ZBS: cs_method = 12;
/// `"glad"`: GLAD, worker abilities and item difficulties (MAP-EM).
pub const CS_METHOD_GLAD: cs_method = 13;
/// `"mace"`: MACE, each worker knows the answer or spams (variational Bayes).
pub const CS_METHOD_MACE: cs_method = 14;
/// `"m-msr"`: M-MSR, one-coin skills by robust rank-one matrix completion.
pub const CS_METHOD_M_MSR: cs_method = 15;
/// `"ebcc"`: Enhanced Bayesian Classifier Combination (subtype mixtures, variational Bayes).
pub const CS_METHOD_EBCC: cs_method = 16;
/// `"bcc"`: Bayesian Classifier Combination (variational Bayes; ebcc with one subtype).
pub const CS_METHOD_BCC: cs_method = 17;
/// `"bwa"`: Bayesian Weighted Average (one-vs-rest, per-class worker precisions, closed form).
pub const CS_METHOD_BWA: cs_method = 18;
/// `"la"`: LA two-pass (online worker abilities, then a second weighted vote).
pub const CS_METHOD_LA: cs_method = 19;
/// `"la-onepass"`: LA one-pass (each item decided once, online).
pub const CS_METHOD_LA_ONEPASS: cs_method = 20;
/// `"auto"` (the default since 0.2): Dawid-Skene EM with each worker's confusion rows under
/// a prior centred on the workers of like activity ([`CS_SMOOTHING_CENTER_STRATA`]), then
/// calibrated posteriors ([`CS_PARAM_CALIBRATION`]).
pub const CS_METHOD_AUTO: cs_method = 24;
/// `"minimax-entropy"`: minimax conditional entropy, worker and item confusion matrices.
pub const CS_METHOD_MINIMAX_ENTROPY: cs_method = 21;
/// `"ordinal-minimax"`: the ordinal minimax conditional entropy model (ordered grades).
pub const CS_METHOD_ORDINAL_MINIMAX: cs_method = 22;
/// `"ordinal-ds"`: Dawid-Skene with ordered-logit workers (a bias and a noise each).
pub const CS_METHOD_ORDINAL_DS: cs_method = 23;
/// `"crowdlab"` (since 0.2): CROWDLAB, a weighted ensemble of a classifier's probabilities
/// ([`cs_set_model_probs`]) and the labels (Goh, Tkachenko, Mueller 2022).
pub const CS_METHOD_CROWDLAB: cs_method = 25;
/// `"lloyd"` (points): spectral initialisation, then Lloyd iterations.
pub const CS_METHOD_LLOYD: cs_method = 100;
/// `"kmeans++"` (points): k-means++ seeding and Lloyd iterations.
pub const CS_METHOD_KMEANS_PP: cs_method = 101;
/// `"commu-lloyd"` (graphs): trimmed spectral initialisation, then CommuLloyd.
pub const CS_METHOD_COMMU_LLOYD: cs_method = 200;
/// `"spec"` (graphs): the spectral initialisation alone.
pub const CS_METHOD_SPEC: cs_method = 201;
/// `"spec-mle"` (graphs): the spectral initialisation and one likelihood step.
pub const CS_METHOD_SPEC_MLE: cs_method = 202;
/// `"bt"` (comparisons, since 0.2): Bradley-Terry by MM, Davidson ties, a weak prior.
pub const CS_METHOD_BT: cs_method = 300;
/// `"noisy-bt"` (comparisons): crowd-kit's NoisyBradleyTerry model (skill, bias), EM.
pub const CS_METHOD_NOISY_BT: cs_method = 301;
/// `"crowd-bt"` (comparisons): Crowd-BT (Chen et al. 2013), each worker's eta, EM.
pub const CS_METHOD_CROWD_BT: cs_method = 302;
/// `"mean"` (numbers, since 0.2): the mean of each item's answers.
pub const CS_METHOD_MEAN: cs_method = 400;
/// `"median"` (numbers): the median of each item's answers.
pub const CS_METHOD_MEDIAN: cs_method = 401;
/// `"gaussian"` (numbers): a bias and a noise per worker, Gaussian (Raykar et al.).
pub const CS_METHOD_GAUSSIAN: cs_method = 402;
/// `"catd"` (numbers): confidence-aware truth discovery (Li et al., PVLDB 2014).
pub const CS_METHOD_CATD: cs_method = 403;
/// `"crh"` (numbers): CRH / PM truth discovery (Li et al., SIGMOD 2014).
pub const CS_METHOD_CRH: cs_method = 404;
/// `"student-t"` (numbers; the default): the gaussian model with Student-t noise.
pub const CS_METHOD_STUDENT_T: cs_method = 405;
/// `"trimmed-mean"` (numbers): each item's mean without its extreme answers.
pub const CS_METHOD_TRIMMED_MEAN: cs_method = 406;
/// `"tag-pooled"` (tags, since 0.2; the default): per-tag D&S with pooled worker rates.
pub const CS_METHOD_TAG_POOLED: cs_method = 500;

/// Kinds of input a method takes (the header's `enum cs_input_kind`).
pub type cs_input_kind = i32;
/// Crowd labels as (item, worker, label) triples: [`cs_fit`].
pub const CS_INPUT_CROWD: cs_input_kind = 1;
/// Points in R^d: [`cs_fit_points`].
pub const CS_INPUT_POINTS: cs_input_kind = 2;
/// An undirected graph as an edge list: [`cs_fit_graph`].
pub const CS_INPUT_GRAPH: cs_input_kind = 3;
/// Pairwise comparisons: [`cs_fit_comparisons`] (since 0.2).
pub const CS_INPUT_COMPARISONS: cs_input_kind = 4;
/// Sets of tags (since 0.2): [`cs_fit_tags`].
pub const CS_INPUT_TAGS: cs_input_kind = 5;
/// Real answers (since 0.2): [`cs_fit_numbers`].
pub const CS_INPUT_NUMBERS: cs_input_kind = 6;

/// Parameter ids (the header's `enum cs_param`); the header documents each one's type,
/// default and range.
pub type cs_param = i32;
/// int `"method"`: a [`cs_method`]; default [`CS_METHOD_AUTO`] ([`CS_METHOD_OPT_DS`] before 0.2).
pub const CS_PARAM_METHOD: cs_param = 1;
/// int `"classes"`: number of classes k; 0 infers it from the labels.
pub const CS_PARAM_CLASSES: cs_param = 2;
/// int `"items"`: number of items; 0 infers it from the ids.
pub const CS_PARAM_ITEMS: cs_param = 3;
/// int `"workers"`: number of workers; 0 infers it from the ids.
pub const CS_PARAM_WORKERS: cs_param = 4;
/// int `"seed"`: seed of every random choice.
pub const CS_PARAM_SEED: cs_param = 5;
/// int `"threads"`: threads a fit may use; 0 = automatic (up to all cores, chosen from the work size).
pub const CS_PARAM_THREADS: cs_param = 6;
/// int `"duplicates"`: a [`cs_duplicates`] value.
pub const CS_PARAM_DUPLICATES: cs_param = 7;
/// int `"max_iter"`: maximum EM (or Lloyd) iterations.
pub const CS_PARAM_MAX_ITER: cs_param = 100;
/// double `"tol"`: relative log-likelihood change that stops EM.
pub const CS_PARAM_TOL: cs_param = 101;
/// int `"confusion"`: a [`cs_confusion_model`] value.
pub const CS_PARAM_CONFUSION: cs_param = 102;
/// int `"prior"`: a [`cs_prior`] value.
pub const CS_PARAM_PRIOR: cs_param = 103;
/// double `"smoothing"`: pseudo-count added to every confusion count.
pub const CS_PARAM_SMOOTHING: cs_param = 104;
/// int `"support"`: a [`cs_support`] value.
pub const CS_PARAM_SUPPORT: cs_param = 105;
/// int `"accel"`: a [`cs_accel`] value.
pub const CS_PARAM_ACCEL: cs_param = 106;
/// int `"identify"`: a [`cs_identify`] value.
pub const CS_PARAM_IDENTIFY: cs_param = 107;
/// double `"delta"`: Opt-D&S floor of the spectral confusion entries.
pub const CS_PARAM_DELTA: cs_param = 200;
/// int `"power_starts"`: random starts of the tensor power method.
pub const CS_PARAM_POWER_STARTS: cs_param = 201;
/// int `"power_iters"`: power iterations per start.
pub const CS_PARAM_POWER_ITERS: cs_param = 202;
/// int `"groups"`: a [`cs_groups`] value.
pub const CS_PARAM_GROUPS: cs_param = 203;
/// int `"starts"`: EM starts of opt-ds.
pub const CS_PARAM_STARTS: cs_param = 204;
/// int `"start_rounds"`: EM rounds of every start before the best continues.
pub const CS_PARAM_START_ROUNDS: cs_param = 205;
/// int `"n_init"`: k-means++ restarts.
pub const CS_PARAM_N_INIT: cs_param = 400;
/// double `"trim"`: degree threshold (times the mean degree) of the graph trimming.
pub const CS_PARAM_TRIM: cs_param = 401;
/// int `"smoothing_center"`: where the M-step's confusion prior is centred.
pub const CS_PARAM_SMOOTHING_CENTER: cs_param = 550;
/// double `"smoothing_strength"`: pseudo-labels per row of the pooled prior (0 = k).
pub const CS_PARAM_SMOOTHING_STRENGTH: cs_param = 551;
/// int `"subtypes"`: ebcc's subtypes per class.
pub const CS_PARAM_SUBTYPES: cs_param = 552;
/// double `"subtype_concentration"`: ebcc's a_pi.
pub const CS_PARAM_SUBTYPE_CONCENTRATION: cs_param = 553;
/// double `"class_concentration"`: the Dirichlet alpha of the class proportions (bcc, ebcc).
pub const CS_PARAM_CLASS_CONCENTRATION: cs_param = 554;
/// double `"confusion_diagonal"`: a_v, the Dirichlet parameter of a row's own class (bcc, ebcc).
pub const CS_PARAM_CONFUSION_DIAGONAL: cs_param = 555;
/// double `"confusion_off_diagonal"`: b_v, that of every other class (bcc, ebcc).
pub const CS_PARAM_CONFUSION_OFF_DIAGONAL: cs_param = 556;
/// double `"bwa_strength"`: bwa's a_v, prior pseudo-labels of a worker's variance.
pub const CS_PARAM_BWA_STRENGTH: cs_param = 610;
/// double `"bwa_item_precision"`: bwa's lambda, prior precision of an item's score.
pub const CS_PARAM_BWA_ITEM_PRECISION: cs_param = 611;
/// int `"bwa_prior_correction"`: 1 (`"on"`) scales bwa's prior variance by 4 (1 - 1/k), 0 (`"off"`) not.
pub const CS_PARAM_BWA_PRIOR_CORRECTION: cs_param = 612;
/// double `"la_alpha"`: alpha of LA's Beta ability prior.
pub const CS_PARAM_LA_ALPHA: cs_param = 613;
/// double `"la_beta"`: beta of LA's Beta ability prior.
pub const CS_PARAM_LA_BETA: cs_param = 614;
/// int `"la_order"`: a [`cs_la_order`] value.
pub const CS_PARAM_LA_ORDER: cs_param = 615;
/// int `"calibration"`: a [`cs_calibration`](tyalias@cs_calibration) value, how the
/// Dawid-Skene family's posteriors are calibrated (default [`CS_CALIBRATION_AUTO`]).
pub const CS_PARAM_CALIBRATION: cs_param = 620;
/// int `"ordinal"`: 1 = the classes are grades ordered by index (posterior grades).
pub const CS_PARAM_ORDINAL: cs_param = 600;
/// double `"gamma"`: the minimax methods' regularisation (0 = cross-validated).
pub const CS_PARAM_GAMMA: cs_param = 601;
/// int `"cv_folds"`: folds of the cross-validation that chooses gamma.
pub const CS_PARAM_CV_FOLDS: cs_param = 602;
/// int `"minimax_start"`: where the minimax methods start, a [`cs_minimax_start`].
pub const CS_PARAM_MINIMAX_START: cs_param = 603;

/// Values of [`CS_PARAM_MINIMAX_START`].
pub type cs_minimax_start = i32;
/// `"vote"`: the soft majority vote (the paper's start).
pub const CS_MINIMAX_START_VOTE: cs_minimax_start = 0;
/// `"ds"`: the posteriors of a ds fit.
pub const CS_MINIMAX_START_DS: cs_minimax_start = 1;
/// double `"comparison_prior"` (since 0.2): lambda, virtual wins and losses of every item.
pub const CS_PARAM_COMPARISON_PRIOR: cs_param = 670;
/// int `"ties"` (since 0.2): a [`cs_ties`] value.
pub const CS_PARAM_TIES: cs_param = 671;
/// int `"se_items"` (since 0.2): exact standard errors up to this many items.
pub const CS_PARAM_SE_ITEMS: cs_param = 672;
/// double `"crowd_bt_alpha"` (since 0.2): alpha of crowd-bt's Beta prior of eta.
pub const CS_PARAM_CROWD_BT_ALPHA: cs_param = 673;
/// double `"crowd_bt_beta"` (since 0.2): beta of crowd-bt's Beta prior of eta.
pub const CS_PARAM_CROWD_BT_BETA: cs_param = 674;
/// double `"score_tol"` (since 0.2): a comparison fit stops when no score moved by more
/// than this many of its smallest possible standard errors in an iteration (0 = off).
pub const CS_PARAM_SCORE_TOL: cs_param = 675;

/// Values of [`CS_PARAM_TIES`] (since 0.2).
pub type cs_ties = i32;
/// `"auto"`: davidson for bt, ignore for noisy-bt and crowd-bt.
pub const CS_TIES_AUTO: cs_ties = 0;
/// `"davidson"`: Davidson's tie model (bt only).
pub const CS_TIES_DAVIDSON: cs_ties = 1;
/// `"half"`: half a win for each item.
pub const CS_TIES_HALF: cs_ties = 2;
/// `"ignore"`: ties dropped.
pub const CS_TIES_IGNORE: cs_ties = 3;

/// The answer of one comparison ([`cs_fit_comparisons`], since 0.2).
pub type cs_answer = i32;
/// The left item won.
pub const CS_ANSWER_LEFT: cs_answer = 0;
/// The right item won.
pub const CS_ANSWER_RIGHT: cs_answer = 1;
/// A tie.
pub const CS_ANSWER_TIE: cs_answer = 2;
/// int `"worker_bias"` (since 0.2): an additive bias per worker in gaussian and student-t (1 on).
pub const CS_PARAM_WORKER_BIAS: cs_param = 680;
/// double `"t_dof"`: degrees of freedom of student-t (default 8).
pub const CS_PARAM_T_DOF: cs_param = 681;
/// double `"catd_alpha"`: alpha of catd's confidence interval (default 0.05).
pub const CS_PARAM_CATD_ALPHA: cs_param = 682;
/// double `"variance_prior"`: a_0 of the inverse-gamma prior on a worker's variance (default 2).
pub const CS_PARAM_VARIANCE_PRIOR: cs_param = 683;
/// double `"trim_fraction"`: share trimmed at either end by trimmed-mean (default 0.2).
pub const CS_PARAM_TRIM_FRACTION: cs_param = 684;

/// Values of [`CS_PARAM_CONFUSION`].
pub type cs_confusion_model = i32;
/// `"full"`: a free k x k matrix per worker.
pub const CS_CONFUSION_FULL: cs_confusion_model = 0;
/// `"one-coin"`: one accuracy per worker, uniform errors.
pub const CS_CONFUSION_ONE_COIN: cs_confusion_model = 1;
/// `"class-one-coin"`: one accuracy per worker and true class.
pub const CS_CONFUSION_CLASS_ONE_COIN: cs_confusion_model = 2;

/// Values of [`CS_PARAM_PRIOR`].
pub type cs_prior = i32;
/// `"uniform"`: every class has probability 1/k.
pub const CS_PRIOR_UNIFORM: cs_prior = 0;
/// `"estimated"`: class frequencies estimated in every M-step.
pub const CS_PRIOR_ESTIMATED: cs_prior = 1;

/// Values of [`CS_PARAM_SUPPORT`].
pub type cs_support = i32;
/// `"all"`: every class is possible for every item.
pub const CS_SUPPORT_ALL: cs_support = 0;
/// `"answered"`: only the classes some worker gave the item.
pub const CS_SUPPORT_ANSWERED: cs_support = 1;
/// `"auto"`: answered for k >= 3, all for k = 2.
pub const CS_SUPPORT_AUTO: cs_support = 2;

/// Values of [`CS_PARAM_ACCEL`].
pub type cs_accel = i32;
/// `"none"`: plain EM.
pub const CS_ACCEL_NONE: cs_accel = 0;
/// `"squarem"`: squared extrapolation with the monotone safeguard.
pub const CS_ACCEL_SQUAREM: cs_accel = 1;

/// Values of [`CS_PARAM_IDENTIFY`].
pub type cs_identify = i32;
/// `"vote"`: classes named by agreement with the soft majority vote.
pub const CS_IDENTIFY_VOTE: cs_identify = 0;
/// `"reference"`: the reference code's rules.
pub const CS_IDENTIFY_REFERENCE: cs_identify = 1;

/// Values of [`CS_PARAM_GROUPS`].
pub type cs_groups = i32;
/// `"balanced"`: worker groups balanced in label volume.
pub const CS_GROUPS_BALANCED: cs_groups = 0;
/// `"reference"`: worker i in group i mod 3.
pub const CS_GROUPS_REFERENCE: cs_groups = 1;

/// Values of [`CS_PARAM_SMOOTHING_CENTER`].
pub type cs_smoothing_center = i32;
/// `"uniform"`: only the smoothing pseudo-count, on every entry.
pub const CS_SMOOTHING_CENTER_UNIFORM: cs_smoothing_center = 0;
/// `"pooled"`: also pseudo-labels spread as the crowd's pooled confusion row.
pub const CS_SMOOTHING_CENTER_POOLED: cs_smoothing_center = 1;
/// `"strata"`: pseudo-labels spread as the pooled rows of the worker's activity stratum
/// (the prior of [`CS_METHOD_AUTO`]).
pub const CS_SMOOTHING_CENTER_STRATA: cs_smoothing_center = 2;

/// Values of [`CS_PARAM_CALIBRATION`], and the source [`cs_calibration()`] reports.
pub type cs_calibration = i32;
/// `"none"`: the model's posterior as it is (T = 1).
pub const CS_CALIBRATION_NONE: cs_calibration = 0;
/// `"auto"`: from gold items when there are at least 10, else from held-out labels (a
/// parameter value only).
pub const CS_CALIBRATION_AUTO: cs_calibration = 1;
/// `"labels"`: from held-out labels, even with gold.
pub const CS_CALIBRATION_LABELS: cs_calibration = 2;
/// Reported by [`cs_calibration()`] when gold items calibrated the fit.
pub const CS_CALIBRATION_GOLD: cs_calibration = 3;

/// For [`cs_uncertainty`]: what each value is about.
pub type cs_measure_by = i32;
/// One value per item.
pub const CS_BY_ITEM: cs_measure_by = 0;
/// One value per worker.
pub const CS_BY_WORKER: cs_measure_by = 1;

/// Values of [`CS_PARAM_LA_ORDER`].
pub type cs_la_order = i32;
/// `"random"`: a permutation of the items drawn from the seed.
pub const CS_LA_ORDER_RANDOM: cs_la_order = 0;
/// `"items"`: increasing item id (the arrival order of a stream).
pub const CS_LA_ORDER_ITEMS: cs_la_order = 1;

/// Values of [`CS_PARAM_DUPLICATES`].
pub type cs_duplicates = i32;
/// `"reject"`: [`cs_fit`] fails with [`CS_ERR_DUPLICATE`].
pub const CS_DUPLICATES_REJECT: cs_duplicates = 0;
/// `"first"`: keep a worker's first label of an item.
pub const CS_DUPLICATES_KEEP_FIRST: cs_duplicates = 1;
/// `"last"`: keep a worker's last label of an item.
pub const CS_DUPLICATES_KEEP_LAST: cs_duplicates = 2;

/// Bits of [`cs_fit_notes`] (the header's `enum cs_fit_note`).
pub type cs_fit_note = i32;
/// The fit stopped at max_iter before meeting tol.
pub const CS_NOTE_MAX_ITER_REACHED: cs_fit_note = 1;
/// A spectral stage fell back to the majority vote for some workers or splits.
pub const CS_NOTE_SPECTRAL_FALLBACK: cs_fit_note = 2;
/// Some items had zero likelihood under every class.
pub const CS_NOTE_IMPOSSIBLE_ITEMS: cs_fit_note = 4;
/// Some items have no labels.
pub const CS_NOTE_UNLABELED_ITEMS: cs_fit_note = 8;
/// The progress callback cancelled the fit.
pub const CS_NOTE_CANCELLED: cs_fit_note = 16;
/// Self-loops or repeated edges were ignored.
pub const CS_NOTE_IGNORED_EDGES: cs_fit_note = 32;
/// Some nodes have no edge.
pub const CS_NOTE_ISOLATED_NODES: cs_fit_note = 64;
/// A Lloyd iteration left a cluster empty and it was re-seeded.
pub const CS_NOTE_EMPTY_CLUSTER: cs_fit_note = 128;
/// CommuLloyd's labels alternated between two states.
pub const CS_NOTE_LABEL_CYCLE: cs_fit_note = 256;
/// A spectral eigensolver did not reach its tolerance.
pub const CS_NOTE_EIGEN_NOT_CONVERGED: cs_fit_note = 512;
/// opt-ds kept the fit of its majority-vote start.
pub const CS_NOTE_MAJORITY_START: cs_fit_note = 1024;
/// [`cs_predict`]: some workers of the batch were not in the fit (the average worker
/// stood in for them).
pub const CS_NOTE_UNKNOWN_WORKERS: cs_fit_note = 65536;
/// EM ended at a degenerate maximum; the items it left undecided fell back to
/// majority vote among the classes no confusion matrix tells apart.
pub const CS_NOTE_DEGENERATE_MAXIMUM: cs_fit_note = 131072;
/// [`cs_fit_comparisons`]: more items than `se_items`, so the standard errors are the
/// O(pairs) approximation (since 0.2).
pub const CS_NOTE_APPROXIMATE_SE: cs_fit_note = 4194304;
/// cs_fit_numbers (since 0.2): some workers' noise variance reached its floor.
pub const CS_NOTE_VARIANCE_FLOOR: cs_fit_note = 8388608;
/// crowdlab ran without model probabilities or without an item of two labels (a fallback).
pub const CS_NOTE_CROWDLAB_FALLBACK: cs_fit_note = 33554432;

/// `CS_VERSION_MAJOR` of the header these declarations follow.
pub const CS_VERSION_MAJOR: i32 = 0;
/// `CS_VERSION_MINOR` of the header these declarations follow.
pub const CS_VERSION_MINOR: i32 = 2;
/// `CS_VERSION_PATCH` of the header these declarations follow.
pub const CS_VERSION_PATCH: i32 = 0;
/// `CS_VERSION_NUMBER`: MAJOR * 10000 + MINOR * 100 + PATCH. Compare with
/// [`cs_version_number`] to detect a header/library mismatch.
pub const CS_VERSION_NUMBER: i32 =
    CS_VERSION_MAJOR * 10000 + CS_VERSION_MINOR * 100 + CS_VERSION_PATCH;

/// The opaque model handle (`cs_model` in C). Only ever used behind a pointer made by
/// [`cs_create`]; it cannot be built, moved or sized in Rust.
#[repr(C)]
pub struct cs_model {
    _opaque: [u8; 0],
    _not_send_sync_unpin: std::marker::PhantomData<(*mut u8, std::marker::PhantomPinned)>,
}

/// Progress callback (`cs_progress_fn`): called with the `user` pointer given to
/// [`cs_set_progress`], the completed iterations and the current objective; a non-zero
/// return cancels the fit. It must not unwind: a Rust callback has to catch panics.
pub type cs_progress_fn =
    Option<unsafe extern "C" fn(user: *mut c_void, iteration: i32, objective: f64) -> i32>;
