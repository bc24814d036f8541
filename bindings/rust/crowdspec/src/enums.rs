// SPDX-License-Identifier: MIT
//! Methods, parameter values and fit notes, as Rust enums over the C ids.

use std::ffi::{CStr, CString};
use std::fmt;
use std::ops::{BitOr, BitOrAssign};
use std::str::FromStr;

use crowdspec_sys as sys;

use crate::error::{text, Error, Status};

/// The kind of input a method takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputKind {
    /// Crowd labels, [`Model::fit`](crate::Model::fit).
    Crowd,
    /// Points of R^d, [`Model::fit_points`](crate::Model::fit_points).
    Points,
    /// An undirected graph, [`Model::fit_graph`](crate::Model::fit_graph).
    Graph,
    /// Pairwise comparisons, [`Model::fit_comparisons`](crate::Model::fit_comparisons).
    Comparisons,
    /// Sets of tags (since 0.2), [`Model::fit_tags`](crate::Model::fit_tags).
    Tags,
    /// Real answers (since 0.2), [`Model::fit_numbers`](crate::Model::fit_numbers).
    Numbers,
}

c_enum! {
    /// Inference methods. The header (`enum cs_method`) and the project's docs/algorithms.md
    /// specify each one; [`Method::name`] is the name the command-line program uses.
    #[non_exhaustive]
    pub enum Method {
        /// `"mv"`: majority vote, ties to the lowest class; posteriors are the vote shares.
        Mv = sys::CS_METHOD_MV,
        /// `"ds"`: Dawid-Skene EM from the soft majority vote (MV-D&S).
        Ds = sys::CS_METHOD_DS,
        /// `"opt-ds"`: spectral estimate of the confusion matrices, then Dawid-Skene EM
        /// (Zhang, Chen, Zhou and Jordan). The default before 0.2.
        OptDs = sys::CS_METHOD_OPT_DS,
        /// `"crowd-lloyd"`: Lloyd's algorithm on one-hot labels (Lu and Zhou).
        CrowdLloyd = sys::CS_METHOD_CROWD_LLOYD,
        /// `"kos"`: spectral Karger-Oh-Shah (a baseline).
        Kos = sys::CS_METHOD_KOS,
        /// `"kos-mp"`: message-passing Karger-Oh-Shah (a baseline).
        KosMp = sys::CS_METHOD_KOS_MP,
        /// `"ghosh-svd"`: Ghosh, Kale and McAfee's SVD method (a baseline).
        GhoshSvd = sys::CS_METHOD_GHOSH_SVD,
        /// `"eigen-ratio"`: Dalvi et al.'s eigenvector ratio (a baseline).
        EigenRatio = sys::CS_METHOD_EIGEN_RATIO,
        /// `"one-coin-ds"`: Dawid-Skene EM with one accuracy per worker.
        OneCoinDs = sys::CS_METHOD_ONE_COIN_DS,
        /// `"class-one-coin-ds"`: Dawid-Skene EM with one accuracy per worker and class.
        ClassOneCoinDs = sys::CS_METHOD_CLASS_ONE_COIN_DS,
        /// `"wawa"`: majority vote reweighted by each worker's agreement with it.
        Wawa = sys::CS_METHOD_WAWA,
        /// `"zbs"`: Zero-Based Skill.
        Zbs = sys::CS_METHOD_ZBS,
        /// `"glad"`: GLAD (Whitehill et al.).
        Glad = sys::CS_METHOD_GLAD,
        /// `"mace"`: MACE (Hovy et al.).
        Mace = sys::CS_METHOD_MACE,
        /// `"m-msr"`: M-MSR (Ma and Olshevsky).
        MMsr = sys::CS_METHOD_M_MSR,
        /// `"ebcc"`: Enhanced Bayesian Classifier Combination (Li, Rubinstein and Cohn):
        /// per-class mixtures of worker-correlation subtypes, mean-field variational Bayes.
        Ebcc = sys::CS_METHOD_EBCC,
        /// `"bcc"`: Bayesian Classifier Combination (Kim and Ghahramani) by variational
        /// Bayes: ebcc with one subtype.
        Bcc = sys::CS_METHOD_BCC,
        /// `"bwa"`: Bayesian Weighted Average (Li, Rubinstein and Cohn): one-versus-rest
        /// scores, precision-weighted averages with one precision per worker and class.
        Bwa = sys::CS_METHOD_BWA,
        /// `"la"`: LA two-pass (Yang et al.): online worker abilities, then a second vote.
        La = sys::CS_METHOD_LA,
        /// `"la-onepass"`: LA one-pass (Yang et al.): each item decided once, online.
        LaOnePass = sys::CS_METHOD_LA_ONEPASS,
        /// `"auto"` (the default): Dawid-Skene EM with each worker's confusion rows under
        /// a prior centred on the workers of like activity ([`SmoothingCenter::Strata`]),
        /// then calibrated posteriors ([`Calibration`]).
        Auto = sys::CS_METHOD_AUTO,
        /// `"minimax-entropy"`: minimax conditional entropy (Zhou et al.): worker and item
        /// confusion matrices, the regularised dual.
        MinimaxEntropy = sys::CS_METHOD_MINIMAX_ENTROPY,
        /// `"ordinal-minimax"`: the ordinal minimax conditional entropy model, for grades.
        OrdinalMinimax = sys::CS_METHOD_ORDINAL_MINIMAX,
        /// `"ordinal-ds"`: Dawid-Skene with ordered-logit workers, for grades.
        OrdinalDs = sys::CS_METHOD_ORDINAL_DS,
        /// `"crowdlab"`: CROWDLAB, a weighted ensemble of a classifier's probabilities
        /// ([`Model::set_model_probs`](crate::Model::set_model_probs)) and the labels.
        Crowdlab = sys::CS_METHOD_CROWDLAB,
        /// `"lloyd"` (points): spectral initialisation, then Lloyd iterations.
        Lloyd = sys::CS_METHOD_LLOYD,
        /// `"kmeans++"` (points): k-means++ seeding and Lloyd iterations.
        KmeansPp = sys::CS_METHOD_KMEANS_PP,
        /// `"commu-lloyd"` (graphs): trimmed spectral initialisation, then CommuLloyd.
        CommuLloyd = sys::CS_METHOD_COMMU_LLOYD,
        /// `"spec"` (graphs): the spectral initialisation alone.
        Spec = sys::CS_METHOD_SPEC,
        /// `"spec-mle"` (graphs): the spectral initialisation and one likelihood step.
        SpecMle = sys::CS_METHOD_SPEC_MLE,
        /// `"bt"` (comparisons): Bradley-Terry by MM, Davidson ties, a weak prior.
        Bt = sys::CS_METHOD_BT,
        /// `"noisy-bt"` (comparisons): each worker's skill and left bias (crowd-kit's NoisyBT).
        NoisyBt = sys::CS_METHOD_NOISY_BT,
        /// `"crowd-bt"` (comparisons): each worker's eta, below 1/2 an adversary (Chen et al.).
        CrowdBt = sys::CS_METHOD_CROWD_BT,
        /// `"mean"` (numbers): the mean of each item's answers.
        Mean = sys::CS_METHOD_MEAN,
        /// `"median"` (numbers): the median of each item's answers.
        Median = sys::CS_METHOD_MEDIAN,
        /// `"gaussian"` (numbers): a bias and a noise per worker, Gaussian (Raykar et al.).
        Gaussian = sys::CS_METHOD_GAUSSIAN,
        /// `"catd"` (numbers): confidence-aware truth discovery (Li et al., PVLDB 2014).
        Catd = sys::CS_METHOD_CATD,
        /// `"crh"` (numbers): CRH / PM truth discovery (Li et al., SIGMOD 2014).
        Crh = sys::CS_METHOD_CRH,
        /// `"student-t"` (numbers; the default for numbers): Student-t worker noise.
        StudentT = sys::CS_METHOD_STUDENT_T,
        /// `"trimmed-mean"` (numbers): each item's mean without its extreme answers.
        TrimmedMean = sys::CS_METHOD_TRIMMED_MEAN,
        /// `"tag-pooled"` (tags; the default for tags): per-tag D&S, rates pooled per worker.
        TagPooled = sys::CS_METHOD_TAG_POOLED,
    }
    /// The C id (`CS_METHOD_...`).
    fn id;
}

impl Method {
    /// The method of a C id, if this crate knows it.
    pub fn from_id(id: i32) -> Option<Method> {
        Method::from_known(id)
    }

    /// The method's short name, e.g. `"opt-ds"` (`cs_method_name`).
    pub fn name(self) -> String {
        // SAFETY: any id is accepted; the result is a static string or NULL.
        unsafe { text(sys::cs_method_name(self.id())) }
    }

    /// One line saying what the method does (`cs_method_summary`).
    pub fn summary(self) -> String {
        // SAFETY: any id is accepted; the result is a static string or NULL.
        unsafe { text(sys::cs_method_summary(self.id())) }
    }

    /// The method of a short name (`cs_method_from_name`), e.g. `"crowd-lloyd"`.
    ///
    /// ```
    /// use crowdspec::{Method, Status};
    /// assert_eq!(Method::from_name("ds")?, Method::Ds);
    /// assert_eq!(Method::from_name("dawid").unwrap_err().status, Status::UnknownMethod);
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn from_name(name: &str) -> Result<Method, Error> {
        let c = CString::new(name)
            .map_err(|_| Error::new(Status::UnknownMethod, "method name contains a NUL byte"))?;
        let mut id = 0;
        // SAFETY: c is NUL-terminated; id is a valid out-pointer.
        let code = unsafe { sys::cs_method_from_name(c.as_ptr(), &mut id) };
        if code != sys::CS_OK {
            return Err(Error::new(
                Status::from_code(code),
                format!("unknown method \"{}\"", name),
            ));
        }
        Method::from_id(id).ok_or_else(|| {
            Error::new(
                Status::UnknownMethod,
                format!("method \"{}\" (id {}) is newer than this crate", name, id),
            )
        })
    }

    /// The kind of input the method takes (`cs_method_input`).
    pub fn input(self) -> InputKind {
        // SAFETY: any id is accepted.
        match unsafe { sys::cs_method_input(self.id()) } {
            sys::CS_INPUT_POINTS => InputKind::Points,
            sys::CS_INPUT_GRAPH => InputKind::Graph,
            sys::CS_INPUT_COMPARISONS => InputKind::Comparisons,
            sys::CS_INPUT_TAGS => InputKind::Tags,
            sys::CS_INPUT_NUMBERS => InputKind::Numbers,
            _ => InputKind::Crowd,
        }
    }

    /// Every method the linked library provides that this crate knows, in the
    /// library's order (`cs_method_count`, `cs_method_at`).
    pub fn all() -> Vec<Method> {
        // SAFETY: plain queries without pointers.
        let count = unsafe { sys::cs_method_count() };
        (0..count).filter_map(|i| Method::from_id(unsafe { sys::cs_method_at(i) })).collect()
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Method {
    type Err = Error;
    fn from_str(s: &str) -> Result<Method, Error> {
        Method::from_name(s)
    }
}

/// A `c_enum!` for the values of a parameter (`$param`, its name) that
/// `Model::set` accepts.
macro_rules! value_enum {
    ($(#[$doc:meta])* $name:ident, $param:literal { $($(#[$vdoc:meta])* $variant:ident = $id:path),+ $(,)? }) => {
        c_enum! {
            $(#[$doc])*
            pub enum $name {
                $($(#[$vdoc])* $variant = $id,)+
            }
            /// The C value.
            fn id;
        }
        impl $name {
            /// The name of the parameter this value is for.
            pub const PARAM: &'static str = $param;
        }
        impl private::Sealed for $name {}
        impl ParamValue for $name {
            fn to_arg(&self) -> Result<private::Arg, Error> {
                Ok(private::Arg::Int(i64::from(self.id())))
            }
        }
    };
}

value_enum!(
    /// Values of the `"prior"` parameter: the class prior.
    Prior, "prior" {
        /// `"uniform"`: 1/k each, fixed.
        Uniform = sys::CS_PRIOR_UNIFORM,
        /// `"estimated"`: the class frequencies, updated in each M-step (the default).
        Estimated = sys::CS_PRIOR_ESTIMATED,
    }
);

value_enum!(
    /// Values of the `"confusion"` parameter: the confusion-matrix model of EM.
    ConfusionModel, "confusion" {
        /// `"full"`: a free k x k matrix per worker (the default).
        Full = sys::CS_CONFUSION_FULL,
        /// `"one-coin"`: one accuracy per worker, uniform errors.
        OneCoin = sys::CS_CONFUSION_ONE_COIN,
        /// `"class-one-coin"`: one accuracy per worker and true class.
        ClassOneCoin = sys::CS_CONFUSION_CLASS_ONE_COIN,
    }
);

value_enum!(
    /// Values of the `"support"` parameter: which classes an item may take in EM.
    Support, "support" {
        /// `"all"`: every class.
        All = sys::CS_SUPPORT_ALL,
        /// `"answered"`: the classes some worker gave the item.
        Answered = sys::CS_SUPPORT_ANSWERED,
        /// `"auto"`: answered for k >= 3, all for k = 2 (the default).
        Auto = sys::CS_SUPPORT_AUTO,
    }
);

value_enum!(
    /// Values of the `"accel"` parameter: EM acceleration.
    Accel, "accel" {
        /// `"none"`: plain EM.
        None = sys::CS_ACCEL_NONE,
        /// `"squarem"`: monotone SQUAREM (the default).
        Squarem = sys::CS_ACCEL_SQUAREM,
    }
);

value_enum!(
    /// Values of the `"identify"` parameter: how classes found up to a relabelling are named.
    Identify, "identify" {
        /// `"vote"`: by agreement with the soft majority vote (the default).
        Vote = sys::CS_IDENTIFY_VOTE,
        /// `"reference"`: the reference code's rules.
        Reference = sys::CS_IDENTIFY_REFERENCE,
    }
);

value_enum!(
    /// Values of the `"groups"` parameter: opt-ds's three worker groups.
    Groups, "groups" {
        /// `"balanced"`: balanced in label volume (the default).
        Balanced = sys::CS_GROUPS_BALANCED,
        /// `"reference"`: worker i in group i mod 3.
        Reference = sys::CS_GROUPS_REFERENCE,
    }
);

value_enum!(
    /// Values of the `"smoothing_center"` parameter: the centre of the M-step's confusion prior.
    SmoothingCenter, "smoothing_center" {
        /// `"uniform"`: only the `"smoothing"` pseudo-count, on every entry (the default).
        Uniform = sys::CS_SMOOTHING_CENTER_UNIFORM,
        /// `"pooled"`: also `"smoothing_strength"` pseudo-labels per row, spread as the
        /// crowd's pooled confusion row (a Dirichlet prior centred on the crowd's average).
        Pooled = sys::CS_SMOOTHING_CENTER_POOLED,
        /// `"strata"`: pseudo-labels spread as the pooled rows of the worker's activity
        /// stratum (workers with about as many labels); the prior of [`Method::Auto`],
        /// which sets it itself.
        Strata = sys::CS_SMOOTHING_CENTER_STRATA,
    }
);

value_enum!(
    /// Values of the `"calibration"` parameter: how the posteriors of the Dawid-Skene
    /// family (auto, ds, opt-ds, the one-coin methods) are calibrated, each row q tempered
    /// to q^(1/T), renormalised. [`Model::calibration`](crate::Model::calibration)
    /// reports what a fit applied.
    Calibration, "calibration" {
        /// `"none"`: the model's posterior as it is (T = 1).
        None = sys::CS_CALIBRATION_NONE,
        /// `"auto"`: T (and the prior's weight) from the gold items when there are at
        /// least 10, else T from held-out labels (the default).
        Auto = sys::CS_CALIBRATION_AUTO,
        /// `"labels"`: T from held-out labels, even with gold.
        Labels = sys::CS_CALIBRATION_LABELS,
    }
);

c_enum! {
    /// Where the calibration a fit applied came from ([`AppliedCalibration::source`]).
    pub enum CalibrationSource {
        /// Nothing was applied: the parameter was `"none"`, the method is not of the
        /// Dawid-Skene family, or the fit was cancelled.
        None = sys::CS_CALIBRATION_NONE,
        /// T from held-out labels.
        Labels = sys::CS_CALIBRATION_LABELS,
        /// T and the prior's weight from the gold items.
        Gold = sys::CS_CALIBRATION_GOLD,
        ..
        /// A source this crate does not know.
        Other(i32),
    }
    /// The C value (`cs_calibration`).
    fn id;
}

impl CalibrationSource {
    /// The source of a C value.
    pub fn from_id(id: i32) -> CalibrationSource {
        CalibrationSource::from_known(id).unwrap_or(CalibrationSource::Other(id))
    }
}

/// How the posteriors of a fit were calibrated (`cs_calibration`): each row is
/// `(1 - mixing) q_T + mixing prior`, q_T the model's posterior q raised to
/// `1 / temperature` and renormalised (with a classifier's probabilities only the
/// crowd's evidence is: its term m is left out, `exp((log q - m) / T + m)`). Give it to
/// [`Model::initial_calibration`](crate::Model::initial_calibration) to predict with a
/// fit's workers on another model as the fit would.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AppliedCalibration {
    /// The temperature T (1 when nothing was applied).
    pub temperature: f64,
    /// The weight of the class prior (0 unless gold calibrated the fit).
    pub mixing: f64,
    /// Where it came from.
    pub source: CalibrationSource,
}

value_enum!(
    /// Values of the `"la_order"` parameter: the order of LA's first pass.
    LaOrder, "la_order" {
        /// `"random"`: a permutation of the items drawn from the seed (the default).
        Random = sys::CS_LA_ORDER_RANDOM,
        /// `"items"`: increasing item id, the arrival order of an online stream.
        Items = sys::CS_LA_ORDER_ITEMS,
    }
);

value_enum!(
    /// Values of the `"duplicates"` parameter: a worker labelling an item twice.
    Duplicates, "duplicates" {
        /// `"reject"`: the fit fails with [`Status::Duplicate`] (the default).
        Reject = sys::CS_DUPLICATES_REJECT,
        /// `"first"`: keep the first label.
        KeepFirst = sys::CS_DUPLICATES_KEEP_FIRST,
        /// `"last"`: keep the last label.
        KeepLast = sys::CS_DUPLICATES_KEEP_LAST,
    }
);

pub(crate) mod private {
    /// Values a parameter can be set from, as the C setter they go to.
    pub enum Arg {
        Int(i64),
        Double(f64),
        Text(std::ffi::CString),
    }
    /// Only this crate implements [`ParamValue`](super::ParamValue).
    pub trait Sealed {}
}

/// A value [`Model::set`](crate::Model::set) accepts: integers (set with `cs_set_int`),
/// floats (`cs_set_double`), text (`cs_set_param_string`, e.g. `"estimated"` or
/// `"1e-8"`), a [`Method`] and the value enums ([`Prior`], [`ConfusionModel`], ...).
/// The library checks the value against the parameter's type and range.
pub trait ParamValue: private::Sealed {
    #[doc(hidden)]
    fn to_arg(&self) -> Result<private::Arg, Error>;
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl private::Sealed for $t {}
        impl ParamValue for $t {
            fn to_arg(&self) -> Result<private::Arg, Error> {
                i64::try_from(*self).map(private::Arg::Int).map_err(|_| {
                    Error::new(Status::ParamRange, format!("{} does not fit in a 64-bit signed integer", self))
                })
            }
        }
    )*};
}
int_value!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

impl private::Sealed for f64 {}
impl ParamValue for f64 {
    fn to_arg(&self) -> Result<private::Arg, Error> {
        Ok(private::Arg::Double(*self))
    }
}

impl private::Sealed for f32 {}
impl ParamValue for f32 {
    fn to_arg(&self) -> Result<private::Arg, Error> {
        Ok(private::Arg::Double(f64::from(*self)))
    }
}

fn text_arg(s: &str) -> Result<private::Arg, Error> {
    CString::new(s)
        .map(private::Arg::Text)
        .map_err(|_| Error::new(Status::InvalidArgument, "parameter value contains a NUL byte"))
}

impl private::Sealed for &str {}
impl ParamValue for &str {
    fn to_arg(&self) -> Result<private::Arg, Error> {
        text_arg(self)
    }
}

impl private::Sealed for String {}
impl ParamValue for String {
    fn to_arg(&self) -> Result<private::Arg, Error> {
        text_arg(self)
    }
}

impl private::Sealed for &String {}
impl ParamValue for &String {
    fn to_arg(&self) -> Result<private::Arg, Error> {
        text_arg(self)
    }
}

impl private::Sealed for Method {}
impl ParamValue for Method {
    fn to_arg(&self) -> Result<private::Arg, Error> {
        Ok(private::Arg::Int(i64::from(self.id())))
    }
}

/// Facts about a finished (or cancelled) fit worth a warning: a set of
/// `cs_fit_note` bits. [`Fit::message`](crate::Fit::message) explains them.
///
/// ```
/// use crowdspec::Notes;
/// let notes = Notes::MAX_ITER_REACHED | Notes::CANCELLED;
/// assert!(notes.contains(Notes::CANCELLED));
/// assert!(!notes.contains(Notes::UNLABELED_ITEMS));
/// assert_eq!(notes.names(), ["max_iter_reached", "cancelled"]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Notes(i32);

// The note constants, and NOTE_NAMES pairing each bit with its constant's name (which
// Notes::names gives in lower case): each note is written once.
macro_rules! notes {
    ($($(#[$doc:meta])* pub const $name:ident: Notes = Notes($bit:path);)+) => {
        impl Notes {
            /// No note.
            pub const NONE: Notes = Notes(0);
            $($(#[$doc])* pub const $name: Notes = Notes($bit);)+
        }

        const NOTE_NAMES: &[(i32, &str)] = &[$(($bit, stringify!($name))),+];
    };
}

notes! {
    /// The fit stopped at max_iter before meeting tol.
    pub const MAX_ITER_REACHED: Notes = Notes(sys::CS_NOTE_MAX_ITER_REACHED);
    /// A spectral stage fell back to the majority vote.
    pub const SPECTRAL_FALLBACK: Notes = Notes(sys::CS_NOTE_SPECTRAL_FALLBACK);
    /// Some items had zero likelihood under every class.
    pub const IMPOSSIBLE_ITEMS: Notes = Notes(sys::CS_NOTE_IMPOSSIBLE_ITEMS);
    /// Some items have no labels (their posterior is the prior).
    pub const UNLABELED_ITEMS: Notes = Notes(sys::CS_NOTE_UNLABELED_ITEMS);
    /// The progress callback cancelled the fit.
    pub const CANCELLED: Notes = Notes(sys::CS_NOTE_CANCELLED);
    /// Self-loops or repeated edges were ignored.
    pub const IGNORED_EDGES: Notes = Notes(sys::CS_NOTE_IGNORED_EDGES);
    /// Some nodes have no edge.
    pub const ISOLATED_NODES: Notes = Notes(sys::CS_NOTE_ISOLATED_NODES);
    /// A Lloyd iteration left a cluster empty; it was re-seeded.
    pub const EMPTY_CLUSTER: Notes = Notes(sys::CS_NOTE_EMPTY_CLUSTER);
    /// CommuLloyd's labels alternated between two states.
    pub const LABEL_CYCLE: Notes = Notes(sys::CS_NOTE_LABEL_CYCLE);
    /// A spectral eigensolver did not reach its tolerance.
    pub const EIGEN_NOT_CONVERGED: Notes = Notes(sys::CS_NOTE_EIGEN_NOT_CONVERGED);
    /// opt-ds kept its majority-vote start.
    pub const MAJORITY_START: Notes = Notes(sys::CS_NOTE_MAJORITY_START);
    /// [`Model::predict`](crate::Model::predict): some workers were not in the fit; the
    /// average worker stood in for them.
    pub const UNKNOWN_WORKERS: Notes = Notes(sys::CS_NOTE_UNKNOWN_WORKERS);
    /// EM ended at a degenerate maximum; items it left undecided took the majority vote
    /// among the classes no confusion matrix tells apart.
    pub const DEGENERATE_MAXIMUM: Notes = Notes(sys::CS_NOTE_DEGENERATE_MAXIMUM);
    /// [`Model::fit_numbers`](crate::Model::fit_numbers): some workers' noise variance
    /// reached its floor.
    pub const VARIANCE_FLOOR: Notes = Notes(sys::CS_NOTE_VARIANCE_FLOOR);
    /// [`Model::update`](crate::Model::update): the results come from incremental updates
    /// since the last full fit ([`Model::refit`](crate::Model::refit) gives the full fit).
    pub const INCREMENTAL: Notes = Notes(sys::CS_NOTE_INCREMENTAL);
    /// crowdlab ran without model probabilities or without an item of two labels.
    pub const CROWDLAB_FALLBACK: Notes = Notes(sys::CS_NOTE_CROWDLAB_FALLBACK);
}

impl Notes {
    /// The C bits.
    pub fn bits(self) -> i32 {
        self.0
    }
    /// Notes from C bits (unknown bits are kept).
    pub fn from_bits(bits: i32) -> Notes {
        Notes(bits)
    }
    /// Whether every bit of `other` is set.
    pub fn contains(self, other: Notes) -> bool {
        self.0 & other.0 == other.0
    }
    /// Whether no bit is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Lower-case names of the set bits in increasing bit order (`"bit<N>"` for a bit
    /// this crate does not know).
    pub fn names(self) -> Vec<String> {
        (0..31)
            .map(|b| 1i32 << b)
            .filter(|bit| self.0 & bit != 0)
            .map(|bit| match NOTE_NAMES.iter().find(|(b, _)| *b == bit) {
                Some((_, name)) => name.to_ascii_lowercase(),
                None => format!("bit{}", bit.trailing_zeros()),
            })
            .collect()
    }
}

impl BitOr for Notes {
    type Output = Notes;
    fn bitor(self, rhs: Notes) -> Notes {
        Notes(self.0 | rhs.0)
    }
}

impl BitOrAssign for Notes {
    fn bitor_assign(&mut self, rhs: Notes) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for Notes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Notes({})", if self.0 == 0 { "none".to_string() } else { self.names().join(" | ") })
    }
}

/// Type, range and default of a parameter (`cs_param_info`).
#[derive(Debug, Clone, PartialEq)]
pub struct ParamInfo {
    /// The parameter's name, e.g. `"max_iter"`.
    pub name: String,
    /// The C id (`CS_PARAM_...`).
    pub id: i32,
    /// Smallest accepted value.
    pub lower: f64,
    /// Largest accepted value.
    pub upper: f64,
    /// The default.
    pub default: f64,
    /// Whether it is an integer parameter (else a double).
    pub is_integer: bool,
}

fn param_info_of(id: i32) -> Result<ParamInfo, Error> {
    let (mut lower, mut upper, mut default, mut is_integer) = (0.0, 0.0, 0.0, 0);
    // SAFETY: valid out-pointers; the name is a static string.
    let code = unsafe { sys::cs_param_info(id, &mut lower, &mut upper, &mut default, &mut is_integer) };
    if code != sys::CS_OK {
        return Err(Error::new(Status::from_code(code), format!("no parameter has id {}", id)));
    }
    let name = unsafe { text(sys::cs_param_name(id)) };
    Ok(ParamInfo { name, id, lower, upper, default, is_integer: is_integer != 0 })
}

/// The parameter id of a name (`cs_param_from_name`).
pub(crate) fn param_id(name: &str) -> Result<(i32, CString), Error> {
    let c = CString::new(name)
        .map_err(|_| Error::new(Status::UnknownParam, "parameter name contains a NUL byte"))?;
    let mut id = 0;
    // SAFETY: c is NUL-terminated, id a valid out-pointer.
    let code = unsafe { sys::cs_param_from_name(c.as_ptr(), &mut id) };
    if code != sys::CS_OK {
        return Err(Error::new(Status::from_code(code), format!("unknown parameter \"{}\"", name)));
    }
    Ok((id, c))
}

impl ParamInfo {
    /// Information about the parameter called `name`.
    ///
    /// ```
    /// let info = crowdspec::ParamInfo::of("max_iter")?;
    /// assert!(info.is_integer);
    /// assert_eq!(info.default, 1000.0);
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn of(name: &str) -> Result<ParamInfo, Error> {
        param_info_of(param_id(name)?.0)
    }

    /// Every parameter of the linked library (`cs_param_count`, `cs_param_at`).
    pub fn all() -> Vec<ParamInfo> {
        // SAFETY: plain queries.
        let count = unsafe { sys::cs_param_count() };
        (0..count).filter_map(|i| param_info_of(unsafe { sys::cs_param_at(i) }).ok()).collect()
    }
}

/// Reads a static C string as `&'static str` (the version string).
pub(crate) fn static_str(ptr: *const std::os::raw::c_char) -> &'static str {
    if ptr.is_null() {
        return "";
    }
    // SAFETY: the library documents these strings as static and never freed.
    unsafe { CStr::from_ptr(ptr) }.to_str().unwrap_or("")
}
