// The json builders' spacing (src/engine/pg-json-layout.ts): SQLite's compact documents reprinted
// as PostgreSQL's json_build_object, json_build_array, json_agg and json_object_agg write them.
import assert from 'node:assert/strict';
import { printJsonLayout } from '../../src/engine/pg-json-layout';

describe('json builder layouts', () => {
  it('objects, arrays and aggregates get their separators; raw values stay as they are', () => {
    assert.equal(printJsonLayout('{"a":"x","b":[1,2]}', 'O(c,c)'), '{"a" : "x", "b" : [1,2]}');
    assert.equal(printJsonLayout('{"a":"x","b":[1,2]}', 'O(c,A(c,c))'), '{"a" : "x", "b" : [1, 2]}');
    assert.equal(printJsonLayout('[{"a":1},{"a":2}]', 'G(O(c))'), '[{"a" : 1}, {"a" : 2}]');
    assert.equal(printJsonLayout('[{"a":1},{"a":2}]', 'Gn(c)'), '[{"a":1}, \n {"a":2}]');
    assert.equal(printJsonLayout('{"k":{"z":1},"j":null}', 'M(O(c))'), '{ "k" : {"z" : 1}, "j" : null }');
    assert.equal(printJsonLayout('{}', 'O()'), '{}');
    assert.equal(printJsonLayout('[]', 'G(c)'), '[]');
  });

  it('strings holding brackets, commas, colons and escaped quotes are copied whole', () => {
    const doc = '{"a,\\"}":"x:]\\\\","b":["[,]",{"c":"}"}]}';
    assert.equal(printJsonLayout(doc, 'O(c,A(c,O(c)))'), '{"a,\\"}" : "x:]\\\\", "b" : ["[,]", {"c" : "}"}]}');
  });

  it("a json value's marked text (v) is printed as it was written; a whole row (R) compact around it", () => {
    const marked = (text: string) => JSON.stringify(`\u0001${text}`);
    assert.equal(printJsonLayout(`{"a":${marked('{"x":  1}')},"b":2}`, 'O(v,c)'), '{"a" : {"x":  1}, "b" : 2}');
    assert.equal(printJsonLayout(`[${marked(' [1 ,2] ')},null]`, 'G(v)'), '[ [1 ,2] , null]');
    assert.equal(printJsonLayout(marked('"s\\"'), 'v'), '"s\\"');
    assert.equal(printJsonLayout(`{"id":1,"doc":${marked('{"a": "é"}')}}`, 'R(c,v)'), '{"id":1,"doc":{"a": "é"}}');
    // an unmarked value where v is laid out (a NULL, a plain string) stays as it is
    assert.equal(printJsonLayout('{"a":null,"b":"x"}', 'O(v,v)'), '{"a" : null, "b" : "x"}');
  });

  it('a value of another shape than its layout (NULL from coalesce, a scalar) is printed as it is', () => {
    assert.equal(printJsonLayout('null', 'O(c)'), 'null');
    assert.equal(printJsonLayout('[1,2]', 'O(c)'), '[1,2]');
    assert.equal(printJsonLayout('{"a":1,"b":2}', 'O(c)'), '{"a" : 1, "b" : 2}');
  });
});
