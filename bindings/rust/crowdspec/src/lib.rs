// SPDX-License-Identifier: MIT
//! Safe Rust bindings of crowdspec: recover the true labels of items from noisy crowd
//! labels (majority vote, Dawid-Skene EM, Opt-D&S and the spectral baselines), cluster
//! points (spectral initialisation + Lloyd) and find communities in graphs
//! (CommuLloyd).
//!
//! The library does the work; this crate converts slices and results, maps every
//! failing status to an [`Error`] carrying the library's message, and runs progress
//! closures safely. The raw C API is the `crowdspec-sys` crate.
//!
//! # Example
//!
//! Crowd labels with string ids, numbered by [`Codes`]:
//!
//! ```
//! use crowdspec::{Codes, Method, Model};
//!
//! let answers = [
//!     ("cat.jpg", "ann", "cat"), ("cat.jpg", "bob", "cat"), ("cat.jpg", "cy", "dog"),
//!     ("dog.jpg", "ann", "dog"), ("dog.jpg", "bob", "dog"), ("dog.jpg", "cy", "dog"),
//!     ("cow.jpg", "ann", "cat"), ("cow.jpg", "bob", "cat"), ("cow.jpg", "cy", "cat"),
//! ];
//! let (mut items, mut workers) = (Codes::new(), Codes::new());
//! let mut classes = Codes::from_values(["cat", "dog"]);
//! let (mut i, mut w, mut l) = (vec![], vec![], vec![]);
//! for (item, worker, label) in answers {
//!     i.push(items.code(item)?);
//!     w.push(workers.code(worker)?);
//!     l.push(classes.code(label)?);
//! }
//!
//! let mut model = Model::new()?;
//! model.method(Method::Mv)?;
//! let fit = model.fit(&i, &w, &l)?;
//! let named: Vec<&str> = fit.labels.iter().map(|&c| *classes.value(c).unwrap()).collect();
//! assert_eq!(named, ["cat", "dog", "cat"]);
//! assert!((fit.posteriors[(0, 0)] - 2.0 / 3.0).abs() < 1e-15); // 2 of 3 votes for cat
//! # Ok::<(), crowdspec::Error>(())
//! ```
//!
//! # Linking
//!
//! crowdspec-sys finds libcrowdspec with `pkg-config`, or in `CROWDSPEC_LIB_DIR`
//! (`CROWDSPEC_STATIC=1` for the static library); see its documentation. Test and
//! example binaries of this crate get the library's directory as an rpath.
//!
//! # Threads
//!
//! A [`Model`] is `Send` and not `Sync`: move it to the thread that fits, and use one
//! model per thread for parallel fits (models share nothing). A fit's internal threads
//! are the `"threads"` parameter; results do not depend on it.
#![deny(missing_docs)]

#[macro_use]
mod c_enum;
mod answers;
mod codes;
mod enums;
mod error;
mod fitting;
mod model;
mod model_assist;
mod reading;
mod results;
mod saved;

pub use answers::{NumbersFit, TagsFit};
pub use codes::Codes;
pub use enums::{
    Accel, AppliedCalibration, Calibration, CalibrationSource, ConfusionModel, Duplicates,
    Groups, Identify, InputKind, LaOrder, Method, Notes, ParamInfo, ParamValue, Prior,
    SmoothingCenter, Support,
};
pub use error::{Error, Status};
pub use model::Model;
pub use model_assist::WorkerDiagnostics;
pub use results::{Array3, Fit, GraphFit, Matrix, PointsFit, RankingFit};

/// The raw C API (the crowdspec-sys crate), for what this crate does not wrap.
pub use crowdspec_sys as sys;

/// The linked library's version, `"MAJOR.MINOR.PATCH"` (`cs_version_string`).
///
/// ```
/// let v = crowdspec::version();
/// assert_eq!(v.split('.').count(), 3);
/// ```
pub fn version() -> &'static str {
    // SAFETY: no arguments; a static string.
    enums::static_str(unsafe { sys::cs_version_string() })
}

/// The linked library's version as MAJOR * 10000 + MINOR * 100 + PATCH
/// (`cs_version_number`); compare with [`sys::CS_VERSION_NUMBER`], the header version
/// these bindings were written for.
pub fn version_number() -> i32 {
    // SAFETY: no arguments.
    unsafe { sys::cs_version_number() }
}

/// The examples of bindings/rust/README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
