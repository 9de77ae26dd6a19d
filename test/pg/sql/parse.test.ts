// sql/parse.ts, the front end's one call into PostgreSQL's parser: a text's tree is kept for the
// passes that read it next (the same object), frozen all the way down so that no pass can change
// what the others read, and a text that does not parse throws the parser's error each time.
import assert from 'node:assert/strict';
import { loadParser, parseTree } from '../../../protocols/pg/sql/parse';

describe('PG parse tree, shared', () => {
  before(() => loadParser());

  it('the same text gives the same tree until 4 other texts were parsed since', () => {
    const sql = 'SELECT a, b FROM t WHERE c = $1 -- parse.test 1';
    const tree = parseTree(sql);
    assert.equal(parseTree(sql.split('').join('')), tree); // by content, not by the string object
    assert.equal(tree.stmts[0].stmt.SelectStmt.targetList.length, 2);
    for (let i = 0; i < 3; i++) parseTree(`SELECT ${i} -- parse.test 2`);
    assert.equal(parseTree(sql), tree); // the 4th most recent: still kept
    for (let i = 0; i < 4; i++) parseTree(`SELECT ${i} -- parse.test 3`);
    const again = parseTree(sql);
    assert.notEqual(again, tree);
    assert.deepEqual(again, tree);
  });

  it('is frozen to its leaves: a pass that writes into it throws', () => {
    const tree = parseTree('SELECT x FROM t WHERE y IN (1, 2) -- parse.test 4');
    const select = tree.stmts[0].stmt.SelectStmt;
    assert.ok(Object.isFrozen(tree) && Object.isFrozen(select.targetList) && Object.isFrozen(select.whereClause));
    assert.throws(() => {
      select.targetList.push({});
    }, TypeError);
    assert.throws(() => {
      select.whereClause.A_Expr.kind = 'AEXPR_OP';
    }, TypeError);
    assert.throws(() => {
      delete select.fromClause;
    }, TypeError);
    assert.equal(select.whereClause.A_Expr.kind, 'AEXPR_IN');
  });

  it('a text that does not parse throws the parser error, the same each time', () => {
    const errors: unknown[] = [];
    for (let i = 0; i < 2; i++)
      try {
        parseTree('SELECT FROM WHERE ( -- parse.test 5');
      } catch (err) {
        errors.push(err);
      }
    assert.equal(errors.length, 2);
    assert.equal(errors[0], errors[1]);
    const e = errors[0] as Error & { sqlDetails?: { cursorPosition?: number } };
    assert.match(e.message, /syntax error/);
    assert.ok(e.sqlDetails);
  });
});
