/* SPDX-License-Identifier: MIT */
/**
 * @file crowdspec.h
 * @brief crowdspec: recover true labels from noisy crowd labels (plain C API).
 *
 * crowdspec infers each item's true class and each worker's confusion matrix from
 * crowd labels given as (item, worker, label) triples, with the "spectral
 * initialisation + EM" method of Zhang, Chen, Zhou and Jordan (Opt-D&S) and related
 * methods (majority vote, Dawid-Skene EM and its one-coin variants, CrowdLloyd, the
 * spectral baselines KOS, Ghosh-SVD and EigenRatio, crowd-kit's Wawa, Zero-Based
 * Skill, GLAD, MACE and M-MSR, and the variational Bayes methods BCC and EBCC). The
 * same handle clusters points
 * of a sub-Gaussian mixture (cs_fit_points(): spectral initialisation + Lloyd) and finds
 * the communities of a graph (cs_fit_graph(): trimmed spectral initialisation +
 * CommuLloyd), after Lu and Zhou.
 *
 * This is the only public header of the library. Everything else is private. The
 * reference groups its declarations in the order a program needs them: @ref api_handle,
 * @ref api_params, @ref api_fitting, @ref api_results, then @ref api_methods,
 * @ref api_status and @ref api_version. The getting-started page has a complete
 * program for each kind of input, and docs/algorithms.md states what every method
 * computes.
 *
 * @par Conventions
 * - Every function that can fail returns a ::cs_status: ::CS_OK (0) on success, a
 *   negative code on failure. cs_status_string() names a code and cs_last_error()
 *   returns a human-readable message for the last failure on a handle.
 * - No function prints, aborts or exits, and no C++ exception crosses this boundary.
 * - Ids and labels are 0-based `int32_t`. Array lengths and capacities are `size_t`
 *   counts of elements (not bytes).
 * - The library copies every input it keeps; outputs are copied into caller buffers
 *   whose capacity is checked (too small a buffer is ::CS_ERR_BUFFER_TOO_SMALL, never an
 *   overflow).
 * - Matrices are row-major. Confusion matrices are indexed worker x true x observed:
 *   entry `((i * k) + l) * k + c` is P(worker i says c | true class l).
 *
 * @par Threads
 * A handle must be used by one thread at a time. Distinct handles share no mutable
 * state (the library has no global mutable state), so fits on different handles may
 * run concurrently. The number of threads a fit uses internally is ::CS_PARAM_THREADS.
 * A call that finds another call running on the same handle returns ::CS_ERR_BUSY at
 * once and changes nothing (an atomic in-use flag per handle, since 0.2), so that a
 * program that shares a handle by mistake gets a status rather than corrupted
 * results. cs_destroy() and cs_last_error() do not check it: destroying a handle, or
 * reading its message, while another thread calls it stays undefined.
 *
 * @par Determinism
 * Every random choice draws from a generator seeded by ::CS_PARAM_SEED: with one build
 * of the library, the same inputs, parameters and seed give bit-identical outputs on
 * every run and for every thread count. Builds on other platforms or with another
 * BLAS/LAPACK agree up to floating-point rounding (docs/VERSIONING.md).
 *
 * @par Stability
 * Enum values are never renumbered, only appended; removed values are never reused.
 * New options are new ::cs_param values, never new struct fields. The shared
 * library's SONAME carries ::CS_VERSION_MAJOR, which changes only when the ABI breaks;
 * each release's functions have their own symbol version node. docs/VERSIONING.md
 * states these promises and how they are checked.
 */

/** @defgroup api_handle Handle
 *  @brief Create a model, free it, and read why a call failed: every program starts
 *  here. A ::cs_model holds the parameters and the results of the last fit. */
/** @defgroup api_params Parameters
 *  @brief Choose the method and its options, by id or by name, before a fit. */
/** @defgroup api_fitting Fitting
 *  @brief Fit crowd labels, points, a graph or pairwise comparisons; follow or cancel a long fit. */
/** @defgroup api_results Results
 *  @brief Copy the labels, posteriors, confusion matrices and diagnostics of the last
 *  fit into caller buffers. */
/** @defgroup api_methods Methods
 *  @brief The inference methods, their ids and names, and how to enumerate them. */
/** @defgroup api_status Status codes
 *  @brief What every call returns, and the name of each code. */
/** @defgroup api_measures Crowd measures and string ids
 *  @brief Agreement, uncertainty, consistency and accuracy on aggregates of a crowd's
 *  labels (the measures of crowd-kit's metrics module), and string ids numbered by the
 *  library (added in 0.2). */
/** @defgroup api_saved Saved models, incremental updates and sufficient statistics
 *  @brief A crowd fit of the Dawid-Skene family saved to a file or a buffer, loaded
 *  back, grown with new labels without a full refit, and the E-step statistics and
 *  M-step that let any engine (MPI, Dask) drive a fit (added in 0.2;
 *  docs/saved-models.md, docs/incremental.md, docs/scaling.md). */
/** @defgroup api_answers Tags and numeric answers
 *  @brief Fit sets of tags per answer (multi-label) and real-valued answers, and copy
 *  their results (added in 0.2). */
/** @defgroup api_version Version
 *  @brief The version of the header and of the library loaded at run time. */
#ifndef CROWDSPEC_H
#define CROWDSPEC_H

#include <stddef.h>
#include <stdint.h>

/** @addtogroup api_version
 *  The compile-time version of this header. This block is the single source of the
 *  version: the build reads it from here. Compare with cs_version_number() at run time
 *  to detect a header/library mismatch.
 *  @{ */
#define CS_VERSION_MAJOR 0 /**< Incremented on incompatible ABI changes. */
#define CS_VERSION_MINOR 2 /**< Incremented when functions or enum values are added. */
#define CS_VERSION_PATCH 0 /**< Incremented for fixes that change no interface. */
/** The version as one number: MAJOR * 10000 + MINOR * 100 + PATCH. */
#define CS_VERSION_NUMBER (CS_VERSION_MAJOR * 10000 + CS_VERSION_MINOR * 100 + CS_VERSION_PATCH)
/** @} */

/** @cond INTERNAL */
#if defined(_WIN32) && !defined(CS_STATIC)
#  if defined(CS_BUILDING_LIBRARY)
#    define CS_API __declspec(dllexport)
#  else
#    define CS_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define CS_API __attribute__((visibility("default")))
#else
#  define CS_API
#endif
/** @endcond */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------ */
/** @addtogroup api_status
 *  @{ */

/** Result of a call: ::CS_OK (0) on success, negative on failure. Values are pinned. */
typedef int32_t cs_status;

/** The values a ::cs_status can take. They never change; new codes are appended. */
enum cs_status_code {
    CS_OK = 0,                        /**< Success. */
    CS_ERR_NULL_HANDLE = -1,          /**< The model handle is NULL. */
    CS_ERR_NULL_POINTER = -2,         /**< A required pointer argument is NULL. */
    CS_ERR_INVALID_ARGUMENT = -3,     /**< An argument is invalid (see the message). */
    CS_ERR_UNKNOWN_PARAM = -4,        /**< No parameter has this id or name. */
    CS_ERR_PARAM_RANGE = -5,          /**< A parameter value is out of its documented range. */
    CS_ERR_UNKNOWN_METHOD = -6,       /**< No method has this id or name. */
    CS_ERR_EMPTY_INPUT = -7,          /**< No labels (or points, or edges) were given. */
    CS_ERR_INVALID_ID = -8,           /**< An item or worker id is negative or >= its declared count. */
    CS_ERR_INVALID_LABEL = -9,        /**< A label is negative or >= the number of classes. */
    CS_ERR_TOO_FEW_CLASSES = -10,     /**< Fewer than 2 classes (k < 2). */
    CS_ERR_DUPLICATE = -11,           /**< A worker labelled the same item twice (see ::CS_PARAM_DUPLICATES). */
    CS_ERR_BUFFER_TOO_SMALL = -12,    /**< An output buffer's capacity is smaller than the result. */
    CS_ERR_NOT_FITTED = -13,          /**< A result was requested before a successful fit. */
    CS_ERR_CANCELLED = -14,           /**< The progress callback asked to stop; partial results are kept. */
    CS_ERR_OUT_OF_MEMORY = -15,       /**< An allocation failed, or (since 0.2) a crowd fit needs
                                           more memory than the process can have, known
                                           before it allocates (the message gives the
                                           figure: "needs about 200 GB: 50 workers x
                                           10000^2 confusion entries x 5 tables ..."). The
                                           handle stays valid. */
    CS_ERR_INTERNAL = -16,            /**< An unexpected internal failure (a bug: please report it). */
    CS_ERR_WRONG_INPUT_KIND = -17,    /**< The method does not accept this kind of input. */
    CS_ERR_NON_FINITE = -18,          /**< A point coordinate is NaN, infinite, or larger in
                                           magnitude than 1e100 (cs_fit_points()). */
    CS_ERR_TOO_MANY_CLASSES = -19,    /**< k exceeds what the fit supports: more clusters or
                                           communities (::CS_PARAM_CLASSES) than points or
                                           nodes, or more than ::CS_MAX_CROWD_CLASSES classes
                                           for crowd labels (cs_fit(), declared or inferred). */
    CS_ERR_TOO_LARGE = -20,           /**< The input's sizes exceed a limit of the library's
                                           data layout: for cs_fit(), n_workers x k >= 2^32
                                           (its 32-bit label codes; the message gives both). */
    CS_ERR_BUSY = -21,                /**< Another call is running on this handle (another
                                           thread, or the progress callback calling back into
                                           the handle of its own fit): nothing was done, and
                                           the handle, its results and its message belong to
                                           that call. Since 0.2. */
    CS_ERR_CORRUPT_MODEL = -22,       /**< (since 0.2) cs_load(), cs_load_buffer(): the bytes are
                                           not a saved model, are truncated, fail their
                                           checksum or hold inconsistent values (the message
                                           says which and where). The handle is unchanged. */
    CS_ERR_MODEL_VERSION = -23,       /**< (since 0.2) cs_load(), cs_load_buffer(): the model was
                                           saved in a format version newer than this library
                                           reads (the message gives both versions). */
    CS_ERR_INVALID_ANSWER = -24,      /**< cs_fit_comparisons(): an answer is not a ::cs_answer
                                           value (since 0.2; the message names its index). */
    CS_ERR_NOT_CONNECTED = -25        /**< cs_fit_comparisons() with ::CS_PARAM_COMPARISON_PRIOR
                                           = 0: the maximum-likelihood scores do not exist, as
                                           some set of items never beat (or tied) the others
                                           (the comparison graph is not strongly connected;
                                           since 0.2, the message names an item). */
};

/** The largest number of classes k a crowd fit (cs_fit()) accepts: every worker has a
 *  k x k confusion matrix, so k^2 <= 10^8. A larger k, declared through
 *  ::CS_PARAM_CLASSES or inferred from the largest label, is ::CS_ERR_TOO_MANY_CLASSES. */
#define CS_MAX_CROWD_CLASSES 10000

/**
 * @brief Name of a status code, e.g. "CS_ERR_INVALID_ID".
 * @param status Any value; unknown values give "CS_UNKNOWN_STATUS".
 * @return A static, NUL-terminated string (never NULL, never freed).
 */
CS_API const char *cs_status_string(cs_status status);
/** @} */

/* ------------------------------------------------------------------------------ */
/** @addtogroup api_version
 *  @{ */

/**
 * @brief Version of the linked library as MAJOR * 10000 + MINOR * 100 + PATCH.
 * @return The library's ::CS_VERSION_NUMBER (compare with the header's to detect a mismatch).
 */
CS_API int32_t cs_version_number(void);

/**
 * @brief Version of the linked library as "MAJOR.MINOR.PATCH".
 * @return A static string (never NULL, never freed).
 */
CS_API const char *cs_version_string(void);
/** @} */

/* ------------------------------------------------------------------------------ */
/** @addtogroup api_methods
 *  Method ids are grouped by the input they take: 1-99 crowd labels (cs_fit()), 100-199
 *  points (cs_fit_points()), 200-299 graphs (cs_fit_graph()), 300-399 pairwise
 *  comparisons (cs_fit_comparisons(), since 0.2), 400-409 numeric answers
 *  (cs_fit_numbers()), 500-509 tags (cs_fit_tags(), which also runs every crowd method
 *  on each tag); cs_method_input() tells which. Values are pinned.
 *  @{ */

/**
 * The inference methods. Pass one to ::CS_PARAM_METHOD.
 *
 * @par Baselines of the Opt-D&S paper: kos, kos-mp, ghosh-svd, eigen-ratio
 * The comparison methods of Zhang, Chen, Zhou and Jordan, as their reference code runs
 * them (docs/algorithms.md specifies them). They are binary methods: for k
 * classes each runs on the k - 1 binary splits s = 0 .. k - 2, where split s recodes
 * label c as +1 if c > s and -1 otherwise, an items x workers matrix O with 0 where
 * there is no label (used only through sparse products, never stored densely).
 * - Signs and classes: each split gives every item a sign t in {-1, 0, +1}; a score
 *   whose magnitude is at most 1e-9 times the split's largest is a tie, t = 0. An item's
 *   class is the first split s with t = -1, else k - 1. A tie is not -1, so it defers to
 *   the next split (as sign(0) = 0 does in the reference code): with k = 2 a tied item
 *   gets class 1.
 * - Results: hard labels. Posteriors are one-hot on the label (uniform, hence label 0,
 *   for an item without labels; a gold item gets its gold class). Confusion matrices
 *   and the class prior are one M-step from those one-hot posteriors: the plug-in
 *   estimate, under ::CS_PARAM_CONFUSION, ::CS_PARAM_SMOOTHING and ::CS_PARAM_PRIOR.
 * - Iterations: for kos, ghosh-svd and eigen-ratio, the block products of the
 *   eigensolver, summed over the splits (and over eigen-ratio's two eigenproblems, the
 *   split-independent one solved once); for kos-mp, message-passing rounds summed over
 *   the splits. The progress callback is called after each with objective 0 and the
 *   trace holds a 0 per iteration: these methods have no objective, and
 *   cs_log_likelihood() gives 0.
 * - Convergence: top eigenvectors come from randomized block subspace iteration with
 *   Rayleigh-Ritz (start drawn from ::CS_PARAM_SEED), which stops when the residual
 *   ||A v - lambda v|| is at most ::CS_PARAM_TOL times |lambda| or after
 *   ::CS_PARAM_MAX_ITER block products (per eigenproblem). kos-mp stops a split when no
 *   normalised message changes by more than ::CS_PARAM_TOL in a round, or after
 *   ::CS_PARAM_MAX_ITER rounds. cs_converged() is 1 when every split met its rule;
 *   otherwise the fit reports ::CS_NOTE_MAX_ITER_REACHED and uses the last iterate.
 *   With max_iter = 0 (no iteration), and for the splits a cancellation leaves
 *   undone, an item's sign is the majority sign of the split, sign(O 1) (0 on a tie).
 * - Determinism: the same inputs and seed give the same labels; each eigenvector is
 *   normalised with its largest-magnitude entry positive, then each method orients t
 *   by its own rule (below), so the labels do not depend on the solver's sign.
 * - Degenerate splits (kos: the column-centred matrix is zero, e.g. one worker who
 *   labelled every item alike; kos-mp: every message vanishes, e.g. a single worker;
 *   eigen-ratio: every item scores 0; any of them: an eigensolver failure) take the
 *   majority sign of the split, and the fit reports ::CS_NOTE_SPECTRAL_FALLBACK with
 *   the reason in cs_last_error().
 * Memory is O(labels + items) for kos, kos-mp and ghosh-svd, plus O(worker pairs that
 * share an item) for eigen-ratio.
 */
enum cs_method {
    /** "mv": majority vote; ties go to the lowest class index. Posterior = vote shares. */
    CS_METHOD_MV = 1,
    /** "ds": Dawid-Skene EM started from the soft majority vote (MV-D&S). */
    CS_METHOD_DS = 2,
    /** "opt-ds": spectral (method-of-moments) estimate of every confusion matrix, then
     *  Dawid-Skene EM (Zhang, Chen, Zhou, Jordan). The default. Its worker groups come
     *  from the data (::CS_PARAM_GROUPS), its classes are named by the soft majority vote
     *  (::CS_PARAM_IDENTIFY), and EM runs from several starts, keeping the highest
     *  likelihood (::CS_PARAM_STARTS). Needs >= 3 workers for its spectral stage;
     *  otherwise it falls back to the majority-vote start. */
    CS_METHOD_OPT_DS = 3,
    /** "crowd-lloyd": Lloyd's algorithm on the one-hot labels, observed entries only
     *  (Lu and Zhou). Hard labels; one-hot posteriors. */
    CS_METHOD_CROWD_LLOYD = 4,
    /** "kos": the spectral form of Karger-Oh-Shah of the Opt-D&S reference code, a
     *  baseline (see above). Per split: the columns of O are centred by their mean over
     *  all items (inside the products, so memory stays O(labels)) and (u, v) is the top
     *  singular pair of the centred matrix; t = sign(u), negated when the squared mass
     *  of v's non-negative entries is below 1/2. */
    CS_METHOD_KOS = 5,
    /** "kos-mp": the iterative message passing of Karger, Oh and Shah (2011/2014), a
     *  baseline (see above). Per split: worker-to-item messages start as 1 + N(0, 1)
     *  draws (from ::CS_PARAM_SEED); each round, an item's message to a worker sums the
     *  other workers' signed messages on it, and a worker's message to an item sums the
     *  other items' signed messages to it; t = sign of the item's signed sum of
     *  messages, oriented so that the sum of the final worker messages (the workers'
     *  total reliability) is non-negative: KOS's presumption that workers beat chance
     *  on average, made independent of the random start. Messages are rescaled to
     *  max |message| = 1 after every round, so they stay finite and no sign changes. */
    CS_METHOD_KOS_MP = 6,
    /** "ghosh-svd": the SVD method of Ghosh, Kale and McAfee, a baseline (see above).
     *  Per split: u = top left singular vector of O; t = sign(u), negated when
     *  sign(u)^T (O 1) < 0 (the reference code's rule). */
    CS_METHOD_GHOSH_SVD = 7,
    /** "eigen-ratio": the eigenvector-ratio method of Dalvi, Dasgupta, Kumar and
     *  Rastogi, a baseline (see above). Per split, with G = |O|: v1 and v2 are the top
     *  eigenvectors of the worker x worker matrices R1 = (O^T O) ./ (G^T G + 1e-8) and
     *  R2 = [G^T G > 0], both sparse over the worker pairs that share an item;
     *  v = v1 ./ v2 (0 where v2 is below 1e-9 times its largest entry); u = O v;
     *  t = sign(u), negated when u^T (O 1) < 0. */
    CS_METHOD_EIGEN_RATIO = 8,
    /** "one-coin-ds": Dawid-Skene EM from the soft majority vote (as ::CS_METHOD_DS)
     *  with the one-coin confusion model, one accuracy per worker and uniform errors.
     *  It overrides ::CS_PARAM_CONFUSION. */
    CS_METHOD_ONE_COIN_DS = 9,
    /** "class-one-coin-ds": Dawid-Skene EM from the soft majority vote with the
     *  class-wise one-coin confusion model, one accuracy per worker and true class. It
     *  overrides ::CS_PARAM_CONFUSION. */
    CS_METHOD_CLASS_ONE_COIN_DS = 10,
    /** "wawa": Worker Agreement With Aggregate (crowd-kit's Wawa): the majority vote
     *  (iteration 0), then one round: each worker's weight is the fraction of its labels
     *  that agree with the vote, and every item gets the weighted vote. Posteriors are the
     *  weighted vote shares (uniform where the weights sum to 0); confusion matrices are
     *  one-coin with the weight as accuracy. No objective: the trace holds 0. */
    CS_METHOD_WAWA = 11,
    /** "zbs": Zero-Based Skill (crowd-kit's ZeroBasedSkill): skills start equal (the
     *  majority vote, iteration 0); round r moves every skill by lr_r = 0.5^floor(r/20)
     *  towards the worker's agreement with the current weighted vote (lr = 1 until round
     *  19) and votes again with the new skills. Stops when no skill moves by more than
     *  ::CS_PARAM_TOL, or at ::CS_PARAM_MAX_ITER rounds. Outputs as wawa. */
    CS_METHOD_ZBS = 12,
    /** "glad": GLAD (Whitehill, Ruvolo, Wu, Bergsma, Movellan 2009): worker ability
     *  alpha_i, item inverse difficulty beta_j = exp(b_j) > 0; a label is correct with
     *  probability sigma(alpha_i beta_j), a wrong label uniform over the other k - 1
     *  classes. MAP-EM with the paper's priors alpha_i ~ N(1, 1), b_j ~ N(1, 1), started
     *  at the prior means: the E-step gives the posteriors (iteration 0 is the E-step at
     *  the start), the M-step is one Newton sweep over every alpha_i (b fixed) and then
     *  every b_j (alpha fixed), each step halved until its objective does not decrease
     *  (generalised EM: the objective never decreases); the class prior is uniform, as
     *  the paper takes it as given (::CS_PARAM_PRIOR does not apply). The trace is the
     *  log posterior, the marginal
     *  log-likelihood minus sum (alpha_i - 1)^2 / 2 + sum (b_j - 1)^2 / 2; stops as EM
     *  does (::CS_PARAM_TOL, ::CS_PARAM_MAX_ITER). Confusion matrices are one-coin with
     *  the worker's mean sigma(alpha_i beta_j) over its items. Any k >= 2. */
    CS_METHOD_GLAD = 13,
    /** "mace": MACE (Hovy, Berg-Kirkpatrick, Vaswani, Hovy 2013): worker i knows the
     *  answer with probability theta_i and then gives the true class, else it spams,
     *  drawing its label from its own distribution xi_i; the true class is uniform.
     *  Mean-field variational Bayes with the MACE software's priors theta_i ~ Beta(0.5,
     *  0.5) and xi_i ~ Dirichlet(10, ..., 10), from ::CS_PARAM_STARTS seeded random starts
     *  (0 = 10): each runs ::CS_PARAM_START_ROUNDS rounds (0 = 20), then the start of
     *  highest evidence lower bound (ELBO, the trace; never decreasing) runs on until its
     *  relative change is below ::CS_PARAM_TOL or ::CS_PARAM_MAX_ITER rounds. With
     *  ::CS_PARAM_ACCEL = ::CS_ACCEL_SQUAREM (the default) the rounds are extrapolated as
     *  EM's are, on the logarithms of the Beta and Dirichlet parameters, with the same
     *  monotone safeguard (the ELBO never decreases). The progress
     *  callback counts the rounds of every start; cs_iterations() and cs_trace() are the
     *  kept start's. Posteriors are the variational ones (the class prior is the model's
     *  uniform one: ::CS_PARAM_PRIOR does not apply); confusion matrices are the posterior
     *  mean theta_i I + (1 - theta_i) 1 xi_i^T. Any k >= 2. */
    CS_METHOD_MACE = 14,
    /** "m-msr": M-MSR (Ma and Olshevsky 2020): the rescaled agreement rates C_ii' =
     *  (k a / n - 1) / (k - 1) of the worker pairs that share n items (a agreements) have
     *  expectation s_i s_i' under the one-coin model (skill s = (k p - 1) / (k - 1));
     *  |s| comes from a robust rank-one completion of |C| on those pairs (alternating
     *  trimmed means, the modified mean-subsequence-reduced iteration; stops when u v^T
     *  changes by at most ::CS_PARAM_TOL relative, or at ::CS_PARAM_MAX_ITER rounds), the
     *  signs from the top eigenvector of the signed pair graph (each connected component
     *  oriented to have at least half its workers positive). Labels are the weighted vote
     *  with log-odds weights log((k - 1) p_i / (1 - p_i)), posteriors the one-coin
     *  posteriors under a uniform prior, confusion matrices one-coin with p_i. Memory
     *  O(labels + worker pairs): no dense workers x workers matrix. No objective: the
     *  trace holds 0. Any k >= 2. */
    CS_METHOD_M_MSR = 15,

    /** "ebcc": Enhanced Bayesian Classifier Combination (Li, Rubinstein and Cohn, ICML
     *  2019), mean-field variational Bayes. Each true class l has
     *  M = ::CS_PARAM_SUBTYPES subtypes; an item draws its class z from the class
     *  proportions tau ~ Dirichlet(alpha, ..., alpha), then a subtype g from the class's
     *  weights pi_l ~ Dirichlet(a_pi / M, ..., a_pi / M), and worker i labels it c with
     *  probability V_i,z,g[c], each row V_i,l,m ~ Dirichlet(b_v, ..., a_v at c = l, ...,
     *  b_v). Workers are independent given (z, g) but correlated given z alone: items of
     *  one subtype are hard in the same way for everyone. The defaults are the paper's:
     *  M = 10, a_pi = 0.1 (::CS_PARAM_SUBTYPE_CONCENTRATION), alpha = 1
     *  (::CS_PARAM_CLASS_CONCENTRATION), a_v = 4 (::CS_PARAM_CONFUSION_DIAGONAL), b_v = 1
     *  (::CS_PARAM_CONFUSION_OFF_DIAGONAL).
     *  - Inference: coordinate ascent on the evidence lower bound (ELBO) over
     *    q(z, g) per item (k x M values), q(tau), q(pi_l), q(V_i,l,m) (Dirichlets). It
     *    starts from the soft majority vote, each class's share split over the subtypes by
     *    a Dirichlet(1, ..., 1) draw per item and class from ::CS_PARAM_SEED (the
     *    symmetry breaking of the paper's code), then alternates the Dirichlet updates
     *    and the update of q(z, g). One iteration is one pass over the labels, O(labels
     *    x k x M). ::CS_PARAM_ACCEL = ::CS_ACCEL_SQUAREM (the default) extrapolates the
     *    iterations on the logarithms of the Dirichlet parameters, keeping an
     *    extrapolated point only when its ELBO is at least the plain iteration's (a
     *    discarded one costs an uncounted pass); ::CS_ACCEL_NONE is plain coordinate
     *    ascent.
     *  - Results: posteriors q(z_j = l) = sum_m q(z_j = l, g_j = m); cs_confusion() the
     *    posterior-mean confusion sum_m E[pi_lm] E[V_i,l,m[c]]; cs_class_prior() E[tau];
     *    cs_trace() and the progress callback the ELBO after each iteration (it never
     *    decreases), and cs_log_likelihood() its last value (a lower bound of the log
     *    evidence, not the Dawid-Skene likelihood). It stops when the relative ELBO
     *    change is below ::CS_PARAM_TOL or after ::CS_PARAM_MAX_ITER iterations.
     *  - ::CS_PARAM_PRIOR: estimated (the default) infers tau under its Dirichlet
     *    prior; uniform fixes tau = 1/k (no Dirichlet). It follows its paper otherwise:
     *    ::CS_PARAM_CONFUSION, ::CS_PARAM_SMOOTHING, ::CS_PARAM_SMOOTHING_CENTER and
     *    ::CS_PARAM_SUPPORT do not apply. Gold items are pinned to
     *    their class (their subtype stays free). An item without labels gets
     *    q(z_j = l) proportional to exp(E[log tau_l]) sum_m exp(E[log pi_lm]). Every
     *    quantity is finite (the digammas of positive Dirichlet parameters); any k >= 2
     *    works. The fit depends on the seed through the subtype split: VB finds a local
     *    optimum of the bound, and on small sets different seeds can end in different
     *    ones. */
    CS_METHOD_EBCC = 16,
    /** "bcc": Bayesian Classifier Combination, the independent model of Kim and
     *  Ghahramani (AISTATS 2012): classes z ~ tau, tau ~ Dirichlet(alpha, ..., alpha),
     *  each worker's confusion row pi_i,l ~ Dirichlet(b_v, ..., a_v at c = l, ..., b_v),
     *  labels independent given z. Inferred by mean-field variational Bayes (the paper
     *  samples; the variational updates are those of ebcc with one subtype, which bcc
     *  is exactly) from the soft majority vote, with ebcc's prior parameters and
     *  defaults (alpha = 1, a_v = 4, b_v = 1). Results, stopping rule and the
     *  parameters that do not apply as for ::CS_METHOD_EBCC; cs_confusion() is E[pi_i]. */
    CS_METHOD_BCC = 17,
    /** "bwa": Bayesian Weighted Average (Li, Rubinstein and Cohn, WWW 2019). One binary
     *  problem per class c (one-versus-rest): the indicator "item j is of class c" is
     *  relaxed to a score z_jc, y_ijc = [worker i said c] ~ N(z_jc, 1 / v_ic), with a
     *  Gamma(a_v / 2, b_c / 2) prior on the precision v_ic (one per worker and class) and
     *  z_jc ~ N(mu_c, 1 / lambda). From the soft majority vote z0 it iterates in closed
     *  form (Jacobi): mu_c = mean score of the items with labels; v_ic = (a_v + N_i) /
     *  (b_c + sum_j (y_ijc - z_jc)^2), N_i = worker i's labels; z_jc = (lambda mu_c +
     *  sum_i v_ic y_ijc) / (lambda + sum_i v_ic). b_c = a_v adj sum_j n_j z0_jc (1 - z0_jc)
     *  / labels, set once: the prior mean of a worker's variance is the labels' mean
     *  squared deviation from the vote, times adj = 4 (1 - 1/k) (the authors' prior
     *  correction, ::CS_PARAM_BWA_PRIOR_CORRECTION) or 1. Defaults a_v = 15
     *  (::CS_PARAM_BWA_STRENGTH), lambda = 1 (::CS_PARAM_BWA_ITEM_PRECISION).
     *  - Stopping: each class stops when every item's score moves by at most 1e-8 + tol
     *    |new score| (::CS_PARAM_TOL; tol = 0 runs exactly ::CS_PARAM_MAX_ITER iterations),
     *    or at ::CS_PARAM_MAX_ITER iterations. The authors stop at tol = 1e-3 and 500
     *    iterations; the library's defaults run to the fixed point (docs/defaults.md).
     *  - A class no item disagrees about (b_c = 0: all its labels agree with every item's
     *    vote, e.g. a class nobody chose, or every item unanimous) keeps the soft
     *    majority vote, where the update would divide by zero.
     *  - Results: posteriors are the scores (each in [0, 1]) normalised per item; a gold
     *    item is pinned to its class (its scores one-hot in every update); an item
     *    without labels gets cs_class_prior(), the mean scores mu normalised (the model's
     *    base rates), or 1/k with ::CS_PRIOR_UNIFORM (the iterations do not use it).
     *    The progress callback sees 0 after the start (the soft majority vote), then
     *    every iteration. Confusion matrices are one M-step
     *    from the posteriors (as mv's). No objective: the trace holds 0. Cost O(labels x
     *    k) per iteration, no logarithms. */
    CS_METHOD_BWA = 18,
    /** "la": LA two-pass (Yang, Zhao, Bai, Liu and Li, ACM TKDD 2024): "la-onepass",
     *  then every item voted again with the final abilities, each label weighted
     *  k a_w - 1 (positive for a better-than-chance worker, negative for a worse one), the
     *  largest class sum among the classes the item got winning (lowest class on ties).
     *  Posteriors: the positive class sums normalised (uniform over the largest classes
     *  when none is positive). Each label is read twice; no iterations (cs_iterations()
     *  = 2 passes, ::CS_PARAM_MAX_ITER and ::CS_PARAM_TOL do not apply). The progress
     *  callback sees 0 before the first pass (cancelled there, the fit is the majority
     *  vote, the decisions of the first pass with every ability at its prior value), 1
     *  and 2 after the passes. */
    CS_METHOD_LA = 19,
    /** "la-onepass": LA one-pass (Yang et al.), an online algorithm: the items are
     *  decided one after another, in the order of ::CS_PARAM_LA_ORDER (by default a
     *  permutation drawn from ::CS_PARAM_SEED), each by the vote weighted with the
     *  workers' current abilities a_w (lowest class on ties); the decision then updates
     *  the item's labellers: a_w = (alpha - 1 + c_w) / (alpha + beta - 2 + t_w), the mode
     *  of a Beta(alpha, beta) posterior (::CS_PARAM_LA_ALPHA, ::CS_PARAM_LA_BETA, 2 and
     *  2) after t_w labels of which c_w agreed with their item's decision. A decision is
     *  never revised. Posteriors: the weighted vote shares at decision time. Gold items
     *  decide as their class. Confusion matrices are one-coin with accuracy a_w; the
     *  class prior is the mean posterior (or uniform with ::CS_PRIOR_UNIFORM). One pass
     *  (cs_iterations() = 1; the progress callback as for "la"). The result depends on
     *  the order, hence on the seed. */
    CS_METHOD_LA_ONEPASS = 20,
    /** "minimax-entropy": minimax conditional entropy (Zhou, Platt, Basu, Mao, NIPS 2012;
     *  Zhou, Liu, Platt, Meek, ICML 2014). Worker i labels item j of class c as x with
     *  probability exp(sigma_i(c, x) + tau_j(c, x)) / Z_ij(c): a K x K worker matrix sigma_i
     *  (its ability) and a K x K item matrix tau_j (its difficulty), the class prior
     *  uniform. Fitted as the paper's regularised dual with the labels' distribution at
     *  its optimum, i.e. the penalised marginal log-likelihood
     *  F = sum_j log sum_c (1/K) prod_i P(x_ij | c) - (alpha/2) sum_i |sigma_i|^2
     *  - (beta/2) sum_j |tau_j|^2, alpha = gamma K^2, beta = alpha n / m (n items, m workers
     *  with labels), gamma = ::CS_PARAM_GAMMA (default 1/4; 0 chooses it by
     *  ::CS_PARAM_CV_FOLDS-fold likelihood cross-validation over the labels from the
     *  paper's candidates 1/4, 1/2, 1, 2, 4, folds drawn from ::CS_PARAM_SEED; no truth is
     *  used).
     *  - Start: the soft majority vote (the paper's eq. 15), or the posteriors of a ds
     *    fit with the handle's parameters (::CS_PARAM_MINIMAX_START); from them the
     *    paper's first M-step for the worker matrices with the item matrices at 0 (a
     *    concave problem on the workers' posterior-weighted label counts).
     *  - Then L-BFGS on F (the E-step folded into every evaluation; the quasi-Newton
     *    curvature is kept for the worker parameters, the item parameters step by their
     *    penalty-dominated diagonal curvature), until the relative change of F is at most
     *    ::CS_PARAM_TOL, no posterior moves by more than 1e-3 in an iteration (the
     *    authors' code's rule), no descent is left, or ::CS_PARAM_MAX_ITER iterations;
     *    tol = 0 turns off the first two rules. One evaluation is one pass over the
     *    labels, O(labels x K^2).
     *  - Results: posteriors under the uniform prior (gold items pinned); cs_class_prior()
     *    uniform; cs_confusion() each worker's mean over its labels of P_ij(. | c);
     *    cs_trace() and the progress callback F after each iteration (never decreasing;
     *    iteration 0 is the start), cs_log_likelihood() its last value. When the fit makes
     *    some classes indistinguishable (tiny crowds: the penalties then win), those items
     *    fall back to majority vote as ds's do (::CS_NOTE_DEGENERATE_MAXIMUM). The
     *    cross-validation fits are not reported to the callback.
     *  ::CS_PARAM_PRIOR, ::CS_PARAM_SUPPORT, ::CS_PARAM_CONFUSION, ::CS_PARAM_SMOOTHING and
     *  ::CS_PARAM_ACCEL apply only to the ds start. Any k >= 2. */
    CS_METHOD_MINIMAX_ENTROPY = 21,
    /** "ordinal-minimax": the ordinal minimax conditional entropy model (Zhou, Liu, Platt,
     *  Meek, ICML 2014, section 3) for classes that are grades 0 < 1 < ... < k-1: the
     *  worker and item matrices are built from 4 (k - 1) parameters each, one per
     *  reference grade s = 1..k-1 and region {c < s, c >= s} x {x < s, x >= s} (eq. 11):
     *  sigma_i(c, x) = sum_s theta_i,s[c >= s][x >= s]. The penalties are on those
     *  parameters; everything else is as ::CS_METHOD_MINIMAX_ENTROPY (for k = 2 the two
     *  are the same model). Its grades (cs_median_grades(), cs_mean_grades()) are always available. */
    CS_METHOD_ORDINAL_MINIMAX = 22,
    /** "ordinal-ds": Dawid-Skene with ordered-logit workers, for grades 0 < ... < k-1. On an
     *  item of grade c, worker i perceives y = c + b_i + s_i e (e standard logistic) and
     *  answers x when t_x < y <= t_{x+1}: a bias b_i (in grades; > 0 grades too high), a
     *  noise s_i > 0 and thresholds t_1 < ... < t_{k-1} shared by the crowd, so each
     *  confusion row is pi_i(c, x) = F((t_{x+1} - c - b_i) / s_i) - F((t_x - c - b_i) / s_i).
     *  Priors b_i ~ N(0, 1), log s_i ~ N(log 1/2, 1), t_x ~ N(x - 1/2, 1). MAP-EM from the
     *  soft majority vote (iteration 0: the M-step from the vote and its E-step): the
     *  E-step is ds's (::CS_PARAM_PRIOR and ::CS_PARAM_SUPPORT
     *  apply as for ds), the M-step maximises the expected complete log-posterior by
     *  L-BFGS from the previous parameters (generalised EM: the trace, the log-likelihood
     *  plus the log priors, never decreases). Stops as EM does (::CS_PARAM_TOL,
     *  ::CS_PARAM_MAX_ITER); O(labels x k) per round. ::CS_PARAM_CONFUSION,
     *  ::CS_PARAM_SMOOTHING and ::CS_PARAM_ACCEL do not apply. Its grades are always
     *  available. */
    CS_METHOD_ORDINAL_DS = 23,
    /** "auto" (since 0.2; the default): Dawid-Skene EM from the soft majority vote with
     *  each worker's confusion rows under a Dirichlet prior centred on the workers of
     *  like activity (::CS_SMOOTHING_CENTER_STRATA: activity strata floor(log2 labels),
     *  s = ::CS_PARAM_SMOOTHING_STRENGTH pseudo-labels per row, default k, split by the
     *  class prior), then calibrated posteriors (::CS_PARAM_CALIBRATION). It overrides
     *  ::CS_PARAM_SMOOTHING_CENTER; every other EM parameter applies as for ds. A worker
     *  with a few labels is pulled towards the crowd's other occasional workers rather
     *  than trusted on two or three labels (where full Dawid-Skene overfits and loses to
     *  majority vote), one with many keeps its own matrix. docs/defaults.md gives the
     *  reasons and docs/accuracy.md the measurements. */
    CS_METHOD_AUTO = 24,
    /** "crowdlab" (since 0.2): CROWDLAB (Goh, Tkachenko, Mueller 2022): a weighted
     *  ensemble of a classifier's probabilities (cs_set_model_probs()) and the
     *  workers' labels. Each label counts as the distribution P on its class and
     *  (1 - P) / (k - 1) on the others (P the mean agreement with the consensus on items
     *  with two or more labels); a worker's weight is 1 - (1 - s_i) / E (s_i its
     *  agreement with its co-workers, E the error of always answering the most common
     *  consensus class), the model's 1 - E_M / E times the square root of the mean labels
     *  per item (E_M its error against the consensus); weights are clipped at 1e-6. The
     *  consensus starts from majority vote (ties to the model's class, then the commoner
     *  class), is replaced once by the ensemble's argmax, and the weights are recomputed
     *  from it; the labels are the argmax of that second ensemble. Two passes (iterations
     *  0 and 1); O(labels x k). Without model probabilities, or without an item of two or
     *  more labels, it falls back as ::CS_NOTE_CROWDLAB_FALLBACK says. Confusion matrices
     *  and prior: the Dawid-Skene M-step of its posteriors (as mv's). */
    CS_METHOD_CROWDLAB = 25,

    /** "lloyd" (points): spectral initialisation -- projection onto the top-k right
     *  singular subspace of the n x d data matrix, k-means++ seeding and Lloyd
     *  iterations there (on a uniform sample of max(50000, 500 k) projected points when
     *  n is larger, every point then taking the nearest centre) -- then Lloyd iterations
     *  on the original points until no label changes (Lu and Zhou, Section 3). */
    CS_METHOD_LLOYD = 100,
    /** "kmeans++" (points): k-means++ seeding (greedy, 2 + floor(ln k) candidates per
     *  centre) and Lloyd iterations on the original points, best of ::CS_PARAM_N_INIT
     *  restarts by k-means cost. The baseline. */
    CS_METHOD_KMEANS_PP = 101,

    /** "commu-lloyd" (graphs): spectral initialisation from the k eigenvectors of
     *  largest |eigenvalue| of the trimmed adjacency matrix (see ::CS_PARAM_TRIM), rows
     *  clustered by k-means, then CommuLloyd iterations on the untrimmed adjacency:
     *  z_i <- argmax_h (edges from i into community h) / n_h (Lu and Zhou, Section 4.1). */
    CS_METHOD_COMMU_LLOYD = 200,
    /** "spec" (graphs): the spectral initialisation of commu-lloyd alone. */
    CS_METHOD_SPEC = 201,
    /** "spec-mle" (graphs): the spectral initialisation, then one likelihood step (Gao,
     *  Ma, Zhang and Zhou): with the within / between densities p, q estimated from the
     *  spectral labels, z_i <- argmax_h [ e_ih log(p(1-q) / (q(1-p))) - n_h log((1-q) /
     *  (1-p)) ], e_ih = edges from i into h. */
    CS_METHOD_SPEC_MLE = 202,

    /** "bt" (comparisons, since 0.2): Bradley-Terry, P(i beats j) = pi_i / (pi_i + pi_j),
     *  s_i = log pi_i, fitted by the MM algorithm of Hunter (2004), all items at once from
     *  the previous sweep. Ties follow ::CS_PARAM_TIES: by default Davidson's (1970)
     *  model, P(tie) = nu sqrt(pi_i pi_j) / (pi_i + pi_j + nu sqrt(pi_i pi_j)), nu
     *  updated by its own MM step after each sweep. The weak prior of
     *  ::CS_PARAM_COMPARISON_PRIOR (lambda virtual wins and losses of every item against
     *  a fixed item of score 0, Chen et al. 2013) makes the scores exist and be unique
     *  on any comparison graph; lambda = 0 is the maximum-likelihood estimate, which
     *  needs a strongly connected graph (::CS_ERR_NOT_CONNECTED). Workers are ignored.
     *  Cost O(distinct pairs + items) per sweep. cs_estimate() "tie" gives nu. */
    CS_METHOD_BT = 300,
    /** "noisy-bt" (comparisons, since 0.2): crowd-kit's NoisyBradleyTerry model: worker w
     *  answers by Bradley-Terry with probability skill_w, otherwise it picks the left item
     *  with probability bias_w, whatever the items. Fitted by EM (the latent choice per
     *  answer; skill and bias in closed form, each a Beta(2, 2) MAP, i.e. one pseudo-answer
     *  each way; the scores by one MM step of a Bradley-Terry problem weighted by the
     *  answers' responsibilities, with the prior of ::CS_PARAM_COMPARISON_PRIOR), from the
     *  bt scores, skill 0.8 and bias 0.5. cs_worker_reliability() gives skill_w and
     *  cs_estimate() "bias" gives bias_w. The model has no tie: see ::CS_PARAM_TIES. Cost
     *  O(comparisons + workers + items) per iteration. */
    CS_METHOD_NOISY_BT = 301,
    /** "crowd-bt" (comparisons, since 0.2): Crowd-BT (Chen, Bennett, Collins-Thompson and
     *  Horvitz, WSDM 2013): worker w states the true Bradley-Terry preference with
     *  probability eta_w and its reverse otherwise, so eta_w < 1/2 marks an adversarial
     *  worker whose answers count reversed. Fitted by EM (latent: whether an answer was
     *  reversed; eta_w the MAP under Beta(::CS_PARAM_CROWD_BT_ALPHA,
     *  ::CS_PARAM_CROWD_BT_BETA), 4 and 1; the scores by one MM step of the Bradley-Terry
     *  problem with fractional wins, with the prior of ::CS_PARAM_COMPARISON_PRIOR), from
     *  the bt scores and eta = 0.8. cs_worker_reliability() gives eta_w. The model has no
     *  tie: see ::CS_PARAM_TIES. Cost O(comparisons + workers + items) per iteration. */
    CS_METHOD_CROWD_BT = 302,
    /** "mean" (numbers, since 0.2): each item's estimate is the mean of its answers;
     *  standard error s_j / sqrt(n_j), s_j the answers' sample standard deviation (the
     *  crowd's pooled within-item deviation when the item has one answer). */
    CS_METHOD_MEAN = 400,
    /** "median" (numbers): the median of the answers (the mean of the middle two for an
     *  even count); standard error sqrt(pi / 2) times that of the mean (the median's
     *  asymptotic efficiency under normal noise). */
    CS_METHOD_MEDIAN = 401,
    /** "gaussian" (numbers): worker w answers x = mu_j + b_w + e, e ~ N(0, sigma_w^2): a
     *  bias and a noise per worker (Raykar et al. 2010, the continuous case, with a bias
     *  term added; ::CS_PARAM_WORKER_BIAS), fitted by coordinate ascent on the posterior
     *  with an inverse-gamma prior on sigma_w^2 (::CS_PARAM_VARIANCE_PRIOR) and a normal
     *  one on b_w (one pseudo-answer of zero bias), the biases centred so that the
     *  answer-weighted mean bias is 0. Estimate mu_j = sum (x - b_w) / sigma_w^2 / sum
     *  1 / sigma_w^2, standard error (sum 1 / sigma_w^2)^(-1/2). */
    CS_METHOD_GAUSSIAN = 402,
    /** "catd" (numbers): CATD (Li et al., PVLDB 2014): weighted means with worker weight
     *  chi2_{alpha/2}(N_w) / sum of its squared residuals, the upper end of a confidence
     *  interval of its variance, which discounts workers with few answers
     *  (::CS_PARAM_CATD_ALPHA). Starts from the medians. Standard error (sum of the
     *  item's weights)^(-1/2). */
    CS_METHOD_CATD = 403,
    /** "crh" (numbers): CRH, "PM" in Zheng et al. (Li et al., SIGMOD 2014): weighted
     *  means with worker weight -log(L_w / sum L), L_w the worker's squared residuals
     *  each divided by its item's answer standard deviation. Starts from the medians. */
    CS_METHOD_CRH = 404,
    /** "student-t" (numbers; the default, `auto`, for numbers): the gaussian model with
     *  Student-t noise of ::CS_PARAM_T_DOF degrees of freedom, fitted by EM on its normal
     *  scale mixture: an answer far from the estimate gets weight (nu + 1) / (nu + r^2 /
     *  sigma_w^2), so one worker's occasional wild answer moves little. Starts from the
     *  medians. Standard error (sum (nu + 1) / ((nu + 3) sigma_w^2))^(-1/2), the inverse
     *  Fisher information of the location. */
    CS_METHOD_STUDENT_T = 405,
    /** "trimmed-mean" (numbers): the mean of each item's answers without the
     *  floor(::CS_PARAM_TRIM_FRACTION x n) lowest and as many highest; standard error from
     *  the winsorized deviation. */
    CS_METHOD_TRIMMED_MEAN = 406,

    /** "tag-pooled" (tags, since 0.2; the default, `auto`, for tags): a binary
     *  Dawid-Skene model per tag whose worker
     *  sensitivities and specificities share strength across tags: each is drawn
     *  around the worker's own average over the tags (a Beta prior of
     *  ::CS_PARAM_SMOOTHING_STRENGTH pseudo-answers, default 2, centred on the worker's
     *  pooled counts over tags plus 2 of the crowd's), fitted by EM from the per-tag
     *  majority vote. See cs_fit_tags(). */
    CS_METHOD_TAG_POOLED = 500
};

/** The kinds of input a method takes (cs_method_input()). Values are pinned. */
enum cs_input_kind {
    CS_INPUT_CROWD = 1,  /**< Crowd labels: (item, worker, label) triples, cs_fit(). */
    CS_INPUT_POINTS = 2, /**< Points in R^d: an n x d matrix, cs_fit_points(). */
    CS_INPUT_GRAPH = 3,  /**< An undirected graph: an edge list, cs_fit_graph(). */
    CS_INPUT_COMPARISONS = 4, /**< Pairwise comparisons: (worker, left, right, answer),
                                   cs_fit_comparisons() (since 0.2). */
    CS_INPUT_TAGS = 5,   /**< Since 0.2: sets of tags, (item, worker, tags), cs_fit_tags(). */
    CS_INPUT_NUMBERS = 6 /**< Since 0.2: real answers, (item, worker, value), cs_fit_numbers(). */
};

/**
 * @brief The kind of input a method takes.
 * @param method A ::cs_method value.
 * @return A ::cs_input_kind value, or 0 if the id is unknown.
 */
CS_API int32_t cs_method_input(int32_t method);

/**
 * @brief Number of methods this library provides.
 * @return The count; the methods are cs_method_at(0) .. cs_method_at(count - 1).
 */
CS_API int32_t cs_method_count(void);

/**
 * @brief The id of the index-th method (0-based), for enumerating methods.
 * @param index 0 <= index < cs_method_count().
 * @return A ::cs_method value, or 0 if index is out of range.
 */
CS_API int32_t cs_method_at(int32_t index);

/**
 * @brief Short name of a method, e.g. "opt-ds" (the name the command-line tool uses).
 * @param method A ::cs_method value.
 * @return A static string, or NULL if the id is unknown.
 */
CS_API const char *cs_method_name(int32_t method);

/**
 * @brief One line saying what a method does, e.g. "Dawid-Skene EM from the soft
 *        majority vote (MV-D&S)" (the command-line tool's --help lists these).
 * @param method A ::cs_method value.
 * @return A static string (no trailing newline), or NULL if the id is unknown.
 */
CS_API const char *cs_method_summary(int32_t method);

/**
 * @brief Method id from its short name (case-sensitive, e.g. "ds", "crowd-lloyd").
 * @param name NUL-terminated name.
 * @param[out] method Receives the ::cs_method value.
 * @return ::CS_OK, ::CS_ERR_NULL_POINTER, or ::CS_ERR_UNKNOWN_METHOD.
 */
CS_API cs_status cs_method_from_name(const char *name, int32_t *method);
/** @} */

/* ------------------------------------------------------------------------------ */
/** @addtogroup api_params
 *  Options are set on a handle by id (cs_set_int(), cs_set_double()) or by name
 *  (cs_set_param_string()). Each documents its type, default and range; a value out
 *  of range is rejected with ::CS_ERR_PARAM_RANGE and a message, and the old value is
 *  kept. Parameters take effect at the next fit. Values are pinned.
 *  @{ */

/** Parameter ids. "int" parameters are set with cs_set_int(), "double" ones with
 *  cs_set_double(); either setter accepts either kind when the value converts exactly. */
enum cs_param {
    /** int, "method": a ::cs_method; an id no method has is ::CS_ERR_UNKNOWN_METHOD.
     *  Default ::CS_METHOD_AUTO (::CS_METHOD_OPT_DS before 0.2). */
    CS_PARAM_METHOD = 1,
    /** int, "classes": number of classes k, 2..100000; 0 (default) infers k as
     *  1 + the largest label. Points and graphs have no labels to infer k from: set it
     *  (clusters / communities) before cs_fit_points() or cs_fit_graph(); k is at most
     *  the number of points or nodes. cs_fit() takes at most ::CS_MAX_CROWD_CLASSES
     *  (10000) classes, and n_workers x k must stay below 2^32; beyond, it fails with
     *  ::CS_ERR_TOO_MANY_CLASSES or ::CS_ERR_TOO_LARGE. */
    CS_PARAM_CLASSES = 2,
    /** int, "items": number of items n; 0 (default) infers 1 + the largest item id.
     *  Items without labels get the class prior as posterior (see
     *  ::CS_NOTE_UNLABELED_ITEMS). */
    CS_PARAM_ITEMS = 3,
    /** int, "workers": number of workers m; 0 (default) infers 1 + the largest worker id. */
    CS_PARAM_WORKERS = 4,
    /** int, "seed": seed of every random choice, 0..2^63-1. Default 0. */
    CS_PARAM_SEED = 5,
    /** int, "threads": threads a fit may use internally, 0..1024. 0 (default) =
     *  automatic: a crowd fit takes one thread per 250,000 labels, points and graphs
     *  every available core, never more than the cores. Fits under 100,000 labels
     *  (16,384 points or nodes) run on one thread whatever is asked. Results do not
     *  depend on it (docs/defaults.md gives the measurements behind the rule). */
    CS_PARAM_THREADS = 6,
    /** int, "duplicates": what to do when a worker labels an item more than once, a
     *  ::cs_duplicates value. Default ::CS_DUPLICATES_REJECT. */
    CS_PARAM_DUPLICATES = 7,

    /** int, "max_iter": maximum EM rounds (or Lloyd / CommuLloyd iterations), 0..10^7.
     *  Default 1000. 0 stops after the initialisation. Lloyd and CommuLloyd stop earlier
     *  when no label changes (Lu and Zhou show ceil(4 log n) iterations suffice). For
     *  kos, ghosh-svd and eigen-ratio: maximum eigensolver block products per
     *  eigenproblem; for kos-mp: maximum message-passing rounds per binary split; for
     *  bwa: maximum iterations of each class (see ::cs_method). la and la-onepass have no
     *  iterations and ignore it. */
    CS_PARAM_MAX_ITER = 100,
    /** double, "tol": EM stops when the relative change of the marginal
     *  log-likelihood between rounds, |L_r - L_(r-1)| / |L_(r-1)|, is below tol.
     *  0..1; default 1e-10. 0 runs exactly max_iter rounds. For kos, ghosh-svd and
     *  eigen-ratio: the eigensolver stops when ||A v - lambda v|| <= tol * |lambda|; for
     *  kos-mp: when no normalised message changes by more than tol in a round; for bwa: a
     *  class stops when no item's score moves by more than 1e-8 + tol * |new score|. */
    CS_PARAM_TOL = 101,
    /** int, "confusion": the confusion-matrix model, a ::cs_confusion_model.
     *  Default ::CS_CONFUSION_FULL. Applies to every EM-based method (one-coin-ds and
     *  class-one-coin-ds fix their own) and to the plug-in confusion matrices of kos,
     *  kos-mp, ghosh-svd and eigen-ratio. */
    CS_PARAM_CONFUSION = 102,
    /** int, "prior": the class prior, a ::cs_prior. Default ::CS_PRIOR_ESTIMATED: the
     *  Dawid-Skene model's maximum-likelihood estimate includes the class frequencies;
     *  ::CS_PRIOR_UNIFORM is the papers' and their reference code's simplification.
     *  glad and mace keep their models' uniform class prior; for wawa, zbs, m-msr, la
     *  and la-onepass, whose votes use none, it only sets the reported cs_class_prior()
     *  (the mean posterior, or uniform), and for bwa the reported prior and the posterior
     *  of items without labels (its normalised mean scores, or uniform). */
    CS_PARAM_PRIOR = 103,
    /** double, "smoothing": pseudo-count added to every confusion count in the
     *  M-step, 0..10^6. Default 0 (plain maximum likelihood). */
    CS_PARAM_SMOOTHING = 104,
    /** int, "support": which classes an item's posterior may take in every EM method,
     *  a ::cs_support. Default ::CS_SUPPORT_AUTO: the classes some worker gave the item
     *  when k >= 3 (on real multi-class crowds the true label is among the answers for
     *  almost every item, and an unrestricted model can hand an item a class nobody
     *  chose), every class when k = 2 (a biased binary crowd must be able to overrule a
     *  unanimous item). Items without labels and gold items are never restricted. The
     *  log-likelihood is that of the restricted model. */
    CS_PARAM_SUPPORT = 105,
    /** int, "accel": EM acceleration, a ::cs_accel. Default ::CS_ACCEL_SQUAREM: the
     *  squared extrapolation of Varadhan and Roland (2008) on the confusion matrices and
     *  the prior, with the monotone safeguard (an extrapolated point whose
     *  log-likelihood is below the plain EM step's is discarded for that step), so the
     *  trace never decreases and the fixed points are EM's. An accepted extrapolation
     *  and a plain round are each one trace entry and one counted round; a discarded
     *  extrapolation costs one uncounted E-step pass. ::CS_ACCEL_NONE is plain EM. mace,
     *  bcc and ebcc extrapolate their variational rounds the same way (on the logarithms
     *  of their Beta and Dirichlet parameters; the bound never decreases). The comparison
     *  methods (bt, noisy-bt, crowd-bt) extrapolate their MM sweeps and EM rounds the same
     *  way (see cs_fit_comparisons()). */
    CS_PARAM_ACCEL = 106,
    /** int, "identify": how a method that finds classes up to a relabelling names them,
     *  a ::cs_identify. Default ::CS_IDENTIFY_VOTE: opt-ds maps its spectral classes
     *  (and, when the likelihood does not depend on the class names, the classes of EM
     *  from a spectral start) to the label classes by the permutation of highest
     *  agreement with the soft majority vote (Hungarian assignment on the k x k matrix
     *  sum_j q_jl v_jc, v = vote shares); kos, kos-mp, ghosh-svd and eigen-ratio orient
     *  each binary split's signs to agree with the split's soft majority vote.
     *  ::CS_IDENTIFY_REFERENCE keeps the reference code's rules (column matching for
     *  opt-ds, each baseline's own sign rule). */
    CS_PARAM_IDENTIFY = 107,

    /** double, "delta": Opt-D&S floor: spectral confusion entries below delta are
     *  raised to delta before normalisation, 0..0.5. Default 1e-6 (the paper's). */
    CS_PARAM_DELTA = 200,
    /** int, "power_starts": random starts of the robust tensor power method per
     *  component, 1..100000. Default 100 (the reference code's). */
    CS_PARAM_POWER_STARTS = 201,
    /** int, "power_iters": power iterations per start, 1..100000. Default 100. */
    CS_PARAM_POWER_ITERS = 202,
    /** int, "groups": how opt-ds splits the workers into its three groups for the first
     *  spectral start, a ::cs_groups. Default ::CS_GROUPS_BALANCED (a function of the
     *  data and the seed, balanced in label volume, so the fit does not depend on how
     *  workers are numbered); ::CS_GROUPS_REFERENCE is the reference code's i mod 3. */
    CS_PARAM_GROUPS = 203,
    /** int, "starts": EM starts of opt-ds, 0..1000. 1 runs EM from one spectral start
     *  (the paper's algorithm). s >= 2 runs EM from s - 1 spectral starts (the first
     *  from the ::CS_PARAM_GROUPS partition, the others from seeded random partitions
     *  balanced in label volume) and from the soft majority vote (the MV-D&S start),
     *  and keeps the fit of highest marginal log-likelihood (the earlier start on
     *  ties), so opt-ds never ends below ds's start. 0 (default) = automatic: 3 when
     *  the fit has at most 10^6 labels, 2 above (one spectral start: the partition
     *  changes the moments' sampling noise, which has become small, and a second
     *  spectral start would add a spectral stage and an EM round). For mace: its
     *  seeded random starts (0 = 10, the MACE software's restarts). */
    CS_PARAM_STARTS = 204,
    /** int, "start_rounds": with ::CS_PARAM_STARTS >= 2, the EM rounds each start runs
     *  before only the best one continues, 0..10^7. 0 (default) = automatic: every start
     *  runs to convergence when the fit has at most 10^6 labels, and 1 round above,
     *  where the rounds dominate the cost and one round from a good start is already
     *  at the optimal rate (Zhang et al., Theorem 2), so it ranks the starts. For mace:
     *  the rounds every start runs before the best goes on (0 = 20). */
    CS_PARAM_START_ROUNDS = 205,

    /** int, "n_init": k-means++ restarts, 1..10000; the run of lowest k-means cost is
     *  kept. kmeans++ restarts on the points; lloyd, commu-lloyd, spec and spec-mle
     *  restart the k-means of their spectral initialisation (on the k-dimensional
     *  embedding, which is cheap). Default 1: the greedy seeding is reliable on the
     *  embedding, and more restarts multiply the time of the kmeans++ baseline. */
    CS_PARAM_N_INIT = 400,
    /** double, "trim": graph methods zero the rows and columns of the nodes whose degree
     *  exceeds tau = trim x the average degree (over the nodes that have edges, since
     *  0.2) before the spectral initialisation
     *  (the trimmed adjacency A^tau of Lu and Zhou); 0..10^6, 0 = no trimming. The
     *  CommuLloyd and likelihood steps use the untrimmed graph. Default 3: the theory
     *  (Chin, Rao and Vu) needs tau of the order of the average degree, and 3x removes
     *  hubs while keeping practically every node of a block model (a Poisson degree of
     *  mean 10 exceeds 30 with probability 1e-7). */
    CS_PARAM_TRIM = 401,

    /** int, "smoothing_center": where the M-step's confusion prior is centred, a
     *  ::cs_smoothing_center. Default ::CS_SMOOTHING_CENTER_UNIFORM (only
     *  ::CS_PARAM_SMOOTHING, a pseudo-count on every entry). ::CS_SMOOTHING_CENTER_POOLED
     *  adds to each worker's confusion row l the pseudo-counts s P[l][c], where P is the
     *  crowd's pooled confusion matrix (every worker's M-step counts summed, rows
     *  normalised; a row with no mass uniform), recomputed in every M-step, and
     *  s = ::CS_PARAM_SMOOTHING_STRENGTH: the MAP estimate under a Dirichlet prior
     *  centred on the crowd's average. A worker with few labels on class l gets about
     *  the crowd's row, one with many keeps their own. Applies to every EM method (ds,
     *  opt-ds, one-coin-ds, class-one-coin-ds, and the plug-in matrices of the spectral
     *  baselines); the one-coin models then see the smoothed counts. */
    CS_PARAM_SMOOTHING_CENTER = 550,
    /** double, "smoothing_strength": s, the pseudo-labels per confusion row that
     *  ::CS_SMOOTHING_CENTER_POOLED adds, 0..10^6. Default 0 = automatic: s = k, the mass
     *  of the uniform Dirichlet(1, ..., 1) prior (Laplace's rule), moved from the uniform
     *  centre to the pooled one. Ignored with the uniform centre. */
    CS_PARAM_SMOOTHING_STRENGTH = 551,
    /** int, "subtypes": ebcc's subtypes per class M, 1..1000. Default 10 (the paper's).
     *  M = 1 is bcc. */
    CS_PARAM_SUBTYPES = 552,
    /** double, "subtype_concentration": ebcc's a_pi: each class's subtype weights are
     *  Dirichlet(a_pi / M, ..., a_pi / M), 1e-6..10^6. Default 0.1 (the paper's): a
     *  sparse prior, so subtypes the data do not need get little weight. */
    CS_PARAM_SUBTYPE_CONCENTRATION = 553,
    /** double, "class_concentration": alpha of bcc and ebcc: the class proportions are
     *  Dirichlet(alpha, ..., alpha), 1e-6..10^6. Default 1 (uniform over proportions). */
    CS_PARAM_CLASS_CONCENTRATION = 554,
    /** double, "confusion_diagonal": a_v of bcc and ebcc: the Dirichlet parameter of a
     *  confusion row's own class, 1e-6..10^6. Default 4 (the paper's). */
    CS_PARAM_CONFUSION_DIAGONAL = 555,
    /** double, "confusion_off_diagonal": b_v of bcc and ebcc: the Dirichlet parameter of
     *  each other class in a confusion row, 1e-6..10^6. Default 1 (the paper's): a priori
     *  a worker gives the true class 4 times as often as any one wrong class. */
    CS_PARAM_CONFUSION_OFF_DIAGONAL = 556,

    /** int, "ordinal": 1 declares the classes grades ordered by their index (0 < 1 < ...
     *  < k-1), so that every crowd fit also gives each item's posterior median and mean
     *  grade (cs_median_grades(), cs_mean_grades()); 0 (default) unordered classes, for
     *  which only the ordinal methods (::CS_METHOD_ORDINAL_MINIMAX, ::CS_METHOD_ORDINAL_DS,
     *  which always treat the classes as ordered) give grades. The fit itself does not
     *  change. */
    CS_PARAM_ORDINAL = 600,
    /** double, "gamma": the regularisation constant of minimax-entropy and
     *  ordinal-minimax, 0..10^6: alpha = gamma k^2 penalises each worker's parameters,
     *  beta = alpha n / m each item's (Zhou et al. 2014, eq. 17). Default 1/4: the value
     *  the paper's likelihood cross-validation chose on 14 of the 15 shared sets (and tied
     *  on the 15th; docs/defaults.md). 0 = choose it per fit by that cross-validation
     *  (::CS_PARAM_CV_FOLDS folds, candidates 1/4, 1/2, 1, 2, 4; 1 + 5 x folds fits); with
     *  fewer than 2 labels per fold it is 1/4. */
    CS_PARAM_GAMMA = 601,
    /** int, "cv_folds": folds of the cross-validation that chooses gamma, 2..100.
     *  Default 5 (the paper's). */
    CS_PARAM_CV_FOLDS = 602,
    /** int, "minimax_start": the posteriors minimax-entropy and ordinal-minimax start
     *  from, a ::cs_minimax_start. Default ::CS_MINIMAX_START_VOTE (the paper's); ds needs
     *  fewer iterations (docs/defaults.md measures both). */
    CS_PARAM_MINIMAX_START = 603,

    /** double, "bwa_strength": a_v of bwa, the weight of the prior on each worker's
     *  variance in pseudo-labels, 1e-6..10^6. Default 15 (the authors' code). */
    CS_PARAM_BWA_STRENGTH = 610,
    /** double, "bwa_item_precision": lambda of bwa, the prior precision of an item's
     *  score around the class mean, 1e-6..10^6. Default 1 (the authors' code). */
    CS_PARAM_BWA_ITEM_PRECISION = 611,
    /** int, "bwa_prior_correction": 1 ("on", default) scales bwa's prior variance by
     *  adj = 4 (1 - 1/k), the authors' correction; 0 ("off") uses adj = 1. */
    CS_PARAM_BWA_PRIOR_CORRECTION = 612,
    /** double, "la_alpha": alpha of la and la-onepass's Beta(alpha, beta) ability prior,
     *  1..10^6. Default 2 (the authors'). */
    CS_PARAM_LA_ALPHA = 613,
    /** double, "la_beta": beta of that prior, 1..10^6. Default 2: with alpha = 2 every
     *  worker starts at ability 1/2. With alpha = beta = 1 a worker without labels has
     *  ability 1/2 (the flat prior's mean; it has no mode). */
    CS_PARAM_LA_BETA = 614,
    /** int, "la_order": the order in which la and la-onepass decide the items in their
     *  first pass, a ::cs_la_order. Default ::CS_LA_ORDER_RANDOM. */
    CS_PARAM_LA_ORDER = 615,

    /** int, "calibration" (since 0.2): how the posteriors of the Dawid-Skene family (ds,
     *  opt-ds, one-coin-ds, class-one-coin-ds, auto) are calibrated, a ::cs_calibration.
     *  Default ::CS_CALIBRATION_AUTO. The model's posterior treats an item's labels as
     *  independent given its class and so is far more certain than its labels warrant;
     *  calibration tempers it, q(t) proportional to q(t)^(1/T), which keeps every hard
     *  label, with T chosen from the crowd alone: the T in [1, 10] under which each
     *  label is best predicted (log-likelihood) from the other labels of its item and
     *  its worker's confusion row refitted without it (never below 1: shared mistakes
     *  make the posterior too sure, nothing makes it too unsure). With at least 10 gold items
     *  (cs_set_gold), T in [0.2, 200] and a weight eps in [0, 0.4] of the class prior,
     *  q' = (1 - eps) q_T + eps w, are fitted to the gold classes instead (each gold item
     *  scored with its workers' rows refitted without it); eps can change a hard label.
     *  With a classifier's probabilities (cs_set_model_probs()) only the crowd's evidence
     *  is tempered: q_T(t) proportional to exp((log q(t) - m(t)) / T + m(t)), m(t) =
     *  log sum_o p(o) pi_M[t][o] the classifier's term (its errors are not the workers'
     *  shared mistakes), which can change a hard label too.
     *  cs_calibration() reports what was applied. Other methods are not calibrated. */
    CS_PARAM_CALIBRATION = 620,

    /** int, "keep_labels" (since 0.2): 1 (default) keeps the labels of a crowd fit of
     *  the Dawid-Skene family on the handle after cs_fit() / cs_fit_csr(), so that
     *  cs_save() writes an updatable model and cs_update() / cs_refit() can run; 0 frees
     *  them with the fit (cs_save() then fails). They cost 4 bytes per label and 8 per
     *  item (cs_fit_csr() copies codes it used in place). */
    CS_PARAM_KEEP_LABELS = 660,
    /** int, "update_rounds" (since 0.2): the most rounds of incremental EM one
     *  cs_update() runs on the items it touches (E-step of those items, M-step from the
     *  updated statistics); it stops earlier when no touched posterior moved by more
     *  than 1e-7. Default 50, range [1, 100000]. */
    CS_PARAM_UPDATE_ROUNDS = 661,
    /** double, "update_sweep" (since 0.2): after its rounds, cs_update() also revisits
     *  items it did not touch, in a rotation over all items, until it has read this many
     *  of their labels per new label (an E-step of each, then one M-step): the older
     *  items' posteriors follow the parameters the new labels moved (Neal and Hinton
     *  1998's incremental EM over blocks). Default 4, range [0, 1e6]; 0 revisits none
     *  (docs/incremental.md gives the measurements). */
    CS_PARAM_UPDATE_SWEEP = 662,
    /** double, "update_recalibrate" (since 0.2): cs_update() re-fits the calibration
     *  (::CS_PARAM_CALIBRATION) when the labels grew by at least this fraction since it was
     *  last fitted, and otherwise keeps it. Default 0.1, range [0, 1e6]; 0 re-fits it at
     *  every update. */
    CS_PARAM_UPDATE_RECALIBRATE = 663,
    /** double, "update_refit" (since 0.2): cs_update() runs a full refit (cs_refit())
     *  instead when the labels reach this multiple of those of the last full fit. An
     *  incremental state stays in the basin of the fit it grew from, and a fit of half
     *  the labels or fewer can sit at another maximum than the fit of all of them (the
     *  replay of docs/incremental.md); refitting at each doubling costs, over any number
     *  of updates, at most about one more full fit of the final labels. Default 2, range
     *  [0, 1e6]; a value below 1 (0) never refits, neither here nor for
     *  ::CS_PARAM_UPDATE_REFIT_WORK. */
    CS_PARAM_UPDATE_REFIT = 664,
    /** double, "update_refit_work" (since 0.2): cs_update() runs a full refit
     *  (cs_refit()) instead when it would work on at least this share of the model's
     *  labels: those of the items the batch touches, after it, and the rotation's
     *  ::CS_PARAM_UPDATE_SWEEP labels per new label. Such an update costs about that share
     *  of a full fit and more (at 10^7 labels, 60 % worked on cost 41 % of a full fit, all
     *  of them 181 %: batches of 5 % and 10 % of the labels in random order), while the
     *  refit gives the full fit itself (docs/incremental.md). Default 0.5, range [0, 1];
     *  0 never refits for this reason. Only when ::CS_PARAM_UPDATE_REFIT is at least 1. */
    CS_PARAM_UPDATE_REFIT_WORK = 665,

    /** double, "comparison_prior" (since 0.2): lambda, the weak prior of the comparison
     *  methods (bt, noisy-bt, crowd-bt): every item has lambda virtual wins and lambda
     *  virtual losses against a fixed item of score 0 (the regulariser of Chen et al.
     *  2013), i.e. s_i has the density sigma(s)^lambda sigma(-s)^lambda, 0..10^6.
     *  Default 1: the standard logistic distribution (standard deviation 1.8 in
     *  log-odds), so scores exist on any comparison graph -- an item that never won gets
     *  a finite score, an item never compared gets 0 -- and it weighs as 2 comparisons
     *  with an average item: one that won 15 of 20 against average items scores
     *  logit(16/22) = 0.98 instead of logit(15/20) = 1.10 (docs/defaults.md). 0 gives the
     *  maximum-likelihood scores (mean 0), which need a strongly connected comparison
     *  graph (::CS_ERR_NOT_CONNECTED otherwise). */
    CS_PARAM_COMPARISON_PRIOR = 670,
    /** int, "ties" (since 0.2): how the comparison methods treat tie answers, a ::cs_ties.
     *  Default ::CS_TIES_AUTO. */
    CS_PARAM_TIES = 671,
    /** int, "se_items" (since 0.2): comparison fits with at most this many items get
     *  exact standard errors (the diagonal of the inverse observed information, a dense
     *  inverse, O(items^3) time and items^2 doubles); larger ones get the approximation
     *  of ::CS_NOTE_APPROXIMATE_SE, O(distinct pairs). 0..10^5; default 2000 (at 2000 items
     *  0.3 CPU seconds and 32 MB, measured). */
    CS_PARAM_SE_ITEMS = 672,
    /** double, "crowd_bt_alpha" (since 0.2): alpha_0 of crowd-bt's Beta(alpha_0, beta_0)
     *  prior of each worker's eta, 1..10^6. Default 4: with beta_0 = 1 a prior mean of 0.8
     *  worth 5 answers, which breaks the model's symmetry (reversing every score and every
     *  eta gives the same likelihood) towards workers better than chance, and is
     *  outweighed by a worker's own 20 answers. */
    CS_PARAM_CROWD_BT_ALPHA = 673,
    /** double, "crowd_bt_beta" (since 0.2): beta_0 of that prior, 1..10^6. Default 1. */
    CS_PARAM_CROWD_BT_BETA = 674,
    /** double, "score_tol" (since 0.2): a comparison fit (bt, noisy-bt, crowd-bt) has
     *  converged, besides ::CS_PARAM_TOL's rule, when no item's score moved by more than
     *  score_tol of its smallest possible standard error in the last iteration: max_i
     *  |delta s_i| sqrt(n_i / 4 + lambda / 2) <= score_tol, n_i the item's comparisons
     *  (its standard error is at least 1 / sqrt(n_i / 4 + lambda / 2)). 0 turns the rule
     *  off (the fit then runs to ::CS_PARAM_TOL's fixed point), 0..1. Default 1e-3
     *  (docs/defaults.md). */
    CS_PARAM_SCORE_TOL = 675,
    /** int, "worker_bias" (since 0.2): 1 ("on", default) gives every worker of the
     *  gaussian and student-t models an additive bias b_w; 0 ("off") is the model of
     *  Raykar et al. (noise only). */
    CS_PARAM_WORKER_BIAS = 680,
    /** double, "t_dof": degrees of freedom nu of student-t, 0.5..10^6. Default 8: of 4, 8
     *  and 16 the one of least worst-case loss over the simulated crowds and the Emotion
     *  ratings (docs/defaults.md). */
    CS_PARAM_T_DOF = 681,
    /** double, "catd_alpha": alpha of catd's (1 - alpha) confidence interval,
     *  1e-6..0.5. Default 0.05 (the paper's). */
    CS_PARAM_CATD_ALPHA = 682,
    /** double, "variance_prior": a_0 of the inverse-gamma prior on each worker's noise
     *  variance in gaussian and student-t, 0..10^6: sigma_w^2 = (b_0 + half the weighted
     *  squared residuals) / (a_0 + 1 + N_w / 2), b_0 = (a_0 + 1) v_0, v_0 the median
     *  within-item variance of the answers (the prior's mode is a typical worker).
     *  Default 2. 0 is the paper's maximum likelihood, whose variances can collapse onto
     *  a worker who alone answers an item (the floor 1e-6 x the answers' variance then
     *  holds them: ::CS_NOTE_VARIANCE_FLOOR). */
    CS_PARAM_VARIANCE_PRIOR = 683,
    /** double, "trim_fraction": the share of each item's answers trimmed-mean drops at
     *  either end, 0..0.49. Default 0.2: one answer at each end from 5 answers on. */
    CS_PARAM_TRIM_FRACTION = 684
};

/** Values of ::CS_PARAM_CONFUSION. */
enum cs_confusion_model {
    CS_CONFUSION_FULL = 0,          /**< "full": a free k x k matrix per worker. */
    CS_CONFUSION_ONE_COIN = 1,      /**< "one-coin": one accuracy p per worker; errors uniform. */
    CS_CONFUSION_CLASS_ONE_COIN = 2 /**< "class-one-coin": one accuracy per worker and true class. */
};

/** Values of ::CS_PARAM_PRIOR. */
enum cs_prior {
    CS_PRIOR_UNIFORM = 0,  /**< "uniform": P(class l) = 1/k, fixed. */
    CS_PRIOR_ESTIMATED = 1 /**< "estimated": w_l = mean posterior of class l, updated in each M-step. */
};

/** Values of ::CS_PARAM_SUPPORT. */
enum cs_support {
    CS_SUPPORT_ALL = 0,      /**< "all": every class is possible for every item. */
    CS_SUPPORT_ANSWERED = 1, /**< "answered": only the classes some worker gave the item. */
    CS_SUPPORT_AUTO = 2      /**< "auto": answered for k >= 3, all for k = 2. */
};

/** Values of ::CS_PARAM_ACCEL. */
enum cs_accel {
    CS_ACCEL_NONE = 0,   /**< "none": plain EM, one (M-step, E-step) round at a time. */
    CS_ACCEL_SQUAREM = 1 /**< "squarem": squared extrapolation with the monotone safeguard. */
};

/** Values of ::CS_PARAM_IDENTIFY. */
enum cs_identify {
    CS_IDENTIFY_VOTE = 0,     /**< "vote": classes named by agreement with the soft majority vote. */
    CS_IDENTIFY_REFERENCE = 1 /**< "reference": the reference code's rules. */
};

/** Values of ::CS_PARAM_GROUPS. */
enum cs_groups {
    CS_GROUPS_BALANCED = 0, /**< "balanced": workers by decreasing label count, each to the
                                 group with the fewest labels so far (ties by a hash of the
                                 worker's labels and the seed). */
    CS_GROUPS_REFERENCE = 1 /**< "reference": worker i to group i mod 3. */
};

/** Values of ::CS_PARAM_SMOOTHING_CENTER. */
enum cs_smoothing_center {
    CS_SMOOTHING_CENTER_UNIFORM = 0, /**< "uniform": only ::CS_PARAM_SMOOTHING, on every entry. */
    CS_SMOOTHING_CENTER_POOLED = 1,  /**< "pooled": also ::CS_PARAM_SMOOTHING_STRENGTH pseudo-labels
                                          per row, spread as the crowd's pooled confusion row. */
    CS_SMOOTHING_CENTER_STRATA = 2   /**< "strata" (since 0.2; the prior of ::CS_METHOD_AUTO): worker
                                          i in activity stratum g = floor(log2 n_i) (n_i its labels)
                                          gets s k rho_l C_g[l][c] pseudo-counts in row l, C_g the
                                          stratum's pooled rows with k pseudo-labels of the crowd's
                                          pooled rows added, rho the class prior, s =
                                          ::CS_PARAM_SMOOTHING_STRENGTH (docs/algorithms.md). */
};

/** Values of ::CS_PARAM_CALIBRATION, and the source cs_calibration() reports. */
enum cs_calibration {
    CS_CALIBRATION_NONE = 0,   /**< "none": the model's posterior as it is (T = 1). */
    CS_CALIBRATION_AUTO = 1,   /**< "auto": from gold items when there are at least 10, else
                                    from held-out labels (a parameter value only). */
    CS_CALIBRATION_LABELS = 2, /**< "labels": from held-out labels, even with gold. */
    CS_CALIBRATION_GOLD = 3    /**< Reported by cs_calibration() when gold calibrated the fit. */
};

/** Values of ::CS_PARAM_TIES (since 0.2). */
enum cs_ties {
    CS_TIES_AUTO = 0,     /**< "auto": davidson for bt; ignore for noisy-bt and crowd-bt, whose
                               models have no tie (Chen et al. and crowd-kit drop them). */
    CS_TIES_DAVIDSON = 1, /**< "davidson": Davidson's (1970) tie model (bt only; noisy-bt and
                               crowd-bt fail with ::CS_ERR_INVALID_ARGUMENT). */
    CS_TIES_HALF = 2,     /**< "half": a tie counts half a win for each item (no worker
                               reliability is learnt from it). */
    CS_TIES_IGNORE = 3    /**< "ignore": ties are dropped. */
};

/** Values of ::CS_PARAM_LA_ORDER. */
enum cs_la_order {
    CS_LA_ORDER_RANDOM = 0, /**< "random": a uniform permutation of the items drawn from ::CS_PARAM_SEED
                                 (the authors visit the items in a random order). */
    CS_LA_ORDER_ITEMS = 1   /**< "items": increasing item id, the arrival order of an online stream. */
};

/** Values of ::CS_PARAM_MINIMAX_START. */
enum cs_minimax_start {
    CS_MINIMAX_START_VOTE = 0, /**< "vote": the soft majority vote (Zhou et al. 2014, eq. 15). */
    CS_MINIMAX_START_DS = 1    /**< "ds": the posteriors of a ds fit with the handle's parameters. */
};

/** Values of ::CS_PARAM_DUPLICATES. */
enum cs_duplicates {
    CS_DUPLICATES_REJECT = 0,     /**< "reject": cs_fit() fails with ::CS_ERR_DUPLICATE. */
    CS_DUPLICATES_KEEP_FIRST = 1, /**< "first": keep the first label, ignore later ones. */
    CS_DUPLICATES_KEEP_LAST = 2   /**< "last": keep the last label, ignore earlier ones. */
};

/**
 * @brief Name of a parameter, e.g. "max_iter".
 * @param param A ::cs_param value.
 * @return A static string, or NULL if the id is unknown.
 */
CS_API const char *cs_param_name(int32_t param);

/**
 * @brief Parameter id from its name (e.g. "tol").
 * @param name NUL-terminated name.
 * @param[out] param Receives the ::cs_param value.
 * @return ::CS_OK, ::CS_ERR_NULL_POINTER or ::CS_ERR_UNKNOWN_PARAM.
 */
CS_API cs_status cs_param_from_name(const char *name, int32_t *param);

/**
 * @brief Number of parameters; they are cs_param_at(0) .. cs_param_at(count - 1).
 * @return The count.
 */
CS_API int32_t cs_param_count(void);

/**
 * @brief The id of the index-th parameter (0-based), for enumerating parameters.
 * @param index 0 <= index < cs_param_count().
 * @return A ::cs_param value, or 0 if index is out of range.
 */
CS_API int32_t cs_param_at(int32_t index);

/**
 * @brief Range and default of a parameter.
 * @param param A ::cs_param value.
 * @param[out] lower Smallest accepted value (may be NULL).
 * @param[out] upper Largest accepted value (may be NULL).
 * @param[out] default_value The default (may be NULL).
 * @param[out] is_integer 1 for an int parameter, 0 for a double one (may be NULL).
 * @return ::CS_OK or ::CS_ERR_UNKNOWN_PARAM.
 */
CS_API cs_status cs_param_info(int32_t param, double *lower, double *upper,
                               double *default_value, int32_t *is_integer);
/** @} */

/* ------------------------------------------------------------------------------ */
/** @addtogroup api_handle
 *  @{ */

/** An opaque model: parameters, and the results of the last fit. */
typedef struct cs_model cs_model;

/**
 * @brief Create a model with every parameter at its default.
 * @return A new handle owned by the caller (free it with cs_destroy()), or NULL if
 *         memory is exhausted.
 */
CS_API cs_model *cs_create(void);

/**
 * @brief Free a model and everything it owns. NULL is accepted and ignored.
 * @param model The handle; it must not be used afterwards.
 */
CS_API void cs_destroy(cs_model *model);

/**
 * @brief Message about the most recent failure, or the last fit's notes, on this handle.
 *
 * After a failed call it explains the failure, e.g. "worker id 17 at label index 3 is
 * >= n_workers (12)". Each cs_fit() resets it: after a successful fit it holds the
 * explanation of the fit's notes (for example that the spectral stage fell back to the
 * majority-vote start; see cs_fit_notes()), or is empty. Successful calls other than
 * cs_fit() leave it unchanged.
 *
 * @param model The handle, or NULL (then "NULL handle" is returned).
 * @return A NUL-terminated string owned by the handle, valid until the next call on
 *         the same handle (never NULL).
 */
CS_API const char *cs_last_error(const cs_model *model);
/** @} */

/** @addtogroup api_params
 *  @{ */

/**
 * @brief Set an integer parameter.
 * @param model The handle.
 * @param param A ::cs_param value.
 * @param value The new value; for a double parameter it is converted.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE, ::CS_ERR_UNKNOWN_PARAM, ::CS_ERR_PARAM_RANGE,
 *         ::CS_ERR_UNKNOWN_METHOD (::CS_PARAM_METHOD) or ::CS_ERR_TOO_FEW_CLASSES
 *         (::CS_PARAM_CLASSES = 1); on failure the old value is kept (see cs_last_error()).
 */
CS_API cs_status cs_set_int(cs_model *model, int32_t param, int64_t value);

/**
 * @brief Set a double parameter.
 * @param model The handle.
 * @param param A ::cs_param value.
 * @param value The new value; for an int parameter it must be a whole number.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE, ::CS_ERR_UNKNOWN_PARAM, ::CS_ERR_PARAM_RANGE
 *         (NaN, non-integral for an int parameter, or out of range),
 *         ::CS_ERR_UNKNOWN_METHOD or ::CS_ERR_TOO_FEW_CLASSES as for cs_set_int().
 */
CS_API cs_status cs_set_double(cs_model *model, int32_t param, double value);

/**
 * @brief Read an integer parameter.
 * @param model The handle.
 * @param param A ::cs_param value of an int parameter.
 * @param[out] value Receives the current value.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_UNKNOWN_PARAM,
 *         or ::CS_ERR_INVALID_ARGUMENT for a double parameter.
 */
CS_API cs_status cs_get_int(const cs_model *model, int32_t param, int64_t *value);

/**
 * @brief Read a parameter as a double (works for int parameters too).
 * @param model The handle.
 * @param param A ::cs_param value.
 * @param[out] value Receives the current value.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_UNKNOWN_PARAM.
 */
CS_API cs_status cs_get_double(const cs_model *model, int32_t param, double *value);

/**
 * @brief Set a parameter from strings, e.g. ("method", "opt-ds"), ("tol", "1e-8"),
 *        ("prior", "estimated"), ("confusion", "one-coin"), ("duplicates", "first").
 *
 * Enumerated parameters accept their value names (see the enum documentation) or
 * numbers; numeric parameters accept decimal numbers. For bindings and command lines.
 *
 * @param model The handle.
 * @param name Parameter name (cs_param_name()).
 * @param value The value as text.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_UNKNOWN_PARAM,
 *         ::CS_ERR_UNKNOWN_METHOD, ::CS_ERR_INVALID_ARGUMENT (unparsable text) or
 *         ::CS_ERR_PARAM_RANGE.
 */
CS_API cs_status cs_set_param_string(cs_model *model, const char *name, const char *value);
/** @} */

/** @addtogroup api_fitting
 *  @{ */

/**
 * @brief Progress callback, called by a fit after its initialisation (iteration 0)
 *        and after every completed iteration.
 * @param user The pointer given to cs_set_progress().
 * @param iteration Completed EM rounds (or Lloyd iterations, eigensolver block
 *        products, message-passing rounds: see ::cs_method) so far.
 * @param objective The current objective: the marginal log-likelihood for EM methods,
 *        minus the Lloyd cost for crowd-lloyd, the cs_trace() entry of the iteration for
 *        points and graphs, 0 where there is none (kos, kos-mp, ghosh-svd, eigen-ratio;
 *        iteration 0 of points and graphs).
 * @return 0 to continue; any other value cancels the fit, which then returns
 *         ::CS_ERR_CANCELLED with the results of the last completed iteration kept.
 *
 * Since 0.2 the stages whose one iteration costs O(k^2) or more at a large number of
 * classes k (Opt-D&S's spectral stage and class matching, ebcc's and bcc's parameter
 * updates) also call the callback every 2^24 inner steps, tens of milliseconds, with the
 * last completed iteration and objective again: a cancel is then answered within that,
 * and, since the iteration under way is incomplete, the fit returns ::CS_ERR_CANCELLED
 * without results (cs_n_items() and the other getters return ::CS_ERR_NOT_FITTED; the
 * message says "before it completed"). Small fits never poll.
 */
typedef int32_t (*cs_progress_fn)(void *user, int32_t iteration, double objective);

/**
 * @brief Install (or with fn = NULL remove) the progress/cancel callback of a handle.
 * @param model The handle.
 * @param fn The callback, or NULL.
 * @param user Passed back to fn unchanged; the library never dereferences it.
 * @return ::CS_OK or ::CS_ERR_NULL_HANDLE.
 */
CS_API cs_status cs_set_progress(cs_model *model, cs_progress_fn fn, void *user);

/**
 * @brief Give known true labels ("gold") for some items, used by every later crowd fit
 *        (cs_fit(); points and graph fits ignore it).
 *
 * Gold items are pinned: their posterior is one-hot on the gold class in every
 * E-step (semi-supervised EM), majority vote returns the gold class for them,
 * CrowdLloyd never moves them, and kos, kos-mp, ghosh-svd and eigen-ratio return the
 * gold class for them (gold does not enter their spectral computation). Their labels still inform the workers' confusion
 * matrices. The arrays are copied. Calling it again replaces the gold set; n = 0
 * clears it (the pointers may then be NULL). Gold items and labels are checked
 * against the number of items and classes at cs_fit() time (an item beyond the
 * labelled ones extends n_items when ::CS_PARAM_ITEMS is 0; likewise a gold label k).
 *
 * @param model The handle.
 * @param item Gold item ids (0-based, >= 0).
 * @param label Their true classes (0-based, >= 0).
 * @param n Number of gold items.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER (n > 0 and an array
 *         is NULL); ::CS_ERR_INVALID_ID or ::CS_ERR_INVALID_LABEL (a negative value);
 *         ::CS_ERR_DUPLICATE (an item given two different gold labels). At cs_fit():
 *         ::CS_ERR_INVALID_ID / ::CS_ERR_INVALID_LABEL when out of range.
 */
CS_API cs_status cs_set_gold(cs_model *model, const int32_t *item, const int32_t *label,
                             size_t n);

/**
 * @brief Start EM from given worker confusion matrices (a warm start), for example the
 *        matrices of a previous fit on an earlier batch (crowd-kit's `initial_error`).
 *
 * The next cs_fit() of an EM method (ds, opt-ds, one-coin-ds, class-one-coin-ds) starts
 * from these matrices (and the prior of cs_set_initial_prior(), if set) instead of its
 * own start: ds skips its majority-vote start, opt-ds its spectral stage and its other
 * starts. The layout is that of cs_confusion(): worker i, true class l, observed class
 * c at [(i k + l) k + c]. Each row is normalised to sum 1 at cs_fit(); a row of zeros
 * marks a worker as unknown (a worker new in this batch): all of that worker's rows
 * then start from the majority-vote estimate, as in ds. The array is copied and kept
 * for every later fit until replaced; n = 0 clears it (confusion may then be NULL).
 * The other crowd methods, points and graphs fail with ::CS_ERR_INVALID_ARGUMENT while
 * it is set.
 *
 * @param model The handle.
 * @param confusion n values, each finite and >= 0.
 * @param n Number of values: at cs_fit() it must be n_workers x k x k of that fit
 *        (fix the sizes with ::CS_PARAM_WORKERS and ::CS_PARAM_CLASSES when the batch's
 *        largest ids differ).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER (n > 0 and confusion is
 *         NULL); ::CS_ERR_INVALID_ARGUMENT (a value negative or not finite; the message
 *         names its index). At cs_fit(): ::CS_ERR_INVALID_ARGUMENT when n does not match
 *         the fit or the method cannot start from it.
 */
CS_API cs_status cs_set_initial_confusion(cs_model *model, const double *confusion, size_t n);

/**
 * @brief The class prior EM starts from together with cs_set_initial_confusion().
 *
 * Normalised to sum 1 at cs_fit(). Used with ::CS_PRIOR_ESTIMATED (the default); with
 * ::CS_PRIOR_UNIFORM the prior stays uniform. Without it a warm start begins from the
 * uniform prior. Copied and kept until replaced; n = 0 clears it. Setting a prior
 * without initial confusion matrices makes cs_fit() fail with
 * ::CS_ERR_INVALID_ARGUMENT.
 *
 * @param model The handle.
 * @param prior n values, each finite and >= 0, not all 0.
 * @param n Number of values: k at cs_fit().
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_INVALID_ARGUMENT
 *         (a value negative or not finite). At cs_fit(): ::CS_ERR_INVALID_ARGUMENT when n
 *         is not k or the values sum to 0.
 */
CS_API cs_status cs_set_initial_prior(cs_model *model, const double *prior, size_t n);

/**
 * @brief The calibration cs_predict() applies with the workers of
 *        cs_set_initial_confusion() (no fit on the handle).
 *
 * Since 0.2. A fit of the Dawid-Skene family calibrates its posteriors
 * (::CS_PARAM_CALIBRATION, cs_calibration()); a later cs_predict() with the same workers
 * on a new handle gives the same posteriors for the same items only with the same
 * calibration: q'(t) = (1 - mixing) q_T(t) + mixing w(t), q_T proportional to
 * q(t)^(1/temperature) (with a classifier's rows, cs_predict_model_probs(), its term is
 * left untempered, as ::CS_PARAM_CALIBRATION says). After a fit on the handle,
 * cs_predict() uses that fit's own calibration and ignores these values. Kept until
 * replaced; (1, 0) is none.
 *
 * @param model The handle.
 * @param temperature T, 1e-6 to 1e6.
 * @param mixing The weight of the class prior, 0 to 1 (1 excluded).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_INVALID_ARGUMENT (a value outside its
 *         range or not finite).
 */
CS_API cs_status cs_set_initial_calibration(cs_model *model, double temperature, double mixing);

/**
 * @brief Fit the model's method to crowd labels given as triples.
 *
 * Label t says that worker worker[t] gave label[t] to item item[t]. All three arrays
 * have n_labels entries and are copied; they may be freed after the call. Ids and
 * labels are 0-based. The numbers of items, workers and classes are the parameters
 * ::CS_PARAM_ITEMS, ::CS_PARAM_WORKERS and ::CS_PARAM_CLASSES, or inferred from the
 * largest id (label) + 1 when those are 0. Ids index the library's tables (a k x k
 * matrix per worker id, a row per item id), so memory and time grow with those
 * numbers as well as with n_labels: one label from worker 10^7 costs 10^7 matrices.
 * Give dense ids; renumber sparse ones first (the command-line program and the
 * bindings do).
 *
 * The order of the triples does not matter: the library takes each item's labels in
 * increasing worker order, so any permutation of the same triples gives bit-identical
 * results. The one exception is the duplicate policy (::CS_PARAM_DUPLICATES 'first' /
 * 'last'), which keeps a worker's first or last label of an item in the order given.
 *
 * On success the results below are available until the next fit or cs_destroy().
 * A failed fit (other than ::CS_ERR_CANCELLED) leaves the handle without results.
 *
 * @param model The handle.
 * @param item Item ids, each in [0, n_items).
 * @param worker Worker ids, each in [0, n_workers).
 * @param label Labels, each in [0, k).
 * @param n_labels Number of triples (> 0).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER (an array is NULL);
 *         ::CS_ERR_EMPTY_INPUT (n_labels == 0); ::CS_ERR_INVALID_ID; ::CS_ERR_INVALID_LABEL;
 *         ::CS_ERR_TOO_FEW_CLASSES (k < 2); ::CS_ERR_TOO_MANY_CLASSES (k >
 *         ::CS_MAX_CROWD_CLASSES: "k = 10001 classes (inferred from the largest label,
 *         10000); cs_fit supports at most 10000"); ::CS_ERR_TOO_LARGE (n_workers x k >=
 *         2^32, or n_labels >= 2^61: "n_workers x k = 5000000 x 1000 = 5000000000 is >=
 *         2^32 ..."); ::CS_ERR_DUPLICATE; ::CS_ERR_WRONG_INPUT_KIND; ::CS_ERR_CANCELLED;
 *         ::CS_ERR_OUT_OF_MEMORY. The message (cs_last_error()) names the offending index
 *         and value.
 */
CS_API cs_status cs_fit(cs_model *model, const int32_t *item, const int32_t *worker,
                        const int32_t *label, size_t n_labels);

/**
 * @brief Fit the model's method to crowd labels already grouped by item, as compressed
 *        sparse rows of packed codes (the layout the library works in).
 *
 * Item j's labels are code[item_start[j]] .. code[item_start[j + 1] - 1]; a code packs a
 * worker id and a label as worker * k + label (so worker = code / k, label = code % k).
 * This is the same fit as cs_fit() on the triples (item, code / k, code % k), bit for
 * bit, but for large inputs it needs far less memory: 4 bytes per label in the caller's
 * array instead of 12, and the library uses the codes in place instead of copying them
 * when each item's codes are in increasing worker order, each worker once (the order
 * the library works in, and the one `crowdspec convert` writes). Otherwise it copies
 * them (4 bytes per label) to sort each item's labels by worker, and to drop labels
 * under the duplicate policy ('first' and 'last' refer to the order within the item
 * given here). The arrays are only read, and only during the call; they may be freed
 * (or unmapped) afterwards. A read-only memory-mapped file is fine.
 *
 * The number of workers is ::CS_PARAM_WORKERS, or the largest code / k + 1 when that
 * is 0; the number of items is n_items, or ::CS_PARAM_ITEMS when that is set (it must
 * then be >= n_items; the items beyond the rows have no labels). ::CS_PARAM_CLASSES
 * must be 0 or equal k. Gold labels (cs_set_gold()), initial matrices and the other
 * parameters apply as for cs_fit().
 *
 * @param model The handle.
 * @param n_items Number of rows (items), 1 .. 2^31 - 1.
 * @param item_start n_items + 1 offsets: item_start[0] = 0, non-decreasing; the number of
 *        labels is item_start[n_items] (> 0).
 * @param code item_start[n_items] codes worker * k + label, with 0 <= label < k
 *        (guaranteed by the packing) and n_workers x k < 2^32.
 * @param k Number of classes (>= 2).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER (an array is NULL);
 *         ::CS_ERR_EMPTY_INPUT (n_items == 0 or no labels); ::CS_ERR_INVALID_ARGUMENT
 *         (item_start not starting at 0 or decreasing, k not the 'classes' parameter);
 *         ::CS_ERR_INVALID_ID (a worker >= ::CS_PARAM_WORKERS, more rows than
 *         ::CS_PARAM_ITEMS); ::CS_ERR_TOO_FEW_CLASSES (k < 2); ::CS_ERR_TOO_MANY_CLASSES
 *         (k > ::CS_MAX_CROWD_CLASSES); ::CS_ERR_TOO_LARGE (n_workers x k >= 2^32,
 *         n_items >= 2^31, n_labels >= 2^61); ::CS_ERR_DUPLICATE (positions named);
 *         ::CS_ERR_WRONG_INPUT_KIND; ::CS_ERR_CANCELLED; ::CS_ERR_OUT_OF_MEMORY, as cs_fit().
 */
CS_API cs_status cs_fit_csr(cs_model *model, size_t n_items, const int64_t *item_start,
                            const uint32_t *code, int32_t k);

/**
 * @brief Cluster n points of R^d into k clusters (methods 100-199: ::CS_METHOD_LLOYD,
 *        ::CS_METHOD_KMEANS_PP).
 *
 * Point i is the row x[i * ld + 0 .. i * ld + d - 1] (row-major; a leading dimension
 * ld > d reads a column block of a wider matrix). The array is only read during the
 * call and may be freed afterwards. k is ::CS_PARAM_CLASSES, which must be set
 * (2 <= k <= n). Coordinates may be any finite numbers of magnitude <= 1e100 (so that
 * squared distances cannot overflow); distances are computed around the data mean, so
 * a large common offset costs no precision.
 *
 * Results: cs_labels() (cluster 0..k-1 of each point; each cluster is non-empty),
 * cs_centres() (the means of the clusters, k x d), cs_n_items() (= n), cs_n_dims()
 * (= d), cs_n_classes() (= k), cs_class_prior() (cluster proportions), cs_iterations()
 * (Lloyd iterations on the original points; for kmeans++ those of the kept restart),
 * cs_converged() (1 when an iteration changed no label), cs_trace() (minus the k-means
 * cost sum_i ||x_i - c_(z_i)||^2 of each iteration's labels under the centres they were
 * assigned to; it never decreases). A Lloyd iteration is a centre update (cluster means
 * of the current labels) followed by a label update (nearest centre, ties to the lowest
 * index). A cluster left empty by a label update is re-seeded with the point farthest
 * from its assigned centre (ties to the lowest index; taken only from clusters of two
 * or more points), which then forms that cluster alone (::CS_NOTE_EMPTY_CLUSTER).
 * The progress callback sees iteration 0 after the initialisation and every Lloyd
 * iteration after it (for kmeans++ with ::CS_PARAM_N_INIT > 1, the count starts at 0
 * again for each restart; cancelling keeps the best finished restart, or the current
 * one if none has finished). cs_set_gold() does not apply to points.
 *
 * @param model The handle; its method must take points.
 * @param x The points, at least (n - 1) * ld + d doubles.
 * @param n Number of points (1 .. 2^31 - 1).
 * @param d Dimension (1 .. 2^31 - 1).
 * @param ld Leading dimension (stride between rows, in doubles), >= d; 0 means d.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_WRONG_INPUT_KIND (the method does not
 *         take points); ::CS_ERR_NULL_POINTER (x is NULL); ::CS_ERR_EMPTY_INPUT (n = 0 or
 *         d = 0); ::CS_ERR_INVALID_ARGUMENT (ld < d, or a size too large);
 *         ::CS_ERR_TOO_FEW_CLASSES (k not set); ::CS_ERR_TOO_MANY_CLASSES (k > n);
 *         ::CS_ERR_NON_FINITE (the message names the point and coordinate);
 *         ::CS_ERR_CANCELLED; ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_fit_points(cs_model *model, const double *x, size_t n, size_t d,
                               size_t ld);

/**
 * @brief Find k communities among the nodes of an undirected graph (methods 200-299:
 *        ::CS_METHOD_COMMU_LLOYD, ::CS_METHOD_SPEC, ::CS_METHOD_SPEC_MLE).
 *
 * Edge t joins nodes u[t] and v[t] (0-based ids < n_nodes). The graph is simple and
 * unweighted: a pair of nodes is adjacent or not, so repeated edges (in either
 * orientation) count once, and self-loops (u[t] == v[t]) are ignored, as the stochastic
 * block model has none; both are reported with ::CS_NOTE_IGNORED_EDGES. The arrays are
 * only read during the call. k is ::CS_PARAM_CLASSES, which must be set
 * (2 <= k <= n_nodes).
 *
 * Results: cs_labels() (community of each node), cs_n_items() (= n_nodes),
 * cs_n_classes() (= k), cs_class_prior() (community proportions),
 * cs_graph_densities(), cs_iterations() (CommuLloyd iterations; 0 for spec, 1 for
 * spec-mle), cs_converged() (1 when an iteration changed no label; spec and spec-mle
 * always converge), cs_trace() (commu-lloyd: sum_i max_h e_ih / n_h after each iteration,
 * e_ih = edges from node i into community h and n_h its size under the previous labels;
 * spec-mle: the maximised likelihood score summed over nodes; spec: empty). Memory and
 * time per iteration are O(edges + n_nodes); the spectral initialisation never forms a
 * dense n x n matrix. cs_set_gold() does not apply to graphs.
 *
 * @param model The handle; its method must take graphs.
 * @param n_nodes Number of nodes (1 .. 2^31 - 1); nodes without edges are allowed
 *        (::CS_NOTE_ISOLATED_NODES): they get community 0 and take no part in the fit,
 *        so the other nodes get the communities they get without them (since 0.2).
 * @param u First endpoint of each edge.
 * @param v Second endpoint of each edge.
 * @param n_edges Number of edges (> 0).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_WRONG_INPUT_KIND; ::CS_ERR_NULL_POINTER;
 *         ::CS_ERR_EMPTY_INPUT (n_nodes = 0, n_edges = 0, or only self-loops);
 *         ::CS_ERR_INVALID_ID (an id negative or >= n_nodes; the message names the edge
 *         index); ::CS_ERR_INVALID_ARGUMENT (a size too large); ::CS_ERR_TOO_FEW_CLASSES
 *         (k not set); ::CS_ERR_TOO_MANY_CLASSES (k > n_nodes); ::CS_ERR_CANCELLED;
 *         ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_fit_graph(cs_model *model, size_t n_nodes, const int32_t *u,
                              const int32_t *v, size_t n_edges);

/** The answer of one pairwise comparison (cs_fit_comparisons(), since 0.2). Values are
 *  pinned. */
enum cs_answer {
    CS_ANSWER_LEFT = 0,  /**< The left item is better (won). */
    CS_ANSWER_RIGHT = 1, /**< The right item is better. */
    CS_ANSWER_TIE = 2    /**< Neither: a tie ("equal", "can't decide"); see ::CS_PARAM_TIES. */
};

/**
 * @brief Rank items from pairwise comparisons "which of left and right is better?"
 *        (methods 300-399: ::CS_METHOD_BT, ::CS_METHOD_NOISY_BT, ::CS_METHOD_CROWD_BT;
 *        since 0.2).
 *
 * Comparison t says that worker worker[t], shown items left[t] and right[t], answered
 * answer[t] (a ::cs_answer). The arrays are only read during the call. The numbers of
 * items and workers are ::CS_PARAM_ITEMS and ::CS_PARAM_WORKERS, or 1 + the largest id
 * when those are 0. A comparison of an item with itself is ignored
 * (::CS_NOTE_IGNORED_EDGES); an item in no comparison gets score 0
 * (::CS_NOTE_ISOLATED_NODES). The same comparison may appear any number of times: each
 * counts. The order of the comparisons does not matter (up to floating-point rounding
 * of sums, which the library makes in a fixed order: the same input and parameters give
 * bit-identical results for every thread count).
 *
 * Results: cs_scores() (score s_i, its standard error and its rank), cs_worker_reliability()
 * (noisy-bt, crowd-bt), cs_n_items(), cs_n_workers(), cs_iterations(), cs_converged(),
 * cs_trace() (the log posterior -- log-likelihood plus the log priors -- at the start,
 * trace[0], and after each iteration; it never decreases), cs_log_likelihood() (its
 * last value), cs_fit_notes(), cs_estimate(). cs_labels() gives each item's rank - 1 (0 =
 * best); cs_n_classes() is 0 and cs_posteriors() writes nothing. A plain step is one MM
 * sweep (bt) or one EM round (noisy-bt, crowd-bt); with ::CS_PARAM_ACCEL =
 * ::CS_ACCEL_SQUAREM (the default) an iteration is one SQUAREM cycle (two plain steps, an
 * extrapolation on the log strengths, log nu and the logits of the worker probabilities,
 * and a plain step from it, kept only when its log posterior is at least the plain
 * steps'), with ::CS_ACCEL_NONE one plain step. The fit stops when the relative change of the log posterior is at most ::CS_PARAM_TOL, or after
 * ::CS_PARAM_MAX_ITER iterations (::CS_NOTE_MAX_ITER_REACHED). The progress callback sees
 * iteration 0 (the start) and every iteration with the log posterior. Every result is
 * finite, whatever the data (one item, all ties, a worker who always answers left).
 *
 * @param model The handle; its method must take comparisons.
 * @param worker Worker ids, each in [0, n_workers); NULL means one worker (id 0) gave
 *        every answer (bt ignores workers).
 * @param left Left item ids, each in [0, n_items).
 * @param right Right item ids, each in [0, n_items).
 * @param answer Answers, each a ::cs_answer value.
 * @param n Number of comparisons (> 0, < 2^32).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_WRONG_INPUT_KIND (the method does not
 *         take comparisons); ::CS_ERR_NULL_POINTER (left, right or answer is NULL);
 *         ::CS_ERR_EMPTY_INPUT (n = 0); ::CS_ERR_INVALID_ID (an id negative or beyond
 *         the declared count; the message names the index); ::CS_ERR_INVALID_ANSWER;
 *         ::CS_ERR_TOO_LARGE (n >= 2^32); ::CS_ERR_INVALID_ARGUMENT (::CS_TIES_DAVIDSON
 *         with noisy-bt or crowd-bt); ::CS_ERR_NOT_CONNECTED (prior 0 and the scores do
 *         not exist); ::CS_ERR_CANCELLED; ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_fit_comparisons(cs_model *model, const int32_t *worker, const int32_t *left,
                                    const int32_t *right, const int32_t *answer, size_t n);
/** @} */

/* ------------------------------------------------------------------------------ */
/** @addtogroup api_results
 *  Available after a successful (or cancelled) fit; otherwise ::CS_ERR_NOT_FITTED.
 *  Array results are copied into caller buffers: capacity is the buffer's length in
 *  elements, and a capacity smaller than the result is ::CS_ERR_BUFFER_TOO_SMALL
 *  (nothing is written).
 *  @{ */

/** Bits of cs_fit_notes(): facts about a successful (or cancelled) fit worth a warning. */
enum cs_fit_note {
    /** EM (or Lloyd) stopped at max_iter before meeting tol. */
    CS_NOTE_MAX_ITER_REACHED = 1,
    /** Opt-D&S: the spectral stage was singular or ill-conditioned for some or all
     *  workers, whose start fell back to the majority-vote (MV-D&S) start. kos, kos-mp,
     *  ghosh-svd, eigen-ratio: a binary split carried no usable information (or its
     *  eigensolver failed) and its items took the majority sign of the split (see
     *  ::cs_method). */
    CS_NOTE_SPECTRAL_FALLBACK = 2,
    /** Some items had zero likelihood under every class (zero confusion entries);
     *  they got the class prior as posterior (uniform unless the prior is estimated)
     *  and are left out of the log-likelihood. */
    CS_NOTE_IMPOSSIBLE_ITEMS = 4,
    /** Some items in [0, n_items) have no labels; their posterior is the class prior
     *  (uniform for mv, crowd-lloyd, kos, kos-mp, ghosh-svd, eigen-ratio, glad and
     *  mace, and when the prior is uniform) and their label its most probable class (ties to the
     *  lowest index). */
    CS_NOTE_UNLABELED_ITEMS = 8,
    /** The fit was cancelled by the progress callback; results are those of the last
     *  completed iteration. */
    CS_NOTE_CANCELLED = 16,
    /** cs_fit_graph(): self-loops or repeated edges were given; they were ignored (an
     *  edge counts once whatever its multiplicity or orientation). cs_fit_comparisons():
     *  comparisons of an item with itself (left == right) were ignored. */
    CS_NOTE_IGNORED_EDGES = 32,
    /** cs_fit_graph(): some nodes have no edge; nothing informs their community and
     *  they get community 0. cs_fit_comparisons(): some items were in no comparison; they
     *  get the prior's score 0 (see ::CS_PARAM_COMPARISON_PRIOR). */
    CS_NOTE_ISOLATED_NODES = 64,
    /** A Lloyd iteration left a cluster empty; it was re-seeded with the point farthest
     *  from its centre (see cs_fit_points()). */
    CS_NOTE_EMPTY_CLUSTER = 128,
    /** CommuLloyd: the labels alternated between two states (the simultaneous update can
     *  cycle); the iterations stopped when a state repeated, and the labels are those of
     *  the two with the larger ratio association sum_h 2 e_hh / n_h (the objective the
     *  update climbs; the later state on ties), so they may be the previous iteration's. */
    CS_NOTE_LABEL_CYCLE = 256,
    /** The eigen- or singular-vector solver of a spectral initialisation did not reach its
     *  tolerance within its iteration budget; its last subspace was used. */
    CS_NOTE_EIGEN_NOT_CONVERGED = 512,
    /** opt-ds with ::CS_PARAM_STARTS >= 2: the EM run from the majority-vote start
     *  reached a higher log-likelihood than every spectral start, so its fit was kept;
     *  cs_last_error() gives every start's final log-likelihood. */
    CS_NOTE_MAJORITY_START = 1024,
    /** cs_predict(): some workers of the batch were not in the fit (ids >= its number of
     *  workers); their labels were weighed by the mean of the known workers' confusion
     *  matrices (the average worker). */
    CS_NOTE_UNKNOWN_WORKERS = 65536,
    /** EM methods (ds, opt-ds, one-coin-ds, class-one-coin-ds): EM ended at a degenerate
     *  maximum of the likelihood. Some items' label was confounded with other classes:
     *  no worker's confusion matrix tells them apart (for every worker their rows agree
     *  within 1e-4, or one of the classes has no posterior mass on the worker's items),
     *  so the likelihood depends only on their total posterior mass and EM's split of it
     *  was arbitrary (the lowest-index rule on a tie under the uniform prior -- on a
     *  unanimous crowd "every class always says c" gave every item class 0 -- or an
     *  estimated prior that collapsed onto one class). Each such item falls back to
     *  majority vote among the confounded classes: they share the item's posterior mass
     *  in proportion to its votes for them (nothing changes when it has none), and its
     *  label is the argmax of the result (ties to the lowest index). Confusion matrices,
     *  prior, trace and log-likelihood are EM's. Items without labels, gold items and
     *  impossible items (::CS_NOTE_IMPOSSIBLE_ITEMS) never change. cs_last_error() gives
     *  the number of items changed and the first. */
    CS_NOTE_DEGENERATE_MAXIMUM = 131072,
    /** cs_fit_comparisons() (since 0.2): there were more items than ::CS_PARAM_SE_ITEMS, so
     *  the standard errors are not the exact diagonal of the inverse information F but
     *  1 / F_ii + sum_j F_ij^2 / (F_ii^2 F_jj) + 1 / sum_j P_j: the first two terms of its
     *  series in the neighbours' order, plus the variance of the scores' common shift,
     *  which only the prior's curvature P pins (within 2% of the exact value on random
     *  comparison graphs of 100+ comparisons per item; test_comparisons). */
    CS_NOTE_APPROXIMATE_SE = 4194304,
    /** cs_fit_numbers() (since 0.2): some workers' noise variance reached its floor,
     *  1e-6 times the variance of all answers: they agree exactly with the estimates
     *  (typically the only answerer of their items); their weight is capped there. */
    CS_NOTE_VARIANCE_FLOOR = 8388608,
    /** (since 0.2) The results come from incremental updates (cs_update()) since the
     *  last full fit: the items an update did not touch or revisit keep posteriors
     *  computed under earlier parameters. cs_refit() gives the full fit. */
    CS_NOTE_INCREMENTAL = 16777216,
    /** crowdlab (since 0.2): it ran without part of what it needs: no model
     *  probabilities (cs_set_model_probs(); every model row is then uniform and crowdlab
     *  is a worker-weighted vote), or no item with two or more labels (no agreement to
     *  weigh the workers by: every weight is 1 and each label counts at face value).
     *  cs_last_error() says which. */
    CS_NOTE_CROWDLAB_FALLBACK = 33554432
};

/**
 * @brief Label a new batch of items by known workers without refitting: one E-step
 *        with the worker confusion matrices and class prior of the last crowd fit (or,
 *        before any fit, those set by cs_set_initial_confusion() and
 *        cs_set_initial_prior()).
 *
 * Worker ids are those of the fit (0 .. its n_workers - 1). A worker id at or beyond
 * that count is a worker the fit did not see: its labels are weighed by the mean of
 * the known workers' matrices (the average worker) and the result notes
 * ::CS_NOTE_UNKNOWN_WORKERS. Items are numbered for the batch alone: 0 .. the largest
 * item id (::CS_PARAM_ITEMS is not used); labels must be < k of the fit. The E-step is
 * the fit's (::CS_PARAM_SUPPORT and ::CS_PARAM_THREADS apply; gold does not). Before any
 * fit the rows of the initial matrices are normalised, and a row of zeros becomes
 * uniform: that true class then says nothing about the worker's labels (unlike
 * cs_fit(), which has the data to estimate such a worker from).
 *
 * On success the handle's results describe the batch: cs_n_items(), cs_labels(),
 * cs_posteriors() for its items; cs_confusion() the matrices used (one per worker id
 * up to the batch's largest, unknown ones as the mean) and cs_class_prior() the prior,
 * so cs_predict() can be called again for the next batch; cs_log_likelihood() the
 * batch's log-likelihood; cs_iterations() 0; cs_converged() 1. The arrays are copied.
 *
 * @param model The handle.
 * @param item Item ids of the batch, each >= 0.
 * @param worker Worker ids, each >= 0.
 * @param label Labels, each in [0, k).
 * @param n_labels Number of triples (> 0).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_EMPTY_INPUT;
 *         ::CS_ERR_NOT_FITTED (no crowd fit and no initial confusion, or a fit whose
 *         method gives no confusion matrices); ::CS_ERR_WRONG_INPUT_KIND (the last fit
 *         was of points or a graph); ::CS_ERR_INVALID_ID; ::CS_ERR_INVALID_LABEL;
 *         ::CS_ERR_DUPLICATE; ::CS_ERR_INVALID_ARGUMENT (before any fit: k unknown --
 *         set an initial prior or ::CS_PARAM_CLASSES -- or initial matrices that are not
 *         a whole number of k x k); ::CS_ERR_OUT_OF_MEMORY. On failure the
 *         handle keeps its previous results.
 */
CS_API cs_status cs_predict(cs_model *model, const int32_t *item, const int32_t *worker,
                            const int32_t *label, size_t n_labels);

/**
 * @brief (since 0.2) cs_predict() with a classifier's probabilities for items of the
 *        batch: their model term enters the E-step with the fit's estimate of the
 *        classifier's confusion matrix (cs_model_confusion()).
 *
 * As cs_predict(), and item j of the batch with a row gets the factor
 * sum_o p_j(o) pi_M[t][o] in its posterior, pi_M the classifier's matrix of the last fit
 * (a Dawid-Skene family fit with cs_set_model_probs(), a loaded model of one, or an
 * update of it), exactly as in that fit's E-step: predicting the fit's own labels with
 * its own rows gives its posteriors. pi_M is not re-estimated (one E-step, no M-step).
 * The rows are in the batch's item ids (0 .. its largest item), not the fit's, and are
 * used by this call only; the handle's cs_set_model_probs() rows are not read. Items
 * without a row get no model term. n_rows = 0 is cs_predict() (model_item and probs may
 * then be NULL). Afterwards the results keep pi_M, so the next batch can use it again.
 *
 * @param model The handle (as cs_predict()).
 * @param item, worker, label, n_labels The batch (as cs_predict()).
 * @param model_item n_rows item ids of the batch (>= 0, each at most once), or NULL for
 *        items 0 .. n_rows - 1.
 * @param probs n_rows x k values (k of the fit), row r item model_item[r]'s
 *        probabilities: finite, >= 0, not all 0 (each row is normalised to sum 1).
 * @param n_rows Number of rows.
 * @return As cs_predict(), and ::CS_ERR_INVALID_ARGUMENT (the fit estimated no
 *         classifier matrix -- it had no model probabilities, or its method takes none,
 *         or there is no fit but initial matrices --; a value negative or not finite, a
 *         row summing to 0, an item twice: the message names the row);
 *         ::CS_ERR_INVALID_ID (a row's item is negative or beyond the batch's items).
 *         On failure the handle keeps its previous results.
 */
CS_API cs_status cs_predict_model_probs(cs_model *model, const int32_t *item, const int32_t *worker,
                                        const int32_t *label, size_t n_labels, const int32_t *model_item,
                                        const double *probs, size_t n_rows);

/**
 * @brief Number of items of the last fit (points for cs_fit_points(), nodes for
 *        cs_fit_graph()).
 * @param model The handle.
 * @param[out] n Receives the count.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_n_items(const cs_model *model, size_t *n);

/**
 * @brief Number of workers of the last fit (0 for points and graphs).
 * @param model The handle.
 * @param[out] n Receives the count.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_n_workers(const cs_model *model, size_t *n);

/**
 * @brief Number of classes k of the last fit.
 * @param model The handle.
 * @param[out] n Receives k.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_n_classes(const cs_model *model, size_t *n);

/**
 * @brief Hard labels: the most probable class of each item (ties to the lowest index).
 * @param model The handle.
 * @param[out] labels Buffer for n_items class indices.
 * @param capacity Length of labels (>= n_items).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_labels(const cs_model *model, int32_t *labels, size_t capacity);

/**
 * @brief Posterior class probabilities, n_items x k row-major; each row sums to 1.
 *        Points and graph methods give hard labels: their rows are one-hot.
 * @param model The handle.
 * @param[out] posteriors Buffer for n_items * k doubles.
 * @param capacity Length of posteriors (>= n_items * k).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_posteriors(const cs_model *model, double *posteriors, size_t capacity);

/**
 * @brief Estimated confusion matrices, n_workers x k x k row-major (worker x true x
 *        observed); each (worker, true class) row sums to 1.
 *
 * For mv they are the Dawid-Skene M-step estimate from the vote shares; a worker with
 * no labels has uniform rows. Points and graph fits have no workers (nothing is
 * written).
 *
 * @param model The handle.
 * @param[out] confusion Buffer for n_workers * k * k doubles.
 * @param capacity Length of confusion (>= n_workers * k * k).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_confusion(const cs_model *model, double *confusion, size_t capacity);

/**
 * @brief Class prior w (k values summing to 1): uniform unless ::CS_PARAM_PRIOR is
 *        ::CS_PRIOR_ESTIMATED, then the estimated class frequencies. For points and
 *        graphs: the fraction of points (nodes) in each cluster (community).
 * @param model The handle.
 * @param[out] prior Buffer for k doubles.
 * @param capacity Length of prior (>= k).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_class_prior(const cs_model *model, double *prior, size_t capacity);

/**
 * @brief Number of entries of the objective trace (one per completed iteration).
 * @param model The handle.
 * @param[out] n Receives the length (0 for mv).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_trace_length(const cs_model *model, size_t *n);

/**
 * @brief Objective after each iteration. For EM methods entry r - 1 is the marginal
 *        log-likelihood sum_j log sum_l w_l prod_i pi_i[l][c_ij] (natural log) of round
 *        r's E-step; for crowd-lloyd it is minus the Lloyd cost (docs/algorithms.md); for kos, kos-mp,
 *        ghosh-svd and eigen-ratio it is 0 (one entry per block product or round); for
 *        points minus the k-means cost, for graphs the CommuLloyd or likelihood score (see
 *        cs_fit_points() and cs_fit_graph()).
 * @param model The handle.
 * @param[out] trace Buffer for cs_trace_length() doubles.
 * @param capacity Length of trace.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_trace(const cs_model *model, double *trace, size_t capacity);

/**
 * @brief Completed EM rounds (or Lloyd iterations; eigensolver block products or
 *        message-passing rounds summed over the binary splits, see ::cs_method) of the
 *        last fit.
 * @param model The handle.
 * @param[out] iterations Receives the count.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_iterations(const cs_model *model, int32_t *iterations);

/**
 * @brief Whether the last fit met its stopping rule (1) or stopped at max_iter or by
 *        cancellation (0).
 *
 * A fit cancelled by the progress callback (cs_fit() and friends returned
 * ::CS_ERR_CANCELLED, ::CS_NOTE_CANCELLED is set) always reports 0, for every method and
 * wherever the cancel came: at iteration 0, at the iteration that would have met the
 * rule, or in a later restart after an earlier one converged. Otherwise: mv, spec and
 * spec-mle always converge (spec-mle also with max_iter = 0); EM methods, ebcc and bcc,
 * crowd-lloyd, lloyd, kmeans++ and commu-lloyd converge when their rule is met (never
 * with max_iter = 0, which runs no iteration); kos, kos-mp, ghosh-svd and eigen-ratio converge when
 * every binary split's solver met its rule (see ::cs_method).
 * @param model The handle.
 * @param[out] converged Receives 1 or 0.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_converged(const cs_model *model, int32_t *converged);

/**
 * @brief Final log-likelihood of an EM fit (the last trace entry; for mv, crowd-lloyd,
 *        kos, kos-mp, ghosh-svd, eigen-ratio, points and graphs the Dawid-Skene
 *        log-likelihood is not computed and 0 is returned).
 * @param model The handle.
 * @param[out] log_likelihood Receives the value (natural log, always finite).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_log_likelihood(const cs_model *model, double *log_likelihood);

/**
 * @brief How the posteriors of the last fit were calibrated (::CS_PARAM_CALIBRATION).
 *
 * Since 0.2. The posteriors cs_posteriors() returns are, for every item with labels
 * that is not gold, q'(t) = (1 - mixing) q_T(t) + mixing w(t), where q_T is the model's
 * posterior tempered, q_T(t) proportional to q(t)^(1/temperature), and w the class prior.
 * A fit given a classifier's probabilities tempers the crowd's evidence only: q_T(t)
 * proportional to exp((log q(t) - m(t)) / temperature + m(t)), m(t) = log sum_o p(o)
 * pi_M[t][o] (cs_model_confusion()), which can change a label.
 * @param model A fitted handle.
 * @param temperature Receives T (1 when nothing was applied); may be NULL.
 * @param mixing Receives the weight of the class prior (0 unless gold calibrated the
 *        fit); may be NULL.
 * @param source Receives a ::cs_calibration: ::CS_CALIBRATION_NONE (not applied: the
 *        parameter was none, or the method is not of the Dawid-Skene family, or the fit
 *        was cancelled), ::CS_CALIBRATION_LABELS or ::CS_CALIBRATION_GOLD; may be NULL.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_calibration(const cs_model *model, double *temperature, double *mixing, int32_t *source);

/**
 * @brief Notes about the last fit: a bitwise OR of ::cs_fit_note values (0 = none).
 * @param model The handle.
 * @param[out] notes Receives the bits.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_fit_notes(const cs_model *model, int32_t *notes);

/**
 * @brief Dimension d of the points of the last fit (0 when it was not a points fit).
 * @param model The handle.
 * @param[out] d Receives the dimension.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER or ::CS_ERR_NOT_FITTED.
 */
CS_API cs_status cs_n_dims(const cs_model *model, size_t *d);

/**
 * @brief Cluster centres of a points fit, k x d row-major: centre h is the mean of the
 *        points labelled h (cs_labels()).
 * @param model The handle.
 * @param[out] centres Buffer for k * d doubles.
 * @param capacity Length of centres (>= k * d).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED,
 *         ::CS_ERR_WRONG_INPUT_KIND (the last fit was not a points fit) or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_centres(const cs_model *model, double *centres, size_t capacity);

/**
 * @brief Edge densities of a graph fit under its labels: the fraction of node pairs in
 *        a common community that are adjacent (within, the estimate of p = a/n of the
 *        block model) and the fraction of pairs in different communities that are
 *        (between, q = b/n). A density with no pairs to count is 0.
 * @param model The handle.
 * @param[out] within Receives the within-community density (may be NULL).
 * @param[out] between Receives the between-community density (may be NULL).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NOT_FITTED or ::CS_ERR_WRONG_INPUT_KIND
 *         (the last fit was not a graph fit).
 */
CS_API cs_status cs_graph_densities(const cs_model *model, double *within, double *between);

/**
 * @brief A method-specific estimate of the last fit, by name (added in 0.2): values
 *        that are no part of the Dawid-Skene results above.
 *
 * | method | name | rows x cols | meaning |
 * |---|---|---|---|
 * | glad | "ability" | n_workers x 1 | alpha_i, worker i's ability (prior mean 1) |
 * | glad | "inverse_difficulty" | n_items x 1 | beta_j = exp(b_j) > 0, item j's inverse difficulty |
 * | mace | "competence" | n_workers x 1 | posterior mean of theta_i, the chance worker i knows the answer |
 * | mace | "strategy" | n_workers x k | posterior mean of xi_i, worker i's label distribution when it spams |
 * | bt | "tie" | 1 x 1 | Davidson's nu (0 when ties are not modelled or none was given) |
 * | noisy-bt | "bias" | n_workers x 1 | bias_w, the chance that worker w picks the left item when it does not compare |
 *
 * Under glad, worker i labels item j correctly with probability
 * sigma(alpha_i beta_j); under mace, cs_confusion() is theta_i I + (1 - theta_i) 1 xi_i^T.
 * Other methods have no estimate of their own; a name the last fit does not have is
 * ::CS_ERR_INVALID_ARGUMENT, and the message lists the names it has.
 *
 * @param model The handle.
 * @param name The estimate's name (NUL-terminated).
 * @param[out] values Buffer for rows * cols doubles, row-major; may be NULL when
 *        capacity is 0 (then only the shape is returned).
 * @param capacity Length of values (0, or >= rows * cols).
 * @param[out] rows Receives the number of rows (may be NULL).
 * @param[out] cols Receives the number of columns (may be NULL).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER (name), ::CS_ERR_NOT_FITTED,
 *         ::CS_ERR_INVALID_ARGUMENT or ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_estimate(const cs_model *model, const char *name, double *values, size_t capacity,
                             size_t *rows, size_t *cols);

/**
 * @brief The items' scores of a comparisons fit, their standard errors and their ranks
 *        (since 0.2).
 *
 * s_i is the log-strength: under bt, P(i beats j) = 1 / (1 + exp(s_j - s_i)). With
 * ::CS_PARAM_COMPARISON_PRIOR > 0, 0 is the score of the prior's virtual item (an item
 * never compared scores 0); with 0, the scores have mean 0. The standard error is
 * sqrt of the diagonal of the inverse observed information of the scores (the negative
 * Hessian of the log posterior, the prior's curvature included, for noisy-bt and
 * crowd-bt given the worker parameters, each comparison's negative curvature counted as
 * 0; with prior 0 the inverse is taken on the mean-0 scores), or the approximation of
 * ::CS_NOTE_APPROXIMATE_SE. s_i +- 1.96 se_i is an approximate 95% interval. Rank 1 is
 * the highest score; equal scores are ranked by item id.
 *
 * @param model A handle whose last fit was cs_fit_comparisons().
 * @param[out] score Buffer for n_items scores, or NULL.
 * @param[out] se Buffer for n_items standard errors, or NULL.
 * @param[out] rank Buffer for n_items ranks (1 .. n_items), or NULL.
 * @param capacity Length of each buffer given (>= n_items).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NOT_FITTED, ::CS_ERR_WRONG_INPUT_KIND
 *         (the last fit was not of comparisons) or ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_scores(const cs_model *model, double *score, double *se, int32_t *rank, size_t capacity);

/**
 * @brief Each worker's reliability in a noisy-bt or crowd-bt fit (since 0.2): noisy-bt's
 *        skill (the chance the worker compares the items rather than picking a side by its
 *        bias), crowd-bt's eta (the chance the worker states the true preference; below
 *        1/2 the worker is adversarial). A worker without answers (other than ties) gets
 *        the prior's mode: 0.5 for noisy-bt, (alpha_0 - 1) / (alpha_0 + beta_0 - 2) for
 *        crowd-bt (1 by default).
 * @param model A handle whose last fit was cs_fit_comparisons() with noisy-bt or crowd-bt.
 * @param[out] reliability Buffer for n_workers values in [0, 1].
 * @param capacity Its length (>= n_workers).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED,
 *         ::CS_ERR_WRONG_INPUT_KIND (not a comparisons fit), ::CS_ERR_INVALID_ARGUMENT (bt,
 *         which has no workers) or ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_worker_reliability(const cs_model *model, double *reliability, size_t capacity);
/** @} */

/* ------------------------------------------------------------------------------ */
/** @addtogroup api_measures
 *  The measures take the labels as cs_fit() does (0-based item, worker and label
 *  arrays of n_labels entries) and do not use or change the handle's fit: the handle
 *  only receives the message of a failure. Items are 0 .. the largest item id, workers
 *  0 .. the largest worker id. Each given label counts once (crowd-kit drops repeated
 *  identical (task, worker, label) rows in accuracy on aggregates; the library counts
 *  them). Cost: O(n_labels + n_items + n_workers) time and memory (O(n_labels x k) for
 *  uncertainty and consistency), no dense items x workers matrix.
 *  @{ */

/**
 * @brief Krippendorff's alpha for nominal labels (crowd-kit's alpha_krippendorff, with
 *        its default binary distance), and the coincidence matrix it comes from.
 *
 * Every item with m >= 2 labels adds to the coincidence matrix o[c][d] the n_c n_d /
 * (m - 1) ordered pairs of its labels of classes c and d (n_c (n_c - 1) / (m - 1) for
 * c = d); with n_c = sum_d o[c][d] and n = sum_c n_c (the pairable labels), the
 * observed disagreement is D_o = sum_{c != d} o[c][d] / n, the expected D_e = sum_{c !=
 * d} n_c n_d / (n (n - 1)), and alpha = 1 - D_o / D_e. Items with one label are left
 * out. When every label has one value alpha is 1 (as NLTK's, which crowd-kit calls);
 * otherwise, when no item has two labels (n = 0) or D_e = 0, alpha is NaN (undefined).
 * o[c][c] / n_c is the agreement of class c: the chance that another label of an item
 * that has a label c is c too.
 *
 * @param model The handle (receives the message of a failure).
 * @param item Item of each label.
 * @param label Class of each label (k = 1 + the largest).
 * @param n_labels Number of labels (> 0).
 * @param[out] alpha Receives alpha (may be NULL).
 * @param[out] coincidence Buffer for the k x k matrix o, row-major, or NULL.
 * @param capacity Length of coincidence (>= k * k when it is not NULL).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_EMPTY_INPUT,
 *         ::CS_ERR_INVALID_ID, ::CS_ERR_INVALID_LABEL (negative), ::CS_ERR_TOO_MANY_CLASSES
 *         or ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_agreement(cs_model *model, const int32_t *item, const int32_t *label, size_t n_labels,
                              double *alpha, double *coincidence, size_t capacity);

/** For cs_uncertainty(): what each value is about. */
enum cs_measure_by {
    CS_BY_ITEM = 0,   /**< One value per item. */
    CS_BY_WORKER = 1  /**< One value per worker. */
};

/**
 * @brief Label uncertainty per item or per worker (crowd-kit's uncertainty with
 *        aggregate=False): the entropy, in nats, of the label distribution of each item
 *        (or worker) weighed by worker skills.
 *
 * With K the number of distinct labels given, each label of class c by a worker of
 * skill s counts s for class c and (1 - s) / (K - 1) for every other class that was
 * given; the counts summed over the item's (worker's) labels are normalised to p, and
 * the value is H = -sum_c p_c log p_c. Without skills every worker has skill 1 (then H
 * is the entropy of the item's label shares). Items (workers) without labels get NaN.
 *
 * @param model The handle (receives the message of a failure).
 * @param item, worker, label The labels (as cs_fit()).
 * @param n_labels Number of labels (> 0).
 * @param skill Skill of each worker, in [0, 1], or NULL (every skill 1).
 * @param n_skills Length of skill (> the largest worker id when skill is not NULL).
 * @param by ::CS_BY_ITEM or ::CS_BY_WORKER.
 * @param[out] values Buffer for one value per item (1 + the largest item id) or per
 *        worker (1 + the largest worker id).
 * @param capacity Length of values.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_EMPTY_INPUT,
 *         ::CS_ERR_INVALID_ID, ::CS_ERR_INVALID_LABEL, ::CS_ERR_INVALID_ARGUMENT (a skill
 *         outside [0, 1] or NaN, n_skills too small, an unknown by),
 *         ::CS_ERR_TOO_MANY_CLASSES or ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_uncertainty(cs_model *model, const int32_t *item, const int32_t *worker, const int32_t *label,
                                size_t n_labels, const double *skill, size_t n_skills, int32_t by, double *values,
                                size_t capacity);

/**
 * @brief Consistency of each item with its aggregated label (crowd-kit's consistency
 *        with by_task=True): the posterior probability of the aggregate under the
 *        one-coin model of the worker skills and a uniform prior.
 *
 * With K the number of distinct labels given, a label c by a worker of skill s has
 * probability s under class c and (1 - s) / (K - 1) under every other given class;
 * P(l) is the product over the item's labels, and the value is P(a) / sum_l P(l) for
 * the aggregate a (computed in log space: no underflow; 0 when every P(l) is 0).
 * Items without labels, or whose aggregate is negative (none), get NaN.
 *
 * @param model The handle (receives the message of a failure).
 * @param item, worker, label The labels (as cs_fit()).
 * @param n_labels Number of labels (> 0).
 * @param skill Skill of each worker, in [0, 1].
 * @param n_skills Length of skill (> the largest worker id).
 * @param aggregate Aggregated label of each item (e.g. cs_labels()); -1 for none.
 * @param n_aggregate Length of aggregate (> the largest item id).
 * @param[out] values Buffer for one value per item (1 + the largest item id).
 * @param capacity Length of values.
 * @return as cs_uncertainty(); also ::CS_ERR_INVALID_LABEL for an aggregate >= the
 *         number of classes.
 */
CS_API cs_status cs_consistency(cs_model *model, const int32_t *item, const int32_t *worker, const int32_t *label,
                                size_t n_labels, const double *skill, size_t n_skills, const int32_t *aggregate,
                                size_t n_aggregate, double *values, size_t capacity);

/**
 * @brief Accuracy of each worker on the aggregated labels (crowd-kit's
 *        accuracy_on_aggregates with by="worker"): the share of its labels on items
 *        that have an aggregate that equal it.
 *
 * Labels on items whose aggregate is negative (none) are left out; workers with no
 * label left get NaN. The overall accuracy (by=None) is the sum of the matches over the
 * sum of the counted labels, returned in *overall.
 *
 * @param model The handle (receives the message of a failure).
 * @param item, worker, label The labels (as cs_fit()).
 * @param n_labels Number of labels (> 0).
 * @param aggregate Aggregated label of each item; -1 for none.
 * @param n_aggregate Length of aggregate (> the largest item id).
 * @param[out] values Buffer for one value per worker (1 + the largest worker id), or NULL.
 * @param capacity Length of values.
 * @param[out] overall Receives the overall accuracy (NaN when no label counts); may be NULL.
 * @return as cs_consistency().
 */
CS_API cs_status cs_accuracy_on_aggregates(cs_model *model, const int32_t *item, const int32_t *worker,
                                           const int32_t *label, size_t n_labels, const int32_t *aggregate,
                                           size_t n_aggregate, double *values, size_t capacity, double *overall);

/**
 * @brief Numbers string ids in the library (a hash table), so that a binding hands
 *        over one buffer instead of numbering millions of strings itself.
 *
 * The n strings are byte strings (UTF-8 for text; compared byte by byte, any byte
 * allowed). Equal strings get the same code. With sorted != 0 the codes follow the
 * byte order of the distinct strings (memcmp, shorter first on a common prefix), which
 * for valid UTF-8 is the order of their code points (Python's and Rust's string
 * order); with sorted == 0 they follow the order of first appearance.
 *
 * @param model The handle (receives the message of a failure).
 * @param text The strings' bytes.
 * @param text_size Length of text in bytes.
 * @param offsets n + 1 non-decreasing offsets into text, string t being text[offsets[t]
 *        .. offsets[t + 1]) (offsets[0] >= 0, offsets[n] <= text_size), as Arrow's string
 *        arrays hold them; or NULL: text is the n strings joined by single NUL bytes
 *        (exactly n - 1 NUL bytes, none at the end; an empty text with n = 1 is one empty
 *        string).
 * @param n Number of strings (> 0, < 2^31).
 * @param sorted Non-zero: codes in byte order of the strings; 0: in order of first
 *        appearance.
 * @param[out] codes Buffer for n codes (0 .. n_distinct - 1).
 * @param[out] first Buffer for n indices: first[c] receives the index of the first
 *        string with code c (only the first n_distinct entries are written).
 * @param[out] n_distinct Receives the number of distinct strings.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_EMPTY_INPUT (n =
 *         0), ::CS_ERR_INVALID_ARGUMENT (offsets out of order or past text_size, or the
 *         number of NUL bytes is not n - 1) or ::CS_ERR_TOO_LARGE (n >= 2^31).
 */
CS_API cs_status cs_intern_strings(cs_model *model, const char *text, size_t text_size, const int64_t *offsets,
                                   size_t n, int32_t sorted, int32_t *codes, int64_t *first, size_t *n_distinct);

/**
 * @brief Numbers 64-bit integer keys in the library (a hash table, one pass), so that a
 *        binding codes a column of a million ids, or of the addresses of the objects a
 *        column of strings holds, without a pass of its own per step.
 *
 * Equal keys get the same code; when the keys come in runs (ids grouped by task), a key
 * equal to the one before it takes its code without a lookup. With sorted != 0 the codes
 * follow the ascending order of the distinct keys as signed integers; with sorted == 0
 * they follow the order of first appearance (for keys whose order means nothing, such
 * as addresses). Cost O(n),
 * plus, when sorted and the distinct keys did not first appear in ascending order,
 * O(d log d) for d distinct keys (O(span) when they span at most 4 d + 65,536 values).
 *
 * @param model The handle (receives the message of a failure).
 * @param keys The n keys (any values).
 * @param n Number of keys (> 0, < 2^31).
 * @param sorted Non-zero: codes in ascending order of the keys; 0: in order of first
 *        appearance.
 * @param[out] codes Buffer for n codes (0 .. n_distinct - 1).
 * @param[out] first Buffer for n indices: first[c] receives the index of the first key
 *        with code c (only the first n_distinct entries are written).
 * @param[out] n_distinct Receives the number of distinct keys.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_EMPTY_INPUT (n =
 *         0) or ::CS_ERR_TOO_LARGE (n >= 2^31).
 */
CS_API cs_status cs_intern_integers(cs_model *model, const int64_t *keys, size_t n, int32_t sorted, int32_t *codes,
                                    int64_t *first, size_t *n_distinct);

/**
 * @brief Each item's posterior median grade, for ordered classes: the lowest class g
 *        whose cumulative posterior q_0 + ... + q_g reaches 1/2 (within 1e-12 for
 *        rounding). It minimises the expected absolute error in grades, as the argmax
 *        (cs_labels()) minimises the expected error rate.
 *
 * Available after a crowd fit whose classes are ordered grades: one of the ordinal
 * methods (::CS_METHOD_ORDINAL_MINIMAX, ::CS_METHOD_ORDINAL_DS), or any crowd method
 * with ::CS_PARAM_ORDINAL = 1 at the fit (or at cs_predict()). Grades are the class
 * indices 0 .. k - 1 in their order.
 * @param model The handle.
 * @param[out] grades Buffer for n_items class indices.
 * @param capacity Length of grades (>= n_items).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED,
 *         ::CS_ERR_WRONG_INPUT_KIND (the last fit was of points or a graph),
 *         ::CS_ERR_INVALID_ARGUMENT (the classes of the last fit are not ordered) or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_median_grades(const cs_model *model, int32_t *grades, size_t capacity);

/**
 * @brief Each item's posterior mean grade sum_g g q_g (a real number in [0, k - 1]),
 *        for ordered classes; available under the conditions of cs_median_grades().
 * @param model The handle.
 * @param[out] grades Buffer for n_items doubles.
 * @param capacity Length of grades (>= n_items).
 * @return As cs_median_grades().
 */
CS_API cs_status cs_mean_grades(const cs_model *model, double *grades, size_t capacity);

/**
 * @brief Give the next crowd fits a classifier's class probabilities for some items
 *        (a model trained on earlier labels, or an LLM asked the same question).
 *
 * The Dawid-Skene family (ds, opt-ds, one-coin-ds, class-one-coin-ds and the default
 * auto) treats the model as one more worker that labels softly: EM estimates its k x k
 * confusion matrix pi_M like a worker's (cs_model_confusion()), and item j's posterior
 * gets the factor sum_o p_j(o) pi_M[t][o] for each class t. A model that is right where
 * the workers are weighs in with its own confidence; one systematically wrong on a class
 * gets a confusion row that shows it, and the workers outvote it there. ::CS_METHOD_CROWDLAB
 * needs the probabilities; every other method fails with ::CS_ERR_INVALID_ARGUMENT while
 * they are set. cs_update() applies them to the saved model's items (the rows are in the
 * model's item ids); cs_predict() does not read them (cs_predict_model_probs() takes a
 * batch's own rows) and cs_fit_mpi() refuses them.
 * An item without a row, or with every class equal, carries no model information. The
 * values are copied and kept for every later fit until replaced; n_rows = 0 clears them
 * (item and probs may then be NULL).
 *
 * @param model The handle.
 * @param item n_rows item ids (>= 0, each at most once), or NULL for items 0 .. n_rows - 1.
 * @param probs n_rows x k values, row r the probabilities of item item[r] for classes
 *        0 .. k - 1: finite, >= 0, not all 0 (each row is normalised to sum 1).
 * @param n_rows Number of rows.
 * @param k Number of classes (2 .. ::CS_MAX_CROWD_CLASSES); at cs_fit() it must be the fit's.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER (probs NULL with n_rows > 0);
 *         ::CS_ERR_INVALID_ID (a negative item id); ::CS_ERR_INVALID_ARGUMENT (k out of
 *         range, a value negative or not finite, a row summing to 0, an item twice; the
 *         message names the row). At cs_fit(): ::CS_ERR_INVALID_ARGUMENT (k differs, or the
 *         method takes no model probabilities), ::CS_ERR_INVALID_ID (an item id >= the fit's
 *         items).
 */
CS_API cs_status cs_set_model_probs(cs_model *model, const int32_t *item, const double *probs, size_t n_rows,
                                    int32_t k);

/**
 * @brief The classifier's confusion matrix EM estimated in the last fit (model
 *        probabilities set, a Dawid-Skene family method): entry [t k + o] is the
 *        probability that the model's (hidden, hard) answer is o on an item of class t.
 * @param model The handle.
 * @param[out] confusion Buffer for k x k values.
 * @param capacity Length of confusion (>= k x k).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED (no fit,
 *         or the last fit estimated no model matrix) or ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_model_confusion(const cs_model *model, double *confusion, size_t capacity);

/**
 * @brief "Label next" score of each item of the last crowd fit: the expected fall in the
 *        probability that its label (cs_labels()) is wrong if one more label is bought
 *        from a typical worker of this crowd. Higher: buy a label for it first.
 *
 * With q_j the item's posterior and T the typical worker's confusion matrix (the soft
 * counts sum over labels of q_j(t) for true t and label c, rows normalised: the worker of
 * a label drawn at random), the score is sum_c max_t q_j(t) T[t][c] - max_t q_j(t), in
 * [0, 1). It is 0 where no single label could change the item's label. O(n_items k^2).
 * Available after cs_fit()/cs_fit_csr() of any crowd method (not after cs_predict() or
 * cs_fit_mpi()).
 * @param model The handle.
 * @param[out] scores Buffer for n_items values.
 * @param capacity Length of scores (>= n_items).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED (no
 *         crowd fit, or one without these scores), ::CS_ERR_WRONG_INPUT_KIND or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_label_next(const cs_model *model, double *scores, size_t capacity);

/**
 * @brief The posterior probability that each given label is wrong: 1 - q_j(c) for label
 *        c of item j, q_j the last crowd fit's posterior of the item. Higher: check it
 *        first.
 * @param model The handle.
 * @param item, label n labels (item ids of the fit, classes 0 .. k - 1), e.g. the fit's own.
 * @param n Number of labels.
 * @param[out] wrong Buffer for n values; on an error status its contents are unspecified
 *        (partly written).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED,
 *         ::CS_ERR_WRONG_INPUT_KIND, ::CS_ERR_INVALID_ID (an item outside the fit; the
 *         first such label is named) or ::CS_ERR_INVALID_LABEL.
 */
CS_API cs_status cs_label_wrong(const cs_model *model, const int32_t *item, const int32_t *label, size_t n,
                                double *wrong);

/**
 * @brief Diagnostics of each worker of the last crowd fit (any crowd method): the
 *        spammer score, worst class and accuracy with its 95 % interval.
 *
 * From the soft counts n_i[t][c] = sum of q_j(t) over worker i's labels c:
 * - spammer: Raykar and Yu (JMLR 2012), sum over class pairs t < t' and labels c of
 *   (A[t][c] - A[t'][c])^2 / (k (k - 1)), A the worker's confusion matrix (the fit's;
 *   for methods without, the soft counts plus 1/k an entry, rows normalised): the
 *   distance of A from rank one, 0 for a spammer (labels independent of the truth), 1
 *   for a perfect worker;
 * - worst_class: the true class t with the lowest n_i[t][t] / sum_c n_i[t][c] among
 *   those with mass on its labels (ties to the lowest index), -1 without labels;
 * - accuracy: sum_t n_i[t][t] / (its labels); low, high: the 2.5 % and 97.5 % quantiles
 *   of the posterior Beta(1 + hits, 1 + labels - hits) of its accuracy, the soft hits
 *   taken as Bernoulli successes under a uniform prior. NaN for a worker without labels.
 * Any output pointer may be NULL (not written).
 * @param model The handle.
 * @param[out] spammer, accuracy, low, high Buffers for n_workers values, or NULL.
 * @param[out] worst_class Buffer for n_workers class indices, or NULL.
 * @param capacity Length of each buffer (>= n_workers).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NOT_FITTED (no crowd fit with
 *         diagnostics: cs_predict(), cs_fit_mpi(), or a method without confusion matrices
 *         beyond 2^26 worker x class x class entries), ::CS_ERR_WRONG_INPUT_KIND or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_worker_diagnostics(const cs_model *model, double *spammer, int32_t *worst_class,
                                       double *accuracy, double *low, double *high, size_t capacity);
/** @} */

/* ------------------------------------------------------------------------------ */
/** @addtogroup api_answers
 *  Two more shapes of a labelling form (since 0.2): a set of tags per answer (image
 *  tagging, content moderation: cs_fit_tags()) and a number per answer (sizes, prices,
 *  ratings: cs_fit_numbers()). Both take 0-based ids like cs_fit(), copy their inputs,
 *  and leave their results on the handle for the getters below; cs_n_items(),
 *  cs_n_workers(), cs_iterations(), cs_converged(), cs_trace() and cs_fit_notes() work
 *  as for every fit. docs/algorithms.md gives each model's equations and cost.
 *  @{ */

/**
 * @brief Estimate a real value per item from workers' numeric answers (methods 400-409).
 *
 * Answer t says that worker worker[t] gave item item[t] the value value[t]. With
 * ::CS_PARAM_METHOD = ::CS_METHOD_AUTO (the default) the fit runs "student-t", the
 * default for numbers (docs/defaults.md gives the measurements); any other method must
 * take numbers. Items and workers are counted as by cs_fit() (::CS_PARAM_ITEMS,
 * ::CS_PARAM_WORKERS or the largest id + 1); a worker who answers an item twice follows
 * ::CS_PARAM_DUPLICATES. Every iterative method stops when no estimate moves by more
 * than sqrt(::CS_PARAM_TOL) times the answers' standard deviation (1e-5 of it by
 * default: the objectives change by the square of the moves, so this matches the crowd
 * methods' tol on the objective), or after ::CS_PARAM_MAX_ITER rounds; cs_trace() holds
 * the largest move of each round.
 * Cost O(answers) per round; the result does not depend on the order of the answers
 * or on ::CS_PARAM_THREADS.
 *
 * Results: cs_number_estimates() (value and standard error per item: an item without
 * answers gets the mean of all answers and their standard deviation,
 * ::CS_NOTE_UNLABELED_ITEMS) and cs_number_workers() (bias and noise per worker).
 *
 * @param model The handle.
 * @param item Item ids, each in [0, n_items).
 * @param worker Worker ids, each in [0, n_workers).
 * @param value The answers: finite, magnitude at most 1e100.
 * @param n_answers Number of answers (> 0).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_EMPTY_INPUT;
 *         ::CS_ERR_INVALID_ID; ::CS_ERR_NON_FINITE (the message names the index);
 *         ::CS_ERR_DUPLICATE; ::CS_ERR_WRONG_INPUT_KIND; ::CS_ERR_CANCELLED;
 *         ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_fit_numbers(cs_model *model, const int32_t *item, const int32_t *worker, const double *value,
                                size_t n_answers);

/**
 * @brief The estimate and its standard error for every item of a numbers fit.
 * @param model A handle fitted by cs_fit_numbers().
 * @param[out] value Buffer for n_items estimates, or NULL.
 * @param[out] se Buffer for n_items standard errors (finite, >= 0), or NULL.
 * @param capacity Length of each non-NULL buffer (>= n_items).
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NOT_FITTED, ::CS_ERR_WRONG_INPUT_KIND
 *         (not a numbers fit) or ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_number_estimates(const cs_model *model, double *value, double *se, size_t capacity);

/**
 * @brief Each worker's bias (mean of answer - estimate) and noise (standard deviation
 *        of its errors) in a numbers fit: the model's own parameters for gaussian and
 *        student-t, the residuals' mean and root mean square deviation about it for the
 *        other methods. A worker without answers gets bias 0 and the crowd's noise.
 * @param model A handle fitted by cs_fit_numbers().
 * @param[out] bias Buffer for n_workers values, or NULL.
 * @param[out] noise Buffer for n_workers values, or NULL.
 * @param capacity Length of each non-NULL buffer (>= n_workers).
 * @return as cs_number_estimates().
 */
CS_API cs_status cs_number_workers(const cs_model *model, double *bias, double *noise, size_t capacity);

/**
 * @brief Fit sets of tags (multi-label answers): for each item, the probability that
 *        each tag applies.
 *
 * Answer t says that worker worker[t] looked at item item[t] and ticked the tags
 * tag[tag_start[t]] .. tag[tag_start[t + 1] - 1] (in any order; a repeated tag counts
 * once; an empty set is an answer too). A worker who answered an item and did not give
 * tag g has said "not g". n_tags is the number of tags (0 = 1 + the largest tag given).
 *
 * The method: ::CS_METHOD_TAG_POOLED, or any crowd method (1-99), which is then run on
 * each tag as a binary crowd (binary relevance: label 1 = ticked, every answer of the
 * item a label), the tags fitted in parallel over one shared index of the workers. With
 * ::CS_METHOD_AUTO (the default) the fit runs "tag-pooled", the measured default for
 * tags (docs/defaults.md); the crowd method "auto" on each tag is "ds" with
 * smoothing_center = strata (its prior; calibration applies to ds too). Under binary
 * relevance a tag nobody ticked gets probability 0 on every item.
 *
 * Results: cs_n_tags(), cs_tag_probabilities(), cs_tag_sets() and cs_tag_workers();
 * cs_iterations() is the largest count over the tags (binary relevance), cs_converged()
 * 1 when every tag converged. Gold (cs_set_gold()) and initial matrices do not apply.
 *
 * @param model The handle.
 * @param item Item ids, each in [0, n_items).
 * @param worker Worker ids, each in [0, n_workers).
 * @param tag_start n_answers + 1 offsets into tag: tag_start[0] = 0, non-decreasing.
 * @param tag The tags, each in [0, n_tags); may be NULL when tag_start[n_answers] = 0.
 * @param n_answers Number of answers (> 0).
 * @param n_tags Number of tags (0 = infer; at most 10^6).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_EMPTY_INPUT
 *         (no answers, or no tag at all with n_tags = 0); ::CS_ERR_INVALID_ID;
 *         ::CS_ERR_INVALID_LABEL (a tag negative or >= n_tags); ::CS_ERR_INVALID_ARGUMENT
 *         (tag_start not starting at 0 or decreasing, n_tags out of range);
 *         ::CS_ERR_DUPLICATE (a worker answering an item twice, under
 *         ::CS_PARAM_DUPLICATES); ::CS_ERR_WRONG_INPUT_KIND; ::CS_ERR_CANCELLED;
 *         ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_fit_tags(cs_model *model, const int32_t *item, const int32_t *worker, const int64_t *tag_start,
                             const int32_t *tag, size_t n_answers, int32_t n_tags);

/**
 * @brief Number of tags of the last tags fit.
 * @param model The handle.
 * @param[out] n Receives the count.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED or
 *         ::CS_ERR_WRONG_INPUT_KIND (not a tags fit).
 */
CS_API cs_status cs_n_tags(const cs_model *model, size_t *n);

/**
 * @brief P(tag g applies to item j), n_items x n_tags row-major.
 * @param model A handle fitted by cs_fit_tags().
 * @param[out] p Buffer for n_items * n_tags doubles in [0, 1].
 * @param capacity Length of p.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED,
 *         ::CS_ERR_WRONG_INPUT_KIND or ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_tag_probabilities(const cs_model *model, double *p, size_t capacity);

/**
 * @brief The tag sets: member[j * n_tags + g] = 1 when P(tag g applies to item j) is at
 *        least the threshold, else 0.
 * @param model A handle fitted by cs_fit_tags().
 * @param threshold NULL (0.5 for every tag), one value (for every tag) or n_tags values
 *        (one per tag), each in [0, 1].
 * @param n_threshold 0, 1 or n_tags.
 * @param[out] member Buffer for n_items * n_tags values.
 * @param capacity Length of member.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NULL_POINTER, ::CS_ERR_NOT_FITTED,
 *         ::CS_ERR_WRONG_INPUT_KIND, ::CS_ERR_INVALID_ARGUMENT (a threshold outside
 *         [0, 1] or n_threshold not 0, 1 or n_tags) or ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_tag_sets(const cs_model *model, const double *threshold, size_t n_threshold, int32_t *member,
                             size_t capacity);

/**
 * @brief Each worker's sensitivity P(ticks g | g applies) and specificity P(does not
 *        tick g | g does not apply) per tag, n_workers x n_tags row-major (from the
 *        per-tag confusion matrices under binary relevance).
 * @param model A handle fitted by cs_fit_tags().
 * @param[out] sensitivity Buffer for n_workers * n_tags values, or NULL.
 * @param[out] specificity Buffer for n_workers * n_tags values, or NULL.
 * @param capacity Length of each non-NULL buffer.
 * @return ::CS_OK, ::CS_ERR_NULL_HANDLE, ::CS_ERR_NOT_FITTED, ::CS_ERR_WRONG_INPUT_KIND or
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_tag_workers(const cs_model *model, double *sensitivity, double *specificity, size_t capacity);
/** @} */

/* ------------------------------------------------------------------------------ */
/** @addtogroup api_saved
 *  @{ */

/** The newest format version cs_save() writes (2 since the classifier's probabilities
 *  are saved; a model without them is still written in version 1); cs_load() reads this
 *  and every earlier one. */
#define CS_MODEL_FORMAT_VERSION 2

/**
 * @brief Save the handle's crowd fit, with everything an update needs, to a file.
 *
 * Writes the parameters, the fit's results (labels, posteriors, confusion matrices,
 * prior, calibration, trace, notes), its labels, the EM posteriors and the sufficient
 * statistics (per-worker count tables and class mass), and the user data
 * (cs_set_user_data()), in the versioned format of docs/saved-models.md with a magic
 * number and a checksum. The file is replaced atomically: the bytes go to a temporary
 * file beside it, which is renamed over `path` only when complete.
 *
 * The first save (or update) after a fit computes the statistics: one E-step over the
 * labels at the fitted parameters.
 *
 * @param model The handle, with a successful crowd fit of the Dawid-Skene family made
 *        with ::CS_PARAM_KEEP_LABELS = 1 (the default), a loaded model, or an updated one.
 * @param path File name (UTF-8 bytes as the platform takes them).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_NOT_FITTED (no
 *         fit); ::CS_ERR_INVALID_ARGUMENT (another method or input kind, a distributed
 *         fit, labels not kept, or the file cannot be written: the message gives the
 *         system's reason); ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_save(cs_model *model, const char *path);

/**
 * @brief Save the handle's crowd fit into a caller's buffer (the bytes cs_save() writes).
 *
 * @param model As cs_save().
 * @param[out] buffer Receives the bytes, or NULL to ask for the size only.
 * @param capacity Length of buffer in bytes.
 * @param[out] size Receives the number of bytes of the saved model (also when the
 *        buffer is NULL or too small).
 * @return as cs_save(); ::CS_ERR_NULL_POINTER (size is NULL);
 *         ::CS_ERR_BUFFER_TOO_SMALL (capacity < *size; nothing written).
 */
CS_API cs_status cs_save_buffer(cs_model *model, void *buffer, size_t capacity, size_t *size);

/**
 * @brief Load a saved model into the handle, replacing its parameters (all but
 *        ::CS_PARAM_THREADS), fit, gold, user data and update state.
 *
 * Afterwards the result getters return what they returned for the saved fit,
 * cs_predict() labels new batches with its workers, and cs_update() / cs_refit() go on
 * from it. Every section is checked before the handle changes: on failure the handle is
 * as it was.
 *
 * @param model The handle.
 * @param path File name.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_INVALID_ARGUMENT
 *         (the file cannot be read); ::CS_ERR_CORRUPT_MODEL (not a saved model, truncated,
 *         a checksum mismatch, or inconsistent contents; the message says which);
 *         ::CS_ERR_MODEL_VERSION (saved by a newer format version);
 *         ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_load(cs_model *model, const char *path);

/**
 * @brief Load a saved model from a caller's buffer (the bytes of cs_save_buffer() or
 *        of a file cs_save() wrote). The buffer is only read.
 *
 * @param model The handle.
 * @param buffer The bytes.
 * @param size Their number.
 * @return as cs_load() (::CS_ERR_NULL_POINTER when buffer is NULL and size > 0).
 */
CS_API cs_status cs_load_buffer(cs_model *model, const void *buffer, size_t size);

/**
 * @brief Attach bytes of the caller's own to the handle, saved and loaded with the
 *        model (e.g. the names behind the integer ids; the crowdspec CLI keeps its
 *        item, worker and class names there). The library never reads them.
 *
 * @param model The handle.
 * @param bytes The bytes (copied), or NULL with n = 0 to clear them.
 * @param n Their number (< 2^40).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_TOO_LARGE;
 *         ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_set_user_data(cs_model *model, const void *bytes, size_t n);

/**
 * @brief Copy out the user data of the handle (cs_set_user_data(), or a loaded model's).
 *
 * @param model The handle.
 * @param[out] bytes Buffer, or NULL to ask for the size only.
 * @param capacity Its length.
 * @param[out] n Receives the number of bytes (0 when there are none).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER (n is NULL);
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_user_data(const cs_model *model, void *bytes, size_t capacity, size_t *n);

/**
 * @brief Add labels to a fitted or loaded model and refit incrementally.
 *
 * The labels may be for items and workers the model has (ids below cs_n_items() and
 * cs_n_workers()) or new ones (larger ids: the model grows; ids skipped on the way are
 * items without labels). Classes are the model's (label < cs_n_classes()). A label for
 * an (item, worker) pair the model has follows ::CS_PARAM_DUPLICATES: reject fails with
 * ::CS_ERR_DUPLICATE, first keeps the old label, last replaces it.
 *
 * Then incremental EM (Neal and Hinton 1998): the statistics lose the old contribution
 * of every touched item; each round redoes the E-step of the touched items only at the
 * current parameters, adds their new contribution, and runs the M-step from the updated
 * statistics (the prior of the method: auto's stratified prior and its worker strata
 * are recomputed from them as in a full fit), until no touched posterior moves by more
 * than 1e-7 or ::CS_PARAM_UPDATE_ROUNDS rounds; then untouched items are revisited in
 * rotation (::CS_PARAM_UPDATE_SWEEP) and one more M-step follows. The calibration is
 * kept, or re-fitted when the labels grew by ::CS_PARAM_UPDATE_RECALIBRATE since it was
 * fitted. Cost: O((new and revisited labels) x k x rounds + n_workers x k^2 x rounds +
 * n_items x k), plus a pass over the labels to merge them; no full E-step.
 *
 * Automatic full refits: when the labels with the batch reach ::CS_PARAM_UPDATE_REFIT
 * times those of the last full fit, or the update would work on at least
 * ::CS_PARAM_UPDATE_REFIT_WORK of them (the touched items' labels and the rotation's),
 * the update is instead cs_refit() of the model's labels with the batch, decided before
 * anything changes; its results carry no ::CS_NOTE_INCREMENTAL.
 *
 * A classifier (issue 34): the rows set by cs_set_model_probs() on the handle, in the
 * model's item ids (items of the model or of this batch), are applied first. An item
 * whose row differs from the one the model has -- or a new item with a row -- is worked
 * on like an item with new labels (its E-step redone with the model term); rows equal to
 * the model's change nothing, so the rows of a fit can stay set across updates. The
 * classifier's matrix pi_M is re-estimated in every round, its counts summed afresh over
 * all items with a row (O(those items x k^2) a round). A model saved without a
 * classifier gains one (pi_M starts uniform). With n_labels = 0 only the rows apply.
 *
 * Afterwards the result getters describe every item (old and new), the fit notes
 * ::CS_NOTE_INCREMENTAL, cs_trace() holds the touched items' log-likelihood after each
 * round and cs_log_likelihood() the log-likelihood of the whole state (each item's term
 * at the parameters of its last E-step). On failure the model is as before the call.
 *
 * @param model A handle with a saved-model state: a Dawid-Skene family fit with
 *        ::CS_PARAM_KEEP_LABELS = 1, a loaded model, or an updated one.
 * @param item, worker, label The new labels (0-based ids, as cs_fit()).
 * @param n_labels Their number (0 is allowed: only changed classifier rows apply).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_NOT_FITTED (no
 *         state: see model); ::CS_ERR_INVALID_ID (also a classifier row of an item beyond
 *         the model's items after the batch, named in the message);
 *         ::CS_ERR_INVALID_LABEL; ::CS_ERR_DUPLICATE; ::CS_ERR_TOO_LARGE;
 *         ::CS_ERR_INVALID_ARGUMENT (classifier rows of another k than the model's);
 *         ::CS_ERR_OUT_OF_MEMORY; ::CS_ERR_CANCELLED (an automatic full refit stopped by
 *         the progress callback: as cs_refit(), the partial fit is kept without a state).
 */
CS_API cs_status cs_update(cs_model *model, const int32_t *item, const int32_t *worker, const int32_t *label,
                           size_t n_labels);

/**
 * @brief Refit the model from scratch on all its labels (the saved fit's and every
 *        update's): exactly cs_fit() of those labels with the model's parameters and
 *        gold, warm starts excluded. Needed when the updates have moved the parameters
 *        far from where the untouched items were last revisited (docs/incremental.md).
 *
 * @param model A handle with a saved-model state (see cs_update()).
 * @return as cs_fit(), and ::CS_ERR_NOT_FITTED without a state.
 */
CS_API cs_status cs_refit(cs_model *model);

/**
 * @brief The length of a statistics vector of Dawid-Skene EM (cs_shard_e_step(),
 *        cs_m_step(), cs_fit_stats()) for n_workers workers and k classes:
 *        n_workers x k x k + k + 2, or 0 when that overflows.
 *
 * The layout (docs/scaling.md, "The statistics"): first the count tables,
 * entry (i x k + o) x k + t = the sum, over worker i's labels o, of the posterior
 * q_j(t) of the labelled item (worker, observed class, true class: the M-step's layout);
 * then the class mass, entry t = the sum of q_j(t) over the items; then the
 * log-likelihood of the items; then the number of impossible items. Statistics of
 * disjoint sets of items add up entry by entry: the statistics of the union are the
 * sum, which any engine can form (MPI's all-reduce, a Dask reduction).
 *
 * @param n_workers Workers of the whole crowd.
 * @param k Classes.
 * @return The number of values, or 0 on overflow.
 */
CS_API size_t cs_stats_length(size_t n_workers, size_t k);

/**
 * @brief Give a handle one shard of a crowd: the labels of some items (all the labels
 *        of each), for cs_shard_start() and cs_shard_e_step().
 *
 * Items are numbered within the shard (0 .. n_items - 1; an item without labels
 * counts in the class mass with the prior as posterior); workers and classes are those
 * of the whole crowd (worker < n_workers, label < k), the same on every shard.
 * ::CS_PARAM_DUPLICATES applies. Replaces the handle's fit.
 *
 * @param model The handle (its parameters: duplicates, support, threads).
 * @param item, worker, label The shard's labels (n_labels of each; NULL when 0).
 * @param n_labels Their number (0: items without labels only).
 * @param n_items Items of the shard (> every item id).
 * @param n_workers Workers of the whole crowd (> every worker id).
 * @param k Classes of the whole crowd (> every label).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_EMPTY_INPUT
 *         (n_items = 0); ::CS_ERR_INVALID_ID; ::CS_ERR_INVALID_LABEL;
 *         ::CS_ERR_TOO_FEW_CLASSES; ::CS_ERR_TOO_LARGE; ::CS_ERR_DUPLICATE;
 *         ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_shard_labels(cs_model *model, const int32_t *item, const int32_t *worker, const int32_t *label,
                                 size_t n_labels, size_t n_items, size_t n_workers, size_t k);

/**
 * @brief The statistics of the shard's start: the soft majority vote as posteriors
 *        (the start of ds, one-coin-ds, class-one-coin-ds and auto), with a
 *        log-likelihood and impossible count of 0.
 *
 * @param model A handle given a shard (cs_shard_labels()).
 * @param[out] stats cs_stats_length() values.
 * @param capacity Length of stats.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_NOT_FITTED (no
 *         shard); ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_shard_start(cs_model *model, double *stats, size_t capacity);

/**
 * @brief The E-step (the fit's, with ::CS_PARAM_SUPPORT) of the shard's items at given
 *        parameters, and its statistics. The posteriors stay on the handle:
 *        cs_n_items(), cs_labels() and cs_posteriors() read them (EM's posteriors, not
 *        calibrated).
 *
 * @param model A handle given a shard.
 * @param confusion n_workers x k x k confusion matrices (rows P(observed | true)).
 * @param prior The k class probabilities.
 * @param[out] stats cs_stats_length() values.
 * @param capacity Length of stats.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_NOT_FITTED;
 *         ::CS_ERR_INVALID_ARGUMENT (a parameter negative or not finite);
 *         ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_shard_e_step(cs_model *model, const double *confusion, const double *prior, double *stats,
                                 size_t capacity);

/**
 * @brief The M-step from statistics summed over every shard, with the handle's method
 *        and parameters (its confusion model, ::CS_PARAM_SMOOTHING, the pooled or
 *        stratified prior of ::CS_PARAM_SMOOTHING_CENTER and of auto, ::CS_PARAM_PRIOR):
 *        the confusion matrices and class prior a single-process fit computes from the
 *        same sums. The workers' activity strata of auto's prior are the row sums of the
 *        count tables, rounded (each labelled item's posterior sums to 1).
 *
 * @param model The handle (its parameters).
 * @param stats The summed statistics, n_stats = cs_stats_length(n_workers, k) values.
 * @param n_stats Their number.
 * @param n_items Items of the whole crowd (the class prior is class mass / n_items).
 * @param n_workers, k The sizes.
 * @param[out] confusion n_workers x k x k values.
 * @param confusion_capacity Its length.
 * @param[out] prior k values.
 * @param prior_capacity Its length.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_INVALID_ARGUMENT
 *         (n_stats wrong, a statistic negative or not finite, a method outside the
 *         Dawid-Skene family); ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_API cs_status cs_m_step(cs_model *model, const double *stats, size_t n_stats, size_t n_items, size_t n_workers,
                           size_t k, double *confusion, size_t confusion_capacity, double *prior,
                           size_t prior_capacity);

/**
 * @brief An engine's E-step for cs_fit_stats(): the statistics of every item of the
 *        crowd at the given parameters, summed over the shards, into stats
 *        (cs_stats_length() values). Returns 0, or non-zero to stop the fit (then
 *        ::CS_ERR_CANCELLED).
 */
typedef int32_t (*cs_e_step_fn)(void *user, const double *confusion, const double *prior, double *stats);

/**
 * @brief Fit the Dawid-Skene family (ds, one-coin-ds, class-one-coin-ds, auto) on items
 *        held by an engine, from their statistics alone: the library runs the EM of
 *        cs_fit() -- the same start, rounds, SQUAREM and stopping rule, M-steps from the
 *        summed statistics -- and calls e_step for the statistics of each E-step.
 *
 * So a fit whose items sit in Dask partitions, Spark executors or files is the
 * single-process fit up to the order of the sums (docs/scaling.md). Afterwards
 * cs_confusion(), cs_class_prior(), cs_trace(), cs_iterations(), cs_converged() and
 * cs_log_likelihood() describe the fit; cs_n_items() is 0: each shard's posteriors come
 * from cs_shard_e_step() at the fitted parameters (EM's last E-step was there). Not
 * calibrated and no degenerate ties settled (::CS_NOTE_DEGENERATE_MAXIMUM): a
 * single-process fit with ::CS_PARAM_CALIBRATION none gives the same posteriors. The
 * progress callback is called as in cs_fit().
 *
 * @param model The handle (method and parameters).
 * @param n_items, n_workers, k The crowd's sizes.
 * @param start The summed start statistics (cs_shard_start() of every shard).
 * @param n_stats Their number (cs_stats_length(n_workers, k)).
 * @param e_step The engine's E-step.
 * @param user Passed to e_step.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_INVALID_ARGUMENT
 *         (another method, wrong sizes, statistics negative or not finite);
 *         ::CS_ERR_CANCELLED (e_step or the progress callback stopped it; the last
 *         completed round is kept); ::CS_ERR_OUT_OF_MEMORY.
 */
CS_API cs_status cs_fit_stats(cs_model *model, size_t n_items, size_t n_workers, size_t k, const double *start,
                              size_t n_stats, cs_e_step_fn e_step, void *user);
/** @} */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CROWDSPEC_H */
