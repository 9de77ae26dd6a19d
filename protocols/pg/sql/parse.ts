/**
 * The PG front end's one call into PostgreSQL's parser (libpg-query: the server's parser compiled
 * to WebAssembly). A statement seen for the first time is read by a dozen passes (statement kind,
 * grouping, scalar subqueries, array assignments, typed operators, USING stars, JSON layout,
 * parameter types, result types, upsert keys, refusals), each of which used to parse the text
 * again at some 30 µs a time; parseTree keeps the trees of the last few texts, so they parse it
 * once. A pass that reads another text (result-types.ts reads the text with its literals replaced,
 * maintenance.ts the text without spaces) hits or misses by that text.
 *
 * The passes share each tree, so none may change it: every tree is frozen, deeply, before it is
 * handed out (a pass that writes into one throws a TypeError in strict mode, which every module
 * is). A text that does not parse throws as parseSync does, the same error each time it is asked.
 */
import { loadModule, parseSync } from 'libpg-query';
import { parseCounts } from '../statement-counts';

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's tree is plain JSON
type Node = any;

/** Texts whose trees (or parse errors) are kept: the statement's, its shape's, and one spare. */
const KEEP = 4;

interface Entry {
  sql: string;
  tree?: Node;
  error?: unknown;
}

const kept: Entry[] = [];
let loaded = false;

/** Loads the parser's WebAssembly module (once; the PG listener awaits it before it listens). */
export async function loadParser(): Promise<void> {
  if (loaded) return;
  await loadModule();
  loaded = true;
}

/** Whether loadParser has finished (before, parseTree throws a plain Error). */
export function parserLoaded(): boolean {
  return loaded;
}

/**
 * PostgreSQL's parse tree of `sql` (deeply frozen: shared by every pass that reads this text). A
 * text that does not parse throws parseSync's error (with its `sqlDetails`), as does a call before
 * the parser's module is loaded (that one is not kept).
 */
export function parseTree(sql: string): Node {
  for (let i = 0; i < kept.length; i++) {
    const e = kept[i];
    if (e.sql !== sql) continue;
    if (i > 0) {
      kept.splice(i, 1);
      kept.unshift(e);
    }
    if (e.error !== undefined) throw e.error;
    return e.tree;
  }
  parseCounts.parses++;
  let entry: Entry;
  try {
    entry = { sql, tree: deepFreeze(parseSync(sql)) };
  } catch (err) {
    // only the parser's own refusals carry sqlDetails (not, say, a module not loaded yet)
    if (!(err as { sqlDetails?: unknown } | null)?.sqlDetails) throw err;
    entry = { sql, error: err };
  }
  kept.unshift(entry);
  if (kept.length > KEEP) kept.pop();
  if (entry.error !== undefined) throw entry.error;
  return entry.tree;
}

/** Texts of several statements known to parse (wholeTextError), with their total length kept small. */
const parsedWhole = new Set<string>();
const WHOLE_KEEP = 64;
/** A text longer than this is not kept (its statements' own analyses cost far more than its parse). */
const WHOLE_MAX = 4096;

/**
 * The parser's refusal of a Query message's whole text, or null when it parses. PostgreSQL parses a
 * simple query's text as a whole before it runs any statement of it, so one statement that does not
 * parse means none runs (simple-query.ts asks for a message of several statements; one statement
 * alone is parsed by its own analysis). Its tree is not kept: each statement's analysis parses its
 * own text. A text that parsed is remembered, so a message sent again (`BEGIN; ...; COMMIT`) is
 * not parsed again as a whole.
 */
export function wholeTextError(sql: string): unknown {
  if (parsedWhole.has(sql)) return null;
  parseCounts.parses++;
  try {
    parseSync(sql);
  } catch (err) {
    if (!(err as { sqlDetails?: unknown } | null)?.sqlDetails) throw err;
    return err;
  }
  if (sql.length <= WHOLE_MAX) {
    if (parsedWhole.size >= WHOLE_KEEP) parsedWhole.delete(parsedWhole.values().next().value as string);
    parsedWhole.add(sql);
  }
  return null;
}

/**
 * The keys of a tree's nodes that say where a node stands in the text, not what it is: `location`,
 * and the parser's (PostgreSQL 18's) ends of an IN list (`rexpr_list_start`) and of ARRAY[...]'s
 * (`list_start`). Two trees of one expression written in two places differ only there, so a pass
 * comparing expressions (a select item with a GROUP BY term) leaves them out.
 */
const PLACE_KEYS = new Set([
  'location', 'rexpr_list_start', 'rexpr_list_end', 'list_start', 'list_end', 'name_location',
]); // biome-ignore format: a word list

/** Whether a node's key `k` is one of PLACE_KEYS. */
export const isPlaceKey = (k: string): boolean => PLACE_KEYS.has(k);

/** A tree as text without its places: equal for one expression written in two places. */
export const treeShape = (x: Node): string => JSON.stringify(x, (k, v) => (isPlaceKey(k) ? undefined : v));

/** Freezes `n` and everything it holds (a JSON tree: objects, arrays and scalars, no cycles). */
function deepFreeze(n: Node): Node {
  if (n !== null && typeof n === 'object' && !Object.isFrozen(n)) {
    Object.freeze(n);
    if (Array.isArray(n)) for (let i = 0; i < n.length; i++) deepFreeze(n[i]);
    else for (const k in n) deepFreeze(n[k]);
  }
  return n;
}
