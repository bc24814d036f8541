// SPDX-License-Identifier: MIT
//! Fitting a model: crowd labels, prediction, points, graphs and comparisons, each with
//! an optional progress callback (which never unwinds through C).

use std::any::Any;
use std::os::raw::c_void;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr;

use crowdspec_sys as sys;

use crate::error::{Error, Status};
use crate::model::{same_length, Model};
use crate::results::{Fit, GraphFit, PointsFit, RankingFit};

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

impl Model {
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
    /// unknown worker, weighed as the average one
    /// ([`Notes::UNKNOWN_WORKERS`](crate::Notes::UNKNOWN_WORKERS)). The
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
    /// [`Method::Lloyd`](crate::Method::Lloyd) or [`Method::KmeansPp`](crate::Method::KmeansPp)).
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
    /// (0-based). The method must be [`Method::CommuLloyd`](crate::Method::CommuLloyd),
    /// [`Method::Spec`](crate::Method::Spec) or [`Method::SpecMle`](crate::Method::SpecMle).
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

    /// Ranks items from pairwise comparisons (method [`Method::Bt`](crate::Method::Bt),
    /// [`Method::NoisyBt`](crate::Method::NoisyBt) or [`Method::CrowdBt`](crate::Method::CrowdBt)):
    /// worker `worker[t]` (or one worker when `worker` is empty), shown items `left[t]`
    /// and `right[t]` (0-based), answered `answer[t]`: 0 left, 1 right, 2 tie.
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
}
