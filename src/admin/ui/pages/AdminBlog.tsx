/**
 * /admin/blog: the BlogEditor island, the content editor of every collection; its forms are built
 * in the browser from the collections' schemas (`GET /api/admin/collections`), labelled with this
 * copy's `fields:`.
 */
import type { PageProps } from 'typed-site/template';
import BlogEditor, { type BlogEditorProps } from '../islands/BlogEditor';
import { historyText } from '../islands/History';
import { mediaPickerText } from '../islands/MediaPicker';
import { componentPickerText } from '../islands/ComponentPicker';
import { reviewText } from '../islands/ReviewQueue';
import { AdminPage } from '../layout/AdminPage';
import { Island } from 'typed-site/template';
import { adminPageCopy, text, z } from '../layout/copy';

const editorText = z.strictObject(
  Object.fromEntries(
    [
      'loading',
      'unavailable',
      'signedInAs',
      'signOut',
      'newPost',
      'search',
      'filterStatus',
      'filterLocale',
      'filterCategory',
      'all',
      'published',
      'draft',
      'scheduled',
      'missing',
      'missingIn',
      'shownIn',
      'slug',
      'slugHint',
      'slugTaken',
      'slugInvalid',
      'edit',
      'back',
      'save',
      'saving',
      'saved',
      'savedRebuildFailed',
      'gitFailed',
      'changedElsewhere',
      'delete',
      'confirmDelete',
      'deleted',
      'startFrom',
      'body',
      'readingTime',
      'invalid',
      'conflict',
      'reloadTheirs',
      'keepMine',
      'unsaved',
      'noPosts',
      'posts',
      'title',
      'date',
      'status',
      'heading',
      'bold',
      'italic',
      'link',
      'list',
      'quote',
      'toolbar',
      'notWritten',
      'failed',
      'preview',
      'previewOpened',
      'previewBanner',
      'uploadImage',
      'imageTypes',
      'uploading',
      'uploaded',
      'uploadFailed',
      'uploadSaveFirst',
      'appearsOn',
      'collection',
      'noCollections',
      'noneDeclared',
      'localSlug',
      'localSlugHint',
      'outdated',
      'outdatedSince',
      'upToDate',
      'waitingForReview',
      'waitingBy',
      'heldForReview',
      'addItem',
      'removeItem',
      'shown',
      'pagination',
      'previousPage',
      'nextPage',
    ].map((key) => [key, text]),
  ) as Record<keyof BlogEditorProps['text'], typeof text>,
);

export const content = z.strictObject({
  ...adminPageCopy,
  /** The form's labels by front-matter field, or `<collection>.<field>` for one collection's (else the field's name in words). */
  fields: z.record(z.string(), text),
  editor: editorText,
  /** The history panel's copy (islands/History.tsx). */
  history: z.strictObject(
    Object.fromEntries(historyText.map((key) => [key, text])) as Record<(typeof historyText)[number], typeof text>,
  ),
  /** The changes waiting for review above the list (islands/ReviewQueue.tsx, `admin.review`). */
  review: z.strictObject(
    Object.fromEntries(reviewText.map((key) => [key, text])) as Record<(typeof reviewText)[number], typeof text>,
  ),
  /** "Choose from the library" beside the image's upload (islands/MediaPicker.tsx). */
  picker: z.strictObject(
    Object.fromEntries(mediaPickerText.map((key) => [key, text])) as Record<
      (typeof mediaPickerText)[number],
      typeof text
    >,
  ),
  /** "Component…" in the Markdown toolbar (islands/ComponentPicker.tsx); a site's copy without it offers no components there. */
  components: z
    .strictObject(
      Object.fromEntries(componentPickerText.map((key) => [key, text])) as Record<
        (typeof componentPickerText)[number],
        typeof text
      >,
    )
    .optional(),
  /** What to do about a problem at a field, by front-matter field (islands/plain-errors.ts; `{categories}` names the categories). */
  problems: z.record(z.string(), text).default({}),
  /** What to do about a problem at a field `problems` does not name, by the field's type (`{label}`; `{choices}`: a list's names). */
  typeProblems: z
    .strictObject({
      string: text.optional(),
      number: text.optional(),
      boolean: text.optional(),
      date: text.optional(),
      choice: text.optional(),
    })
    .default({}),
});
type Content = z.infer<typeof content>;

/** The admin's screens render in the engine's admin layout, with the admin's stylesheet and no breadcrumb trail. */
export { default as Layout, adminMeta as meta, adminBreadcrumbs as breadcrumbs } from '../layout/AdminLayout';

export default function AdminBlog({ page, content, site }: PageProps<Content>) {
  const props: BlogEditorProps = {
    signIn: site.href('/auth'),
    locales: site.config.localeIds.map((id) => ({ id, label: site.config.locales[id]!.label })),
    locale: page.locale,
    labels: content.fields,
    text: content.editor,
    history: content.history,
    problems: content.problems,
    typeProblems: content.typeProblems,
    picker: content.picker,
    ...(content.components ? { components: content.components } : {}),
    review: content.review,
  };
  return (
    <AdminPage page={page} site={site} content={content}>
      <Island name="BlogEditor" component={BlogEditor} props={props} />
    </AdminPage>
  );
}
