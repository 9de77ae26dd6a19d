// Calendar arithmetic on timestamps, which SQLite holds as text: `x + INTERVAL '7 days'` and
// `now() - '1 hour'::interval` (the interval already a __pg_interval(...) group from the casts)
// become __pg_add_interval(x, interval, sign); a unary minus negates the interval (before the
// operators the analysis typed take their operands: translate/typed-arithmetic.ts).
import { type Tok, endsOperand, isOp, joinTokens, operandStart } from '../tokens';

/** A unary minus before an interval (`x + - interval '1 day'`): the interval negated. */
export function negateIntervals(toks: Tok[]): Tok[] {
  for (let i = 0; i + 1 < toks.length; i++) {
    const next = toks[i + 1];
    if (
      isOp(toks[i], '-') &&
      next.type === 'group' &&
      next.text.startsWith('__pg_interval(') &&
      !endsOperand(toks[i - 1])
    ) {
      toks.splice(i, 2, { type: 'group', text: `__pg_interval(${next.text} || ' ago')` });
    }
  }
  return toks;
}

/** x + INTERVAL '7 days', now() - '1 hour'::interval: calendar arithmetic on text timestamps. */
export function rewriteIntervalArithmetic(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    if (
      (isOp(t, '+') || isOp(t, '-')) &&
      next?.type === 'group' &&
      next.text.startsWith('__pg_interval(') &&
      endsOperand(out[out.length - 1])
    ) {
      const left = out.splice(operandStart(out));
      out.push({
        type: 'group',
        text: `__pg_add_interval(${joinTokens(left)}, ${next.text}, ${isOp(t, '-') ? -1 : 1})`,
      });
      i++;
      continue;
    }

    out.push(t);
  }
  return out;
}
