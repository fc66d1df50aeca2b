/** /admin/blog: the BlogEditor island, its form fields read off the blog collection's front-matter schema. */
import { frontMatterFields, type PageProps } from 'typed-site/template';
import BlogEditor, { type BlogEditorProps } from '../islands/BlogEditor';
import { historyText } from '../islands/History';
import { AdminPage } from '../layout/AdminPage';
import { Island } from 'typed-site/template';
import { adminPageCopy, text, z } from '../layout/copy';

const editorText = z.strictObject(Object.fromEntries(
  ['loading', 'unavailable', 'signedInAs', 'signOut', 'newPost', 'search', 'filterStatus', 'filterLocale', 'filterCategory', 'all', 'published', 'draft', 'scheduled', 'missing', 'missingIn', 'shownIn', 'slug', 'slugHint', 'slugTaken', 'slugInvalid', 'edit', 'back', 'save', 'saving', 'saved', 'savedRebuildFailed', 'gitFailed', 'changedElsewhere', 'delete', 'confirmDelete', 'deleted', 'startFrom', 'body', 'readingTime', 'invalid', 'conflict', 'reloadTheirs', 'keepMine', 'unsaved', 'noPosts', 'posts', 'title', 'date', 'status', 'heading', 'bold', 'italic', 'link', 'list', 'quote', 'toolbar', 'notWritten', 'failed', 'preview', 'previewOpened', 'uploadImage', 'imageTypes', 'uploading', 'uploaded', 'uploadFailed', 'uploadSaveFirst', 'appearsOn', 'waitingForReview', 'waitingBy', 'heldForReview'].map((key) => [key, text]),
) as Record<keyof BlogEditorProps['text'], typeof text>);

export const content = z.strictObject({
  ...adminPageCopy,
  fields: z.record(z.string(), text),
  editor: editorText,
  /** The history panel's copy (islands/History.tsx). */
  history: z.strictObject(Object.fromEntries(historyText.map((key) => [key, text])) as Record<(typeof historyText)[number], typeof text>),
  /** What to do about a problem at a field, by front-matter field (islands/plain-errors.ts; `{categories}` names the categories). */
  problems: z.record(z.string(), text).default({}),
});
type Content = z.infer<typeof content>;

/** The admin's screens render in the engine's admin layout, with the admin's stylesheet and no breadcrumb trail. */
export { default as Layout, adminMeta as meta, adminBreadcrumbs as breadcrumbs } from '../layout/AdminLayout';

/** The collection the editor edits. */
const collection = 'blog';

/** A category's name in the messages, or its id where the site names none (as the feeds do). */
function termName(site: PageProps['site'], key: string, id: string): string {
  try {
    return site.t(key);
  } catch {
    return id;
  }
}

export default function AdminBlog({ page, content, site }: PageProps<Content>) {
  // A site without a blog still gets the page (the navigation and the sign-in lead here); the
  // editor then shows the server's answer, that the config declares no such collection.
  const spec = site.config.collections[collection];
  const termField = spec?.taxonomy?.field;
  const labels = spec?.taxonomy?.labels ?? `${collection}.terms`;
  const fields = (spec ? frontMatterFields(spec) : []).map((field) => ({
    ...field,
    label: content.fields[field.name] ?? field.name,
    options: field.options?.map((value) => ({ value, label: field.name === termField ? termName(site, `${labels}.${value}`, value) : value })),
  }));
  const props: BlogEditorProps = {
    signIn: site.href('/auth'),
    locales: site.config.localeIds.map((id) => ({ id, label: site.config.locales[id]!.label })),
    fields,
    termField,
    wordsPerMinute: spec?.wordsPerMinute ?? 200,
    text: content.editor,
    history: content.history,
    problems: content.problems,
  };
  return (
    <AdminPage page={page} site={site} content={content}>
      <Island name="BlogEditor" component={BlogEditor} props={props} />
    </AdminPage>
  );
}
