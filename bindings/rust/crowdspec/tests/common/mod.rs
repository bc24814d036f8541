// SPDX-License-Identifier: MIT
//! Helpers shared by the integration tests: a seeded crowd simulator, the shared data
//! sets, and the C reference program (tests/c/reference.c) that computes every result
//! through the C API alone.
#![allow(dead_code, clippy::needless_range_loop)]

use std::collections::HashMap;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// splitmix64: a tiny deterministic generator for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A simulated crowd: (items, workers, labels, truth). Each worker has an accuracy in
/// [0.4, 0.9), labels each item with probability 0.6 (at least one label per item) and
/// errs uniformly.
pub struct Crowd {
    pub items: Vec<i32>,
    pub workers: Vec<i32>,
    pub labels: Vec<i32>,
    pub truth: Vec<i32>,
}

pub fn simulate(n_items: usize, n_workers: usize, k: usize, seed: u64) -> Crowd {
    let mut rng = Rng::new(seed);
    let accuracy: Vec<f64> = (0..n_workers).map(|_| 0.4 + 0.5 * rng.uniform()).collect();
    let truth: Vec<i32> = (0..n_items).map(|_| rng.below(k) as i32).collect();
    let (mut items, mut workers, mut labels) = (Vec::new(), Vec::new(), Vec::new());
    for j in 0..n_items {
        let forced = rng.below(n_workers);
        for i in 0..n_workers {
            if i != forced && rng.uniform() >= 0.6 {
                continue;
            }
            let t = truth[j] as usize;
            let c = if rng.uniform() < accuracy[i] {
                t
            } else {
                (t + 1 + rng.below(k - 1)) % k
            };
            items.push(j as i32);
            workers.push(i as i32);
            labels.push(c as i32);
        }
    }
    Crowd { items, workers, labels, truth }
}

/// The crowd with shared mistakes: on every third item 60 % of the labels name one wrong
/// class, drawn per item (so that no worker's confusion matrix can absorb it). The model
/// treats them as independent, so the held-out temperature rises above 1 (on a crowd
/// drawn from the model itself it is 1: it never sharpens).
pub fn with_shared_mistakes(mut c: Crowd, k: usize, seed: u64) -> Crowd {
    let mut rng = Rng::new(seed);
    let trap: Vec<usize> = c.truth.iter().map(|&t| (t as usize + 1 + rng.below(k - 1)) % k).collect();
    for e in 0..c.labels.len() {
        let j = c.items[e] as usize;
        if j % 3 == 0 && rng.uniform() < 0.6 {
            c.labels[e] = trap[j] as i32;
        }
    }
    c
}

/// A scratch directory inside Cargo's target directory, unique per test name.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{}", name, std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// The shared data sets directory: CROWDSPEC_DATASETS_DIR (or the older
/// CROWDSPEC_DATASETS), else ../shared/datasets beside the project; None when absent.
pub fn datasets_dir() -> Option<PathBuf> {
    let given = env::var_os("CROWDSPEC_DATASETS_DIR")
        .filter(|d| !d.is_empty())
        .or_else(|| env::var_os("CROWDSPEC_DATASETS").filter(|d| !d.is_empty()));
    let dir = match given {
        Some(d) => PathBuf::from(d),
        None => project_root().join("../shared/datasets"),
    };
    if dir.join("bluebird_crowd.txt").is_file() {
        Some(dir)
    } else {
        None
    }
}

/// A shared data set as 0-based (items, workers, labels) and the truth as item -> class.
pub fn dataset(dir: &Path, name: &str) -> (Vec<i32>, Vec<i32>, Vec<i32>, HashMap<i32, i32>) {
    let crowd = fs::read_to_string(dir.join(format!("{}_crowd.txt", name))).unwrap();
    let (mut items, mut workers, mut labels) = (Vec::new(), Vec::new(), Vec::new());
    for line in crowd.lines().filter(|l| !l.trim().is_empty()) {
        let v: Vec<i32> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        assert_eq!(v.len(), 3, "{}: bad line {:?}", name, line);
        items.push(v[0] - 1);
        workers.push(v[1] - 1);
        labels.push(v[2] - 1);
    }
    let mut truth = HashMap::new();
    let text = fs::read_to_string(dir.join(format!("{}_truth.txt", name))).unwrap();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Vec<i32> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let old = truth.insert(v[0] - 1, v[1] - 1);
        assert!(old.is_none() || old == Some(v[1] - 1), "{}: inconsistent truth", name);
    }
    (items, workers, labels, truth)
}

/// Whether a missing prerequisite must fail the test instead of skipping it (ctest
/// sets CROWDSPEC_REQUIRE_REFERENCE=1).
pub fn required() -> bool {
    env::var("CROWDSPEC_REQUIRE_REFERENCE").map_or(false, |v| v == "1")
}

/// Skips (prints the reason and returns true) or, when required, fails.
pub fn skip(reason: &str) -> bool {
    assert!(!required(), "required but unavailable: {}", reason);
    println!("skipped: {}", reason);
    true
}

static REFERENCE: Mutex<Option<Result<PathBuf, String>>> = Mutex::new(None);

fn build_reference() -> Result<PathBuf, String> {
    let include = env::var_os("CROWDSPEC_INCLUDE_DIR")
        .map(PathBuf::from)
        .or_else(|| option_env!("CROWDSPEC_BUILD_INCLUDEDIR").map(PathBuf::from))
        .unwrap_or_else(|| project_root().join("include"));
    if !include.join("crowdspec/crowdspec.h").is_file() {
        return Err(format!("no crowdspec/crowdspec.h under {}", include.display()));
    }
    let libdir = match option_env!("CROWDSPEC_BUILD_LIBDIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => return Err("the library directory is unknown (pkg-config gave no libdir)".into()),
    };
    if !libdir.join("libcrowdspec.so").is_file() {
        return Err(format!("no libcrowdspec.so in {} to link the C program", libdir.display()));
    }
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let exe = scratch("reference").join("reference");
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/reference.c");
    let output = Command::new(&cc)
        .arg("-std=c99")
        .arg("-O1")
        .arg("-I")
        .arg(&include)
        .arg(&source)
        .arg(format!("-L{}", libdir.display()))
        .arg("-lcrowdspec")
        .arg(format!("-Wl,-rpath,{}", libdir.display()))
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| format!("cannot run the C compiler `{}`: {}", cc, e))?;
    if !output.status.success() {
        // A compiler that runs but fails is a real failure, never a skip.
        panic!("compiling tests/c/reference.c failed:\n{}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(exe)
}

/// The compiled reference program, or None (after printing why) when it cannot be built.
pub fn reference_program() -> Option<PathBuf> {
    let mut guard = REFERENCE.lock().unwrap_or_else(|e| e.into_inner());
    if guard.is_none() {
        *guard = Some(build_reference());
    }
    match guard.as_ref().unwrap() {
        Ok(path) => Some(path.clone()),
        Err(reason) => {
            let reason = reason.clone();
            drop(guard);
            skip(&format!("C reference program: {}", reason));
            None
        }
    }
}

/// What the C API computed.
#[derive(Debug)]
pub struct CResult {
    pub n_items: usize,
    pub n_workers: usize,
    pub k: usize,
    pub iterations: usize,
    pub converged: bool,
    pub notes: i32,
    pub log_likelihood: f64,
    pub labels: Vec<i32>,
    pub posteriors: Vec<f64>,
    pub confusion: Vec<f64>,
    pub prior: Vec<f64>,
    pub trace: Vec<f64>,
}

/// Runs the reference program on the triples with a method name and parameters.
pub fn run_reference(
    exe: &Path,
    tag: &str,
    items: &[i32],
    workers: &[i32],
    labels: &[i32],
    method: &str,
    params: &[(&str, &str)],
) -> CResult {
    let dir = scratch(&format!("vector-{}", tag));
    let triples = dir.join("triples.txt");
    let mut text = String::new();
    for t in 0..items.len() {
        text.push_str(&format!("{} {} {}\n", items[t], workers[t], labels[t]));
    }
    fs::write(&triples, text).unwrap();
    let out = dir.join("out.txt");
    let mut cmd = Command::new(exe);
    cmd.arg(&triples).arg(&out).arg(method);
    for (name, value) in params {
        cmd.arg(name).arg(value);
    }
    let status = cmd.output().unwrap();
    assert!(status.status.success(), "reference failed: {}", String::from_utf8_lossy(&status.stderr));
    let text = fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let count = |i: usize| head[i].parse::<usize>().unwrap();
    let (ni, nw, k, nt) = (count(0), count(1), count(2), count(3));
    let mut take = |n: usize| -> Vec<f64> {
        (0..n).map(|_| lines.next().unwrap().parse::<f64>().unwrap()).collect()
    };
    let labels: Vec<i32> = take(ni).into_iter().map(|x| x as i32).collect();
    let posteriors = take(ni * k);
    let confusion = take(nw * k * k);
    let prior = take(k);
    let trace = take(nt);
    assert!(lines.next().is_none(), "reference output has extra lines");
    CResult {
        n_items: ni,
        n_workers: nw,
        k,
        iterations: count(4),
        converged: head[5] == "1",
        notes: head[6].parse().unwrap(),
        log_likelihood: head[7].parse().unwrap(),
        labels,
        posteriors,
        confusion,
        prior,
        trace,
    }
}

/// Largest absolute difference of two equally long slices.
pub fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len(), "lengths differ");
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}
