'use client';

import { useActionState } from 'react';
import {
  disableTwoFactorAction,
  enableTwoFactorAction,
  regenerateRecoveryCodesAction,
  setUpTwoFactorAction,
} from '@/app/(console)/_lib/account-actions';
import { Field, FormError } from '@/components/field';
import type { FormState } from '@/components/form-state';
import { ShownOnce } from '@/components/kit/shown-once';
import { SubmitButton } from '@/components/submit-button';

type Setup = { secret: string; otpauth_uri: string; qr_svg: string };
type Codes = { recovery_codes: string[] };

const CODE_FIELD = {
  type: 'text',
  inputMode: 'numeric',
  autoComplete: 'one-time-code',
  autoCapitalize: 'none',
  spellCheck: false,
  maxLength: 64,
} as const;

/** Recovery codes handed back once (after enabling or regenerating). */
function RecoveryCodes({ codes, id }: { codes: string[]; id: string }) {
  return (
    <ShownOnce id={id} value={codes.join('\n')} title="Your recovery codes" noun="recovery codes" testId="recovery-codes" headingId={`${id}-heading`}>
      Each one signs you in once in place of a code, if you lose your phone. Only their hashes are stored.
    </ShownOnce>
  );
}

/**
 * Two-factor sign-in: set up (a QR code drawn on the server and the secret as text), confirm a
 * first code to turn it on; once on, turn it off or get new recovery codes, each with a code.
 */
export function TwoFactorCard({ enabled, recoveryCodesLeft }: { enabled: boolean; recoveryCodesLeft: number }) {
  const [setup, startSetup] = useActionState(setUpTwoFactorAction, {} as FormState<Setup>);
  const [enabling, enable] = useActionState(enableTwoFactorAction, {} as FormState<Codes>);
  const [disabling, disable] = useActionState(disableTwoFactorAction, {} as FormState<undefined>);
  const [regenerating, regenerate] = useActionState(regenerateRecoveryCodesAction, {} as FormState<Codes>);
  const shown = regenerating.result ?? enabling.result;
  return (
    <>
      {shown && <RecoveryCodes codes={shown.recovery_codes} id={regenerating.result ? 'regenerated-codes' : 'enabled-codes'} />}
      {enabled ? (
        <>
          <p>
            <span className="badge active">On</span> Signing in needs your password and a code of your authenticator app. {recoveryCodesLeft} of 10
            recovery codes left.
          </p>
          <div className="row">
            <form action={regenerate} noValidate aria-label="New recovery codes">
              <FormError message={regenerating.errors?.form} />
              <Field name="code" id="regenerate-code" label="Code from your app" {...CODE_FIELD} error={regenerating.errors?.code} />
              <SubmitButton pending="Making…">New recovery codes</SubmitButton>
            </form>
            <form action={disable} noValidate aria-label="Turn off two-factor sign-in">
              <FormError message={disabling.errors?.form} />
              <Field name="code" id="disable-code" label="Code or recovery code" {...CODE_FIELD} inputMode="text" error={disabling.errors?.code} />
              <SubmitButton pending="Turning off…" className="button danger">
                Turn off
              </SubmitButton>
            </form>
          </div>
        </>
      ) : setup.result ? (
        <div className="row">
          {/* The SVG is drawn by the server's QR library from the otpauth URI: no user input in it. */}
          <div className="qr" role="img" aria-label="QR code of the secret" dangerouslySetInnerHTML={{ __html: setup.result.qr_svg }} />
          <form action={enable} noValidate aria-label="Turn on two-factor sign-in">
            <p>
              Scan the QR code with an authenticator app, or type the secret: <code className="mono wrap">{setup.result.secret}</code>
            </p>
            <FormError message={enabling.errors?.form} />
            <Field name="code" id="enable-code" label="Code from your app" {...CODE_FIELD} required error={enabling.errors?.code} />
            <SubmitButton pending="Checking…" className="button primary">
              Turn on
            </SubmitButton>
          </form>
        </div>
      ) : (
        <form action={startSetup}>
          <p>
            <span className="badge">Off</span> Add a code from an authenticator app to every sign-in with your password.
          </p>
          <FormError message={setup.errors?.form} />
          <SubmitButton pending="Preparing…">Set up two-factor sign-in</SubmitButton>
        </form>
      )}
    </>
  );
}
