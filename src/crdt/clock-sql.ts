import { quoteIdentifier as q } from '../engine/sql-text';
import type { TableDef } from '../engine/schema/model';

/*
 * The clock table of a schema table `t` and the triggers that fill it (cr-sqlite's layout):
 *
 *   "__patina_clock_t" (pk BLOB, cid TEXT, col_version, db_version, site_id BLOB, seq)
 *     PRIMARY KEY (pk, cid), WITHOUT ROWID; index (site_id, db_version) for "what did actor X
 *     write at versions a..b" (sync).
 *   - pk is the encoded primary key (pk.ts), cid a column name;
 *   - the row sentinel is cid = '-1': its col_version is the causal length (odd alive, even
 *     deleted). It changes only when the row is created, deleted or re-created;
 *   - a column clock (cid = column) exists only while the row is alive.
 *   - db_version, site_id and seq are the origin's: the agent that made the change.
 *
 * A merge of remote changes (src/crdt, later) writes data and clock rows itself with
 * patina_capturing() returning 0, so the triggers stay quiet.
 *
 * Functions the triggers call, registered on the writer connection by capture.ts:
 *   patina_capturing()   1 unless a merge is writing
 *   patina_pk(v, ...)    the encoded primary key
 *   patina_version()     this transaction's db_version (assigned on first use)
 *   patina_site()        this agent's 16-byte site id
 *   patina_seq()         the next seq of this transaction
 *   patina_touch(table, op, pk, cl_before)  notes a changed row for the changeset
 */

/** The row sentinel's cid. */
export const SENTINEL = '-1';

export const clockTableName = (table: string) => `__patina_clock_${table}`;

const lit = (s: string) => "'" + s.split("'").join("''") + "'";

/** DDL that creates the clock table (if missing) and (re)creates the triggers with the current columns. */
export function captureDdl(t: TableDef): string[] {
  const clock = q(clockTableName(t.name));
  const table = q(t.name);
  const name = lit(t.name);
  const pkCols = t.primaryKey;
  const cols = t.columns.map((c) => c.name).filter((c) => !pkCols.includes(c));
  const pkOf = (row: 'NEW' | 'OLD') => `patina_pk(${pkCols.map((c) => `${row}.${q(c)}`).join(', ')})`;
  const trig = (kind: string) => q(`__patina_${kind}_${t.name}`);
  const sentinelCl = (pk: string) => `(SELECT col_version FROM ${clock} WHERE pk = ${pk} AND cid = '${SENTINEL}')`;
  const cols4 = 'pk, cid, col_version, db_version, site_id, seq';
  const stamp = 'db_version = excluded.db_version, site_id = excluded.site_id, seq = excluded.seq';

  // A row comes alive: the sentinel goes to 1 or the next odd causal length; every column clock
  // starts at 1 or goes up by one (an INSERT cannot tell which values differ from before).
  const insertBody = (row: 'NEW') => {
    const pk = pkOf(row);
    const s = [
      `SELECT patina_touch(${name}, 'insert', p, ${sentinelCl('p')}) FROM (SELECT ${pk} AS p);`,
      `INSERT INTO ${clock} (${cols4}) SELECT p, '${SENTINEL}', 1, patina_version(), patina_site(), patina_seq() FROM (SELECT ${pk} AS p)` +
        ` WHERE NOT EXISTS (SELECT 1 FROM ${clock} WHERE pk = p AND cid = '${SENTINEL}' AND col_version % 2 = 1)` +
        ` ON CONFLICT (pk, cid) DO UPDATE SET col_version = col_version + 1, ${stamp};`,
    ];
    if (cols.length > 0) {
      s.push(
        `INSERT INTO ${clock} (${cols4}) SELECT p, v.column1, 1, patina_version(), patina_site(), patina_seq()` +
          ` FROM (SELECT ${pk} AS p), (VALUES ${cols.map((c) => `(${lit(c)})`).join(', ')}) AS v WHERE true` +
          ` ON CONFLICT (pk, cid) DO UPDATE SET col_version = col_version + 1, ${stamp};`,
      );
    }
    return s;
  };
  // A row dies: the sentinel goes to the next even causal length, the column clocks go.
  const deleteBody = (row: 'OLD') => {
    const pk = pkOf(row);
    return [
      `SELECT patina_touch(${name}, 'delete', ${pk}, NULL);`,
      `INSERT INTO ${clock} (${cols4}) SELECT p, '${SENTINEL}', 2, patina_version(), patina_site(), patina_seq() FROM (SELECT ${pk} AS p)` +
        ` WHERE NOT EXISTS (SELECT 1 FROM ${clock} WHERE pk = p AND cid = '${SENTINEL}' AND col_version % 2 = 0)` +
        ` ON CONFLICT (pk, cid) DO UPDATE SET col_version = col_version + 1, ${stamp};`,
      `DELETE FROM ${clock} WHERE pk = ${pk} AND cid <> '${SENTINEL}';`,
    ];
  };
  const samePk = pkCols.map((c) => `NEW.${q(c)} IS OLD.${q(c)}`).join(' AND ');
  const changed = (c: string) => `NEW.${q(c)} IS NOT OLD.${q(c)}`;

  const ddl = [
    `CREATE TABLE IF NOT EXISTS ${clock} (pk BLOB NOT NULL, cid TEXT NOT NULL, col_version INTEGER NOT NULL, db_version INTEGER NOT NULL,` +
      ` site_id BLOB NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (pk, cid)) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS ${q(`__patina_clock_${t.name}_site_version`)} ON ${clock} (site_id, db_version)`,
    ...['ins', 'upd', 'updpk', 'del'].map((k) => `DROP TRIGGER IF EXISTS ${trig(k)}`),
    `CREATE TRIGGER ${trig('ins')} AFTER INSERT ON ${table} WHEN patina_capturing() BEGIN\n  ${insertBody('NEW').join('\n  ')}\nEND`,
    `CREATE TRIGGER ${trig('del')} AFTER DELETE ON ${table} WHEN patina_capturing() BEGIN\n  ${deleteBody('OLD').join('\n  ')}\nEND`,
    // A changed key is the old row deleted and a new row inserted (as cr-sqlite does).
    `CREATE TRIGGER ${trig('updpk')} AFTER UPDATE ON ${table} WHEN patina_capturing() AND NOT (${samePk}) BEGIN\n  ` +
      `${[...deleteBody('OLD'), ...insertBody('NEW')].join('\n  ')}\nEND`,
  ];
  if (cols.length > 0) {
    // Same key: only the columns whose value really changed get a new clock.
    ddl.push(
      `CREATE TRIGGER ${trig('upd')} AFTER UPDATE ON ${table} WHEN patina_capturing() AND ${samePk} AND (${cols.map(changed).join(' OR ')}) BEGIN\n` +
        `  SELECT patina_touch(${name}, 'update', ${pkOf('NEW')}, NULL);\n` +
        `  INSERT INTO ${clock} (${cols4}) SELECT p, v.column1, 1, patina_version(), patina_site(), patina_seq()` +
        ` FROM (SELECT ${pkOf('NEW')} AS p), (VALUES ${cols.map((c) => `(${lit(c)}, ${changed(c)})`).join(', ')}) AS v WHERE v.column2` +
        ` ON CONFLICT (pk, cid) DO UPDATE SET col_version = col_version + 1, ${stamp};\nEND`,
    );
  }
  return ddl;
}
