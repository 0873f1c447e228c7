#!/usr/bin/env node
// Function sizes, measured on the TypeScript AST (CONTRIBUTING.md §House rules in one screen:
// no function over 120 lines outside bench/). Lists every function, method, constructor and
// arrow function of the product's sources (not tests, e2e or bench/) longer than the limit,
// longest first; a nested function counts inside its parent too, as a reader sees it.
//
//   node scripts/function-sizes.mjs [--max 120] [--json] [paths...]
//
// Exits 1 if any is over the limit. Paths narrow the files read (git-tracked .ts/.tsx under them).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const args = process.argv.slice(2);
const maxAt = args.indexOf('--max');
const max = maxAt >= 0 ? Number(args[maxAt + 1]) : 120;
const json = args.includes('--json');
const paths = args.filter((a, i) => !a.startsWith('--') && i !== maxAt + 1);

const files = execFileSync('git', ['ls-files', '--', ...(paths.length ? paths : ['.'])], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
  .filter((f) => !/(^|\/)(bench|e2e|node_modules)\//.test(f) && !/\.(test|spec)\.tsx?$/.test(f));

/** A readable name for a function node: its own, its variable's or property's, or its parent's. */
function nameOf(node, parentName) {
  if (ts.isConstructorDeclaration(node)) return `${parentName ?? '?'} constructor`;
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && ts.isPrivateIdentifier(node.name)) return node.name.text;
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
  if (p && ts.isCallExpression(p)) {
    const callee = p.expression.getText().slice(0, 40);
    return `${parentName ?? '<top>'} › ${callee}(…)`;
  }
  return `${parentName ?? '<top>'} › <anonymous>`;
}

const found = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const visit = (node, parentName) => {
    let name = parentName;
    if (ts.isClassDeclaration(node) && node.name) name = node.name.text;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      name = nameOf(node, parentName);
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) found.push({ file, line: start + 1, name, lines });
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(source, undefined);
}
found.sort((a, b) => b.lines - a.lines);
if (json) console.log(JSON.stringify(found));
else {
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
  console.log(`${found.length} function(s) over ${max} lines in ${files.length} files`);
}
process.exit(found.length > 0 ? 1 : 0);
