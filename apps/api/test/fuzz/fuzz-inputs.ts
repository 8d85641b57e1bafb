import fc from 'fast-check';

/**
 * The hostile values the fuzzer draws from: wrong types, prototype keys, deep nesting, NUL bytes, Hangul jamo,
 * emoji, lone surrogates, huge numbers, bad percent-encodings, and bodies a byte over the 1 MiB limit.
 */

export const BODY_LIMIT = 1024 * 1024;
const NESTING = 10_000;

/** JSON text spliced in verbatim after JSON.stringify (numbers JSON.stringify cannot write, nesting, …). */
const RAW_MARK = '\u0001RAW:';
const rawValue = (text: string) => `${RAW_MARK}${text}\u0001`;
const RAW_PATTERN = /"\\u0001RAW:((?:[^\\"]|\\.)*?)\\u0001"/g;

export const DEEP_ARRAY = `${'['.repeat(NESTING)}${']'.repeat(NESTING)}`;
export const DEEP_OBJECT = `${'{"a":'.repeat(NESTING)}1${'}'.repeat(NESTING)}`;

const RAW_JSON_VALUES = [
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '123456789012345678901234567890123456789',
  '9007199254740993',
  '0.1e999999999',
  DEEP_ARRAY,
  DEEP_OBJECT,
];

/** Serialises a value built from the arbitraries below, resolving raw fragments. */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.replace(RAW_PATTERN, (_match, inner: string) => JSON.parse(`"${inner}"`) as string);
}

const codePointString = (min: number, max: number, maxLength = 20) =>
  fc.string({
    unit: fc.integer({ min, max }).map((code) => String.fromCodePoint(code)),
    minLength: 1,
    maxLength,
  });

const EMOJI = ['😀', '👩‍👩‍👧‍👦', '🇰🇷', '🏳️‍🌈', '👍🏽', '\u{1F9D1}\u200D\u{1F4BB}', '❤️', '🫠'];

export const SPECIAL_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(20),
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-0',
  '1e400',
  '9'.repeat(400),
  '0x1F',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '%00',
  '%',
  '%zz',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/dev/zero',
  '<script>alert(1)</script>',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally
  '${7*7}',
  '\r\nX-Injected: 1',
  '\ufeff',
  '\u202e',
  '\u200b',
  '\ud800',
  '\udfff',
  'a\ud800b',
  '\udbff\udfff',
  'ㄱㄴㄷ',
  '\u1100\u1161\u11a8',
  '한국어 신고 내용',
  '가'.repeat(5001),
  'x'.repeat(10_000),
  'A'.repeat(201),
  ' '.repeat(300),
  'reporter@fuzz.example',
  'REPORTER@FUZZ.EXAMPLE',
  'a@b',
  '@',
  'user@[127.0.0.1]',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '{3f1c9a52-7d4e-4b8a-9c2f-0e6d5b4a3c21}',
  '3f1c9a52-7d4e-4b8a-9c2f-0e6d5b4a3c2',
  '3f1c9a527d4e4b8a9c2f0e6d5b4a3c21',
  '3F1C9A52-7D4E-4B8A-9C2F-0E6D5B4A3C21',
  '2026-02-30',
  '0000-00-00',
  '9999-99-99T99:99:99Z',
  ...EMOJI,
];

/** Strings of every kind the fuzzer sends. */
export const weirdString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...SPECIAL_STRINGS), weight: 5 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 2 },
  { arbitrary: codePointString(0x1100, 0x11ff), weight: 1 },
  { arbitrary: codePointString(0x3130, 0x318f), weight: 1 },
  { arbitrary: codePointString(0xac00, 0xd7a3), weight: 1 },
  { arbitrary: codePointString(0xd800, 0xdfff, 4), weight: 1 },
  { arbitrary: codePointString(0, 31), weight: 1 },
  {
    arbitrary: fc
      .array(fc.constantFrom(...EMOJI, '\u0000', '가', 'a'), { minLength: 1, maxLength: 20 })
      .map((parts) => parts.join('')),
    weight: 1,
  },
);

const weirdNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1.5, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 31, -(2 ** 63)),
  fc.constantFrom(...RAW_JSON_VALUES.slice(0, 7)).map(rawValue),
);

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const keyString = fc.oneof(
  { arbitrary: fc.constantFrom(...PROTO_KEYS), weight: 3 },
  { arbitrary: weirdString, weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }), weight: 2 },
);

/** An object whose own keys may be `__proto__` and friends (defined, not assigned, so they stay keys). */
function objectFrom(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries)
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

/** Any JSON value of the wrong shape: scalars of every type, nested arrays and objects with hostile keys. */
export const weirdJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: weirdString, weight: 4 },
    { arbitrary: weirdNumber, weight: 2 },
    { arbitrary: fc.constantFrom(true, false, null), weight: 2 },
    { arbitrary: fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT).map(rawValue), weight: 1 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 1 },
    {
      arbitrary: fc.array(fc.tuple(keyString, tie('value')), { maxLength: 4 }).map(objectFrom),
      weight: 1,
    },
  ),
})).value;

/** Paths to every value inside a JSON template (the root excluded). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => [[...prefix, index], ...paths(item, [...prefix, index])]);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => [
      [...prefix, key],
      ...paths(item, [...prefix, key]),
    ]);
  return [];
}

export interface Mutation {
  op: 'replace' | 'delete' | 'addKey' | 'wrapArray';
  at: number;
  key: string;
  value: unknown;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'addKey', 'wrapArray'),
  at: fc.nat(),
  key: keyString,
  value: weirdJson,
});

/** A deep copy of the template with the mutations applied at paths chosen by index. */
export function mutate(template: unknown, mutations: readonly Mutation[]): unknown {
  let root = structuredClone(template) as unknown;
  for (const { op, at, key, value } of mutations) {
    const all = paths(root);
    if (all.length === 0 || op === 'addKey') {
      const target = all.length > 0 ? parentOf(root, all[at % all.length]!) : root;
      if (target && typeof target === 'object' && !Array.isArray(target))
        Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
      else root = value;
      continue;
    }
    const path = all[at % all.length]!;
    const parent = parentOf(root, path) as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (op === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (op === 'wrapArray') parent[last] = [parent[last]];
    else parent[last] = value;
  }
  return root;
}

function parentOf(root: unknown, path: (string | number)[]): unknown {
  let node = root as Record<string | number, unknown>;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  return node;
}

/** Prototype-pollution shapes, merged into a valid template. */
export const protoInjection = fc.constantFrom(
  '{"__proto__":{"isAdmin":true,"role":"manager"}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"prototype":{"polluted":1}}',
  '{"__proto__":null}',
  '{"a":{"__proto__":{"b":1}},"__proto__":[]}',
  '{"__proto__":{"__proto__":{"x":1}}}',
);

export function withInjectedKeys(templateJson: string, injection: string): string {
  const inner = injection.slice(1, -1);
  if (templateJson === '{}') return injection;
  if (!templateJson.startsWith('{')) return injection;
  return `{${inner},${templateJson.slice(1)}`;
}

/** Text that is not JSON, or JSON that a careless parser mishandles. */
export const badJsonText = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '}',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"a":undefined}',
    '[1,2',
    'null',
    'true',
    '"string"',
    '12345',
    '\ufeff{}',
    '{}{}',
    '{"a":1}garbage',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"a":"\\x41"}',
    '{"a":01}',
    '/* c */ {}',
    '{"a":1} // c',
    '\u0000',
    '{"__proto__":1}',
    DEEP_ARRAY,
    DEEP_OBJECT,
    `${'['.repeat(NESTING)}`,
    `{"report_type":${DEEP_ARRAY}}`,
    `{"body":${DEEP_OBJECT}}`,
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Byte sequences that are not UTF-8 at all. */
export const badUtf8 = fc.constantFrom(
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from('{"a":"\xc3\x28"}', 'latin1'),
  Buffer.from('{"a":"\xed\xa0\x80"}', 'latin1'),
  Buffer.from('{"a":"\xf0\x28\x8c\x28"}', 'latin1'),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
);

/** A JSON document of exactly `size` bytes: the template (an object) with a padding field in front. */
export function paddedJson(size: number, templateJson = '{}'): string {
  const head = '{"pad":"';
  const tail = templateJson.startsWith('{') && templateJson !== '{}' ? `",${templateJson.slice(1)}` : '"}';
  const padding = size - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return `${head}${'a'.repeat(Math.max(0, padding))}${tail}`;
}

export const ODD_CONTENT_TYPES = [
  'text/plain',
  'text/plain;charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=----x',
  'multipart/mixed; boundary=x',
  'application/xml',
  'application/octet-stream',
  'application/merge-patch+json',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json;;;',
  'application/json, text/plain',
  'application/jsonx',
  'application/*',
  '*/*',
  'json',
  '',
  ' ',
  ';',
  'image/png',
  'text/html; charset=utf-8',
  'application/json; boundary=x; charset=utf-8',
  'application/\u00e9',
];

/** Header values as Node's HTTP parser would hand them over: latin-1 text, no control characters. */
export function asHeaderValue(value: string): string {
  return (
    Buffer.from(value, 'utf8')
      .toString('latin1')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
      .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '')
  );
}

/** Every byte outside the unreserved set percent-encoded, so any string (lone surrogates too) fits a URL. */
export function percentEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Percent-sequences that do not decode to UTF-8, and other text that breaks URL decoders. */
export const BAD_URL_PARTS = [
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%u0041',
  '%F0%9F%98',
  'a%2Fb',
];
