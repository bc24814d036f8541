// SPDX-License-Identifier: MIT
// Parses Julia files with the lezer Julia grammar (@plutojl/lezer-julia, resolved
// through NODE_PATH) and reports every syntax-error node by line and column; exits 1
// when there is any. Used by check_ccalls.py --lezer, since Julia itself is absent.
"use strict";
const fs = require("fs");
const { parser } = require("@plutojl/lezer-julia");

let total = 0;
for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(file, "utf8");
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  const where = (pos) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1] <= pos) line++;
    return `${line + 1}:${pos - starts[line] + 1}`;
  };
  const errors = [];
  parser.parse(text).iterate({
    enter(node) {
      if (node.type.isError) errors.push(where(node.from));
    },
  });
  total += errors.length;
  console.log(`lezer-julia: ${file}: ${errors.length ? "syntax errors at " + errors.slice(0, 20).join(", ") : "parses"}`);
}
process.exit(total ? 1 : 0);
