import type { StateAction } from '@/components/form-state';
import { BoundedMap, processState } from '@/lib/core/process-state';
import type { SiteAction } from './define-action';

/**
 * The bound copies made so far, by action and site: the same function for the same pair. Per
 * action, the sites most recently rendered (a process serving many sites keeps a bounded number;
 * a page being rendered twice asks within milliseconds, long before its copy could be dropped).
 */
const SITES_PER_ACTION = 1_000;
const copies = processState('console.siteActions', () => new WeakMap<object, BoundedMap<string, unknown>>());

/**
 * A site's action bound to the site, for `useActionState(forSite(action, siteId), {})` and the
 * confirm buttons: always the same function for the same action and site.
 *
 * Why not `action.bind(null, siteId)` in the component: each bind of a server action makes a new
 * pending promise of its bound arguments, and a form posted without JavaScript is answered by
 * rendering the page with the action's state, where `useActionState` waits for that promise and
 * renders again, binding again: the render never ends and the post is never answered. The same
 * copy settles once and the second render goes through.
 */
export function forSite<R>(action: SiteAction<R>, siteId: string): StateAction<R> {
  let bySite = copies.get(action);
  if (!bySite) copies.set(action, (bySite = new BoundedMap(SITES_PER_ACTION)));
  let bound = bySite.get(siteId) as StateAction<R> | undefined;
  if (!bound) bySite.set(siteId, (bound = action.bind(null, siteId) as StateAction<R>));
  return bound;
}
