// SPDX-License-Identifier: MIT
//! The hand-written declarations of src/lib.rs against the C header, both ways.
//!
//! The header is `CROWDSPEC_INCLUDE_DIR/crowdspec/crowdspec.h` when that variable is
//! set (ctest sets it; a missing file is then a failure), else the copy in the source
//! tree, `../../../include/crowdspec/crowdspec.h` from this crate. Outside the source
//! tree, without the variable, the comparison is skipped with a printed reason.
//!
//! Checked: every `CS_API` function of the header is declared here with the same
//! parameter names (a trailing `_` aside, for Rust keywords), parameter types and return
//! type, and nothing else is declared; the typedefs `cs_status`, `cs_progress_fn` and `cs_e_step_fn`
//! agree; every enum value and `CS_VERSION_*` macro of the header is a constant here
//! with the same value, and no other `CS_` constant exists here; every declared function
//! is exported by the library the test is linked to.

use std::collections::BTreeMap;
use std::env;
use std::fs;
use std::path::PathBuf;

fn header_path() -> Option<PathBuf> {
    if let Some(dir) = env::var_os("CROWDSPEC_INCLUDE_DIR") {
        let path = PathBuf::from(dir).join("crowdspec").join("crowdspec.h");
        assert!(path.is_file(), "CROWDSPEC_INCLUDE_DIR is set but {} is missing", path.display());
        return Some(path);
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../include/crowdspec/crowdspec.h");
    if path.is_file() {
        Some(path)
    } else {
        println!("header comparison skipped: no crowdspec.h (set CROWDSPEC_INCLUDE_DIR)");
        None
    }
}

/// Removes `/* */` and `//` comments (the header has no comment markers in strings).
fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let bytes = src.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'/' && i + 1 < bytes.len() && bytes[i + 1] == b'*' {
            let end = src[i + 2..].find("*/").expect("unterminated comment");
            i += end + 4;
            out.push(' ');
        } else if bytes[i] == b'/' && i + 1 < bytes.len() && bytes[i + 1] == b'/' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else {
            out.push(bytes[i] as char);
            i += 1;
        }
    }
    out
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Rust spelling of a C type of the header: `const int32_t *` -> `*const i32`.
fn rust_type(c: &str) -> String {
    let c = squash(c);
    let stars = c.matches('*').count();
    let base = c.replace('*', " ");
    let words: Vec<&str> = base.split_whitespace().collect();
    let is_const = words.first() == Some(&"const");
    let name = words.iter().filter(|w| **w != "const").cloned().collect::<Vec<_>>();
    assert_eq!(name.len(), 1, "unexpected C type `{}`", c);
    let base = match name[0] {
        "int32_t" => "i32",
        "int64_t" => "i64",
        "uint32_t" => "u32",
        "size_t" => "usize",
        "double" => "f64",
        "char" => "c_char",
        "void" => "c_void",
        other => other, // cs_status, cs_model, cs_progress_fn keep their names
    };
    match stars {
        0 => base.to_string(),
        1 => format!("*{} {}", if is_const { "const" } else { "mut" }, base),
        _ => panic!("unexpected C type `{}`", c),
    }
}

/// A function signature as (parameter names, parameter types, return type), in Rust
/// spelling; the return type of `void` functions is empty.
type Signature = (Vec<String>, Vec<String>, String);

/// Splits a C declarator `const char *cs_name` into type and name.
fn split_declarator(decl: &str) -> (String, String) {
    let decl = squash(decl);
    let cut = decl
        .rfind([' ', '*'])
        .unwrap_or_else(|| panic!("cannot split `{}`", decl));
    (decl[..cut + 1].to_string(), decl[cut + 1..].to_string())
}

fn c_params(list: &str) -> (Vec<String>, Vec<String>) {
    let list = squash(list);
    if list == "void" || list.is_empty() {
        return (Vec::new(), Vec::new());
    }
    list.split(',')
        .map(|p| {
            let (ty, name) = split_declarator(p);
            (name, rust_type(&ty))
        })
        .unzip()
}

fn header_functions(header: &str) -> BTreeMap<String, Signature> {
    // Declarations only: drop the preprocessor lines that define CS_API itself.
    let code: String = header
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| format!("{}\n", l))
        .collect();
    let mut out = BTreeMap::new();
    let mut rest = code.as_str();
    while let Some(pos) = rest.find("CS_API ") {
        rest = &rest[pos + 7..];
        let end = rest.find(';').expect("CS_API declaration without `;`");
        let decl = &rest[..end];
        rest = &rest[end..];
        let open = decl.find('(').expect("CS_API declaration without `(`");
        let close = decl.rfind(')').expect("CS_API declaration without `)`");
        let (ret, name) = split_declarator(&decl[..open]);
        let ret = if squash(&ret) == "void" { String::new() } else { rust_type(&ret) };
        let (names, types) = c_params(&decl[open + 1..close]);
        assert!(out.insert(name.clone(), (names, types, ret)).is_none(), "{} twice", name);
    }
    out
}

fn header_constants(header: &str) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    // enum bodies: NAME = value
    let mut rest = header;
    while let Some(pos) = rest.find("enum ") {
        rest = &rest[pos..];
        let open = match rest.find('{') {
            Some(o) => o,
            None => break,
        };
        let close = rest.find('}').expect("unterminated enum");
        for entry in rest[open + 1..close].split(',') {
            let entry = squash(entry);
            if entry.is_empty() {
                continue;
            }
            let mut parts = entry.splitn(2, '=');
            let name = parts.next().unwrap().trim().to_string();
            let value: i64 = parts
                .next()
                .unwrap_or_else(|| panic!("enum value {} has no explicit number", name))
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("enum value {} is not a plain number", name));
            assert!(out.insert(name.clone(), value).is_none(), "{} twice", name);
        }
        rest = &rest[close..];
    }
    // #define CS_VERSION_MAJOR 0 ...
    for line in header.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() == 3 && words[0] == "#define" && words[1].starts_with("CS_VERSION_") {
            if let Ok(v) = words[2].parse::<i64>() {
                out.insert(words[1].to_string(), v);
            }
        }
    }
    let number = out["CS_VERSION_MAJOR"] * 10000 + out["CS_VERSION_MINOR"] * 100
        + out["CS_VERSION_PATCH"];
    out.insert("CS_VERSION_NUMBER".to_string(), number);
    out
}

fn header_typedefs(header: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = header;
    while let Some(pos) = rest.find("typedef ") {
        rest = &rest[pos + 8..];
        let end = rest.find(';').unwrap();
        let body = squash(&rest[..end]);
        rest = &rest[end..];
        if body.starts_with("struct ") {
            continue;
        }
        if let Some(p) = body.find("(*") {
            // function pointer: RET (*NAME)(PARAMS)
            let ret = rust_type(&body[..p]);
            let name_end = body[p..].find(')').unwrap() + p;
            let name = body[p + 2..name_end].trim().to_string();
            let params_open = body[name_end..].find('(').unwrap() + name_end;
            let (names, types) = c_params(&body[params_open + 1..body.len() - 1]);
            let params: Vec<String> =
                names.iter().zip(&types).map(|(n, t)| format!("{}: {}", n, t)).collect();
            let ret = if ret == "c_void" { String::new() } else { format!(" -> {}", ret) };
            out.insert(
                name,
                format!("Option<unsafe extern \"C\" fn({}){}>", params.join(", "), ret),
            );
        } else {
            let (ty, name) = split_declarator(&body);
            out.insert(name, rust_type(&ty));
        }
    }
    out
}

/// src/lib.rs, then the other files of src/ (modules it re-exports) in name order.
fn rust_source() -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("cannot read src/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map_or(false, |x| x == "rs") && !p.ends_with("lib.rs"))
        .collect();
    files.sort();
    files.insert(0, dir.join("lib.rs"));
    files.iter().map(|p| strip_comments(&fs::read_to_string(p).unwrap())).collect::<Vec<_>>().join("\n")
}

fn rust_functions(src: &str) -> BTreeMap<String, Signature> {
    let start = src.find("extern \"C\" {").expect("no extern block in src/lib.rs");
    let block = &src[start..];
    let mut out = BTreeMap::new();
    let mut rest = block;
    while let Some(pos) = rest.find("pub fn ") {
        rest = &rest[pos + 7..];
        let end = rest.find(';').unwrap();
        let decl = squash(&rest[..end]);
        rest = &rest[end..];
        let open = decl.find('(').unwrap();
        let close = decl.rfind(')').unwrap();
        let name = decl[..open].trim().to_string();
        let params = decl[open + 1..close].trim().trim_end_matches(',');
        let mut names = Vec::new();
        let mut types = Vec::new();
        for p in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let colon = p.find(':').unwrap();
            names.push(p[..colon].trim().trim_end_matches('_').to_string());
            types.push(squash(&p[colon + 1..]));
        }
        let after = decl[close + 1..].trim();
        let ret = after.strip_prefix("->").map(squash).unwrap_or_default();
        assert!(out.insert(name.clone(), (names, types, ret)).is_none(), "{} twice", name);
    }
    out
}

fn rust_constants(src: &str) -> BTreeMap<String, Option<i64>> {
    let mut out = BTreeMap::new();
    let mut rest = src;
    while let Some(pos) = rest.find("pub const CS_") {
        rest = &rest[pos + 10..];
        let end = rest.find(';').unwrap();
        let decl = squash(&rest[..end]);
        rest = &rest[end..];
        let name = decl[..decl.find(':').unwrap()].trim().to_string();
        let value = decl[decl.find('=').unwrap() + 1..].trim().parse::<i64>().ok();
        assert!(out.insert(name.clone(), value).is_none(), "{} twice", name);
    }
    out
}

fn rust_type_aliases(src: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = src;
    while let Some(pos) = rest.find("pub type ") {
        rest = &rest[pos + 9..];
        let end = rest.find(';').unwrap();
        let decl = squash(&rest[..end]);
        rest = &rest[end..];
        let eq = decl.find('=').unwrap();
        out.insert(decl[..eq].trim().to_string(), squash(&decl[eq + 1..]));
    }
    out
}

#[test]
fn functions_match_the_header_both_ways() {
    let path = match header_path() {
        Some(p) => p,
        None => return,
    };
    let header = strip_comments(&fs::read_to_string(&path).unwrap());
    let c = header_functions(&header);
    let rust = rust_functions(&rust_source());
    assert!(c.len() >= 40, "only {} CS_API functions parsed from {}", c.len(), path.display());
    let missing: Vec<&String> = c.keys().filter(|k| !rust.contains_key(*k)).collect();
    let extra: Vec<&String> = rust.keys().filter(|k| !c.contains_key(*k)).collect();
    assert!(missing.is_empty(), "CS_API functions not declared in crowdspec-sys: {:?}", missing);
    assert!(extra.is_empty(), "crowdspec-sys declares functions the header lacks: {:?}", extra);
    for (name, sig) in &c {
        assert_eq!(&rust[name], sig, "signature of {} (names, types, return)", name);
    }
    println!("{} functions agree with {}", c.len(), path.display());
}

#[test]
fn constants_match_the_header_both_ways() {
    let path = match header_path() {
        Some(p) => p,
        None => return,
    };
    let header_text = fs::read_to_string(&path).unwrap();
    let c = header_constants(&strip_comments(&header_text));
    let rust = rust_constants(&rust_source());
    let missing: Vec<&String> = c.keys().filter(|k| !rust.contains_key(*k)).collect();
    let extra: Vec<&String> = rust.keys().filter(|k| !c.contains_key(*k)).collect();
    assert!(missing.is_empty(), "header constants missing in crowdspec-sys: {:?}", missing);
    assert!(extra.is_empty(), "crowdspec-sys constants the header lacks: {:?}", extra);
    for (name, value) in &c {
        match rust[name] {
            Some(v) => assert_eq!(v, *value, "value of {}", name),
            // the one computed constant: compare its compiled value
            None => {
                assert_eq!(name, "CS_VERSION_NUMBER", "{} is not a plain literal", name);
                assert_eq!(i64::from(crowdspec_sys::CS_VERSION_NUMBER), *value);
            }
        }
    }
    println!("{} constants agree", c.len());
}

#[test]
fn typedefs_match_the_header() {
    let path = match header_path() {
        Some(p) => p,
        None => return,
    };
    let c = header_typedefs(&strip_comments(&fs::read_to_string(&path).unwrap()));
    let rust = rust_type_aliases(&rust_source());
    assert_eq!(c.len(), 3, "typedefs of the header: {:?}", c);
    for (name, ty) in &c {
        assert_eq!(rust.get(name), Some(ty), "typedef {}", name);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn every_declared_function_is_exported_by_the_library() {
    use std::ffi::CString;
    use std::os::raw::{c_char, c_void};
    extern "C" {
        fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    }
    // Referencing one function makes the library a dependency of this binary, so that
    // the dynamic linker has loaded it (static builds: its symbols are in the binary,
    // where dlsym does not look, so they are checked by linking only).
    assert!(unsafe { crowdspec_sys::cs_version_number() } > 0);
    let statik = env::var("CROWDSPEC_STATIC")
        .map_or(false, |v| !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false")));
    if statik {
        println!("static build: exported-symbol lookup skipped");
        return;
    }
    let rust = rust_functions(&rust_source());
    let mut absent = Vec::new();
    for name in rust.keys() {
        let symbol = CString::new(name.as_str()).unwrap();
        // RTLD_DEFAULT is the null handle on glibc and musl.
        if unsafe { dlsym(std::ptr::null_mut(), symbol.as_ptr()) }.is_null() {
            absent.push(name.clone());
        }
    }
    assert!(absent.is_empty(), "declared but not exported by libcrowdspec: {:?}", absent);
}

#[test]
fn library_matches_the_declared_major_version() {
    let number = unsafe { crowdspec_sys::cs_version_number() };
    assert_eq!(number / 10000, crowdspec_sys::CS_VERSION_MAJOR);
    let text = unsafe { std::ffi::CStr::from_ptr(crowdspec_sys::cs_version_string()) };
    let expected = format!("{}.{}.{}", number / 10000, number / 100 % 100, number % 100);
    assert_eq!(text.to_str().unwrap(), expected);
}
