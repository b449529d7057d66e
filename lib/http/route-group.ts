import type { z } from 'zod';
import { paginationMeta } from '@/lib/core/schemas';
import type { Permission } from '@/lib/members/permissions';
import type { AuthPolicy } from './auth';
import { defineRoute, type ResponseExtras, type RouteDefinition, type RouteHandler } from './define-route';
import type { RateLimitPolicy } from './rate-limit';

type AnyObject = z.ZodType<Record<string, unknown>>;

/** What the routes of one resource have in common: their OpenAPI group, who may call them, their limits, their path parameters. */
interface Shared<A extends AuthPolicy, SP extends AnyObject | undefined> {
  tags: string[];
  auth: A;
  permission?: Permission;
  rateLimit?: RateLimitPolicy;
  params?: SP;
}

/**
 * The declarations of one resource's routes (list, create, get, update, delete), where they share
 * their tags, auth policy, permission or path parameters: `const route = routeGroup({ tags, auth })`
 * at the top of the file, then `export const GET = route({ summary, query, response, handler })`.
 * A route still names whatever it does not share (a read policy beside write ones, its own
 * permission); the result is the same `defineRoute` declaration as if written out in full.
 */
export function routeGroup<A extends AuthPolicy, SP extends AnyObject | undefined = undefined>(shared: Shared<A, SP>) {
  return <
    P extends AnyObject | undefined = SP,
    Q extends AnyObject | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
    R extends z.ZodType = z.ZodType,
    RA extends AuthPolicy = A,
  >(
    definition: Omit<RouteDefinition<RA, P, Q, B, R>, 'tags' | 'auth'> & { tags?: string[]; auth?: RA },
  ): RouteHandler => defineRoute({ ...shared, ...definition } as RouteDefinition<RA, P, Q, B, R>);
}

/**
 * A list route's answer from a domain call that reads one page as `{items, total}` for the query's
 * `limit` and `offset`: the items, with total, limit, offset and has_more in `meta`.
 * `handler: ({ siteId, query, res }) => withPageMeta(res, query, listThings(siteId, query))`.
 */
export async function withPageMeta<T>(
  res: ResponseExtras,
  query: { limit: number; offset: number },
  page: Promise<{ items: T[]; total: number }>,
): Promise<T[]> {
  const { items, total } = await page;
  res.meta = paginationMeta(total, query.limit, query.offset);
  return items;
}

/** A list route's answer from a domain call that builds its page's `meta` itself (`{items, meta}`): the items, with that `meta`. */
export async function withMeta<T>(res: ResponseExtras, page: Promise<{ items: T[]; meta: Record<string, unknown> }>): Promise<T[]> {
  const { items, meta } = await page;
  res.meta = meta;
  return items;
}
