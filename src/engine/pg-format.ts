// PostgreSQL's format(formatstr, args...) (varlena.c's text_format): `%[n$][-][width]type` with the
// types s (the value as text, NULL as ''), I (an identifier, quoted when it needs to be; NULL is
// 22004) and L (a literal, NULL as NULL), `%%`; the width a number, `*` (the next argument) or
// `*n$`, a negative one or `-` padding on the right. SQLite's own format() is printf, which has no
// %I or %L (they printed nothing) and reads its arguments differently, so the PG front end calls this
// one as __pg_format (and the catalog's connection as format).
import { sqlStateError } from '../errors';
import { QUOTED_KEYWORDS } from './pg-keywords';

const SPEC = /%(?:(\d+)\$)?(-)?(?:(\d+)|\*(?:(\d+)\$)?)?([sIL%]|.?)/gs;

export function pgFormat(fmt: unknown, args: unknown[]): string | null {
  if (fmt === null || fmt === undefined) return null;
  let next = 0;
  const arg = (pos: string | undefined) => {
    const i = pos !== undefined ? Number(pos) - 1 : next;
    if (pos !== undefined && i < 0)
      throw sqlStateError('22023', 'format specifies argument 0, but arguments are numbered from 1');
    if (i >= args.length) throw sqlStateError('22023', 'too few arguments for format()');
    next = i + 1;
    return args[i];
  };
  return String(fmt).replace(SPEC, (m, pos: string | undefined, minus, width, starPos, kind: string) => {
    if (m === '%%') return '%';
    if (kind === '') throw sqlStateError('22023', 'unterminated format() type specifier');
    if (!'sIL'.includes(kind)) throw sqlStateError('22023', `unrecognized format() type specifier "${kind}"`);
    let w = 0;
    let left = !!minus;
    if (width !== undefined) w = Number(width);
    else if (m.includes('*')) {
      const v = arg(starPos);
      const n = v === null ? 0 : Number(v);
      if (n < 0) left = true;
      w = Math.abs(n);
    }
    const v = arg(pos);
    let text: string;
    if (kind === 's') text = v === null ? '' : String(v);
    else if (kind === 'I') {
      if (v === null) throw sqlStateError('22004', 'null values cannot be formatted as an SQL identifier');
      text = quoteIdent(String(v));
    } else text = v === null ? 'NULL' : quoteLiteral(String(v));
    const len = [...text].length;
    if (len >= w) return text;
    return left ? text + ' '.repeat(w - len) : ' '.repeat(w - len) + text;
  });
}

/**
 * An identifier as PostgreSQL's quote_ident() writes it: bare when it is lower-case letters, digits
 * and underscores, not starting with a digit, and no keyword but an unreserved one (`select` and
 * `a$b` are quoted there; they were bare).
 */
export function quoteIdent(x: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(x) && !QUOTED_KEYWORDS.has(x) ? x : `"${x.replace(/"/g, '""')}"`;
}

/** A literal as quote_literal() writes it: E'...' when it holds a backslash (doubled). */
export function quoteLiteral(x: string): string {
  const body = x.replace(/'/g, "''");
  return x.includes('\\') ? `E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`;
}
