"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Column defaults as PostgreSQL prints them (test/pg/catalog-*.test.ts and pg-dump.test.ts check the
// same live against PostgreSQL 15; the catalog queries' rewrites are in test/unit/pg-catalog-forms.test.ts).
const strict_1 = __importDefault(require("node:assert/strict"));
const column_defaults_1 = require("../../../protocols/pg/catalog/column-defaults");
const oids_1 = require("../../../protocols/pg/types/oids");
describe('column defaults as PostgreSQL prints them', () => {
    it('string literals carry their type, numbers and booleans print bare', () => {
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)("''", oids_1.OID.text), "''::text");
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)("'it''s'", oids_1.OID.text), "'it''s'::text");
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('0', oids_1.OID.int8), '0');
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('false', oids_1.OID.bool), 'false');
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('1', oids_1.OID.bool), 'true');
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)("'t'", oids_1.OID.bool), 'true');
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('(42)', oids_1.OID.int8), '42');
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('CURRENT_TIMESTAMP', oids_1.OID.timestamp), 'CURRENT_TIMESTAMP');
        // read off PostgreSQL 15: pg_get_expr of DEFAULT -1, -1.5, 5000000000, -5000000000, 1.5
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('-1', oids_1.OID.int8), "'-1'::integer");
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('-2', oids_1.OID.float8), "'-2'::integer");
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('-1.5', oids_1.OID.numeric), "'-1.5'::numeric");
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('5000000000', oids_1.OID.int8), "'5000000000'::bigint");
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('-5000000000', oids_1.OID.int8), "'-5000000000'::bigint");
        strict_1.default.equal((0, column_defaults_1.pgDefaultExpr)('1.5', oids_1.OID.float8), '1.5');
    });
});
//# sourceMappingURL=column-defaults.test.js.map