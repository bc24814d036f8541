// SPDX-License-Identifier: MIT
//! The model handle: parameters, fits, results.

use std::any::Any;
use std::fmt;
use std::os::raw::c_void;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};

use crowdspec_sys as sys;

use crate::enums::{
    param_id, private::Arg, AppliedCalibration, CalibrationSource, ConfusionModel, Duplicates, Method,
    ParamValue, Prior,
};
use crate::error::{check, text, Error, Status};
use crate::results::{Array3, Fit, GraphFit, Matrix, PointsFit, RankingFit};
use crate::Notes;

/// A crowdspec model: a method, its parameters, and the results of the last fit.
///
/// It owns a C handle (`cs_model`), freed when the model is dropped. A model can be
/// moved to another thread (`Send`) but not shared between threads (not `Sync`): the
/// library lets one thread at a time use a handle. Distinct models share nothing, so
/// fits on different models may run in parallel.
///
/// ```
/// use crowdspec::{Method, Model};
///
/// let mut model = Model::new()?;
/// model.method(Method::Ds)?.set("tol", 1e-8)?.set("prior", "uniform")?;
/// // worker 0 and 1 label items 0..3; worker 2 disagrees on item 2
/// let items = [0, 1, 2, 0, 1, 2, 0, 1, 2];
/// let workers = [0, 0, 0, 1, 1, 1, 2, 2, 2];
/// let labels = [0, 1, 1, 0, 1, 1, 0, 1, 0];
/// let fit = model.fit(&items, &workers, &labels)?;
/// assert_eq!(fit.labels, [0, 1, 1]);
/// assert_eq!(fit.posteriors.shape(), (3, 2));
/// assert_eq!(fit.confusion.shape(), (3, 2, 2));
/// # Ok::<(), crowdspec::Error>(())
/// ```
///
/// A model is `Send`:
///
/// ```
/// let model = crowdspec::Model::new()?;
/// std::thread::spawn(move || drop(model)).join().unwrap();
/// # Ok::<(), crowdspec::Error>(())
/// ```
///
/// but not `Sync`, so this does not compile:
///
/// ```compile_fail
/// fn shared<T: Sync>(_: &T) {}
/// let model = crowdspec::Model::new().unwrap();
/// shared(&model);
/// ```
pub struct Model {
    raw: NonNull<sys::cs_model>,
}

// SAFETY: the library keeps no thread-local or global state for a handle; it only
// requires that one thread at a time uses it, which `&mut self` on every mutating
// call and the absence of `Sync` (NonNull is not Sync) guarantee.
unsafe impl Send for Model {}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: the handle came from cs_create and is freed exactly once.
        unsafe { sys::cs_destroy(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let method = self.get_int("method").ok().and_then(|id| i32::try_from(id).ok());
        let method = method.and_then(Method::from_id);
        f.debug_struct("Model").field("method", &method).finish()
    }
}

/// What every kind of fit reports.
struct Common {
    k: usize,
    labels: Vec<i32>,
    prior: Vec<f64>,
    trace: Vec<f64>,
    iterations: usize,
    converged: bool,
    notes: Notes,
    message: String,
}

/// State shared with the C progress callback during one fit.
struct Progress<F> {
    callback: F,
    panic: Option<Box<dyn Any + Send + 'static>>,
}

/// The C callback: calls the closure, turns `false` into a cancel, and keeps a panic
/// (which must not unwind into C) to be resumed after the fit returns.
unsafe extern "C" fn progress_trampoline<F: FnMut(usize, f64) -> bool>(
    user: *mut c_void,
    iteration: i32,
    objective: f64,
) -> i32 {
    // SAFETY: user is the &mut Progress<F> installed by with_progress for this fit, which
    // outlives the call. The library calls the callback only from the thread running the
    // fit, between iterations (never from its worker threads), so F needs no Send.
    let state = &mut *(user as *mut Progress<F>);
    if state.panic.is_some() {
        return 1;
    }
    let iteration = usize::try_from(iteration).unwrap_or(0);
    match catch_unwind(AssertUnwindSafe(|| (state.callback)(iteration, objective))) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(payload) => {
            state.panic = Some(payload);
            1
        }
    }
}

pub(crate) fn same_length(what: &str, lengths: &[(&str, usize)]) -> Result<usize, Error> {
    let n = lengths[0].1;
    if lengths.iter().all(|(_, len)| *len == n) {
        Ok(n)
    } else {
        let list: Vec<String> = lengths.iter().map(|(name, len)| format!("{} {}", name, len)).collect();
        Err(Error::new(
            Status::InvalidArgument,
            format!("{}: the slices differ in length ({})", what, list.join(", ")),
        ))
    }
}

pub(crate) fn product(parts: &[usize]) -> Result<usize, Error> {
    parts.iter().try_fold(1usize, |acc, &p| acc.checked_mul(p)).ok_or_else(|| {
        Error::new(Status::OutOfMemory, format!("a result of {:?} elements does not fit in memory", parts))
    })
}

impl Model {
    /// A model with every parameter at its default (method opt-ds).
    ///
    /// Fails only when memory is exhausted ([`Status::OutOfMemory`]).
    pub fn new() -> Result<Model, Error> {
        // SAFETY: no arguments; NULL means out of memory.
        let raw = unsafe { sys::cs_create() };
        NonNull::new(raw).map(|raw| Model { raw }).ok_or_else(|| {
            Error::new(Status::OutOfMemory, "cs_create could not allocate a model")
        })
    }

    /// The C handle, for calling crowdspec-sys functions directly. It stays owned by
    /// this model.
    pub fn as_ptr(&self) -> *const sys::cs_model {
        self.raw.as_ptr()
    }

    /// The C handle, mutable, for calling crowdspec-sys functions directly. It stays
    /// owned by this model: do not destroy it.
    pub fn as_mut_ptr(&mut self) -> *mut sys::cs_model {
        self.raw.as_ptr()
    }

    pub(crate) fn ptr(&self) -> *mut sys::cs_model {
        self.raw.as_ptr()
    }

    pub(crate) fn check(&self, code: i32) -> Result<(), Error> {
        check(code, self.ptr())
    }

    /// The library's message about the last failure, or the last fit's notes
    /// (`cs_last_error`).
    pub fn last_message(&self) -> String {
        // SAFETY: live handle; the text is copied at once.
        unsafe { text(sys::cs_last_error(self.ptr())) }
    }

    // ------------------------------------------------------------------ parameters

    /// Sets a parameter by name: `"tol"`, `"max_iter"`, `"prior"`, ... (the header's
    /// `enum cs_param` lists them, [`ParamInfo::all`](crate::ParamInfo::all) at run
    /// time). Integers go to `cs_set_int`, floats to `cs_set_double`, text to
    /// `cs_set_param_string` (value names such as `"estimated"`, or numbers); the
    /// library checks type and range, and keeps the old value on failure.
    ///
    /// ```
    /// use crowdspec::{Model, Prior, Status};
    ///
    /// let mut model = Model::new()?;
    /// model.set("tol", 1e-8)?.set("max_iter", 50)?.set("prior", Prior::Uniform)?;
    /// model.set("confusion", "one-coin")?;
    /// assert_eq!(model.get("tol")?, 1e-8);
    /// let err = model.set("tol", 2.0).unwrap_err();     // tol is in [0, 1]
    /// assert_eq!(err.status, Status::ParamRange);
    /// assert_eq!(model.get("tol")?, 1e-8);               // unchanged
    /// assert_eq!(model.set("tolerance", 1e-8).unwrap_err().status, Status::UnknownParam);
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn set<V: ParamValue>(&mut self, name: &str, value: V) -> Result<&mut Model, Error> {
        let (id, cname) = param_id(name)?;
        let code = match value.to_arg()? {
            // SAFETY: live handle; cname and text are NUL-terminated.
            Arg::Int(v) => unsafe { sys::cs_set_int(self.ptr(), id, v) },
            Arg::Double(v) => unsafe { sys::cs_set_double(self.ptr(), id, v) },
            Arg::Text(t) => unsafe { sys::cs_set_param_string(self.ptr(), cname.as_ptr(), t.as_ptr()) },
        };
        self.check(code)?;
        Ok(self)
    }

    /// A parameter's current value as a double (`cs_get_double`; works for every
    /// parameter).
    pub fn get(&self, name: &str) -> Result<f64, Error> {
        let (id, _) = param_id(name)?;
        let mut value = 0.0;
        // SAFETY: live handle, valid out-pointer.
        self.check(unsafe { sys::cs_get_double(self.ptr(), id, &mut value) })?;
        Ok(value)
    }

    /// An integer parameter's current value (`cs_get_int`); a double parameter is
    /// [`Status::InvalidArgument`].
    pub fn get_int(&self, name: &str) -> Result<i64, Error> {
        let (id, _) = param_id(name)?;
        let mut value = 0;
        // SAFETY: live handle, valid out-pointer.
        self.check(unsafe { sys::cs_get_int(self.ptr(), id, &mut value) })?;
        Ok(value)
    }

    fn set_id(&mut self, id: i32, value: i64) -> Result<&mut Model, Error> {
        // SAFETY: live handle.
        let code = unsafe { sys::cs_set_int(self.ptr(), id, value) };
        self.check(code)?;
        Ok(self)
    }

    fn set_count(&mut self, id: i32, value: usize) -> Result<&mut Model, Error> {
        let value = i64::try_from(value).map_err(|_| {
            Error::new(Status::ParamRange, format!("{} does not fit in a 64-bit signed integer", value))
        })?;
        self.set_id(id, value)
    }

    /// Sets the method (`"method"`).
    pub fn method(&mut self, method: Method) -> Result<&mut Model, Error> {
        self.set_id(sys::CS_PARAM_METHOD, i64::from(method.id()))
    }

    /// Sets the number of classes k (`"classes"`); 0 infers it from the labels. Points
    /// and graph fits need it.
    pub fn classes(&mut self, k: usize) -> Result<&mut Model, Error> {
        self.set_count(sys::CS_PARAM_CLASSES, k)
    }

    /// Sets the number of items (`"items"`); 0 infers it from the largest id.
    pub fn items(&mut self, n: usize) -> Result<&mut Model, Error> {
        self.set_count(sys::CS_PARAM_ITEMS, n)
    }

    /// Sets the number of workers (`"workers"`); 0 infers it from the largest id.
    pub fn workers(&mut self, m: usize) -> Result<&mut Model, Error> {
        self.set_count(sys::CS_PARAM_WORKERS, m)
    }

    /// Sets the seed of every random choice (`"seed"`).
    pub fn seed(&mut self, seed: u64) -> Result<&mut Model, Error> {
        let seed = i64::try_from(seed)
            .map_err(|_| Error::new(Status::ParamRange, format!("seed {} is above 2^63 - 1", seed)))?;
        self.set_id(sys::CS_PARAM_SEED, seed)
    }

    /// Sets the number of threads a fit may use (`"threads"`; 0 = automatic, up to all cores). Results
    /// do not depend on it.
    pub fn threads(&mut self, n: usize) -> Result<&mut Model, Error> {
        self.set_count(sys::CS_PARAM_THREADS, n)
    }

    /// Sets the maximum number of iterations (`"max_iter"`).
    pub fn max_iter(&mut self, n: usize) -> Result<&mut Model, Error> {
        self.set_count(sys::CS_PARAM_MAX_ITER, n)
    }

    /// Sets EM's relative log-likelihood tolerance (`"tol"`).
    pub fn tol(&mut self, tol: f64) -> Result<&mut Model, Error> {
        // SAFETY: live handle.
        let code = unsafe { sys::cs_set_double(self.ptr(), sys::CS_PARAM_TOL, tol) };
        self.check(code)?;
        Ok(self)
    }

    /// Sets the class prior (`"prior"`).
    pub fn prior(&mut self, prior: Prior) -> Result<&mut Model, Error> {
        self.set_id(sys::CS_PARAM_PRIOR, i64::from(prior.id()))
    }

    /// Sets the confusion-matrix model (`"confusion"`).
    pub fn confusion(&mut self, model: ConfusionModel) -> Result<&mut Model, Error> {
        self.set_id(sys::CS_PARAM_CONFUSION, i64::from(model.id()))
    }

    /// Sets what a fit does with a worker's repeated labels of an item (`"duplicates"`).
    pub fn duplicates(&mut self, policy: Duplicates) -> Result<&mut Model, Error> {
        self.set_id(sys::CS_PARAM_DUPLICATES, i64::from(policy.id()))
    }

    /// Gives known true labels ("gold") for some items, used by every later crowd fit
    /// (`cs_set_gold`; the slices are copied). Empty slices clear the gold set.
    pub fn gold(&mut self, items: &[i32], labels: &[i32]) -> Result<&mut Model, Error> {
        let n = same_length("gold", &[("items", items.len()), ("labels", labels.len())])?;
        // SAFETY: live handle; both slices hold n values and are only read.
        let code = unsafe { sys::cs_set_gold(self.ptr(), items.as_ptr(), labels.as_ptr(), n) };
        self.check(code)?;
        Ok(self)
    }

    /// Warm start: the worker confusion matrices the next EM fits start from instead of
    /// their own start (`cs_set_initial_confusion`), e.g. `fit.confusion.as_slice()`
    /// of a fit on an earlier batch. The layout is that of [`Fit::confusion`] (worker,
    /// true class, observed class, row-major); a row of zeros marks a worker new in
    /// this batch. The values are copied and kept until replaced; an empty slice
    /// clears them. The library checks the size against the fit.
    pub fn initial_confusion(&mut self, confusion: &[f64]) -> Result<&mut Model, Error> {
        // SAFETY: live handle; the slice holds len values and is only read.
        let code = unsafe {
            sys::cs_set_initial_confusion(self.ptr(), confusion.as_ptr(), confusion.len())
        };
        self.check(code)?;
        Ok(self)
    }

    /// The class prior a warm start begins from (`cs_set_initial_prior`; k values,
    /// normalised by the library). An empty slice clears it.
    pub fn initial_prior(&mut self, prior: &[f64]) -> Result<&mut Model, Error> {
        // SAFETY: live handle; the slice holds len values and is only read.
        let code = unsafe { sys::cs_set_initial_prior(self.ptr(), prior.as_ptr(), prior.len()) };
        self.check(code)?;
        Ok(self)
    }

    /// The calibration [`Model::predict`] applies with the initial matrices while the
    /// model has no fit of its own (`cs_set_initial_calibration`): pass a fit's
    /// [`Model::calibration`] (from the model that fitted) so that its items predict
    /// with the fit's posteriors. `temperature` in [1e-6, 1e6], `mixing` (the prior's
    /// weight) in [0, 1); (1, 0) is none, the default. After a fit on this model, and
    /// after a prediction (which the library keeps as the model's last fit), later
    /// predictions use that result's matrices and calibration instead: set this before
    /// the first prediction.
    ///
    /// ```
    /// use crowdspec::{Method, Model};
    ///
    /// let (items, workers, labels) = ([0, 0, 0, 1, 1, 1, 2, 2, 2], [0, 1, 2, 0, 1, 2, 0, 1, 2],
    ///                                 [0, 0, 1, 1, 1, 1, 0, 0, 0]);
    /// let mut fitted = Model::new()?;
    /// let fit = fitted.method(Method::Ds)?.fit(&items, &workers, &labels)?;
    /// let applied = fitted.calibration()?;
    /// let mut other = Model::new()?;
    /// other.initial_confusion(fit.confusion.as_slice())?.initial_prior(&fit.prior)?;
    /// other.initial_calibration(applied.temperature, applied.mixing)?;
    /// let again = other.predict(&items, &workers, &labels)?;
    /// for (a, b) in again.posteriors.as_slice().iter().zip(fit.posteriors.as_slice()) {
    ///     assert!((a - b).abs() < 1e-12);
    /// }
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn initial_calibration(&mut self, temperature: f64, mixing: f64) -> Result<&mut Model, Error> {
        // SAFETY: live handle; plain values.
        let code = unsafe { sys::cs_set_initial_calibration(self.ptr(), temperature, mixing) };
        self.check(code)?;
        Ok(self)
    }

    // ------------------------------------------------------------------ fitting

    /// Runs `run` with `callback` installed as the progress callback, then removes it,
    /// and resumes a panic the callback raised.
    pub(crate) fn with_progress<F, R>(
        &mut self,
        callback: F,
        run: impl FnOnce(&mut Model) -> Result<R, Error>,
    ) -> Result<R, Error>
    where
        F: FnMut(usize, f64) -> bool,
    {
        let mut state = Progress { callback, panic: None };
        let user = &mut state as *mut Progress<F> as *mut c_void;
        // SAFETY: state outlives the fit; the callback is removed before it is dropped.
        let code = unsafe { sys::cs_set_progress(self.ptr(), Some(progress_trampoline::<F>), user) };
        self.check(code)?;
        let result = run(self);
        // SAFETY: live handle; removing the callback cannot fail on a live handle.
        unsafe { sys::cs_set_progress(self.ptr(), None, ptr::null_mut()) };
        if let Some(payload) = state.panic.take() {
            resume_unwind(payload);
        }
        result
    }

    /// Fits the method to crowd labels: label `t` says that worker `workers[t]` gave
    /// class `labels[t]` to item `items[t]` (0-based ids; the three slices have the same
    /// length). The numbers of items, workers and classes are the parameters of those
    /// names, or 1 + the largest id when they are 0.
    ///
    /// Errors come from the library with its message (an id out of range names the
    /// index and the value), or [`Status::InvalidArgument`] for slices of different
    /// lengths.
    pub fn fit(&mut self, items: &[i32], workers: &[i32], labels: &[i32]) -> Result<Fit, Error> {
        let n = same_length(
            "fit",
            &[("items", items.len()), ("workers", workers.len()), ("labels", labels.len())],
        )?;
        // SAFETY: live handle; the three slices hold n values and are only read.
        let code = unsafe {
            sys::cs_fit(self.ptr(), items.as_ptr(), workers.as_ptr(), labels.as_ptr(), n)
        };
        self.check(code)?;
        self.result()
    }

    /// As [`Model::fit`], calling `progress(iteration, objective)` after the
    /// initialisation (iteration 0) and after every iteration; returning `false` stops
    /// the fit, which then fails with [`Status::Cancelled`] while the results of the last
    /// completed iteration stay readable through [`Model::result`].
    ///
    /// A panic in `progress` cancels the fit and is resumed, once the library has
    /// returned, in the calling thread (it never unwinds through C); the model stays
    /// usable.
    ///
    /// ```
    /// use crowdspec::{Method, Model, Notes, Status};
    ///
    /// let mut model = Model::new()?;
    /// model.method(Method::Ds)?.set("tol", 0.0)?.max_iter(100)?;
    /// let (items, workers, labels) = ([0, 1, 2, 0, 1, 2], [0, 0, 0, 1, 1, 1], [0, 1, 1, 0, 1, 0]);
    /// let mut seen = Vec::new();
    /// let err = model
    ///     .fit_with_progress(&items, &workers, &labels, |iteration, _objective| {
    ///         seen.push(iteration);
    ///         iteration < 3 // stop after the third round
    ///     })
    ///     .unwrap_err();
    /// assert_eq!(err.status, Status::Cancelled);
    /// assert_eq!(seen, [0, 1, 2, 3]);
    /// let partial = model.result()?;
    /// assert_eq!(partial.iterations, 3);
    /// assert!(partial.notes.contains(Notes::CANCELLED));
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn fit_with_progress<F>(
        &mut self,
        items: &[i32],
        workers: &[i32],
        labels: &[i32],
        progress: F,
    ) -> Result<Fit, Error>
    where
        F: FnMut(usize, f64) -> bool,
    {
        self.with_progress(progress, |m| m.fit(items, workers, labels))
    }

    /// Labels a new batch of items by the workers of the last crowd fit without refitting
    /// (`cs_predict`): one E-step with that fit's confusion matrices and prior, calibrated
    /// as the fit was (before any fit, those of [`Model::initial_confusion`],
    /// [`Model::initial_prior`] and [`Model::initial_calibration`]). Items
    /// are numbered for the batch alone; a worker id beyond the fit's workers is an
    /// unknown worker, weighed as the average one ([`Notes::UNKNOWN_WORKERS`]). The
    /// returned [`Fit`] describes the batch. On failure the previous results are kept.
    pub fn predict(&mut self, items: &[i32], workers: &[i32], labels: &[i32]) -> Result<Fit, Error> {
        let n = same_length(
            "predict",
            &[("items", items.len()), ("workers", workers.len()), ("labels", labels.len())],
        )?;
        // SAFETY: live handle; the three slices hold n values and are only read.
        let code = unsafe {
            sys::cs_predict(self.ptr(), items.as_ptr(), workers.as_ptr(), labels.as_ptr(), n)
        };
        self.check(code)?;
        self.result()
    }

    /// Clusters `n` points of dimension `d`, given row-major in `x` (`n * d` values),
    /// into k clusters (k = [`Model::classes`], which must be set; the method must be
    /// [`Method::Lloyd`] or [`Method::KmeansPp`]).
    ///
    /// ```
    /// use crowdspec::{Method, Model};
    ///
    /// let x = [0.0, 0.1, 0.2, 10.0, 10.1, 10.2]; // six points on a line
    /// let mut model = Model::new()?;
    /// model.method(Method::Lloyd)?.classes(2)?;
    /// let fit = model.fit_points(&x, 6, 1)?;
    /// assert_eq!(fit.labels[0], fit.labels[2]);
    /// assert_ne!(fit.labels[0], fit.labels[3]);
    /// let c = fit.labels[3] as usize;
    /// assert!((fit.centres[(c, 0)] - 10.1).abs() < 1e-12);
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn fit_points(&mut self, x: &[f64], n: usize, d: usize) -> Result<PointsFit, Error> {
        let expected = n.checked_mul(d).ok_or_else(|| {
            Error::new(Status::InvalidArgument, format!("fit_points: n x d = {} x {} overflows", n, d))
        })?;
        if x.len() != expected {
            return Err(Error::new(
                Status::InvalidArgument,
                format!("fit_points: x has {} values, n x d = {} x {} needs {}", x.len(), n, d, expected),
            ));
        }
        // SAFETY: live handle; x holds n * d values and is only read.
        let code = unsafe { sys::cs_fit_points(self.ptr(), x.as_ptr(), n, d, 0) };
        self.check(code)?;
        self.points_result()
    }

    /// As [`Model::fit_points`], with a progress callback as in
    /// [`Model::fit_with_progress`].
    pub fn fit_points_with_progress<F>(
        &mut self,
        x: &[f64],
        n: usize,
        d: usize,
        progress: F,
    ) -> Result<PointsFit, Error>
    where
        F: FnMut(usize, f64) -> bool,
    {
        self.with_progress(progress, |m| m.fit_points(x, n, d))
    }

    /// Finds k communities (k = [`Model::classes`], which must be set) in the
    /// undirected graph on `n_nodes` nodes whose edge `t` joins `u[t]` and `v[t]`
    /// (0-based). The method must be [`Method::CommuLloyd`], [`Method::Spec`] or
    /// [`Method::SpecMle`].
    ///
    /// ```
    /// use crowdspec::{Method, Model};
    ///
    /// // two complete graphs on 5 nodes (0..5 and 5..10), joined by the edge 4-5
    /// let (mut u, mut v) = (vec![4], vec![5]);
    /// for base in [0, 5] {
    ///     for i in 0..5 {
    ///         for j in i + 1..5 {
    ///             u.push(base + i);
    ///             v.push(base + j);
    ///         }
    ///     }
    /// }
    /// let mut model = Model::new()?;
    /// model.method(Method::CommuLloyd)?.classes(2)?;
    /// let fit = model.fit_graph(10, &u, &v)?;
    /// assert!(fit.labels[..5].iter().all(|&c| c == fit.labels[0]));
    /// assert!(fit.labels[5..].iter().all(|&c| c == fit.labels[9]));
    /// assert_ne!(fit.labels[0], fit.labels[9]);
    /// assert_eq!(fit.within, 1.0);                        // both cliques are complete
    /// assert!((fit.between - 1.0 / 25.0).abs() < 1e-15);  // 1 edge among 25 cross pairs
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn fit_graph(&mut self, n_nodes: usize, u: &[i32], v: &[i32]) -> Result<GraphFit, Error> {
        let n = same_length("fit_graph", &[("u", u.len()), ("v", v.len())])?;
        // SAFETY: live handle; u and v hold n values and are only read.
        let code = unsafe { sys::cs_fit_graph(self.ptr(), n_nodes, u.as_ptr(), v.as_ptr(), n) };
        self.check(code)?;
        self.graph_result()
    }

    /// As [`Model::fit_graph`], with a progress callback as in
    /// [`Model::fit_with_progress`].
    pub fn fit_graph_with_progress<F>(
        &mut self,
        n_nodes: usize,
        u: &[i32],
        v: &[i32],
        progress: F,
    ) -> Result<GraphFit, Error>
    where
        F: FnMut(usize, f64) -> bool,
    {
        self.with_progress(progress, |m| m.fit_graph(n_nodes, u, v))
    }

    /// Ranks items from pairwise comparisons (method [`Method::Bt`], [`Method::NoisyBt`]
    /// or [`Method::CrowdBt`]): worker `worker[t]` (or one worker when `worker` is
    /// empty), shown items `left[t]` and `right[t]` (0-based), answered `answer[t]`:
    /// 0 left, 1 right, 2 tie.
    ///
    /// ```
    /// use crowdspec::{Method, Model};
    ///
    /// // item 0 beat item 1 three times out of four; no prior: the maximum likelihood
    /// let mut model = Model::new()?;
    /// model.method(Method::Bt)?.set("comparison_prior", 0.0)?;
    /// let fit = model.fit_comparisons(&[], &[0, 0, 0, 1], &[1, 1, 1, 0], &[0, 0, 1, 1])?;
    /// assert!((fit.scores[0] - fit.scores[1] - 3f64.ln()).abs() < 1e-6);
    /// assert_eq!(fit.ranks, vec![1, 2]);
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn fit_comparisons(
        &mut self,
        worker: &[i32],
        left: &[i32],
        right: &[i32],
        answer: &[i32],
    ) -> Result<RankingFit, Error> {
        let n = same_length("fit_comparisons", &[("left", left.len()), ("right", right.len()), ("answer", answer.len())])?;
        if !worker.is_empty() {
            same_length("fit_comparisons", &[("left", n), ("worker", worker.len())])?;
        }
        let worker_ptr = if worker.is_empty() { std::ptr::null() } else { worker.as_ptr() };
        // SAFETY: live handle; the arrays hold n values (worker: n or none) and are only read.
        let code = unsafe {
            sys::cs_fit_comparisons(self.ptr(), worker_ptr, left.as_ptr(), right.as_ptr(), answer.as_ptr(), n)
        };
        self.check(code)?;
        self.ranking_result()
    }

    /// The results of the last comparisons fit.
    pub fn ranking_result(&self) -> Result<RankingFit, Error> {
        let Common { trace, iterations, converged, notes, message, .. } = self.common()?;
        let n = self.count(sys::cs_n_items)?;
        let m = self.count(sys::cs_n_workers)?;
        let (mut scores, mut se, mut ranks) = (vec![0.0; n], vec![0.0; n], vec![0i32; n]);
        // SAFETY: live handle; each buffer holds n values.
        self.check(unsafe {
            sys::cs_scores(self.ptr(), scores.as_mut_ptr(), se.as_mut_ptr(), ranks.as_mut_ptr(), n)
        })?;
        let mut reliability = vec![0.0; m];
        // SAFETY: live handle; the buffer holds m values. bt has none (an error, kept empty).
        if unsafe { sys::cs_worker_reliability(self.ptr(), reliability.as_mut_ptr(), m) } != sys::CS_OK {
            reliability.clear();
        }
        Ok(RankingFit { scores, se, ranks, reliability, trace, iterations, converged, notes, message })
    }

    // ------------------------------------------------------------------ results

    pub(crate) fn count(&self, f: unsafe extern "C" fn(*const sys::cs_model, *mut usize) -> i32) -> Result<usize, Error> {
        let mut n = 0;
        // SAFETY: live handle, valid out-pointer.
        self.check(unsafe { f(self.ptr(), &mut n) })?;
        Ok(n)
    }

    fn read_i32(
        &self,
        len: usize,
        f: unsafe extern "C" fn(*const sys::cs_model, *mut i32, usize) -> i32,
    ) -> Result<Vec<i32>, Error> {
        let mut out = vec![0i32; len];
        // SAFETY: live handle; out has room for len values, the capacity passed.
        self.check(unsafe { f(self.ptr(), out.as_mut_ptr(), len) })?;
        Ok(out)
    }

    pub(crate) fn read_f64(
        &self,
        len: usize,
        f: unsafe extern "C" fn(*const sys::cs_model, *mut f64, usize) -> i32,
    ) -> Result<Vec<f64>, Error> {
        let mut out = vec![0f64; len];
        // SAFETY: live handle; out has room for len values, the capacity passed.
        self.check(unsafe { f(self.ptr(), out.as_mut_ptr(), len) })?;
        Ok(out)
    }

    fn common(&self) -> Result<Common, Error> {
        let n = self.count(sys::cs_n_items)?;
        let k = self.count(sys::cs_n_classes)?;
        let labels = self.read_i32(n, sys::cs_labels)?;
        let prior = self.read_f64(k, sys::cs_class_prior)?;
        let trace_len = self.count(sys::cs_trace_length)?;
        let trace = self.read_f64(trace_len, sys::cs_trace)?;
        let (mut iterations, mut converged, mut notes) = (0i32, 0i32, 0i32);
        // SAFETY: live handle, valid out-pointers.
        self.check(unsafe { sys::cs_iterations(self.ptr(), &mut iterations) })?;
        self.check(unsafe { sys::cs_converged(self.ptr(), &mut converged) })?;
        self.check(unsafe { sys::cs_fit_notes(self.ptr(), &mut notes) })?;
        let notes = Notes::from_bits(notes);
        Ok(Common {
            k,
            labels,
            prior,
            trace,
            iterations: usize::try_from(iterations).unwrap_or(0),
            converged: converged != 0,
            notes,
            message: if notes.is_empty() { String::new() } else { self.last_message() },
        })
    }

    /// The results of the last crowd fit, also after a cancelled one (then those of the
    /// last completed iteration). Before any fit: [`Status::NotFitted`].
    pub fn result(&self) -> Result<Fit, Error> {
        let Common { k, labels, prior, trace, iterations, converged, notes, message } = self.common()?;
        let n = labels.len();
        let m = self.count(sys::cs_n_workers)?;
        let posteriors = self.read_f64(product(&[n, k])?, sys::cs_posteriors)?;
        let confusion = self.read_f64(product(&[m, k, k])?, sys::cs_confusion)?;
        let mut log_likelihood = 0.0;
        // SAFETY: live handle, valid out-pointer.
        self.check(unsafe { sys::cs_log_likelihood(self.ptr(), &mut log_likelihood) })?;
        Ok(Fit {
            labels,
            posteriors: Matrix::new(n, k, posteriors),
            confusion: Array3::new((m, k, k), confusion),
            prior,
            log_likelihood,
            trace,
            iterations,
            converged,
            notes,
            message,
        })
    }

    /// How the posteriors of the last crowd fit (or prediction) were calibrated
    /// (`cs_calibration`; the parameter `"calibration"`, [`Calibration`](crate::Calibration)).
    /// Before any fit: [`Status::NotFitted`].
    ///
    /// ```
    /// use crowdspec::{Calibration, CalibrationSource, Method, Model};
    ///
    /// let (items, workers, labels) = ([0, 0, 0, 1, 1, 1, 2, 2, 2], [0, 1, 2, 0, 1, 2, 0, 1, 2],
    ///                                 [0, 0, 1, 1, 1, 1, 0, 0, 0]);
    /// let mut model = Model::new()?;
    /// model.method(Method::Ds)?.set(Calibration::PARAM, Calibration::None)?;
    /// model.fit(&items, &workers, &labels)?;
    /// let applied = model.calibration()?;
    /// assert_eq!((applied.temperature, applied.mixing), (1.0, 0.0));
    /// assert_eq!(applied.source, CalibrationSource::None);
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn calibration(&self) -> Result<AppliedCalibration, Error> {
        let (mut temperature, mut mixing, mut source) = (1.0, 0.0, 0i32);
        // SAFETY: live handle, valid out-pointers.
        self.check(unsafe { sys::cs_calibration(self.ptr(), &mut temperature, &mut mixing, &mut source) })?;
        Ok(AppliedCalibration { temperature, mixing, source: CalibrationSource::from_id(source) })
    }

    /// Each item's posterior median grade (a class index) when the classes of the last
    /// crowd fit are ordered grades: an ordinal method ([`Method::OrdinalMinimax`],
    /// [`Method::OrdinalDs`]) or the `"ordinal"` parameter set to 1; otherwise
    /// [`Status::InvalidArgument`] (`cs_median_grades`).
    pub fn median_grades(&self) -> Result<Vec<i32>, Error> {
        let n = self.count(sys::cs_n_items)?;
        self.read_i32(n, sys::cs_median_grades)
    }

    /// Each item's posterior mean grade, in class positions 0..k-1, under the conditions
    /// of [`Model::median_grades`] (`cs_mean_grades`).
    pub fn mean_grades(&self) -> Result<Vec<f64>, Error> {
        let n = self.count(sys::cs_n_items)?;
        self.read_f64(n, sys::cs_mean_grades)
    }

    /// The results of the last points fit (see [`Model::result`]); after a fit of
    /// another kind: [`Status::WrongInputKind`].
    pub fn points_result(&self) -> Result<PointsFit, Error> {
        let Common { k, labels, prior, trace, iterations, converged, notes, message } = self.common()?;
        let d = self.count(sys::cs_n_dims)?;
        let centres = self.read_f64(product(&[k, d])?, sys::cs_centres)?;
        Ok(PointsFit {
            labels,
            centres: Matrix::new(k, d, centres),
            prior,
            trace,
            iterations,
            converged,
            notes,
            message,
        })
    }

    /// The results of the last graph fit (see [`Model::result`]); after a fit of
    /// another kind: [`Status::WrongInputKind`].
    pub fn graph_result(&self) -> Result<GraphFit, Error> {
        let Common { labels, prior, trace, iterations, converged, notes, message, .. } = self.common()?;
        let (mut within, mut between) = (0.0, 0.0);
        // SAFETY: live handle, valid out-pointers.
        self.check(unsafe { sys::cs_graph_densities(self.ptr(), &mut within, &mut between) })?;
        Ok(GraphFit {
            labels,
            prior,
            within,
            between,
            trace,
            iterations,
            converged,
            notes,
            message,
        })
    }
}
