/** /admin/pages: the AdminPages island (every page's copy, by language), for editors. */
import type { PageProps } from 'typed-site/template';
import AdminPages, { adminPagesText, type AdminPagesProps } from '../islands/AdminPages';
import { historyText } from '../islands/History';
import { reviewText } from '../islands/ReviewQueue';
import { AdminPage } from '../layout/AdminPage';
import { Island } from 'typed-site/template';
import { adminPageCopy, text, z } from '../layout/copy';

export const content = z.strictObject({
  ...adminPageCopy,
  pages: z.strictObject(
    Object.fromEntries(adminPagesText.map((key) => [key, text])) as Record<
      (typeof adminPagesText)[number],
      typeof text
    >,
  ),
  /** The history panel's copy (islands/History.tsx). */
  history: z.strictObject(
    Object.fromEntries(historyText.map((key) => [key, text])) as Record<(typeof historyText)[number], typeof text>,
  ),
  /** The changes waiting for review above the pages (islands/ReviewQueue.tsx, `admin.review`). */
  review: z.strictObject(
    Object.fromEntries(reviewText.map((key) => [key, text])) as Record<(typeof reviewText)[number], typeof text>,
  ),
  /** What to do about a problem at a text, by dotted key (`*` for any one segment): see islands/plain-errors.ts. */
  problems: z.record(z.string(), text).default({}),
});
type Content = z.infer<typeof content>;

/** The admin's screens render in the engine's admin layout, with the admin's stylesheet and no breadcrumb trail. */
export { default as Layout, adminMeta as meta, adminBreadcrumbs as breadcrumbs } from '../layout/AdminLayout';

export default function AdminPagesPage({ page, content, site }: PageProps<Content>) {
  const props: AdminPagesProps = {
    signIn: site.href('/auth'),
    dateLocale: site.config.locales[site.locale]!.intl,
    languages: Object.fromEntries(site.config.localeIds.map((id) => [id, site.config.locales[id]!.label])),
    text: content.pages,
    history: content.history,
    review: content.review,
    problems: content.problems,
  };
  return (
    <AdminPage page={page} site={site} content={content}>
      <Island name="AdminPages" component={AdminPages} props={props} />
    </AdminPage>
  );
}
