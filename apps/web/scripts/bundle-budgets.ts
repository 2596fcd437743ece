/**
 * The JavaScript budgets of the screens (docs/decisions/004-client-state-and-forms.md): the login screen loads at most
 * 200 KB of gzipped JavaScript, every other screen at most 600 KB. What a screen loads is read from
 * Vite's build manifest (`dist/.vite/manifest.json`, https://vite.dev/guide/backend-integration):
 * the entry chunk and everything it imports statically, plus the screen's lazy route chunk and its
 * static imports, plus, for the signed-in screens, the lazy signed-in layout and its static imports.
 * Dynamic imports are not followed: they load only when something asks for them.
 *
 * Pure functions (no file access), so that the walk is tested; `check-bundle-budgets.ts` is the command.
 */

/** One chunk of Vite's manifest, keyed by its source path (`src/...`), `index.html` or `_<file>`. */
export type ManifestChunk = {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  /** Manifest keys of the chunks it imports statically (loaded with it). */
  imports?: string[];
  /** Manifest keys of the chunks it imports on demand (not loaded with it). */
  dynamicImports?: string[];
  css?: string[];
};

/** Vite's `dist/.vite/manifest.json`. */
export type Manifest = Record<string, ManifestChunk>;

/** Where the screens' lazy chunks come from (apps/web/src/app/router.tsx). */
export const ROUTES_DIR = 'src/app/routes/';
/** The signed-in layout, lazy in the router; loaded by every screen but the public ones. */
export const SIGNED_IN_LAYOUT = 'src/app/layout/app-layout.tsx';
/** The screens shown without a session (public layout, no signed-in layout). */
export const PUBLIC_SCREENS: readonly string[] = ['login', 'password-reset', 'password-reset-confirm'];

/** Budgets in KB (1 KB = 1024 bytes) of gzipped JavaScript, by screen; `default` for the others. */
export type Budgets = { default: number } & Record<string, number>;

/** Login ≤ 200 KB, no screen more than 600 KB. */
export const BUDGETS_KB: Budgets = { default: 600, login: 200 };

/** What one screen loads: its name (the route file's base name) and the files of its chunks. */
export type ScreenLoad = { screen: string; files: string[] };

/** One line of the budget table. */
export type BudgetResult = {
  screen: string;
  /** Gzipped JavaScript in KB, rounded to 0.1. */
  kb: number;
  budgetKb: number;
  chunks: number;
  passed: boolean;
};

/**
 * The manifest keys of `keys` and of every chunk they import statically, recursively (each once).
 * Throws when a key is not in the manifest (a manifest from another build).
 */
export function staticClosure(manifest: Manifest, keys: readonly string[]): string[] {
  const seen = new Set<string>();
  const pending = [...keys];
  for (let key = pending.pop(); key !== undefined; key = pending.pop()) {
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no chunk "${key}".`);
    seen.add(key);
    pending.push(...(chunk.imports ?? []));
  }
  return [...seen];
}

/**
 * What every screen loads, in the order of its name: entry + route chunk (+ signed-in layout unless
 * public), each with its static imports; files only (`.js`), each once.
 * Throws when the manifest has no entry or no route chunk (not a build of this client).
 */
export function screenLoads(manifest: Manifest): ScreenLoad[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('The build manifest has no entry chunk.');
  const routeKeys = Object.keys(manifest)
    .filter((key) => manifest[key]?.isDynamicEntry && key.startsWith(ROUTES_DIR))
    .sort();
  if (routeKeys.length === 0) throw new Error(`The build manifest has no route chunk under ${ROUTES_DIR}.`);
  // A static layout is in the entry's imports already: nothing more to add.
  const layout = manifest[SIGNED_IN_LAYOUT] ? [SIGNED_IN_LAYOUT] : [];
  return routeKeys.map((key) => {
    const screen = key.slice(ROUTES_DIR.length).replace(/\.[cm]?[jt]sx?$/, '');
    const roots = [entry, key, ...(PUBLIC_SCREENS.includes(screen) ? [] : layout)];
    const files = staticClosure(manifest, roots)
      .map((chunkKey) => manifest[chunkKey]?.file ?? '')
      .filter((file) => file.endsWith('.js'));
    return { screen, files: [...new Set(files)] };
  });
}

/**
 * Each screen's gzipped JavaScript against its budget. `gzippedBytes(file)` gives the gzipped size
 * of one file of `dist/`. Throws when a budget names a screen that the build does not have (a renamed
 * route must not silently escape its budget).
 */
export function checkBudgets(
  loads: readonly ScreenLoad[],
  gzippedBytes: (file: string) => number,
  budgets: Budgets = BUDGETS_KB,
): BudgetResult[] {
  for (const screen of Object.keys(budgets)) {
    if (screen !== 'default' && !loads.some((load) => load.screen === screen))
      throw new Error(`A budget is set for the screen "${screen}", which the build does not have.`);
  }
  return loads.map(({ screen, files }) => {
    const bytes = files.reduce((total, file) => total + gzippedBytes(file), 0);
    const kb = Math.round((bytes / 1024) * 10) / 10;
    const budgetKb = budgets[screen] ?? budgets.default;
    return { screen, kb, budgetKb, chunks: files.length, passed: bytes <= budgetKb * 1024 };
  });
}

/** The results as a Markdown table: screen, KB gzipped, budget, chunks, pass/FAIL. */
export function formatBudgetTable(results: readonly BudgetResult[]): string {
  const header = ['screen', 'JS KB gzipped', 'budget KB', 'chunks', 'result'];
  const cells = results.map((result) => [
    result.screen,
    result.kb.toFixed(1),
    String(result.budgetKb),
    String(result.chunks),
    result.passed ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => (line[column] ?? '').length)),
  );
  const line = (values: string[]) =>
    `| ${values.map((value, index) => (index === 0 || index === 4 ? value.padEnd(widths[index] ?? 0) : value.padStart(widths[index] ?? 0))).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
