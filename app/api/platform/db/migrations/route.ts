import { platformKey } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { appMigrationBodySchema, AppMigrationResultSchema } from '@/lib/platform/schema';
import { migrateAppSchema } from '@/lib/platform/service';

// POST /api/platform/db/migrations — lint a SQL migration and apply it to the app's own schema
export const POST = defineRoute({
  summary: "Apply a migration to the app's schema (platform)",
  description:
    'Parses the SQL with PostgreSQL\'s parser, checks every statement against the allow-list (docs/PRODUCT.md, "App schema ' +
    'migrations"), and applies it in one transaction to the schema of the key\'s app (`app_<short_id>`), as a role that ' +
    'can touch only that schema; every table it creates must enable row level security and get a policy. A refused ' +
    'migration is 422 `UNPROCESSABLE` with `details.issues` `[{rule, message, line}]` and changes nothing. The same ' +
    '`name` with the same SQL again answers `already_applied`; with other SQL, 409. One unit of the `db.migrate` daily ' +
    'quota, given back when the migration is refused or fails.',
  tags: ['Platform API'],
  auth: platformKey(['db.migrate']),
  body: appMigrationBodySchema,
  response: AppMigrationResultSchema,
  errors: ['UNPROCESSABLE', 'CONFLICT', 'PAYLOAD_TOO_LARGE', 'RATE_LIMITED'],
  handler: ({ principal, body }) => migrateAppSchema(principal, body),
});
