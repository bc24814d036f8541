// SPDX-License-Identifier: MIT
//! The model handle and its parameters and starting values; fitting is in `fitting.rs`,
//! reading the results in `reading.rs`.

use std::fmt;
use std::ptr::NonNull;

use crowdspec_sys as sys;

use crate::enums::{param_id, private::Arg, ConfusionModel, Duplicates, Method, ParamValue, Prior};
use crate::error::{check, text, Error, Status};

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
    /// of a fit on an earlier batch. The layout is that of [`Fit::confusion`](crate::Fit::confusion) (worker,
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
}
