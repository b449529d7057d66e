/**
 * What a generated app's migration may contain. An allow-list: any statement, command, function
 * or option not named here is refused.
 */

/** Statements allowed, with what each may do (checked in ./lint.ts). */
export const ALLOWED_STATEMENTS = [
  'CreateStmt', // create table (not temporary, no tablespace, no inheritance from outside)
  'AlterTableStmt', // alter table / alter index / alter sequence: the commands of ALTER_TABLE_COMMANDS
  'IndexStmt', // create index (not concurrently, no tablespace)
  'ViewStmt', // create [or replace] view … with (security_invoker = true)
  'CreatePolicyStmt', // create policy … to public
  'AlterPolicyStmt',
  'CommentStmt', // comment on table/column/view/index/policy/sequence/type
  'CreateSeqStmt', // create sequence
  'CreateEnumStmt', // create type … as enum
  'AlterEnumStmt', // alter type … add value
  'RenameStmt', // rename a table, view, index, column, constraint, policy
  'DropStmt', // drop table/view/index/sequence/type/policy (no cascade)
] as const;

/** Object kinds DROP, COMMENT and RENAME may name. */
export const OWN_OBJECT_KINDS = new Set([
  'OBJECT_TABLE',
  'OBJECT_VIEW',
  'OBJECT_INDEX',
  'OBJECT_SEQUENCE',
  'OBJECT_TYPE',
  'OBJECT_POLICY',
  'OBJECT_COLUMN',
  'OBJECT_TABCONSTRAINT',
]);

export const ALTER_TABLE_COMMANDS = new Set([
  'AT_AddColumn',
  'AT_DropColumn',
  'AT_AlterColumnType',
  'AT_ColumnDefault',
  'AT_SetNotNull',
  'AT_DropNotNull',
  'AT_AddConstraint',
  'AT_DropConstraint',
  'AT_ValidateConstraint',
  'AT_AddIdentity',
  'AT_SetIdentity',
  'AT_DropIdentity',
  'AT_EnableRowSecurity',
  'AT_ForceRowSecurity',
]);

/**
 * Functions an expression (default, check, index, policy, view) may call: pure or read-only,
 * from pg_catalog. Creating functions is refused altogether: their bodies are strings the parser
 * does not read, they run with their owner's or caller's rights, and triggers need them.
 */
export const ALLOWED_FUNCTIONS = new Set([
  'now',
  'gen_random_uuid',
  'current_setting', // policies read request settings (e.g. current_setting('app.user_id', true))
  'lower',
  'upper',
  'length',
  'char_length',
  'btrim',
  'ltrim',
  'rtrim',
  'trim',
  'substring',
  'position',
  'replace',
  'concat',
  'concat_ws',
  'left',
  'right',
  'abs',
  'round',
  'floor',
  'ceil',
  'greatest',
  'least',
  'nullif',
  'coalesce',
  'date_trunc',
  'date_part',
  'extract',
  'to_char',
  'timezone',
  'jsonb_build_object',
  'jsonb_build_array',
  'jsonb_typeof',
  'jsonb_array_length',
  'array_length',
  'cardinality',
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'bool_and',
  'bool_or',
]);

export type RuleId =
  | 'syntax'
  | 'empty'
  | 'statement-not-allowed'
  | 'other-schema'
  | 'system-catalog'
  | 'function-not-allowed'
  | 'security-definer'
  | 'search-path'
  | 'role'
  | 'option-not-allowed'
  | 'command-not-allowed'
  | 'cascade'
  | 'rls-required'
  | 'policy-required'
  | 'view-security-invoker'
  | 'statement-boundary'
  | 'null-byte'
  /** Passed the rules, refused by the database when applied (e.g. a table that does not exist). */
  | 'database';

/** One refusal: the rule, what to change, and the 1-based line of the input. */
export interface LintIssue {
  rule: RuleId;
  message: string;
  line: number;
}
