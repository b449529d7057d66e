import { createClient } from '@supabase/supabase-js';
import type { FileStorage } from './port';

/** Supabase Storage: one bucket, private; the service role key stays on the server. */
export function supabaseStorage(url: string, serviceRoleKey: string, bucket: string): FileStorage {
  const client = createClient(url, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const files = () => client.storage.from(bucket);
  return {
    kind: 'supabase',
    async put(key, bytes, contentType) {
      const { error } = await files().upload(key, bytes, { contentType, upsert: false });
      if (error) throw new Error(`Supabase Storage upload failed: ${error.message}`);
    },
    async get(key) {
      const { data, error } = await files().download(key);
      if (error || !data) return undefined;
      return new Uint8Array(await data.arrayBuffer());
    },
    async remove(key) {
      const { error } = await files().remove([key]);
      if (error) throw new Error(`Supabase Storage delete failed: ${error.message}`);
    },
  };
}
