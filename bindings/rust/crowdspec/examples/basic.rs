// SPDX-License-Identifier: MIT
//! Aggregate crowd labels from a CSV file `item,worker,label` (with a header line), or
//! from a small built-in example when no file is given, and print each item's label
//! and confidence.
//!
//! ```sh
//! cargo run --example basic -- answers.csv
//! ```

use std::error::Error;
use std::{env, fs, process};

use crowdspec::{Codes, Method, Model};

const BUILT_IN: &str = "item,worker,label
q1,ann,yes
q1,bob,yes
q1,cy,no
q2,ann,no
q2,bob,no
q2,cy,no
q3,ann,yes
q3,bob,no
q3,cy,yes
q4,ann,yes
q4,bob,yes
q4,cy,yes
";

fn run() -> Result<(), Box<dyn Error>> {
    let text = match env::args().nth(1) {
        Some(path) => fs::read_to_string(&path).map_err(|e| format!("{}: {}", path, e))?,
        None => BUILT_IN.to_string(),
    };
    let (mut items, mut workers, mut classes) = (Codes::new(), Codes::new(), Codes::new());
    let (mut item, mut worker, mut label) = (Vec::new(), Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 3 {
            return Err(format!("line {}: expected item,worker,label", n + 1).into());
        }
        item.push(items.code_of(fields[0])?);
        worker.push(workers.code_of(fields[1])?);
        label.push(classes.code_of(fields[2])?);
    }

    let mut model = Model::new()?;
    model.method(Method::Ds)?.set("prior", "estimated")?;
    let fit = model.fit(&item, &worker, &label)?;
    if !fit.message.is_empty() {
        eprintln!("note: {}", fit.message);
    }
    println!("item,label,confidence");
    for (j, &c) in fit.labels.iter().enumerate() {
        let name = items.value(j as i32).map_or("?", String::as_str);
        let class = classes.value(c).map_or("?", String::as_str);
        println!("{},{},{:.4}", name, class, fit.posteriors[(j, c as usize)]);
    }
    println!(
        "# {} items, {} workers, {} classes, {} EM rounds, log-likelihood {:.6}",
        fit.n_items(),
        fit.n_workers(),
        fit.n_classes(),
        fit.iterations,
        fit.log_likelihood
    );
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("basic: {}", e);
        process::exit(1);
    }
}
