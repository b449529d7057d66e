import { readFileSync } from 'node:fs';
import type { Config } from '@/lib/core/config';

/**
 * Where the Temporal cluster is and how to reach it, shared by the API's client and the worker
 * process so both always talk to the same namespace and task queue.
 */
export interface TemporalSettings {
  address: string;
  namespace: string;
  taskQueue: string;
  /** Temporal Cloud API key; sent as a bearer token over TLS. */
  apiKey?: string;
  /** `true` for server-authenticated TLS, or a client certificate pair for mTLS. */
  tls?: boolean | { clientCertPair: { crt: Buffer; key: Buffer } };
}

/** The settings from config, or `undefined` when TEMPORAL_ADDRESS is unset (embedded engine). */
export function temporalSettings(cfg: Config): TemporalSettings | undefined {
  if (!cfg.TEMPORAL_ADDRESS) return undefined;
  const mtls =
    cfg.TEMPORAL_TLS_CERT_PATH && cfg.TEMPORAL_TLS_KEY_PATH
      ? { clientCertPair: { crt: readFileSync(cfg.TEMPORAL_TLS_CERT_PATH), key: readFileSync(cfg.TEMPORAL_TLS_KEY_PATH) } }
      : undefined;
  return {
    address: cfg.TEMPORAL_ADDRESS,
    namespace: cfg.TEMPORAL_NAMESPACE,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    apiKey: cfg.TEMPORAL_API_KEY,
    // An API key is only ever sent over TLS.
    tls: mtls ?? (cfg.TEMPORAL_TLS || Boolean(cfg.TEMPORAL_API_KEY)),
  };
}

/** Options accepted by both `Connection` (client) and `NativeConnection` (worker). */
export function connectionOptions(settings: TemporalSettings) {
  return {
    address: settings.address,
    tls: settings.tls || undefined,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  };
}
