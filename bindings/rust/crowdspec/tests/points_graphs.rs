// SPDX-License-Identifier: MIT
//! Points and graphs: results checked against values known independently of the
//! library (cluster means computed here, planted partitions, edge counts).

#![allow(clippy::needless_range_loop)]

mod common;

use common::Rng;
use crowdspec::{Method, Model, Notes};

/// Three planted clusters in R^3, far apart: the labels recover them exactly and each
/// centre is the mean of its points, computed here.
#[test]
fn lloyd_recovers_planted_clusters_and_their_means() {
    let (n_per, d, k) = (40, 3, 3);
    let centres = [[0.0, 0.0, 0.0], [50.0, 0.0, 0.0], [0.0, 50.0, 50.0]];
    let mut rng = Rng::new(3);
    let mut x = Vec::new();
    let mut truth = Vec::new();
    for j in 0..n_per * k {
        let c = j % k;
        truth.push(c);
        for coord in 0..d {
            x.push(centres[c][coord] + rng.uniform() - 0.5);
        }
    }
    for method in [Method::Lloyd, Method::KmeansPp] {
        let mut model = Model::new().unwrap();
        model.method(method).unwrap().classes(k).unwrap().seed(1).unwrap();
        let fit = model.fit_points(&x, n_per * k, d).unwrap();
        assert_eq!(fit.labels.len(), n_per * k);
        assert_eq!(fit.centres.shape(), (k, d));
        // the partition is the planted one, up to renaming the clusters
        for j in 0..n_per * k {
            let same_truth = truth[j] == truth[0];
            assert_eq!(fit.labels[j] == fit.labels[0], same_truth, "{} point {}", method, j);
        }
        for h in 0..k {
            let members: Vec<usize> = (0..n_per * k).filter(|&j| fit.labels[j] == h as i32).collect();
            assert_eq!(members.len(), n_per);
            for coord in 0..d {
                let mean = members.iter().map(|&j| x[j * d + coord]).sum::<f64>() / n_per as f64;
                assert!((fit.centres[(h, coord)] - mean).abs() < 1e-12, "{} centre {}", method, h);
            }
            assert!((fit.prior[h] - 1.0 / 3.0).abs() < 1e-15);
        }
        assert!(fit.converged);
        assert!(fit.trace.iter().all(|&t| t <= 0.0), "minus the k-means cost");
    }
}

/// A planted partition: two dense blocks of 30 nodes with a few edges across. Every
/// graph method recovers it, and the densities are edge counts over pair counts.
#[test]
fn graph_methods_recover_two_blocks() {
    let mut rng = Rng::new(11);
    let n = 60;
    let (mut u, mut v) = (Vec::new(), Vec::new());
    let (mut within_edges, mut between_edges) = (0usize, 0usize);
    for a in 0..n {
        for b in a + 1..n {
            let same = (a < 30) == (b < 30);
            let p = if same { 0.5 } else { 0.02 };
            if rng.uniform() < p {
                u.push(a as i32);
                v.push(b as i32);
                if same {
                    within_edges += 1;
                } else {
                    between_edges += 1;
                }
            }
        }
    }
    // a self-loop and a repeated edge are ignored, with a note
    u.push(0);
    v.push(0);
    u.push(v[0]);
    v.push(u[0]);
    for method in [Method::CommuLloyd, Method::Spec, Method::SpecMle] {
        let mut model = Model::new().unwrap();
        model.method(method).unwrap().classes(2).unwrap();
        let fit = model.fit_graph(n, &u, &v).unwrap();
        for j in 0..n {
            assert_eq!(fit.labels[j] == fit.labels[0], j < 30, "{} node {}", method, j);
        }
        let within_pairs = 2 * (30 * 29 / 2);
        let between_pairs = 30 * 30;
        assert!((fit.within - within_edges as f64 / within_pairs as f64).abs() < 1e-15);
        assert!((fit.between - between_edges as f64 / between_pairs as f64).abs() < 1e-15);
        assert!(fit.notes.contains(Notes::IGNORED_EDGES), "{:?}", fit.notes);
        assert!(!fit.message.is_empty());
        assert_eq!(fit.prior, vec![0.5, 0.5]);
    }
}
