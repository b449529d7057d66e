import { ApiError, found } from '@/lib/core/errors';
import { mergeSettings } from './merge';
import { changeSettings, readSettings } from './repo';
import { SettingsPatchSchema, SiteSettingsSchema, type SettingsPatch, type SiteSettings } from './schema';

/**
 * Site business settings, for the tool route, the console and agents alike. Both functions take
 * the site id first and validate with the schemas of ./schema.ts.
 */
export async function getSettings(siteId: string): Promise<SiteSettings> {
  return SiteSettingsSchema.parse(found(await readSettings(siteId), 'Site'));
}

function invalid(error: { issues: { path: PropertyKey[]; message: string }[] }, where: string): ApiError {
  const issues = error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message }));
  return new ApiError('INVALID_REQUEST', `Invalid settings: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
}

/**
 * Applies `patch` by the merge rules (only given fields change, objects merge recursively,
 * arrays and scalars replace, null removes) and returns the stored result. The row is locked
 * for the read-merge-write, so concurrent updates of different fields both survive. An invalid
 * patch or merged result writes nothing (400 INVALID_REQUEST). `patch` may be a function of the
 * stored settings, called under the same lock (an editor that saves fields whole computes its
 * patch from what is stored, without a window for another update in between).
 */
export async function updateSettings(
  siteId: string,
  patch: SettingsPatch | ((stored: Record<string, unknown>) => SettingsPatch),
): Promise<SiteSettings> {
  const validPatch = (p: SettingsPatch) => {
    const parsed = SettingsPatchSchema.safeParse(p);
    if (!parsed.success) throw invalid(parsed.error, 'settings');
    return parsed.data as Record<string, unknown>;
  };
  const given = typeof patch === 'function' ? undefined : validPatch(patch);
  const stored = await changeSettings(siteId, (stored) => {
    const changes = given ?? validPatch((patch as (stored: Record<string, unknown>) => SettingsPatch)(stored));
    const merged = SiteSettingsSchema.safeParse(mergeSettings(stored, changes));
    if (!merged.success) throw invalid(merged.error, 'settings');
    return merged.data;
  });
  return found(stored, 'Site');
}
