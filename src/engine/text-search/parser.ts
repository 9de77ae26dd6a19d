// PostgreSQL's default text search parser (wparser_def.c), as far as its token types go: words
// (asciiword, word, numword), hyphenated words and their parts, numbers (uint, int, float, sfloat,
// version), emails, hosts, URLs and their paths, file paths, and the tags, entities, protocols and
// blanks that no configuration indexes. PostgreSQL's is a character state machine; this reads the
// same shapes with patterns tried in its order of preference, each token taken at its longest.

export type TokenType =
  | 'asciiword'
  | 'word'
  | 'numword'
  | 'asciihword'
  | 'hword'
  | 'numhword'
  | 'hword_asciipart'
  | 'hword_part'
  | 'hword_numpart'
  | 'email'
  | 'protocol'
  | 'url'
  | 'host'
  | 'url_path'
  | 'file'
  | 'sfloat'
  | 'float'
  | 'int'
  | 'uint'
  | 'version'
  | 'tag'
  | 'entity'
  | 'blank';

export interface Token {
  type: TokenType;
  text: string;
}

const LABEL = '[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?';
/** A host: dotted labels ending in a top-level name of two letters or more. */
const HOST = `(?:${LABEL}\\.)+[A-Za-z]{2,}(?![A-Za-z0-9])`;
const RE = {
  // a tag's name, then attributes (a name, maybe = and a value, quoted or not)
  tag: /^<[/?]?[A-Za-z][A-Za-z0-9_:.-]*(?:\s+[A-Za-z0-9_:.-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=]+))?)*\s*[/?]?>|^<!--[\s\S]*?-->/,
  entity: /^&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/,
  protocol: /^[A-Za-z][A-Za-z0-9+.-]*:\/\//,
  email: new RegExp(`^[A-Za-z0-9_.-]+@${HOST}`),
  host: new RegExp(`^${HOST}(?::[0-9]+)?`),
  // any printable ASCII but " < > \\ ^ ` { | } (p_isurlchar, RFC 3986)
  urlPath: /^\/[!#-;=?-[\]_a-z~]*/,
  version: /^[0-9]+(?:\.[0-9]+){2,}/,
  sfloat: /^[+-]?[0-9]+(?:\.[0-9]+)?[eE][+-]?[0-9]+/,
  float: /^[+-]?[0-9]+\.[0-9]+/,
  int: /^[+-][0-9]+/,
  uint: /^[0-9]+/,
  // dotted names (a.b, v1.2) and paths (a/b, /usr/lib/x-y, ~/x): no - before the first / (x-y/z is a
  // hyphenated word and the path /z), no // and no .. (v1.8.33...v1.8.34 is two)
  file: /^(?:[A-Za-z0-9_~](?:[A-Za-z0-9_~]|\.(?!\.))*|(?=\/[A-Za-z0-9_.~-]))(?:\/(?:[A-Za-z0-9_~-]|\.(?!\.))+)*/,
  part: /^(?:(?![\uFE00-\uFE0F])[\p{L}\p{M}0-9])+/u,
};
// (letters as iswalpha has them: a word goes on through combining marks, not an emoji's variation selector)
const LETTER = /^\p{L}/u;
const WORDISH = /^[\p{L}0-9]/u;

const partType = (p: string): 'num' | 'ascii' | 'other' =>
  /[0-9]/.test(p) ? 'num' : /^[A-Za-z]+$/.test(p) ? 'ascii' : 'other';

/** The tokens of `text`, blanks included (ts_debug's order: a compound before its parts). */
export function parseText(text: string): Token[] {
  const out: Token[] = [];
  let blank = '';
  const push = (type: TokenType, t: string) => {
    if (blank) out.push({ type: 'blank', text: blank });
    blank = '';
    out.push({ type, text: t });
  };
  let i = 0;
  let afterHyphenated = -1; // where the last hyphenated word ended
  while (i < text.length) {
    const rest = text.slice(i);
    const c = rest[0];
    let m: RegExpExecArray | null;
    if (c === '<' && (m = RE.tag.exec(rest))) {
      push('tag', m[0]);
      i += m[0].length;
      continue;
    }
    if (c === '&' && (m = RE.entity.exec(rest))) {
      push('entity', m[0]);
      i += m[0].length;
      continue;
    }
    const startsWord = WORDISH.test(c);
    if (startsWord && (m = RE.protocol.exec(rest))) {
      push('protocol', m[0]);
      i += m[0].length;
      continue;
    }
    if (startsWord && (m = RE.email.exec(rest))) {
      push('email', m[0]);
      i += m[0].length;
      continue;
    }
    if (startsWord && (m = RE.host.exec(rest))) {
      const path = RE.urlPath.exec(rest.slice(m[0].length));
      if (path && path[0].length > 1) {
        push('url', m[0] + path[0]);
        push('host', m[0]);
        push('url_path', path[0]);
        i += m[0].length + path[0].length;
      } else {
        push('host', m[0]);
        i += m[0].length;
      }
      continue;
    }
    // (a path of digits is a file: 1/2; a sign before a version, or a - after a hyphenated word, is a
    // blank: -6.1.0, with-data-2012)
    const signed = (c === '-' || c === '+') && (RE.version.test(rest.slice(1)) || (c === '-' && afterHyphenated === i));
    const digit = /^[+-]?[0-9]/.test(rest) && !signed && !(/^[0-9]/.test(c) && RE.file.exec(rest)?.[0].includes('/'));
    if (digit) {
      const num = (['version', 'sfloat', 'float', 'int', 'uint'] as const)
        .map((t) => [t, RE[t].exec(rest)?.[0]] as const)
        .find(([, s]) => s !== undefined);
      // digits followed by letters are a word (123abc is a numword)
      if (num?.[1] && !(num[0] === 'uint' && LETTER.test(rest.slice(num[1].length)))) {
        push(num[0], num[1]);
        i += num[1].length;
        continue;
      }
    }
    // (a path at the very start may begin with ./ or ../)
    const dots = i === 0 ? (/^\.\.?(?=\/)/.exec(rest)?.[0] ?? '') : '';
    if ((startsWord || c === '/' || dots) && (m = RE.file.exec(rest.slice(dots.length)))) {
      const f = dots + m[0].replace(/[./-]+$/, '');
      if ((f.includes('/') || f.includes('.')) && /[A-Za-z0-9_]/.test(f) && !LETTER.test(rest[f.length] ?? '')) {
        push('file', f);
        i += f.length;
        continue;
      }
    }
    if (startsWord) {
      const parts = [RE.part.exec(rest)![0]];
      let len = parts[0].length;
      // hyphenated: each part has a letter (x-1 is x and the int -1; 1b-2c is one word)
      for (;;) {
        const p = rest[len] === '-' ? RE.part.exec(rest.slice(len + 1))?.[0] : undefined;
        if (!p || !/\p{L}/u.test(p) || !/\p{L}/u.test(parts[0])) break;
        parts.push(p);
        len += 1 + p.length;
      }
      const kinds = parts.map(partType);
      if (parts.length === 1) {
        push(kinds[0] === 'num' ? 'numword' : kinds[0] === 'ascii' ? 'asciiword' : 'word', parts[0]);
      } else {
        const whole = kinds.includes('num') ? 'numhword' : kinds.every((k) => k === 'ascii') ? 'asciihword' : 'hword';
        push(whole, rest.slice(0, len));
        parts.forEach((p, k) => {
          if (k > 0) blank += '-';
          push(kinds[k] === 'num' ? 'hword_numpart' : kinds[k] === 'ascii' ? 'hword_asciipart' : 'hword_part', p);
        });
      }
      i += len;
      if (parts.length > 1) afterHyphenated = i;
      continue;
    }
    blank += c;
    i += c.length;
  }
  if (blank) out.push({ type: 'blank', text: blank });
  return out;
}
