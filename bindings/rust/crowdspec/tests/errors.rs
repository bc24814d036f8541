// SPDX-License-Identifier: MIT
//! Every failure is an `Error` with the library's status, name and message; a failure
//! never leaves the model unusable.

use crowdspec::{Duplicates, Method, Model, ParamInfo, Status};

fn model() -> Model {
    Model::new().expect("cs_create")
}

#[test]
fn error_carries_status_name_and_message() {
    let mut m = model();
    m.workers(12).unwrap();
    let err = m.fit(&[0, 1, 2, 3], &[0, 1, 2, 17], &[0, 1, 0, 1]).unwrap_err();
    assert_eq!(err.status, Status::InvalidId);
    assert_eq!(err.status.code(), -8);
    assert_eq!(err.name, "CS_ERR_INVALID_ID");
    assert!(err.message.contains("17") && err.message.contains("index 3"), "{}", err.message);
    let shown = err.to_string();
    assert!(shown.starts_with("CS_ERR_INVALID_ID: "), "{}", shown);
    // std::error::Error, so `?` into Box<dyn Error> works
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert!(boxed.to_string().contains("17"));
}

#[test]
fn crowd_input_errors() {
    let mut m = model();
    let cases: Vec<(Status, Result<crowdspec::Fit, crowdspec::Error>)> = vec![
        (Status::EmptyInput, m.fit(&[], &[], &[])),
        (Status::InvalidId, m.fit(&[-1], &[0], &[0])),
        (Status::InvalidLabel, m.fit(&[0, 1], &[0, 0], &[0, -2])),
        (Status::TooFewClasses, m.fit(&[0, 1], &[0, 0], &[0, 0])),
        (Status::Duplicate, m.fit(&[0, 0], &[0, 0], &[0, 1])),
        (Status::InvalidArgument, m.fit(&[0, 1], &[0], &[0, 1])),
    ];
    for (want, got) in cases {
        let err = got.expect_err("must fail");
        assert_eq!(err.status, want, "{}", err);
        assert_eq!(err.name, want.name());
        assert!(!err.message.is_empty(), "{:?} has no message", want);
    }
    // slices of different lengths are named in the message
    let err = m.fit(&[0, 1], &[0], &[0, 1]).unwrap_err();
    assert!(err.message.contains("items 2, workers 1, labels 2"), "{}", err.message);
    // the model still works after all those failures
    m.method(Method::Mv).unwrap();
    assert_eq!(m.fit(&[0, 1], &[0, 0], &[1, 0]).unwrap().labels, [1, 0]);
}

#[test]
fn duplicates_policy_is_applied() {
    let mut m = model();
    m.method(Method::Mv).unwrap().duplicates(Duplicates::KeepLast).unwrap();
    let fit = m.fit(&[0, 0, 1], &[0, 0, 0], &[0, 1, 0]).unwrap();
    assert_eq!(fit.labels, [1, 0]);
    m.duplicates(Duplicates::KeepFirst).unwrap();
    assert_eq!(m.fit(&[0, 0, 1], &[0, 0, 0], &[0, 1, 0]).unwrap().labels, [0, 0]);
}

#[test]
fn parameter_errors_keep_the_old_value() {
    let mut m = model();
    m.set("tol", 1e-6).unwrap();
    for (name, status) in [("tolerance", Status::UnknownParam), ("", Status::UnknownParam)] {
        assert_eq!(m.set(name, 1e-3).unwrap_err().status, status);
    }
    let err = m.set("tol", 5.0).unwrap_err();
    assert_eq!(err.status, Status::ParamRange);
    assert!(err.message.contains("tol"), "{}", err.message);
    assert_eq!(m.get("tol").unwrap(), 1e-6);
    assert_eq!(m.set("tol", f64::NAN).unwrap_err().status, Status::ParamRange);
    assert_eq!(m.set("max_iter", 2.5).unwrap_err().status, Status::ParamRange);
    assert_eq!(m.set("max_iter", -1).unwrap_err().status, Status::ParamRange);
    assert_eq!(m.set("max_iter", u64::MAX).unwrap_err().status, Status::ParamRange);
    assert_eq!(m.set("prior", "sometimes").unwrap_err().status, Status::InvalidArgument);
    assert_eq!(m.set("method", "dawid").unwrap_err().status, Status::UnknownMethod);
    assert_eq!(m.set("method", 99).unwrap_err().status, Status::UnknownMethod);
    assert_eq!(m.classes(1).unwrap_err().status, Status::TooFewClasses);
    assert_eq!(m.seed(u64::MAX).unwrap_err().status, Status::ParamRange);
    assert_eq!(m.set("prior", "uni\0form").unwrap_err().status, Status::InvalidArgument);
    assert_eq!(m.get_int("tol").unwrap_err().status, Status::InvalidArgument);
    assert_eq!(m.get("nope").unwrap_err().status, Status::UnknownParam);
    // typed and textual setters agree with the getters
    m.set("max_iter", "77").unwrap();
    assert_eq!(m.get_int("max_iter").unwrap(), 77);
    m.method(Method::CrowdLloyd).unwrap();
    assert_eq!(m.get_int("method").unwrap(), i64::from(Method::CrowdLloyd.id()));
    assert!(format!("{:?}", m).contains("CrowdLloyd"));
}

#[test]
fn results_before_a_fit_are_not_fitted() {
    let m = model();
    let err = m.result().unwrap_err();
    assert_eq!(err.status, Status::NotFitted);
    assert_eq!(m.points_result().unwrap_err().status, Status::NotFitted);
    assert_eq!(m.graph_result().unwrap_err().status, Status::NotFitted);
}

#[test]
fn a_failed_fit_clears_the_results() {
    let mut m = model();
    m.method(Method::Mv).unwrap();
    m.fit(&[0, 1], &[0, 0], &[1, 0]).unwrap();
    assert!(m.result().is_ok());
    m.fit(&[0, 1], &[0, 0], &[1, -1]).unwrap_err();
    assert_eq!(m.result().unwrap_err().status, Status::NotFitted);
}

#[test]
fn wrong_input_kind() {
    let mut m = model();
    m.method(Method::Lloyd).unwrap().classes(2).unwrap();
    assert_eq!(m.fit(&[0, 1], &[0, 0], &[0, 1]).unwrap_err().status, Status::WrongInputKind);
    m.method(Method::Ds).unwrap();
    assert_eq!(m.fit_points(&[0.0, 1.0], 2, 1).unwrap_err().status, Status::WrongInputKind);
    assert_eq!(m.fit_graph(2, &[0], &[1]).unwrap_err().status, Status::WrongInputKind);
    // a graph fit's results are not points results
    m.method(Method::CommuLloyd).unwrap();
    m.fit_graph(4, &[0, 2], &[1, 3]).unwrap();
    assert_eq!(m.points_result().unwrap_err().status, Status::WrongInputKind);
}

#[test]
fn points_errors() {
    let mut m = model();
    m.method(Method::Lloyd).unwrap();
    assert_eq!(m.fit_points(&[0.0, 1.0, 2.0], 3, 1).unwrap_err().status, Status::TooFewClasses);
    m.classes(2).unwrap();
    let err = m.fit_points(&[0.0, f64::NAN, 2.0], 3, 1).unwrap_err();
    assert_eq!(err.status, Status::NonFinite);
    assert!(err.message.contains("point 1"), "{}", err.message);
    assert_eq!(m.fit_points(&[0.0, 1.0, 2.0], 2, 1).unwrap_err().status, Status::InvalidArgument);
    assert_eq!(m.fit_points(&[], 0, 1).unwrap_err().status, Status::EmptyInput);
    assert_eq!(m.fit_points(&[0.0], 1, 1).unwrap_err().status, Status::TooManyClasses);
    assert_eq!(m.fit_points(&[0.0], usize::MAX, 2).unwrap_err().status, Status::InvalidArgument);
}

#[test]
fn graph_errors() {
    let mut m = model();
    m.method(Method::CommuLloyd).unwrap().classes(2).unwrap();
    let err = m.fit_graph(3, &[0, 1], &[1, 3]).unwrap_err();
    assert_eq!(err.status, Status::InvalidId);
    assert!(err.message.contains("edge 1") || err.message.contains("index 1"), "{}", err.message);
    assert_eq!(m.fit_graph(3, &[], &[]).unwrap_err().status, Status::EmptyInput);
    assert_eq!(m.fit_graph(3, &[0], &[1, 2]).unwrap_err().status, Status::InvalidArgument);
    assert_eq!(m.fit_graph(1, &[0], &[0]).unwrap_err().status, Status::EmptyInput);
}

#[test]
fn status_codes_round_trip() {
    for code in -21..=-1 {
        let status = Status::from_code(code);
        assert!(!matches!(status, Status::Other(_)), "code {} unknown", code);
        assert_eq!(status.code(), code);
        assert!(status.name().starts_with("CS_ERR_"), "{}", status.name());
    }
    assert_eq!(Status::from_code(-21), Status::Busy);
    assert_eq!(Status::Busy.name(), "CS_ERR_BUSY");
    assert_eq!(Status::from_code(-1000), Status::Other(-1000));
    assert_eq!(Status::Other(-1000).name(), "CS_UNKNOWN_STATUS");
}

#[test]
fn methods_and_parameters_are_enumerated() {
    let all = Method::all();
    // Every method the library registers is known to this crate.
    // SAFETY: a plain query without pointers.
    assert_eq!(all.len(), unsafe { crowdspec::sys::cs_method_count() } as usize);
    assert!(all.len() >= 22);
    for m in &all {
        assert_eq!(Method::from_name(&m.name()).unwrap(), *m);
        assert_eq!(m.name().parse::<Method>().unwrap(), *m);
    }
    assert_eq!(Method::OptDs.name(), "opt-ds");
    // the library's default method, since 0.2
    assert_eq!(Method::Auto.name(), "auto");
    assert_eq!(ParamInfo::of("method").unwrap().default, f64::from(Method::Auto.id()));
    assert_eq!(Method::KmeansPp.to_string(), "kmeans++");
    let params = ParamInfo::all();
    assert!(params.iter().any(|p| p.name == "tol" && !p.is_integer && p.upper == 1.0));
    assert!(params.iter().any(|p| p.name == "classes" && p.is_integer));
    for p in &params {
        assert_eq!(ParamInfo::of(&p.name).unwrap(), *p);
    }
    assert_eq!(ParamInfo::of("nope").unwrap_err().status, Status::UnknownParam);
    assert_eq!(crowdspec::version_number(), crowdspec::sys::CS_VERSION_NUMBER);
    assert_eq!(
        crowdspec::version(),
        format!(
            "{}.{}.{}",
            crowdspec::sys::CS_VERSION_MAJOR,
            crowdspec::sys::CS_VERSION_MINOR,
            crowdspec::sys::CS_VERSION_PATCH
        )
    );
}
