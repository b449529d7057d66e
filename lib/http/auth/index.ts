import type { Principal } from '@/lib/core/principal';
import { apiKeyStrategy, presentedKey } from './api-key';
import { originStrategy } from './origin';
import { platformKeyStrategy } from './platform-key';
import { publicStrategy } from './public';
import { sessionStrategy } from './session';
import type { AuthPolicy, AuthStrategy } from './strategy';

export type { AuthPolicy, AuthStrategy, RawRequest } from './strategy';

/** Every credential kind, by the principal kind it produces. A new kind is one file and one line here. */
const STRATEGIES: { [K in Principal['kind']]: AuthStrategy<Extract<Principal, { kind: K }>> } = {
  public: publicStrategy,
  session: sessionStrategy,
  apiKey: apiKeyStrategy,
  origin: originStrategy,
  platformKey: platformKeyStrategy,
};

/** The strategies a route's policy accepts, in the order they are tried. */
export function strategiesOf(policy: AuthPolicy): AuthStrategy[] {
  const primary = STRATEGIES[policy.kind] as AuthStrategy;
  if (policy.kind === 'apiKey' && policy.session) {
    // A key in the route's headers decides; without one the caller must be a signed-in owner.
    const keyed = { ...apiKeyStrategy, applies: (req: Request) => presentedKey(req, policy.headers) !== null } as AuthStrategy;
    return [keyed, sessionStrategy as AuthStrategy];
  }
  return policy.kind === 'apiKey' && policy.browserOrigin ? [originStrategy as AuthStrategy, primary] : [primary];
}

export function strategyOf(principal: Principal): AuthStrategy {
  return STRATEGIES[principal.kind] as AuthStrategy;
}

/** Every security scheme a strategy defines (OpenAPI components). */
export function securitySchemes(): Record<string, Record<string, string>> {
  return Object.assign({}, ...Object.values(STRATEGIES).map((s) => s.schemes));
}

/** What a route's principal type is, by its policy. */
export type PrincipalFor<A extends AuthPolicy> = A extends { kind: 'apiKey'; browserOrigin: true }
  ? Extract<Principal, { kind: 'apiKey' | 'origin' }>
  : A extends { kind: 'apiKey'; session: true }
    ? Extract<Principal, { kind: 'apiKey' | 'session' }>
    : A extends { kind: 'apiKey' }
      ? Extract<Principal, { kind: 'apiKey' }>
      : A extends { kind: 'platformKey' }
        ? Extract<Principal, { kind: 'platformKey' }>
        : A extends { kind: 'session' }
          ? Extract<Principal, { kind: 'session' }>
          : Extract<Principal, { kind: 'public' }>;
