// SPDX-License-Identifier: MIT
//! Reading the results of the last fit out of the handle, by kind of input.

use crowdspec_sys as sys;

use crate::enums::{AppliedCalibration, CalibrationSource};
use crate::error::Error;
use crate::model::{product, Model};
use crate::results::{Array3, Fit, GraphFit, Matrix, PointsFit, RankingFit};
use crate::Notes;

/// How the last fit of any input kind ran: its trace, rounds, convergence and notes.
pub(crate) struct RunStatus {
    pub(crate) trace: Vec<f64>,
    pub(crate) iterations: usize,
    pub(crate) converged: bool,
    pub(crate) notes: Notes,
    pub(crate) message: String,
}

/// What every kind of crowd-like fit reports.
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

impl Model {
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

    /// The trace, rounds, convergence and notes of the last fit (any input kind).
    pub(crate) fn run_status(&self) -> Result<RunStatus, Error> {
        let trace_len = self.count(sys::cs_trace_length)?;
        let trace = self.read_f64(trace_len, sys::cs_trace)?;
        let (mut iterations, mut converged, mut notes) = (0i32, 0i32, 0i32);
        // SAFETY: live handle, valid out-pointers.
        self.check(unsafe { sys::cs_iterations(self.ptr(), &mut iterations) })?;
        self.check(unsafe { sys::cs_converged(self.ptr(), &mut converged) })?;
        self.check(unsafe { sys::cs_fit_notes(self.ptr(), &mut notes) })?;
        let notes = Notes::from_bits(notes);
        Ok(RunStatus {
            trace,
            iterations: usize::try_from(iterations).unwrap_or(0),
            converged: converged != 0,
            notes,
            message: if notes.is_empty() { String::new() } else { self.last_message() },
        })
    }

    fn common(&self) -> Result<Common, Error> {
        let n = self.count(sys::cs_n_items)?;
        let k = self.count(sys::cs_n_classes)?;
        let labels = self.read_i32(n, sys::cs_labels)?;
        let prior = self.read_f64(k, sys::cs_class_prior)?;
        let RunStatus { trace, iterations, converged, notes, message } = self.run_status()?;
        Ok(Common { k, labels, prior, trace, iterations, converged, notes, message })
    }

    /// The results of the last crowd fit, also after a cancelled one (then those of the
    /// last completed iteration). Before any fit: [`Status::NotFitted`](crate::Status::NotFitted).
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
    /// Before any fit: [`Status::NotFitted`](crate::Status::NotFitted).
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
    /// crowd fit are ordered grades: an ordinal method
    /// ([`Method::OrdinalMinimax`](crate::Method::OrdinalMinimax),
    /// [`Method::OrdinalDs`](crate::Method::OrdinalDs)) or the `"ordinal"` parameter set to 1; otherwise
    /// [`Status::InvalidArgument`](crate::Status::InvalidArgument) (`cs_median_grades`).
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
    /// another kind: [`Status::WrongInputKind`](crate::Status::WrongInputKind).
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
    /// another kind: [`Status::WrongInputKind`](crate::Status::WrongInputKind).
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
