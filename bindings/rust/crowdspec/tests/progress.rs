// SPDX-License-Identifier: MIT
//! Progress closures: what they see, cancelling, panics that must not cross into C.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use common::simulate;
use crowdspec::{Calibration, CalibrationSource, Method, Model, Notes, Status};

fn ds_model() -> Model {
    let mut m = Model::new().unwrap();
    // tol 0: EM runs exactly max_iter rounds; plain EM: one trace entry per round
    m.method(Method::Ds).unwrap().set("tol", 0.0).unwrap().max_iter(20).unwrap();
    m.set("accel", "none").unwrap().threads(1).unwrap();
    m
}

#[test]
fn the_closure_sees_every_iteration_and_the_objective() {
    let crowd = simulate(100, 8, 2, 21);
    let mut m = ds_model();
    let mut seen = Vec::new();
    let fit = m
        .fit_with_progress(&crowd.items, &crowd.workers, &crowd.labels, |it, obj| {
            seen.push((it, obj));
            true
        })
        .unwrap();
    assert_eq!(fit.iterations, 20);
    let iterations: Vec<usize> = seen.iter().map(|s| s.0).collect();
    assert_eq!(iterations, (0..=20).collect::<Vec<_>>());
    // after round r the objective is the r-th trace entry, the marginal log-likelihood
    for (r, &(_, obj)) in seen.iter().enumerate().skip(1) {
        assert_eq!(obj, fit.trace[r - 1], "round {}", r);
    }
    assert_eq!(seen.last().unwrap().1, fit.log_likelihood);
    // EM never decreases the likelihood
    assert!(fit.trace.windows(2).all(|w| w[1] >= w[0] - 1e-9 * w[0].abs()));
}

#[test]
fn returning_false_cancels_and_keeps_the_last_iteration() {
    let crowd = simulate(100, 8, 2, 22);
    let mut m = ds_model();
    let err = m
        .fit_with_progress(&crowd.items, &crowd.workers, &crowd.labels, |it, _| it < 4)
        .unwrap_err();
    assert_eq!(err.status, Status::Cancelled);
    let partial = m.result().unwrap();
    assert_eq!(partial.iterations, 4);
    assert_eq!(partial.trace.len(), 4);
    assert!(!partial.converged);
    assert!(partial.notes.contains(Notes::CANCELLED));
    // a cancelled fit is not calibrated (a complete one is, by default) ...
    let applied = m.calibration().unwrap();
    assert_eq!((applied.temperature, applied.source), (1.0, CalibrationSource::None));
    // ... so the partial fit is the same as an uncalibrated fit limited to 4 rounds
    let mut limited = ds_model();
    limited.max_iter(4).unwrap().set(Calibration::PARAM, Calibration::None).unwrap();
    let four = limited.fit(&crowd.items, &crowd.workers, &crowd.labels).unwrap();
    assert_eq!(partial.posteriors, four.posteriors);
    assert_eq!(partial.labels, four.labels);
}

#[test]
fn a_panic_in_the_closure_is_resumed_after_the_fit() {
    let crowd = simulate(100, 8, 2, 23);
    let mut m = ds_model();
    let mut calls = 0;
    let caught = catch_unwind(AssertUnwindSafe(|| {
        let _ = m.fit_with_progress(&crowd.items, &crowd.workers, &crowd.labels, |it, _| {
            calls += 1;
            if it == 2 {
                panic!("stop at round {}", it);
            }
            true
        });
    }));
    let payload = caught.expect_err("the panic must reach the caller");
    let text = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert_eq!(text, "stop at round 2");
    assert_eq!(calls, 3, "the closure is not called again after it panicked");
    // the fit was cancelled at that point, and the model is usable afterwards
    assert!(m.result().unwrap().notes.contains(Notes::CANCELLED));
    let fit = m.fit(&crowd.items, &crowd.workers, &crowd.labels).unwrap();
    assert_eq!(fit.iterations, 20);
}

#[test]
fn the_callback_is_removed_after_the_fit() {
    let crowd = simulate(60, 6, 2, 24);
    let mut m = ds_model();
    let mut count = 0;
    m.fit_with_progress(&crowd.items, &crowd.workers, &crowd.labels, |_, _| {
        count += 1;
        true
    })
    .unwrap();
    assert_eq!(count, 21);
    // the closure's state is gone; a later fit must not call into it
    m.fit(&crowd.items, &crowd.workers, &crowd.labels).unwrap();
    assert_eq!(count, 21);
}

#[test]
fn points_and_graph_fits_report_progress_and_cancel() {
    // two well separated clouds of 50 points in the plane
    let mut rng = common::Rng::new(7);
    let mut x = Vec::new();
    for i in 0..100 {
        let centre = if i < 50 { 0.0 } else { 20.0 };
        x.push(centre + rng.uniform());
        x.push(rng.uniform());
    }
    let mut m = Model::new().unwrap();
    m.method(Method::KmeansPp).unwrap().classes(2).unwrap();
    let mut seen = Vec::new();
    let fit = m
        .fit_points_with_progress(&x, 100, 2, |it, _| {
            seen.push(it);
            true
        })
        .unwrap();
    assert_eq!(seen[0], 0);
    assert!(fit.converged);
    let err = m.fit_points_with_progress(&x, 100, 2, |_, _| false).unwrap_err();
    assert_eq!(err.status, Status::Cancelled);
    assert!(m.points_result().unwrap().notes.contains(Notes::CANCELLED));

    let (u, v): (Vec<i32>, Vec<i32>) = (0..20).map(|i| (i, (i + 1) % 20)).unzip();
    m.method(Method::CommuLloyd).unwrap();
    let err = m.fit_graph_with_progress(20, &u, &v, |_, _| false).unwrap_err();
    assert_eq!(err.status, Status::Cancelled);
}
