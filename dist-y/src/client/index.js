"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Real = exports.real = exports.toJson = exports.parseExact = exports.Subscription = exports.QueryResult = exports.PatinaError = exports.PatinaClient = void 0;
// patina/client: a client of the agent's HTTP API for Node 20 and browsers (fetch and web streams only).
var client_js_1 = require("./client.js");
Object.defineProperty(exports, "PatinaClient", { enumerable: true, get: function () { return client_js_1.PatinaClient; } });
var errors_js_1 = require("./errors.js");
Object.defineProperty(exports, "PatinaError", { enumerable: true, get: function () { return errors_js_1.PatinaError; } });
var query_js_1 = require("./query.js");
Object.defineProperty(exports, "QueryResult", { enumerable: true, get: function () { return query_js_1.QueryResult; } });
var subscription_js_1 = require("./subscription.js");
Object.defineProperty(exports, "Subscription", { enumerable: true, get: function () { return subscription_js_1.Subscription; } });
var json_js_1 = require("./json.js");
Object.defineProperty(exports, "parseExact", { enumerable: true, get: function () { return json_js_1.parseExact; } });
Object.defineProperty(exports, "toJson", { enumerable: true, get: function () { return json_js_1.toJson; } });
var types_js_1 = require("./types.js");
Object.defineProperty(exports, "real", { enumerable: true, get: function () { return types_js_1.real; } });
Object.defineProperty(exports, "Real", { enumerable: true, get: function () { return types_js_1.Real; } });
//# sourceMappingURL=index.js.map