/**
 * What the sign-in page says for `?error=`: the reasons a single sign-on was refused
 * (lib/users/sso.ts) and next-auth's own error codes of a sign-in that did not complete.
 */
export function ssoErrorMessage(code: string, name: string): string {
  switch (code) {
    case 'SsoEmailUnverified':
      return `${name} does not say that your email address is verified. Verify it there, then sign in again.`;
    case 'SsoEmailMissing':
      return `${name} did not share an email address for your account, so it cannot sign you in here.`;
    case 'SsoDomainNotAllowed':
      return `Sign-in with ${name} is open to addresses of this organisation’s email domains only, and yours is not one of them.`;
    case 'SsoSignupClosed':
      return `No account here has your address, and sign-up is closed on this server. Ask its operator for an account.`;
    case 'SsoLinkedElsewhere':
      return `The account with your address is linked to another ${name} identity. Sign in with that one, or with the account’s password.`;
    case 'SsoRateLimited':
      return `Too many sign-ins with ${name} from your network just now. Wait a minute, then try again.`;
    case 'SsoWrongIssuer':
      return `Sign-in with ${name} is misconfigured on this server. Tell its operator.`;
    case 'OAuthSignin':
      return `Sign-in with ${name} could not start: the provider did not answer. Try again later.`;
    case 'OAuthCallback':
    case 'Callback':
      return `Sign-in with ${name} did not complete. Try again.`;
    default:
      return 'Sign-in did not complete. Try again.';
  }
}
