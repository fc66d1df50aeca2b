/** /admin/inbox: the AdminInbox island (contact messages and meeting requests), for admins. */
import type { PageProps } from 'site/template';
import { contactTypes } from 'site/contact-schema';
import AdminInbox, { adminInboxText, type AdminInboxProps } from '../islands/AdminInbox';
import { AdminNav } from '../layout/AdminNav';
import { Island } from '../layout/Island';
import { meta, text, z } from '../layout/schemas';

export const content = z.strictObject({
  ...meta,
  heading: text,
  lead: text,
  notice: text,
  nav: text,
  inbox: z.strictObject(Object.fromEntries(adminInboxText.map((key) => [key, text])) as Record<(typeof adminInboxText)[number], typeof text>),
});
type Content = z.infer<typeof content>;

export default function AdminInboxPage({ page, content, site }: PageProps<Content>) {
  const props: AdminInboxProps = {
    signIn: site.href('/auth'),
    dateLocale: site.locale,
    types: Object.fromEntries(contactTypes.map((type) => [type, site.t(`contactForm.types.${type}`)])),
    languages: Object.fromEntries(site.config.localeIds.map((id) => [id, site.config.locales[id]!.label])),
    text: content.inbox,
  };
  return (
    <div className="container admin">
      <AdminNav page={page} site={site} label={content.nav} />
      <h1>{content.heading}</h1>
      <p className="lead">{content.lead}</p>
      <noscript><p className="banner banner-info">{content.notice}</p></noscript>
      <Island name="AdminInbox" component={AdminInbox} props={props} />
    </div>
  );
}
