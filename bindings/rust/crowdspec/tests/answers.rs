// SPDX-License-Identifier: MIT
//! Numeric answers and tags: the hand-computed cases of tests/test_numbers.cpp and
//! crowd-kit's BinaryRelevance example.

use crowdspec::{Method, Model, Status};

const ITEM: [i32; 6] = [0, 0, 0, 1, 2, 2];
const WORKER: [i32; 6] = [0, 1, 2, 0, 1, 2];
const VALUE: [f64; 6] = [1.0, 2.0, 6.0, 4.0, 3.0, 5.0];

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn mean_and_gaussian_by_hand() {
    let mut m = Model::new().unwrap();
    m.method(Method::Mean).unwrap();
    let fit = m.fit_numbers(&ITEM, &WORKER, &VALUE).unwrap();
    assert_eq!(fit.value, vec![3.0, 4.0, 4.0]);
    assert!(close(fit.se[0], (7.0f64 / 3.0).sqrt()) && close(fit.se[1], (16.0f64 / 3.0).sqrt()));
    assert!(close(fit.bias[0], -1.0) && close(fit.noise[0], 1.0));
    let mut g = Model::new().unwrap();
    g.method(Method::Gaussian).unwrap().set("max_iter", 1).unwrap().set("worker_bias", "off").unwrap();
    g.set("variance_prior", 0.0).unwrap();
    let fit = g.fit_numbers(&ITEM, &WORKER, &VALUE).unwrap();
    assert!(close(fit.value[0], 3.7 / 1.7) && close(fit.value[2], 4.0 / 1.2));
    assert!(close(fit.noise[2], 5.0f64.sqrt()));
    let mut bad = Model::new().unwrap();
    bad.method(Method::Ds).unwrap();
    assert_eq!(bad.fit_numbers(&ITEM, &WORKER, &VALUE).unwrap_err().status, Status::WrongInputKind);
}

#[test]
fn binary_relevance_and_pooled_tags() {
    // car 0, grass 1, house 2, human 3, train 4, tree 5.
    let tags: Vec<Vec<i32>> = vec![vec![2, 5], vec![2], vec![2, 5, 1], vec![0], vec![0, 3], vec![4]];
    let items = [0, 0, 0, 1, 1, 1];
    let workers = [0, 1, 2, 0, 1, 2];
    let mut m = Model::new().unwrap();
    m.method(Method::Mv).unwrap();
    let fit = m.fit_tags(&items, &workers, &tags, 0, &[]).unwrap();
    let want = [0.0, 1.0 / 3.0, 1.0, 0.0, 0.0, 2.0 / 3.0];
    for g in 0..6 {
        assert!(close(fit.probabilities.row(0)[g], want[g]));
    }
    let low = m.fit_tags(&items, &workers, &tags, 0, &[0.3]).unwrap();
    assert_eq!(&low.sets[0..6], &[false, true, true, false, false, true]);
    for method in [Method::TagPooled, Method::Ds] {
        let mut p = Model::new().unwrap();
        p.method(method).unwrap();
        let fit = p.fit_tags(&items, &workers, &tags, 0, &[]).unwrap();
        assert_eq!(fit.sets, vec![false, false, true, false, false, true, true, false, false, false, false, false]);
    }
    assert_eq!(m.fit_tags(&items, &workers, &tags, 5, &[]).unwrap_err().status, Status::InvalidLabel);
}
