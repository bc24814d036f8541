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

// Issue 34 with 38: a classifier's rows in updates of a saved model and in predictions.
// A simulated crowd (3 labels an item from 30 workers right 70 % of the time, k = 3)
// and a classifier right 90 % of the time except on class 2, which it calls 1.
fn simulated(n: i32) -> (Vec<i32>, Vec<i32>, Vec<i32>, Vec<f64>) {
    let mut state = 42u64;
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 11) as f64) / ((1u64 << 53) as f64)
    };
    let (mut items, mut workers, mut labels, mut probs) = (vec![], vec![], vec![], vec![]);
    for j in 0..n {
        let t = j % 3;
        let first = (next() * 30.0) as i32;
        for r in 0..3 {
            let c = if next() < 0.7 { t } else { (t + 1 + (next() * 2.0) as i32) % 3 };
            items.push(j);
            workers.push((first + 7 * r) % 30);
            labels.push(c);
        }
        let said = if t == 2 { 1 } else if next() < 0.9 { t } else { (t + 1 + (next() * 2.0) as i32) % 3 };
        for c in 0..3 {
            probs.push(if c == said { 0.9 } else { 0.05 });
        }
    }
    (items, workers, labels, probs)
}

#[test]
fn classifier_in_updates_and_predictions() {
    let (items, workers, labels, probs) = simulated(300);
    let mut fit_model = Model::new().unwrap();
    fit_model.method(Method::Ds).unwrap().set("calibration", "none").unwrap();
    fit_model.set_model_probs(None, &probs, 3).unwrap();
    let fit = fit_model.fit(&items, &workers, &labels).unwrap();
    let pi = fit_model.model_confusion().unwrap();
    assert!(pi[2 * 3 + 1] > 0.8, "pi_M row 2: {:?}", &pi[6..9]);
    // The classifier travels in the bytes, bit for bit.
    let bytes = fit_model.to_bytes().unwrap();
    let mut loaded = Model::from_bytes(&bytes).unwrap();
    assert_eq!(loaded.model_confusion().unwrap(), pi);
    // Predicting the fit's labels with its rows gives its posteriors; without them not.
    let p = loaded.predict_model_probs(&items, &workers, &labels, None, &probs).unwrap();
    let worst = p.posteriors.as_slice().iter().zip(fit.posteriors.as_slice()).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(worst <= 1e-12, "largest difference {worst}");
    let plain = loaded.predict(&items, &workers, &labels).unwrap();
    let moved = plain.posteriors.as_slice().iter().zip(fit.posteriors.as_slice()).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(moved > 0.1);
    // An update: a new item labelled "2" by a new worker follows a confident row for 0.
    let mut m = Model::from_bytes(&bytes).unwrap();
    m.set_model_probs(Some(&[300]), &[0.97, 0.02, 0.01], 3).unwrap();
    let up = m.update(&[300], &[30], &[2]).unwrap();
    assert_eq!(up.labels[300], 0);
    // Errors: a row beyond the model's items after the batch; a fit without a classifier.
    m.set_model_probs(Some(&[400]), &[0.97, 0.02, 0.01], 3).unwrap();
    assert_eq!(m.update(&[301], &[0], &[1]).unwrap_err().status, Status::InvalidId);
    let mut no_classifier = Model::new().unwrap();
    no_classifier.method(Method::Ds).unwrap();
    no_classifier.fit(&items, &workers, &labels).unwrap();
    let err = no_classifier.predict_model_probs(&items, &workers, &labels, None, &probs).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
}
