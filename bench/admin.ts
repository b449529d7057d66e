import { Client } from 'pg';

/** Runs `fn` on one connection to `url` (the server's admin database: throwaway databases are created and dropped there). */
export async function admin<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Runs one statement on the admin database at `url` (`create database …`, `drop database …`). */
export async function adminSql(url: string, sql: string): Promise<void> {
  await admin(url, (c) => c.query(sql));
}

/** The URL of database `name` on the server the admin URL points at. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The owner of a seeded database's sites: one user row. */
export async function insertBenchUser(client: Client): Promise<{ id: string }> {
  const {
    rows: [user],
  } = await client.query<{ id: string }>(`insert into users (email, password_hash) values ('bench@example.com', 'x') returning id`);
  return user;
}
