import { describe, expect, it } from 'vitest';
import {
  checkBudgets,
  formatBudgetTable,
  type Manifest,
  SIGNED_IN_LAYOUT,
  screenLoads,
  staticClosure,
} from './bundle-budgets.ts';

/** A manifest shaped like Vite's: entry, two public and two signed-in screens, a lazy layout. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js', '_core.js'],
    dynamicImports: ['src/app/routes/login.tsx', 'src/app/routes/home.tsx', SIGNED_IN_LAYOUT],
    css: ['assets/index.css'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_core.js': { file: 'assets/core.js', imports: ['_react.js'] },
  '_form.js': { file: 'assets/form.js', imports: ['_core.js'] },
  '_charts.js': { file: 'assets/charts.js', imports: ['_core.js', '_react.js'] },
  '_menu.js': { file: 'assets/menu.js', imports: ['_core.js'] },
  '_table.js': { file: 'assets/table.js', imports: ['_core.js'] },
  '_styles.css': { file: 'assets/styles.css' },
  [SIGNED_IN_LAYOUT]: {
    file: 'assets/app-layout.js',
    isDynamicEntry: true,
    imports: ['_menu.js', 'index.html', '_styles.css'],
  },
  'src/app/routes/login.tsx': {
    file: 'assets/login.js',
    isDynamicEntry: true,
    imports: ['_form.js', 'index.html'],
  },
  'src/app/routes/password-reset.tsx': {
    file: 'assets/password-reset.js',
    isDynamicEntry: true,
    imports: ['_form.js'],
  },
  'src/app/routes/home.tsx': {
    file: 'assets/home.js',
    isDynamicEntry: true,
    imports: ['_charts.js'],
    // Loaded only when the user asks for it: not part of the screen's load.
    dynamicImports: ['src/app/routes/subscribers.tsx'],
  },
  'src/app/routes/subscribers.tsx': {
    file: 'assets/subscribers.js',
    isDynamicEntry: true,
    imports: ['_table.js', '_form.js'],
  },
  'src/components/not-a-route.tsx': { file: 'assets/not-a-route.js', isDynamicEntry: true },
};

const filesOf = (screen: string) =>
  [...(screenLoads(manifest).find((load) => load.screen === screen)?.files ?? [])].sort();

describe('staticClosure', () => {
  it('follows static imports recursively, each chunk once, and not dynamic imports', () => {
    expect(staticClosure(manifest, ['src/app/routes/home.tsx']).sort()).toEqual([
      '_charts.js',
      '_core.js',
      '_react.js',
      'src/app/routes/home.tsx',
    ]);
  });

  it('throws on a key the manifest does not have', () => {
    expect(() => staticClosure(manifest, ['_gone.js'])).toThrow(
      'The build manifest has no chunk "_gone.js".',
    );
  });
});

describe('screenLoads', () => {
  it('lists every route chunk under src/app/routes by its file name', () => {
    expect(screenLoads(manifest).map((load) => load.screen)).toEqual([
      'home',
      'login',
      'password-reset',
      'subscribers',
    ]);
  });

  it('gives a public screen the entry and its route with their imports, without the signed-in layout', () => {
    expect(filesOf('login')).toEqual([
      'assets/core.js',
      'assets/form.js',
      'assets/index.js',
      'assets/login.js',
      'assets/react.js',
    ]);
  });

  it('adds the signed-in layout and its imports to the other screens, and leaves out CSS', () => {
    expect(filesOf('subscribers')).toEqual([
      'assets/app-layout.js',
      'assets/core.js',
      'assets/form.js',
      'assets/index.js',
      'assets/menu.js',
      'assets/react.js',
      'assets/subscribers.js',
      'assets/table.js',
    ]);
  });

  it('adds nothing for the layout when it is built into the entry', () => {
    const { [SIGNED_IN_LAYOUT]: _layout, ...withoutLazyLayout } = manifest;
    const home = screenLoads(withoutLazyLayout).find((load) => load.screen === 'home');
    expect(home?.files.sort()).toEqual([
      'assets/charts.js',
      'assets/core.js',
      'assets/home.js',
      'assets/index.js',
      'assets/react.js',
    ]);
  });

  it('refuses a manifest without an entry or without route chunks', () => {
    expect(() => screenLoads({ '_a.js': { file: 'assets/a.js' } })).toThrow('no entry chunk');
    expect(() => screenLoads({ 'index.html': { file: 'assets/index.js', isEntry: true } })).toThrow(
      'no route chunk under src/app/routes/',
    );
  });
});

describe('checkBudgets', () => {
  // 10 KB per file, 100 KB for charts.
  const gzippedBytes = (file: string) => (file.includes('charts') ? 100 : 10) * 1024;

  it('sums the gzipped files of each screen and compares with its budget or the default one', () => {
    const results = checkBudgets(screenLoads(manifest), gzippedBytes, { default: 120, login: 50 });
    expect(results).toEqual([
      { screen: 'home', kb: 160, budgetKb: 120, chunks: 7, passed: false },
      { screen: 'login', kb: 50, budgetKb: 50, chunks: 5, passed: true },
      { screen: 'password-reset', kb: 50, budgetKb: 120, chunks: 5, passed: true },
      { screen: 'subscribers', kb: 80, budgetKb: 120, chunks: 8, passed: true },
    ]);
  });

  it('fails a screen one byte over its budget', () => {
    const [login] = checkBudgets(
      screenLoads(manifest).filter((load) => load.screen === 'login'),
      (file) => (file === 'assets/login.js' ? 10 * 1024 + 1 : 10 * 1024),
      { default: 600, login: 50 },
    );
    expect(login).toMatchObject({ kb: 50, passed: false });
  });

  it('refuses a budget for a screen the build does not have', () => {
    expect(() => checkBudgets(screenLoads(manifest), gzippedBytes, { default: 600, signin: 200 })).toThrow(
      'A budget is set for the screen "signin", which the build does not have.',
    );
  });
});

describe('formatBudgetTable', () => {
  it('prints one line per screen with its size, budget and result', () => {
    const table = formatBudgetTable([
      { screen: 'login', kb: 183.4, budgetKb: 200, chunks: 19, passed: true },
      { screen: 'home', kb: 612, budgetKb: 600, chunks: 28, passed: false },
    ]).split('\n');
    expect(table).toEqual([
      '| screen | JS KB gzipped | budget KB | chunks | result |',
      '| ------ | ------------- | --------- | ------ | ------ |',
      '| login  |         183.4 |       200 |     19 | pass   |',
      '| home   |         612.0 |       600 |     28 | FAIL   |',
    ]);
  });
});
