// SPDX-License-Identifier: MIT
//! Issue 34: a classifier's probabilities into a crowd fit, and the scores and worker
//! diagnostics out of it (thin wrappers of `cs_set_model_probs`, `cs_model_confusion`,
//! `cs_label_next`, `cs_label_wrong`, `cs_worker_diagnostics`).

use crate::error::{Error, Status};
use crate::model::{same_length, Model};
use crate::results::Fit;
use crowdspec_sys as sys;

/// Per worker of the last crowd fit (`cs_worker_diagnostics`), each `n_workers` long.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerDiagnostics {
    /// Raykar-Yu spammer score: 0 for a spammer (its answer ignores the item), 1 perfect.
    pub spammer: Vec<f64>,
    /// The true class it gets right least often; -1 without labels.
    pub worst_class: Vec<i32>,
    /// The share of its labels that are right (soft counts from the posteriors).
    pub accuracy: Vec<f64>,
    /// The 2.5 % quantile of the posterior Beta of that share.
    pub low: Vec<f64>,
    /// The 97.5 % quantile.
    pub high: Vec<f64>,
}

/// The number of rows of k values in `probs`, one per id of `items` when given; an
/// error naming `what` when they do not fit.
fn probability_rows(what: &str, items: Option<&[i32]>, probs: &[f64], k: usize) -> Result<usize, Error> {
    let rows = if k == 0 { 0 } else { probs.len() / k };
    if k == 0 || probs.len() != rows * k || items.map_or(false, |i| i.len() != rows) {
        return Err(Error::new(Status::InvalidArgument, format!(
            "{what}: {} values are not rows of k = {} for {} items",
            probs.len(),
            k,
            items.map_or(rows, |i| i.len())
        )));
    }
    Ok(rows)
}

impl Model {
    /// A classifier's class probabilities for the next crowd fits (`cs_set_model_probs`):
    /// `probs` holds rows of `k` values, row r for item `items[r]` (`None`: row r is item
    /// r). The Dawid-Skene family takes the model as one more worker with an estimated
    /// confusion matrix; [`Method::Crowdlab`](crate::Method::Crowdlab) weighs it as
    /// CROWDLAB does. An empty `probs` clears them.
    pub fn set_model_probs(&mut self, items: Option<&[i32]>, probs: &[f64], k: usize) -> Result<&mut Model, Error> {
        let rows = probability_rows("model probabilities", items, probs, k)?;
        let item_ptr = items.map_or(std::ptr::null(), |i| i.as_ptr());
        let k32 = i32::try_from(k).map_err(|_| Error::new(Status::InvalidArgument, format!("k = {k} is too large")))?;
        // SAFETY: live handle; item_ptr is null or holds rows ids, probs rows * k values; only read.
        self.check(unsafe { sys::cs_set_model_probs(self.ptr(), item_ptr, probs.as_ptr(), rows, k32) })?;
        Ok(self)
    }

    /// Labels a new batch with the fit's workers and a classifier's rows for the batch's
    /// items (`cs_predict_model_probs`): as [`Model::predict`], each item with a row gets
    /// the classifier's term, weighed by the classifier's matrix the fit estimated (a
    /// fit with [`Model::set_model_probs`], or a loaded model of one). `probs` holds rows
    /// of k values (k of the fit), row r for batch item `items_of_rows[r]` (`None`: item
    /// r). For the fit's own labels and rows the posteriors are the fit's. An update of a
    /// saved model takes a classifier's rows through [`Model::set_model_probs`] before
    /// [`Model::update`] (the model's item ids).
    pub fn predict_model_probs(
        &mut self,
        items: &[i32],
        workers: &[i32],
        labels: &[i32],
        items_of_rows: Option<&[i32]>,
        probs: &[f64],
    ) -> Result<Fit, Error> {
        let n = same_length(
            "predict_model_probs",
            &[("items", items.len()), ("workers", workers.len()), ("labels", labels.len())],
        )?;
        let k = self.count(sys::cs_n_classes)?;
        let rows = probability_rows("batch model probabilities", items_of_rows, probs, k)?;
        let item_ptr = items_of_rows.map_or(std::ptr::null(), |i| i.as_ptr());
        // SAFETY: live handle; the batch slices hold n values, item_ptr is null or holds
        // rows ids, probs rows * k values; all only read.
        let code = unsafe {
            sys::cs_predict_model_probs(
                self.ptr(),
                items.as_ptr(),
                workers.as_ptr(),
                labels.as_ptr(),
                n,
                item_ptr,
                probs.as_ptr(),
                rows,
            )
        };
        self.check(code)?;
        self.result()
    }

    /// The classifier's k x k confusion matrix (true x model label, row-major) that EM
    /// estimated in the last fit (`cs_model_confusion`).
    pub fn model_confusion(&self) -> Result<Vec<f64>, Error> {
        let k = self.count(sys::cs_n_classes)?;
        self.read_f64(k * k, sys::cs_model_confusion)
    }

    /// Each item's "label next" score (`cs_label_next`): the expected fall in the chance
    /// its label is wrong if one more label is bought from a typical worker.
    pub fn label_next(&self) -> Result<Vec<f64>, Error> {
        let n = self.count(sys::cs_n_items)?;
        self.read_f64(n, sys::cs_label_next)
    }

    /// The posterior probability that each given label is wrong (`cs_label_wrong`).
    pub fn label_wrong(&self, items: &[i32], labels: &[i32]) -> Result<Vec<f64>, Error> {
        if items.len() != labels.len() {
            return Err(Error::new(Status::InvalidArgument, format!(
                "label_wrong: {} items but {} labels",
                items.len(),
                labels.len()
            )));
        }
        let mut out = vec![0f64; items.len()];
        // SAFETY: live handle; the slices hold len values, out has room for len.
        self.check(unsafe {
            sys::cs_label_wrong(self.ptr(), items.as_ptr(), labels.as_ptr(), items.len(), out.as_mut_ptr())
        })?;
        Ok(out)
    }

    /// Each worker's spammer score, worst class and accuracy interval (`cs_worker_diagnostics`).
    pub fn worker_diagnostics(&self) -> Result<WorkerDiagnostics, Error> {
        let m = self.count(sys::cs_n_workers)?;
        let mut d = WorkerDiagnostics {
            spammer: vec![0.0; m],
            worst_class: vec![0; m],
            accuracy: vec![0.0; m],
            low: vec![0.0; m],
            high: vec![0.0; m],
        };
        // SAFETY: live handle; every buffer has room for m values, the capacity passed.
        self.check(unsafe {
            sys::cs_worker_diagnostics(
                self.ptr(),
                d.spammer.as_mut_ptr(),
                d.worst_class.as_mut_ptr(),
                d.accuracy.as_mut_ptr(),
                d.low.as_mut_ptr(),
                d.high.as_mut_ptr(),
                m,
            )
        })?;
        Ok(d)
    }
}
