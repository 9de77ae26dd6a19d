// A database as the build before left it, for the tests of the rebuild at start
// (src/engine/schema/text-rebuild.ts): its JSON, JSONB and NAME columns declared without TEXT.
import Database from 'better-sqlite3';

/** A table as its schema file declares it (which is how the build before created it), with its indexes. */
export interface OldTable {
  name: string;
  create: string;
  indexes: string[];
}

/**
 * Makes `tables` of the database `file` (its agent stopped) what the build before left: each created
 * again from its schema file's statements as they are and its rows copied in (rowids kept), so that
 * SQLite's NUMERIC affinity stores what reads as a number as one, as it did on every write then.
 * The clocks, the change log and the versions are left as the agent wrote them.
 */
export function asBefore(file: string, tables: OldTable[]): void {
  const db = new Database(file);
  try {
    db.transaction(() => {
      for (const t of tables) {
        const cols = (db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(t.name) as string[]).join(', ');
        db.exec(`ALTER TABLE ${t.name} RENAME TO old_${t.name}`);
        db.exec(t.create);
        db.exec(`INSERT INTO ${t.name} (rowid, ${cols}) SELECT rowid, ${cols} FROM old_${t.name}`);
        db.exec(`DROP TABLE old_${t.name}`);
        for (const ix of t.indexes) db.exec(ix);
      }
    })();
  } finally {
    db.close();
  }
}
