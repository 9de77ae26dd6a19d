import assert from 'node:assert/strict';
import { type AgentProcess, startAgent } from '../helpers/agent';
import type { NdjsonStream } from '../helpers/http';
import { type PgClient, pgClient } from '../helpers/pg';
import {
  LIVE_SCHEMA,
  ResultMap,
  converge,
  queryMultiset,
  sleep,
  subscribeCaughtUp,
  write,
} from '../helpers/subscriptions';

// A committed change carries its row's values only for tables a live query reads (or one being made
// will): the agent does not read rows back for nobody (ChangeCapture.rowsWanted). So the first
// subscriptions of a table, made while writes to it go on from both front ends, must still see every
// change after their snapshot, found by value (`team = ?`), by key, or by every change of the table.

const QUERIES: [string, unknown[]][] = [
  ...[1, 2, 3].map((t): [string, unknown[]] => ['SELECT id, score FROM users WHERE team = ?', [t]]),
  ['SELECT id, team FROM users WHERE id % 5 = ?', [2]],
  ['SELECT id, score FROM users WHERE id = ?', [7]],
  ['SELECT count(*), sum(score) FROM users', []],
  ["SELECT * FROM tags WHERE tag = 'a'", []],
];

describe('subscriptions made while their tables are written', function () {
  this.timeout(120000);
  let agent: AgentProcess;
  const clients: PgClient[] = [];
  before(async () => {
    agent = await startAgent({ schema: LIVE_SCHEMA, args: ['--pg-addr', '127.0.0.1:0'] });
    for (let i = 0; i < 2; i++) {
      const c = pgClient(agent.pg!.port);
      await c.connect();
      clients.push(c);
    }
  });
  after(async () => {
    for (const c of clients) await c.end();
    await agent.dispose();
  });

  it('each of the first subscriptions of a table, made one by one during writes over HTTP and PG blocks, equals a fresh query', async () => {
    let stop = false;
    let written = 0;
    const rnd = (n: number) => Math.floor(Math.random() * n);
    const http = (async () => {
      while (!stop) {
        const id = 1 + rnd(20);
        await write(agent.http, [
          [
            'INSERT INTO users (id, name, team, score) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET team = excluded.team, score = excluded.score',
            [id, 'u', 1 + rnd(3), rnd(100)],
          ],
          ...(rnd(4) === 0 ? [['DELETE FROM users WHERE id = ?', [1 + rnd(20)]]] : []),
        ]);
        written++;
      }
    })();
    // PG blocks, two at once: they share the held transaction and commit together
    const blocks = clients.map(async (c) => {
      while (!stop) {
        try {
          await c.query('BEGIN');
          await c.query('UPDATE users SET score = score + 1 WHERE id = $1', [1 + rnd(20)]);
          await c.query(
            'INSERT INTO tags (user_id, tag, weight) VALUES ($1, $2, $3) ON CONFLICT (user_id, tag) DO UPDATE SET weight = excluded.weight',
            [1 + rnd(20), ['a', 'b'][rnd(2)], rnd(10)],
          );
          await c.query('COMMIT');
          written++;
        } catch (err) {
          // two blocks on the same row: one is refused as PostgreSQL's SERIALIZABLE would, and retried
          if ((err as { code?: string }).code !== '40001') throw err;
          await c.query('ROLLBACK');
        }
      }
    });
    const subs: { body: unknown; stream: NdjsonStream; view: ResultMap }[] = [];
    try {
      for (const body of QUERIES) {
        await sleep(60 + rnd(60)); // writes go on between the subscriptions' snapshots
        const { stream } = await subscribeCaughtUp(agent.http, body);
        subs.push({ body, stream, view: new ResultMap() });
      }
      await sleep(300);
    } finally {
      stop = true;
      await Promise.all([http, ...blocks]);
    }
    for (const s of subs) await converge(agent.http, s.body, s.stream, s.view);
    for (const s of subs) s.stream.close();
    if (written < 20) throw new Error(`only ${written} transactions were written during the subscriptions`);
  });

  it('rows asked for after an acknowledged write include it, for subscriptions nobody listened to meanwhile (read your writes)', async () => {
    // a restricted one (its changed keys wait), an aggregate and a keyed one (re-run when asked)
    const bodies: [string, unknown[]][] = [
      ['SELECT id, score FROM users WHERE team = ?', [9]],
      ['SELECT count(*), sum(score) FROM users WHERE team = 9', []],
      ['SELECT u.id, u.score, t.title FROM users u JOIN teams t ON t.id = u.team WHERE u.team = 9', []],
    ];
    await write(agent.http, [["INSERT INTO teams (id, title) VALUES (9, 'nine') ON CONFLICT (id) DO NOTHING"]]);
    for (const body of bodies) (await subscribeCaughtUp(agent.http, body)).stream.close();
    await sleep(100);
    for (let round = 0; round < 15; round++) {
      await write(agent.http, [
        [
          'INSERT INTO users (id, name, team, score) VALUES (?, ?, 9, ?) ON CONFLICT (id) DO UPDATE SET score = excluded.score',
          [900 + (round % 4), 'n', round],
        ],
      ]);
      const body = bodies[round % bodies.length];
      // (an agent too busy to catch up in 5 s says so, and the request is retried; never fewer rows)
      const { stream } = await subscribeCaughtUp(agent.http, body);
      const view = new ResultMap();
      view.apply(stream.events);
      // the rows before eoq are those of a fresh query: nothing acknowledged before comes as a change
      assert.deepEqual(view.multiset(), await queryMultiset(agent.http, body), `round ${round}: ${body[0]}`);
      stream.close();
    }
  });
});
