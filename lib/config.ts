import { z } from 'zod';

/**
 * Every environment variable the service reads, parsed once. `.env.example` and the README
 * table document each one; nothing else in the code reads `process.env` directly.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  AUTH_SECRET: z.string().min(32).optional(),
  SESSION_MAX_AGE_SECONDS: z.coerce.number().int().min(300).default(60 * 60 * 24 * 7),
  OPEN_SIGNUP: bool(true),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  // Visitor uploads: size cap per file and where files go (local disk under DATA_DIR, or Supabase Storage).
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).max(100 * 1024 * 1024).default(10 * 1024 * 1024),
  STORAGE_PROVIDER: z.enum(['local', 'supabase']).default('local'),
  SUPABASE_URL: z.string().url().optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  SUPABASE_STORAGE_BUCKET: z.string().min(1).default('uploads'),
});

export type Config = z.infer<typeof configSchema>;

let cached: Config | undefined;

export function config(): Config {
  if (!cached) {
    const parsed = configSchema.safeParse(process.env);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Invalid environment configuration: ${fields}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Tests change the environment between suites; this drops the parsed copy. */
export function resetConfig(): void {
  cached = undefined;
}
