// SPDX-License-Identifier: MIT
//! Numeric answers and sets of tags (libcrowdspec 0.2): [`Model::fit_numbers`] and
//! [`Model::fit_tags`], and their results.

use crowdspec_sys as sys;

use crate::error::Error;
use crate::model::{product, same_length};
use crate::reading::RunStatus;
use crate::results::Matrix;
use crate::{Model, Notes};

/// The results of [`Model::fit_numbers`].
#[derive(Debug, Clone)]
pub struct NumbersFit {
    /// The estimate of each item.
    pub value: Vec<f64>,
    /// Its standard error.
    pub se: Vec<f64>,
    /// Each worker's bias (mean of answer - estimate).
    pub bias: Vec<f64>,
    /// Each worker's noise (standard deviation of its errors).
    pub noise: Vec<f64>,
    /// The largest move of the estimates in each round.
    pub trace: Vec<f64>,
    /// Completed rounds.
    pub iterations: usize,
    /// Whether the stopping rule was met.
    pub converged: bool,
    /// Facts worth a warning.
    pub notes: Notes,
    /// The library's explanation of the notes.
    pub message: String,
}

/// The results of [`Model::fit_tags`].
#[derive(Debug, Clone)]
pub struct TagsFit {
    /// P(tag g applies to item j), items x tags.
    pub probabilities: Matrix,
    /// The tag sets at the thresholds given to `fit_tags`, items x tags, row-major.
    pub sets: Vec<bool>,
    /// P(worker ticks g | g applies), workers x tags.
    pub sensitivity: Matrix,
    /// P(worker does not tick g | g does not apply), workers x tags.
    pub specificity: Matrix,
    /// The objective after each iteration.
    pub trace: Vec<f64>,
    /// Completed iterations.
    pub iterations: usize,
    /// Whether the stopping rule was met.
    pub converged: bool,
    /// Facts worth a warning.
    pub notes: Notes,
    /// The library's explanation of the notes.
    pub message: String,
}

impl Model {
    /// Estimates a real value per item from answers: answer `t` says that worker
    /// `workers[t]` gave item `items[t]` the value `values[t]` (0-based ids). The method
    /// is the model's (`auto` = `student-t` for numbers; see [`Method`](crate::Method)).
    ///
    /// ```
    /// use crowdspec::{Method, Model};
    /// let mut m = Model::new()?;
    /// m.method(Method::Mean)?;
    /// let fit = m.fit_numbers(&[0, 0, 0, 1], &[0, 1, 2, 0], &[1.0, 2.0, 6.0, 4.0])?;
    /// assert_eq!(fit.value, vec![3.0, 4.0]);
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn fit_numbers(&mut self, items: &[i32], workers: &[i32], values: &[f64]) -> Result<NumbersFit, Error> {
        let n = same_length("fit_numbers", &[("items", items.len()), ("workers", workers.len()), ("values", values.len())])?;
        // SAFETY: live handle; the slices hold n values each and are only read.
        let code = unsafe { sys::cs_fit_numbers(self.ptr(), items.as_ptr(), workers.as_ptr(), values.as_ptr(), n) };
        self.check(code)?;
        let (n_items, n_workers) = (self.count(sys::cs_n_items)?, self.count(sys::cs_n_workers)?);
        let (mut value, mut se) = (vec![0.0; n_items], vec![0.0; n_items]);
        let (mut bias, mut noise) = (vec![0.0; n_workers], vec![0.0; n_workers]);
        // SAFETY: live handle; each buffer has room for the count passed.
        self.check(unsafe { sys::cs_number_estimates(self.ptr(), value.as_mut_ptr(), se.as_mut_ptr(), n_items) })?;
        self.check(unsafe { sys::cs_number_workers(self.ptr(), bias.as_mut_ptr(), noise.as_mut_ptr(), n_workers) })?;
        let RunStatus { trace, iterations, converged, notes, message } = self.run_status()?;
        Ok(NumbersFit { value, se, bias, noise, trace, iterations, converged, notes, message })
    }

    /// Fits sets of tags: answer `t` says that worker `workers[t]` ticked `tags[t]` (0-based
    /// tag ids, possibly none) on item `items[t]`; a tag not ticked is a "no". `n_tags` 0
    /// infers it. The method is the model's: `auto` (= `tag-pooled`) or any crowd method,
    /// run on each tag. `thresholds`: empty (0.5), one value, or one per tag, for `sets`.
    ///
    /// ```
    /// use crowdspec::{Method, Model};
    /// let mut m = Model::new()?;
    /// m.method(Method::Mv)?;
    /// let tags: Vec<Vec<i32>> = vec![vec![0, 1], vec![0], vec![1]];
    /// let fit = m.fit_tags(&[0, 0, 1], &[0, 1, 0], &tags, 0, &[])?;
    /// assert_eq!(fit.probabilities.row(0), &[1.0, 0.5]);
    /// assert_eq!(fit.sets, vec![true, true, false, true]);
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn fit_tags(
        &mut self,
        items: &[i32],
        workers: &[i32],
        tags: &[Vec<i32>],
        n_tags: i32,
        thresholds: &[f64],
    ) -> Result<TagsFit, Error> {
        let n = same_length("fit_tags", &[("items", items.len()), ("workers", workers.len()), ("tags", tags.len())])?;
        let mut start = Vec::with_capacity(n + 1);
        start.push(0i64);
        let mut flat = Vec::new();
        for t in tags {
            flat.extend_from_slice(t);
            start.push(flat.len() as i64);
        }
        // SAFETY: live handle; the arrays hold n values (start n + 1, flat start[n]).
        let code = unsafe {
            sys::cs_fit_tags(self.ptr(), items.as_ptr(), workers.as_ptr(), start.as_ptr(), flat.as_ptr(), n, n_tags)
        };
        self.check(code)?;
        let (n_items, n_workers, t) =
            (self.count(sys::cs_n_items)?, self.count(sys::cs_n_workers)?, self.count(sys::cs_n_tags)?);
        let (len_items, len_workers) = (product(&[n_items, t])?, product(&[n_workers, t])?);
        let mut p = vec![0.0; len_items];
        let mut member = vec![0i32; len_items];
        let (mut sens, mut spec) = (vec![0.0; len_workers], vec![0.0; len_workers]);
        let threshold_ptr = if thresholds.is_empty() { std::ptr::null() } else { thresholds.as_ptr() };
        // SAFETY: live handle; each buffer has room for the count passed; thresholds is
        // only read.
        self.check(unsafe { sys::cs_tag_probabilities(self.ptr(), p.as_mut_ptr(), len_items) })?;
        self.check(unsafe {
            sys::cs_tag_sets(self.ptr(), threshold_ptr, thresholds.len(), member.as_mut_ptr(), len_items)
        })?;
        self.check(unsafe { sys::cs_tag_workers(self.ptr(), sens.as_mut_ptr(), spec.as_mut_ptr(), len_workers) })?;
        let RunStatus { trace, iterations, converged, notes, message } = self.run_status()?;
        Ok(TagsFit {
            probabilities: Matrix::new(n_items, t, p),
            sets: member.into_iter().map(|v| v != 0).collect(),
            sensitivity: Matrix::new(n_workers, t, sens),
            specificity: Matrix::new(n_workers, t, spec),
            trace,
            iterations,
            converged,
            notes,
            message,
        })
    }
}
