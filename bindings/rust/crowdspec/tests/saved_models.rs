// SPDX-License-Identifier: MIT
//! Saved models as bytes (Model::to_bytes / from_bytes: cs_save_buffer, cs_load_buffer)
//! and incremental updates (Model::update, Model::refit: cs_update, cs_refit).

mod common;

use common::simulate;
use crowdspec::{Method, Model, Notes, Status};

/// A fit of `method` on the first `cut` labels of a simulated crowd.
fn fitted(method: Method, cut: usize) -> (Model, common::Crowd) {
    let c = simulate(120, 10, 3, 38);
    let mut model = Model::new().unwrap();
    model.method(method).unwrap().set("calibration", "none").unwrap();
    model.fit(&c.items[..cut], &c.workers[..cut], &c.labels[..cut]).unwrap();
    (model, c)
}

#[test]
fn bytes_round_trip_and_are_stable() {
    let (mut model, c) = fitted(Method::Auto, 500);
    let bytes = model.to_bytes().unwrap();
    assert_eq!(&bytes[..4], &[0x89, b'C', b'S', b'M']);
    let mut loaded = Model::from_bytes(&bytes).unwrap();
    assert_eq!(loaded.result().unwrap(), model.result().unwrap());
    // Saving what was loaded gives the same bytes.
    assert_eq!(loaded.to_bytes().unwrap(), bytes);
    // Both go on identically, incrementally (the rest would make the update work on
    // more than half the labels, which by default is a full refit: update_refit_work).
    model.set("update_refit_work", 0.0).unwrap();
    loaded.set("update_refit_work", 0.0).unwrap();
    let rest = (&c.items[500..], &c.workers[500..], &c.labels[500..]);
    let a = model.update(rest.0, rest.1, rest.2).unwrap();
    let b = loaded.update(rest.0, rest.1, rest.2).unwrap();
    assert_eq!(a, b);
    assert!(a.notes.contains(Notes::INCREMENTAL));
}

#[test]
fn refit_after_updates_is_the_fit_of_every_label() {
    let (mut model, c) = fitted(Method::Ds, 300);
    let n = c.items.len();
    for (from, to) in [(300, 450), (450, n)] {
        model.update(&c.items[from..to], &c.workers[from..to], &c.labels[from..to]).unwrap();
    }
    let refitted = model.refit().unwrap();
    assert!(!refitted.notes.contains(Notes::INCREMENTAL));
    let mut full = Model::new().unwrap();
    full.method(Method::Ds).unwrap().set("calibration", "none").unwrap();
    let expected = full.fit(&c.items, &c.workers, &c.labels).unwrap();
    assert_eq!(refitted.posteriors, expected.posteriors);
    assert_eq!(refitted.labels, expected.labels);
}

#[test]
fn a_new_item_gets_the_e_step_of_the_fitted_workers() {
    let (mut model, _) = fitted(Method::Ds, 600);
    model.set("update_rounds", 1).unwrap().set("update_sweep", 0.0).unwrap();
    let before = model.result().unwrap();
    let batch = ([120, 120, 120], [2, 5, 9], [1, 1, 0]);
    let mut predictor = Model::from_bytes(&model.to_bytes().unwrap()).unwrap();
    let expected = predictor.predict(&[0, 0, 0], &batch.1, &batch.2).unwrap();
    let after = model.update(&batch.0, &batch.1, &batch.2).unwrap();
    assert!(before.labels.len() < 120);
    assert_eq!(after.labels.len(), 121); // items up to 119 without labels, then item 120
    let k = 3;
    for l in 0..k {
        assert!((after.posteriors[(120, l)] - expected.posteriors[(0, l)]).abs() < 1e-12);
    }
}

#[test]
fn damaged_bytes_and_bad_updates_are_refused() {
    let (mut model, c) = fitted(Method::Ds, 500);
    let bytes = model.to_bytes().unwrap();
    let mut flipped = bytes.clone();
    flipped[200] ^= 1;
    assert_eq!(Model::from_bytes(&flipped).unwrap_err().status, Status::CorruptModel);
    let err = Model::from_bytes(&bytes[..bytes.len() - 10]).unwrap_err();
    assert_eq!(err.status, Status::CorruptModel);
    assert!(err.message.contains("truncated"), "{}", err.message);
    let mut newer = bytes.clone();
    newer[8] = 9;
    assert_eq!(Model::from_bytes(&newer).unwrap_err().status, Status::ModelVersion);
    assert_eq!(Model::from_bytes(&[]).unwrap_err().status, Status::CorruptModel);
    // A failed load leaves a model as it was.
    let mut other = Model::from_bytes(&bytes).unwrap();
    assert!(other.load_bytes(&flipped).is_err());
    assert_eq!(other.to_bytes().unwrap(), bytes);
    // A label outside the classes, a repeated label: the model is unchanged.
    assert_eq!(model.update(&[0], &[0], &[7]).unwrap_err().status, Status::InvalidLabel);
    let repeat = model.update(&c.items[..1], &c.workers[..1], &c.labels[..1]).unwrap_err();
    assert_eq!(repeat.status, Status::Duplicate);
    assert_eq!(model.to_bytes().unwrap(), bytes);
    assert_eq!(model.update(&[0, 1], &[0], &[0]).unwrap_err().status, Status::InvalidArgument);
    // Methods outside the Dawid-Skene family cannot be saved; nothing fitted yet either.
    let mut mv = Model::new().unwrap();
    mv.method(Method::Mv).unwrap().fit(&c.items, &c.workers, &c.labels).unwrap();
    assert_eq!(mv.to_bytes().unwrap_err().status, Status::InvalidArgument);
    assert_eq!(Model::new().unwrap().to_bytes().unwrap_err().status, Status::NotFitted);
}
