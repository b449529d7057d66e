import { z } from 'zod';
import { processState } from './process-state';
import { resetProviders } from './providers';

/**
 * Every environment variable the service reads, parsed once. `.env.example` and docs/OPERATIONS.md
 * table document each one; nothing else in the code reads `process.env` directly.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));

const hostList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((h) =>
        h
          .trim()
          .replace(/^\[|\]$/g, '')
          .replace(/\.$/, '')
          .toLowerCase(),
      )
      .filter(Boolean),
  );

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const isLoopbackHost = (host: string) => host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * A streaming read replica of DATABASE_URL's Postgres: the analytics reads (lib/db/replica.ts) go
   * there, with a pool of their own of DATABASE_READ_POOL_MAX connections per process.
   */
  DATABASE_READ_URL: z
    .string()
    .url()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  DATABASE_READ_POOL_MAX: z.coerce.number().int().min(1).max(200).default(5),
  // Buffer cache of the embedded database (PGlite), in MB: resident memory grows with it.
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(1024).default(16),
  AUTH_SECRET: z.string().min(32).optional(),
  SESSION_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(60 * 60 * 24 * 7),
  /**
   * The product's public origin, e.g. https://growth.example.com: of the tracking snippet, the
   * links in mail (account mail, unsubscribe links) and every link the app gives out
   * (lib/core/public-url.ts). Optional: without it (and without NEXTAUTH_URL) the origin of the
   * request at hand is used, and mail sent by a background job points at this server on localhost.
   */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * next-auth's origin, for the redirects of its own /api/auth/* endpoints; the public origin too
   * when PUBLIC_URL is unset. An https:// value switches the session cookie to the `__Secure-`
   * name with the Secure flag.
   */
  NEXTAUTH_URL: z.string().url().optional(),
  /** The port the server listens on (the server entry sets it): where job-sent links point without PUBLIC_URL. */
  PORT: z.coerce.number().int().min(1).max(65535).optional(),
  OPEN_SIGNUP: bool(true),
  // Single sign-on with one OpenID Connect provider (docs/PRODUCT.md "Single sign-on"): the issuer,
  // whose /.well-known/openid-configuration is read, and this app's client at it. All three or none
  // (none: no SSO button); they need NEXTAUTH_URL, the origin of the redirect URI registered there.
  OIDC_ISSUER: z
    .string()
    .url()
    .refine((v) => {
      const u = new URL(v);
      return u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname));
    }, 'an https:// URL (http:// only on a loopback host)')
    .refine((v) => !/[?#]/.test(v), 'no query or fragment')
    .optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  // Comma-separated email domains whose addresses may sign in with SSO (unset: any verified address).
  OIDC_ALLOWED_DOMAINS: hostList.refine((list) => list.every((d) => DOMAIN.test(d)), 'comma-separated email domains, e.g. example.com'),
  // The provider's name on the sign-in button ("Sign in with …").
  OIDC_NAME: z.string().trim().min(1).max(40).default('SSO'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  // People-data provider behind the finder (a Forager-compatible HTTP API). Unset → 503 PROVIDER_NOT_CONFIGURED.
  // PEOPLE_DATA_API_URL is the older name of PEOPLE_DATA_BASE_URL (read when the new one is unset).
  PEOPLE_DATA_BASE_URL: z.string().url().optional(),
  PEOPLE_DATA_API_URL: z.string().url().optional(),
  PEOPLE_DATA_API_KEY: z.string().min(1).optional(),
  PEOPLE_DATA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // Finder credits: the monthly spend cap of a site without its own (operator script), in credits; 0 = none.
  FINDER_MONTHLY_CAP: z.coerce.number().int().min(0).default(10_000),
  // Venue search behind the searchRegionVenues tool. Unset → 503 PROVIDER_NOT_CONFIGURED.
  VENUES_API_URL: z.string().url().optional(),
  VENUES_API_KEY: z.string().min(1).optional(),
  VENUES_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // Rate limits (docs/OPERATIONS.md "Rate limits, CORS and key usage"). `none` switches every limit off:
  // a benchmark baseline, never for production.
  RATE_LIMIT_BACKEND: z.enum(['memory', 'upstash', 'none']).default('memory'),
  RATE_LIMIT_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/)
    .default('sgp'),
  UPSTASH_REDIS_REST_URL: z.string().url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  // How many reverse proxies in front of the app append to X-Forwarded-For (0: none, the app is reached directly).
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
  AUTH_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  // Account mail (verification, password reset, sign-up notices) per address and hour.
  ACCOUNT_MAILS_PER_ADDRESS: z.coerce.number().int().min(1).default(5),
  KEY_USAGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // A filtered analytics read expected to read more sessions than this reads a share of the visitors
  // and scales its figures (lib/analytics/samples.ts); 0: never sampled.
  ANALYTICS_SAMPLE_SESSIONS: z.coerce.number().int().min(0).default(50_000),
  // Visitor sessions end after this many seconds without activity (spec: 1800). Tests and staging
  // shorten it to see sessions expire without waiting half an hour.
  SESSION_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1800),
  // Visitor uploads: size cap per file and where files go (local disk under DATA_DIR, or Supabase Storage).
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  STORAGE_PROVIDER: z.enum(['local', 'supabase']).default('local'),
  SUPABASE_URL: z.string().url().optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  SUPABASE_STORAGE_BUCKET: z.string().min(1).default('uploads'),
  // Background work (docs/ARCHITECTURE.md "Background work"): `on` (default) — the server starts the worker as its
  // own process beside it; `off` — the web process runs no background work at all (serverless), and
  // `npm run worker` runs every job elsewhere. WORKFLOW_WORKER_IN_APP=false is the older spelling of off.
  WORKERS: z.enum(['on', 'off']).default('on'),
  WORKFLOW_WORKER_IN_APP: bool(true),
  // Retention (days): the scheduled prune deletes older rows in bounded batches.
  WORKFLOW_RUN_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  WORKFLOW_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  // How long a worker holds a run it executes before another worker may take it over (crash recovery).
  WORKFLOW_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(300),
  WORKFLOW_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
  // Attempts after the first when an activity fails (exponential backoff from the delay).
  WORKFLOW_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(3),
  WORKFLOW_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(2),
  // A sequence step's send: how long one attempt may go without a sign of life (a live worker keeps
  // renewing it) before its worker is taken for dead and the step recorded at most once, never sent
  // again; and the delay before a refused send is retried.
  SEQUENCE_STEP_TIMEOUT_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  SEQUENCE_STEP_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // The SSRF guard (lib/net/guard.ts) refuses private, loopback, link-local and other non-public
  // addresses on every outbound request unless the host (name or IP) is in this comma-separated
  // operator allow-list: local development and tests only (e.g. 127.0.0.1).
  OUTBOUND_ALLOW_HOSTS: hostList,
  // Older name of the same allow-list (still honoured; both lists apply).
  WORKFLOW_FETCH_ALLOWED_HOSTS: hostList,
  WORKFLOW_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  WORKFLOW_FETCH_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(20 * 1024 * 1024)
    .default(2 * 1024 * 1024),
  // Webhook deliveries (docs/PRODUCT.md "Events and webhooks"): jobs of the delivery queue, sent by the worker.
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(1000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // Response bytes read (and kept with the attempt) per delivery.
  WEBHOOK_MAX_RESPONSE_BYTES: z.coerce.number().int().min(0).max(65_536).default(2048),
  // Seconds before each retry (±20 % jitter); after the last one the delivery fails and its endpoint
  // is marked failing. Default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27.5 h in all).
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'comma-separated seconds')
    .default('5,300,1800,7200,18000,36000,36000')
    .transform((v) => v.split(',').map(Number)),
  // Temporal (docs/OPERATIONS.md "Running with Temporal"). TEMPORAL_ADDRESS set → runs go to that cluster and a
  // separate `npm run worker:temporal` process executes them.
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[\w.-]+:\d{1,5}$/, 'host:port')
    .optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('site-growth'),
  // Temporal Cloud: an API key (implies TLS), or mTLS with a client certificate and key (PEM files).
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  TEMPORAL_TLS: bool(false),
  TEMPORAL_TLS_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_KEY_PATH: z.string().min(1).optional(),
  // Language model of the agents: any OpenAI-compatible chat-completions endpoint. Without
  // LLM_BASE_URL and LLM_MODEL every agent route answers 503 MODEL_NOT_CONFIGURED.
  LLM_BASE_URL: z.string().url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  LLM_MAX_STEPS: z.coerce.number().int().min(1).max(50).default(8),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  // Transactional email (docs/PRODUCT.md "Transactional email"). Without SMTP_URL messages go to the embedded
  // outbox (the site owner reads them in the console; nothing leaves the machine).
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'smtp://[user:pass@]host[:port] or smtps://…')
    .optional(),
  EMAIL_FROM: z.string().trim().min(3).max(320).default('Site Growth <no-reply@localhost>'),
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
  // Sites' mailboxes over IMAP (docs/PRODUCT.md "Email in and out"): one deadline for connecting, the
  // greeting and each response; messages read per sync (the rest on the next one); minutes
  // between scheduled syncs of each site.
  IMAP_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
  MAILBOX_SYNC_BATCH: z.coerce.number().int().min(1).max(1_000).default(100),
  MAILBOX_SYNC_EVERY_MINUTES: z.coerce.number().int().min(1).max(1_440).default(15),
  // Per-capability daily quotas of the platform API, per app: JSON object overriding the defaults,
  // e.g. {"email.send":200,"leads.write":1000}.
  PLATFORM_DAILY_QUOTAS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return {};
      try {
        const parsed = z.record(z.string(), z.number().int().min(0).max(100_000_000)).parse(JSON.parse(v));
        return parsed;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object of capability → non-negative integer' });
        return z.NEVER;
      }
    }),
  // Plan caps (docs/OPERATIONS.md "Plan caps"): JSON object of plan → cap → value overriding the defaults,
  // e.g. {"basic":{"sites_per_account":3,"upload_bytes_per_site":104857600}}.
  PLAN_CAPS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return {};
      try {
        return z.record(z.string(), z.record(z.string(), z.number().int().min(0))).parse(JSON.parse(v));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object of plan → cap → non-negative integer' });
        return z.NEVER;
      }
    }),
  // Secure tokens (docs/PRODUCT.md "Secure tokens"): master keys that wrap each secret's data key, as
  // `v2:<base64 of 32 bytes>,v1:<base64>` — the first is current, the others still decrypt. Unset:
  // the embedded database uses a key file generated under DATA_DIR; with DATABASE_URL the routes
  // answer 503 PROVIDER_NOT_CONFIGURED.
  SECRETS_MASTER_KEY: z.string().min(1).optional(),
  // Decrypts allowed per minute, per API key and per site (stricter than any plan).
  SECRETS_DECRYPT_PER_KEY_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  SECRETS_DECRYPT_PER_SITE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(40),
  // Robots (docs/PRODUCT.md "Instances and robots"). `local` drives the machine's Chromium (never downloaded);
  // ROBOTS_CDP_URL set → any browser reachable over the Chrome DevTools Protocol instead; `none` → 503.
  ROBOTS_PROVIDER: z.enum(['local', 'cdp', 'none']).optional(),
  ROBOTS_CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  ROBOTS_CDP_URL: z.string().url().optional(),
  // Running browsers at once: per site (across every process, a database rule) and per app process.
  ROBOTS_MAX_PER_SITE: z.coerce.number().int().min(1).max(100).default(2),
  ROBOTS_MAX_TOTAL: z.coerce.number().int().min(1).max(500).default(8),
  ROBOTS_ACTION_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
});

export type Config = z.infer<typeof configSchema>;

const parsedConfig = processState('config', () => ({ cached: undefined as Config | undefined }));

export function config(): Config {
  if (!parsedConfig.cached) {
    const parsed = configSchema.safeParse(process.env);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Invalid environment configuration: ${fields}`);
    }
    if (parsed.data.RATE_LIMIT_BACKEND === 'upstash' && !(parsed.data.UPSTASH_REDIS_REST_URL && parsed.data.UPSTASH_REDIS_REST_TOKEN)) {
      throw new Error('Invalid environment configuration: RATE_LIMIT_BACKEND=upstash needs UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN');
    }
    if (Boolean(parsed.data.TEMPORAL_TLS_CERT_PATH) !== Boolean(parsed.data.TEMPORAL_TLS_KEY_PATH)) {
      throw new Error('Invalid environment configuration: TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH go together');
    }
    if (parsed.data.DATABASE_READ_URL && !parsed.data.DATABASE_URL) {
      throw new Error(
        'Invalid environment configuration: DATABASE_READ_URL (a read replica for analytics) needs DATABASE_URL, the Postgres it replicates: ' +
          'the embedded database (PGlite) has no replicas. Set DATABASE_URL or unset DATABASE_READ_URL',
      );
    }
    const sso = ssoProblem(parsed.data);
    if (sso) throw new Error(`Invalid environment configuration: ${sso}`);
    parsedConfig.cached = parsed.data;
  }
  return parsedConfig.cached;
}

const SSO_REQUIRED = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

/** Single sign-on is on with all three of its variables and off with none; anything between is a mistake to refuse at start. */
function ssoProblem(c: z.infer<typeof configSchema>): string | undefined {
  const missing = SSO_REQUIRED.filter((name) => !c[name]);
  if (missing.length === SSO_REQUIRED.length) {
    return c.OIDC_ALLOWED_DOMAINS.length > 0 ? 'OIDC_ALLOWED_DOMAINS is set without OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET' : undefined;
  }
  if (missing.length > 0) return `single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together (missing: ${missing.join(', ')})`;
  if (!c.NEXTAUTH_URL)
    return 'single sign-on (OIDC_ISSUER) needs NEXTAUTH_URL: the redirect URI registered at the provider is <NEXTAUTH_URL>/api/auth/callback/oidc';
  return undefined;
}

/** Whether single sign-on is configured (OIDC_ISSUER and its client). */
export const ssoConfigured = (c: Config = config()): boolean => c.OIDC_ISSUER !== undefined;

/** Whether this deployment runs background work beside its web process (WORKERS, or the older WORKFLOW_WORKER_IN_APP). */
export const workersBesideWeb = (c: Config = config()): boolean => c.WORKERS === 'on' && c.WORKFLOW_WORKER_IN_APP;

/** Tests change the environment between suites; this drops the parsed copy and what was built from it. */
export function resetConfig(): void {
  parsedConfig.cached = undefined;
  void resetProviders();
}
