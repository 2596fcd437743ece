import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { speedUpStyleLookup } from './style-lookup.ts';

const require = createRequire(import.meta.url);

type StackClass = {
  new (
    dictionary: object,
    defaultStyle?: object,
  ): { push(entry: unknown): void; pop(howMany?: number): void; getProperty(p: string): unknown };
  getStyleProperty(item: unknown, stack: unknown, property: string, defaultValue: unknown): unknown;
};

/** pdfmake's StyleContextStack as pdfmake ships it, loaded apart from the one the renderer changes. */
function pristineStackClass(): StackClass {
  const id = require.resolve('pdfmake/js/StyleContextStack');
  const cached = require.cache[id];
  delete require.cache[id];
  try {
    return (require(id) as { default: StackClass }).default;
  } finally {
    if (cached) require.cache[id] = cached;
    else delete require.cache[id];
  }
}

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function randomFrom(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) % n) as number;
  };
}

const PROPERTIES = ['font', 'fontSize', 'bold', 'color', 'lineHeight', 'alignment'];
const NAMES = ['title', 'small', 'muted', 'strong', 'missing', 'base'];
const VALUES = [undefined, null, 0, false, '', 'x', 12, true];

describe('speedUpStyleLookup', () => {
  it('answers every style lookup as pdfmake does', () => {
    speedUpStyleLookup();
    // The changed class is the one pdfmake loads; the original, a copy loaded apart.
    const changed = (require('pdfmake/js/StyleContextStack') as { default: StackClass }).default;
    const original = pristineStackClass();
    expect(changed).not.toBe(original);
    expect(changed.getStyleProperty.toString()).not.toBe(original.getStyleProperty.toString());

    const pick = randomFrom(20261129);
    const anyOf = <T>(values: readonly T[]) => values[pick(values.length)] as T;
    const someProperties = () =>
      Object.fromEntries(PROPERTIES.filter(() => pick(3) === 0).map((p) => [p, anyOf(VALUES)]));
    let compared = 0;
    for (let round = 0; round < 400; round++) {
      const dictionary: Record<string, object> = {};
      for (const name of NAMES.filter((n) => n !== 'missing')) {
        const extendsOf = pick(3) === 0 ? anyOf([anyOf(NAMES), [anyOf(NAMES), anyOf(NAMES)]]) : undefined;
        dictionary[name] = { ...someProperties(), ...(extendsOf ? { extends: extendsOf } : {}) };
      }
      const defaultStyle = someProperties();
      const entry = () =>
        pick(2) === 0
          ? anyOf(NAMES)
          : { ...someProperties(), ...(pick(3) === 0 ? { style: anyOf(NAMES) } : {}) };
      const item = anyOf<unknown>([
        'plain text',
        { text: 'word', ...someProperties() },
        { text: 'word', style: anyOf(NAMES), ...someProperties() },
        { text: 'word', style: [anyOf(NAMES), anyOf(NAMES)], ...someProperties() },
        { text: 'word', style: someProperties() },
        { section: {}, style: anyOf(NAMES) },
      ]);
      const stacks = [original, changed].map((stackClass) => new stackClass(dictionary, defaultStyle));
      // Entries pushed and popped between the lookups: an answer kept from before would show.
      for (let step = 0; step < 12; step++) {
        const change = pick(3);
        const pushed = entry();
        const popped = 1 + pick(2);
        for (const stack of stacks) {
          if (change === 0) stack.push(pushed);
          if (change === 1) stack.pop(popped);
        }
        for (const property of PROPERTIES) {
          const [before, after] = [original, changed].map((stackClass, i) => [
            stackClass.getStyleProperty(item, stacks[i], property, 'default'),
            stacks[i]?.getProperty(property),
          ]);
          expect(after, JSON.stringify({ dictionary, defaultStyle, item, property })).toEqual(before);
          compared += 1;
        }
      }
    }
    expect(compared).toBe(400 * 12 * PROPERTIES.length);
  });
});
