/** /admin/changes: the AdminChanges island (the admin's audit log), for admins. */
import type { PageProps } from 'site/template';
import AdminChanges, { adminChangesText, type AdminChangesProps } from '../islands/AdminChanges';
import { AdminNav } from '../layout/AdminNav';
import { Island } from '../layout/Island';
import { meta, text, z } from '../layout/schemas';

export const content = z.strictObject({
  ...meta,
  heading: text,
  lead: text,
  notice: text,
  nav: text,
  changes: z.strictObject(Object.fromEntries(adminChangesText.map((key) => [key, text])) as Record<(typeof adminChangesText)[number], typeof text>),
  actions: z.record(z.string(), text),
});
type Content = z.infer<typeof content>;

export default function AdminChangesPage({ page, content, site }: PageProps<Content>) {
  const props: AdminChangesProps = {
    signIn: site.href('/auth'),
    dateLocale: site.locale,
    languages: Object.fromEntries(site.config.localeIds.map((id) => [id, site.config.locales[id]!.label])),
    text: content.changes,
    actions: content.actions,
  };
  return (
    <div className="container admin">
      <AdminNav page={page} site={site} label={content.nav} />
      <h1>{content.heading}</h1>
      <p className="lead">{content.lead}</p>
      <noscript><p className="banner banner-info">{content.notice}</p></noscript>
      <Island name="AdminChanges" component={AdminChanges} props={props} />
    </div>
  );
}
