import { and, count, eq, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { appSchemaMigrations, appSchemas } from '@/lib/db/schema';
import { firstRow } from '@/lib/db/site-scoped';
import { refused, repeat, type AppMigrationInput, type AppMigrationResult } from './outcomes';

export const roleOf = (schema: string) => `${schema}_migrator`;
/** Identifiers validated by APP_SCHEMA_PATTERN, quoted all the same. */
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The statement being run (a refusal names its line). */
export interface MigrationProgress {
  running?: { text: string; start: number };
}

export async function schemaOwner(appSchema: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db.select({ siteId: appSchemas.siteId }).from(appSchemas).where(eq(appSchemas.name, appSchema)).limit(1);
  return row?.siteId;
}

export async function recorded(appSchema: string, name: string) {
  return firstRow(appSchemaMigrations, and(eq(appSchemaMigrations.appSchema, appSchema), eq(appSchemaMigrations.name, name)));
}

/**
 * Steps 2 and 3 of ./apply.ts in one transaction, serialized per schema: claim the schema for the
 * site, create it and its role, run the statements as that role, check row level security, record
 * the migration. `progress.running` is the statement being run.
 */
export async function migrate(
  input: AppMigrationInput,
  checksum: string,
  statements: { text: string; start: number }[],
  progress: MigrationProgress,
): Promise<AppMigrationResult> {
  const schema = ident(input.appSchema);
  const role = ident(roleOf(input.appSchema));
  const db = await getDb();
  return db.transaction(async (tx) => {
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
      progress.running = statement;
      await run(statement.text);
    }
    progress.running = undefined;
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
}

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
