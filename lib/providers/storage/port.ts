/** Where uploaded files go. `key` is a relative path chosen by the caller (`<site_id>/<file_id>/<name>`). */
export interface FileStorage {
  readonly kind: 'local' | 'supabase';
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
  remove(key: string): Promise<void>;
}
