/** A number to bind as REAL even when it is whole (see real()). */
export class Real {
    value;
    constructor(value) {
        this.value = value;
    }
}
/** Binds a number as REAL: `real(2)` is 2.0, where a plain 2 binds as INTEGER. */
export function real(value) {
    return new Real(value);
}
