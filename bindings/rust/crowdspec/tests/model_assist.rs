// SPDX-License-Identifier: MIT
//! Issue 34: model probabilities, crowdlab, the scores and the worker diagnostics, on
//! the hand cases of tests/test_model_assist.cpp and tests/cli/model_probs.sh.

use crowdspec::{Method, Model, Notes, Status};

// i0 {w0 0, w1 0, w2 1}, i1 {w0 1, w1 1}, i2 {w0 0, w2 0}, i3 {w1 1}.
fn hand() -> (Vec<i32>, Vec<i32>, Vec<i32>) {
    (vec![0, 0, 0, 1, 1, 2, 2, 3], vec![0, 1, 2, 0, 1, 0, 2, 1], vec![0, 0, 1, 1, 1, 0, 0, 1])
}

#[test]
fn crowdlab_hand_case() {
    let (items, workers, labels) = hand();
    let mut m = Model::new().unwrap();
    m.method(Method::Crowdlab).unwrap();
    m.set_model_probs(None, &[0.7, 0.3, 0.4, 0.6, 0.2, 0.8, 0.9, 0.1], 2).unwrap();
    let fit = m.fit(&items, &workers, &labels).unwrap();
    let expected = [0.8888847093179439, 0.11111274529766882, 0.8888849919824823, 0.5732315230167806];
    for (j, p) in expected.iter().enumerate() {
        assert!((fit.posteriors.as_slice()[2 * j] - p).abs() < 1e-12, "item {}", j);
    }
    // Without a model: the fallback note.
    let mut plain = Model::new().unwrap();
    plain.method(Method::Crowdlab).unwrap();
    let fit = plain.fit(&items, &workers, &labels).unwrap();
    assert!(fit.notes.contains(Notes::CROWDLAB_FALLBACK));
    // A bad row.
    assert_eq!(m.set_model_probs(None, &[0.5, -1.0], 2).unwrap_err().status, Status::InvalidArgument);
}

#[test]
fn scores_and_diagnostics_by_hand() {
    // mv: i0 shares (2/3, 1/3); the typical worker (5/6, 1/6 | 1/6, 5/6): label next of
    // i0 = 15/18 - 2/3 = 1/6, 0 elsewhere.
    let (items, workers, labels) = hand();
    let mut m = Model::new().unwrap();
    m.method(Method::Mv).unwrap();
    m.fit(&items, &workers, &labels).unwrap();
    let next = m.label_next().unwrap();
    assert!((next[0] - 1.0 / 6.0).abs() < 1e-15 && next[1..].iter().all(|s| s.abs() < 1e-15), "{:?}", next);
    let wrong = m.label_wrong(&items, &labels).unwrap();
    assert!((wrong[2] - 2.0 / 3.0).abs() < 1e-15 && (wrong[0] - 1.0 / 3.0).abs() < 1e-15);
    let d = m.worker_diagnostics().unwrap();
    // w2: 1/3 (i0) + 1 (i2) of 2 labels right; worst class 0 (1 of 5/3 against 1/3 of 1/3).
    assert!((d.accuracy[2] - 2.0 / 3.0).abs() < 1e-15);
    assert_eq!(d.worst_class[2], 0);
    assert!(d.low[2] < d.accuracy[2] && d.accuracy[2] < d.high[2]);
    assert_eq!(m.model_confusion().unwrap_err().status, Status::NotFitted);
}

#[test]
fn model_as_a_worker() {
    // Two workers who always disagree; the model leans to class 0: ds follows it.
    let (items, workers, labels) = (vec![0, 0, 1, 1], vec![0, 1, 0, 1], vec![0, 1, 0, 1]);
    let mut m = Model::new().unwrap();
    m.method(Method::Ds).unwrap().set("calibration", "none").unwrap();
    m.set_model_probs(Some(&[0, 1]), &[0.8, 0.2, 0.8, 0.2], 2).unwrap();
    let fit = m.fit(&items, &workers, &labels).unwrap();
    assert_eq!(fit.labels, vec![0, 0]);
    assert_eq!(m.model_confusion().unwrap().len(), 4);
}
