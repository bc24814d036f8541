// SPDX-License-Identifier: MIT
//! Dense `i32` codes for arbitrary ids (item names, worker names, class names).

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

use crate::error::{Error, Status};

/// Maps values of any hashable type to the dense ids `0, 1, 2, ...` the library takes,
/// in order of first appearance (or in a fixed order, [`Codes::from_values`]), and
/// back.
///
/// ```
/// use crowdspec::Codes;
///
/// let mut workers = Codes::new();
/// let ids = workers.encode(["ann", "bob", "ann", "cy"].iter().map(|s| s.to_string()))?;
/// assert_eq!(ids, [0, 1, 0, 2]);
/// assert_eq!(workers.get("bob"), Some(1));
/// assert_eq!(workers.value(2).map(String::as_str), Some("cy"));
/// assert_eq!(workers.len(), 3);
///
/// // A fixed order, e.g. the classes a model should number 0, 1, 2:
/// let classes = Codes::from_values(["low", "mid", "high"]);
/// assert_eq!(classes.get("high"), Some(2));
/// # Ok::<(), crowdspec::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Codes<T: Hash + Eq> {
    index: HashMap<T, i32>,
    values: Vec<T>,
}

impl<T: Hash + Eq> Default for Codes<T> {
    fn default() -> Self {
        Codes { index: HashMap::new(), values: Vec::new() }
    }
}

impl<T: Hash + Eq + Clone> Codes<T> {
    /// An empty mapping.
    pub fn new() -> Self {
        Codes::default()
    }

    /// A mapping that numbers the given values in order; a repeated value keeps its
    /// first code.
    ///
    /// # Panics
    /// With more than `i32::MAX` distinct values.
    pub fn from_values<I: IntoIterator<Item = T>>(values: I) -> Self {
        let mut codes = Codes::new();
        for v in values {
            codes.code(v).expect("more than i32::MAX distinct values");
        }
        codes
    }

    /// The code of `value`, giving it the next free code when it is new.
    ///
    /// Fails ([`Status::InvalidArgument`]) only when `i32::MAX` codes are already used.
    pub fn code(&mut self, value: T) -> Result<i32, Error> {
        if let Some(&c) = self.index.get(&value) {
            return Ok(c);
        }
        let next = self.next_code()?;
        self.values.push(value.clone());
        self.index.insert(value, next);
        Ok(next)
    }

    /// As [`Codes::code`], from a borrowed value (cloned only when it is new), e.g. a
    /// `&str` for `Codes<String>`.
    pub fn code_of<Q>(&mut self, value: &Q) -> Result<i32, Error>
    where
        T: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = T> + ?Sized,
    {
        match self.index.get(value) {
            Some(&c) => Ok(c),
            None => self.code(value.to_owned()),
        }
    }

    /// The codes of a sequence of values, adding the new ones.
    pub fn encode<I: IntoIterator<Item = T>>(&mut self, values: I) -> Result<Vec<i32>, Error> {
        values.into_iter().map(|v| self.code(v)).collect()
    }

    /// The values of a sequence of codes; `None` if some code has no value.
    pub fn decode(&self, codes: &[i32]) -> Option<Vec<&T>> {
        codes.iter().map(|&c| self.value(c)).collect()
    }

    fn next_code(&self) -> Result<i32, Error> {
        i32::try_from(self.values.len()).map_err(|_| {
            Error::new(Status::InvalidArgument, "more than 2^31 - 1 distinct ids do not fit in int32")
        })
    }
}

impl<T: Hash + Eq> Codes<T> {
    /// The code of `value`, if it has one.
    pub fn get<Q>(&self, value: &Q) -> Option<i32>
    where
        T: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.index.get(value).copied()
    }

    /// The value of a code.
    pub fn value(&self, code: i32) -> Option<&T> {
        usize::try_from(code).ok().and_then(|i| self.values.get(i))
    }

    /// All values, indexed by their code.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// Number of distinct values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no value has a code yet.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}
