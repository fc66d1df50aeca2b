/** /admin/inbox: the AdminInbox island (contact messages and meeting requests), for admins. */
import type { PageProps } from 'typed-site/template';
import AdminInbox, { adminInboxText, type AdminInboxProps } from '../islands/AdminInbox';
import { AdminPage } from '../layout/AdminPage';
import { Island } from 'typed-site/template';
import { adminPageCopy, text, z } from '../layout/copy';

export const content = z.strictObject({
  ...adminPageCopy,
  inbox: z.strictObject(
    Object.fromEntries(adminInboxText.map((key) => [key, text])) as Record<
      (typeof adminInboxText)[number],
      typeof text
    >,
  ),
});
type Content = z.infer<typeof content>;

/** The admin's screens render in the engine's admin layout, with the admin's stylesheet and no breadcrumb trail. */
export { default as Layout, adminMeta as meta, adminBreadcrumbs as breadcrumbs } from '../layout/AdminLayout';

export default function AdminInboxPage({ page, content, site }: PageProps<Content>) {
  const props: AdminInboxProps = {
    signIn: site.href('/auth'),
    dateLocale: site.config.locales[site.locale]!.intl,
    // The enquiry types of the site's contact form (contact.types), named as the form names them.
    types: Object.fromEntries(site.config.contact.types.map((type) => [type, site.t(`contactForm.types.${type}`)])),
    languages: Object.fromEntries(site.config.localeIds.map((id) => [id, site.config.locales[id]!.label])),
    // The page a message or booking came from: its link, its audience (after the language's prefix).
    // A stored page path starts with the site's base, as the form's props had it (render/base-path.ts
    // puts it before every root-relative string of island props); the home's URL gets it the same way.
    // The prefixes and audience folders go without their leading slash, so they stay as written.
    home: site.href('/'),
    prefixes: site.config.localeIds.map((id) => site.config.locales[id]!.prefix.slice(1)).filter(Boolean),
    audiences: Object.values(site.config.audiences).map((audience) => ({
      folder: audience.path.slice(1),
      label: audience.label[site.locale] ?? Object.values(audience.label)[0] ?? audience.path,
    })),
    // Meetings are booked in the booking's zone: their times are shown there, and say so.
    timeZone: site.config.booking?.timeZone ?? site.config.site.timeZone,
    text: content.inbox,
  };
  return (
    <AdminPage page={page} site={site} content={content}>
      <Island name="AdminInbox" component={AdminInbox} props={props} />
    </AdminPage>
  );
}
