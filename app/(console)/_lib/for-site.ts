import type { FormAction, SiteAction } from './define-action';

/**
 * The bound copies made so far, by action and site. A memo of pure values (a bound copy of an
 * action never changes), not state: it holds the same function for the same pair.
 */
const copies = new WeakMap<object, Map<string, unknown>>();

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
export function forSite<R>(action: SiteAction<R>, siteId: string): FormAction<R> {
  let bySite = copies.get(action);
  if (!bySite) copies.set(action, (bySite = new Map()));
  let bound = bySite.get(siteId) as FormAction<R> | undefined;
  if (!bound) bySite.set(siteId, (bound = action.bind(null, siteId) as FormAction<R>));
  return bound;
}
