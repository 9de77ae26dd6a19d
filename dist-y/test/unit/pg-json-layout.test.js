"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The json builders' spacing (src/engine/pg-json-layout.ts): SQLite's compact documents reprinted
// as PostgreSQL's json_build_object, json_build_array, json_agg and json_object_agg write them.
const strict_1 = __importDefault(require("node:assert/strict"));
const pg_json_layout_1 = require("../../src/engine/pg-json-layout");
describe('json builder layouts', () => {
    it('objects, arrays and aggregates get their separators; raw values stay as they are', () => {
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('{"a":"x","b":[1,2]}', 'O(c,c)'), '{"a" : "x", "b" : [1,2]}');
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('{"a":"x","b":[1,2]}', 'O(c,A(c,c))'), '{"a" : "x", "b" : [1, 2]}');
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('[{"a":1},{"a":2}]', 'G(O(c))'), '[{"a" : 1}, {"a" : 2}]');
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('[{"a":1},{"a":2}]', 'Gn(c)'), '[{"a":1}, \n {"a":2}]');
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('{"k":{"z":1},"j":null}', 'M(O(c))'), '{ "k" : {"z" : 1}, "j" : null }');
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('{}', 'O()'), '{}');
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('[]', 'G(c)'), '[]');
    });
    it('strings holding brackets, commas, colons and escaped quotes are copied whole', () => {
        const doc = '{"a,\\"}":"x:]\\\\","b":["[,]",{"c":"}"}]}';
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)(doc, 'O(c,A(c,O(c)))'), '{"a,\\"}" : "x:]\\\\", "b" : ["[,]", {"c" : "}"}]}');
    });
    it('a value of another shape than its layout (NULL from coalesce, a scalar) is printed as it is', () => {
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('null', 'O(c)'), 'null');
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('[1,2]', 'O(c)'), '[1,2]');
        strict_1.default.equal((0, pg_json_layout_1.printJsonLayout)('{"a":1,"b":2}', 'O(c)'), '{"a" : 1, "b" : 2}');
    });
});
//# sourceMappingURL=pg-json-layout.test.js.map