// Whether a reference is a whole item of a select list, for passes that replace a column reference
// with an expression (translate/function-columns.ts, translate/lateral-json.ts): such an item then
// needs `AS name` to keep the column's name (`SELECT s.r FROM (...)` is still a column r to the
// query around it).
import { type Tok, identText, isPunct, isWord } from '../tokens';

export class SelectItems {
  /** Per parenthesis depth: whether the tokens there are a select list. */
  readonly #lists: boolean[] = [false];

  /** Follows toks[i] (call for every token, in order). */
  step(toks: readonly Tok[], i: number): void {
    const t = toks[i];
    if (isPunct(t, '(')) this.#lists.push(isWord(toks[i + 1], 'SELECT'));
    else if (isPunct(t, ')')) this.#lists.length > 1 && this.#lists.pop();
    else if (isWord(t, 'SELECT')) this.#lists[this.#lists.length - 1] = true;
    else if (isWord(t, 'FROM')) this.#lists[this.#lists.length - 1] = false;
  }

  /** Whether the token last stepped over is in a select list (not in a call or subquery inside it). */
  inList(): boolean {
    return this.#lists[this.#lists.length - 1];
  }

  /** `AS "name"` when toks[i, i + n) is a whole select item, else nothing. */
  keepName(toks: readonly Tok[], i: number, n: number, name: string): Tok[] {
    const whole =
      this.#lists[this.#lists.length - 1] &&
      (isWord(toks[i - 1], 'SELECT') || isWord(toks[i - 1], 'DISTINCT') || isPunct(toks[i - 1], ',')) &&
      (isPunct(toks[i + n], ',') || isWord(toks[i + n], 'FROM') || i + n >= toks.length);
    return whole
      ? [
          { type: 'word', text: 'AS' },
          { type: 'quoted', text: `"${name.replace(/"/g, '""')}"` },
        ]
      : [];
  }
}

/**
 * A pass's column references of a FROM item whose columns it renames (translate/ordinality.ts,
 * rows-from.ts): `x.name` as `x.<qualified(x, name)>`, and a bare `name` as `alias.column` of
 * bare(name) unless a schema table the statement names has such a column (the table's, as the
 * statement meant it); a whole select item keeps its name. `special` sees each token first: it
 * writes what it makes of it and returns the index of its last token, or undefined.
 */
export function renameReferences<T extends Tok>(
  toks: readonly T[],
  qualified: (alias: string, name: string) => string | undefined,
  bare: (name: string) => { alias: T; column: string } | undefined,
  hasColumn: (table: string, column: string) => boolean,
  special?: (i: number, out: T[]) => number | undefined,
): T[] {
  const named = new Set(toks.filter((t) => t.type === 'word' || t.type === 'quoted').map(identText));
  const isColumn = (column: string) => [...named].some((table) => hasColumn(table, column));
  const word = (text: string) => ({ type: 'word', text }) as T;
  const dot = { type: 'punct', text: '.' } as T;
  const items = new SelectItems();
  const out: T[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    items.step(toks, i);
    const done = special?.(i, out);
    if (done !== undefined) {
      i = done;
      continue;
    }
    const isRef = t.type === 'word' || t.type === 'quoted';
    const next = toks[i + 2];
    if (
      isRef &&
      isPunct(toks[i + 1], '.') &&
      (next?.type === 'word' || next?.type === 'quoted') &&
      !isPunct(toks[i - 1], '.')
    ) {
      const c = qualified(identText(t), identText(next));
      if (c) {
        out.push(t, dot, word(c), ...(items.keepName(toks, i, 3, identText(next)) as T[]));
        i += 2;
        continue;
      }
    }
    const isBare =
      isRef &&
      !isPunct(toks[i - 1], '.') &&
      !isPunct(toks[i + 1], '.') &&
      !isPunct(toks[i + 1], '(') &&
      !isWord(toks[i - 1], 'AS');
    const r = isBare ? bare(identText(t)) : undefined;
    if (r && !isColumn(identText(t))) {
      out.push(r.alias, dot, word(r.column), ...(items.keepName(toks, i, 1, identText(t)) as T[]));
      continue;
    }
    out.push(t);
  }
  return out;
}
