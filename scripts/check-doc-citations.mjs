// `npm test`'s citation check: every comment and doc points at something in the repo.
//
// 1. No code or doc cites what the next engineer cannot open: the design and style notes kept
//    outside the repo, a relative climb into the shared layer (imports use `@shared/…`), an
//    issue number or the seed the project started from (the pattern below).
// 2. Every citation of a doc section — `docs/api.md §Limits`, `docs/architecture.md, "Fair
//    queuing"`, `docs/contract.md §Trading rules` — names a heading that exists in that doc
//    (a heading that starts with the cited words, case and punctuation aside).
// Prints each broken citation as file:line and exits 1 if there is any.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const FORBIDDEN = /DESIGN\.md|STYLE\.md|\.\.\/shared\/|\b[Ii]ssue [0-9]+|seed \u00a7/;
const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mjs', '*.md', '*.html'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && existsSync(f));

const norm = (text) =>
  text
    .toLowerCase()
    .replace(/[`"'“”*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

const headingsOf = new Map();
function headings(doc) {
  if (!headingsOf.has(doc)) {
    const lines = existsSync(doc) ? readFileSync(doc, 'utf8').split('\n') : null;
    headingsOf.set(doc, lines?.filter((l) => /^#{1,6} /.test(l)).map((l) => norm(l.replace(/^#+ /, ''))) ?? null);
  }
  return headingsOf.get(doc);
}

/**
 * The section names cited by doc mentions that start on `line` (a citation may run on to `next`,
 * the following line of the same comment), with the doc they are in.
 */
function citations(line, next) {
  const out = [];
  const text = `${line} ${next.replace(/^\s*(\*|\/\/|#)?\s*/, '')}`;
  for (const m of text.matchAll(
    /(?:docs\/)?\b(api|architecture|contract|benchmarks|kite|desk|market|gtt|strategy|journal)\.md(?![\w#])([^\n]*)/g,
  )) {
    if (m.index >= line.length) break;
    const doc = `docs/${m[1]}.md`;
    const rest = m[2].split(/\b(?:api|architecture|contract|benchmarks|kite|desk|market|gtt|strategy|journal)\.md/)[0]; // up to the next doc
    // `§Name` (several may follow one doc: `§Orders, §Matching`), up to punctuation that ends it.
    for (const s of rest.split(/(?=§)/).filter((p) => p.startsWith('§'))) {
      const name = /^§([^,;:.()\]`]+)/.exec(s)?.[1];
      if (name) out.push({ doc, name: name.trim() });
    }
    // `, "Name"` right after the doc.
    const quoted = /^,\s*"([^"]+)"/.exec(rest);
    if (quoted) out.push({ doc, name: quoted[1] });
  }
  return out;
}

const broken = [];
for (const file of files) {
  if (file === 'scripts/check-doc-citations.mjs') continue; // its own examples
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (FORBIDDEN.test(line)) {
      broken.push(`${where}: cites something outside the repo: ${line.trim().slice(0, 100)}`);
    }
    for (const { doc, name } of citations(line, lines[i + 1] ?? '')) {
      const hs = headings(doc);
      if (hs === null) broken.push(`${where}: cites ${doc}, which does not exist`);
      else if (!hs.some((h) => h.startsWith(norm(name)))) broken.push(`${where}: ${doc} has no section "${name}"`);
    }
  });
}

for (const b of broken) console.log(b);
console.log(`${broken.length} broken citation(s) in ${files.length} files`);
process.exit(broken.length > 0 ? 1 : 0);
