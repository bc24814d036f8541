// SPDX-License-Identifier: MIT
//! Writes the directory of libcrowdspec, found by crowdspec-sys (its `links` metadata
//! `libdir`), into this crate's test, example and doctest binaries as an rpath, so that
//! they run without LD_LIBRARY_PATH. Nothing is done for a static library. The
//! directory is also compiled into this crate's tests as `CROWDSPEC_BUILD_LIBDIR`
//! (the C reference program of tests/c_api.rs links against it), with
//! `CROWDSPEC_BUILD_INCLUDEDIR` and `CROWDSPEC_BUILD_STATIC`.
//!
//! It also sets the cfg `crowdspec_datasets` when the shared data sets are present
//! (CROWDSPEC_DATASETS_DIR, or the older CROWDSPEC_DATASETS, else ../shared/datasets
//! beside the project): without them the tests that read them are `ignore`d with the
//! reason, so that `cargo test` reports them as ignored instead of `ok`.

use std::env;
use std::path::PathBuf;

fn datasets_dir() -> PathBuf {
    for var in ["CROWDSPEC_DATASETS_DIR", "CROWDSPEC_DATASETS"] {
        println!("cargo:rerun-if-env-changed={}", var);
        if let Some(dir) = env::var_os(var) {
            if !dir.is_empty() {
                return PathBuf::from(dir);
            }
        }
    }
    PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("../../../../shared/datasets")
}

fn main() {
    println!("cargo:rustc-check-cfg=cfg(crowdspec_datasets)");
    let bluebird = datasets_dir().join("bluebird_crowd.txt");
    println!("cargo:rerun-if-changed={}", bluebird.display());
    if bluebird.is_file() {
        println!("cargo:rustc-cfg=crowdspec_datasets");
    }
    println!("cargo:rerun-if-env-changed=DEP_CROWDSPEC_LIBDIR");
    println!("cargo:rerun-if-env-changed=DEP_CROWDSPEC_STATIC");
    let static_flag = env::var("DEP_CROWDSPEC_STATIC").unwrap_or_default();
    println!("cargo:rustc-env=CROWDSPEC_BUILD_STATIC={}", static_flag);
    let statik = env::var("DEP_CROWDSPEC_STATIC").map_or(false, |v| v == "1");
    let unix = env::var("CARGO_CFG_TARGET_FAMILY")
        .map_or(false, |f| f.split(',').any(|f| f == "unix"));
    println!("cargo:rerun-if-env-changed=DEP_CROWDSPEC_INCLUDE");
    if let Ok(dir) = env::var("DEP_CROWDSPEC_INCLUDE") {
        println!("cargo:rustc-env=CROWDSPEC_BUILD_INCLUDEDIR={}", dir);
    }
    if let Ok(dir) = env::var("DEP_CROWDSPEC_LIBDIR") {
        println!("cargo:rustc-env=CROWDSPEC_BUILD_LIBDIR={}", dir);
        if !statik && unix && !dir.is_empty() {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        }
    }
}
