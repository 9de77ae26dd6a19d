"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.bearerAuth = bearerAuth;
const roles_1 = require("../../src/auth/roles");
const errors_1 = require("../../src/errors");
/**
 * Bearer-token auth for every route, before routing: no token is 401 with `WWW-Authenticate:
 * Bearer`, a token without the role `roleFor` names is 403. The token never appears in an answer.
 */
function bearerAuth(authority, roleFor) {
    return async (ctx, next) => {
        if (!authority.apiAuthEnabled || authority.isOpenRoute(ctx.path))
            return next();
        const header = ctx.get('authorization');
        const m = /^Bearer +(\S+) *$/i.exec(header);
        if (!m) {
            ctx.set('WWW-Authenticate', 'Bearer realm="patina"');
            throw new errors_1.PatinaError('unauthenticated', header === ''
                ? 'authentication required: send Authorization: Bearer <token>'
                : 'the Authorization header is not "Bearer <token>"');
        }
        const role = authority.tokenRole(m[1]);
        if (role === null) {
            ctx.set('WWW-Authenticate', 'Bearer realm="patina", error="invalid_token"');
            throw new errors_1.PatinaError('unauthenticated', 'the bearer token is not valid');
        }
        const need = roleFor(ctx.method, ctx.path);
        if (!(0, roles_1.roleAllows)(role, need)) {
            ctx.set('WWW-Authenticate', 'Bearer realm="patina", error="insufficient_scope"');
            throw new errors_1.PatinaError('forbidden', `${ctx.method} ${ctx.path} needs the ${need} role; this token has ${role}`);
        }
        ctx.state.role = role;
        return next();
    };
}
//# sourceMappingURL=auth.js.map