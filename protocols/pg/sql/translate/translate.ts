// PostgreSQL SQL → SQLite SQL, by rewriting tokens: what SQLite already reads is left as it is.
// translate() runs the passes in order, one file each in this folder, each Tok[] in and Tok[] out,
// and joins the tokens into text once at the end: no pass runs over the statement's text. The
// order matters (names before column lists quoted first, listed-names.ts; tableoid then, on the
// statement's own tokens, WITH ORDINALITY; LATERAL and DML forms then, casts after the words and date syntax they read, the
// operators the analysis typed (typed-arithmetic.ts) after the casts that make their operands one
// group, division; last the catalog connection's query forms (catalog-forms.ts) and set-returning
// functions in FROM (set-returning.ts), which read through the groups the passes before them wrote).
import { rewriteObjectAggKeys } from './object-agg-keys';
import { checkDistinctObjectAggs, rewriteDistinctObjectAggs } from './distinct-object-agg';
import type { PgToken } from '../lexer';
import { type Tok, isWord, joinTokens } from '../tokens';
import { rewriteArrays } from './arrays';
import { rewriteBetweenSymmetric } from './between-symmetric';
import { rewriteCastCalls, rewriteCasts } from './casts';
import { rewriteCatalogForms } from './catalog-forms';
import { rewriteDateSyntax } from './date-syntax';
import { rewriteDistinctOn } from './distinct-on';
import { rewriteDivision } from './division';
import { dropOnly, dropOverriding, rewriteDmlForms } from './dml-forms';
import { rewriteExactAliases, rewriteNumericAt } from './exact-order';
import { rewriteElementAssignments } from './element-assignments';
import { rewriteInsertDefaults } from './insert-defaults';
import { rewriteUpdateDefaults } from './update-defaults';
import { rewriteIntervalDistinct } from './interval-distinct';
import { rewriteWindowedDistinct } from '../windowed-distinct';
import { rewriteJsonValues, rewriteWholeRows } from './json-values';
import { dropLateralOfCalls, inlineLateralRows, inlineLateralSubqueries } from './lateral';
import { rewriteLateralJson } from './lateral-json';
import { rewriteLateralRecords } from './lateral-records';
import { rewriteAnonymousRows } from './anonymous-rows';
import { rewriteUsingAlias } from './using-alias';
import { rewriteFunctionColumns } from './function-columns';
import { rewriteGreatestLeast } from './greatest-least';
import { rewriteGroupingSets } from './grouping-sets';
import { rewriteJsonbOps } from './jsonb-ops';
import { rewriteLike } from './like';
import { quoteListedNames } from './listed-names';
import { rewriteLocking } from './locking';
import { rewriteIntervalGroups, rewriteNullOrder } from './null-order';
import { rewriteOneRow } from './one-row';
import { rewriteOrderedSet } from './ordered-set';
import { rewriteOrdinality } from './ordinality';
import { rewriteSubqueryAlias, rewriteTableAlias, rewriteValuesAlias } from './values-alias';
import { rewriteRowsFrom } from './rows-from';
import { rewriteScalarFrom } from './scalar-from';
import { rewriteSetMembers } from './set-members';
import { rewriteMultiUnnest } from './unnest';
import { rewriteDistinctAggregates } from './distinct-aggregates';
import { rewriteJsonbDistinctAggregates } from './jsonb-distinct-aggregates';
import { rewriteEmptySelect } from './empty-select';
import { rewriteValuesOrder } from './values-order';
import { rewriteHavingAlone } from './having-alone';
import { rewriteCharPadding, trimMarkedParams } from './char-padding';
import { rewriteCommaJoins } from './comma-joins';
import { rewriteJsonRecords } from './json-records';
import { useValueTwins } from './value-twins';
import { rewriteIntervalFields } from './interval-fields';
import { rewriteInstantCasts } from './instant-casts';
import { rewriteJsonObjectCalls } from './json-object';
import { rewriteNamedArguments } from './named-args';
import { rewriteSetReturning } from './set-returning';
import { rewriteFoldedTerms } from './folded-terms';
import { rewriteFrameOffsets } from './frame-offsets';
import { rewriteMonthFrames } from './month-frames';
import { rewriteMultisetOperations } from './multiset-operations';
import { rewriteFetchFirst, rewriteSelectListSeries, rewriteStandardCalls } from './standard-forms';
import { rewriteDefaultConfig, rewriteMarkedCalls } from './text-search-calls';
import { rewriteDateArithmetic, rewriteTextArguments } from './typed-arithmetic';
import { rewriteRowItems } from './row-items';
import { rewriteTableOids } from './table-oids';
import { rewriteSystemColumns } from './system-columns';
import { rewriteTypeof } from './typeof';
import { rewriteRowQueries } from './row-queries';
import { rewriteTypedAssignments } from './typed-assignments';
import { materializeSelfReads } from './self-reading-updates';
import { rewriteStrictToJson } from './strict-json';
import { rewriteWords } from './words';
import { qualifyWithShadows } from './with-shadows';
import { rewriteOuterStars } from './outer-stars';
import { rewriteWithTies } from './with-ties';

/** Session facts some functions are replaced by (version(), current_user, ...). */
export interface DialectContext {
  user: string;
  database: string;
  version: string;
  /** The declared type of a schema column (in `table` when named, else in any table); null when unknown. */
  columnType?: (table: string | null, column: string) => string | null;
  /** A schema table's columns in order, with their default expressions; null when no such table. */
  columns?: (table: string) => { name: string; defaultSql: string | null }[] | null;
  /** Whether every schema table with a column of this name declares it NOT NULL (false when none has it). */
  notNull?: (column: string) => boolean;
  /** How many columns a query (PostgreSQL tokens) yields, as SQLite prepares it; null when it does not prepare. */
  selectWidth?: (query: Tok[]) => number | null;
  /** The names of a query's columns (PostgreSQL tokens) as SQLite prepares it; null when it does not prepare. */
  selectColumns?: (query: Tok[]) => string[] | null;
}

/**
 * Rewrites one PostgreSQL statement for SQLite. `local` is true when the statement runs on the
 * agent's catalog connection, where PostgreSQL's functions exist; elsewhere they become values.
 */
export function translate(tokens: PgToken[], ctx: DialectContext, local: boolean): string {
  const hasColumn = (table: string, column: string) => (ctx.columnType?.(table, column) ?? null) !== null;
  let toks: Tok[] = rewriteLateralJson(
    rewriteLateralRecords(
      inlineLateralSubqueries(
        inlineLateralRows(
          dropLateralOfCalls(
            rewriteOneRow(
              rewriteOrdinality(
                rewriteSystemColumns(
                  rewriteTableOids(
                    rewriteRowsFrom(
                      rewriteMarkedCalls(
                        rewriteWithTies(
                          rewriteJsonObjectCalls(
                            rewriteInstantCasts(
                              rewriteAnonymousRows(
                                rewriteUsingAlias(
                                  rewriteOuterStars(
                                    rewriteMultisetOperations(
                                      quoteListedNames(
                                        rewriteMonthFrames(
                                          trimMarkedParams(
                                            tokens.filter((t) => t.type !== 'space' && t.type !== 'comment'),
                                          ),
                                        ),
                                      ),
                                      (query) => ctx.selectWidth?.(query) ?? null,
                                    ),
                                    (table) => ctx.columns?.(table)?.map((c) => c.name) ?? null,
                                  ),
                                ),
                              ),
                            ),
                          ),
                          (query) => ctx.selectColumns?.(query) ?? null,
                        ),
                      ),
                      hasColumn,
                    ),
                    ctx,
                  ),
                  ctx,
                ),
                hasColumn,
              ),
            ),
          ),
        ),
      ),
    ),
    hasColumn,
    (query) => ctx.selectColumns?.(query) ?? null,
  );
  toks = rewriteSetMembers(
    rewriteDistinctAggregates(
      rewriteJsonbDistinctAggregates(rewriteEmptySelect(rewriteValuesOrder(rewriteIntervalFields(toks)))),
    ),
  );
  toks = rewriteLocking(toks);
  toks = rewriteJsonRecords(rewriteMultiUnnest(toks), (table) => {
    // json_populate_recordset(NULL::t, x): t's columns with their declared types
    const cols = ctx.columns?.(table);
    const typed = cols?.map((c) => ({ name: c.name, type: ctx.columnType?.(table, c.name) ?? '' }));
    return typed?.every((c) => c.type !== '') ? typed : null;
  });
  toks = rewriteFunctionColumns(toks, hasColumn);
  toks = rewriteNamedArguments(toks);
  toks = rewriteGroupingSets(toks, (name) => (ctx.columnType?.(null, name) ?? null) !== null);
  toks = rewriteScalarFrom(toks);
  toks = rewriteDistinctOn(toks, (table) => ctx.columns?.(table)?.map((c) => c.name) ?? null);
  toks = rewriteDmlForms(dropOnly(dropOverriding(toks)), {
    columns: (table) => ctx.columns?.(table)?.map((c) => c.name) ?? null,
    queryColumns: (query) => ctx.selectColumns?.(query) ?? null,
  });
  toks = rewriteUpdateDefaults(rewriteInsertDefaults(rewriteElementAssignments(toks, ctx), ctx), ctx);
  toks = rewriteTypedAssignments(rewriteRowQueries(toks, ctx), ctx);
  const jsonSchema = {
    columnType: (table: string, column: string) => ctx.columnType?.(table, column) ?? null,
    columns: (table: string) => ctx.columns?.(table) ?? null,
  };
  checkDistinctObjectAggs(toks);
  toks = rewriteWholeRows(rewriteJsonValues(toks, jsonSchema), jsonSchema);
  toks = rewriteStandardCalls(toks);
  toks = rewriteOrderedSet(rewriteFrameOffsets(toks));
  toks = rewriteFetchFirst(toks);
  toks = rewriteSelectListSeries(toks);
  toks = rewriteValuesAlias(toks);
  toks = rewriteSubqueryAlias(toks, (query) => ctx.selectColumns?.(query) ?? null);
  toks = rewriteTableAlias(toks, (table) => ctx.columns?.(table)?.map((c) => c.name) ?? null);
  toks = rewriteLike(toks);
  // a NOT NULL column is NULL on the outer side of a join: there NULLs must be placed too
  const outerJoin = toks.some((t) => isWord(t, 'LEFT') || isWord(t, 'RIGHT') || isWord(t, 'FULL'));
  toks = rewriteNumericAt(rewriteExactAliases(toks));
  toks = rewriteNullOrder(
    rewriteIntervalGroups(rewriteIntervalDistinct(rewriteWindowedDistinct(toks))),
    (!outerJoin && ctx.notNull) || (() => false),
  );
  toks = rewriteGreatestLeast(rewriteBetweenSymmetric(toks));
  toks = rewriteJsonbOps(toks);
  toks = rewriteTypeof(toks, ctx);
  toks = rewriteDefaultConfig(rewriteStrictToJson(rewriteWords(toks, ctx, local)));
  toks = rewriteObjectAggKeys(rewriteDistinctObjectAggs(toks));
  toks = rewriteArrays(toks);
  toks = rewriteDateSyntax(toks);
  toks = rewriteCasts(toks);
  toks = rewriteCastCalls(toks);
  toks = rewriteTextArguments(rewriteRowItems(toks));
  toks = rewriteDateArithmetic(toks);
  toks = rewriteHavingAlone(rewriteDivision(toks));
  toks = rewriteCharPadding(toks);
  // (an UPDATE whose new values read its own table: from the table as it was, as PostgreSQL's)
  toks = materializeSelfReads(toks);
  // last, over the tokens of what the passes above wrote: the catalog's forms, set-returning FROM items
  if (local) toks = rewriteCatalogForms(toks);
  toks = rewriteSetReturning(toks, local);
  // (the agent's tables are main's on its own connection; the catalog connection's statements are left)
  if (!local) toks = qualifyWithShadows(toks);
  // (a USING or NATURAL join after a comma: joined before the comma's pairing, as PostgreSQL binds it)
  toks = rewriteCommaJoins(toks);
  // (a GROUP BY or ORDER BY term SQLite would fold into a position, `'x' IS NULL`: `(term) + 0`)
  toks = rewriteFoldedTerms(toks);
  return useValueTwins(joinTokens(toks));
}
