/** /admin/settings: the AdminSettings island (the facts marketers own in site.config.yaml, and the settings the site declares in admin.settings), for admins. */
import type { PageProps } from 'typed-site/template';
import AdminSettings, { adminSettingsText, type AdminSettingsProps } from '../islands/AdminSettings';
import { historyText } from '../islands/History';
import { groupIn } from '../islands/setting-paths';
import { AdminPage } from '../layout/AdminPage';
import { Island } from 'typed-site/template';
import { adminPageCopy, text, z } from '../layout/copy';

export const content = z.strictObject({
  ...adminPageCopy,
  settings: z.strictObject(
    Object.fromEntries(adminSettingsText.map((key) => [key, text])) as Record<
      (typeof adminSettingsText)[number],
      typeof text
    >,
  ),
  /** The history panel's copy (islands/History.tsx). */
  history: z.strictObject(
    Object.fromEntries(historyText.map((key) => [key, text])) as Record<(typeof historyText)[number], typeof text>,
  ),
  fields: z.record(z.string(), text),
  hints: z.record(z.string(), text),
  /** What to do about a problem at a field, by path (`*` for any one segment): see islands/plain-errors.ts. */
  problems: z.record(z.string(), text).default({}),
});
type Content = z.infer<typeof content>;

/** The admin's screens render in the engine's admin layout, with the admin's stylesheet and no breadcrumb trail. */
export { default as Layout, adminMeta as meta, adminBreadcrumbs as breadcrumbs } from '../layout/AdminLayout';

export default function AdminSettingsPage({ page, content, site }: PageProps<Content>) {
  const props: AdminSettingsProps = {
    signIn: site.href('/auth'),
    languages: Object.fromEntries(site.config.localeIds.map((id) => [id, site.config.locales[id]!.label])),
    settings: site.config.admin.settings.map((group) => groupIn(group, page.locale)),
    text: content.settings,
    history: content.history,
    fields: content.fields,
    hints: content.hints,
    problems: content.problems,
  };
  return (
    <AdminPage page={page} site={site} content={content}>
      <Island name="AdminSettings" component={AdminSettings} props={props} />
    </AdminPage>
  );
}
