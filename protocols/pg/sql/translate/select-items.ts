// Whether a reference is a whole item of a select list, for passes that replace a column reference
// with an expression (translate/function-columns.ts, translate/lateral-json.ts): such an item then
// needs `AS name` to keep the column's name (`SELECT s.r FROM (...)` is still a column r to the
// query around it).
import { type Tok, isPunct, isWord } from '../tokens';

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
