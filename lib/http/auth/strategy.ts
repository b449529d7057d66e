import type { ErrorCode } from '@/lib/core/errors';
import type { Capability, PlanLimits, Principal, Scope } from '@/lib/core/principal';
import type { Permission } from '@/lib/members/permissions';

/** Where a route accepts an API key. Each route group of the spec names its own header(s). */
export type KeyHeader = 'x-api-key' | 'x-sa-api-key' | 'bearer';

/** What a route declares it accepts (`auth` of defineRoute). */
export type AuthPolicy =
  | { kind: 'public' }
  | { kind: 'session' }
  | {
      kind: 'apiKey';
      headers: readonly KeyHeader[];
      scope?: Scope;
      /**
       * Public browser-tracking routes only: without a key, a request whose Origin is registered
       * for the `site_id` it names is accepted for that site (and gets CORS headers).
       */
      browserOrigin?: boolean;
      /**
       * Also accepts the site owner's session (console) when no key is sent in `headers`: the
       * owner manages from the console what servers use with a key.
       */
      session?: boolean;
    }
  | {
      kind: 'platformKey';
      /** The capabilities that open the route (the key needs one of them), or `any` (introspection). */
      capabilities: readonly Capability[] | 'any';
    };

/** The request's raw parts, read once: path params, query and body (before validation). */
export interface RawRequest {
  params: Record<string, unknown>;
  query: Record<string, string>;
  body: () => Promise<unknown>;
}

/** How the rate limiter counts a principal. */
export interface LimitSubject {
  /** The site whose plan limits apply (`plan` policy); absent: not plan-limited. */
  plan?: { siteId: string; limits?: PlanLimits };
  /** The per-credential bucket of the visitor limits. */
  bucket: string;
}

/** What the audit trail keeps of a finished request: never its params, query or body. */
export interface AuditedCall {
  policy: AuthPolicy;
  requestId: string;
  method: string;
  route: string;
  status: number;
  errorCode: string | null;
}

export type SecurityRequirement = Record<string, string[]>;

/**
 * One credential kind, in one place: how it authenticates, which site it may act on, how the
 * rate limiter and usage log count it, and how OpenAPI documents it. defineRoute, the tenant
 * check, the limiter and the OpenAPI generator read strategies; adding a credential kind is one
 * strategy file and one line in `./index.ts`.
 */
export interface AuthStrategy<P extends Principal = Principal> {
  kind: P['kind'];
  /** Whether this strategy answers this request (a route may accept several). */
  applies(req: Request, policy: AuthPolicy): boolean;
  /** The caller, or 401 for a missing or bad credential. */
  authenticate(req: Request, policy: AuthPolicy, raw: RawRequest): Promise<P>;
  /** 403 when the valid credential may not call this route (e.g. lacks its scope). */
  authorize?(principal: P, policy: AuthPolicy, method: string): void;
  /**
   * The site the request acts on, given the valid `site_id`s it names (403 for a site it may not
   * touch). `permission` is what the route needs of a member's role (sessions; keys have scopes).
   */
  tenant(principal: P, requested: string[], permission: Permission): Promise<string | undefined>;
  limitSubject(principal: P): LimitSubject;
  /** The key whose usage log records the request, if any. */
  usage?(principal: P): { keyId: string; siteId: string } | undefined;
  /**
   * Writes the finished request to the credential's own audit trail (platform keys), refused
   * requests included; awaited before the answer leaves.
   */
  audit?(principal: P, call: AuditedCall): Promise<void>;
  /** OpenAPI: the security schemes it defines, the requirement of a route, and its sentence for the docs. */
  schemes: Record<string, Record<string, string>>;
  security(policy: AuthPolicy): SecurityRequirement[];
  note(policy: AuthPolicy, method: string): string;
  /** Codes it may answer with. */
  errors: ErrorCode[];
}

export function bearerOf(req: Request): string | null {
  const value = req.headers.get('authorization');
  const match = value && /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? match[1] : null;
}
