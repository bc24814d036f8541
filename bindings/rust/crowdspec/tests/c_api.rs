// SPDX-License-Identifier: MIT
//! The bindings give the C API's results. The expected values come from outside the
//! bindings: a C program (tests/c/reference.c) that fits the same triples through the
//! C API alone, and a majority vote computed by hand.

mod common;

use common::{max_diff, reference_program, run_reference, simulate, CResult};
use crowdspec::{Fit, InputKind, Method, Model, Notes, Prior};

const TOL: f64 = 1e-12;

fn compare(what: &str, c: &CResult, r: &Fit) {
    assert_eq!(r.labels, c.labels, "{}: labels", what);
    assert_eq!(r.posteriors.shape(), (c.n_items, c.k), "{}: posterior shape", what);
    assert_eq!(r.confusion.shape(), (c.n_workers, c.k, c.k), "{}: confusion shape", what);
    let d = max_diff(r.posteriors.as_slice(), &c.posteriors);
    assert!(d <= TOL, "{}: posteriors differ by {:e}", what, d);
    let d = max_diff(r.confusion.as_slice(), &c.confusion);
    assert!(d <= TOL, "{}: confusion differs by {:e}", what, d);
    let d = max_diff(&r.prior, &c.prior);
    assert!(d <= TOL, "{}: prior differs by {:e}", what, d);
    assert_eq!(r.trace.len(), c.trace.len(), "{}: trace length", what);
    for (a, b) in r.trace.iter().zip(&c.trace) {
        assert!((a - b).abs() <= TOL * b.abs().max(1.0), "{}: trace {} vs {}", what, a, b);
    }
    let ll = c.log_likelihood;
    assert!((r.log_likelihood - ll).abs() <= TOL * ll.abs().max(1.0), "{}: log-likelihood", what);
    assert_eq!(r.iterations, c.iterations, "{}: iterations", what);
    assert_eq!(r.converged, c.converged, "{}: converged", what);
    assert_eq!(r.notes.bits(), c.notes, "{}: notes", what);
}

fn crowd_methods() -> Vec<Method> {
    Method::all().into_iter().filter(|m| m.input() == InputKind::Crowd).collect()
}

/// The shared test vector: 200 simulated items, 15 workers, 3 classes, every crowd
/// method, compared with the C API's output.
#[test]
fn simulated_vector_matches_the_c_api_for_every_crowd_method() {
    let exe = match reference_program() {
        Some(e) => e,
        None => return,
    };
    let crowd = simulate(200, 15, 3, 11);
    let methods = crowd_methods();
    assert!(methods.len() >= 10, "crowd methods: {:?}", methods);
    for method in methods {
        let name = method.name();
        let params = [("seed", "3"), ("threads", "1"), ("max_iter", "200")];
        let c = run_reference(&exe, &name, &crowd.items, &crowd.workers, &crowd.labels, &name, &params);
        let mut model = Model::new().unwrap();
        model.method(method).unwrap().seed(3).unwrap().threads(1).unwrap().max_iter(200).unwrap();
        let r = model.fit(&crowd.items, &crowd.workers, &crowd.labels).unwrap();
        compare(&name, &c, &r);
        if method == Method::Ds {
            // a sanity check that the vector is informative: D&S recovers most items
            let right = r.labels.iter().zip(&crowd.truth).filter(|(a, b)| a == b).count();
            assert!(right >= 180, "ds recovers only {} of 200 items", right);
        }
    }
}

/// Parameters set by name, by value enum and by text reach the library as the C
/// program's cs_set_param_string does.
#[test]
fn parameters_reach_the_library() {
    let exe = match reference_program() {
        Some(e) => e,
        None => return,
    };
    let crowd = simulate(120, 9, 4, 5);
    let params = [
        ("prior", "uniform"),
        ("confusion", "class-one-coin"),
        ("smoothing", "0.5"),
        ("accel", "none"),
        ("tol", "1e-9"),
        ("threads", "1"),
    ];
    let c = run_reference(&exe, "params", &crowd.items, &crowd.workers, &crowd.labels, "ds", &params);
    let mut model = Model::new().unwrap();
    model
        .method(Method::Ds)
        .unwrap()
        .prior(Prior::Uniform)
        .unwrap()
        .set("confusion", "class-one-coin")
        .unwrap()
        .set("smoothing", 0.5)
        .unwrap()
        .set("accel", crowdspec::Accel::None)
        .unwrap()
        .tol(1e-9)
        .unwrap()
        .set("threads", 1u32)
        .unwrap();
    let r = model.fit(&crowd.items, &crowd.workers, &crowd.labels).unwrap();
    compare("ds with parameters", &c, &r);
    // and the same model with the default prior differs, so the parameters mattered
    model.prior(Prior::Estimated).unwrap();
    let other = model.fit(&crowd.items, &crowd.workers, &crowd.labels).unwrap();
    assert!(max_diff(other.posteriors.as_slice(), &c.posteriors) > 1e-6);
}

/// Bluebird (a shared data set) through the C API and through the bindings; ignored
/// (with the reason) when the shared data sets were absent at build time (build.rs).
#[test]
#[cfg_attr(
    not(crowdspec_datasets),
    ignore = "needs the shared data sets: ../shared/datasets or CROWDSPEC_DATASETS_DIR"
)]
fn bluebird_matches_the_c_api() {
    let dir = common::datasets_dir()
        .expect("the shared data sets were found at build time but not now (CROWDSPEC_DATASETS_DIR?)");
    let exe = match reference_program() {
        Some(e) => e,
        None => return,
    };
    let (items, workers, labels, _) = common::dataset(&dir, "bluebird");
    for method in [Method::Mv, Method::Ds, Method::OptDs] {
        let name = method.name();
        let c = run_reference(&exe, &format!("bluebird-{}", name), &items, &workers, &labels, &name, &[("threads", "1")]);
        let mut model = Model::new().unwrap();
        model.method(method).unwrap().threads(1).unwrap();
        compare(&format!("bluebird {}", name), &c, &model.fit(&items, &workers, &labels).unwrap());
    }
}

/// Majority vote on a small case worked out by hand (k = 3, 4 items, 3 workers).
///
/// | item | worker 0 | worker 1 | worker 2 | vote shares     | label |
/// |------|----------|----------|----------|-----------------|-------|
/// | 0    | 0        | 0        | 1        | 2/3, 1/3, 0     | 0     |
/// | 1    | 2        | 2        |          | 0, 0, 1         | 2     |
/// | 2    | 1        | 2        | 1        | 0, 2/3, 1/3     | 1     |
/// | 3    |          | 0        | 1        | 1/2, 1/2, 0     | 0 (tie to the lowest) |
///
/// Worker 0's confusion rows are the M-step on the shares: for true class l, the share
/// of l on each item weighted by what the worker said, over the total share of l on
/// the worker's items: row 0 = (2/3 on "0") / (2/3) = (1, 0, 0); row 1 = (1/3 on "0",
/// 2/3 on "1") / 1 = (1/3, 2/3, 0); row 2 = (1 on "2", 1/3 on "1") / (4/3) =
/// (0, 1/4, 3/4). The estimated prior is the mean share: (7/24, 3/8, 1/3).
#[test]
fn majority_vote_matches_hand_computed_values() {
    let items = [0, 0, 0, 1, 1, 2, 2, 2, 3, 3];
    let workers = [0, 1, 2, 0, 1, 0, 1, 2, 1, 2];
    let labels = [0, 0, 1, 2, 2, 1, 2, 1, 0, 1];
    let mut model = Model::new().unwrap();
    model.method(Method::Mv).unwrap();
    let fit = model.fit(&items, &workers, &labels).unwrap();
    assert_eq!(fit.labels, [0, 2, 1, 0]);
    let expected = [
        [2.0 / 3.0, 1.0 / 3.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 2.0 / 3.0, 1.0 / 3.0],
        [0.5, 0.5, 0.0],
    ];
    for (j, row) in expected.iter().enumerate() {
        assert!(max_diff(fit.posteriors.row(j), row) <= 1e-15, "item {}: {:?}", j, fit.posteriors.row(j));
    }
    let worker0 = [[1.0, 0.0, 0.0], [1.0 / 3.0, 2.0 / 3.0, 0.0], [0.0, 0.25, 0.75]];
    for (l, row) in worker0.iter().enumerate() {
        for (c, &want) in row.iter().enumerate() {
            let got = fit.confusion[(0, l, c)];
            assert!((got - want).abs() <= 1e-15, "pi_0[{}][{}] = {} != {}", l, c, got, want);
        }
    }
    assert!(max_diff(&fit.prior, &[7.0 / 24.0, 3.0 / 8.0, 1.0 / 3.0]) <= 1e-15, "{:?}", fit.prior);
    assert!(fit.converged);
    assert_eq!(fit.notes, Notes::NONE);
    assert_eq!((fit.n_items(), fit.n_workers(), fit.n_classes()), (4, 3, 3));

    // with a uniform prior the prior is 1/3 each and the labels are the same
    model.prior(Prior::Uniform).unwrap();
    let fit = model.fit(&items, &workers, &labels).unwrap();
    assert!(max_diff(&fit.prior, &[1.0 / 3.0; 3]) <= 1e-15);
    assert_eq!(fit.labels, [0, 2, 1, 0]);
}

/// Gold labels pin items: the gold item gets its gold class whatever the votes.
#[test]
fn gold_items_are_pinned() {
    let items = [0, 0, 0, 1, 1, 1];
    let workers = [0, 1, 2, 0, 1, 2];
    let labels = [1, 1, 1, 0, 0, 1];
    let mut model = Model::new().unwrap();
    model.method(Method::Mv).unwrap().gold(&[0], &[0]).unwrap();
    let fit = model.fit(&items, &workers, &labels).unwrap();
    assert_eq!(fit.labels, [0, 0]);
    assert_eq!(fit.posteriors.row(0), &[1.0, 0.0]);
    model.gold(&[], &[]).unwrap();
    assert_eq!(model.fit(&items, &workers, &labels).unwrap().labels, [1, 0]);
}
