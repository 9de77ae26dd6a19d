import type Koa from 'koa';
import type { Role } from '../../src/auth/roles';
import { roleAllows } from '../../src/auth/roles';
import { PatinaError } from '../../src/errors';

/** What the HTTP front end asks the agent's security about a request. */
export interface HttpAuthority {
  readonly apiAuthEnabled: boolean;
  tokenRole(token: string): Role | null;
  isOpenRoute(path: string): boolean;
}

/**
 * Bearer-token auth for every route, before routing: no token is 401 with `WWW-Authenticate:
 * Bearer`, a token without the role `roleFor` names is 403. The token never appears in an answer.
 */
export function bearerAuth(authority: HttpAuthority, roleFor: (method: string, path: string) => Role): Koa.Middleware {
  return async (ctx, next) => {
    if (!authority.apiAuthEnabled || authority.isOpenRoute(ctx.path)) return next();
    const header = ctx.get('authorization');
    const m = /^Bearer +(\S+) *$/i.exec(header);
    if (!m) {
      ctx.set('WWW-Authenticate', 'Bearer realm="patina"');
      throw new PatinaError(
        'unauthenticated',
        header === ''
          ? 'authentication required: send Authorization: Bearer <token>'
          : 'the Authorization header is not "Bearer <token>"',
      );
    }
    const role = authority.tokenRole(m[1]);
    if (role === null) {
      ctx.set('WWW-Authenticate', 'Bearer realm="patina", error="invalid_token"');
      throw new PatinaError('unauthenticated', 'the bearer token is not valid');
    }
    const need = roleFor(ctx.method, ctx.path);
    if (!roleAllows(role, need)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="patina", error="insufficient_scope"');
      throw new PatinaError('forbidden', `${ctx.method} ${ctx.path} needs the ${need} role; this token has ${role}`);
    }
    ctx.state.role = role;
    return next();
  };
}
