import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { localStorage } from './local';
import type { FileStorage } from './port';
import { supabaseStorage } from './supabase';

export type { FileStorage } from './port';

let cached: { signature: string; storage: FileStorage } | undefined;

/**
 * The configured storage: local disk under DATA_DIR (default), or Supabase Storage when
 * STORAGE_PROVIDER=supabase. Supabase without its URL and service key is a 503, not a fallback.
 */
export function fileStorage(): FileStorage {
  const c = config();
  const signature = [c.STORAGE_PROVIDER, c.DATA_DIR, c.SUPABASE_URL, c.SUPABASE_STORAGE_BUCKET].join('|');
  if (cached?.signature === signature) return cached.storage;
  let storage: FileStorage;
  if (c.STORAGE_PROVIDER === 'supabase') {
    if (!c.SUPABASE_URL || !c.SUPABASE_SERVICE_ROLE_KEY) {
      throw new ApiError('PROVIDER_NOT_CONFIGURED', 'File storage is set to Supabase but SUPABASE_URL or SUPABASE_SERVICE_ROLE_KEY is missing');
    }
    storage = supabaseStorage(c.SUPABASE_URL, c.SUPABASE_SERVICE_ROLE_KEY, c.SUPABASE_STORAGE_BUCKET);
  } else {
    storage = localStorage(c.DATA_DIR);
  }
  cached = { signature, storage };
  return storage;
}
