"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.translate = translate;
const tokens_1 = require("../tokens");
const arrays_1 = require("./arrays");
const casts_1 = require("./casts");
const catalog_forms_1 = require("./catalog-forms");
const date_syntax_1 = require("./date-syntax");
const distinct_on_1 = require("./distinct-on");
const division_1 = require("./division");
const dml_forms_1 = require("./dml-forms");
const exact_order_1 = require("./exact-order");
const insert_defaults_1 = require("./insert-defaults");
const interval_distinct_1 = require("./interval-distinct");
const json_values_1 = require("./json-values");
const lateral_1 = require("./lateral");
const lateral_json_1 = require("./lateral-json");
const function_columns_1 = require("./function-columns");
const greatest_least_1 = require("./greatest-least");
const grouping_sets_1 = require("./grouping-sets");
const jsonb_ops_1 = require("./jsonb-ops");
const like_1 = require("./like");
const locking_1 = require("./locking");
const null_order_1 = require("./null-order");
const one_row_1 = require("./one-row");
const ordered_set_1 = require("./ordered-set");
const values_alias_1 = require("./values-alias");
const scalar_from_1 = require("./scalar-from");
const set_members_1 = require("./set-members");
const unnest_1 = require("./unnest");
const named_args_1 = require("./named-args");
const set_returning_1 = require("./set-returning");
const standard_forms_1 = require("./standard-forms");
const typed_arithmetic_1 = require("./typed-arithmetic");
const typeof_1 = require("./typeof");
const typed_assignments_1 = require("./typed-assignments");
const strict_json_1 = require("./strict-json");
const words_1 = require("./words");
/**
 * Rewrites one PostgreSQL statement for SQLite. `local` is true when the statement runs on the
 * agent's catalog connection, where PostgreSQL's functions exist; elsewhere they become values.
 */
function translate(tokens, ctx, local) {
    const hasColumn = (table, column) => (ctx.columnType?.(table, column) ?? null) !== null;
    let toks = (0, lateral_json_1.rewriteLateralJson)((0, lateral_1.inlineLateralSubqueries)((0, lateral_1.inlineLateralRows)((0, lateral_1.dropLateralOfCalls)((0, one_row_1.rewriteOneRow)(tokens.filter((t) => t.type !== 'space' && t.type !== 'comment'))))), hasColumn);
    toks = (0, set_members_1.rewriteSetMembers)(toks);
    toks = (0, locking_1.rewriteLocking)(toks);
    toks = (0, unnest_1.rewriteMultiUnnest)(toks);
    toks = (0, function_columns_1.rewriteFunctionColumns)(toks, hasColumn);
    toks = (0, named_args_1.rewriteNamedArguments)(toks);
    toks = (0, grouping_sets_1.rewriteGroupingSets)(toks);
    toks = (0, scalar_from_1.rewriteScalarFrom)(toks);
    toks = (0, distinct_on_1.rewriteDistinctOn)(toks, (table) => ctx.columns?.(table)?.map((c) => c.name) ?? null);
    toks = (0, dml_forms_1.rewriteDmlForms)(toks);
    toks = (0, insert_defaults_1.rewriteInsertDefaults)(toks, ctx);
    toks = (0, typed_assignments_1.rewriteTypedAssignments)(toks, ctx);
    const jsonSchema = {
        columnType: (table, column) => ctx.columnType?.(table, column) ?? null,
        columns: (table) => ctx.columns?.(table) ?? null,
    };
    toks = (0, json_values_1.rewriteWholeRows)((0, json_values_1.rewriteJsonValues)(toks, jsonSchema), jsonSchema);
    toks = (0, standard_forms_1.rewriteStandardCalls)(toks);
    toks = (0, ordered_set_1.rewriteOrderedSet)(toks);
    toks = (0, standard_forms_1.rewriteFetchFirst)(toks);
    toks = (0, standard_forms_1.rewriteSelectListSeries)(toks);
    toks = (0, values_alias_1.rewriteValuesAlias)(toks);
    toks = (0, values_alias_1.rewriteSubqueryAlias)(toks, (query) => ctx.selectColumns?.(query) ?? null);
    toks = (0, like_1.rewriteLike)(toks);
    // a NOT NULL column is NULL on the outer side of a join: there NULLs must be placed too
    const outerJoin = toks.some((t) => (0, tokens_1.isWord)(t, 'LEFT') || (0, tokens_1.isWord)(t, 'RIGHT') || (0, tokens_1.isWord)(t, 'FULL'));
    toks = (0, exact_order_1.rewriteExactAliases)(toks);
    toks = (0, null_order_1.rewriteNullOrder)((0, null_order_1.rewriteIntervalGroups)((0, interval_distinct_1.rewriteIntervalDistinct)(toks)), (!outerJoin && ctx.notNull) || (() => false));
    toks = (0, greatest_least_1.rewriteGreatestLeast)(toks);
    toks = (0, jsonb_ops_1.rewriteJsonbOps)(toks);
    toks = (0, typeof_1.rewriteTypeof)(toks, ctx);
    toks = (0, strict_json_1.rewriteStrictToJson)((0, words_1.rewriteWords)(toks, ctx, local));
    toks = (0, arrays_1.rewriteArrays)(toks);
    toks = (0, date_syntax_1.rewriteDateSyntax)(toks);
    toks = (0, casts_1.rewriteCasts)(toks);
    toks = (0, casts_1.rewriteCastCalls)(toks);
    toks = (0, typed_arithmetic_1.rewriteTextArguments)(toks);
    toks = (0, typed_arithmetic_1.rewriteDateArithmetic)(toks);
    toks = (0, division_1.rewriteDivision)(toks);
    // last, over the tokens of what the passes above wrote: the catalog's forms, set-returning FROM items
    if (local)
        toks = (0, catalog_forms_1.rewriteCatalogForms)(toks);
    toks = (0, set_returning_1.rewriteSetReturning)(toks, local);
    return (0, tokens_1.joinTokens)(toks);
}
//# sourceMappingURL=translate.js.map