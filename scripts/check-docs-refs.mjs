#!/usr/bin/env node
// Checks that comments, test names and scripts point at documents a reader of the repository can open.
// Fails (exit 1, one `file:line: reason` per problem) when a source file:
// - cites `part N §X`, `part N §X.Y` or a range `part N §X-Y` (also `§X, §Y` after it, up to a `;`)
//   that names no numbered heading of docs/spec/part-N-*.md (`## 7. The calls it makes`, `### 2.4 Donations screen`);
// - mentions an issue by number: the tracker is not part of the repository; say why in words, or cite
//   the spec or a decision record in docs/decisions/;
// - names the design document by its old upper-case file name instead of docs/spec/design.md.
// Scanned: apps, packages, e2e, bench, scripts (*.ts, *.tsx, *.mjs, *.sh; node_modules, dist and
// the tests' throwaway .tmp skipped). Plain Node, no dependencies.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const specDir = join(root, 'docs', 'spec');
const extensions = ['.ts', '.tsx', '.mjs', '.sh'];
const skippedDirs = new Set(['node_modules', 'dist', '.tmp']);

/** Numbered headings of each part: `## 7. The calls…` gives "7", `### 2.4 Donations…` gives "2.4". */
function loadSections() {
  const sections = new Map();
  for (const name of readdirSync(specDir)) {
    const part = /^part-(\d+)-.*\.md$/.exec(name);
    if (!part) continue;
    const numbers = new Set();
    for (const line of readFileSync(join(specDir, name), 'utf8').split('\n')) {
      const heading = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/.exec(line);
      if (heading) numbers.add(heading[1]);
    }
    sections.set(part[1], numbers);
  }
  return sections;
}

function sourceRoots() {
  const roots = ['apps', 'packages', 'e2e', 'bench', 'scripts'];
  return roots.map((dir) => join(root, dir)).filter((dir) => existsSync(dir));
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirs.has(entry.name)) yield* walk(path);
    } else if (entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext))) {
      yield path;
    }
  }
}

const sectionNumber = String.raw`(\d+(?:\.\d+)?)`;
// `part 2 §2.1-2.3`, `Part 1 §4`, and the `§X` that follow on the line (`part 2 §2.5-2.6, §7 Sales`).
const partRef = /\bpart\s+(\d+)\b/gi;
const sectionRef = new RegExp(String.raw`§\s*${sectionNumber}(?:\s*[-–]\s*§?\s*${sectionNumber})?`, 'g');
const issueRef = /\bissues?\s+#?\d+/i;
const oldDesignName = /\bDESIGN\.md\b/;

/** Every section a range names: `2.1-2.3` gives 2.1, 2.2, 2.3; `2-4` gives 2, 3, 4. */
function expand(from, to) {
  if (!to) return [from];
  const [fromMajor, fromMinor] = from.split('.');
  const [toMajor, toMinor] = to.split('.');
  if (fromMinor !== undefined && toMinor !== undefined && fromMajor === toMajor) {
    const out = [];
    for (let minor = Number(fromMinor); minor <= Number(toMinor); minor++) out.push(`${fromMajor}.${minor}`);
    return out;
  }
  if (fromMinor === undefined && toMinor === undefined) {
    const out = [];
    for (let major = Number(fromMajor); major <= Number(toMajor); major++) out.push(String(major));
    return out;
  }
  return [from, to];
}

/** Problems in one line: each `part N` applies to the `§` references after it, up to the next `part M` or `;`. */
function checkLine(line, sections) {
  const problems = [];
  const parts = [...line.matchAll(partRef)];
  parts.forEach((part, index) => {
    const start = part.index + part[0].length;
    const next = index + 1 < parts.length ? parts[index + 1].index : line.length;
    const semicolon = line.indexOf(';', start);
    const end = semicolon >= 0 && semicolon < next ? semicolon : next;
    const known = sections.get(part[1]);
    const refs = [...line.slice(start, end).matchAll(sectionRef)];
    // Only `part N §…`: a `part 2` with no § right after it is prose ("the second part 2 rows").
    if (refs.length === 0 || !/^\s*§/.test(line.slice(start))) return;
    if (!known) {
      problems.push(`"part ${part[1]}": no docs/spec/part-${part[1]}-*.md`);
      return;
    }
    for (const ref of refs) {
      const missing = expand(ref[1], ref[2]).filter((section) => !known.has(section));
      if (missing.length > 0) {
        problems.push(
          `"part ${part[1]} ${ref[0].trim()}": no heading ${missing.join(', ')} in part ${part[1]}`,
        );
      }
    }
  });
  const issue = issueRef.exec(line);
  if (issue) problems.push(`"${issue[0]}": cite the spec or a decision record, or say why in words`);
  if (oldDesignName.test(line)) problems.push('the design is docs/spec/design.md');
  return problems;
}

const sections = loadSections();
const failures = [];
let files = 0;
for (const dir of sourceRoots()) {
  if (!statSync(dir).isDirectory()) continue;
  for (const file of walk(dir)) {
    files++;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const problem of checkLine(line, sections)) {
          failures.push(`${relative(root, file)}:${index + 1}: ${problem}`);
        }
      });
  }
}

if (failures.length > 0) {
  console.error(failures.join('\n'));
  console.error(`check-docs-refs: ${failures.length} problem(s) in ${files} files.`);
  process.exit(1);
}
console.log(`check-docs-refs: ${files} files, every spec reference resolves.`);
