// The session's settings (GUCs): their defaults as PostgreSQL 15 reports them, and SET / RESET
// parsed into a name and a value (SHOW reads them back; the connection sends some at startup).
import type { Analyzed } from '../sql/analyzed';
import { type PgToken, identName } from '../sql/lexer';
import { sessionZoneName } from '../../../src/engine/dates';
import { posixLeapSeconds } from '../../../src/engine/posix-zone';
import { type PgError, pgError } from '../sqlstate';
import { PG_SETTING_ROWS, type PgSettingRow } from '../catalog/pg-settings-rows';
import { clientEncodingName } from '../../../src/engine/encodings/client-encodings';
import { builtInConfigName } from '../../../src/engine/text-search/configs';
import { lookup } from '../../../src/lookup';

export const SERVER_VERSION = '15.0';
export const VERSION_TEXT = `PostgreSQL ${SERVER_VERSION} (Patina) on x86_64-pc-linux-gnu, 64-bit`;

export const GUC_DEFAULTS: Record<string, string> = lookup({
  server_version: SERVER_VERSION,
  server_version_num: '150000',
  server_encoding: 'UTF8',
  client_encoding: 'UTF8',
  datestyle: 'ISO, MDY',
  timezone: 'UTC',
  standard_conforming_strings: 'on',
  integer_datetimes: 'on',
  intervalstyle: 'postgres',
  is_superuser: 'on',
  role: 'none',
  transaction_isolation: 'serializable',
  default_transaction_isolation: 'serializable',
  transaction_read_only: 'off',
  default_transaction_read_only: 'off',
  max_identifier_length: '63',
  search_path: '"$user", public',
  application_name: '',
  lc_collate: 'C.UTF-8',
  lc_ctype: 'C.UTF-8',
  lc_messages: 'C.UTF-8',
  max_connections: '1000',
  statement_timeout: '0',
  extra_float_digits: '1',
  bytea_output: 'hex',
  client_min_messages: 'notice',
  block_size: '4096',
  ssl: 'off',
  default_text_search_config: 'pg_catalog.english',
});

/**
 * The settings a session may change that PostgreSQL 15 reports by ParameterStatus (GUC_REPORT), with
 * the names it reports them by, in its order (by name): all at login, then each whose value is not
 * the one last reported, before ReadyForQuery (session.ts' parameterChanges).
 */
export const REPORTED_SETTINGS: readonly (readonly [string, string])[] = [
  ['application_name', 'application_name'],
  ['client_encoding', 'client_encoding'],
  ['datestyle', 'DateStyle'],
  ['default_transaction_read_only', 'default_transaction_read_only'],
  ['intervalstyle', 'IntervalStyle'],
  ['timezone', 'TimeZone'],
];

/** A reported setting's value as ParameterStatus gives it (as SHOW prints it). */
/**
 * A session's settings: a Map that counts its changes, so that what reads them at every round trip
 * (the ParameterStatus of changed settings before each ReadyForQuery) tells nothing changed with one
 * comparison.
 */
export class SettingsMap extends Map<string, string> {
  /** Changes since made (set, delete, clear); construction's own sets are not counted. */
  changes = 0;

  override set(name: string, value: string): this {
    this.changes++;
    return super.set(name, value);
  }

  override delete(name: string): boolean {
    this.changes++;
    return super.delete(name);
  }

  override clear(): void {
    this.changes++;
    super.clear();
  }
}

export function reportedValue(settings: ReadonlyMap<string, string>, name: string): string {
  return settings.get(name) ?? GUC_DEFAULTS[name] ?? '';
}

/** PostgreSQL 15's settings by lower-case name (catalog/pg-settings-rows.ts). */
export const PG_SETTINGS: ReadonlyMap<string, PgSettingRow> = new Map(
  PG_SETTING_ROWS.map((r) => [r[0].toLowerCase(), r]),
);

/** What SHOW prints for a setting the session has not set: Patina's default, else PostgreSQL 15's. */
export function defaultSetting(name: string): string | undefined {
  return GUC_DEFAULTS[name] ?? PG_SETTINGS.get(name)?.[1];
}

/** Settings PostgreSQL has and pg_settings does not list (SET ROLE, SET SESSION AUTHORIZATION, SET SEED), by context. */
const HIDDEN: Record<string, string> = lookup({
  role: 'user',
  session_authorization: 'user',
  seed: 'user',
  default_with_oids: 'user',
  is_superuser: 'internal',
});

/** Whether SHOW ALL and pg_settings leave the setting out, as PostgreSQL does (role, session_authorization, ...). */
export const hiddenSetting = (name: string): boolean => name in HIDDEN;

/** Why PostgreSQL refuses to set a setting of this context in a session (55P02), by context; absent: it may be set. */
const FIXED: Record<string, string> = lookup({
  internal: 'cannot be changed',
  postmaster: 'cannot be changed without restarting the server',
  sighup: 'cannot be changed now',
  backend: 'cannot be set after connection start',
  'superuser-backend': 'cannot be set after connection start',
});

/**
 * PostgreSQL's refusals of SET name (value; RESET: null), SET LOCAL and set_config alike: 42704 for a
 * name it has no setting of (a dotted name is a custom setting, which any may set), 55P02 for one a
 * session cannot change, 22023 for a value a boolean, an enum or a number (its units and range) does
 * not take. Text values are taken as they are (Patina does not read most of them).
 */
export function checkSetting(name: string, value: string | null): void {
  if (name.includes('.')) return;
  const row = PG_SETTINGS.get(name);
  const context = row?.[6] ?? HIDDEN[name];
  if (context === undefined) throw pgError('42704', `unrecognized configuration parameter "${name}"`);
  const fixed = FIXED[context];
  if (fixed) throw pgError('55P02', `parameter "${row?.[0] ?? name}" ${fixed}`);
  if (!row) return;
  if (value === null) return;
  if (row[7] === 'bool' && !isBoolean(value)) throw pgError('22023', `parameter "${row[0]}" requires a Boolean value`);
  if (row[7] === 'integer' || row[7] === 'real') settingNumber(row, value);
  if (row[7] === 'enum' && row[8] && !row[8].includes(value.trim().toLowerCase())) {
    // (named as written, as PostgreSQL's enum check names it: "intervalstyle")
    const err = pgError('22023', `invalid value for parameter "${name}": "${value}"`) as PgError;
    err.hint = `Available values: ${row[8].join(', ')}.`;
    throw err;
  }
  checkStyle(name, value);
}

/**
 * IntervalStyle, bytea_output and DateStyle are followed, every value of them
 * (types/output-styles.ts): results, COPY and values made text print in them, as clients that set
 * them at connect expect (Rails `iso_8601`, Drupal 7 `escape`, a server's `ISO, DMY` copied), and
 * numeric dates are read in DateStyle's order. A DateStyle PostgreSQL does not read is its 22023.
 */
function checkStyle(name: string, value: string): void {
  if (name === 'datestyle') dateStyleText(value, GUC_DEFAULTS.datestyle, GUC_DEFAULTS.datestyle);
  // (a text search configuration PostgreSQL ships, as it checks the name when it is set)
  if (name === 'default_text_search_config' && builtInConfigName(value) === null)
    throw pgError('22023', `invalid value for parameter "${name}": "${value}"`);
}

/**
 * DateStyle as PostgreSQL's check_datestyle reads it and SHOW prints it ('SQL, DMY'): a list of a
 * style (ISO, SQL, Postgres, German) and an order (YMD, DMY or Euro..., MDY, US or NonEuro...); what
 * it leaves out is kept from `current` (German alone sets DMY), `default` is the login's (`reset`).
 */
function dateStyleText(value: string, current: string, reset: string): string {
  const invalid = (detail: string) =>
    pgError('22023', `invalid value for parameter "DateStyle": "${value}"`, 'user', detail);
  const words = identifierList(value);
  if (words === null) throw invalid('List syntax is invalid.');
  let [style, order] = current.split(', ');
  let haveStyle = false;
  let haveOrder = false;
  const setStyle = (s: string) => {
    if (haveStyle && style !== s) throw invalid('Conflicting "datestyle" specifications.');
    style = s;
    haveStyle = true;
  };
  const setOrder = (o: string) => {
    if (haveOrder && order !== o) throw invalid('Conflicting "datestyle" specifications.');
    order = o;
    haveOrder = true;
  };
  for (const raw of words) {
    const word = raw.toLowerCase();
    if (word === 'iso') setStyle('ISO');
    else if (word === 'sql') setStyle('SQL');
    else if (word.startsWith('postgres')) setStyle('Postgres');
    else if (word === 'german') {
      setStyle('German');
      if (!haveOrder) order = 'DMY';
    } else if (word === 'ymd') setOrder('YMD');
    else if (word === 'dmy' || word.startsWith('euro')) setOrder('DMY');
    else if (word === 'mdy' || word === 'us' || word.startsWith('noneuro')) setOrder('MDY');
    else if (word === 'default') {
      const [s, o] = reset.split(', ');
      if (!haveStyle) style = s;
      if (!haveOrder) order = o;
    } else throw invalid(`Unrecognized key word: "${raw}".`);
  }
  return `${style}, ${order}`;
}

/** A list of names as PostgreSQL's SplitIdentifierString reads it (`iso, "DMY"`: unquoted ones in lower case); null when it is no list. */
function identifierList(value: string): string[] | null {
  const out: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([^\s,"]+))\s*(,|$)/y;
  if (value.trim() === '') return out;
  let at = 0;
  while (at < value.length) {
    re.lastIndex = at;
    const m = re.exec(value);
    if (!m) return null;
    out.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2].toLowerCase());
    at = re.lastIndex;
    if (m[3] === '') break;
    if (at >= value.length) return null; // (a separator with nothing after it)
  }
  return out;
}

/** A boolean setting's text as PostgreSQL's parse_bool reads it: on, off, true, false, yes, no, 1, 0 and their prefixes. */
function isBoolean(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === '') return false;
  if (v === '1' || v === '0') return true;
  if (v === 'o' || v === 'of') return v === 'of'; // 'o' is ambiguous (on, off)
  return ['on', 'off', 'true', 'false', 'yes', 'no'].some((w) => w.startsWith(v) && (w !== 'on' || v === 'on'));
}

/** SET name TO value / SET name = value / SET TIME ZONE v / RESET name / RESET TIME ZONE / RESET ALL. */
export function parseSet(sig: PgToken[]): NonNullable<Analyzed['setting']> {
  let i = 1;
  const up = (k: number) => sig[k]?.text.toUpperCase();
  // SET LOCAL: for the rest of the transaction only (Session undoes it at the transaction's end)
  if (up(i) === 'LOCAL' && up(0) === 'SET') {
    const s = parseSet([sig[0], ...sig.slice(2)]);
    return s.name ? { ...s, local: true } : s;
  }
  // SET CONSTRAINTS ... (every constraint is checked at once here): no setting
  if (up(i) === 'CONSTRAINTS') return { name: '', value: null };
  if (up(i) === 'SESSION' && up(i + 1) === 'AUTHORIZATION')
    return { name: 'session_authorization', value: up(0) === 'RESET' ? null : settingValue(sig, i + 2) };
  if (up(i) === 'SESSION' || up(i) === 'LOCAL') i++;
  // RESET TIME ZONE is RESET timezone (it reset a setting named `time`); RESET ALL all of them
  if (up(0) === 'RESET')
    return { name: up(i) === 'TIME' && up(i + 1) === 'ZONE' ? 'timezone' : settingName(sig, i)[0], value: null };
  if (up(i) === 'TIME' && up(i + 1) === 'ZONE')
    return {
      name: 'timezone',
      value: sig
        .slice(i + 2)
        .map((t) => unquote(t))
        .join(' '),
    };
  // SET TRANSACTION ... READ ONLY (this transaction), SET SESSION CHARACTERISTICS AS TRANSACTION ...
  // READ ONLY (the session's default); their isolation levels are all SERIALIZABLE here
  // ([NOT] DEFERRABLE too: transaction_deferrable, default_transaction_deferrable)
  if (up(i) === 'TRANSACTION' || up(i) === 'CHARACTERISTICS' || up(i) === 'SESSION') {
    const mode = readMode(sig, i);
    const deferrable = deferMode(sig, i);
    const isolation = isolationMode(sig, i);
    const prefix = up(i) === 'TRANSACTION' ? '' : 'default_';
    return {
      name: mode === null ? '' : `${prefix}transaction_read_only`,
      value: mode,
      ...(deferrable ? { deferrable: { name: `${prefix}transaction_deferrable`, value: deferrable } } : {}),
      ...(isolation ? { isolation: { name: `${prefix}transaction_isolation`, value: isolation } } : {}),
    };
  }
  // SET NAMES, SET SCHEMA, SET XML OPTION: the settings PostgreSQL's grammar makes of them
  const alias = SET_ALIASES[`${up(i)} ${up(i + 1)}`] ?? SET_ALIASES[up(i) ?? ''];
  if (alias) return { name: alias[0], value: settingValue(sig, i + alias[1]) };
  const [name, after] = settingName(sig, i);
  let j = after;
  if (sig[j] && (sig[j].text === '=' || up(j) === 'TO')) j++;
  // SET name TO DEFAULT is RESET name
  if (sig.length === j + 1 && sig[j].type === 'word' && up(j) === 'DEFAULT') return { name, value: null };
  return { name, value: settingValue(sig, j) };
}

/** SET forms that are another setting's (with how many words they take). */
const SET_ALIASES: Record<string, [string, number]> = lookup({
  NAMES: ['client_encoding', 1],
  SCHEMA: ['search_path', 1],
  'XML OPTION': ['xmloption', 2],
});

/** The value of a SET from sig[j] on, as written (quotes taken off). */
function settingValue(sig: PgToken[], j: number): string {
  return sig
    .slice(j)
    .map((t) => unquote(t))
    .join(' ')
    .replace(/ , /g, ', ')
    .replace(/^([-+]) (?=[\d.])/, '$1'); // (a signed number: `-1`, lexed as - and 1)
}

/** 'on' for READ ONLY, 'off' for READ WRITE among a transaction's modes (BEGIN, SET TRANSACTION), else null. */
export function readMode(sig: PgToken[], from = 1): 'on' | 'off' | null {
  for (let k = from; k < sig.length - 1; k++)
    if (sig[k].text.toUpperCase() === 'READ') {
      const w = sig[k + 1].text.toUpperCase();
      if (w === 'ONLY') return 'on';
      if (w === 'WRITE') return 'off';
    }
  return null;
}

/** A transaction's `DEFERRABLE` ('on') or `NOT DEFERRABLE` ('off') among its modes; null for neither. */
export function deferMode(sig: PgToken[], from = 1): 'on' | 'off' | null {
  for (let k = from; k < sig.length; k++)
    if (sig[k].text.toUpperCase() === 'DEFERRABLE') return sig[k - 1]?.text.toUpperCase() === 'NOT' ? 'off' : 'on';
  return null;
}

/** `ISOLATION LEVEL x` among a transaction's modes (BEGIN, SET TRANSACTION): the level, lower case; else null. */
export function isolationMode(sig: PgToken[], from = 1): string | null {
  for (let k = from; k < sig.length - 2; k++)
    if (sig[k].text.toUpperCase() === 'ISOLATION' && sig[k + 1].text.toUpperCase() === 'LEVEL') {
      const w = sig[k + 2].text.toLowerCase();
      return w === 'serializable' ? w : `${w} ${sig[k + 3]?.text.toLowerCase() ?? ''}`;
    }
  return null;
}

/** Whether a boolean setting's text is true (on, true, yes, 1, as PostgreSQL reads it). */
export const settingOn = (v: string | undefined): boolean => /^\s*(on|true|yes|1|t|y)\s*$/i.test(v ?? '');

/**
 * A setting's name at sig[i], with the index after it: a custom one is dotted (`myapp.tenant`, which
 * PostgreSQL keeps as a placeholder: it was read as `myapp` set to `. tenant = ...`).
 */
function settingName(sig: PgToken[], i: number): [string, number] {
  if (!sig[i]) return ['', i];
  let name = identName(sig[i]);
  let j = i + 1;
  while (sig[j]?.text === '.' && sig[j + 1] && (sig[j + 1].type === 'word' || sig[j + 1].type === 'quoted')) {
    name += `.${identName(sig[j + 1])}`;
    j += 2;
  }
  // (setting names are case-insensitive in PostgreSQL, quoted too: SET "IntervalStyle" is intervalstyle)
  return [name.toLowerCase(), j];
}

function unquote(t: PgToken): string {
  if (t.type === 'string') return t.text.slice(1, -1).split("''").join("'");
  if (t.type === 'quoted') return identName(t);
  return t.text;
}

/** What RESET ALL leaves, as PostgreSQL's GUC_NO_RESET_ALL: the open transaction's modes. */
export const NO_RESET_ALL = new Set(['transaction_isolation', 'transaction_read_only', 'transaction_deferrable']);

/**
 * SET (a value) or RESET (null: the value `resetTo` gives, the session's at login, else the
 * default) of one setting; a nameless one (SET TRANSACTION ...) is ignored.
 */
export function applySetting(
  settings: Map<string, string>,
  s: { name: string; value: string | null } | undefined,
  resetTo: Readonly<Record<string, string>> = GUC_DEFAULTS,
): void {
  if (s?.name && s.name !== 'all') checkSetting(s.name, s.value);
  if (s?.name === 'all' && s.value === null) {
    // RESET ALL: every setting to its login value, else its default (a custom one to ''); not the
    // transaction's modes, as PostgreSQL's GUC_NO_RESET_ALL (a READ ONLY block stays read-only)
    for (const name of settings.keys()) if (!NO_RESET_ALL.has(name)) resetSetting(settings, name, resetTo);
    return;
  }
  if (s?.name) {
    if (s.value === null) resetSetting(settings, s.name, resetTo);
    else if (s.name === 'statement_timeout') {
      const ms = durationMs(s.value);
      if (ms === null) throw pgError('22023', `invalid value for parameter "statement_timeout": "${s.value}"`);
      settings.set(s.name, durationText(ms));
    } else if (s.name === 'timezone') {
      // SET TIME ZONE LOCAL / DEFAULT is the default; a name no zone has is PostgreSQL's 22023
      if (/^\s*(local|default)\s*$/i.test(s.value)) settings.set(s.name, resetTo.timezone ?? GUC_DEFAULTS.timezone);
      else {
        const zone = sessionZoneName(s.value);
        // (an offset with seconds, 'ABC-3:30:15', PostgreSQL takes for a zone counting leap seconds)
        if (zone === null && posixLeapSeconds(s.value))
          throw pgError(
            '22023',
            `time zone "${s.value}" appears to use leap seconds`,
            'user',
            'PostgreSQL does not support leap seconds.',
          );
        if (zone === null) throw pgError('22023', `invalid value for parameter "TimeZone": "${s.value}"`);
        settings.set(s.name, zone);
      }
    } else if (s.name === 'datestyle') {
      // (what the value leaves out is kept from the session's: SET DateStyle = 'dmy' is ISO, DMY)
      const current = settings.get('datestyle') ?? GUC_DEFAULTS.datestyle;
      settings.set(s.name, dateStyleText(s.value, current, resetTo.datestyle ?? GUC_DEFAULTS.datestyle));
    } else if (s.name === 'default_text_search_config')
      settings.set(s.name, `pg_catalog.${builtInConfigName(s.value)}`); // (as SHOW prints it)
    else if (s.name === 'client_encoding') settings.set(s.name, clientEncodingName(s.value));
    else if (s.name === 'application_name') settings.set(s.name, cleanAscii(s.value));
    else settings.set(s.name, settingText(s.name, s.value));
  }
}

/**
 * application_name as PostgreSQL 15 keeps it (pg_clean_ascii): each byte of its UTF-8 that is no
 * printable ASCII is '?' ('appé' is 'app??'), so that its ParameterStatus fits any client encoding.
 */
export function cleanAscii(value: string): string {
  if (!/[^\x20-\x7e]/.test(value)) return value;
  let out = '';
  for (const b of Buffer.from(value, 'utf8')) out += b < 32 || b > 126 ? '?' : String.fromCharCode(b);
  return out;
}

/** A value as SHOW prints it back: an enum's in lower case, a boolean's as on or off, others as written. */
function settingText(name: string, value: string): string {
  const type = PG_SETTINGS.get(name)?.[7];
  if (type === 'enum') return value.trim().toLowerCase();
  if (type === 'bool') {
    const v = value.trim().toLowerCase();
    return v === 'on' || v === '1' || 'true'.startsWith(v) || 'yes'.startsWith(v) ? 'on' : 'off';
  }
  const row = PG_SETTINGS.get(name);
  // an integer with a unit as PostgreSQL shows it: in the largest unit that divides it (10000 kB is 10000kB, 8192 kB 8MB)
  if (type === 'integer' && row?.[3] && name !== 'statement_timeout') {
    const v = settingNumber(row, value);
    return v === 0 ? '0' : unitText(v, row[3]);
  }
  // (an integer rounded, a real as a number: `1e3` shows 1000)
  if ((type === 'integer' || type === 'real') && row && !row[3]) return String(settingNumber(row, value));
  return value;
}

const MEMORY_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];
const TIME_UNITS = ['us', 'ms', 's', 'min', 'h', 'd'];

/** A value of a setting in base unit `unit` written in the largest unit that divides it (not below the base unit). */
function unitText(v: number, unit: string): string {
  const units = MEMORY_UNITS.includes(unit) || unit === '8kB' ? MEMORY_UNITS : TIME_UNITS;
  const base = UNIT_SIZE[unit];
  const amount = v * base;
  for (const u of [...units].reverse())
    if (UNIT_SIZE[u] >= base && Number.isInteger(amount / UNIT_SIZE[u])) return `${amount / UNIT_SIZE[u]}${u}`;
  return `${v}${unit}`;
}

/**
 * A numeric setting's value in its base unit, as PostgreSQL's parse_int and parse_real read it (a
 * number, or a hex integer, then a unit of its kind: `1.5MB`, `5 min`), or its 22023: not a number
 * (with the units as HINT when the unit is wrong), past the integer range, outside the setting's range.
 */
function settingNumber(row: PgSettingRow, value: string): number {
  const [name, , , unit, , , , type, , min, max] = row;
  const bad = (hint?: string) => {
    const err = pgError('22023', `invalid value for parameter "${name}": "${value}"`) as PgError;
    if (hint) err.hint = hint;
    return err;
  };
  const m = /^\s*([-+]?(?:0x[0-9a-f]+|(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?))\s*([a-zA-Z]*)\s*$/i.exec(value);
  if (!m) throw bad();
  let v = /^[-+]?0x/i.test(m[1]) ? Number.parseInt(m[1], 16) : Number(m[1]);
  if (m[2]) {
    const units = unit && (MEMORY_UNITS.includes(unit) || unit === '8kB') ? MEMORY_UNITS : unit ? TIME_UNITS : [];
    if (!units.includes(m[2]))
      throw bad(
        units.length > 0
          ? `Valid units for this parameter are ${units
              .slice(0, -1)
              .map((u) => `"${u}"`)
              .join(', ')}, and "${units.at(-1)}".`
          : undefined,
      );
    v = (v * UNIT_SIZE[m[2]]) / UNIT_SIZE[unit!];
  }
  if (type === 'integer') {
    v = Math.round(v);
    if (Math.abs(v) > 2_147_483_647) throw bad('Value exceeds integer range.');
  }
  if ((min !== null && v < Number(min)) || (max !== null && v > Number(max)))
    throw pgError(
      '22023',
      `${v}${unit ? ` ${unit}` : ''} is outside the valid range for parameter "${name}" (${min} .. ${max})`,
    );
  return v;
}

/** A setting back to its login value, else Patina's default, else PostgreSQL's (a custom one to ''). */
function resetSetting(settings: Map<string, string>, name: string, resetTo: Readonly<Record<string, string>>): void {
  const v = resetTo[name] ?? GUC_DEFAULTS[name];
  if (v !== undefined || name.includes('.')) settings.set(name, v ?? '');
  else settings.delete(name);
}

/** Bytes or milliseconds of each unit a setting's value may carry (PostgreSQL's memory and time units). */
const UNIT_SIZE: Record<string, number> = lookup({
  B: 1,
  kB: 1024,
  '8kB': 8192,
  MB: 1024 ** 2,
  GB: 1024 ** 3,
  TB: 1024 ** 4,
  us: 0.001,
  ms: 1,
  s: 1000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
});

/** pg_settings' `setting` of a value SET: in the setting's own unit (`8MB` of work_mem is 8192, its unit kB). */
export function settingInUnit(name: string, shown: string): string {
  const row = PG_SETTINGS.get(name);
  if (!row?.[3]) return shown;
  try {
    return String(settingNumber(row, shown)); // (SET checked it already)
  } catch {
    return shown;
  }
}

const UNIT_MS: Record<string, number> = lookup({ ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 });

/** A duration setting's milliseconds (a bare number is milliseconds, as for statement_timeout); null when it is none. */
export function durationMs(value: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|min|h|d)?\s*$/i.exec(value);
  if (!m) return null;
  const ms = Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? 'ms').toLowerCase()]);
  return ms <= 2_147_483_647 ? ms : null;
}

/** A duration as SHOW prints it: the largest unit that divides it (`300ms`, `5s`, `1min`, `0`). */
function durationText(ms: number): string {
  if (ms === 0) return '0';
  for (const unit of ['d', 'h', 'min', 's'] as const)
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return `${ms}ms`;
}

/** SHOW name's rows (SHOW ALL: name, setting, description of each, sorted); 42704 for an unknown name. */
export function showRows(settings: ReadonlyMap<string, string>, name: string): unknown[][] {
  if (name === 'all') {
    // every setting PostgreSQL 15 has, at the session's value or its default, with its description
    const all = new Map<string, [string, string]>();
    for (const r of PG_SETTINGS.values()) all.set(r[0].toLowerCase(), [r[0], r[5]]);
    const names = new Set([...all.keys(), ...settings.keys(), ...Object.keys(GUC_DEFAULTS)]);
    const rows = [...names]
      .filter((k) => !(k in HIDDEN))
      .map((k) => [all.get(k)?.[0] ?? k, settings.get(k) ?? defaultSetting(k) ?? '', all.get(k)?.[1] ?? '']);
    return rows.sort((a, b) => (a[0].toLowerCase() < b[0].toLowerCase() ? -1 : 1));
  }
  const v = settings.get(name) ?? defaultSetting(name);
  if (v === undefined) throw pgError('42704', `unrecognized configuration parameter "${name}"`);
  return [[v]];
}

/**
 * Startup parameters that set the session's settings, as PostgreSQL applies them: a setting sent
 * as a parameter of its own (asyncpg's `server_settings`, pgjdbc's and psql's `TimeZone`, libpq's
 * `client_encoding` from PGCLIENTENCODING and `DateStyle` from PGDATESTYLE) and each `-c name=value`
 * or `--name=value` of `options` (libpq's PGOPTIONS). extra_float_digits, which drivers send as
 * plumbing, is left as it is; client_encoding, DateStyle and IntervalStyle are followed, as SET's.
 * A bad value is the error PostgreSQL gives (22023, with its DETAIL), which ends the login.
 */
export function startupSettings(params: Record<string, string>): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  const keep = new Set(['extra_float_digits']);
  const take = (name: string, value: string) => {
    const n = name.toLowerCase().replace(/-/g, '_');
    // as PostgreSQL's login: a name it has no setting of ends it (42704), as does one no session may
    // change (55P02); one of a connection's start (backend context) is taken, and not used here
    const context = PG_SETTINGS.get(n)?.[6] ?? HIDDEN[n];
    if (context === undefined && !n.includes('.') && !(n in GUC_DEFAULTS))
      throw pgError('42704', `unrecognized configuration parameter "${name}"`);
    if (context && context !== 'backend' && context !== 'superuser-backend' && FIXED[context])
      throw pgError('55P02', `parameter "${PG_SETTINGS.get(n)?.[0] ?? n}" ${FIXED[context]}`);
    // (PostgreSQL's settings a session may set too: PGOPTIONS='-c work_mem=64MB')
    const settable = n in GUC_DEFAULTS || ['user', 'superuser'].includes(PG_SETTINGS.get(n)?.[6] ?? '');
    if (settable && !keep.has(n)) out.push({ name: n, value });
  };
  // (user, database and replication are the login's own; _pq_. names are protocol options, which
  // PostgreSQL leaves to NegotiateProtocolVersion)
  const own = new Set(['options', 'application_name', 'user', 'database', 'replication']);
  // (options first, then the parameters: PGCLIENTENCODING's client_encoding wins over PGOPTIONS' one, as in PostgreSQL)
  const words = (params.options ?? '').trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const pair = w === '-c' ? words[++i] : w.startsWith('-c') ? w.slice(2) : w.startsWith('--') ? w.slice(2) : null;
    const eq = pair?.indexOf('=') ?? -1;
    if (pair && eq > 0) take(pair.slice(0, eq), pair.slice(eq + 1));
  }
  for (const [k, v] of Object.entries(params)) if (!own.has(k) && !k.startsWith('_pq_.')) take(k, v);
  return out;
}
