/// <reference types="node" />
/**
 * `tsx scripts/check-bundle-budgets.ts [dist]` (run by `npm run build -w apps/web` after `vite build`):
 * prints, per screen, the gzipped JavaScript it loads against its budget (docs/decisions/004-client-state-and-forms.md: login ≤ 200 KB,
 * every other screen ≤ 600 KB; see `bundle-budgets.ts` for what counts) and exits with 1 when a screen
 * is over budget or the manifest cannot be read. Sizes are gzip (Node's zlib, default level) of
 * each file of `dist/` (apps/web/dist unless given).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { checkBudgets, formatBudgetTable, type Manifest, screenLoads } from './bundle-budgets.ts';

const distDir = path.resolve(
  process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'),
);

function main(): boolean {
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const sizes = new Map<string, number>();
  const gzippedBytes = (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(distDir, file))).length;
      sizes.set(file, size);
    }
    return size;
  };
  const results = checkBudgets(screenLoads(manifest), gzippedBytes);
  const over = results.filter((result) => !result.passed);
  process.stdout.write(
    `\nJavaScript each screen loads (entry + route chunk + their static imports, gzipped), from ${path.relative(process.cwd(), manifestFile)}:\n\n${formatBudgetTable(results)}\n\n`,
  );
  if (over.length > 0) {
    process.stderr.write(
      `Over budget: ${over.map((result) => `${result.screen} (${result.kb} KB > ${result.budgetKb} KB)`).join(', ')}.\n` +
        'Keep heavy libraries out of the entry and the shared chunks (lazy routes, dynamic imports).\n',
    );
    return false;
  }
  process.stdout.write(`All ${results.length} screens are within their JavaScript budgets.\n`);
  return true;
}

try {
  process.exit(main() ? 0 : 1);
} catch (error) {
  process.stderr.write(
    `check-bundle-budgets: ${error instanceof Error ? error.message : String(error)} (run \`vite build\` first)\n`,
  );
  process.exit(1);
}
