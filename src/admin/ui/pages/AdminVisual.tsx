/** /admin/visual: the AdminVisual island (a page of the site, its texts edited on the page), for editors. */
import type { PageProps } from 'typed-site/template';
import AdminVisual, { adminVisualText, type AdminVisualProps } from '../islands/AdminVisual';
import { AdminPage } from '../layout/AdminPage';
import { Island } from 'typed-site/template';
import { adminPageCopy, text, z } from '../layout/copy';

export const content = z.strictObject({
  ...adminPageCopy,
  visual: z.strictObject(
    Object.fromEntries(adminVisualText.map((key) => [key, text])) as Record<
      (typeof adminVisualText)[number],
      typeof text
    >,
  ),
});
type Content = z.infer<typeof content>;

/** The admin's screens render in the engine's admin layout, with the admin's stylesheet and no breadcrumb trail. */
export { default as Layout, adminMeta as meta, adminBreadcrumbs as breadcrumbs } from '../layout/AdminLayout';

export default function AdminVisualPage({ page, content, site }: PageProps<Content>) {
  const props: AdminVisualProps = { signIn: site.href('/auth'), text: content.visual };
  return (
    <AdminPage page={page} site={site} content={content}>
      <Island name="AdminVisual" component={AdminVisual} props={props} />
    </AdminPage>
  );
}
