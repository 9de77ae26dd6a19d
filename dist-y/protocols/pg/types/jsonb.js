"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.jsonbText = void 0;
// jsonb's text as PostgreSQL prints it (src/engine/jsonb.ts): the stored text is what the client
// sent; this is how it reads back.
var jsonb_1 = require("../../../src/engine/jsonb");
Object.defineProperty(exports, "jsonbText", { enumerable: true, get: function () { return jsonb_1.jsonbText; } });
//# sourceMappingURL=jsonb.js.map