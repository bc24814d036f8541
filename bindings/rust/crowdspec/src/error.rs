// SPDX-License-Identifier: MIT
//! Errors: every failing status of the C API becomes an [`Error`].

use std::ffi::CStr;
use std::fmt;

use crowdspec_sys as sys;

c_enum! {
    /// The failing status codes of the C API (`cs_status` values below 0).
    ///
    /// [`Status::Other`] keeps a code this version of the crate does not know (one added
    /// by a newer library).
    #[non_exhaustive]
    pub enum Status {
        /// `CS_ERR_NULL_HANDLE`: the handle is NULL (not produced through this crate).
        NullHandle = sys::CS_ERR_NULL_HANDLE,
        /// `CS_ERR_NULL_POINTER`: a required pointer is NULL.
        NullPointer = sys::CS_ERR_NULL_POINTER,
        /// `CS_ERR_INVALID_ARGUMENT`: an argument is invalid (the message says which).
        InvalidArgument = sys::CS_ERR_INVALID_ARGUMENT,
        /// `CS_ERR_UNKNOWN_PARAM`: no parameter has this name.
        UnknownParam = sys::CS_ERR_UNKNOWN_PARAM,
        /// `CS_ERR_PARAM_RANGE`: a parameter value is out of range; the old value is kept.
        ParamRange = sys::CS_ERR_PARAM_RANGE,
        /// `CS_ERR_UNKNOWN_METHOD`: no method has this name or id.
        UnknownMethod = sys::CS_ERR_UNKNOWN_METHOD,
        /// `CS_ERR_EMPTY_INPUT`: no labels, points or edges.
        EmptyInput = sys::CS_ERR_EMPTY_INPUT,
        /// `CS_ERR_INVALID_ID`: an item, worker or node id is negative or too large.
        InvalidId = sys::CS_ERR_INVALID_ID,
        /// `CS_ERR_INVALID_LABEL`: a label is negative or not below the number of classes.
        InvalidLabel = sys::CS_ERR_INVALID_LABEL,
        /// `CS_ERR_TOO_FEW_CLASSES`: fewer than two classes.
        TooFewClasses = sys::CS_ERR_TOO_FEW_CLASSES,
        /// `CS_ERR_DUPLICATE`: a worker labelled an item twice (see the `duplicates` parameter).
        Duplicate = sys::CS_ERR_DUPLICATE,
        /// `CS_ERR_BUFFER_TOO_SMALL`: an output buffer was too small (a bug of this crate).
        BufferTooSmall = sys::CS_ERR_BUFFER_TOO_SMALL,
        /// `CS_ERR_NOT_FITTED`: results were asked for before a fit.
        NotFitted = sys::CS_ERR_NOT_FITTED,
        /// `CS_ERR_CANCELLED`: the progress callback stopped the fit; the results of the
        /// last completed iteration can still be read.
        Cancelled = sys::CS_ERR_CANCELLED,
        /// `CS_ERR_OUT_OF_MEMORY`: an allocation failed; the model stays usable.
        OutOfMemory = sys::CS_ERR_OUT_OF_MEMORY,
        /// `CS_ERR_INTERNAL`: an internal failure of the library (please report it).
        Internal = sys::CS_ERR_INTERNAL,
        /// `CS_ERR_WRONG_INPUT_KIND`: the method does not take this kind of input.
        WrongInputKind = sys::CS_ERR_WRONG_INPUT_KIND,
        /// `CS_ERR_NON_FINITE`: a point coordinate is NaN, infinite or above 1e100.
        NonFinite = sys::CS_ERR_NON_FINITE,
        /// `CS_ERR_TOO_MANY_CLASSES`: more classes than points or nodes, or than
        /// `CS_MAX_CROWD_CLASSES` (10,000) for crowd labels.
        TooManyClasses = sys::CS_ERR_TOO_MANY_CLASSES,
        /// `CS_ERR_TOO_LARGE`: the sizes exceed the library's layout (n_workers x k >= 2^32).
        TooLarge = sys::CS_ERR_TOO_LARGE,
        /// `CS_ERR_BUSY`: another call is running on the same handle (a second thread
        /// through unsafe code; the safe [`Model`](crate::Model) is not `Sync`).
        Busy = sys::CS_ERR_BUSY,
        /// `CS_ERR_CORRUPT_MODEL`: bytes given to [`Model::from_bytes`](crate::Model::from_bytes)
        /// are not a saved model, are truncated or fail their checksum.
        CorruptModel = sys::CS_ERR_CORRUPT_MODEL,
        /// `CS_ERR_MODEL_VERSION`: the model was saved in a newer format version.
        ModelVersion = sys::CS_ERR_MODEL_VERSION,
        /// `CS_ERR_INVALID_ANSWER`: an answer is not left (0), right (1) or tie (2).
        InvalidAnswer = sys::CS_ERR_INVALID_ANSWER,
        /// `CS_ERR_NOT_CONNECTED`: without a prior the scores do not exist.
        NotConnected = sys::CS_ERR_NOT_CONNECTED,
        ..
        /// A code this crate does not know.
        Other(i32),
    }
    /// The C status code (`CS_ERR_...`, negative).
    fn code;
}

impl Status {
    /// The status of a C code; unknown codes give [`Status::Other`].
    pub fn from_code(code: i32) -> Status {
        Status::from_known(code).unwrap_or(Status::Other(code))
    }

    /// The library's name of the code, e.g. `"CS_ERR_INVALID_ID"` (`cs_status_string`).
    pub fn name(self) -> String {
        // SAFETY: cs_status_string accepts any value and returns a static string.
        unsafe { text(sys::cs_status_string(self.code())) }
    }
}

/// A failed call: the status, its name and the library's explanation.
///
/// The message is the library's `cs_last_error` text for the handle (for example
/// "worker id 17 at label index 3 is >= n_workers (12)"), or, for the few checks this
/// crate makes itself (slices of different lengths), a message saying so.
///
/// ```
/// use crowdspec::{Model, Status};
///
/// let mut model = Model::new()?;
/// let err = model.fit(&[0, 1], &[0, 5], &[0, -1]).unwrap_err();
/// assert_eq!(err.status, Status::InvalidLabel);
/// assert_eq!(err.name, "CS_ERR_INVALID_LABEL");
/// assert!(err.message.contains("label"), "{}", err.message);
/// # Ok::<(), crowdspec::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub status: Status,
    /// The C name of the status, e.g. `"CS_ERR_PARAM_RANGE"`.
    pub name: String,
    /// A human-readable explanation.
    pub message: String,
}

impl Error {
    /// An error with the library's name for `status` and the given message.
    pub(crate) fn new(status: Status, message: impl Into<String>) -> Error {
        Error { status, name: status.name(), message: message.into() }
    }

    /// The error of a failed call on `model` (its `cs_last_error` message).
    pub(crate) fn from_model(code: i32, model: *const sys::cs_model) -> Error {
        // SAFETY: model is a live handle (or NULL, which cs_last_error accepts); the
        // message is copied before any other call on the handle.
        let message = unsafe { text(sys::cs_last_error(model)) };
        Error::new(Status::from_code(code), message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{}", self.name)
        } else {
            write!(f, "{}: {}", self.name, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// Copies a C string (NULL gives ""); invalid UTF-8 is replaced, never an error.
///
/// # Safety
/// `ptr` is NULL or points to a NUL-terminated string that stays valid for the call.
pub(crate) unsafe fn text(ptr: *const std::os::raw::c_char) -> String {
    if ptr.is_null() {
        String::new()
    } else {
        CStr::from_ptr(ptr).to_string_lossy().into_owned()
    }
}

/// Converts a C status to a `Result`, reading the message from `model`.
pub(crate) fn check(code: i32, model: *const sys::cs_model) -> Result<(), Error> {
    if code == sys::CS_OK {
        Ok(())
    } else {
        Err(Error::from_model(code, model))
    }
}
