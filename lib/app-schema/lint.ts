import { lineAt, parseStatements, reparsesAsItself, SqlSyntaxError, type ParsedStatement } from './parser';
import { ALLOWED_FUNCTIONS, ALLOWED_STATEMENTS, ALTER_TABLE_COMMANDS, OWN_OBJECT_KINDS, type LintIssue, type RuleId } from './rules';

/**
 * Reads a migration with PostgreSQL's parser and checks every statement and every node in it
 * against the allow-list of ./rules.ts, for the app schema `schema`: names resolve to it
 * (unqualified, or qualified with it), nothing reaches another schema or the system catalogs,
 * and every table the migration creates enables row level security and has a policy.
 */
export const MAX_MIGRATION_BYTES = 256 * 1024;
export const MAX_STATEMENTS = 200;

type Node = Record<string, unknown>;

const REFUSED_STATEMENTS: Record<string, { rule: RuleId; message: string }> = {
  TransactionStmt: {
    rule: 'statement-not-allowed',
    message: 'Transaction control is not allowed: the migration runs in one transaction the service opens',
  },
  DoStmt: { rule: 'statement-not-allowed', message: 'DO blocks are not allowed' },
  CopyStmt: { rule: 'statement-not-allowed', message: 'COPY is not allowed (nor COPY … PROGRAM)' },
  CreateExtensionStmt: { rule: 'statement-not-allowed', message: 'Extensions are not allowed' },
  AlterExtensionStmt: { rule: 'statement-not-allowed', message: 'Extensions are not allowed' },
  AlterSystemStmt: { rule: 'statement-not-allowed', message: 'ALTER SYSTEM is not allowed' },
  CreateSchemaStmt: { rule: 'other-schema', message: 'Creating schemas is not allowed: the app has its own schema' },
  GrantStmt: { rule: 'role', message: 'GRANT and REVOKE are not allowed' },
  GrantRoleStmt: { rule: 'role', message: 'Granting roles is not allowed' },
  CreateRoleStmt: { rule: 'role', message: 'Roles cannot be created' },
  AlterRoleStmt: { rule: 'role', message: 'Roles cannot be altered' },
  AlterRoleSetStmt: { rule: 'role', message: 'Roles cannot be altered' },
  DropRoleStmt: { rule: 'role', message: 'Roles cannot be dropped' },
  AlterDefaultPrivilegesStmt: { rule: 'role', message: 'Default privileges cannot be changed' },
  AlterOwnerStmt: { rule: 'role', message: 'Owners cannot be changed' },
  ReassignOwnedStmt: { rule: 'role', message: 'Owners cannot be changed' },
  CreateFunctionStmt: { rule: 'function-not-allowed', message: 'Creating functions or procedures is not allowed' },
  CreateTrigStmt: { rule: 'function-not-allowed', message: 'Triggers are not allowed (they run functions)' },
  CreateEventTrigStmt: { rule: 'function-not-allowed', message: 'Event triggers are not allowed' },
  VariableShowStmt: { rule: 'statement-not-allowed', message: 'SHOW is not allowed' },
  LoadStmt: { rule: 'statement-not-allowed', message: 'LOAD is not allowed' },
};

const SYSTEM_SCHEMAS = new Set(['pg_catalog', 'information_schema', 'pg_toast']);
const REG_TYPES = new Set([
  'regclass',
  'regproc',
  'regprocedure',
  'regoper',
  'regoperator',
  'regtype',
  'regrole',
  'regnamespace',
  'regconfig',
  'regdictionary',
  'regcollation',
]);
const TRUE_WORDS = new Set(['true', 'on', '1', 'yes']);

const strings = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((item) => (item as { String?: { sval?: string } })?.String?.sval ?? '') : [];

export interface LintResult {
  issues: LintIssue[];
  statements: ParsedStatement[];
}

export async function lintMigration(schema: string, sql: string): Promise<LintResult> {
  if (sql.includes('\u0000')) return { issues: [{ rule: 'null-byte', message: 'The migration contains a NUL character', line: 1 }], statements: [] };
  let statements: ParsedStatement[];
  try {
    statements = await parseStatements(sql);
  } catch (error) {
    if (!(error instanceof SqlSyntaxError)) throw error;
    const line = error.position ? lineAt(sql, error.position - 1) : 1;
    return { issues: [{ rule: 'syntax', message: `Syntax error: ${error.message}`, line }], statements: [] };
  }
  if (statements.length === 0) return { issues: [{ rule: 'empty', message: 'The migration has no statement', line: 1 }], statements };
  const issues: LintIssue[] = [];
  if (statements.length > MAX_STATEMENTS) {
    issues.push({ rule: 'statement-not-allowed', message: `At most ${MAX_STATEMENTS} statements per migration`, line: 1 });
  }
  const created = new Map<string, number>();
  const secured = new Set<string>();
  const policed = new Set<string>();
  for (const statement of statements) {
    const checker = new StatementChecker(schema, sql, statement, issues);
    checker.check();
    for (const [table, line] of checker.created) if (!created.has(table)) created.set(table, line);
    for (const table of checker.secured) secured.add(table);
    for (const table of checker.policed) policed.add(table);
  }
  for (const [table, line] of created) {
    if (!secured.has(table))
      issues.push({
        rule: 'rls-required',
        message: `Table ${table} must enable row level security in this migration (ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY)`,
        line,
      });
    if (!policed.has(table))
      issues.push({ rule: 'policy-required', message: `Table ${table} needs a policy in this migration (CREATE POLICY … ON ${table})`, line });
  }
  issues.sort((a, b) => a.line - b.line);
  return { issues, statements };
}

class StatementChecker {
  readonly created = new Map<string, number>();
  readonly secured = new Set<string>();
  readonly policed = new Set<string>();
  private readonly line: number;

  constructor(
    private readonly schema: string,
    private readonly sql: string,
    private readonly statement: ParsedStatement,
    private readonly issues: LintIssue[],
  ) {
    const first = firstLocation(statement.node);
    this.line = lineAt(sql, first ?? statement.start);
  }

  private refuse(rule: RuleId, message: string, location?: number) {
    this.issues.push({ rule, message, line: location === undefined ? this.line : lineAt(this.sql, location) });
  }

  check() {
    const { type, node } = this.statement;
    const refused = REFUSED_STATEMENTS[type];
    if (type === 'VariableSetStmt' || type === 'VariableResetStmt' || type === 'DiscardStmt') return this.refuseSet(node);
    if (type === 'CreateFunctionStmt' && this.isSecurityDefiner(node)) {
      return this.refuse('security-definer', 'SECURITY DEFINER is not allowed (nor any function creation)');
    }
    if (refused) return this.refuse(refused.rule, refused.message);
    if (!(ALLOWED_STATEMENTS as readonly string[]).includes(type)) {
      return this.refuse(
        'statement-not-allowed',
        `${describe(type)} is not allowed in an app migration (allowed: create/alter table, create index, create view, create policy, comment, …)`,
      );
    }
    if (!reparsesAsItself(this.statement)) {
      return this.refuse('statement-boundary', 'The statement does not stand on its own (its text reads differently when split from the migration)');
    }
    this.walk(node);
    (this as unknown as Record<string, (n: Node) => void>)[`check${type}`]?.call(this, node);
  }

  private refuseSet(node: Node) {
    const name = String(node.name ?? '').toLowerCase();
    if (name === 'search_path') return this.refuse('search-path', 'Changing search_path is not allowed: names resolve to the app schema');
    if (name === 'role' || name === 'session_authorization') return this.refuse('role', 'SET ROLE / SESSION AUTHORIZATION is not allowed');
    return this.refuse('statement-not-allowed', 'SET, RESET and DISCARD are not allowed');
  }

  private isSecurityDefiner(node: Node) {
    return (node.options as Node[] | undefined)?.some((o) => {
      const def = o.DefElem as Node | undefined;
      return def?.defname === 'security' && (def.arg as { Boolean?: { boolval?: boolean } })?.Boolean?.boolval === true;
    });
  }

  /** Every node of the statement: names, functions, types, roles. */
  private walk(value: unknown): void {
    if (Array.isArray(value)) return value.forEach((v) => this.walk(v));
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value as Node)) {
      if (child && typeof child === 'object' && !Array.isArray(child)) this.visit(key, child as Node);
      this.walk(child);
    }
  }

  private visit(kind: string, node: Node) {
    const location = typeof node.location === 'number' ? node.location : undefined;
    // Relations and type names appear under many keys (relation, pktable, view, …): known by shape.
    if (typeof node.relname === 'string') this.checkRelation(node, location);
    if (Array.isArray(node.names) && 'typemod' in node) this.checkType(strings(node.names), location);
    switch (kind) {
      case 'FuncCall':
        this.checkFunction(strings(node.funcname), location);
        break;
      case 'ColumnRef': {
        const fields = strings(node.fields).filter(Boolean);
        if (fields.length >= 3) this.checkQualifier(fields[0], location);
        break;
      }
      case 'A_Expr': {
        const name = strings(node.name);
        if (name.length > 1) this.checkQualifier(name[0], location);
        break;
      }
      case 'CollateClause': {
        const name = strings(node.collname);
        if (name.length > 1 && name[0] !== 'pg_catalog') this.checkQualifier(name[0], location);
        break;
      }
      case 'RoleSpec':
        if (node.roletype !== 'ROLESPEC_PUBLIC') this.refuse('role', 'Policies apply TO PUBLIC only (no named or current role)', location);
        break;
      case 'RangeTableSample':
        this.refuse('statement-not-allowed', 'TABLESAMPLE is not allowed', location);
        break;
      case 'CurrentOfExpr':
        this.refuse('statement-not-allowed', 'Cursors are not allowed', location);
        break;
    }
  }

  private checkQualifier(qualifier: string, location?: number) {
    if (qualifier === this.schema) return;
    if (SYSTEM_SCHEMAS.has(qualifier) || qualifier.startsWith('pg_')) {
      this.refuse('system-catalog', `The system schema ${qualifier} is not reachable from an app migration`, location);
    } else {
      this.refuse('other-schema', `Only the app schema ${this.schema} may be named (found ${qualifier})`, location);
    }
  }

  private checkRelation(node: Node, location?: number) {
    if (typeof node.catalogname === 'string' && node.catalogname) this.refuse('other-schema', 'Database-qualified names are not allowed', location);
    if (typeof node.schemaname === 'string' && node.schemaname) this.checkQualifier(node.schemaname, location);
    const name = String(node.relname ?? '');
    if (name.startsWith('pg_')) this.refuse('system-catalog', `Names starting with pg_ are the system catalogs' (${name})`, location);
  }

  private checkFunction(names: string[], location?: number) {
    const name = names.at(-1) ?? '';
    if (names.length > 1 && names[0] !== 'pg_catalog') return this.checkQualifier(names[0], location);
    if (names.length > 2 || !ALLOWED_FUNCTIONS.has(name.toLowerCase())) {
      this.refuse('function-not-allowed', `Function ${names.join('.')} is not allowed in an app migration`, location);
    }
  }

  private checkType(names: string[], location?: number) {
    if (names.length > 1 && names[0] !== 'pg_catalog') this.checkQualifier(names[0], location);
    if (REG_TYPES.has((names.at(-1) ?? '').toLowerCase())) this.refuse('system-catalog', `Type ${names.at(-1)} reads the system catalogs`, location);
  }

  /** A name given as a list of strings (DROP, COMMENT): more parts than `plain` means schema-qualified. */
  private checkNameList(list: unknown, plain: number) {
    const parts = strings((list as { List?: { items?: unknown } })?.List?.items ?? list);
    if (parts.length > plain) this.checkQualifier(parts[0]);
  }

  private tableOf(relation: unknown): string {
    return String((relation as Node | undefined)?.relname ?? '');
  }

  // Statement-specific rules (called by name from check()).

  checkCreateStmt(node: Node) {
    const relation = node.relation as Node;
    if (relation.relpersistence === 't') this.refuse('option-not-allowed', 'Temporary tables are not allowed');
    if (node.tablespacename) this.refuse('option-not-allowed', 'Tablespaces are not allowed');
    if (node.accessMethod) this.refuse('option-not-allowed', 'Table access methods are not allowed');
    if ((node.options as unknown[] | undefined)?.length) this.refuse('option-not-allowed', 'Storage parameters (WITH …) are not allowed on tables');
    if (node.oncommit && node.oncommit !== 'ONCOMMIT_NOOP') this.refuse('option-not-allowed', 'ON COMMIT is not allowed');
    if (node.partbound) this.refuse('option-not-allowed', 'Partitions are not allowed');
    this.created.set(this.tableOf(relation), this.line);
  }

  checkAlterTableStmt(node: Node) {
    if (node.objtype !== 'OBJECT_TABLE')
      return this.refuse('statement-not-allowed', 'Only ALTER TABLE is allowed of the ALTER statements on relations');
    const table = this.tableOf(node.relation);
    for (const cmd of (node.cmds as Node[] | undefined) ?? []) {
      const subtype = String((cmd.AlterTableCmd as Node | undefined)?.subtype ?? '');
      if (subtype === 'AT_DisableRowSecurity' || subtype === 'AT_NoForceRowSecurity') {
        this.refuse('rls-required', 'Row level security cannot be switched off');
      } else if (!ALTER_TABLE_COMMANDS.has(subtype)) {
        this.refuse('command-not-allowed', `ALTER TABLE ${describe(subtype.replace(/^AT_/, ''))} is not allowed`);
      } else if (subtype === 'AT_EnableRowSecurity') {
        this.secured.add(table);
      }
    }
  }

  checkIndexStmt(node: Node) {
    if (node.concurrent) this.refuse('option-not-allowed', 'CREATE INDEX CONCURRENTLY cannot run inside the migration transaction');
    if (node.tableSpace) this.refuse('option-not-allowed', 'Tablespaces are not allowed');
    if ((node.options as unknown[] | undefined)?.length) this.refuse('option-not-allowed', 'Storage parameters (WITH …) are not allowed on indexes');
  }

  checkViewStmt(node: Node) {
    const invoker = (node.options as Node[] | undefined)?.some((o) => {
      const def = o.DefElem as Node | undefined;
      if (def?.defname !== 'security_invoker') return false;
      const arg = def.arg as { String?: { sval?: string }; Boolean?: { boolval?: boolean } } | undefined;
      return arg === undefined || arg.Boolean?.boolval === true || TRUE_WORDS.has(String(arg.String?.sval ?? '').toLowerCase());
    });
    if (!invoker) {
      this.refuse('view-security-invoker', 'Views must be created WITH (security_invoker = true), so row level security applies to their readers');
    }
  }

  checkCreatePolicyStmt(node: Node) {
    this.policed.add(this.tableOf(node.table));
  }

  checkCommentStmt(node: Node) {
    const kind = String(node.objtype);
    if (!OWN_OBJECT_KINDS.has(kind))
      return this.refuse('statement-not-allowed', `COMMENT ON ${describe(kind.replace(/^OBJECT_/, ''))} is not allowed`);
    if (kind !== 'OBJECT_TYPE') this.checkNameList(node.object, ['OBJECT_COLUMN', 'OBJECT_TABCONSTRAINT', 'OBJECT_POLICY'].includes(kind) ? 2 : 1);
  }

  checkDropStmt(node: Node) {
    const kind = String(node.removeType);
    if (!OWN_OBJECT_KINDS.has(kind) || kind === 'OBJECT_COLUMN' || kind === 'OBJECT_TABCONSTRAINT') {
      return this.refuse('statement-not-allowed', `DROP ${describe(kind.replace(/^OBJECT_/, ''))} is not allowed`);
    }
    if (node.behavior === 'DROP_CASCADE') this.refuse('cascade', 'DROP … CASCADE is not allowed: drop dependent objects explicitly');
    if (kind !== 'OBJECT_TYPE')
      for (const object of (node.objects as unknown[] | undefined) ?? []) this.checkNameList(object, kind === 'OBJECT_POLICY' ? 2 : 1);
  }

  checkRenameStmt(node: Node) {
    const kind = String(node.renameType);
    if (!OWN_OBJECT_KINDS.has(kind) || kind === 'OBJECT_TYPE' || !node.relation) {
      this.refuse('statement-not-allowed', `Renaming ${describe(kind.replace(/^OBJECT_/, ''))} is not allowed`);
    }
  }

  checkCreateSeqStmt(node: Node) {
    for (const o of (node.options as Node[] | undefined) ?? []) {
      const def = o.DefElem as Node | undefined;
      if (def?.defname === 'owned_by') this.checkNameList(def.arg, 2);
    }
  }

  checkCreateEnumStmt(node: Node) {
    this.checkNameList(node.typeName, 1);
  }

  checkAlterEnumStmt(node: Node) {
    this.checkNameList(node.typeName, 1);
  }
}

/** Smallest `location` in a node tree. */
function firstLocation(value: unknown): number | undefined {
  let min: number | undefined;
  const visit = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      if (k === 'location' && typeof child === 'number' && child >= 0) min = min === undefined ? child : Math.min(min, child);
      else visit(child);
    }
  };
  visit(value);
  return min;
}

const describe = (type: string) =>
  type
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toUpperCase();
