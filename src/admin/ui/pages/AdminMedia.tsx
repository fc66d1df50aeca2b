/** /admin/media: the AdminMedia island (the media library: every entry image once, its uses, alt text and focal point), for editors. */
import type { PageProps } from 'typed-site/template';
import AdminMedia, { adminMediaText, type AdminMediaProps } from '../islands/AdminMedia';
import { reviewText } from '../islands/ReviewQueue';
import { AdminPage } from '../layout/AdminPage';
import { Island } from 'typed-site/template';
import { adminPageCopy, text, z } from '../layout/copy';

export const content = z.strictObject({
  ...adminPageCopy,
  media: z.strictObject(
    Object.fromEntries(adminMediaText.map((key) => [key, text])) as Record<
      (typeof adminMediaText)[number],
      typeof text
    >,
  ),
  /** The changes waiting for review above the images (islands/ReviewQueue.tsx, `admin.review`). */
  review: z.strictObject(
    Object.fromEntries(reviewText.map((key) => [key, text])) as Record<(typeof reviewText)[number], typeof text>,
  ),
});
type Content = z.infer<typeof content>;

/** The admin's screens render in the engine's admin layout, with the admin's stylesheet and no breadcrumb trail. */
export { default as Layout, adminMeta as meta, adminBreadcrumbs as breadcrumbs } from '../layout/AdminLayout';

export default function AdminMediaPage({ page, content, site }: PageProps<Content>) {
  const props: AdminMediaProps = {
    signIn: site.href('/auth'),
    locales: site.config.localeIds.map((id) => ({
      id,
      label: site.config.locales[id]!.label,
      lang: site.config.locales[id]!.htmlLang,
    })),
    editor: site.href('/admin/blog'),
    text: content.media,
    review: content.review,
  };
  return (
    <AdminPage page={page} site={site} content={content}>
      <Island name="AdminMedia" component={AdminMedia} props={props} />
    </AdminPage>
  );
}
