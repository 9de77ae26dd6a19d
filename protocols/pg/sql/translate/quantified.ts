// What `x op ANY (...)` and `x op ALL (...)` are over a set of values, as a SELECT over them:
// true when the comparison holds for some (every) value, else NULL when one compared NULL, else
// false; over no values ANY is false and ALL true, as in PostgreSQL. arrays.ts (comparisons) and
// like.ts (LIKE ANY) write the comparison and where the values come from.
import type { Tok } from '../tokens';

const w = (text: string): Tok => ({ type: 'word', text });
const pu = (text: string): Tok => ({ type: 'punct', text });

/** `SELECT CASE WHEN ... END FROM <from>`, `cmp()` the comparison of one value (a fresh copy each call). */
export function quantifiedTruth(all: boolean, cmp: () => Tok[], from: Tok[]): Tok[] {
  return [
    w('SELECT'),
    w('CASE'),
    w('WHEN'),
    ...(all
      ? [w('min'), ...cmp(), { type: 'op', text: '=' } as Tok, { type: 'number', text: '0' } as Tok]
      : [w('max'), ...cmp()]),
    w('THEN'),
    { type: 'number', text: all ? '0' : '1' },
    w('WHEN'),
    w('count'),
    ...cmp(),
    { type: 'op', text: '<' },
    w('count'),
    pu('('),
    { type: 'op', text: '*' },
    pu(')'),
    w('THEN'),
    w('NULL'),
    w('ELSE'),
    { type: 'number', text: all ? '1' : '0' },
    w('END'),
    w('FROM'),
    ...from,
  ];
}

/** `WITH __pg_q(<column>) AS (<query>)`: a query's rows as values of one name. */
export const valuesOf = (column: string, query: Tok[]): Tok[] => [
  w('WITH'),
  w('__pg_q'),
  pu('('),
  w(column),
  pu(')'),
  w('AS'),
  pu('('),
  ...query,
  pu(')'),
];
