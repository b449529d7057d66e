'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { mergeLeadsAction } from '@/app/(console)/_lib/person-actions';
import { FormError } from '@/components/field';
import type { FormState } from '@/components/form-state';
import { SubmitButton } from '@/components/submit-button';

type MergeOutcome = Awaited<ReturnType<typeof mergeLeadsAction>>['result'] & {};

export interface MergeRow {
  field: string;
  label: string;
  kept: string;
  other: string;
  /** Whose value the merge takes unless the member chooses. */
  proposed: 'kept' | 'other';
}

/** Both leads side by side: a choice per field where they differ, then the merge. */
export function MergeForm({ siteId, leadId, otherId, rows }: { siteId: string; leadId: string; otherId: string; rows: MergeRow[] }) {
  const [state, action] = useActionState(forSite(mergeLeadsAction, siteId), {} as FormState<MergeOutcome>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form ?? state.errors?.other_lead_id} />
      <input type="hidden" name="lead_id" value={leadId} />
      <input type="hidden" name="other_lead_id" value={otherId} />
      <div className="table-wrap">
        <table className="merge-table">
          <caption className="visually-hidden">Values to keep</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">This lead (kept)</th>
              <th scope="col">Other lead (deleted)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.field}>
                <th scope="row">{r.label}</th>
                {(['kept', 'other'] as const).map((side) => (
                  <td key={side}>
                    {r.kept === r.other ? (
                      <span className={r[side] ? undefined : 'empty'}>{r[side] || '—'}</span>
                    ) : (
                      <label className="choice">
                        <input type="radio" name={`field_${r.field}`} value={side} defaultChecked={r.proposed === side} />{' '}
                        <span className={r[side] ? undefined : 'empty'}>{r[side] || '—'}</span>
                      </label>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="hint">
        Visits, emails, notes, agent conversations and sequence enrollments of the other lead move to this one; custom properties this lead lacks are
        taken from it. The other lead is then deleted.
      </p>
      <SubmitButton pending="Merging…" className="button danger">
        Merge into this lead
      </SubmitButton>
    </form>
  );
}
