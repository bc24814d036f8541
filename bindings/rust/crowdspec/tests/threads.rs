// SPDX-License-Identifier: MIT
//! A model moves to another thread (Send); models on different threads fit in parallel
//! and give the results of a fit on one thread.

mod common;

use std::sync::mpsc;
use std::thread;

use common::simulate;
use crowdspec::{Method, Model};

fn assert_send<T: Send>() {}

#[test]
fn model_is_send() {
    assert_send::<Model>();
    assert_send::<crowdspec::Error>();
    assert_send::<crowdspec::Fit>();
}

#[test]
fn a_model_configured_here_fits_on_another_thread_and_comes_back() {
    let crowd = simulate(300, 12, 3, 31);
    let mut model = Model::new().unwrap();
    model.method(Method::OptDs).unwrap().seed(9).unwrap().threads(2).unwrap();
    let (items, workers, labels) = (crowd.items.clone(), crowd.workers.clone(), crowd.labels.clone());
    let (model, there) = thread::spawn(move || {
        let fit = model.fit(&items, &workers, &labels).unwrap();
        (model, fit)
    })
    .join()
    .unwrap();
    // back on this thread, the same model reads the same results
    let mut model = model;
    assert_eq!(model.result().unwrap(), there);
    // and a fresh fit here with the same seed gives identical results
    let here = model.fit(&crowd.items, &crowd.workers, &crowd.labels).unwrap();
    assert_eq!(here, there);
}

#[test]
fn models_on_different_threads_fit_concurrently() {
    let crowds: Vec<_> = (0..4).map(|s| simulate(200, 10, 2, 40 + s)).collect();
    let sequential: Vec<_> = crowds
        .iter()
        .map(|c| {
            let mut m = Model::new().unwrap();
            m.method(Method::Ds).unwrap().threads(1).unwrap();
            m.fit(&c.items, &c.workers, &c.labels).unwrap()
        })
        .collect();
    let (tx, rx) = mpsc::channel();
    let handles: Vec<_> = crowds
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let tx = tx.clone();
            thread::spawn(move || {
                let mut m = Model::new().unwrap();
                m.method(Method::Ds).unwrap().threads(1).unwrap();
                let fit = m.fit(&c.items, &c.workers, &c.labels).unwrap();
                tx.send((i, fit)).unwrap();
            })
        })
        .collect();
    drop(tx);
    for h in handles {
        h.join().unwrap();
    }
    let mut got: Vec<_> = rx.iter().collect();
    got.sort_by_key(|(i, _)| *i);
    assert_eq!(got.len(), 4);
    for (i, fit) in got {
        assert_eq!(fit, sequential[i], "crowd {}", i);
    }
}
