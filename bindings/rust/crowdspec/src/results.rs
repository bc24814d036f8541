// SPDX-License-Identifier: MIT
//! Results of fits, and the small row-major arrays that hold them.

use std::ops::Index;

use crate::enums::Notes;

/// A dense row-major matrix of `f64` (posteriors: items x classes; centres:
/// clusters x dimensions), as the C API returns it.
///
/// ```
/// # let mut model = crowdspec::Model::new()?;
/// # model.method(crowdspec::Method::Mv)?;
/// let fit = model.fit(&[0, 0, 1], &[0, 1, 0], &[1, 1, 0])?;
/// let p = &fit.posteriors;
/// assert_eq!(p.shape(), (2, 2));
/// assert_eq!(p[(0, 1)], 1.0);          // item 0: both votes for class 1
/// assert_eq!(p.row(1), &[1.0, 0.0]);   // item 1: its one vote for class 0
/// # Ok::<(), crowdspec::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Matrix {
    pub(crate) fn new(rows: usize, cols: usize, data: Vec<f64>) -> Matrix {
        debug_assert_eq!(rows * cols, data.len());
        Matrix { rows, cols, data }
    }
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }
    /// Row `i` as a slice. Panics when `i >= rows()`.
    pub fn row(&self, i: usize) -> &[f64] {
        assert!(i < self.rows, "row {} of a matrix with {} rows", i, self.rows);
        &self.data[i * self.cols..(i + 1) * self.cols]
    }
    /// Entry `(i, j)`, or `None` outside the matrix.
    pub fn get(&self, i: usize, j: usize) -> Option<f64> {
        if i < self.rows && j < self.cols {
            Some(self.data[i * self.cols + j])
        } else {
            None
        }
    }
    /// The rows in order.
    pub fn iter_rows(&self) -> impl Iterator<Item = &[f64]> + '_ {
        // chunks(0) would panic; a matrix without columns has no entries to show
        self.data.chunks(self.cols.max(1)).take(if self.cols == 0 { 0 } else { self.rows })
    }
    /// All entries, row-major.
    pub fn as_slice(&self) -> &[f64] {
        &self.data
    }
    /// The row-major entries, consuming the matrix.
    pub fn into_vec(self) -> Vec<f64> {
        self.data
    }
}

impl Index<(usize, usize)> for Matrix {
    type Output = f64;
    /// Entry `(i, j)`; panics outside the matrix.
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        assert!(i < self.rows && j < self.cols, "({}, {}) outside a {}x{} matrix", i, j, self.rows, self.cols);
        &self.data[i * self.cols + j]
    }
}

/// A dense row-major three-way array of `f64`: the confusion matrices, workers x true
/// class x observed class. Entry `(i, l, c)` is P(worker i says c | the true class is l).
#[derive(Debug, Clone, PartialEq)]
pub struct Array3 {
    shape: (usize, usize, usize),
    data: Vec<f64>,
}

impl Array3 {
    pub(crate) fn new(shape: (usize, usize, usize), data: Vec<f64>) -> Array3 {
        debug_assert_eq!(shape.0 * shape.1 * shape.2, data.len());
        Array3 { shape, data }
    }
    /// `(workers, classes, classes)` for confusion matrices.
    pub fn shape(&self) -> (usize, usize, usize) {
        self.shape
    }
    /// The `shape.1 x shape.2` matrix of index `i` (worker i's confusion matrix).
    /// Panics when `i >= shape().0`.
    pub fn matrix(&self, i: usize) -> Matrix {
        let (a, b, c) = self.shape;
        assert!(i < a, "index {} of an array of {} matrices", i, a);
        Matrix::new(b, c, self.data[i * b * c..(i + 1) * b * c].to_vec())
    }
    /// Entry `(i, j, l)`, or `None` outside the array.
    pub fn get(&self, i: usize, j: usize, l: usize) -> Option<f64> {
        let (a, b, c) = self.shape;
        if i < a && j < b && l < c {
            Some(self.data[(i * b + j) * c + l])
        } else {
            None
        }
    }
    /// All entries, row-major.
    pub fn as_slice(&self) -> &[f64] {
        &self.data
    }
    /// The row-major entries, consuming the array.
    pub fn into_vec(self) -> Vec<f64> {
        self.data
    }
}

impl Index<(usize, usize, usize)> for Array3 {
    type Output = f64;
    /// Entry `(i, j, l)`; panics outside the array.
    fn index(&self, (i, j, l): (usize, usize, usize)) -> &f64 {
        let (a, b, c) = self.shape;
        assert!(i < a && j < b && l < c, "({}, {}, {}) outside a {}x{}x{} array", i, j, l, a, b, c);
        &self.data[(i * b + j) * c + l]
    }
}

/// The result of a crowd fit ([`Model::fit`](crate::Model::fit)).
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The most probable class of each item (0-based, ties to the lowest class).
    pub labels: Vec<i32>,
    /// Posterior class probabilities, items x classes; each row sums to 1.
    pub posteriors: Matrix,
    /// Confusion matrices, workers x true class x observed class; each (worker, true
    /// class) row sums to 1.
    pub confusion: Array3,
    /// The class prior (k values summing to 1).
    pub prior: Vec<f64>,
    /// Final marginal log-likelihood of an EM fit (0 for methods that compute none).
    pub log_likelihood: f64,
    /// The objective after each iteration (see the header's `cs_trace`).
    pub trace: Vec<f64>,
    /// Completed iterations.
    pub iterations: usize,
    /// Whether the fit met its stopping rule.
    pub converged: bool,
    /// Facts worth a warning.
    pub notes: Notes,
    /// The library's explanation of the notes (empty when there are none).
    pub message: String,
}

impl Fit {
    /// Number of items.
    pub fn n_items(&self) -> usize {
        self.posteriors.rows()
    }
    /// Number of workers.
    pub fn n_workers(&self) -> usize {
        self.confusion.shape().0
    }
    /// Number of classes k.
    pub fn n_classes(&self) -> usize {
        self.posteriors.cols()
    }
}

/// The result of a points fit ([`Model::fit_points`](crate::Model::fit_points)).
#[derive(Debug, Clone, PartialEq)]
pub struct PointsFit {
    /// The cluster of each point (0-based; every cluster is non-empty).
    pub labels: Vec<i32>,
    /// The cluster means, clusters x dimensions.
    pub centres: Matrix,
    /// The fraction of points in each cluster.
    pub prior: Vec<f64>,
    /// Minus the k-means cost after each iteration.
    pub trace: Vec<f64>,
    /// Completed Lloyd iterations.
    pub iterations: usize,
    /// Whether an iteration changed no label.
    pub converged: bool,
    /// Facts worth a warning.
    pub notes: Notes,
    /// The library's explanation of the notes.
    pub message: String,
}

/// The results of a comparisons fit ([`Model::fit_comparisons`](crate::Model::fit_comparisons)).
#[derive(Debug, Clone, PartialEq)]
pub struct RankingFit {
    /// Each item's log-strength s: item i beats item j with probability
    /// 1 / (1 + exp(s_j - s_i)).
    pub scores: Vec<f64>,
    /// Standard error of each score (observed information).
    pub se: Vec<f64>,
    /// Rank of each item, 1 = the highest score.
    pub ranks: Vec<i32>,
    /// Each worker's reliability (noisy-bt's skill, crowd-bt's eta); empty for bt.
    pub reliability: Vec<f64>,
    /// The log posterior at the start and after each iteration.
    pub trace: Vec<f64>,
    /// Completed iterations.
    pub iterations: usize,
    /// Whether the log posterior's relative change fell below tol.
    pub converged: bool,
    /// Facts worth a warning.
    pub notes: Notes,
    /// The library's explanation of the notes.
    pub message: String,
}

/// The result of a graph fit ([`Model::fit_graph`](crate::Model::fit_graph)).
#[derive(Debug, Clone, PartialEq)]
pub struct GraphFit {
    /// The community of each node (0-based).
    pub labels: Vec<i32>,
    /// The fraction of nodes in each community.
    pub prior: Vec<f64>,
    /// Fraction of node pairs within a community that are adjacent (estimate of p).
    pub within: f64,
    /// Fraction of node pairs across communities that are adjacent (estimate of q).
    pub between: f64,
    /// The objective after each iteration (see the header's `cs_fit_graph`).
    pub trace: Vec<f64>,
    /// Completed CommuLloyd iterations.
    pub iterations: usize,
    /// Whether an iteration changed no label.
    pub converged: bool,
    /// Facts worth a warning.
    pub notes: Notes,
    /// The library's explanation of the notes.
    pub message: String,
}
