// The type of each parameter, from where it stands (PostgreSQL's parse tree: BETWEEN, IN lists,
// `= ANY($1)`, arithmetic, COALESCE, CASE, conditions, INSERT ... SELECT, ON CONFLICT SET, UPDATE
// SET): asyncpg encodes every argument in binary by the type ParameterDescription names, so a
// parameter left `text` refused a datetime or an int ("expected str, got datetime"). The same
// statements through asyncpg on PostgreSQL 15 and on Patina: the same parameter types and rows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { serialize } from 'pg-protocol';
import { type OracleClients, startOracle } from '../helpers/catalog-pair';
import { WireClient } from '../helpers/pg-wire';

const PYTHON = '/usr/bin/python3'; // Debian's python3, which has asyncpg
const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'param-types', 'asyncpg_params.py');

/**
 * Statements Parse'd with no parameter types and described, as a driver prepares them: what
 * ParameterDescription says, or the error (SQLSTATE, message, HINT, position).
 */
const DESCRIBED = [
  // PostgreSQL finds no one form for these of unknowns only (42725); Patina took them as text
  'SELECT $1 + $2',
  "SELECT $1 * '2', 1",
  'SELECT id FROM orders WHERE customer_id = $1 - $2',
  'SELECT generate_series($1, $2)',
  "SELECT * FROM generate_series($1, '5', $2)",
  'SELECT to_hex($1)',
  // an anyelement of an unknown (42804)
  'SELECT to_json($1)',
  'SELECT to_jsonb($1), 1',
  // typed before by a comparison, in PostgreSQL's order: bigint + unknown, bigint's minus
  'SELECT id FROM orders WHERE customer_id = $1 AND $1 + $2 > 0',
  'SELECT $1 + $2 FROM orders WHERE customer_id = $1',
  'SELECT 1 FROM orders WHERE id = $1 AND -$1 < 0',
  // the forms chosen: generate_series's, power's, a boolean test's, AT TIME ZONE's, BETWEEN's first comparison
  'SELECT generate_series(1, $1, $2), generate_series($3, 10::int8)',
  "SELECT generate_series($1, $2, interval '1 day'), generate_series(current_date, $3, interval '1 day')",
  'SELECT generate_series(placed_at, $1, $2) FROM orders',
  'SELECT $1 ^ $2, $3 ^ 2.5, amount ^ $4 FROM orders',
  'SELECT $1 IS NOT TRUE, $2 IS UNKNOWN',
  "SELECT $1 AT TIME ZONE 'UTC', placed_at AT TIME ZONE $2 FROM orders",
  'SELECT $1 BETWEEN 1 AND 2.5, $2 NOT BETWEEN SYMMETRIC 2.5 AND 1',
  "SELECT id FROM orders WHERE placed_at BETWEEN $1 AND $1 + interval '1 day'",
  // an unknown PostgreSQL makes text, compared with another type: 42883 at the operator (Patina typed
  // the parameter by the other side and ran): an ARRAY of unknowns, a subquery's bare item, a
  // simple CASE's operand
  'SELECT id FROM orders WHERE id = ANY(ARRAY[$1, $2])',
  'SELECT id FROM orders WHERE placed_at <> ALL(ARRAY[$1, NULL])',
  "SELECT id FROM orders WHERE paid = ANY(ARRAY[$1, 'true'])",
  'SELECT id FROM orders WHERE customer_id IN (SELECT $1)',
  'SELECT id FROM orders WHERE amount > ALL (SELECT $1)',
  'SELECT id FROM orders WHERE (customer_id, note) IN (SELECT $1, $2)',
  'SELECT id FROM orders WHERE customer_id = (SELECT $1)',
  'SELECT (SELECT $1) = 1',
  "SELECT CASE $1 WHEN 1 THEN 'a' ELSE 'b' END",
  "SELECT CASE $1 WHEN 'x' THEN 'a' WHEN placed_at THEN 'b' END FROM orders",
  // a boolean or a string has no arithmetic (Patina typed the parameter by it and ran)
  'SELECT $1 + paid FROM orders',
  'SELECT note * $1 FROM orders',
  "SELECT 'a' + $1",
  // an expression of a parameter with no assignment to its column (42804 at the value; Patina wrote it)
  "UPDATE orders SET placed_at = $1 + interval '1 day'",
  'UPDATE orders SET placed_at = now() - $1 WHERE id = $2',
  "UPDATE orders SET amount = $1 || 'x'",
  "INSERT INTO orders (id, placed_at) SELECT $1, $2 - interval '1 hour'",
  "INSERT INTO orders (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET note = $2 || 'x', paid = $3 || $4",
  // (and those with one run)
  "UPDATE orders SET note = $1 || 'x', placed_at = placed_at + $2, amount = $3 * 2.5, customer_id = $4 + 1",
  // (through a set operation of unknowns, or a subquery in FROM, the same)
  'SELECT id FROM orders WHERE customer_id IN (SELECT $1 UNION SELECT $2)',
  "SELECT id FROM orders WHERE customer_id = (SELECT $1 UNION ALL SELECT 'x')",
  'SELECT id FROM orders WHERE customer_id > ALL (SELECT $1 INTERSECT SELECT $1)',
  'SELECT id FROM orders WHERE (id, note) IN (SELECT $1, $2 UNION SELECT $3, $4)',
  'SELECT id FROM orders WHERE customer_id = (SELECT x FROM (SELECT $1 AS x) s)',
  'SELECT id FROM orders WHERE id IN (SELECT s.x FROM (SELECT $1 AS x UNION SELECT $2) s)',
  // (a set operation beside a typed branch, or compared with a string, runs)
  'SELECT id FROM orders WHERE customer_id IN (SELECT $1 UNION SELECT 2) OR note IN (SELECT $2 UNION SELECT $3)',
  // (`$1 = ANY($2)` of unknowns makes them text and text[] for what follows; typed before, they take its type)
  'SELECT id FROM orders WHERE $1 = ANY($2) AND $1 = id',
  'SELECT id FROM orders WHERE $1 <> ALL($2) AND $1 + 1 > 0',
  'SELECT id FROM orders WHERE $1 = ANY($2) AND note = $1 OR id = $3 AND $3 = ANY($4)',
  // (a subquery that types its item itself is 42P08 there, before the comparison)
  'SELECT id FROM orders WHERE customer_id IN (SELECT $1 WHERE $1 = 1)',
  // (beside a string, a known array, or a parameter typed before, they run)
  'SELECT id FROM orders WHERE note = ANY(ARRAY[$1, $2]) OR customer_id = ANY(ARRAY[$3, 3])',
  'SELECT id FROM orders WHERE note IN (SELECT $1) OR $2 IN (SELECT $3)',
  'SELECT id FROM orders WHERE customer_id = $1 AND customer_id IN (SELECT $1)',
  "SELECT CASE $1 WHEN 'a' THEN 1 END, CASE $2 WHEN note THEN 1 END, CASE customer_id WHEN $3 THEN 1 END FROM orders",
  // an ordered-set fraction (a double of a number key, 42725 of another), lag's and lead's default
  // and offset, a RANGE frame's offsets of a number key's type (they were text)
  'SELECT percentile_cont($1) WITHIN GROUP (ORDER BY amount), percentile_disc($2) WITHIN GROUP (ORDER BY id) FROM orders',
  'SELECT percentile_disc($1) WITHIN GROUP (ORDER BY placed_at) FROM orders',
  'SELECT percentile_cont($1) WITHIN GROUP (ORDER BY note) FROM orders',
  'SELECT percentile_cont($1) WITHIN GROUP (ORDER BY placed_at - placed_at) FROM orders',
  'SELECT lag(amount, 1, $1) OVER (ORDER BY id), lead(placed_at, $2, $3) OVER (ORDER BY id) FROM orders',
  'SELECT sum(amount) OVER (ORDER BY amount RANGE BETWEEN $1 PRECEDING AND $2 FOLLOWING) FROM orders',
  'SELECT count(*) OVER (ORDER BY id RANGE $1 PRECEDING), count(*) OVER (ORDER BY price::real RANGE $2 PRECEDING) FROM line_items, orders',
  // BETWEEN of two unknowns compares them as text first (42883 `text <= integer`); a third unknown too: all text
  'SELECT $1 BETWEEN $2 AND 3',
  "SELECT $1 NOT BETWEEN 'a' AND 3",
  'SELECT $1 BETWEEN $2 AND $3',
  // a bound that is an interval there (timestamptz - timestamptz): 42883 `timestamp without time zone >= interval`
  'SELECT id FROM orders WHERE placed_at BETWEEN now() - $1 AND now()',
  'SELECT id FROM orders WHERE placed_at NOT BETWEEN $1 AND now() - $2',
  'SELECT id FROM orders WHERE placed_at BETWEEN now() - $1::interval AND now()',
];

/** What a client sees when it prepares `sql` with no types: the parameter types, or the error. */
async function prepared(c: WireClient, sql: string): Promise<unknown> {
  const r = await c.exchange(
    serialize.parse({ text: sql, types: [] }),
    serialize.describe({ type: 'S' }),
    serialize.sync(),
  );
  const error = r.messages.find((m) => m.type === 'E');
  if (error) {
    const f: Record<string, string> = {};
    for (let at = 0; at < error.body.length && error.body[at] !== 0; ) {
      const end = error.body.indexOf(0, at + 1);
      f[String.fromCharCode(error.body[at])] = error.body.subarray(at + 1, end).toString('utf8');
      at = end + 1;
    }
    return { code: f.C, message: f.M, hint: f.H, position: f.P };
  }
  const t = r.messages.find((m) => m.type === 't')!.body;
  return Array.from({ length: t.readInt16BE(0) }, (_, i) => t.readUInt32BE(2 + 4 * i));
}

function run(port: number): [string, ...unknown[]][] {
  const r = spawnSync(PYTHON, [SCRIPT, String(port)], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('parameter types from where they stand, through asyncpg, against PostgreSQL 15', function () {
  this.timeout(90_000);
  let o: OracleClients;

  before(async () => {
    o = await startOracle({ rows: true });
  });
  after(() => o?.close());

  it('BETWEEN, IN, = ANY, arithmetic, COALESCE, CASE, conditions, subqueries and writes type their parameters', () => {
    const postgres = run(o.pair.postgresPort);
    const patina = run(o.pair.patinaPort);
    assert.ok(postgres.length > 20);
    // PostgreSQL itself runs every case (the list holds no statement it refuses)
    assert.deepEqual(
      postgres.filter((c) => c[1] === 'error' || c[1] === 'client error'),
      [],
    );
    postgres.forEach((want, i) => assert.deepEqual(patina[i], want, String(want[0])));
  });

  it("ParameterDescription or the error of PostgreSQL's resolution: arithmetic and functions of unknowns, generate_series, ^, IS TRUE, AT TIME ZONE, BETWEEN, unknowns made text, no arithmetic, assignments", async () => {
    const postgres = await WireClient.open(o.pair.postgresPort, { user: 'tester', database: 'db' });
    const patina = await WireClient.open(o.pair.patinaPort, { user: 'tester', database: 'db' });
    try {
      for (const sql of DESCRIBED) assert.deepEqual(await prepared(patina, sql), await prepared(postgres, sql), sql);
    } finally {
      postgres.end();
      patina.end();
    }
  });
});
