// SPDX-License-Identifier: MIT
//! Ordered grades (issue 36): the posterior median and mean grade of an ordinal fit, by
//! hand from the posteriors; refused for unordered classes.

use crowdspec::{Method, Model, Status};

#[test]
fn median_and_mean_grades() {
    // Item 0: votes 0, 1, 1 (k = 3); item 1: votes 2, 0.
    let (items, workers, labels) = (vec![0, 0, 0, 1, 1], vec![0, 1, 2, 0, 1], vec![0, 1, 1, 2, 0]);
    let mut m = Model::new().unwrap();
    m.method(Method::Mv).unwrap();
    m.fit(&items, &workers, &labels).unwrap();
    assert_eq!(m.median_grades().unwrap_err().status, Status::InvalidArgument);
    m.set("ordinal", 1).unwrap();
    m.fit(&items, &workers, &labels).unwrap();
    // mv's posteriors are the vote shares: (1/3, 2/3, 0) and (1/2, 0, 1/2)
    assert_eq!(m.median_grades().unwrap(), vec![1, 0]);
    let mean = m.mean_grades().unwrap();
    assert!((mean[0] - 2.0 / 3.0).abs() < 1e-15 && (mean[1] - 1.0).abs() < 1e-15, "{:?}", mean);
    // The ordinal methods give grades without the parameter.
    let mut o = Model::new().unwrap();
    o.method(Method::OrdinalDs).unwrap();
    let fit = o.fit(&items, &workers, &labels).unwrap();
    let medians = o.median_grades().unwrap();
    for (j, g) in medians.iter().enumerate() {
        let row = &fit.posteriors.as_slice()[j * 3..j * 3 + 3];
        let below: f64 = row[..*g as usize].iter().sum();
        assert!(below < 0.5 && below + row[*g as usize] >= 0.5 - 1e-12, "{:?}", row);
    }
}
