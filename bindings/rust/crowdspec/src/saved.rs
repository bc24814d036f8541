// SPDX-License-Identifier: MIT
//! Saved models and incremental updates (`cs_save_buffer`, `cs_load_buffer`,
//! `cs_update`, `cs_refit`): a fit as plain bytes, with no serde, and new labels folded
//! into it without a fit from scratch.

use std::ptr;

use crowdspec_sys as sys;

use crate::error::Error;
use crate::model::{same_length, Model};
use crate::results::Fit;

impl Model {
    /// The model's crowd fit as bytes (`cs_save_buffer`): the parameters, workers,
    /// prior, calibration, labels and EM statistics, in the versioned format of
    /// docs/saved-models.md. [`Model::from_bytes`] reads them back, on any machine.
    ///
    /// Only fits of the Dawid-Skene family (ds, opt-ds, one-coin-ds, class-one-coin-ds,
    /// auto) with `keep_labels` = 1 (the default), loaded models and updated ones can be
    /// saved; others fail with [`Status::InvalidArgument`](crate::Status::InvalidArgument),
    /// before a fit with [`Status::NotFitted`](crate::Status::NotFitted).
    ///
    /// ```
    /// use crowdspec::{Method, Model};
    ///
    /// let (items, workers, labels) = ([0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 0, 1], [0, 0, 1, 1, 0, 1]);
    /// let mut model = Model::new()?;
    /// model.method(Method::Ds)?;
    /// let fit = model.fit(&items, &workers, &labels)?;
    /// let bytes = model.to_bytes()?;
    /// let loaded = Model::from_bytes(&bytes)?;
    /// assert_eq!(loaded.result()?.posteriors, fit.posteriors);
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn to_bytes(&mut self) -> Result<Vec<u8>, Error> {
        let mut size = 0usize;
        // SAFETY: live handle; with capacity 0 the buffer is not touched, size is written.
        self.check(unsafe { sys::cs_save_buffer(self.ptr(), ptr::null_mut(), 0, &mut size) })?;
        let mut bytes = vec![0u8; size];
        // SAFETY: `bytes` holds `size` writable bytes.
        self.check(unsafe {
            sys::cs_save_buffer(self.ptr(), bytes.as_mut_ptr().cast(), bytes.len(), &mut size)
        })?;
        bytes.truncate(size);
        Ok(bytes)
    }

    /// A model loaded from the bytes of [`Model::to_bytes`] (or of a file `cs_save` or
    /// `crowdspec fit --save` wrote). Its results are the saved fit's; [`Model::predict`],
    /// [`Model::update`] and [`Model::refit`] go on from it.
    ///
    /// Bytes that are not a saved model, are truncated or changed (the checksum) fail
    /// with [`Status::CorruptModel`](crate::Status::CorruptModel); a newer format
    /// version with [`Status::ModelVersion`](crate::Status::ModelVersion).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, Error> {
        let mut model = Model::new()?;
        model.load_bytes(bytes)?;
        Ok(model)
    }

    /// Replaces this model's fit and parameters by those of saved bytes
    /// (`cs_load_buffer`); on failure the model is unchanged. See [`Model::from_bytes`].
    pub fn load_bytes(&mut self, bytes: &[u8]) -> Result<&mut Model, Error> {
        // SAFETY: live handle; the slice holds bytes.len() bytes and is only read.
        self.check(unsafe { sys::cs_load_buffer(self.ptr(), bytes.as_ptr().cast(), bytes.len()) })?;
        Ok(self)
    }

    /// Adds labels to the fit and refits incrementally (`cs_update`): the E-step of the
    /// items they touch, the M-step from the updated statistics, rounds of incremental EM
    /// (`update_rounds`) and a rotation over other items (`update_sweep`). Ids beyond
    /// the fit's are new items and workers. The results are every item's, with
    /// [`Notes::INCREMENTAL`](crate::Notes::INCREMENTAL) -- unless the update was one of
    /// the library's automatic full refits: when it would work on half the labels or
    /// more (`update_refit_work`) or the labels doubled since the last full fit
    /// (`update_refit`).
    ///
    /// On failure (a label outside the classes, a worker labelling an item the model
    /// already has a label of it for, ...) the model is unchanged.
    ///
    /// ```
    /// use crowdspec::{Method, Model, Notes};
    ///
    /// let mut model = Model::new()?;
    /// model.method(Method::Ds)?;
    /// model.fit(&[0, 0, 1, 1], &[0, 1, 0, 1], &[0, 0, 1, 1])?;
    /// let fit = model.update(&[2, 2], &[0, 1], &[1, 1])?; // a new item 2
    /// assert_eq!(fit.labels.len(), 3);
    /// assert_eq!(fit.labels[2], 1);
    /// // Two labels on four are a large batch: that update was a full refit.
    /// assert!(!fit.notes.contains(Notes::INCREMENTAL));
    /// model.set("update_refit_work", 0.0)?; // updates incremental unless the labels double
    /// let fit = model.update(&[3, 3], &[0, 1], &[0, 0])?;
    /// assert!(fit.notes.contains(Notes::INCREMENTAL));
    /// # Ok::<(), crowdspec::Error>(())
    /// ```
    pub fn update(&mut self, items: &[i32], workers: &[i32], labels: &[i32]) -> Result<Fit, Error> {
        let n = same_length(
            "update",
            &[("items", items.len()), ("workers", workers.len()), ("labels", labels.len())],
        )?;
        // SAFETY: live handle; the three slices hold n values and are only read (with
        // n = 0 the library reads none).
        let code = unsafe {
            sys::cs_update(self.ptr(), items.as_ptr(), workers.as_ptr(), labels.as_ptr(), n)
        };
        self.check(code)?;
        self.result()
    }

    /// Refits every label the model holds in full (`cs_refit`), as a fit from scratch
    /// of the same labels would: the fit after many updates, bit for bit.
    pub fn refit(&mut self) -> Result<Fit, Error> {
        // SAFETY: live handle.
        self.check(unsafe { sys::cs_refit(self.ptr()) })?;
        self.result()
    }
}
