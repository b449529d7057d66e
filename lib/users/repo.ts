import { count, eq, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { users } from '@/lib/db/schema';
import { firstRow } from '@/lib/db/site-scoped';

const publicColumns = { id: users.id, email: users.email, name: users.name };

export async function insertUser(input: { email: string; name: string | null; passwordHash: string }) {
  const db = await getDb();
  try {
    const [row] = await db.insert(users).values(input).returning(publicColumns);
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('CONFLICT', 'An account with this email already exists');
    throw error;
  }
}

export async function findUserByEmail(email: string) {
  return firstRow(users, eq(sql`lower(${users.email})`, email.toLowerCase()));
}

export async function findUserById(id: string) {
  const db = await getDb();
  const [row] = await db.select(publicColumns).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The account with its verification state (`GET /api/auth/me`, the console's banner). */
export async function findAccount(id: string) {
  const db = await getDb();
  const [row] = await db
    .select({ ...publicColumns, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

export async function countUsers(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(users);
  return row.n;
}
