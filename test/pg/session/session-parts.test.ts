// The pure parts of a PG session (protocols/pg/session/): SET and RESET parsed, SHOW's rows, the
// arguments of NOTIFY as bound, and EXPLAIN's lines from SQLite's plan rows.
import assert from 'node:assert/strict';
import { explainLines } from '../../../protocols/pg/session/explain';
import { notifyArguments } from '../../../protocols/pg/session/notifications';
import { applySetting, parseSet, showRows } from '../../../protocols/pg/session/settings';
import type { Analyzed } from '../../../protocols/pg/sql/analyzed';
import { lexPg } from '../../../protocols/pg/sql/lexer';

const sig = (sql: string) => lexPg(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
const sqlstate = (code: string) => (e: unknown) => (e as { sqlstate?: string }).sqlstate === code;

describe('PG session parts', () => {
  it('SET and RESET: name and value, quoted values unquoted, SET TRANSACTION ignored', () => {
    assert.deepEqual(parseSet(sig('SET search_path TO public, "My Schema"')), {
      name: 'search_path',
      value: 'public, My Schema',
    });
    assert.deepEqual(parseSet(sig("SET application_name = 'it''s'")), { name: 'application_name', value: "it's" });
    assert.deepEqual(parseSet(sig("SET TIME ZONE 'UTC'")), { name: 'timezone', value: 'UTC' });
    assert.deepEqual(parseSet(sig('SET LOCAL statement_timeout = 5')), { name: 'statement_timeout', value: '5' });
    assert.deepEqual(parseSet(sig('RESET datestyle')), { name: 'datestyle', value: null });
    assert.deepEqual(parseSet(sig('SET TRANSACTION ISOLATION LEVEL SERIALIZABLE')), { name: '', value: null });
    // incomplete statements: no name (nothing is set) or an empty value
    assert.deepEqual(parseSet(sig('SET')), { name: '', value: '' });
    assert.deepEqual(parseSet(sig('RESET')), { name: '', value: null });
    assert.deepEqual(parseSet(sig('SET x =')), { name: 'x', value: '' });
  });

  it('settings: RESET gives the default back, SHOW ALL sorted, an unknown name is 42704', () => {
    const settings = new Map([
      ['b', '2'],
      ['a', '1'],
    ]);
    applySetting(settings, { name: 'timezone', value: null });
    applySetting(settings, { name: 'a', value: 'x' });
    applySetting(settings, { name: '', value: 'y' });
    applySetting(settings, undefined);
    applySetting(settings, { name: 'zz', value: null });
    assert.deepEqual(
      [...settings],
      [
        ['b', '2'],
        ['a', 'x'],
        ['timezone', 'UTC'],
        ['zz', ''],
      ],
    );
    assert.deepEqual(showRows(settings, 'a'), [['x']]);
    assert.deepEqual(showRows(settings, 'all')[0], ['a', 'x', '']);
    assert.throws(() => showRows(settings, 'nope'), sqlstate('42704'));
  });

  it('NOTIFY arguments: literals or bound parameters; an empty channel or a long payload is 22023', () => {
    assert.deepEqual(notifyArguments({ name: 'c', payload: 'p' }, []), ['c', 'p']);
    assert.deepEqual(notifyArguments({ name: '', payload: '', params: [0, 1] }, ['ch', null]), ['ch', '']);
    assert.deepEqual(notifyArguments({ name: 'c', payload: '', params: [null, 0] }, [42]), ['c', '42']);
    assert.throws(() => notifyArguments({ name: '', payload: 'x' }, []), sqlstate('22023'));
    assert.throws(() => notifyArguments({ name: 'c', payload: 'x'.repeat(8000) }, []), sqlstate('22023'));
    assert.throws(() => notifyArguments({ name: '', payload: '', params: [0, null] }, [null]), sqlstate('22023'));
  });

  it("EXPLAIN lines: SQLite's plan indented as PostgreSQL's, a write over what it reads", () => {
    const read = { readonly: true } as Analyzed;
    assert.deepEqual(
      explainLines(
        [
          [2, 0, 0, 'SCAN users'],
          [5, 2, 0, 'USE INDEX'],
        ],
        read,
      ),
      ['SCAN users', '  ->  USE INDEX'],
    );
    assert.deepEqual(explainLines([], read), ['(no plan)']);
    const update = { readonly: false, command: 'UPDATE', sql: 'UPDATE "users" SET a = 1' } as Analyzed;
    assert.deepEqual(explainLines([[2, 0, 0, 'SEARCH users USING INTEGER PRIMARY KEY (rowid=?)']], update), [
      'Update on users',
      '  ->  SEARCH users USING INTEGER PRIMARY KEY (rowid=?)',
    ]);
    const truncate = { readonly: false, command: 'TRUNCATE TABLE', sql: 'DELETE FROM "users"' } as Analyzed;
    assert.deepEqual(explainLines([], truncate), ['Delete on users', '  ->  Result']);
  });
});
