import { seal, unseal } from '@/lib/auth/seal';
import { HIDDEN_VALUE } from './instance-schema';

/** Environment variables of an instance are secrets: stored sealed (lib/auth/seal.ts); answers show their names only. */
export function sealEnvVars(vars: Record<string, string>): string | null {
  return Object.keys(vars).length === 0 ? null : seal('instance-environment', JSON.stringify(vars));
}

export function openEnvVars(sealed: string | null): Record<string, string> {
  return sealed ? JSON.parse(unseal('instance-environment', sealed)) : {};
}

/** The names, each with the hidden value, as answers show them. */
export function envVarNames(sealed: string | null): Record<string, string> {
  return Object.fromEntries(Object.keys(openEnvVars(sealed)).map((name) => [name, HIDDEN_VALUE]));
}
