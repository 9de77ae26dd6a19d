// The row a NOT NULL failure was about, for the forms whose values the statement's text does not
// hold (constraint-errors.ts reads VALUES of literals itself): `INSERT ... SELECT`, a VALUES item
// that is an expression (a subquery), the SET of `ON CONFLICT DO UPDATE`, `UPDATE ... FROM`. The
// failed statement is rolled back by then; its own row source (the translated SQL's, with the
// conversions it stores through) is read again as a query, with its parameters, and the first row
// that leaves the column null is the one PostgreSQL names. Only a failure pays for it.
import type { TableDef } from '../../../src/engine/schema/model';
import { identName, type lexPg } from '../sql/lexer';

type Sig = ReturnType<typeof lexPg>;

const word = (t: Sig[number] | undefined, w: string) => t?.type === 'word' && t.text.toUpperCase() === w;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const text = (toks: Sig) => toks.map((t) => t.text).join(' ');

/** The index of the first token at depth 0 in sig[from, to) that `at` accepts, else -1. */
function topLevel(sig: Sig, from: number, to: number, at: (i: number) => boolean): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (sig[i].text === '(') depth++;
    else if (sig[i].text === ')') depth--;
    else if (depth === 0 && at(i)) return i;
  }
  return -1;
}

/**
 * The queries whose first row is the failing row of an INSERT into `def` (SQLite SQL, as it ran):
 * one over its rows (`WITH __pg_rows(<columns>) AS (<its VALUES or SELECT>) SELECT <the table's
 * columns, defaults for those left out> FROM __pg_rows WHERE <column> IS NULL`), then, for `ON
 * CONFLICT (k) DO UPDATE SET ...`, one over the rows it would update, read with the SET values and
 * `excluded` the inserted row. Empty when the statement is of another shape.
 */
export function insertRowQueries(sig: Sig, def: TableDef, column: string): string[] {
  const insert = topLevel(sig, 0, sig.length, (i) => word(sig[i], 'INSERT'));
  if (insert < 0 || !word(sig[insert + 1], 'INTO') || identName(sig[insert + 2] ?? sig[0]) !== def.name) return [];
  let i = insert + 3;
  let alias = def.name;
  if (word(sig[i], 'AS')) {
    alias = identName(sig[i + 1]);
    i += 2;
  }
  let names = def.columns.map((c) => c.name.toLowerCase());
  if (sig[i]?.text === '(') {
    names = [];
    for (i++; i < sig.length && sig[i].text !== ')'; i++) if (sig[i].text !== ',') names.push(identName(sig[i]));
    i++;
  }
  if (word(sig[i], 'DEFAULT')) return [];
  const conflict = topLevel(sig, i, sig.length, (k) => word(sig[k], 'ON') && word(sig[k + 1], 'CONFLICT'));
  const returning = topLevel(sig, i, sig.length, (k) => word(sig[k], 'RETURNING'));
  const end = [conflict, returning, sig.length].filter((k) => k >= 0).sort((a, b) => a - b)[0];
  if (end <= i) return [];
  const prefix = text(sig.slice(0, insert));
  const rows = `__pg_rows(${names.map(quote).join(', ')}) AS (${text(sig.slice(i, end))})`;
  const withRows = prefix ? `${prefix}, ${rows}` : `WITH ${rows}`;
  const inserted = def.columns.map((c) =>
    names.includes(c.name.toLowerCase())
      ? `__pg_rows.${quote(c.name.toLowerCase())}`
      : c.defaultSql === null
        ? 'NULL'
        : `(${c.defaultSql})`,
  );
  const nullAt = def.columns.findIndex((c) => c.name === column);
  const out = [`${withRows} SELECT ${inserted.join(', ')} FROM __pg_rows WHERE (${inserted[nullAt]}) IS NULL LIMIT 1`];
  // ON CONFLICT (k, ...) [WHERE ...] DO UPDATE SET ... [WHERE ...]: the existing row of the key, updated
  if (conflict < 0 || sig[conflict + 2]?.text !== '(') return out;
  const keys: string[] = [];
  let k = conflict + 3;
  for (; k < sig.length && sig[k].text !== ')'; k++) if (sig[k].text !== ',') keys.push(identName(sig[k]));
  if (!word(sig[k + 1], 'DO') || !word(sig[k + 2], 'UPDATE') || !word(sig[k + 3], 'SET')) return out;
  const set = setList(sig, k + 4, returning < 0 ? sig.length : returning);
  if (!set) return out;
  // `excluded` is the inserted row; the table's own name (or alias) the existing one
  const own = (toks: Sig) =>
    text(toks.map((t) => (identName(t) === 'excluded' && t.type !== 'string' ? { ...t, text: '__pg_rows' } : t)));
  const items = def.columns.map((c) => {
    const e = set.values.get(c.name.toLowerCase());
    return e ? own(e) : `${quote(alias)}.${quote(c.name)}`;
  });
  const on = keys.map((key) => `${quote(alias)}.${quote(key)} = __pg_rows.${quote(key)}`).join(' AND ');
  const where = set.where ? ` AND (${own(set.where)})` : '';
  out.push(
    `${withRows} SELECT ${items.join(', ')} FROM ${quote(def.name)} AS ${quote(alias)} JOIN __pg_rows ON ${on} WHERE (${items[nullAt]}) IS NULL${where} LIMIT 1`,
  );
  return out;
}

/**
 * The query of an `[WITH ...] UPDATE t [AS a] SET ... [FROM ...] [WHERE ...]` whose first row is the
 * failing row: the table's columns with the SET values, over its FROM and WHERE (and its WITH
 * queries: a data-modifying WITH query's rows, fed to the UPDATE, are read there). Null for another shape.
 */
export function updateRowQuery(sig: Sig, def: TableDef, column: string): string | null {
  const verb = word(sig[0], 'WITH') ? topLevel(sig, 0, sig.length, (k) => word(sig[k], 'UPDATE')) : 0;
  if (verb < 0) return null;
  const prefix = verb > 0 ? `${text(sig.slice(0, verb))} ` : '';
  return updateQuery(sig.slice(verb), def, column, prefix);
}

function updateQuery(sig: Sig, def: TableDef, column: string, prefix: string): string | null {
  if (!word(sig[0], 'UPDATE') || identName(sig[1] ?? sig[0]) !== def.name) return null;
  let i = 2;
  let alias = def.name;
  if (word(sig[i], 'AS')) i++;
  if (!word(sig[i], 'SET') && (sig[i]?.type === 'word' || sig[i]?.type === 'quoted')) alias = identName(sig[i++]);
  if (!word(sig[i], 'SET')) return null;
  const returning = topLevel(sig, i, sig.length, (k) => word(sig[k], 'RETURNING'));
  const set = setList(sig, i + 1, returning < 0 ? sig.length : returning, true);
  if (!set) return null;
  const items = def.columns.map((c) => {
    const e = set.values.get(c.name.toLowerCase());
    return e ? text(e) : `${quote(alias)}.${quote(c.name)}`;
  });
  const nullAt = items[def.columns.findIndex((c) => c.name === column)];
  if ([...set.values.values()].some((e) => e.some((t) => /^(nextval|random)$/i.test(t.text)))) return null;
  const from = set.from ? `, ${text(set.from)}` : '';
  const where = set.where ? ` AND (${text(set.where)})` : '';
  return `${prefix}SELECT ${items.join(', ')} FROM ${quote(def.name)} AS ${quote(alias)}${from} WHERE (${nullAt}) IS NULL${where} LIMIT 1`;
}

/** A SET list from sig[from] to `to`: each column's expression, then its FROM list (when `from`) and WHERE. */
function setList(
  sig: Sig,
  from: number,
  to: number,
  withFrom = false,
): { values: Map<string, Sig>; from: Sig | null; where: Sig | null } | null {
  const values = new Map<string, Sig>();
  let i = from;
  for (;;) {
    // (a row of columns, SET (a, b) = (...), is not read here)
    if (sig[i]?.text === '(' || sig[i + 1]?.text !== '=') return null;
    const name = identName(sig[i]).toLowerCase();
    const end = topLevel(
      sig,
      i + 2,
      to,
      (k) => sig[k].text === ',' || word(sig[k], 'WHERE') || (withFrom && word(sig[k], 'FROM')),
    );
    values.set(name, sig.slice(i + 2, end < 0 ? to : end));
    if (end < 0) return { values, from: null, where: null };
    i = end;
    if (sig[i].text !== ',') break;
    i++;
  }
  let fromList: Sig | null = null;
  if (word(sig[i], 'FROM')) {
    const w = topLevel(sig, i + 1, to, (k) => word(sig[k], 'WHERE'));
    fromList = sig.slice(i + 1, w < 0 ? to : w);
    i = w < 0 ? to : w;
  }
  return { values, from: fromList, where: word(sig[i], 'WHERE') ? sig.slice(i + 1, to) : null };
}
