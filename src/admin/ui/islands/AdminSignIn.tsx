/**
 * The sign-in of /auth. Without script it is a plain form post to /api/auth/login (site serve
 * --admin). Hydrated, it asks the server what admin runs here: none (a static host: it says how
 * to run one), site dev (signs in with the one-time link's token), or accounts (the form, posted
 * as JSON, with the server's message on failure).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { callApi, loadSession, type AdminSession } from './admin-client';

/** The copy of the page, from content/pages/auth/en.yaml. */
export interface AdminSignInProps {
  home: string;
  text: {
    emailLabel: string;
    passwordLabel: string;
    submit: string;
    signingIn: string;
    unavailable: string;
    devNeedsLink: string;
    tokenFailed: string;
    wrong: string;
    limited: string;
    expired: string;
    busy: string;
    insecure: string;
    signedInAs: string;
    openAdmin: string;
    signOut: string;
    signedOut: string;
  };
}

type State =
  | { kind: 'form'; message?: string; sending?: boolean }
  | { kind: 'busy' }
  | { kind: 'unavailable' }
  | { kind: 'dev'; message: string }
  | { kind: 'signed-in'; session: AdminSession };

export default function AdminSignIn({ home, text }: AdminSignInProps) {
  const [state, setState] = useState<State>({ kind: 'form' });

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const token = params.get('token');
    const error = params.get('error');
    void (async () => {
      const found = await loadSession().catch(() => ({ kind: 'unavailable' }) as const);
      if (found.kind === 'unavailable') return setState({ kind: 'unavailable' });
      if (found.kind === 'signed-in') return setState({ kind: 'signed-in', session: found.session });
      if (found.mode === 'dev') {
        if (!token) return setState({ kind: 'dev', message: text.devNeedsLink });
        setState({ kind: 'busy' });
        // The token leaves the address bar at once, whatever happens next.
        history.replaceState(null, '', location.pathname);
        const answer = await callApi('POST', '/api/auth/token', { body: { token } });
        if (answer.status === 200) return location.assign(home);
        return setState({ kind: 'dev', message: text.tokenFailed });
      }
      const messages: Record<string, string> = {
        limited: text.limited,
        expired: text.expired,
        busy: text.busy,
        insecure: text.insecure,
      };
      setState({ kind: 'form', message: error ? (messages[error] ?? text.wrong) : undefined });
    })();
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.currentTarget).entries());
    // The form stays, so what was typed is still there if the sign-in fails.
    setState({ kind: 'form', sending: true });
    const answer = await callApi('POST', '/api/auth/login', { body: data });
    if (answer.status === 200) return location.assign(home);
    const message =
      answer.status === 429
        ? text.limited
        : answer.status === 503
          ? text.busy
          : answer.body?.error === 'https_required'
            ? text.insecure
            : text.wrong;
    setState({ kind: 'form', message });
  }

  async function signOut(session: AdminSession) {
    await callApi('POST', '/api/auth/logout', { csrf: session.csrfToken });
    setState({ kind: 'dev', message: text.signedOut });
  }

  if (state.kind === 'unavailable')
    return (
      <p className="banner banner-info" role="status">
        {text.unavailable}
      </p>
    );
  if (state.kind === 'busy') return <p role="status">{text.signingIn}</p>;
  if (state.kind === 'dev')
    return (
      <p className="banner banner-info" role="status">
        {state.message}
      </p>
    );
  if (state.kind === 'signed-in') {
    return (
      <div className="card auth-form">
        <p role="status">{text.signedInAs.replace('{email}', state.session.user.email)}</p>
        <p>
          <a className="button button-primary" href={home}>
            {text.openAdmin}
          </a>{' '}
          <button type="button" className="button" onClick={() => void signOut(state.session)}>
            {text.signOut}
          </button>
        </p>
      </div>
    );
  }
  return (
    <form className="card auth-form" method="post" action="/api/auth/login" onSubmit={(event) => void submit(event)}>
      {state.message && (
        <p className="banner banner-error" role="alert">
          {state.message}
        </p>
      )}
      {/* Filled by site serve --admin when it serves this page; a plain form post must send it back. */}
      <input type="hidden" name="csrf" defaultValue="" />
      <div className="field">
        <label htmlFor="auth-email">{text.emailLabel}</label>
        <input id="auth-email" name="email" type="email" autoComplete="username" required />
      </div>
      <div className="field">
        <label htmlFor="auth-password">{text.passwordLabel}</label>
        <input id="auth-password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <button type="submit" className="button button-primary" disabled={state.sending}>
        {state.sending ? text.signingIn : text.submit}
      </button>
    </form>
  );
}
