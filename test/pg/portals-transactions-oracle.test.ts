// Portals and transaction statements against PostgreSQL 15, message by message: an Execute whose row
// limit takes exactly the rows left (PortalSuspended, then CommandComplete at the next Execute),
// SQL's CLOSE of a portal made by Bind and CLOSE ALL, RESET ALL in a block that rolls back, SHOW of
// transaction_deferrable after BEGIN ... DEFERRABLE and SET TRANSACTION, and PREPARE TRANSACTION /
// COMMIT PREPARED / ROLLBACK PREPARED (PostgreSQL 15 with max_prepared_transactions = 0), SET
// TRANSACTION after a query of the block (25001), FETCH of a portal that answers no rows, and the
// settings of a block that fails or rolls back to a savepoint. The answers (type, command tag,
// error or notice with SQLSTATE and text, row, ParameterStatus, status) of each exchange up to
// ReadyForQuery are compared.
import assert from 'node:assert/strict';
import { serialize } from 'pg-protocol';
import { type CatalogPair, startCatalogPair } from '../helpers/catalog-pair';
import { WireClient, shownMessage } from '../helpers/pg-wire';

const SCHEMA = "CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v TEXT NOT NULL DEFAULT '');";

const parse = (sql: string, name = '') => serialize.parse({ name, text: sql, types: [] });
const bind = (portal = '', statement = '') => serialize.bind({ portal, statement, values: [] });
const execute = (rows = 0, portal = '') => serialize.execute({ portal, rows });
const sync = () => serialize.sync();
const query = (sql: string) => serialize.query(sql);
/** One exchange per simple query. */
const queries = (...sqls: string[]) => sqls.map((sql) => [query(sql)]);

describe('pg: portals and transaction statements answer as PostgreSQL 15 (oracle)', function () {
  this.timeout(180_000);
  let pair: CatalogPair;

  before(async () => {
    pair = await startCatalogPair({ schemas: { patina: SCHEMA, postgres: SCHEMA } });
  });
  after(() => pair?.dispose());

  /**
   * Runs the exchanges on a fresh connection to `port` (t holding ids 1 to `rows` first), each up
   * to its ReadyForQuery: what came back, a run of DataRows shown as its first, last and count.
   */
  async function transcript(port: number, exchanges: Buffer[][], rows = 3): Promise<string[]> {
    const c = await WireClient.open(port, { user: 'tester', database: 'db' });
    const out: string[] = [];
    try {
      await c.exchange(
        query(`DELETE FROM t; INSERT INTO t (id, v) SELECT g, 'v' || g FROM generate_series(1, ${rows}) g`),
      );
      for (const messages of exchanges) {
        const shown = (await c.exchange(...messages)).messages.map(shownMessage);
        const runs: string[] = [];
        for (let i = 0; i < shown.length; ) {
          let j = i;
          while (j + 1 < shown.length && shown[i].startsWith('D ') && shown[j + 1].startsWith('D ')) j++;
          runs.push(j - i > 1 ? `${shown[i]}..${shown[j].slice(2)} (${j - i + 1})` : shown.slice(i, j + 1).join(' '));
          i = j + 1;
        }
        out.push(runs.join(' '));
      }
    } finally {
      c.end();
    }
    return out;
  }

  async function same(exchanges: Buffer[][], rows?: number): Promise<string[]> {
    const patina = await transcript(pair.patinaPort, exchanges, rows);
    const postgres = await transcript(pair.postgresPort, exchanges, rows);
    assert.deepEqual(patina, postgres);
    return patina;
  }

  const READ = 'SELECT id FROM t ORDER BY id';
  /** A statement that fails (t holds id 1), with no RowDescription before its error. */
  const FAIL = 'INSERT INTO t (id) VALUES (1)';

  it('an Execute whose limit takes exactly the rows left is PortalSuspended; the next completes with none', async () => {
    const t = await same([
      [parse(READ), bind(), execute(3), execute(3), sync()],
      [parse(READ), bind(), execute(2), execute(1), execute(1), sync()],
      [parse(READ), bind(), execute(2), execute(2), sync()],
      [parse(READ), bind(), execute(4), sync()],
      [query('BEGIN')],
      [parse(READ), bind('p'), execute(3, 'p'), sync()],
      [execute(1, 'p'), execute(1, 'p'), sync()],
      [query('COMMIT')],
      [query('BEGIN')],
      [parse('INSERT INTO t (id) VALUES (7), (8), (9) RETURNING id'), bind(), execute(2), execute(2), sync()],
      [query('ROLLBACK')],
    ]);
    assert.match(t[0], /^1 2 D 1\.\.3 \(3\) s C SELECT 0 Z I$/);
    assert.match(t[1], /s D 3 s C SELECT 0 Z I$/);
    assert.match(t[2], /s D 3 C SELECT 1 Z I$/);
    assert.match(t[5], / s Z T$/);
    assert.match(t[9], /D 7 D 8 s D 9 C INSERT 0 1 Z T$/);
  });

  it('the same at the end of a streamed read (batches of a read worker)', async () => {
    const READ_ALL = 'SELECT id, v FROM t ORDER BY id';
    const t = await same(
      [
        [parse(READ_ALL), bind(), execute(1200), execute(1200), sync()],
        [parse(READ_ALL), bind(), execute(1000), execute(200), execute(5), sync()],
      ],
      1200,
    );
    assert.match(t[0], /\(1200\) s C SELECT 0 Z I$/);
  });

  it('CLOSE closes a portal made by Bind (a read or an INSERT), CLOSE ALL every one', async () => {
    const t = await same([
      [query('BEGIN')],
      [parse(READ), bind('p'), execute(1, 'p'), sync()],
      [query('CLOSE p')],
      [execute(1, 'p'), sync()],
      [query('ROLLBACK')],
      [query('BEGIN')],
      [parse('INSERT INTO t (id) VALUES (9)'), bind('w'), sync()],
      [query('CLOSE w')],
      [execute(0, 'w'), sync()],
      [query('ROLLBACK')],
      [query('BEGIN')],
      [parse(READ), bind('a'), bind('b'), execute(1, 'b'), sync()],
      [query('DECLARE c CURSOR FOR SELECT 1')],
      [query('CLOSE ALL')],
      [execute(1, 'a'), sync()],
      [query('ROLLBACK')],
      [query('BEGIN')],
      [parse(READ), bind('b'), sync()],
      [query('DECLARE c CURSOR FOR SELECT 1')],
      [query('CLOSE ALL')],
      [execute(1, 'b'), sync()],
      [query('ROLLBACK')],
      [query('BEGIN; DECLARE c CURSOR FOR SELECT 1; CLOSE ALL; FETCH c')],
      [query('ROLLBACK')],
      [query('CLOSE nope')],
      [query('SELECT count(*) FROM t')],
    ]);
    assert.match(t[2], /^C CLOSE CURSOR Z T$/);
    assert.match(t[3], /E 34000 portal "p" does not exist/);
    assert.match(t[8], /E 34000 portal "w" does not exist/);
    assert.match(t[13], /^C CLOSE CURSOR ALL Z T$/);
    assert.match(t[14], /E 34000 portal "a" does not exist/);
    assert.match(t[20], /E 34000 portal "b" does not exist/);
    assert.match(t[22], /E 34000 cursor "c" does not exist/);
    assert.match(t[24], /E 34000 cursor "nope" does not exist/);
    assert.match(t[25], /D 3 /);
  });

  const SHOW = query(
    "SELECT current_setting('TimeZone'), current_setting('extra_float_digits'), current_setting('myapp.tenant', true)",
  );

  it('RESET ALL in a block that rolls back: the settings come back; one that commits keeps it', async () => {
    const t = await same([
      // (not the block's READ ONLY, which RESET ALL leaves as PostgreSQL's)
      [query('BEGIN READ ONLY; RESET ALL')],
      [query("SELECT current_setting('transaction_read_only')")],
      [query('INSERT INTO t (id) VALUES (20)')],
      [query('ROLLBACK')],
      [query("SET TimeZone = 'Asia/Tokyo'; SET extra_float_digits = 2; SET myapp.tenant = 'acme'")],
      [query('BEGIN; RESET ALL')],
      [SHOW],
      [query('ROLLBACK')],
      [SHOW],
      [query("BEGIN; SET TimeZone = 'Europe/Paris'; RESET ALL; SET extra_float_digits = 3; ROLLBACK")],
      [SHOW],
      [query('BEGIN; RESET ALL; COMMIT')],
      [SHOW],
    ]);
    assert.match(t[1], /D on /);
    assert.match(t[2], /E 25006/);
    assert.match(t[8], /D Asia\/Tokyo\|2\|acme/);
    assert.match(t[10], /D Asia\/Tokyo\|2\|acme/);
    assert.match(t[12], /D UTC\|1\|/);
  });

  /** The transaction's read-only and deferrable modes, and the session's default deferrable mode. */
  const MODES = [
    query(
      "SELECT current_setting('transaction_read_only'), current_setting('transaction_deferrable'), current_setting('default_transaction_deferrable')",
    ),
  ];

  it('transaction_deferrable after BEGIN ... DEFERRABLE, SET TRANSACTION and SET SESSION CHARACTERISTICS', async () => {
    const t = await same([
      [query('BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY DEFERRABLE')],
      MODES,
      [query('SHOW transaction_deferrable')],
      [query("SELECT current_setting('transaction_isolation')")],
      [query('COMMIT')],
      MODES,
      ...queries('START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY, DEFERRABLE'),
      MODES,
      ...queries('ROLLBACK', 'BEGIN; SET TRANSACTION READ ONLY, DEFERRABLE'),
      MODES,
      ...queries('ROLLBACK'),
      MODES,
      ...queries('BEGIN DEFERRABLE; SET TRANSACTION NOT DEFERRABLE'),
      MODES,
      ...queries('ROLLBACK', 'SET SESSION CHARACTERISTICS AS TRANSACTION DEFERRABLE'),
      MODES,
      ...queries('BEGIN'),
      MODES,
      ...queries('ROLLBACK', 'BEGIN NOT DEFERRABLE'),
      MODES,
      ...queries('ROLLBACK', 'SET TRANSACTION DEFERRABLE'),
      MODES,
      ...queries('BEGIN; SET SESSION CHARACTERISTICS AS TRANSACTION NOT DEFERRABLE', 'ROLLBACK'),
      MODES,
    ]);
    assert.equal(t[1], 'T D on|on|off C SELECT 1 Z T');
    assert.equal(t[2], 'T D on C SHOW Z T');
    assert.match(t[5], /D off\|off\|off/);
    assert.match(t[10], /D on\|on\|off/);
    assert.match(t[17], /D off\|on\|on/);
    assert.match(t[28], /D off\|on\|on/);
  });

  it('SET TRANSACTION after a query of the block is 25001, in a savepoint too; before one, or to the same level, it is taken', async () => {
    const t = await same([
      ...queries('BEGIN', 'SELECT 1', 'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE', 'ROLLBACK'),
      ...queries(
        'BEGIN',
        'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE',
        'SET TRANSACTION ISOLATION LEVEL READ COMMITTED',
      ),
      ...queries('SELECT 1', 'SET TRANSACTION READ ONLY', 'SET TRANSACTION READ WRITE', 'ROLLBACK'),
      ...queries('BEGIN; SELECT 1; SET TRANSACTION ISOLATION LEVEL REPEATABLE READ', 'ROLLBACK'),
      ...queries('BEGIN ISOLATION LEVEL REPEATABLE READ', 'SELECT count(*) FROM t'),
      ...queries('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ', 'SAVEPOINT a'),
      ...queries(
        'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ',
        'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE',
        'ROLLBACK',
      ),
      ...queries(
        'BEGIN',
        'SELECT 1',
        "SET transaction_isolation = 'read committed'",
        "SET transaction_isolation = 'serializable'",
      ),
      ...queries('ROLLBACK', 'BEGIN', 'SELECT 1', 'SET TRANSACTION DEFERRABLE', 'ROLLBACK'),
      ...queries('BEGIN', 'SAVEPOINT a', 'SET TRANSACTION NOT DEFERRABLE', 'ROLLBACK'),
      ...queries('BEGIN', 'SAVEPOINT a', 'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE', 'ROLLBACK'),
      ...queries('BEGIN READ ONLY', 'SAVEPOINT a', 'SET TRANSACTION READ WRITE', 'ROLLBACK'),
      ...queries('BEGIN', 'SELECT 1', 'SET transaction_read_only = on', 'SET TRANSACTION READ WRITE', 'ROLLBACK'),
      // (statements that take no snapshot: SHOW, SET, LOCK, LISTEN, NOTIFY; DECLARE and CLOSE take one)
      ...queries(
        'BEGIN',
        'SHOW TimeZone',
        'SET myapp.x = 1',
        'LOCK TABLE t IN ACCESS SHARE MODE',
        'LISTEN c',
        'NOTIFY c',
        'UNLISTEN c',
        'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE',
        'ROLLBACK',
      ),
      ...queries('BEGIN', 'DECLARE c CURSOR FOR SELECT 1', 'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE', 'ROLLBACK'),
      ...queries('BEGIN', 'CLOSE ALL', 'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE', 'ROLLBACK'),
      [query('BEGIN')],
      [parse("SELECT set_config('transaction_isolation', 'repeatable read', false)"), bind(), execute(), sync()],
      [query('ROLLBACK')],
      // (a Parse of a query in the block takes it, as PostgreSQL's parse analysis)
      [query('BEGIN')],
      [parse(READ), sync()],
      ...queries('SET TRANSACTION ISOLATION LEVEL SERIALIZABLE', 'ROLLBACK'),
      // outside a block: SET TRANSACTION warns; after a query of a simple query or a pipeline, 25001
      ...queries(
        'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE',
        'SELECT 1; SET TRANSACTION ISOLATION LEVEL SERIALIZABLE',
        'SELECT 1; BEGIN ISOLATION LEVEL SERIALIZABLE',
        'ROLLBACK',
      ),
      [
        parse('SELECT 1'),
        bind(),
        execute(),
        parse('SET TRANSACTION ISOLATION LEVEL SERIALIZABLE'),
        bind(),
        execute(),
        sync(),
      ],
      ...queries('BEGIN', 'SELECT 1', 'BEGIN ISOLATION LEVEL SERIALIZABLE', 'ROLLBACK'),
    ]);
    const BEFORE = 'SET TRANSACTION ISOLATION LEVEL must be called before any query';
    assert.equal(t[2], `E 25001 ${BEFORE} Z E`);
    for (const i of [5, 6, 8, 15, 17, 22, 53]) assert.equal(t[i], 'C SET Z T', `${i}`);
    assert.equal(t[9], 'E 25001 transaction read-write mode must be set before any query Z E');
    assert.match(t[11], /C SELECT 1 E 25001 SET TRANSACTION ISOLATION LEVEL must be called before any query Z E$/);
    for (const i of [18, 23, 57, 61, 68]) assert.equal(t[i], `E 25001 ${BEFORE} Z E`, `${i}`);
    assert.equal(t[27], 'E 25001 SET TRANSACTION [NOT] DEFERRABLE must be called before any query Z E');
    assert.equal(t[31], 'E 25001 SET TRANSACTION [NOT] DEFERRABLE cannot be called within a subtransaction Z E');
    assert.equal(t[35], 'E 25001 SET TRANSACTION ISOLATION LEVEL must not be called in a subtransaction Z E');
    assert.equal(t[39], 'E 25001 cannot set transaction read-write mode inside a read-only transaction Z E');
    assert.equal(t[44], 'E 25001 transaction read-write mode must be set before any query Z E');
    assert.equal(t[64], `1 2 E 25001 ${BEFORE} Z E`);
    assert.equal(t[70], 'N 25P01 SET TRANSACTION can only be used in transaction blocks C SET Z I');
    assert.equal(t[71], `T D 1 C SELECT 1 E 25001 ${BEFORE} Z I`);
    assert.equal(t[72], `T D 1 C SELECT 1 E 25001 ${BEFORE} Z I`);
    assert.match(
      t[74],
      /C SELECT 1 1 2 N 25P01 SET TRANSACTION can only be used in transaction blocks E 25001 .* Z I$/,
    );
    assert.equal(t[77], `N 25001 there is already a transaction in progress E 25001 ${BEFORE} Z E`);
  });

  it('FETCH and MOVE of a portal that answers no rows (an INSERT, a SET): XX000 before its Execute, 55000 after; a SHOW portal is fetched', async () => {
    const t = await same([
      [query('BEGIN')],
      [parse('INSERT INTO t (id) VALUES (9)'), bind('w'), sync()],
      [query('FETCH ALL FROM w')],
      [query('ROLLBACK')],
      [query('BEGIN')],
      [parse('INSERT INTO t (id) VALUES (9)'), bind('w'), sync()],
      [query('MOVE ALL FROM w')],
      [query('ROLLBACK')],
      [query('BEGIN')],
      [parse('INSERT INTO t (id) VALUES (9)'), bind('w'), execute(0, 'w'), sync()],
      [query('FETCH w')],
      [query('ROLLBACK')],
      [query('BEGIN')],
      [parse('SET myapp.x = 1'), bind('w'), sync()],
      [query('FETCH w')],
      [query('ROLLBACK')],
      [query('BEGIN')],
      [parse('SHOW TimeZone'), bind('w'), sync()],
      [query('FETCH w')],
      [query('FETCH w')],
      [query('ROLLBACK')],
      // (outside a block, in the pipeline of its Bind; nothing of the INSERT is stored)
      [parse('INSERT INTO t (id) VALUES (10)'), bind('w'), parse('FETCH w'), bind(), execute(), sync()],
      [query('SELECT count(*) FROM t')],
    ]);
    assert.match(t[2], /^E XX000 unsupported portal strategy Z E$/);
    assert.match(t[6], /^E XX000 unsupported portal strategy Z E$/);
    assert.match(t[10], /^E 55000 portal "w" cannot be run Z E$/);
    assert.match(t[14], /^E XX000 unsupported portal strategy Z E$/);
    assert.match(t[18], /^T D UTC C FETCH 1 Z T$/);
    assert.match(t[19], /^T C FETCH 0 Z T$/);
    assert.match(t[21], /E XX000 unsupported portal strategy Z I$/);
    assert.match(t[22], /D 3 /);
  });

  const ZONE = query("SELECT current_setting('TimeZone'), current_setting('extra_float_digits')");

  it('a failing statement of a block puts its settings back at once (SET and SET LOCAL; ParameterStatus before its ReadyForQuery)', async () => {
    const t = await same([
      ...queries('BEGIN', "SET TimeZone = 'Asia/Tokyo'", 'SET LOCAL extra_float_digits = 2', FAIL, 'ROLLBACK'),
      [ZONE],
      ...queries(`BEGIN; SET TimeZone = 'Asia/Tokyo'; ${FAIL}`, 'ROLLBACK'),
      [ZONE],
      ...queries('BEGIN', "SET TimeZone = 'Asia/Tokyo'", FAIL, 'COMMIT'),
      [ZONE],
      [query('BEGIN')],
      [query("SET TimeZone = 'Asia/Tokyo'")],
      [parse(FAIL), bind(), execute(), sync()],
      [query('ROLLBACK')],
    ]);
    const DUP = 'E 23505 duplicate key value violates unique constraint "t_pkey"';
    assert.equal(t[1], 'C SET S TimeZone=Asia/Tokyo Z T');
    assert.equal(t[3], `${DUP} S TimeZone=UTC Z E`);
    assert.equal(t[4], 'C ROLLBACK Z I');
    assert.match(t[5], /D UTC\|1 /);
    assert.equal(t[6], `C BEGIN C SET ${DUP} Z E`);
    assert.equal(t[11], `${DUP} S TimeZone=UTC Z E`);
    assert.equal(t[12], 'C ROLLBACK Z I');
    assert.equal(t[16], `1 2 ${DUP} S TimeZone=UTC Z E`);
  });

  it("settings and savepoints: ROLLBACK TO puts back what was set since, RELEASE keeps it for the block, an error only its savepoint's", async () => {
    const t = await same([
      ...queries('BEGIN', "SET TimeZone = 'Asia/Tokyo'", 'SAVEPOINT a', "SET TimeZone = 'Europe/Paris'"),
      ...queries('SET LOCAL extra_float_digits = 2', FAIL, 'ROLLBACK TO a'),
      [ZONE],
      ...queries('COMMIT'),
      [ZONE],
      ...queries("SET TimeZone = 'UTC'", 'BEGIN', 'SAVEPOINT a', "SET TimeZone = 'Asia/Tokyo'", 'SAVEPOINT b'),
      ...queries('SET extra_float_digits = 3', 'ROLLBACK TO a'),
      [ZONE],
      ...queries("SET TimeZone = 'Europe/Paris'", 'SAVEPOINT b', 'SET LOCAL extra_float_digits = 2', 'RELEASE a'),
      [ZONE],
      ...queries('COMMIT'),
      [ZONE],
      ...queries('BEGIN', 'SAVEPOINT a', "SET TimeZone = 'Asia/Tokyo'", 'RELEASE a', 'ROLLBACK'),
      [ZONE],
      ...queries('BEGIN', 'SAVEPOINT a', 'SET LOCAL extra_float_digits = 2', 'RELEASE a'),
      [ZONE],
      ...queries('COMMIT'),
      [ZONE],
      ...queries('BEGIN', "SET TimeZone = 'UTC'", 'SAVEPOINT a', "SET myapp.y = 'q'", 'SAVEPOINT a'),
      ...queries("SET TimeZone = 'Asia/Tokyo'", 'ROLLBACK TO a'),
      [query("SELECT current_setting('TimeZone'), current_setting('myapp.y', true)")],
      ...queries('ROLLBACK TO a', 'RELEASE a', 'RELEASE a', 'COMMIT'),
      [query("SELECT current_setting('TimeZone'), current_setting('myapp.y', true)")],
    ]);
    assert.match(t[5], /^E 23505 .* S TimeZone=Asia\/Tokyo Z E$/);
    assert.match(t[7], /D Asia\/Tokyo\|1 /);
    assert.match(t[9], /D Asia\/Tokyo\|1 /);
    assert.equal(t[16], 'C ROLLBACK S TimeZone=UTC Z T');
    assert.match(t[22], /D Europe\/Paris\|2 /);
    assert.match(t[24], /D Europe\/Paris\|1 /);
    assert.equal(t[29], 'C ROLLBACK S TimeZone=Europe/Paris Z I');
    assert.match(t[30], /D Europe\/Paris\|1 /);
    assert.match(t[35], /D Europe\/Paris\|2 /);
    assert.match(t[37], /D Europe\/Paris\|1 /);
    assert.match(t[45], /D UTC\|q /);
    assert.match(t[50], /D UTC\|q /);
  });

  it('PREPARE TRANSACTION, COMMIT PREPARED and ROLLBACK PREPARED with prepared transactions disabled', async () => {
    const t = await same([
      ...queries(
        "PREPARE TRANSACTION 'x'",
        "BEGIN; INSERT INTO t (id) VALUES (10); PREPARE TRANSACTION 'x'",
        'SELECT count(*) FROM t',
        'BEGIN; SELECT 1/0',
        "PREPARE TRANSACTION 'x'",
        "INSERT INTO t (id) VALUES (11); PREPARE TRANSACTION 'x'",
        "COMMIT PREPARED 'x'",
        "ROLLBACK PREPARED 'x'",
        "BEGIN; COMMIT PREPARED 'x'",
        'ROLLBACK',
        "BEGIN; ROLLBACK PREPARED 'x'",
        'ROLLBACK',
        'BEGIN; SELECT 1/0',
        "COMMIT PREPARED 'x'",
        'ROLLBACK',
        'SELECT count(*) FROM t',
      ),
      [
        parse('INSERT INTO t (id) VALUES (12)'),
        bind(),
        execute(),
        parse("PREPARE TRANSACTION 'x'"),
        bind(),
        execute(),
        sync(),
      ],
      [parse("PREPARE TRANSACTION 'x'"), bind(), execute(), sync()],
      [parse('SELECT 1'), bind(), execute(), parse("COMMIT PREPARED 'x'"), bind(), execute(), sync()],
      ...queries('SELECT count(*) FROM t'),
    ]);
    assert.match(t[0], /N 25P01 there is no transaction in progress C ROLLBACK/);
    assert.match(t[1], /E 55000 prepared transactions are disabled Z I$/);
    assert.match(t[2], /D 3 /);
    assert.match(t[6], /E 42704 prepared transaction with identifier "x" does not exist/);
    assert.match(t[8], /E 25001 COMMIT PREPARED cannot run inside a transaction block/);
    assert.match(t[15], /D 3 /);
    // (a pipeline's implicit transaction is PostgreSQL's TBLOCK_STARTED: its write commits)
    assert.match(t[16], /C INSERT 0 1 1 2 N 25P01 there is no transaction in progress C ROLLBACK Z I$/);
    assert.match(t[19], /D 4 /);
  });
});
