/** /auth, the administrators' sign-in page: the AdminSignIn island (a plain form without script). */
import type { PageProps } from 'typed-site/template';
import AdminSignIn from '../islands/AdminSignIn';
import { Island } from 'typed-site/template';
import { adminLayoutCopy, text, z } from '../layout/copy';

export const content = z.strictObject({
  ...adminLayoutCopy,
  heading: text,
  lead: text,
  emailLabel: text,
  passwordLabel: text,
  submit: text,
  notice: text,
  signingIn: text,
  unavailable: text,
  devNeedsLink: text,
  tokenFailed: text,
  wrong: text,
  limited: text,
  expired: text,
  busy: text,
  insecure: text,
  signedInAs: text,
  openAdmin: text,
  signOut: text,
  signedOut: text,
});
type Content = z.infer<typeof content>;

/** The admin's screens render in the engine's admin layout, with the admin's stylesheet and no breadcrumb trail. */
export { default as Layout, adminMeta as meta, adminBreadcrumbs as breadcrumbs } from '../layout/AdminLayout';

export default function Auth({ content, site }: PageProps<Content>) {
  const {
    title: _title,
    description: _description,
    skipToContent: _skip,
    backToSite: _back,
    heading,
    lead,
    notice,
    ...text
  } = content;
  return (
    <div className="container narrow auth">
      <h1>{heading}</h1>
      <p className="lead">{lead}</p>
      <Island name="AdminSignIn" component={AdminSignIn} props={{ home: site.href('/admin/blog'), text }} />
      <p className="muted">{notice}</p>
    </div>
  );
}
