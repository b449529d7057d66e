import type { Capability } from '@/lib/core/principal';
import type { AuthPolicy } from './strategy';

/** The headers the tool, agent, instance, robot, webhook, finder and workflow routes read an API key from. */
export const KEY_HEADERS = ['bearer', 'x-api-key'] as const;

/**
 * Who may call each group of routes, named once: a route names its group's policy, and the
 * strategy of its kind (./<kind>.ts) says how it is checked, limited and documented. Where no
 * `scope` is named, GET needs `read` and every other method `write`.
 */
export const policies = {
  /** Anyone: sign-up, the session token, the documents, the tracking snippet. */
  public: { kind: 'public' },
  /** The signed-in owner: a session token as Bearer, or the console's cookie. API keys are refused. */
  owner: { kind: 'session' },
  /** `/sites/**` (the specification's): the key in X-API-Key. */
  siteKey: { kind: 'apiKey', headers: ['x-api-key'] },
  siteKeyWrite: { kind: 'apiKey', headers: ['x-api-key'], scope: 'write' },
  /** Tools, agents, instances, robots, webhooks, finder and workflows: the key as Bearer or in x-api-key. */
  key: { kind: 'apiKey', headers: KEY_HEADERS },
  keyRead: { kind: 'apiKey', headers: KEY_HEADERS, scope: 'read' },
  keyWrite: { kind: 'apiKey', headers: KEY_HEADERS, scope: 'write' },
  /** Secure tokens: X-API-Key with write from a server, or the owner's session (no key sent) from the console. */
  keyOrOwner: { kind: 'apiKey', headers: ['x-api-key'], scope: 'write', session: true },
  /**
   * A lead's import, export, custom properties, notes, timeline, merge and data export: X-API-Key from a
   * server (read scope reads, write scope writes), or a signed-in member of the site whose role allows
   * the route's permission (session token as Bearer, or the console's cookie).
   */
  keyOrMember: { kind: 'apiKey', headers: ['x-api-key'], session: true },
  /**
   * Visitor ingestion (session start/update/end, track, identify, segment, upload): X-SA-API-KEY
   * from a server, or no key from a browser whose Origin is the site's (the request names its site_id).
   */
  visitor: { kind: 'apiKey', headers: ['x-sa-api-key'], browserOrigin: true },
  /** Visitor reads (a session with its events, session lists): server to server, X-SA-API-KEY. */
  visitorRead: { kind: 'apiKey', headers: ['x-sa-api-key'] },
} as const satisfies Record<string, AuthPolicy>;

/** Platform routes: a platform key holding one of `capabilities` (`any`: introspection). */
export const platformKey = <const C extends readonly Capability[] | 'any'>(capabilities: C) => ({ kind: 'platformKey', capabilities }) as const;
