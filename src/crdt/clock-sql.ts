import { quoteIdentifier as q, quoteLiteral as lit } from '../engine/sql-text';
import type { TableDef } from '../engine/schema/model';
import { isRowidAlias } from './key-rule';

/*
 * The clock table of a schema table `t` and the triggers that fill it (cr-sqlite's layout):
 *
 *   "__patina_clock_t" (pk BLOB, cid TEXT, col_version, db_version, site_id BLOB, seq)
 *     PRIMARY KEY (pk, cid), WITHOUT ROWID.
 *   - pk is the encoded primary key (pk.ts), cid a column name;
 *   - the row sentinel is cid = '-1': its col_version is the causal length (odd alive, even
 *     deleted). It changes only when the row is created, deleted or re-created;
 *   - a column clock (cid = column) exists only while the row is alive.
 *   - db_version, site_id and seq are the origin's: the agent that made the change.
 *
 * The triggers call no JavaScript (a function call from SQLite into JS cost more than the SQL
 * around it). They are TEMP triggers of the writer connection (created at every start, so the
 * site id is a literal), which may read and write the connection's own temp tables:
 *   __patina_capture  one row: capturing (0 while a merge writes clocks itself, or a statement is
 *                     only tried out), version (the db_version of the open unit), seq (its next seq)
 *   __patina_touched  every row change of the open transaction, in order (rowid), whether the row
 *                     was alive before and after it, and the version of the unit that made it (PG
 *                     blocks sharing a transaction interleave their units); ChangeCapture reads the
 *                     unit's part at its end (the first touch of a row gives its kind, the last
 *                     whether it is alive now) and empties the table before COMMIT. No index and no
 *                     conflict check: an append is the cheapest write. A trigger writes the touch
 *                     first and its clock rows then take the encoded key and aliveness from it
 *                     (last_insert_rowid() is the touch's rowid inside the trigger), so the key is
 *                     encoded and the sentinel looked up once per row
 * Temp tables are part of the transaction: a savepoint rolled back undoes what its statements
 * gathered there, along with their clock rows.
 *
 * "What did actor X write at versions a..b" (sync, src/cluster/change-reader.ts) is answered by one
 * change log for all tables, not by an index of the clock tables:
 *   __patina_log (site_id, db_version, tbl, pk), its primary key, WITHOUT ROWID
 * a row per (origin, version, table, row) whose clocks a transaction set: local units append theirs
 * at their end (ChangeCapture.endUnit), merges theirs per merged row. A clock row names the
 * (site_id, db_version) of its last change, so an index on them moved an entry to a random page on
 * every update (a third WAL page per captured one-row write); the log only appends at the right
 * edge of each origin's versions, shared by a group. Entries whose clocks have moved on since are
 * skipped by the reader and removed by the ChangeLogCompactor (change-log.ts).
 */

/**
 * Tables with at most this many non-key columns number an update's clock rows by counting the changed
 * columns before each (quadratic in the columns) rather than with row_number(), whose sorter costs
 * more for a few columns.
 */
const SEQ_BY_SUM_MAX = 8;

/** The change log (see above). */
export const CHANGE_LOG = '__patina_log';
export const CHANGE_LOG_DDL = `CREATE TABLE IF NOT EXISTS main.${CHANGE_LOG} (site_id BLOB NOT NULL, db_version INTEGER NOT NULL, tbl TEXT NOT NULL, pk BLOB NOT NULL, PRIMARY KEY (site_id, db_version, tbl, pk)) WITHOUT ROWID`;

/** The index of clock tables older agents kept instead of the change log. */
export const legacyClockIndex = (table: string) => `__patina_clock_${table}_site_version`;

/** The row sentinel's cid. */
export const SENTINEL = '-1';

export const clockTableName = (table: string) => `__patina_clock_${table}`;

/** The writer's per-transaction capture state and touched rows (see above). */
export const CAPTURE_STATE_DDL = [
  'CREATE TEMP TABLE IF NOT EXISTS __patina_capture (id INTEGER PRIMARY KEY CHECK (id = 1), capturing INTEGER NOT NULL, version INTEGER NOT NULL, seq INTEGER NOT NULL)',
  'CREATE TEMP TABLE IF NOT EXISTS __patina_touched (tbl TEXT NOT NULL, pk BLOB NOT NULL, alive_before INTEGER NOT NULL, alive_after INTEGER NOT NULL, version INTEGER NOT NULL)',
];

/**
 * SQL giving pk.ts's encoding of the key columns of `row`, as a BLOB: per column a type tag and
 * its payload, as hex, turned into bytes once. A REAL key value (rare) goes through patina_pk_real.
 */
export function pkSql(t: TableDef, row: 'NEW' | 'OLD'): string {
  const parts = t.primaryKey.map((c) => {
    const v = `${row}.${q(c)}`;
    // A rowid alias is always an integer; other columns hold whatever type was stored.
    if (isRowidAlias(t)) return `'01' || printf('%016x', ${v})`;
    return (
      `CASE typeof(${v}) WHEN 'integer' THEN '01' || printf('%016x', ${v})` +
      ` WHEN 'text' THEN '03' || printf('%08x', octet_length(${v})) || hex(${v})` +
      ` WHEN 'blob' THEN '04' || printf('%08x', octet_length(${v})) || hex(${v})` +
      ` WHEN 'real' THEN patina_pk_real(${v}) ELSE '00' END`
    );
  });
  return `unhex('${t.primaryKey.length.toString(16).padStart(2, '0')}' || ${parts.join(' || ')})`;
}

/** DROP statements of the persistent triggers older versions kept in the database file. */
export function legacyTriggerDrops(t: TableDef): string[] {
  return ['ins', 'upd', 'updpk', 'del', 'keymark', 'keypick'].map(
    (k) => `DROP TRIGGER IF EXISTS main.${q(`__patina_${k}_${t.name}`)}`,
  );
}

/** DDL that creates the clock table (if missing) and (re)creates the triggers with the current columns. */
export function captureDdl(t: TableDef, siteId: Buffer): string[] {
  const clock = q(clockTableName(t.name));
  const table = `main.${q(t.name)}`;
  const name = lit(t.name);
  const site = `X'${siteId.toString('hex')}'`;
  const pkCols = t.primaryKey;
  const cols = t.columns.map((c) => c.name).filter((c) => !pkCols.includes(c));
  const triggerName = (kind: string) => q(`__patina_${kind}_${t.name}`);
  const trig = (kind: string) => `temp.${triggerName(kind)}`;
  const cols4 = 'pk, cid, col_version, db_version, site_id, seq';
  const upsert =
    'ON CONFLICT (pk, cid) DO UPDATE SET col_version = col_version + 1, db_version = excluded.db_version, site_id = excluded.site_id, seq = excluded.seq';
  // The clock rows a statement writes get the next seqs in order, as one counter per unit.
  const nextSeqs = 'UPDATE __patina_capture SET seq = seq + changes();';
  const stamped = `s.version, ${site}, s.seq + row_number() OVER () - 1 FROM __patina_capture s`;
  // The touch the trigger has just written (its first statement): the row's encoded key, and whether it was alive.
  const justTouched = '(SELECT pk, alive_before FROM __patina_touched WHERE rowid = last_insert_rowid()) AS t';

  // A row comes alive: the sentinel goes to 1 or the next odd causal length; every column clock
  // starts at 1 or goes up by one (an INSERT cannot tell which values differ from before).
  const insertBody = () => {
    const pk = pkSql(t, 'NEW');
    const wasAlive = `(SELECT col_version % 2 = 1 FROM ${clock} WHERE pk = ${pk} AND cid = '${SENTINEL}')`;
    // Each clock row with its place after the sentinel; the sentinel (place 0) is written when the
    // row was not alive (w.f), and the seqs run on from the unit's next in that order, as
    // row_number() over the rows written would number them.
    const rows = [`('${SENTINEL}', 0)`, ...cols.map((c, i) => `(${lit(c)}, ${i + 1})`)];
    return [
      `INSERT INTO __patina_touched (tbl, pk, alive_before, alive_after, version) SELECT ${name}, ${pk}, coalesce(${wasAlive}, 0), 1, version FROM __patina_capture;`,
      `INSERT INTO ${clock} (${cols4}) SELECT t.pk, v.column1, 1, s.version, ${site}, s.seq + v.column2 - t.alive_before` +
        ` FROM __patina_capture s, ${justTouched}, (VALUES ${rows.join(', ')}) AS v` +
        ` WHERE v.column2 > 0 OR NOT t.alive_before ${upsert};`,
      nextSeqs,
    ];
  };
  // A row dies: the sentinel goes to the next even causal length, the column clocks go.
  const deleteBody = () => {
    const pk = pkSql(t, 'OLD');
    return [
      `INSERT INTO __patina_touched (tbl, pk, alive_before, alive_after, version) SELECT ${name}, ${pk}, 1, 0, version FROM __patina_capture;`,
      `INSERT INTO ${clock} (${cols4}) SELECT ${pk}, '${SENTINEL}', 2, ${stamped}` +
        ` WHERE NOT EXISTS (SELECT 1 FROM ${clock} WHERE pk = ${pk} AND cid = '${SENTINEL}' AND col_version % 2 = 0) ${upsert};`,
      nextSeqs,
      `DELETE FROM ${clock} WHERE pk = ${pk} AND cid <> '${SENTINEL}';`,
    ];
  };
  const samePk = pkCols.map((c) => `NEW.${q(c)} IS OLD.${q(c)}`).join(' AND ');
  const changed = (c: string) => `NEW.${q(c)} IS NOT OLD.${q(c)}`;
  const capturing = '(SELECT capturing FROM __patina_capture)';

  const ddl = [
    `CREATE TABLE IF NOT EXISTS main.${clock} (pk BLOB NOT NULL, cid TEXT NOT NULL, col_version INTEGER NOT NULL, db_version INTEGER NOT NULL,` +
      ` site_id BLOB NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (pk, cid)) WITHOUT ROWID`,
    ...['ins', 'upd', 'updpk', 'del'].map((k) => `DROP TRIGGER IF EXISTS ${trig(k)}`),
    `CREATE TEMP TRIGGER ${triggerName('ins')} AFTER INSERT ON ${table} WHEN ${capturing} BEGIN\n  ${insertBody().join('\n  ')}\nEND`,
    `CREATE TEMP TRIGGER ${triggerName('del')} AFTER DELETE ON ${table} WHEN ${capturing} BEGIN\n  ${deleteBody().join('\n  ')}\nEND`,
    // A changed key is the old row deleted and a new row inserted (as cr-sqlite does).
    `CREATE TEMP TRIGGER ${triggerName('updpk')} AFTER UPDATE ON ${table} WHEN ${capturing} AND NOT (${samePk}) BEGIN\n  ` +
      `${[...deleteBody(), ...insertBody()].join('\n  ')}\nEND`,
  ];
  if (cols.length > 0) {
    // Same key: only the columns whose value really changed get a new clock.
    const pk = pkSql(t, 'NEW');
    if (cols.length <= SEQ_BY_SUM_MAX) {
      // Each changed column's seq is the unit's next plus the number of changed columns before it:
      // the same seqs as row_number() over the changed columns in order, without the window's sorter.
      const before = (i: number) =>
        i === 0
          ? '0'
          : cols
              .slice(0, i)
              .map((c) => `(${changed(c)})`)
              .join(' + ');
      ddl.push(
        `CREATE TEMP TRIGGER ${triggerName('upd')} AFTER UPDATE ON ${table} WHEN ${capturing} AND ${samePk} AND (${cols.map(changed).join(' OR ')}) BEGIN\n` +
          `  INSERT INTO __patina_touched (tbl, pk, alive_before, alive_after, version) SELECT ${name}, ${pk}, 1, 1, version FROM __patina_capture;\n` +
          `  INSERT INTO ${clock} (${cols4}) SELECT t.pk, v.column1, 1, s.version, ${site}, s.seq + v.column3 FROM __patina_capture s, ${justTouched},` +
          ` (VALUES ${cols.map((c, i) => `(${lit(c)}, ${changed(c)}, ${before(i)})`).join(', ')}) AS v` +
          ` WHERE v.column2 ${upsert};\n  ${nextSeqs}\nEND`,
      );
      return ddl;
    }
    ddl.push(
      `CREATE TEMP TRIGGER ${triggerName('upd')} AFTER UPDATE ON ${table} WHEN ${capturing} AND ${samePk} AND (${cols.map(changed).join(' OR ')}) BEGIN\n` +
        `  INSERT INTO __patina_touched (tbl, pk, alive_before, alive_after, version) SELECT ${name}, ${pk}, 1, 1, version FROM __patina_capture;\n` +
        `  INSERT INTO ${clock} (${cols4}) SELECT t.pk, v.column1, 1, ${stamped}, ${justTouched}, (VALUES ${cols.map((c) => `(${lit(c)}, ${changed(c)})`).join(', ')}) AS v` +
        ` WHERE v.column2 ${upsert};\n  ${nextSeqs}\nEND`,
    );
  }
  return ddl;
}
