'use client';

import { useEffect, useRef, useState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { saveTimeZoneAction } from '@/app/(console)/_lib/settings-actions';
import { ActionForm } from '@/components/action-form';

/**
 * The site's time zone as a list of IANA zones (`zones`, from the server so that the page the
 * server renders and the one the browser hydrates list the same). A site without one is offered
 * the browser's own zone, preselected once the page runs (UTC without JavaScript).
 */
export function TimeZoneForm({ siteId, zone, zones }: { siteId: string; zone: string | null; zones: string[] }) {
  const select = useRef<HTMLSelectElement>(null);
  const [browserZone, setBrowserZone] = useState<string>();
  useEffect(() => {
    if (zone) return;
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (select.current && zones.includes(own)) {
      select.current.value = own;
      setBrowserZone(own);
    }
  }, [zone, zones]);
  return (
    <ActionForm action={forSite(saveTimeZoneAction, siteId)} submit="Save time zone" done={(saved) => `Saved: ${saved.replaceAll('_', ' ')}.`}>
      {({ state }) => {
        const error = state.errors?.timezone;
        return (
          <div className="field">
            <label htmlFor="field-timezone">Time zone</label>
            <select
              id="field-timezone"
              name="timezone"
              ref={select}
              defaultValue={state.values?.timezone ?? zone ?? 'UTC'}
              aria-invalid={error ? true : undefined}
              aria-describedby={`field-timezone-hint${error ? ' field-timezone-error' : ''}`}
            >
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll('_', ' ')}
                </option>
              ))}
            </select>
            <p className="hint" id="field-timezone-hint">
              {zone
                ? 'Dates in the console and the days of its analytics are in this zone; hover a time for its UTC instant.'
                : `Not set yet: the console shows UTC.${browserZone ? ` Your browser’s zone (${browserZone.replaceAll('_', ' ')}) is preselected.` : ''}`}
            </p>
            {error && (
              <p className="error" id="field-timezone-error">
                {error}
              </p>
            )}
          </div>
        );
      }}
    </ActionForm>
  );
}
