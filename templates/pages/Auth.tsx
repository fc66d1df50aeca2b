/** The administrators' sign-in page (a shell: signing in arrives with the admin). */
import type { PageProps } from 'site/template';
import { meta, text, z } from '../layout/schemas';

export const content = z.strictObject({ ...meta, heading: text, lead: text, emailLabel: text, passwordLabel: text, submit: text, notice: text });
type Content = z.infer<typeof content>;

export default function Auth({ content }: PageProps<Content>) {
  return (
    <div className="container narrow auth">
      <h1>{content.heading}</h1>
      <p className="lead">{content.lead}</p>
      <form className="card auth-form" method="post" action="/api/auth">
        <div className="field">
          <label htmlFor="auth-email">{content.emailLabel}</label>
          <input id="auth-email" name="email" type="email" autoComplete="username" required />
        </div>
        <div className="field">
          <label htmlFor="auth-password">{content.passwordLabel}</label>
          <input id="auth-password" name="password" type="password" autoComplete="current-password" required />
        </div>
        <button type="submit" className="button button-primary">{content.submit}</button>
      </form>
      <p className="muted">{content.notice}</p>
    </div>
  );
}
