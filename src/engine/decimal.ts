// Decimal numbers as text, exactly: what PostgreSQL's numeric reads and prints (also jsonb's numbers).

/** A decimal as its parts: sign, integer digits without leading zeros, fraction digits (their count is the scale). */
export interface Decimal {
  neg: boolean;
  int: string;
  frac: string;
  special?: 'NaN' | 'Infinity' | '-Infinity';
}

const DECIMAL_RE = /^\s*([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/** Reads numeric input text ('1.50', '-1e30', ' NaN ', 'Infinity'); null when it is no number. */
export function parseDecimal(s: string): Decimal | null {
  const m = DECIMAL_RE.exec(s);
  if (!m) {
    const w = s.trim().toLowerCase();
    if (w === 'nan') return { neg: false, int: '', frac: '', special: 'NaN' };
    if (w === 'infinity' || w === '+infinity' || w === 'inf' || w === '+inf')
      return { neg: false, int: '', frac: '', special: 'Infinity' };
    if (w === '-infinity' || w === '-inf') return { neg: true, int: '', frac: '', special: '-Infinity' };
    return null;
  }
  const intDigits = m[2];
  const fracDigits = m[3] ?? '';
  if (intDigits === '' && fracDigits === '') return null;
  const exp = m[4] ? Number(m[4]) : 0;
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 1000) return null;
  let int = intDigits;
  let frac = fracDigits;
  if (exp > 0) {
    const moved = frac.slice(0, exp).padEnd(exp, '0');
    int += moved;
    frac = frac.slice(exp);
  } else if (exp < 0) {
    const k = -exp;
    const padded = int.padStart(k, '0');
    frac = padded.slice(padded.length - k) + frac;
    int = padded.slice(0, padded.length - k);
  }
  int = int.replace(/^0+/, '');
  return { neg: m[1] === '-', int, frac };
}

export const isZero = (d: Decimal) => !/[1-9]/.test(d.int) && !/[1-9]/.test(d.frac);

/** PostgreSQL's text of a decimal. */
export function decimalText(d: Decimal): string {
  if (d.special) return d.special;
  const body = (d.int || '0') + (d.frac ? '.' + d.frac : '');
  return d.neg && !isZero(d) ? '-' + body : body;
}
