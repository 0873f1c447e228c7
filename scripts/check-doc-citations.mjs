// `npm run lint:docs` (and `npm test`): every comment and doc points at something in the repo,
// and every figure a doc quotes about the repo's files still holds.
//
// 1. No code or doc cites what the next engineer cannot open: the design and style notes kept
//    outside the repo, a relative climb into the shared layer (imports use `@shared/…`), an
//    issue number or the seed the project started from (the pattern below).
// 2. Every citation of a section of any doc under docs/ — `docs/api.md §Limits`,
//    `docs/brokers.md, "Fair queuing"`, `desk.md §Keyboard` — names a heading that exists in
//    that doc (a heading that starts with the cited words, case and punctuation aside); a cited
//    `docs/x.md` that does not exist is broken too.
// 3. Every relative link of a Markdown file (`[text](docs/desk.md#keyboard)`, `(#the-close)`,
//    `(gtt-panel.png)`) reaches a file that exists, and its `#anchor` a heading of that file.
// 4. Figures about files, written in one of these forms (CONTRIBUTING.md, "Figures a script can
//    check"), still hold:
//    - "`path` (N lines)", "(about N lines)" within a tenth, "(under N lines)";
//    - "N files of `NAME` in `path`": the entries of the array literal NAME in path;
//    - "N files under `dir/`": the files git tracks below dir.
// Prints each broken one as file:line and exits 1 if there is any.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const FORBIDDEN = /DESIGN\.md|STYLE\.md|\.\.\/shared\/|\b[Ii]ssue [0-9]+|seed \u00a7/;
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && existsSync(f));
const files = tracked.filter((f) => /\.(ts|tsx|mjs|md|html)$/.test(f));

/** Every doc under docs/, by its name without `docs/` and `.md` (`api`, `decisions/2026-11-26-x`). */
const DOCS = tracked.filter((f) => /^docs\/.+\.md$/.test(f)).map((f) => f.slice('docs/'.length, -'.md'.length));
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const DOC_NAME = `(?:${DOCS.map(escape).join('|')})`;

const norm = (text) =>
  text
    .toLowerCase()
    .replace(/[`"'“”*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

const headingLinesOf = new Map();
function headingLines(doc) {
  if (!headingLinesOf.has(doc)) {
    const lines = existsSync(doc) ? readFileSync(doc, 'utf8').split('\n') : null;
    headingLinesOf.set(doc, lines?.filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, '')) ?? null);
  }
  return headingLinesOf.get(doc);
}
const headings = (doc) => headingLines(doc)?.map(norm) ?? null;

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes (repeats numbered). */
function anchors(doc) {
  const seen = new Map();
  return (headingLines(doc) ?? []).map((h) => {
    const slug = h
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    return n === 0 ? slug : `${slug}-${n}`;
  });
}

/**
 * The section names cited by doc mentions that start on `line` (a citation may run on to `next`,
 * the following line of the same comment), with the doc they are in.
 */
function citations(line, next) {
  const out = [];
  const text = `${line} ${next.replace(/^\s*(\*|\/\/|#)?\s*/, '')}`;
  const mention = new RegExp(`(docs\\/)?\\b(${DOC_NAME}|[\\w/-]+(?=\\.md(?![\\w#])))\\.md(?![\\w#])([^\\n]*)`, 'g');
  for (const m of text.matchAll(mention)) {
    if (m.index >= line.length) break;
    const [, prefixed, name, after] = m;
    // A bare `x.md` is a doc's only when docs/ has one (README.md, SOURCE.md are not docs).
    if (!prefixed && !DOCS.includes(name)) continue;
    const doc = `docs/${name}.md`;
    if (!DOCS.includes(name)) {
      out.push({ doc, name: null });
      continue;
    }
    const rest = after.split(new RegExp(`\\b${DOC_NAME}\\.md`))[0]; // up to the next doc
    // `§Name` (several may follow one doc: `§Orders, §Matching`), up to punctuation that ends it.
    for (const s of rest.split(/(?=§)/).filter((p) => p.startsWith('§'))) {
      const section = /^§([^,;:.()\]`]+)/.exec(s)?.[1];
      if (section) out.push({ doc, name: section.trim() });
    }
    // `, "Name"` right after the doc.
    const quoted = /^,\s*"([^"]+)"/.exec(rest);
    if (quoted) out.push({ doc, name: quoted[1] });
  }
  return out;
}

/** Relative Markdown links of `line` in `file` that lead nowhere. */
function brokenLinks(file, line) {
  const out = [];
  for (const m of line.matchAll(/\]\(([^)\s]*?)(?:#([^)\s]+))?\)/g)) {
    const [, target, anchor] = m;
    if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
    const path = target === '' ? file : normalize(join(dirname(file), target));
    if (!existsSync(path)) {
      out.push(`links to ${target}, which does not exist`);
      continue;
    }
    if (anchor && path.endsWith('.md') && !anchors(path).includes(anchor.toLowerCase())) {
      out.push(`links to ${target || file}#${anchor}, which has no such heading`);
    }
  }
  return out;
}

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
const NUMBER = `(\\d[\\d,]*|${WORDS.join('|')})`;
const numberOf = (text) => (/^\d/.test(text) ? Number(text.replace(/,/g, '')) : WORDS.indexOf(text.toLowerCase()));
const lineCount = (path) => {
  const text = readFileSync(path, 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

/** Figures that start on `line` (and may run on to `next`) about files that no longer hold. */
function wrongFigures(line, next) {
  const out = [];
  const text = `${line} ${next.trim()}`;
  const starts = (m) => m.index < line.length;
  for (const m of [...text.matchAll(new RegExp(`\`([^\`]+)\`\\s*\\((about |under )?${NUMBER} lines\\)`, 'gi'))].filter(
    starts,
  )) {
    const [, path, how, figure] = m;
    if (!existsSync(path)) {
      out.push(`counts the lines of ${path}, which does not exist`);
      continue;
    }
    const said = numberOf(figure);
    const real = lineCount(path);
    const holds =
      how?.trim() === 'about'
        ? Math.abs(real - said) <= said / 10
        : how?.trim() === 'under'
          ? real < said
          : real === said;
    if (!holds) out.push(`says ${path} has ${how ?? ''}${figure} lines; it has ${real}`);
  }
  for (const m of [
    ...text.matchAll(new RegExp(`\\b${NUMBER} (?:files|entries) of \`(\\w+)\` in \`([^\`]+)\``, 'gi')),
  ].filter(starts)) {
    const [, figure, name, path] = m;
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const list = new RegExp(`\\b${name}\\s*=\\s*\\[([^\\]]*)\\]`).exec(text);
    if (!list) {
      out.push(`counts ${name} in ${path}, which has no such list`);
      continue;
    }
    const real = [...list[1].matchAll(/(['"])[^'"]*\1/g)].length;
    if (real !== numberOf(figure)) out.push(`says ${name} in ${path} lists ${figure}; it lists ${real}`);
  }
  for (const m of text.matchAll(new RegExp(`\\b${NUMBER} files under \`([^\`]+)\``, 'gi'))) {
    if (!starts(m)) continue;
    const [, figure, dir] = m;
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    const real = tracked.filter((f) => f.startsWith(prefix)).length;
    if (real !== numberOf(figure)) out.push(`says ${dir} holds ${figure} files; it holds ${real}`);
  }
  return out;
}

const broken = [];
for (const file of files) {
  if (file === 'scripts/check-doc-citations.mjs') continue; // its own examples
  const lines = readFileSync(file, 'utf8').split('\n');
  const markdown = file.endsWith('.md');
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (FORBIDDEN.test(line)) {
      broken.push(`${where}: cites something outside the repo: ${line.trim().slice(0, 100)}`);
    }
    for (const { doc, name } of citations(line, lines[i + 1] ?? '')) {
      const hs = headings(doc);
      if (hs === null || name === null) broken.push(`${where}: cites ${doc}, which does not exist`);
      else if (!hs.some((h) => h.startsWith(norm(name)))) broken.push(`${where}: ${doc} has no section "${name}"`);
    }
    if (markdown) {
      for (const b of brokenLinks(file, line)) broken.push(`${where}: ${b}`);
      for (const b of wrongFigures(line, lines[i + 1] ?? '')) broken.push(`${where}: ${b}`);
    }
  });
}

for (const b of broken) console.log(b);
console.log(`${broken.length} broken citation(s), link(s) or figure(s) in ${files.length} files`);
process.exit(broken.length > 0 ? 1 : 0);
