# SPDX-License-Identifier: MIT
"""The crowd-kit-shaped classes of the crowd methods: ``Aggregator`` (any method by
name), one class per method (DawidSkene, MajorityVote, ...) and METHOD_CLASSES.

They encode a DataFrame (_crowd_frame), fit it through the numpy layer (_fit) and give
the results back as pandas objects indexed by the frame's own ids and labels.
"""

import re

import numpy as np

from ._crowd_frame import (_check_coded, _check_columns, _confusion_from_errors, _Encoded,
                           _in_frame_terms, _missing_row)
from ._estimator import _Params
from ._fit import fit_labels, warn_notes
from ._predict import predict_labels
from ._frame import _factorize, _int32, _pd
from ._lib import CrowdspecError

__all__ = [
    "Aggregator", "Auto", "MajorityVote", "DawidSkene", "OptDawidSkene", "OneCoinDawidSkene",
    "ClassOneCoinDawidSkene", "CrowdLloyd", "KOS", "KOSMessagePassing", "GhoshSVD",
    "EigenRatio", "Wawa", "ZeroBasedSkill", "GLAD", "MACE", "MMSR", "EBCC", "BCC", "BWA",
    "LA", "LAOnePass", "CrowdLab", "METHOD_CLASSES",
]


def _model_rows(model_probs, enc):
    """model_probs as (rows, item ids) for fit_labels: a DataFrame by task (columns the
    labels, in any order; tasks not in the data dropped) or an array in the fit's task
    and class order."""
    pd = _pd()
    if isinstance(model_probs, pd.DataFrame):
        cols = enc.class_index().get_indexer(model_probs.columns)
        if (cols < 0).any():
            raise ValueError("model_probs has a column that is not a label of the data: %r"
                             % model_probs.columns[int(np.argmax(cols < 0))])
        if len(set(cols.tolist())) != enc.n_classes:
            raise ValueError("model_probs needs one column per label (%d), got %d"
                             % (enc.n_classes, len(model_probs.columns)))
        items = enc.task_index().get_indexer(model_probs.index)
        keep = items >= 0
        values = np.empty((int(keep.sum()), enc.n_classes), dtype=np.float64)
        values[:, cols] = model_probs.to_numpy(dtype=np.float64)[keep]
        return values, items[keep].astype(np.int32)
    values = np.asarray(model_probs, dtype=np.float64)
    if values.ndim != 2 or values.shape[1] != enc.n_classes or values.shape[0] > enc.n_items:
        raise ValueError("model_probs as an array must be tasks x labels (%d x %d), got shape %r"
                         % (enc.n_items, enc.n_classes, values.shape))
    return values, None


class Aggregator(_Params):
    """Any crowd method of the library by name: ``Aggregator("ds", max_iter=50)``.

    The named classes (DawidSkene, MajorityVote, ...) are this with the method fixed.

    Keyword arguments: crowd-kit's ``n_iter`` (the library's max_iter) and ``tol``,
    scikit-learn's ``n_jobs`` (threads; -1 = the library's automatic count, up to every core) and ``random_state`` (seed),
    and any library parameter by its name (prior="uniform", confusion="one-coin",
    support=..., seed=..., threads=..., smoothing=...). None leaves the library's
    default. Unknown names and out-of-range values raise CrowdspecError at once.

    After fit(): labels_ (Series by task, name "agg_label", the label column's dtype),
    probas_ (DataFrame task x label), priors_ (Series by label), errors_ (DataFrame
    indexed by (worker, observed label), columns true label: P(observed | true)),
    skills_ (Series by worker: sum_l prior_l P(l | l)), loss_history_ (the
    log-likelihood trace, a list), n_iter_, converged_, log_likelihood_, notes_ (list
    of note names), result_ (the crowdspec.Result) and the calibration of probas_
    (parameter calibration="auto", "labels" or "none"; the Dawid-Skene family):
    temperature_ (T; 1 when none was applied), mixing_ (the weight of the prior, from
    gold) and calibration_ (its source: "none", "labels" or "gold"). predict and
    predict_proba apply the same calibration, so that the training data predicts as
    probas_.
    of note names) and result_ (the crowdspec.Result). When the labels are ordered
    grades (the ordinal methods, or ordinal=1; the order is the sorted order of the
    labels): median_grades_ (Series by task: the posterior median label) and
    mean_grades_ (the posterior mean of the labels' numeric values, or of the class
    position 0..k-1 when a label is not a number).
    """

    def __init__(self, method, n_iter=None, tol=None, **params):
        # scikit-learn's rule: every argument stored as given (checked, not changed)
        self._set_checked(dict(method=method, n_iter=n_iter, tol=tol, **params))

    def fit(self, data, true_labels=None, initial_error=None, model_probs=None):
        """Fit to a DataFrame with columns task, worker, label; true_labels (a Series
        task -> label) are pinned as gold. initial_error (EM methods; crowd-kit's
        argument): a warm start in the layout of errors_ (rows (worker, observed
        label), columns true label), for example a previous fit's errors_; workers it
        lacks start from the majority-vote estimate. model_probs: a classifier's class
        probabilities, a DataFrame indexed by task with one column per label (tasks
        not in data are ignored), or an array (tasks in the order of probas_.index, labels
        in the order of classes_). The Dawid-Skene family (Auto, the default, too) takes
        the model as one more worker with its own confusion matrix (model_errors_);
        Aggregator("crowdlab") weighs it as CROWDLAB does. Returns self.

        Scores and diagnostics after fit(): label_next_ (Series by task: the expected
        fall in the chance its label is wrong if one more label is bought; highest
        first to buy), label_wrong_ (Series indexed like data: the posterior
        probability that each label is wrong), spammer_ (Series by worker, Raykar-Yu:
        0 spammer .. 1 perfect), worst_class_ (Series by worker), accuracy_interval_
        (DataFrame by worker: accuracy, low, high: the share of its labels right, soft
        counts, and its 95 % posterior Beta interval)."""
        pd = _pd()
        enc = _Encoded(data, true_labels)
        initial = None
        if initial_error is not None:
            initial = _confusion_from_errors(initial_error, enc.worker_index(),
                                             enc.class_index())
        probs, prob_items = (None, None) if model_probs is None else _model_rows(model_probs, enc)
        try:
            result = fit_labels(enc.item, enc.worker, enc.label, method=self._fit_method(),
                                n_items=enc.n_items, n_workers=enc.n_workers,
                                n_classes=enc.n_classes, gold_item=enc.gold_item,
                                gold_label=enc.gold_label, initial_confusion=initial,
                                model_probs=probs, model_items=prob_items,
                                warn=False, _private_codes=True, **self._params)
        except CrowdspecError as err:
            raise _in_frame_terms(err, data) from None
        tasks, workers, classes = enc.task_index(), enc.worker_index(), enc.class_index()
        warn_notes(result, stacklevel=3, rename=lambda text: _name_items(text, tasks))
        self._keep_result(result)
        self.classes_ = classes
        self._workers = workers
        self._class_values = enc.classes
        self.labels_ = pd.Series(enc.classes.take(result.labels), index=tasks,
                                 name="agg_label")
        self.probas_ = pd.DataFrame(result.posteriors, index=tasks, columns=classes)
        self.priors_ = pd.Series(result.prior, index=classes, name="prior")
        # The frames built on first access (__getattr__). Their builders hold the
        # result and the small indexes only, never enc: its three 10^6-row code
        # arrays would live as long as the estimator.
        self._pending = {}
        class_values = enc.classes
        self._defer("errors_", lambda: _errors_frame(result.confusion, workers, classes, class_values))
        self._defer("skills_", lambda: pd.Series(
            np.diagonal(result.confusion, axis1=1, axis2=2) @ result.prior, index=workers, name="skill"))
        self.log_likelihood_ = result.log_likelihood
        self.temperature_ = result.temperature
        self.mixing_ = result.mixing
        self.calibration_ = result.calibration
        self._keep_estimates(result, tasks, workers, classes, enc)
        self._keep_diagnostics(result, data.index, tasks, workers, classes, enc)
        if result.median_grades is not None:
            # Ordered grades: the median as a label, the mean as a number (the labels'
            # values when every label is a number, else the 0-based class position).
            self.median_grades_ = pd.Series(enc.classes.take(result.median_grades), index=tasks,
                                            name="median_grade")
            values = pd.to_numeric(pd.Series(np.asarray(enc.classes)), errors="coerce").to_numpy()
            means = (result.posteriors @ values.astype(np.float64) if not np.isnan(values).any()
                     else result.mean_grades)
            self.mean_grades_ = pd.Series(means, index=tasks, name="mean_grade")
        return self

    def _keep_diagnostics(self, result, rows, tasks, workers, classes, enc):
        """label_next_, label_wrong_, spammer_, worst_class_, accuracy_interval_ and
        model_errors_ (issue 34), where the fit has them."""
        pd = _pd()
        d = result.diagnostics
        if d is None:
            return
        values = np.asarray(enc.classes, dtype=object)
        self._defer("label_next_", lambda: pd.Series(d.label_next, index=tasks, name="label_next"))
        self._defer("label_wrong_", lambda: pd.Series(d.label_wrong, index=rows, name="p_wrong"))
        self._defer("spammer_", lambda: pd.Series(d.spammer, index=workers, name="spammer"))
        self._defer("worst_class_", lambda: pd.Series(
            [values[c] if c >= 0 else None for c in d.worst_class], index=workers,
            name="worst_class", dtype=object))
        self._defer("accuracy_interval_", lambda: pd.DataFrame(
            {"accuracy": d.accuracy, "low": d.accuracy_low, "high": d.accuracy_high}, index=workers))
        if d.model_confusion is not None:
            model_labels = pd.Index(enc.classes, name="model label")
            self._defer("model_errors_", lambda: pd.DataFrame(d.model_confusion, index=classes,
                                                              columns=model_labels))

    def _defer(self, name, build):
        """Set attribute ``name`` to build() on its first access: the frames a fit has but
        most callers never read (errors_, skills_, the diagnostics) cost several passes
        of pandas each, a tenth of a 10^6-label fit's time outside the library. A value
        left from an earlier fit is dropped, so that the access finds this fit's."""
        vars(self).pop(name, None)
        self._pending[name] = build

    def __getattr__(self, name):
        # Called only when ``name`` is not set: a deferred frame is built and kept.
        pending = vars(self).get("_pending")
        if pending is not None and name in pending:
            value = pending.pop(name)()
            setattr(self, name, value)
            return value
        raise AttributeError("%r object has no attribute %r" % (type(self).__name__, name))

    def __getstate__(self):
        """The attributes with every deferred frame built (the builders are closures,
        which do not pickle)."""
        state = dict(vars(self))
        for name, build in state.pop("_pending", {}).items():
            state.setdefault(name, build())
        return state

    def _keep_estimates(self, result, tasks, workers, classes, enc):
        """crowd-kit's model-specific attributes, where the method has them."""
        pd = _pd()
        est = result.estimates
        if "ability" in est:  # GLAD
            self.alphas_ = pd.Series(est["ability"], index=workers, name="alpha")
            self.betas_ = pd.Series(est["inverse_difficulty"], index=tasks, name="beta")
        if "competence" in est:  # MACE: spamming_[:, 0] spams, [:, 1] knows
            theta = est["competence"]
            self.spamming_ = np.column_stack([1.0 - theta, theta])
            self.thetas_ = est["strategy"]
        if self._fit_method() == "mv":
            # crowd-kit's MajorityVote.skills_: each worker's share of labels that
            # agree with the majority vote (accuracy on aggregates).
            from . import metrics
            share = metrics._accuracy_by_worker(enc, result.labels[:enc.n_items])
            self._pending.pop("skills_", None)
            self.skills_ = pd.Series(share, index=workers, name="skill")

    def score(self, data, y=None):
        """Mean log-likelihood per label of ``data`` (task, worker, label) under the
        fitted model, as scikit-learn's GaussianMixture.score: each label's
        probability is sum_t P(true t | the fit) P(label | t, worker), with the fitted
        task posteriors (the prior for tasks the fit did not see) and worker matrices
        (the mean matrix for workers it did not see). Higher is better, so that
        GridSearchCV(estimator, grid).fit(data) picks parameters by the likelihood of
        held-out labels. Labels the fit has no class for raise ValueError."""
        if not hasattr(self, "result_"):
            raise ValueError("score needs a fit first: call fit()")
        _check_columns(data)
        r = self.result_
        task_codes, seen = _factorize(data["task"], sort=False)
        _check_coded(data, "task", task_codes)
        post = np.vstack([r.posteriors, r.prior[None, :]])
        t = self.probas_.index.get_indexer(seen)
        t = np.append(np.where(t < 0, len(r.posteriors), t), -1)[task_codes]
        worker_codes, seen = _factorize(data["worker"], sort=False)
        _check_coded(data, "worker", worker_codes)
        conf = np.concatenate([r.confusion, r.confusion.mean(axis=0, keepdims=True)])
        w = self._workers.get_indexer(seen)
        w = np.append(np.where(w < 0, len(r.confusion), w), -1)[worker_codes]
        label_codes, seen = _factorize(data["label"], sort=False)
        c = np.append(self.classes_.get_indexer(seen), -1)[label_codes]
        if c.size and c.min() < 0:
            row = _missing_row(data["label"], c < 0)
            raise ValueError("data['label'] has a value the fit has no class for (row %r: %r)"
                             % (row, data["label"].loc[row]))
        p = np.einsum("nk,nk->n", post[t], conf[w, :, c])
        return float(np.mean(np.log(np.maximum(p, np.finfo(float).tiny)))) if p.size else float("nan")

    def fit_predict(self, data, true_labels=None):
        """fit(), then labels_."""
        return self.fit(data, true_labels).labels_

    def predict_proba(self, data):
        """Class probabilities of a new batch (DataFrame task, worker, label) from the
        fitted workers without refitting (one E-step, cs_predict), calibrated as the fit
        was (temperature_, mixing_). Workers the fit did not see are weighed by the
        average worker (a CrowdspecWarning says how many); labels must be among the
        fitted classes. Returns a DataFrame task x label."""
        pd = _pd()
        if not hasattr(self, "result_"):
            raise ValueError("predict needs a fit first: call fit()")
        _check_columns(data)
        task_codes, tasks = _factorize(data["task"])
        _check_coded(data, "task", task_codes)
        # code each column once, then map its few distinct values onto the fit's
        known = self._workers
        codes, seen = _factorize(data["worker"], sort=False)
        _check_coded(data, "worker", codes)
        to_known = known.get_indexer(seen)
        new = to_known < 0
        if new.any():  # unknown workers get ids after the known ones
            to_known[new] = len(known) + np.arange(np.count_nonzero(new))
        worker_codes = to_known[codes]
        codes, seen = _factorize(data["label"], sort=False)
        to_class = np.append(self.classes_.get_indexer(seen), -1)
        label_codes = to_class[codes]
        if label_codes.size and label_codes.min() < 0:
            row = _missing_row(data["label"], label_codes < 0)
            raise ValueError("data['label'] has a value the fit has no class for (row %r: %r)"
                             % (row, data["label"].loc[row]))
        task_codes, worker_codes, label_codes = _int32(task_codes), _int32(worker_codes), _int32(label_codes)
        try:
            result = predict_labels(task_codes, worker_codes, label_codes,
                                    self.result_.confusion, self.result_.prior,
                                    temperature=self.result_.temperature,
                                    mixing=self.result_.mixing, warn=False,
                                    **{k: v for k, v in self._params.items()
                                       if k in ("support", "threads")})
        except CrowdspecError as err:
            raise _in_frame_terms(err, data) from None
        warn_notes(result, stacklevel=3, rename=lambda text: _name_items(text, tasks))
        index = pd.Index(tasks, name="task")
        return pd.DataFrame(result.posteriors, index=index, columns=self.classes_)

    def predict(self, data):
        """Labels of a new batch from the fitted workers (see predict_proba): a Series
        by task, name "agg_label"."""
        pd = _pd()
        probas = self.predict_proba(data)
        labels = self._class_values.take(np.argmax(probas.to_numpy(), axis=1))
        return pd.Series(labels, index=probas.index, name="agg_label")

    def fit_predict_proba(self, data, true_labels=None):
        """fit(), then probas_."""
        return self.fit(data, true_labels).probas_


def _errors_frame(confusion, workers, classes, class_values):
    """errors_: the (m, k, k) worker x true x observed matrices in crowd-kit's layout,
    rows (worker, observed label), columns true label."""
    pd = _pd()
    k = len(classes)
    rows = pd.MultiIndex.from_arrays(
        [np.repeat(np.asarray(workers, dtype=object), k),
         np.tile(np.asarray(class_values, dtype=object), len(workers))],
        names=["worker", "label"])
    return pd.DataFrame(confusion.transpose(0, 2, 1).reshape(-1, k), index=rows, columns=classes)


def _name_items(text, tasks):
    """The library's message with its 0-based item numbers ("item 17") given as the
    frame's task ids."""
    def task(match):
        j = int(match.group(1))
        return "task %r" % (tasks[j],) if 0 <= j < len(tasks) else match.group(0)
    return re.sub(r"\bitem (\d+)", task, text)


def _crowd_class(name, method, doc):
    def __init__(self, n_iter=None, tol=None, **params):
        if "method" in params:
            raise TypeError("the method is fixed by the class; use crowdspec.Aggregator(method=...)"
                            " or crowdspec.fit_labels for another one")
        self._set_checked(dict(n_iter=n_iter, tol=tol, **params))

    __init__.__doc__ = "See crowdspec.Aggregator for the keyword arguments."
    return type(name, (Aggregator,), {"_method": method, "method": method, "__init__": __init__,
                                      "__doc__": doc + "\n\n" + Aggregator.__doc__,
                                      "__module__": "crowdspec"})


Auto = _crowd_class(
    "Auto", "auto",
    'The library\'s default ("auto"): Dawid-Skene EM from the soft majority vote, each worker\'s\n'
    'confusion rows under a Dirichlet prior centred on the pooled rows of the workers of like\n'
    'activity (smoothing_center "strata"; smoothing_strength pseudo-labels per row), so that a\n'
    'worker with few labels is pulled towards the crowd\'s other occasional workers; then\n'
    'calibrated posteriors (temperature_, calibration_).')
MajorityVote = _crowd_class(
    "MajorityVote", "mv",
    'Majority vote ("mv"): ties to the lowest class; probas_ are the vote shares.')
DawidSkene = _crowd_class(
    "DawidSkene", "ds", 'Dawid-Skene EM from the soft majority vote ("ds", MV-D&S).')
OptDawidSkene = _crowd_class(
    "OptDawidSkene", "opt-ds",
    'Spectral (method-of-moments) start, then Dawid-Skene EM ("opt-ds"; the default before 0.2).')
OneCoinDawidSkene = _crowd_class(
    "OneCoinDawidSkene", "one-coin-ds",
    'Dawid-Skene EM with one accuracy per worker ("one-coin-ds").')
ClassOneCoinDawidSkene = _crowd_class(
    "ClassOneCoinDawidSkene", "class-one-coin-ds",
    'Dawid-Skene EM with one accuracy per worker and true class ("class-one-coin-ds").')
CrowdLloyd = _crowd_class(
    "CrowdLloyd", "crowd-lloyd", 'Lloyd iterations on the one-hot labels ("crowd-lloyd").')
KOS = _crowd_class("KOS", "kos", 'Spectral Karger-Oh-Shah ("kos"), a baseline.')
KOSMessagePassing = _crowd_class(
    "KOSMessagePassing", "kos-mp",
    'Karger-Oh-Shah iterative message passing ("kos-mp"), a baseline.')
GhoshSVD = _crowd_class("GhoshSVD", "ghosh-svd",
                        'The SVD method of Ghosh, Kale and McAfee ("ghosh-svd"), a baseline.')
EigenRatio = _crowd_class("EigenRatio", "eigen-ratio",
                          'The eigenvector-ratio method of Dalvi et al. ("eigen-ratio").')
EBCC = _crowd_class(
    "EBCC", "ebcc",
    'Enhanced Bayesian Classifier Combination ("ebcc"; Li, Rubinstein and Cohn 2019): per-class\n'
    'mixtures of worker-correlation subtypes, mean-field variational Bayes; loss_history_ is the\n'
    'evidence lower bound. Prior keywords: subtypes, subtype_concentration, class_concentration,\n'
    'confusion_diagonal, confusion_off_diagonal.')
BCC = _crowd_class(
    "BCC", "bcc",
    'Bayesian Classifier Combination ("bcc"; Kim and Ghahramani 2012) by mean-field variational\n'
    'Bayes: ebcc with one subtype; loss_history_ is the evidence lower bound.')
BWA = _crowd_class(
    "BWA", "bwa",
    'Bayesian Weighted Average ("bwa"; Li, Rubinstein and Cohn 2019): one-versus-rest scores,\n'
    'each the precision-weighted average of the labels with one precision per worker and class,\n'
    'closed-form iterations. Prior keywords: bwa_strength (a_v), bwa_item_precision (lambda),\n'
    'bwa_prior_correction ("on"/"off"). The authors stop at tol=1e-3, n_iter=500.')
LA = _crowd_class(
    "LA", "la",
    'LA two-pass ("la"; Yang et al. 2024): worker abilities learned in one online pass over the\n'
    'items (order: la_order, "random" from random_state, or "items"), then every item voted again\n'
    'with weights k a - 1. Prior keywords: la_alpha, la_beta (Beta prior of an ability).')
LAOnePass = _crowd_class(
    "LAOnePass", "la-onepass",
    'LA one-pass ("la-onepass"; Yang et al. 2024): each item decided once, online, by the vote\n'
    'weighted with the abilities learned from the items before it. Keywords as LA.')

Wawa = _crowd_class(
    "Wawa", "wawa",
    'Majority vote reweighted by each worker\'s agreement with it ("wawa", crowd-kit\'s Wawa).')
ZeroBasedSkill = _crowd_class(
    "ZeroBasedSkill", "zbs",
    'Zero-Based Skill: skills stepped towards agreement with the weighted vote ("zbs").')
GLAD = _crowd_class(
    "GLAD", "glad",
    'GLAD: worker abilities and item difficulties, MAP-EM (Whitehill et al., "glad").')
MACE = _crowd_class(
    "MACE", "mace",
    'MACE: each worker knows the answer or spams; variational Bayes ("mace", Hovy et al.).')
MMSR = _crowd_class(
    "MMSR", "m-msr",
    'M-MSR: one-coin skills by robust rank-one matrix completion ("m-msr", Ma and Olshevsky).')

MinimaxEntropy = _crowd_class(
    "MinimaxEntropy", "minimax-entropy",
    'Minimax conditional entropy ("minimax-entropy"; Zhou et al. 2012, 2014): worker and item\n'
    'confusion matrices, the regularised dual; gamma (default 0.25) is the regularisation,\n'
    'gamma=0 chooses it by 5-fold likelihood cross-validation over the labels (cv_folds=...);\n'
    'minimax_start="ds" starts from a ds fit (faster).')
OrdinalMinimaxEntropy = _crowd_class(
    "OrdinalMinimaxEntropy", "ordinal-minimax",
    'Ordinal minimax conditional entropy ("ordinal-minimax"; Zhou, Liu, Platt, Meek 2014) for\n'
    'labels that are ordered grades; sets median_grades_ and mean_grades_.')
OrdinalDawidSkene = _crowd_class(
    "OrdinalDawidSkene", "ordinal-ds",
    'Dawid-Skene EM with ordered-logit workers ("ordinal-ds"): each worker a bias and a noise on\n'
    'the grade scale, thresholds shared; sets median_grades_ and mean_grades_.')

CrowdLab = _crowd_class(
    "CrowdLab", "crowdlab",
    'CROWDLAB ("crowdlab"; Goh, Tkachenko and Mueller 2022): a weighted ensemble of a\n'
    'classifier\'s probabilities and the labels; fit(data, model_probs=...) is required.')

#: The class of each crowd method of the library, by method name.
METHOD_CLASSES = {cls._method: cls for cls in (
    Auto, MajorityVote, DawidSkene, OptDawidSkene, OneCoinDawidSkene, ClassOneCoinDawidSkene,
    CrowdLloyd, KOS, KOSMessagePassing, GhoshSVD, EigenRatio, Wawa, ZeroBasedSkill, GLAD,
    MACE, MMSR, EBCC, BCC, BWA, LA, LAOnePass, MinimaxEntropy, OrdinalMinimaxEntropy,
    OrdinalDawidSkene, CrowdLab)}
