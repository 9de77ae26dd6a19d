import { ROLES, type Role } from '../config/config';

export type { Role };

/** Whether a principal with role `have` may do what needs `need` (admin ⊇ write ⊇ read). */
export function roleAllows(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}
