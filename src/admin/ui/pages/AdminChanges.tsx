/** /admin/changes: the AdminChanges island (the admin's audit log), for admins. */
import type { PageProps } from 'typed-site/template';
import AdminChanges, { adminChangesText, type AdminChangesProps } from '../islands/AdminChanges';
import { reviewQueueText } from '../islands/ReviewQueue';
import { AdminPage } from '../layout/AdminPage';
import { Island } from 'typed-site/template';
import { adminPageCopy, text, z } from '../layout/copy';

export const content = z.strictObject({
  ...adminPageCopy,
  changes: z.strictObject(
    Object.fromEntries(adminChangesText.map((key) => [key, text])) as Record<
      (typeof adminChangesText)[number],
      typeof text
    >,
  ),
  actions: z.record(z.string(), text),
  /** The one review queue's copy (islands/ReviewQueue.tsx). */
  review: z.strictObject(
    Object.fromEntries(reviewQueueText.map((key) => [key, text])) as Record<
      (typeof reviewQueueText)[number],
      typeof text
    >,
  ),
  /** The parts of the settings page, by the first part of a setting's path. */
  sections: z.record(z.string(), text).default({}),
});
type Content = z.infer<typeof content>;

/** The admin's screens render in the engine's admin layout, with the admin's stylesheet and no breadcrumb trail. */
export { default as Layout, adminMeta as meta, adminBreadcrumbs as breadcrumbs } from '../layout/AdminLayout';

export default function AdminChangesPage({ page, content, site }: PageProps<Content>) {
  const props: AdminChangesProps = {
    signIn: site.href('/auth'),
    dateLocale: site.config.locales[site.locale]!.intl,
    languages: Object.fromEntries(site.config.localeIds.map((id) => [id, site.config.locales[id]!.label])),
    text: content.changes,
    actions: content.actions,
    sections: content.sections,
    review: content.review,
    links: {
      blog: site.href('/admin/blog'),
      settings: site.href('/admin/settings'),
      inbox: site.href('/admin/inbox'),
      pages: site.href('/admin/pages'),
      media: site.href('/admin/media'),
    },
  };
  return (
    <AdminPage page={page} site={site} content={content}>
      <Island name="AdminChanges" component={AdminChanges} props={props} />
    </AdminPage>
  );
}
