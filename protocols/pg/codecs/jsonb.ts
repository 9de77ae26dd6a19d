// jsonb's text as PostgreSQL prints it: keys sorted (shorter first, then by bytes) with the last of
// duplicates kept, ', ' and ': ' between items, numbers as numeric prints them ('2e2' is 200),
// strings re-escaped. The stored text is what the client sent; this is how it reads back.
import { decimalText, parseDecimal } from './numeric';

type Json = null | boolean | { num: string } | string | Json[] | Map<string, Json>;

/** Reads JSON keeping each number's text; throws on anything else. */
function parse(s: string): Json {
  let i = 0;
  const space = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`invalid JSON at ${i}`);
  };
  const value = (): Json => {
    space();
    const c = s[i];
    if (c === '{') {
      i++;
      const m = new Map<string, Json>();
      space();
      if (s[i] === '}') return (i++, m);
      for (;;) {
        space();
        if (s[i] !== '"') fail();
        const k = string();
        space();
        if (s[i++] !== ':') fail();
        m.delete(k); // the last of duplicate keys wins
        m.set(k, value());
        space();
        if (s[i] === '}') return (i++, m);
        if (s[i++] !== ',') fail();
      }
    }
    if (c === '[') {
      i++;
      const a: Json[] = [];
      space();
      if (s[i] === ']') return (i++, a);
      for (;;) {
        a.push(value());
        space();
        if (s[i] === ']') return (i++, a);
        if (s[i++] !== ',') fail();
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const)
      if (s.startsWith(word, i)) return ((i += word.length), v);
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(s.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
    return { num: m![0] };
  };
  const string = (): string => {
    const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(s.slice(i));
    if (!m) fail();
    i += m![0].length;
    return JSON.parse(m![0]) as string;
  };
  const v = value();
  space();
  if (i !== s.length) fail();
  return v;
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function quote(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what gets escaped
  return `"${s.replace(/["\\\u0000-\u001f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function byKey(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length - y.length || Buffer.compare(x, y);
}

function print(v: Json): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return quote(v);
  if (Array.isArray(v)) return `[${v.map(print).join(', ')}]`;
  if (v instanceof Map)
    return `{${[...v.keys()]
      .sort(byKey)
      .map((k) => `${quote(k)}: ${print(v.get(k)!)}`)
      .join(', ')}}`;
  return decimalText(parseDecimal(v.num)!);
}

/** jsonb's text of JSON text; null when it is no JSON. */
export function jsonbText(s: string): string | null {
  try {
    return print(parse(s));
  } catch {
    return null;
  }
}
