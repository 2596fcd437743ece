import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A style: property values, and the named styles it `extends` (read from the last one). */
type Style = Record<string, unknown> & { extends?: string | string[] };
/** One entry of pdfmake's style stack: a style name, or a node whose own properties override. */
type StyleOverride = string | (Record<string, unknown> & { style?: unknown; section?: unknown });
/** pdfmake's StyleContextStack: the styles in force where a node is laid out, innermost last. */
type StyleStack = {
  styleDictionary: Record<string, Style | undefined>;
  defaultStyle: Record<string, unknown> | undefined;
  styleOverrides: StyleOverride[] | undefined;
  /** What getProperty answered since the stack last changed, by property (see speedUpStyleLookup). */
  answers?: Map<string, unknown> | undefined;
  getProperty(property: string): unknown;
  push(entry: StyleOverride): void;
  pop(howMany?: number): void;
};
type StyleStackClass = {
  prototype: StyleStack;
  getStyleProperty(
    item: unknown,
    stack: StyleStack | undefined,
    property: string,
    defaultValue: unknown,
  ): unknown;
};

const isValue = (value: unknown) => value !== undefined && value !== null;
const isString = (value: unknown): value is string => typeof value === 'string' || value instanceof String;

/** The value of `property` in the named style `name` or the styles it extends, as pdfmake reads it. */
function namedStyleValue(
  dictionary: StyleStack['styleDictionary'],
  name: string,
  property: string,
  visited?: Set<string>,
): unknown {
  if (visited?.has(name)) return undefined;
  const style = dictionary[name];
  if (!style) return undefined;
  const value = style[property];
  if (isValue(value)) return value;
  if (!style.extends) return undefined;
  const seen = visited ?? new Set<string>();
  seen.add(name);
  const parents = Array.isArray(style.extends) ? style.extends : [style.extends];
  for (let i = parents.length - 1; i >= 0; i--) {
    const inherited = namedStyleValue(dictionary, parents[i] as string, property, seen);
    if (isValue(inherited)) return inherited;
  }
  return undefined;
}

/** The value of `property` in one entry of the stack, undefined when that entry leaves it alone. */
function overrideValue(stack: StyleStack, override: StyleOverride, property: string): unknown {
  return isString(override)
    ? namedStyleValue(stack.styleDictionary, String(override), property)
    : override[property];
}

/** pdfmake's StyleContextStack#getProperty, the same answers without a closure and a Set per call. */
function lookUp(stack: StyleStack, property: string): unknown {
  const overrides = stack.styleOverrides;
  if (overrides) {
    for (let i = overrides.length - 1; i >= 0; i--) {
      const value = overrideValue(stack, overrides[i] as StyleOverride, property);
      if (isValue(value)) return value;
    }
  }
  return stack.defaultStyle?.[property];
}

/** {@link lookUp}, answered once for each property until the stack changes. */
function getProperty(this: StyleStack, property: string): unknown {
  this.answers ??= new Map();
  if (this.answers.has(property)) return this.answers.get(property);
  const value = lookUp(this, property);
  this.answers.set(property, value);
  return value;
}

/**
 * pdfmake's StyleContextStack.getStyleProperty: the item's own value, else its styles' (the last named
 * first), else the stack's, else `defaultValue`. pdfmake pushed the item and its styles on the stack
 * and popped them again for each of the twenty-odd properties of every word; these are read in place.
 */
function getStyleProperty(
  item: unknown,
  stack: StyleStack | undefined,
  property: string,
  defaultValue: unknown,
) {
  const node = item as StyleOverride;
  // Read on a string too, as pdfmake does (where "bold" is String.prototype.bold).
  const own = (node as unknown as Record<string, unknown>)[property];
  if (isValue(own)) return own;
  if (!stack) return defaultValue;
  if (!isString(node) && node.section === undefined && node.style) {
    const names = (Array.isArray(node.style) ? node.style : [node.style]) as StyleOverride[];
    for (let i = names.length - 1; i >= 0; i--) {
      const value = overrideValue(stack, names[i] as StyleOverride, property);
      if (isValue(value)) return value;
    }
  }
  const value = stack.getProperty(property);
  return isValue(value) ? value : defaultValue;
}

/**
 * Makes pdfmake's style lookups cheaper, answers unchanged: they were a tenth of a receipt's rendering
 * (every word of a text asks for its font, size, colour and twenty other properties). The words of a
 * text are looked up without being pushed on the stack, and the stack keeps its answers until an
 * entry is pushed or popped. pdfmake writes a style property on a node of the stack only with the
 * value the stack gives for it (a text's `font`), so a kept answer stays right. Called once, when
 * pdfmake is first loaded.
 */
export function speedUpStyleLookup() {
  const stackClass = (require('pdfmake/js/StyleContextStack') as { default: StyleStackClass }).default;
  if (stackClass.getStyleProperty === getStyleProperty) return;
  const { push, pop } = stackClass.prototype;
  stackClass.prototype.push = function (entry) {
    this.answers = undefined;
    push.call(this, entry);
  };
  stackClass.prototype.pop = function (howMany) {
    this.answers = undefined;
    pop.call(this, howMany);
  };
  stackClass.prototype.getProperty = getProperty;
  stackClass.getStyleProperty = getStyleProperty;
}
