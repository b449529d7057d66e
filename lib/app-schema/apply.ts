import { createHash } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { rows } from '@/lib/db/raw';
import { appSchemaMigrations, appSchemas } from '@/lib/db/schema';
import { lintMigration, MAX_MIGRATION_BYTES } from './lint';
import { lineAt } from './parser';
import type { LintIssue } from './rules';

/**
 * Applies a generated app's migration to its schema `app_<short id>`:
 *   1. lint (./lint.ts): refused → 422 UNPROCESSABLE with `details.issues` [{rule, message, line}];
 *   2. one transaction, serialized per schema: claim the schema for the site, create it and its
 *      NOLOGIN role `<schema>_migrator` (USAGE and CREATE on that schema only), then
 *      `SET LOCAL ROLE` to it and `SET LOCAL search_path` to the schema alone, and run each
 *      statement as parsed, one at a time;
 *   3. back as the service: every table of the schema must have row level security on and a
 *      policy (checked in the catalog too), and the migration is recorded (name + SHA-256).
 * The same name with the same SQL again → `already_applied`; with other SQL → 409 CONFLICT.
 */
export const APP_SCHEMA_PATTERN = /^app_[a-z0-9_]{1,48}$/;
export const MIGRATION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export interface AppMigrationInput {
  siteId: string;
  appSchema: string;
  name: string;
  sql: string;
}

export interface AppMigrationResult {
  status: 'applied' | 'already_applied';
  name: string;
  checksum: string;
  statements: number;
}

export const roleOf = (schema: string) => `${schema}_migrator`;
const checksumOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const refused = (issues: LintIssue[]) => new ApiError('UNPROCESSABLE', 'The migration was refused', { issues });
/** Identifiers validated by APP_SCHEMA_PATTERN, quoted all the same. */
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

function validate(input: AppMigrationInput) {
  if (!APP_SCHEMA_PATTERN.test(input.appSchema))
    throw new ApiError('INVALID_REQUEST', 'The app schema must be app_<short id> (lowercase letters, digits, _)');
  if (!MIGRATION_NAME_PATTERN.test(input.name))
    throw new ApiError('INVALID_REQUEST', 'Migration name: 1–128 letters, digits, _ . - (starting with a letter or digit)');
  if (Buffer.byteLength(input.sql, 'utf8') > MAX_MIGRATION_BYTES)
    throw new ApiError('PAYLOAD_TOO_LARGE', `A migration is at most ${MAX_MIGRATION_BYTES} bytes`);
}

async function schemaOwner(appSchema: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db.select({ siteId: appSchemas.siteId }).from(appSchemas).where(eq(appSchemas.name, appSchema)).limit(1);
  return row?.siteId;
}

async function recorded(appSchema: string, name: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(appSchemaMigrations)
    .where(and(eq(appSchemaMigrations.appSchema, appSchema), eq(appSchemaMigrations.name, name)))
    .limit(1);
  return row;
}

/** What a second request with this name gets: already applied, or a conflict. */
function repeat(input: AppMigrationInput, checksum: string, existing: { checksum: string; statements: number }): AppMigrationResult {
  if (existing.checksum !== checksum) throw new ApiError('CONFLICT', `Migration ${input.name} was already applied with different SQL`);
  return { status: 'already_applied', name: input.name, checksum, statements: existing.statements };
}

export async function applyAppMigration(input: AppMigrationInput): Promise<AppMigrationResult> {
  validate(input);
  const checksum = checksumOf(input.sql);
  const owner = await schemaOwner(input.appSchema);
  if (owner && owner !== input.siteId) throw new ApiError('FORBIDDEN', 'This app schema belongs to another site');
  const existing = await recorded(input.appSchema, input.name);
  if (existing) return repeat(input, checksum, existing);

  const { issues, statements } = await lintMigration(input.appSchema, input.sql);
  if (issues.length) throw refused(issues);

  const schema = ident(input.appSchema);
  const role = ident(roleOf(input.appSchema));
  const db = await getDb();
  let running: (typeof statements)[number] | undefined;
  try {
    return await db.transaction(async (tx) => {
      const run = (text: string) => tx.execute(sql.raw(text));
      // One migration of a schema at a time (the schema name's hash as the lock key).
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`app-schema:${input.appSchema}`}))`);
      const [claimed] = await tx
        .insert(appSchemas)
        .values({ name: input.appSchema, siteId: input.siteId, roleName: roleOf(input.appSchema) })
        .onConflictDoNothing()
        .returning({ name: appSchemas.name });
      if (!claimed) {
        const [row] = await tx.select({ siteId: appSchemas.siteId }).from(appSchemas).where(eq(appSchemas.name, input.appSchema));
        if (row?.siteId !== input.siteId) throw new ApiError('FORBIDDEN', 'This app schema belongs to another site');
      }
      const [again] = await tx
        .select()
        .from(appSchemaMigrations)
        .where(and(eq(appSchemaMigrations.appSchema, input.appSchema), eq(appSchemaMigrations.name, input.name)));
      if (again) return repeat(input, checksum, again);

      // Roles are shared by every database of the cluster: created once, granted here.
      await run(`do $$ begin
        if not exists (select from pg_roles where rolname = ${literal(roleOf(input.appSchema))}) then create role ${role} nologin; end if;
      end $$`);
      await run(`create schema if not exists ${schema}`);
      await run(`revoke all on schema ${schema} from public`);
      await run(`grant usage, create on schema ${schema} to ${role}`);
      // Lets a service user that is not a superuser (it created the role) switch to it.
      await run(`do $$ begin
        if not (select rolsuper from pg_roles where rolname = current_user) then execute format('grant %I to %I', ${literal(roleOf(input.appSchema))}, current_user); end if;
      end $$`);

      await run(`set local role ${role}`);
      await run(`set local search_path = ${schema}`);
      for (const statement of statements) {
        running = statement;
        await run(statement.text);
      }
      running = undefined;
      await run('reset role');
      await run('set local search_path = public');

      const tables = await rows<{ relname: string }>(
        sql`
        select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${input.appSchema} and c.relkind in ('r', 'p')
          and (not c.relrowsecurity or not exists (select 1 from pg_policy p where p.polrelid = c.oid))
        order by c.relname`,
        tx,
      );
      if (tables.length) {
        throw refused(
          tables.map((t) => ({ rule: 'rls-required', message: `Table ${t.relname} must have row level security enabled and a policy`, line: 1 })),
        );
      }
      await tx
        .insert(appSchemaMigrations)
        .values({ siteId: input.siteId, appSchema: input.appSchema, name: input.name, checksum, statements: statements.length });
      return { status: 'applied' as const, name: input.name, checksum, statements: statements.length };
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (isUniqueViolation(error)) {
      const row = await recorded(input.appSchema, input.name);
      if (row) return repeat(input, checksum, row);
    }
    // The statements passed the lint but the database refused one (a missing table, a type
    // error…): the transaction rolled back. The caller gets the database's message about its
    // own SQL; logs get nothing of it.
    const dbError = sqlStateError(error);
    if (dbError && running) {
      const line = lineAt(input.sql, running.start + (running.text.length - running.text.trimStart().length));
      throw refused([
        {
          rule: 'database',
          message: `The database refused this statement (SQL state ${dbError.code}): ${dbError.message.slice(0, 300)}. Nothing was applied.`,
          line,
        },
      ]);
    }
    throw error;
  }
}

/** The PostgreSQL error (SQL state and message) in an error or its causes. */
function sqlStateError(error: unknown): { code: string; message: string } | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, message: typeof message === 'string' ? message : '' };
  }
  return undefined;
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

export async function appSchemaStatus(siteId: string, appSchema: string): Promise<{ exists: boolean; applied: number }> {
  const db = await getDb();
  const [owner] = await db.select({ siteId: appSchemas.siteId }).from(appSchemas).where(eq(appSchemas.name, appSchema)).limit(1);
  if (!owner || owner.siteId !== siteId) return { exists: false, applied: 0 };
  const [{ n }] = await db
    .select({ n: count() })
    .from(appSchemaMigrations)
    .where(and(eq(appSchemaMigrations.siteId, siteId), eq(appSchemaMigrations.appSchema, appSchema)));
  const present = await rows(sql`select 1 from pg_namespace where nspname = ${appSchema}`, db);
  return { exists: present.length > 0, applied: Number(n) };
}
