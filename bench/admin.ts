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
