/** The admin islands' shared pieces: who is signed in with a sign-out button, and loading the session with its role. */
import { useEffect, useState } from 'react';
import { callApi, loadSession, type AdminSession } from './admin-client';

/** The session of an admin page: loading, no admin on this host, or signed in, with or without the role the page needs. */
export type PageSession = 'loading' | 'unavailable' | { session: AdminSession; allowed: boolean };

/** Loads the session once; without one it goes to `signIn`; `onReady` runs when the session has `role`. */
export function usePageSession(
  signIn: string,
  role: 'admin' | 'editor',
  onReady: (session: AdminSession) => void,
): PageSession {
  const [state, setState] = useState<PageSession>('loading');
  useEffect(() => {
    void loadSession().then(
      (found) => {
        if (found.kind === 'unavailable') return setState('unavailable');
        if (found.kind === 'signed-out') return location.assign(signIn);
        const allowed = role === 'editor' || found.session.user.role === 'admin';
        setState({ session: found.session, allowed });
        if (allowed) onReady(found.session);
      },
      () => setState('unavailable'),
    );
  }, []);
  return state;
}

/** "Signed in as …" and a sign-out button. */
export function AdminBar({
  session,
  signIn,
  text,
}: {
  session: AdminSession;
  signIn: string;
  text: { signedInAs: string; signOut: string };
}) {
  async function signOut() {
    await callApi('POST', '/api/auth/logout', { csrf: session.csrfToken });
    location.assign(signIn);
  }
  return (
    <div className="admin-bar">
      <p>{text.signedInAs.replace('{email}', session.user.email)}</p>
      <button type="button" className="button button-secondary" onClick={() => void signOut()}>
        {text.signOut}
      </button>
    </div>
  );
}
