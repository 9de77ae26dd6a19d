// The call of __pg_srf_zip (src/engine/pg-arrays.ts) that runs set-returning calls in step, as many
// rows as the longest gives, the others NULL past their end: for several of them in one select list
// (standard-forms.ts) and for `ROWS FROM (f(...), g(...))` in FROM (rows-from.ts).
import type { Tok } from '../tokens';

const comma: Tok = { type: 'punct', text: ',' };

/**
 * `__pg_srf_zip('unnest', ifnull(x, x''), x'', x'', 'generate_subscripts', ...)`: each call's name
 * and up to three arguments (`args` its arguments' tokens; the caller has checked the name and count).
 */
export function zipCall(calls: { fn: string; args: Tok[][] }[]): Tok[] {
  const out: Tok[] = [
    { type: 'word', text: '__pg_srf_zip' },
    { type: 'punct', text: '(' },
  ];
  for (const { fn, args } of calls) {
    const given = [...args];
    // (jsonb_path_query's vars not given are {}, told apart from a NULL one, which gives no rows)
    if (fn === 'jsonb_path_query' && given.length === 2) given.push([{ type: 'string', text: "'{}'" }]);
    if (out.length > 2) out.push(comma);
    out.push({ type: 'string', text: `'${fn}'` });
    // (a NULL argument would make SQLite give no row at all: NULL is an empty blob here)
    const noValue: Tok = { type: 'string', text: "x''" };
    for (let a = 0; a < 3; a++)
      out.push(
        comma,
        ...(a < given.length
          ? [
              { type: 'word', text: 'ifnull' } as Tok,
              { type: 'punct', text: '(' } as Tok,
              ...given[a],
              comma,
              noValue,
              { type: 'punct', text: ')' } as Tok,
            ]
          : [noValue]),
      );
  }
  out.push({ type: 'punct', text: ')' });
  return out;
}
