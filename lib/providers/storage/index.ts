import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { defineProvider, provider } from '@/lib/core/providers';
import { localStorage } from './local';
import type { FileStorage } from './port';
import { supabaseStorage } from './supabase';

export type { FileStorage } from './port';

declare module '@/lib/core/providers' {
  interface ProviderMap {
    storage: FileStorage;
  }
}

/**
 * The configured storage: local disk under DATA_DIR (default), or Supabase Storage when
 * STORAGE_PROVIDER=supabase. Supabase without its URL and service key is a 503, not a fallback.
 */
defineProvider('storage', () => {
  const c = config();
  if (c.STORAGE_PROVIDER !== 'supabase') return localStorage(c.DATA_DIR);
  if (!c.SUPABASE_URL || !c.SUPABASE_SERVICE_ROLE_KEY) {
    throw new ApiError('PROVIDER_NOT_CONFIGURED', 'File storage is set to Supabase but SUPABASE_URL or SUPABASE_SERVICE_ROLE_KEY is missing');
  }
  return supabaseStorage(c.SUPABASE_URL, c.SUPABASE_SERVICE_ROLE_KEY, c.SUPABASE_STORAGE_BUCKET);
});

export const fileStorage = (): FileStorage => provider('storage');
