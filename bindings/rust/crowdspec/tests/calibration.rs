// SPDX-License-Identifier: MIT
//! The default method (auto) and the calibration of the Dawid-Skene family's posteriors:
//! what a fit reports (`cs_calibration`), that it is the tempering the posteriors show,
//! and that prediction on another model applies it (`cs_set_initial_calibration`).

mod common;

use common::{max_diff, simulate, with_shared_mistakes};
use crowdspec::{Calibration, CalibrationSource, Method, Model};

#[test]
fn the_default_fit_is_auto_and_reports_its_calibration() {
    let c = simulate(300, 12, 3, 61);
    let mut model = Model::new().unwrap();
    model.threads(1).unwrap();
    assert_eq!(model.get_int("method").unwrap(), i64::from(Method::Auto.id()));
    let fit = model.fit(&c.items, &c.workers, &c.labels).unwrap();
    let applied = model.calibration().unwrap();
    assert_eq!(applied.source, CalibrationSource::Labels);
    assert!(applied.temperature.is_finite() && (1.0..=10.0).contains(&applied.temperature));
    assert_eq!(applied.mixing, 0.0);
    let right = fit.labels.iter().zip(&c.truth).filter(|(a, b)| a == b).count();
    assert!(right as f64 > 0.75 * c.truth.len() as f64, "{} of {}", right, c.truth.len());
}

#[test]
fn the_reported_temperature_is_the_one_applied() {
    let c = with_shared_mistakes(simulate(200, 8, 3, 62), 3, 62);
    let mut calibrated = Model::new().unwrap();
    calibrated.method(Method::Ds).unwrap().threads(1).unwrap();
    let fit = calibrated.fit(&c.items, &c.workers, &c.labels).unwrap();
    let t = calibrated.calibration().unwrap().temperature;
    assert!(t > 1.0, "T {}", t);
    let mut raw_model = Model::new().unwrap();
    raw_model.method(Method::Ds).unwrap().threads(1).unwrap().set(Calibration::PARAM, Calibration::None).unwrap();
    let raw = raw_model.fit(&c.items, &c.workers, &c.labels).unwrap();
    let none = raw_model.calibration().unwrap();
    assert_eq!((none.temperature, none.mixing, none.source), (1.0, 0.0, CalibrationSource::None));
    // the same EM; only the last step differs: q^(1/T), renormalised
    let k = raw.n_classes();
    for (cal, q) in fit.posteriors.iter_rows().zip(raw.posteriors.iter_rows()) {
        let tempered: Vec<f64> = q.iter().map(|p| p.powf(1.0 / t)).collect();
        let sum: f64 = tempered.iter().sum();
        let want: Vec<f64> = tempered.iter().map(|p| p / sum).collect();
        assert!(max_diff(cal, &want) <= 1e-12, "{:?} vs {:?} (k {})", cal, want, k);
    }
    assert_eq!(fit.labels, raw.labels);
    assert_eq!(fit.confusion, raw.confusion);
}

#[test]
fn predict_on_another_model_reproduces_the_fit_with_its_calibration() {
    let c = with_shared_mistakes(simulate(150, 8, 3, 63), 3, 63);
    let mut fitted = Model::new().unwrap();
    fitted.threads(1).unwrap().set("support", "all").unwrap();
    let fit = fitted.fit(&c.items, &c.workers, &c.labels).unwrap();
    let applied = fitted.calibration().unwrap();
    // the same model: its own fit's calibration
    let same = fitted.predict(&c.items, &c.workers, &c.labels).unwrap();
    assert!(max_diff(same.posteriors.as_slice(), fit.posteriors.as_slice()) <= 1e-12);
    // another model: the matrices, the prior and the calibration carried over
    let start = |calibrated: bool| {
        let mut other = Model::new().unwrap();
        other.set("support", "all").unwrap();
        other.initial_confusion(fit.confusion.as_slice()).unwrap().initial_prior(&fit.prior).unwrap();
        if calibrated {
            other.initial_calibration(applied.temperature, applied.mixing).unwrap();
        }
        other
    };
    assert!(applied.temperature > 1.0, "T {}", applied.temperature);
    let mut plain = start(false);
    let uncalibrated = plain.predict(&c.items, &c.workers, &c.labels).unwrap();
    assert_eq!(plain.calibration().unwrap().source, CalibrationSource::None);
    assert!(max_diff(uncalibrated.posteriors.as_slice(), fit.posteriors.as_slice()) > 1e-3);
    let mut other = start(true);
    let again = other.predict(&c.items, &c.workers, &c.labels).unwrap();
    assert!(max_diff(again.posteriors.as_slice(), fit.posteriors.as_slice()) <= 1e-12);
    assert_eq!(again.labels, fit.labels);
    assert_eq!(other.calibration().unwrap().temperature, applied.temperature);
    // out of range: the library's error, the model unchanged
    assert!(other.initial_calibration(0.0, 0.0).is_err());
    assert!(other.initial_calibration(1.0, 1.0).is_err());
}
