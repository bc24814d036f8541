// SPDX-License-Identifier: MIT
//! Warm starts and prediction: one E-step computed here from the given confusion
//! matrices and prior, and a warm-started fit compared with raw C API calls.

mod common;

use common::{max_diff, simulate};
use crowdspec::{sys, Method, Model, Notes, Status};

/// Posteriors and log-likelihood of one E-step: p_j(l) ~ w_l prod_t pi_{worker t}[l][label t].
fn e_step(conf: &[Vec<Vec<f64>>], prior: &[f64], batch: &[(usize, usize, usize)], n: usize) -> (Vec<Vec<f64>>, f64) {
    let k = prior.len();
    let mut post = vec![prior.to_vec(); n];
    for &(j, i, c) in batch {
        for l in 0..k {
            post[j][l] *= conf[i][l][c];
        }
    }
    let mut ll = 0.0;
    for row in post.iter_mut() {
        let total: f64 = row.iter().sum();
        ll += total.ln();
        for p in row.iter_mut() {
            *p /= total;
        }
    }
    (post, ll)
}

#[test]
fn predict_is_one_e_step_with_the_given_matrices() {
    let w0 = vec![vec![0.9, 0.1], vec![0.2, 0.8]];
    let w1 = vec![vec![0.6, 0.4], vec![0.3, 0.7]];
    let prior = [0.7, 0.3];
    let flat: Vec<f64> = w0.iter().chain(&w1).flatten().copied().collect();
    let mut model = Model::new().unwrap();
    model.method(Method::Ds).unwrap().initial_confusion(&flat).unwrap().initial_prior(&prior).unwrap();

    // (item, worker, label); worker 2 is unknown: the mean of workers 0 and 1 stands in
    let batch = [(0, 0, 0), (0, 1, 1), (1, 0, 1), (2, 1, 1), (2, 2, 0)];
    let (items, workers, labels): (Vec<i32>, Vec<i32>, Vec<i32>) = {
        let mut v = (vec![], vec![], vec![]);
        for &(j, i, c) in &batch {
            v.0.push(j as i32);
            v.1.push(i as i32);
            v.2.push(c as i32);
        }
        v
    };
    let mean: Vec<Vec<f64>> = (0..2).map(|l| (0..2).map(|c| (w0[l][c] + w1[l][c]) / 2.0).collect()).collect();
    let conf = vec![w0, w1, mean.clone()];
    let (want, want_ll) = e_step(&conf, &prior, &batch, 3);

    let fit = model.predict(&items, &workers, &labels).unwrap();
    for (j, row) in want.iter().enumerate() {
        assert!(max_diff(fit.posteriors.row(j), row) <= 1e-12, "item {}: {:?} vs {:?}", j, fit.posteriors.row(j), row);
    }
    assert_eq!(fit.labels, [0, 1, 0]);
    assert!((fit.log_likelihood - want_ll).abs() <= 1e-12 * want_ll.abs());
    assert!(fit.notes.contains(Notes::UNKNOWN_WORKERS), "{:?}", fit.notes);
    assert_eq!(fit.confusion.shape(), (3, 2, 2));
    assert!(max_diff(fit.confusion.matrix(2).as_slice(), &[mean[0][0], mean[0][1], mean[1][0], mean[1][1]]) <= 1e-15);
    assert_eq!(fit.iterations, 0);
    assert!(fit.converged);
}

#[test]
fn a_warm_started_fit_is_the_c_apis() {
    let first = simulate(150, 10, 3, 51);
    let second = simulate(150, 10, 3, 52);
    let mut model = Model::new().unwrap();
    model.method(Method::Ds).unwrap().threads(1).unwrap().workers(10).unwrap().classes(3).unwrap();
    let before = model.fit(&first.items, &first.workers, &first.labels).unwrap();
    model.initial_confusion(before.confusion.as_slice()).unwrap().initial_prior(&before.prior).unwrap();
    let warm = model.fit(&second.items, &second.workers, &second.labels).unwrap();

    // the same through the raw C API
    unsafe {
        let m = sys::cs_create();
        assert!(!m.is_null());
        assert_eq!(sys::cs_set_int(m, sys::CS_PARAM_METHOD, i64::from(sys::CS_METHOD_DS)), 0);
        assert_eq!(sys::cs_set_int(m, sys::CS_PARAM_THREADS, 1), 0);
        assert_eq!(sys::cs_set_int(m, sys::CS_PARAM_WORKERS, 10), 0);
        assert_eq!(sys::cs_set_int(m, sys::CS_PARAM_CLASSES, 3), 0);
        let c = before.confusion.as_slice();
        assert_eq!(sys::cs_set_initial_confusion(m, c.as_ptr(), c.len()), 0);
        assert_eq!(sys::cs_set_initial_prior(m, before.prior.as_ptr(), 3), 0);
        let n = second.items.len();
        let code = sys::cs_fit(m, second.items.as_ptr(), second.workers.as_ptr(), second.labels.as_ptr(), n);
        assert_eq!(code, 0);
        let mut ni = 0usize;
        assert_eq!(sys::cs_n_items(m, &mut ni), 0);
        let mut post = vec![0.0; ni * 3];
        assert_eq!(sys::cs_posteriors(m, post.as_mut_ptr(), post.len()), 0);
        let mut iterations = 0;
        assert_eq!(sys::cs_iterations(m, &mut iterations), 0);
        sys::cs_destroy(m);
        assert!(max_diff(warm.posteriors.as_slice(), &post) <= 1e-12);
        assert_eq!(warm.iterations, iterations as usize);
    }
    // the warm-started fit predicts the first batch (its 150 items, numbered for the batch)
    let predicted = model.predict(&first.items, &first.workers, &first.labels).unwrap();
    assert_eq!(predicted.n_items(), 150);
}

#[test]
fn warm_start_and_predict_errors() {
    let mut model = Model::new().unwrap();
    assert_eq!(model.predict(&[0], &[0], &[0]).unwrap_err().status, Status::NotFitted);
    let err = model.initial_confusion(&[0.5, -0.5]).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    assert!(err.message.contains('1'), "names the index: {}", err.message);
    assert_eq!(model.initial_prior(&[f64::NAN]).unwrap_err().status, Status::InvalidArgument);
    // a prior without matrices fails the fit; so do matrices of the wrong size
    model.method(Method::Ds).unwrap().initial_prior(&[0.5, 0.5]).unwrap();
    assert_eq!(model.fit(&[0, 1], &[0, 0], &[0, 1]).unwrap_err().status, Status::InvalidArgument);
    model.initial_confusion(&[1.0, 0.0, 0.0]).unwrap();
    assert_eq!(model.fit(&[0, 1], &[0, 0], &[0, 1]).unwrap_err().status, Status::InvalidArgument);
    // cleared, the model fits again
    model.initial_confusion(&[]).unwrap().initial_prior(&[]).unwrap();
    assert!(model.fit(&[0, 1], &[0, 0], &[0, 1]).is_ok());
    assert_eq!(model.predict(&[0], &[0, 1], &[0]).unwrap_err().status, Status::InvalidArgument);
}
