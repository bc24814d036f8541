// SPDX-License-Identifier: MIT
//! Finds libcrowdspec and tells Cargo how to link it, without any build-dependency.
//!
//! Order: `CROWDSPEC_LIB_DIR` (a directory holding libcrowdspec), else the
//! `pkg-config` program (or `$PKG_CONFIG`) on package `crowdspec`. `CROWDSPEC_STATIC=1`
//! links the static library. For a shared library the directory becomes an rpath of
//! this crate's tests, and the `links` metadata `libdir` (seen by dependants' build
//! scripts as `DEP_CROWDSPEC_LIBDIR`) lets them do the same.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{exit, Command};

/// What the build script learned about the library.
struct Found {
    /// Directories to search (`-L`).
    search: Vec<PathBuf>,
    /// Libraries to link besides crowdspec itself (static builds: C++ runtime, BLAS...).
    extra_libs: Vec<String>,
    /// The directory holding libcrowdspec, when known.
    libdir: Option<PathBuf>,
    /// The directory holding crowdspec/crowdspec.h, when known.
    includedir: Option<PathBuf>,
}

fn fail(message: &str) -> ! {
    eprintln!("crowdspec-sys: {}", message);
    eprintln!(
        "crowdspec-sys: install crowdspec (so that `pkg-config --libs crowdspec` works, \
         possibly with PKG_CONFIG_PATH set), or set CROWDSPEC_LIB_DIR to the directory \
         holding libcrowdspec.so (CROWDSPEC_STATIC=1 for libcrowdspec.a)"
    );
    exit(1);
}

fn flag(name: &str) -> bool {
    match env::var(name) {
        Ok(v) => !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false")),
        Err(_) => false,
    }
}

fn pkg_config(args: &[&str]) -> Result<String, String> {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let output = Command::new(&program)
        .args(args)
        .arg("crowdspec")
        .output()
        .map_err(|e| format!("cannot run `{}`: {}", program, e))?;
    if !output.status.success() {
        return Err(format!(
            "`{} {} crowdspec` failed: {}",
            program,
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    String::from_utf8(output.stdout)
        .map(|s| s.trim().to_string())
        .map_err(|_| format!("`{}` printed non-UTF-8 output", program))
}

/// Splits pkg-config's link flags into search directories and libraries. The C++
/// runtime and OpenMP of a static library appear as `-lstdc++` and `-fopenmp`
/// (GCC's libgomp), which rustc needs as plain libraries.
fn parse_libs(flags: &str, found: &mut Found) {
    for token in flags.split_whitespace() {
        if let Some(dir) = token.strip_prefix("-L") {
            found.search.push(PathBuf::from(dir));
        } else if let Some(lib) = token.strip_prefix("-l") {
            if lib != "crowdspec" {
                found.extra_libs.push(lib.to_string());
            }
        } else if token == "-fopenmp" {
            found.extra_libs.push("gomp".to_string());
        } else if token == "-pthread" {
            found.extra_libs.push("pthread".to_string());
        } else {
            println!("cargo:warning=crowdspec-sys: ignoring link flag `{}`", token);
        }
    }
}

fn has_library(dir: &Path, statik: bool) -> bool {
    if statik {
        dir.join("libcrowdspec.a").is_file()
    } else {
        ["libcrowdspec.so", "libcrowdspec.dylib", "crowdspec.lib"]
            .iter()
            .any(|name| dir.join(name).is_file())
    }
}

fn main() {
    for var in [
        "CROWDSPEC_LIB_DIR",
        "CROWDSPEC_INCLUDE_DIR",
        "CROWDSPEC_STATIC",
        "PKG_CONFIG",
        "PKG_CONFIG_PATH",
        "PKG_CONFIG_LIBDIR",
    ] {
        println!("cargo:rerun-if-env-changed={}", var);
    }
    println!("cargo:rerun-if-changed=build.rs");
    let statik = flag("CROWDSPEC_STATIC");
    let mut found = Found {
        search: Vec::new(),
        extra_libs: Vec::new(),
        libdir: None,
        includedir: env::var_os("CROWDSPEC_INCLUDE_DIR").map(PathBuf::from),
    };

    if let Some(dir) = env::var_os("CROWDSPEC_LIB_DIR") {
        let dir = PathBuf::from(dir);
        if !has_library(&dir, statik) {
            fail(&format!(
                "CROWDSPEC_LIB_DIR={} holds no {}",
                dir.display(),
                if statik { "libcrowdspec.a" } else { "libcrowdspec.so" }
            ));
        }
        if statik {
            // The static library needs what its pkg-config file lists privately; ask
            // pkg-config when it knows the package, else use the defaults of a GCC build
            // with OpenMP over OpenBLAS and LAPACKE.
            match pkg_config(&["--static", "--libs"]) {
                Ok(flags) => parse_libs(&flags, &mut found),
                Err(_) => {
                    for lib in ["stdc++", "m", "gomp", "lapacke", "openblas"] {
                        found.extra_libs.push(lib.to_string());
                    }
                }
            }
        }
        // The given directory comes first, before anything pkg-config added.
        found.search.insert(0, dir.clone());
        found.libdir = Some(dir);
    } else {
        let args: &[&str] = if statik { &["--static", "--libs"] } else { &["--libs"] };
        match pkg_config(args) {
            Ok(flags) => parse_libs(&flags, &mut found),
            Err(e) => fail(&e),
        }
        if let Ok(dir) = pkg_config(&["--variable=libdir"]) {
            if !dir.is_empty() {
                found.libdir = Some(PathBuf::from(dir));
            }
        }
        if found.includedir.is_none() {
            if let Ok(dir) = pkg_config(&["--variable=includedir"]) {
                if !dir.is_empty() {
                    found.includedir = Some(PathBuf::from(dir));
                }
            }
        }
    }

    for dir in &found.search {
        println!("cargo:rustc-link-search=native={}", dir.display());
    }
    if statik {
        println!("cargo:rustc-link-lib=static=crowdspec");
    } else {
        println!("cargo:rustc-link-lib=dylib=crowdspec");
    }
    for lib in &found.extra_libs {
        println!("cargo:rustc-link-lib={}", lib);
    }
    if let Some(dir) = &found.libdir {
        // Metadata for dependants (DEP_CROWDSPEC_LIBDIR in their build scripts).
        println!("cargo:libdir={}", dir.display());
        let unix = env::var("CARGO_CFG_TARGET_FAMILY")
            .map_or(false, |f| f.split(',').any(|f| f == "unix"));
        if !statik && unix {
            // This crate's own test binaries find the library without LD_LIBRARY_PATH.
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
        }
    }
    if let Some(dir) = &found.includedir {
        println!("cargo:include={}", dir.display());
    }
    println!("cargo:static={}", if statik { 1 } else { 0 });
}
