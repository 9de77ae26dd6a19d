// The escapes of PostgreSQL's E'' and U&'' strings (and U&"" names), read as its scanner reads them:
// an E'' string is bytes (`E'\xc3\xa9'` is é, two bytes of UTF-8, not Ã©), a U&'' string code
// points (`U&'d\0061t\+000061'` is data). What PostgreSQL refuses (a NUL, bytes that are no UTF-8,
// a lone surrogate, a short \u) reads as null here: the lexer then keeps the literal as written,
// and PostgreSQL's parser, which reads the statement's text first, gives its own error.

const SIMPLE: Record<string, number> = { b: 8, f: 12, n: 10, r: 13, t: 9 };
const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** Whether a code point is one PostgreSQL takes from an escape (not 0, not past U+10FFFF). */
const validPoint = (cp: number) => cp > 0 && cp <= 0x10ffff;
const isHigh = (cp: number) => cp >= 0xd800 && cp <= 0xdbff;
const isLow = (cp: number) => cp >= 0xdc00 && cp <= 0xdfff;

/**
 * The value of an E'' string's body (between its quotes, `''` and `\'` still as written), or null
 * where PostgreSQL refuses it.
 */
export function escapeStringValue(body: string): string | null {
  const bytes: number[] = [];
  const push = (s: string) => bytes.push(...encoder.encode(s));
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c === "'") {
      bytes.push(39);
      i += 2;
    } else if (c !== '\\' || i + 1 >= body.length) {
      const cp = body.codePointAt(i) as number;
      push(String.fromCodePoint(cp));
      i += cp > 0xffff ? 2 : 1;
    } else {
      const e = body[i + 1];
      i += 2;
      if (e in SIMPLE) bytes.push(SIMPLE[e]);
      else if (e === 'x' && /^[0-9a-fA-F]/.test(body.slice(i))) {
        const m = (/^[0-9a-fA-F]{1,2}/.exec(body.slice(i)) as RegExpExecArray)[0];
        bytes.push(Number.parseInt(m, 16));
        i += m.length;
      } else if (/[0-7]/.test(e)) {
        const m = (/^[0-7]{0,2}/.exec(body.slice(i)) as RegExpExecArray)[0];
        bytes.push(Number.parseInt(e + m, 8) & 0xff);
        i += m.length;
      } else if (e === 'u' || e === 'U') {
        const len = e === 'u' ? 4 : 8;
        const hex = body.slice(i, i + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) return null;
        i += len;
        let cp = Number.parseInt(hex, 16);
        if (isHigh(cp)) {
          // (its low half must follow as the next escape)
          const next = /^\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))/.exec(body.slice(i));
          const low = next ? Number.parseInt(next[1] ?? next[2], 16) : -1;
          if (!next || !isLow(low)) return null;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i += next[0].length;
        } else if (isLow(cp)) return null;
        if (!validPoint(cp)) return null;
        push(String.fromCodePoint(cp));
      } else {
        // (any other character stands for itself, one of several UTF-16 units too)
        const cp = body.codePointAt(i - 1) as number;
        push(String.fromCodePoint(cp));
        if (cp > 0xffff) i++;
      }
    }
  }
  if (bytes.includes(0)) return null;
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

/**
 * The value of a U&'' string's or U&"" name's body (its doubled quotes still as written, `quote` the
 * quote character) with `esc` its escape character, or null where PostgreSQL refuses it.
 */
export function unicodeStringValue(body: string, quote: string, esc = '\\'): string | null {
  if (!validEscapeCharacter(esc)) return null;
  let out = '';
  let i = 0;
  let high = -1; // a high surrogate waiting for its low half
  while (i < body.length) {
    const c = body[i];
    if (c === quote) {
      if (high >= 0) return null;
      out += quote;
      i += 2;
      continue;
    }
    if (c !== esc) {
      if (high >= 0) return null;
      out += c;
      i++;
      continue;
    }
    if (body[i + 1] === esc) {
      if (high >= 0) return null;
      out += esc;
      i += 2;
      continue;
    }
    const m = /^(?:([0-9a-fA-F]{4})|\+([0-9a-fA-F]{6}))/.exec(body.slice(i + 1));
    if (!m) return null;
    const cp = Number.parseInt(m[1] ?? m[2], 16);
    i += 1 + m[0].length;
    if (high >= 0) {
      if (!isLow(cp)) return null;
      out += String.fromCodePoint(0x10000 + ((high - 0xd800) << 10) + (cp - 0xdc00));
      high = -1;
    } else if (isHigh(cp)) high = cp;
    else if (isLow(cp) || !validPoint(cp)) return null;
    else out += String.fromCodePoint(cp);
  }
  return high >= 0 ? null : out;
}

/** PostgreSQL's test of a UESCAPE character: one character, not a hex digit, +, a quote or a space. */
function validEscapeCharacter(c: string): boolean {
  return [...c].length === 1 && !/[0-9a-fA-F+'"\s]/.test(c);
}
