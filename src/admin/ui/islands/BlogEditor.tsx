/**
 * The content editor of /admin/blog: a switcher between the site's collections (shown when it
 * has more than one; the choice is the URL's `?collection=`, so reload and back keep it), the list
 * of the chosen collection's entries with each language's status, filters and search; and the
 * editor of one entry, a tab per language, with the front matter as form fields (built from the
 * collection's schema as `GET /api/admin/collections` gives it), the translation's own address
 * (`slug:`) and the URL it makes, a Markdown textarea with a small toolbar, live reading time,
 * Ctrl/Cmd+S, a warning before leaving unsaved changes, and the server's field errors.
 * Without a session it goes to /auth; on a static host it says the admin is not running.
 */
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { callApi, loadSession, type AdminSession } from './admin-client';
import MediaPicker, { type MediaPickerText } from './MediaPicker';
import type { ComponentPickerText } from './ComponentPicker';
import StructuredField, { prunedValue, type DeclaredField } from './StructuredField';
import ReviewQueue, { type ReviewQueueProps } from './ReviewQueue';
import { plainProblem } from './plain-errors';
import { adminIntl, when } from './admin-dates';
import History, { ChangeList, type ChangeInWords, type HistoryProps } from './History';

/** "Component…" and its dialog load when the toolbar is drawn, apart from the editor (the admin's page stays within its JavaScript budget). */
const ComponentPicker = lazy(() => import('./ComponentPicker'));

/** A front-matter field of the form (from the collection's schema) and its label. */
export interface EditorField {
  name: string;
  label: string;
  type: 'string' | 'number' | 'boolean' | 'date' | 'choice' | 'markdown' | 'reference' | 'list' | 'object' | 'image';
  required: boolean;
  options?: { value: string; label: string }[];
  /** A list, object or image field's declaration: its parts. */
  field?: DeclaredField;
}

/** The fields whose value is a list or an object, edited part by part (StructuredField.tsx). */
const structuredTypes: readonly EditorField['type'][] = ['list', 'object', 'image'];

/** A collection as `GET /api/admin/collections` describes it (collections-api.ts). */
interface CollectionInfo {
  id: string;
  label: string;
  termField: string | null;
  wordsPerMinute: number;
  routes: { kind: 'entry' | 'list'; audience: string | null; urls: Record<string, string> }[];
  fields: {
    name: string;
    label: string;
    type: EditorField['type'];
    required: boolean;
    options?: { value: string; names: Record<string, string> }[];
    field?: DeclaredField;
  }[];
}

/** Everything the editor shows, from the config and content/pages/admin/blog/en.yaml. */
export interface BlogEditorProps {
  signIn: string;
  locales: { id: string; label: string }[];
  /** The language of the admin's screens: the terms' names are shown in it. */
  locale: string;
  /** The fields' labels by front-matter name, or `<collection>.<name>` for one collection's; a field without one has its name in words. */
  labels: Record<string, string>;
  /** What to do about a problem at a field (plain-errors.ts). */
  problems: Record<string, string>;
  history: HistoryProps['text'];
  /** What to do about a problem at a field the problems do not name, by its type (`{label}`, `{choices}`: its options' names). */
  typeProblems: Partial<Record<EditorField['type'], string>>;
  /** The copy of "Choose from the library" (MediaPicker.tsx). */
  picker: MediaPickerText;
  /** The copy of "Component…" in the Markdown toolbar (ComponentPicker.tsx); without it the toolbar offers no components. */
  components?: ComponentPickerText;
  /** The copy of the changes waiting for review (ReviewQueue.tsx). */
  review: ReviewQueueProps['text'];
  text: Record<
    | 'loading'
    | 'unavailable'
    | 'signedInAs'
    | 'signOut'
    | 'newPost'
    | 'search'
    | 'filterStatus'
    | 'filterLocale'
    | 'filterCategory'
    | 'all'
    | 'published'
    | 'draft'
    | 'scheduled'
    | 'missing'
    | 'missingIn'
    | 'shownIn'
    | 'slug'
    | 'slugHint'
    | 'slugTaken'
    | 'slugInvalid'
    | 'edit'
    | 'back'
    | 'save'
    | 'saving'
    | 'saved'
    | 'savedRebuildFailed'
    | 'gitFailed'
    | 'changedElsewhere'
    | 'delete'
    | 'confirmDelete'
    | 'deleted'
    | 'startFrom'
    | 'body'
    | 'readingTime'
    | 'invalid'
    | 'conflict'
    | 'reloadTheirs'
    | 'keepMine'
    | 'unsaved'
    | 'noPosts'
    | 'posts'
    | 'title'
    | 'date'
    | 'status'
    | 'heading'
    | 'bold'
    | 'italic'
    | 'link'
    | 'list'
    | 'quote'
    | 'toolbar'
    | 'notWritten'
    | 'failed'
    | 'preview'
    | 'previewOpened'
    | 'previewBanner'
    | 'uploadImage'
    | 'imageTypes'
    | 'uploading'
    | 'uploaded'
    | 'uploadFailed'
    | 'uploadSaveFirst'
    | 'appearsOn'
    | 'collection'
    | 'noCollections'
    | 'noneDeclared'
    | 'localSlug'
    | 'localSlugHint'
    | 'outdated'
    | 'outdatedSince'
    | 'upToDate'
    | 'waitingForReview'
    | 'waitingBy'
    | 'heldForReview'
    | 'addItem'
    | 'removeItem'
    | 'shown'
    | 'pagination'
    | 'previousPage'
    | 'nextPage',
    string
  >;
}

/** Text, a switch's state, or a list or object field's value. */
type Values = Record<string, unknown>;
interface Draft {
  values: Values;
  body: string;
  /** The version on the server; undefined for a language not written yet. */
  version?: string;
  dirty: boolean;
  errors: Record<string, string>;
  problems: string[];
  conflict?: { values: Values; body: string; version: string };
  /** When the saved text goes live by itself (a scheduled post). */
  scheduled?: Scheduled;
  /** A translation saved in the admin: whether the default language's text changed since (posts-api.ts, translations.ts). */
  translation?: TranslationStatus;
  /** Saves of this published text waiting for an admin's review (`admin.review`). */
  pending?: Pending[];
}
/** A translation's status as the API gives it, with the language it was translated from. */
interface TranslationStatus {
  outdated: boolean;
  since: string;
  diff?: string;
  changes?: ChangeInWords[];
  sourceLocale: string;
}
/** A save held for review, as the API names it. */
interface Pending {
  id: string;
  by: string;
  at: string;
}
/** When a scheduled post appears, as the API says: an ISO 8601 instant and the site's time zone. */
interface Scheduled {
  at: string;
  timeZone: string;
}
interface Translation {
  title?: string;
  date?: string;
  category?: string;
  status: string;
  version?: string;
  shownIn?: string | null;
  scheduled?: Scheduled;
  outdated?: boolean;
  pending?: boolean;
}
interface Post {
  slug: string;
  translations: Record<string, Translation>;
}

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The entries one page of the list shows (the server filters and pages them, post-list.ts). */
const pageSize = 50;
const noFilters = { status: '', locale: '', category: '', search: '' };
/** What the upload takes (the server checks the bytes again). */
const imageTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/avif'];
const maxImageBytes = 5 * 1024 * 1024;

function toValues(frontMatter: Record<string, unknown>, fields: readonly EditorField[]): Values {
  const values: Values = {};
  for (const field of fields) {
    const value = frontMatter[field.name];
    values[field.name] = structuredTypes.includes(field.type)
      ? structuredClone(value ?? (field.type === 'list' ? [] : {}))
      : field.type === 'boolean'
        ? value === true
        : value === undefined || value === null
          ? ''
          : String(value);
  }
  return values;
}

function toFrontMatter(values: Values, fields: readonly EditorField[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.field && structuredTypes.includes(field.type)) data[field.name] = prunedValue(field.field, value) ?? null;
    else if (field.type === 'boolean') data[field.name] = value === true ? true : field.name === 'draft' ? null : false;
    else if (value === '' || value === undefined) data[field.name] = null;
    else data[field.name] = field.type === 'number' && !Number.isNaN(Number(value)) ? Number(value) : (value as string);
  }
  return data;
}

/** "Appears on 1 June 2030 at 00:00 (Europe/Oslo)": the instant as the site's clocks show it, in the admin's conventions. */
function appearsOn(template: string, scheduled: Scheduled): string {
  const date = new Intl.DateTimeFormat(adminIntl(), {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: scheduled.timeZone,
  }).format(new Date(scheduled.at));
  return template.replace('{date}', date).replace('{timeZone}', scheduled.timeZone);
}

const emptyDraft = (fields: readonly EditorField[]): Draft => ({
  values: toValues({}, fields),
  body: '',
  dirty: false,
  errors: {},
  problems: [],
});

/** The collection a URL asks for (`?collection=`), else the blog, else the first. */
function chosenCollection(collections: readonly CollectionInfo[]): string | undefined {
  const asked = new URLSearchParams(location.search).get('collection');
  return (collections.find(({ id }) => id === asked) ?? collections.find(({ id }) => id === 'blog') ?? collections[0])
    ?.id;
}

/** The form's fields of a collection: its schema's, labelled from the copy, then the translation's own address. */
function editorFields(collection: CollectionInfo | undefined, props: BlogEditorProps): EditorField[] {
  if (!collection) return [];
  const fields: EditorField[] = collection.fields.map((field) => ({
    name: field.name,
    label: props.labels[`${collection.id}.${field.name}`] ?? props.labels[field.name] ?? field.label,
    type: field.type,
    required: field.required,
    ...(field.options
      ? { options: field.options.map(({ value, names }) => ({ value, label: names[props.locale] ?? value })) }
      : {}),
    ...(field.field ? { field: field.field } : {}),
  }));
  return [...fields, { name: 'slug', label: props.text.localSlug, type: 'string', required: false }];
}

export default function BlogEditor(props: BlogEditorProps) {
  const { text, locales } = props;
  /** The site's collections; undefined until the API has answered. */
  const [collections, setCollections] = useState<CollectionInfo[] | 'failed' | undefined>();
  const [collectionId, setCollectionId] = useState('');
  /** The collection the requests address (a ref: the event stream's handler outlives renders). */
  const collectionRef = useRef('');
  const choices = typeof collections === 'object' ? collections : [];
  const collection = choices.find(({ id }) => id === collectionId);
  const fields = editorFields(collection, props);
  const termField = collection?.termField ?? undefined;
  const base = (id = collectionRef.current) => `/api/admin/collections/${encodeURIComponent(id)}`;
  /** What the plain problems may name: the categories, by their names. */
  const problemFill = {
    categories: (fields.find((field) => field.name === termField)?.options ?? [])
      .map((option) => option.label)
      .join(', '),
  };
  const [session, setSession] = useState<AdminSession | 'loading' | 'unavailable'>('loading');
  /** The page of the list the server answered, the offset it was asked for, and how many entries match the filters in all. */
  const [list, setList] = useState<{ entries: Post[]; from: number; total: number }>({
    entries: [],
    from: 0,
    total: 0,
  });
  const [filters, setFilters] = useState(noFilters);
  /** The search sent: the field's text once typing pauses. */
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<{ slug: string; isNew: boolean } | undefined>();
  const [slug, setSlug] = useState('');
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [tab, setTab] = useState(locales[0]!.id);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  const csrf = typeof session === 'object' ? session.csrfToken : undefined;
  const dirty = Object.values(drafts).some((draft) => draft.dirty);

  /** The page the list asks for, with the screen's filters (a ref: the event stream's handler refreshes the page shown now). */
  const query = useRef('');
  query.current = new URLSearchParams({
    limit: String(pageSize),
    offset: String(offset),
    status: filters.status,
    locale: filters.locale,
    category: filters.category,
    q: search,
  }).toString();
  /** The page's first entry (a ref, as the query). */
  const shownFrom = useRef(0);
  shownFrom.current = offset;
  /** The last list asked: an earlier answer arriving after it is not shown. */
  const asked = useRef(0);
  const refresh = async (id = collectionRef.current) => {
    const ticket = ++asked.current;
    const from = shownFrom.current;
    const answer = await callApi<{ entries: Post[]; total: number }>('GET', `${base(id)}?${query.current}`);
    if (answer.status === 401) return location.assign(props.signIn);
    if (answer.status !== 200 || id !== collectionRef.current || ticket !== asked.current) return;
    const { entries, total } = answer.body;
    // A page past the end (its last entries deleted meanwhile): the last page instead.
    if (!entries.length && total > 0 && shownFrom.current > 0) setOffset(Math.floor((total - 1) / pageSize) * pageSize);
    setList({ entries, from, total });
  };
  useEffect(() => {
    if (collectionId) void refresh(collectionId);
  }, [collectionId, query.current]);
  // The search goes to the server once typing pauses, from the first page.
  useEffect(() => {
    const typed = filters.search.trim();
    if (typed === search) return;
    const pause = setTimeout(() => {
      setSearch(typed);
      setOffset(0);
    }, 300);
    return () => clearTimeout(pause);
  }, [filters.search]);
  /** Another filter: the list from its first page. */
  const filter = (change: Partial<typeof noFilters>) => {
    setFilters({ ...filters, ...change });
    setOffset(0);
  };

  /** Shows the list of another collection's entries (`remember`: as a new step of the browser's history). */
  function switchTo(id: string, remember: boolean) {
    if (id === collectionRef.current) return;
    if (dirty && !confirm(text.unsaved)) return;
    collectionRef.current = id;
    setCollectionId(id);
    setEditing(undefined);
    setDrafts({});
    setList({ entries: [], from: 0, total: 0 });
    setFilters(noFilters);
    setSearch('');
    setOffset(0);
    setNotice('');
    if (remember) history.pushState(null, '', `${location.pathname}?${new URLSearchParams({ collection: id })}`);
  }

  // A link to an entry (`?collection=<id>&post=<slug>&locale=<id>`, as the changes page gives) opens it in that language, once its collection's fields are known.
  const [linked, setLinked] = useState<{ slug: string; locale?: string } | undefined>();
  useEffect(() => {
    void loadSession().then(
      async (found) => {
        if (found.kind === 'unavailable') return setSession('unavailable');
        if (found.kind === 'signed-out') return location.assign(props.signIn);
        setSession(found.session);
        const listed = await callApi<CollectionInfo[]>('GET', '/api/admin/collections');
        if (listed.status === 401) return location.assign(props.signIn);
        if (listed.status !== 200) return setCollections('failed');
        setCollections(listed.body);
        const id = chosenCollection(listed.body);
        if (!id) return;
        collectionRef.current = id;
        setCollectionId(id);
        const linked = new URLSearchParams(location.search);
        const post = linked.get('post');
        if (post && slugPattern.test(post)) setLinked({ slug: post, locale: linked.get('locale') ?? undefined });
      },
      () => setSession('unavailable'),
    );
  }, []);
  useEffect(() => {
    if (!linked || !collection) return;
    setLinked(undefined);
    void open(linked.slug, linked.locale);
  }, [linked, collection]);
  // Back and forward between collections.
  useEffect(() => {
    if (typeof collections !== 'object' || !collections.length) return;
    const back = () => switchTo(chosenCollection(collections) ?? collectionRef.current, false);
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
  }, [collections, dirty]);

  // Saves and deletions by others (the admin's event stream): the list is refreshed, and a change
  // to the post open here is announced; saving over it then meets the usual version check (409).
  const openRef = useRef<{ slug?: string; email?: string }>({});
  openRef.current = {
    slug: editing?.isNew ? undefined : editing?.slug,
    email: typeof session === 'object' ? session.user.email : undefined,
  };
  useEffect(() => {
    if (typeof session !== 'object') return;
    const events = new EventSource('/api/admin/events');
    const changed = (event: MessageEvent<string>) => {
      const change = JSON.parse(event.data) as { collection?: string; slug: string; locale: string; user: string };
      if (change.user === openRef.current.email || (change.collection && change.collection !== collectionRef.current))
        return;
      void refresh();
      if (change.slug === openRef.current.slug) {
        const language = locales.find(({ id }) => id === change.locale)?.label ?? change.locale;
        setNotice(text.changedElsewhere.replace('{user}', change.user).replace('{language}', language));
      }
    };
    events.addEventListener('saved', changed);
    events.addEventListener('deleted', changed);
    return () => events.close();
  }, [session]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!dirty) return;
      event.preventDefault();
      event.returnValue = text.unsaved;
    };
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);

  const update = (locale: string, change: Partial<Draft>) =>
    setDrafts((all) => ({ ...all, [locale]: { ...(all[locale] ?? emptyDraft(fields)), ...change } }));

  async function open(postSlug: string, locale?: string) {
    if (dirty && !confirm(text.unsaved)) return;
    const loaded: Record<string, Draft> = {};
    for (const { id } of locales) {
      const answer = await callApi('GET', `${base()}/${postSlug}/${id}`);
      loaded[id] =
        answer.status === 200
          ? {
              ...emptyDraft(fields),
              values: toValues(answer.body.frontMatter, fields),
              body: answer.body.body,
              version: answer.body.version,
              scheduled: answer.body.scheduled,
              translation: answer.body.translation,
              pending: answer.body.pending,
            }
          : emptyDraft(fields);
    }
    setDrafts(loaded);
    setEditing({ slug: postSlug, isNew: false });
    setSlug(postSlug);
    setTab(
      locales.find(({ id }) => id === locale && loaded[id]!.version)?.id ??
        locales.find(({ id }) => loaded[id]!.version)?.id ??
        locales[0]!.id,
    );
    setNotice('');
  }

  /** Reads each written language's translation status again: a save makes its own up to date, and the default language's may make the others outdated. */
  async function refreshTranslations(postSlug: string) {
    for (const { id } of locales) {
      const answer = await callApi('GET', `${base()}/${postSlug}/${id}`);
      if (answer.status === 200) update(id, { translation: answer.body.translation });
    }
  }

  function create() {
    if (dirty && !confirm(text.unsaved)) return;
    setDrafts(Object.fromEntries(locales.map(({ id }) => [id, emptyDraft(fields)])));
    setEditing({ slug: '', isNew: true });
    setSlug('');
    setTab(locales[0]!.id);
    setNotice('');
  }

  async function save(locale: string) {
    const draft = drafts[locale] ?? emptyDraft(fields);
    if (!slugPattern.test(slug)) return update(locale, { problems: [text.slugInvalid] });
    // A new post's address must be free in every language (the list shows one page: the server is asked).
    if (editing?.isNew && !draft.version)
      for (const { id } of locales)
        if ((await callApi('GET', `${base()}/${slug}/${id}`)).status === 200)
          return update(locale, { problems: [text.slugTaken] });
    setBusy(true);
    setNotice(text.saving);
    const body = { frontMatter: toFrontMatter(draft.values, fields), body: draft.body };
    const answer = draft.version
      ? await callApi('PUT', `${base()}/${slug}/${locale}`, { body, csrf, ifMatch: draft.version })
      : await callApi('POST', base(), { body: { slug, locale, ...body }, csrf });
    setBusy(false);
    if (answer.status === 200 || answer.status === 201) {
      update(locale, {
        version: answer.body.version,
        scheduled: answer.body.scheduled,
        dirty: false,
        errors: {},
        problems: [],
        conflict: undefined,
      });
      setEditing({ slug, isNew: false });
      const failed = answer.body.rebuilt && !answer.body.ok;
      const gitError: string | undefined = answer.body.git?.error;
      setNotice(
        failed
          ? `${text.savedRebuildFailed} ${answer.body.errors.map((error: { message: string }) => error.message).join('; ')}`
          : gitError
            ? `${text.gitFailed} ${gitError}`
            : text.saved,
      );
      void refresh();
      void refreshTranslations(slug);
    } else if (answer.status === 202) {
      const held: Pending = answer.body.pending;
      update(locale, {
        pending: [...(draft.pending ?? []).filter((each) => each.by !== held.by), held],
        dirty: false,
        errors: {},
        problems: [],
        conflict: undefined,
      });
      setNotice(text.heldForReview);
      void refresh();
    } else if (answer.status === 422) {
      showErrors(locale, answer.body.errors);
      setNotice(`${text.invalid} ${text.notWritten}`);
    } else if (answer.status === 409) {
      const current = answer.body.current;
      update(locale, {
        conflict: { values: toValues(current.frontMatter, fields), body: current.body, version: current.version },
      });
      setNotice(text.conflict);
    } else if (answer.status === 401) {
      location.assign(props.signIn);
    } else {
      update(locale, { problems: [answer.body?.message ?? text.failed] });
      setNotice(text.failed);
    }
  }

  /** The copy's words for a problem at a field it has none for by name: by the field's type (a collection's own fields). */
  const typeProblem = (field: EditorField) =>
    props.typeProblems[field.type]
      ?.replace('{label}', field.label)
      .replace('{choices}', (field.options ?? []).map((option) => option.label).join(', '));

  /** Puts the server's errors (the build's, 422) next to their fields, the others above the form. */
  function showErrors(locale: string, list: { field: string | null; message: string; line: number | null }[]) {
    const errors: Record<string, string> = {};
    const problems: string[] = [];
    for (const error of list) {
      // A part of a list or object field (`links[1].url`) is shown at its field, naming the part.
      const name = error.field?.split(/[.[]/)[0];
      const field = name ? fields.find((each) => each.name === name) : undefined;
      if (field && name !== error.field) errors[field.name] = `${error.field}: ${error.message}`;
      else if (field)
        errors[field.name] =
          plainProblem(props.problems, field.name, problemFill) ?? typeProblem(field) ?? error.message;
      else problems.push(error.line ? `${error.message} (line ${error.line})` : error.message);
    }
    update(locale, { errors, problems });
  }

  /** Renders the unsaved text through the site's templates and opens it in a new tab. */
  async function preview(locale: string) {
    const draft = drafts[locale] ?? emptyDraft(fields);
    if (!slugPattern.test(slug)) return update(locale, { problems: [text.slugInvalid] });
    // Opened before the request, so the browser does not take it for a pop-up.
    const tab = window.open('', '_blank');
    const answer = await callApi('POST', `${base()}/preview`, {
      body: { slug, locale, frontMatter: toFrontMatter(draft.values, fields), body: draft.body },
      csrf,
    });
    if (answer.status === 200) {
      if (tab) tab.location.href = answer.body.url;
      else location.assign(answer.body.url);
      setNotice(text.previewOpened);
      return;
    }
    tab?.close();
    if (answer.status === 422) {
      showErrors(locale, answer.body.errors);
      setNotice(text.invalid);
    } else {
      update(locale, { problems: [answer.body?.message ?? text.failed] });
    }
  }

  async function remove(locale: string) {
    const draft = drafts[locale];
    if (
      !draft?.version ||
      !confirm(text.confirmDelete.replace('{slug}', slug).replace('{locale}', locale.toUpperCase()))
    )
      return;
    const answer = await callApi('DELETE', `${base()}/${slug}/${locale}`, { csrf, ifMatch: draft.version });
    if (answer.status === 200) {
      update(locale, emptyDraft(fields));
      setNotice(text.deleted);
      void refresh();
    } else if (answer.status === 202) {
      // The deletion waits for an admin (`admin.review`): the translation stays published meanwhile.
      const held: Pending = answer.body.pending;
      update(locale, { pending: [...(draft.pending ?? []).filter((each) => each.by !== held.by), held] });
      setNotice(text.heldForReview);
      void refresh();
    } else if (answer.status === 409) {
      update(locale, {
        conflict: {
          values: toValues(answer.body.current.frontMatter, fields),
          body: answer.body.current.body,
          version: answer.body.current.version,
        },
      });
      setNotice(text.conflict);
    }
  }

  async function signOut() {
    if (dirty && !confirm(text.unsaved)) return;
    await callApi('POST', '/api/auth/logout', { csrf });
    location.assign(props.signIn);
  }

  /** Wraps the selection of the body in Markdown (or prefixes its lines). */
  function format(kind: 'heading' | 'bold' | 'italic' | 'link' | 'list' | 'quote') {
    const area = bodyRef.current;
    if (!area) return;
    const { selectionStart: start, selectionEnd: end, value } = area;
    const selected = value.slice(start, end);
    const lineStart = value.lastIndexOf('\n', start - 1) + 1;
    let next: string;
    let cursor: [number, number];
    if (kind === 'bold' || kind === 'italic' || kind === 'link') {
      const [before, after] = kind === 'bold' ? ['**', '**'] : kind === 'italic' ? ['_', '_'] : ['[', '](https://)'];
      next = value.slice(0, start) + before + selected + after + value.slice(end);
      cursor = [start + before.length, start + before.length + selected.length];
    } else {
      const prefix = kind === 'heading' ? '## ' : kind === 'list' ? '- ' : '> ';
      const block = value
        .slice(lineStart, end)
        .split('\n')
        .map((line) => prefix + line)
        .join('\n');
      next = value.slice(0, lineStart) + block + value.slice(end);
      cursor = [lineStart, lineStart + block.length];
    }
    update(tab, { body: next, dirty: true });
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(...cursor);
    });
  }

  /** Puts a component's directive at the cursor of the body: a block on lines of its own, with a blank line either side. */
  function insertComponent(markdown: string, block: boolean) {
    const area = bodyRef.current;
    if (!area) return;
    const { selectionStart: start, selectionEnd: end, value } = area;
    const before = value.slice(0, start);
    const after = value.slice(end);
    const lead = !block || before === '' ? '' : before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
    const trail = !block ? '' : after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
    const next = before + lead + markdown + trail + after;
    const cursor = before.length + lead.length + markdown.length;
    update(tab, { body: next, dirty: true });
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(cursor, cursor);
    });
  }

  function keys(event: KeyboardEvent<HTMLElement>) {
    if (!(event.ctrlKey || event.metaKey)) return;
    const key = event.key.toLowerCase();
    if (key === 's') {
      event.preventDefault();
      void save(tab);
    } else if (event.target === bodyRef.current && (key === 'b' || key === 'i' || key === 'k')) {
      event.preventDefault();
      format(key === 'b' ? 'bold' : key === 'i' ? 'italic' : 'link');
    }
  }

  function tabKeys(event: KeyboardEvent<HTMLButtonElement>) {
    const index = locales.findIndex(({ id }) => id === tab);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = locales[(index + step + locales.length) % locales.length]!.id;
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  if (session === 'loading') return <p role="status">{text.loading}</p>;
  if (session === 'unavailable')
    return (
      <p className="banner banner-info" role="status">
        {text.unavailable}
      </p>
    );
  if (collections === 'failed')
    return (
      <p className="banner banner-error" role="alert">
        {text.noCollections}
      </p>
    );
  if (collections?.length === 0)
    return (
      <p className="banner banner-info" role="status">
        {text.noneDeclared}
      </p>
    );
  if (!collection) return <p role="status">{text.loading}</p>;

  const status = (translation: Translation) => text[translation.status as 'published'] ?? translation.status;
  const header = (
    <div className="admin-bar">
      <p>{text.signedInAs.replace('{email}', session.user.email)}</p>
      <button type="button" className="button button-secondary" onClick={() => void signOut()}>
        {text.signOut}
      </button>
    </div>
  );

  if (!editing) {
    const categories = fields.find((field) => field.name === termField)?.options ?? [];
    const count = (value: number) => value.toLocaleString(adminIntl());
    return (
      <div className="blog-editor">
        {header}
        {choices.length > 1 && (
          <div className="field admin-collection">
            <label htmlFor="admin-collection">{text.collection}</label>
            <select
              id="admin-collection"
              value={collection.id}
              onChange={(event) => switchTo(event.currentTarget.value, true)}
            >
              {choices.map(({ id, label }) => (
                <option key={id} value={id}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="admin-filters">
          <div className="field">
            <label htmlFor="admin-search">{text.search}</label>
            <input
              id="admin-search"
              type="search"
              value={filters.search}
              onInput={(event) => setFilters({ ...filters, search: event.currentTarget.value })}
            />
          </div>
          <div className="field">
            <label htmlFor="admin-status">{text.filterStatus}</label>
            <select
              id="admin-status"
              value={filters.status}
              onChange={(event) => filter({ status: event.currentTarget.value })}
            >
              <option value="">{text.all}</option>
              {(['published', 'draft', 'scheduled', 'missing'] as const).map((value) => (
                <option key={value} value={value}>
                  {text[value]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="admin-locale">{text.filterLocale}</label>
            <select
              id="admin-locale"
              value={filters.locale}
              onChange={(event) => filter({ locale: event.currentTarget.value })}
            >
              <option value="">{text.all}</option>
              {locales.map(({ id, label }) => (
                <option key={id} value={id}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          {termField && (
            <div className="field">
              <label htmlFor="admin-category">
                {fields.find((field) => field.name === termField)?.label ?? text.filterCategory}
              </label>
              <select
                id="admin-category"
                value={filters.category}
                onChange={(event) => filter({ category: event.currentTarget.value })}
              >
                <option value="">{text.all}</option>
                {categories.map(({ value, label }) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
        <ReviewQueue
          key={collection.id}
          api={base()}
          csrf={csrf}
          decides={session.user.role === 'admin'}
          languages={Object.fromEntries(locales.map(({ id, label }) => [id, label]))}
          text={props.review}
          onDecided={() => void refresh()}
        />
        <p>
          <button type="button" className="button button-primary" onClick={create}>
            {text.newPost}
          </button>
        </p>
        {list.total === 0 ? (
          <p>{text.noPosts}</p>
        ) : (
          <table className="admin-posts">
            <caption>{text.posts.replace('{collection}', collection.label)}</caption>
            <thead>
              <tr>
                <th scope="col">{text.title}</th>
                {locales.map(({ id, label }) => (
                  <th key={id} scope="col">
                    {label}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">{text.edit}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.entries.map((post) => {
                const first = locales.map(({ id }) => post.translations[id]).find((translation) => translation?.title);
                return (
                  <tr key={post.slug}>
                    <th scope="row">
                      {first?.title ?? post.slug}
                      <br />
                      <span className="muted">{post.slug}</span>
                    </th>
                    {locales.map(({ id, label }) => {
                      const translation = post.translations[id] ?? { status: 'missing' };
                      return (
                        <td key={id} data-label={label}>
                          <span className={`badge badge-${translation.status}`}>
                            {translation.status === 'missing'
                              ? text.missingIn.replace('{locale}', label)
                              : status(translation)}
                          </span>
                          {translation.outdated && (
                            <>
                              {' '}
                              <span className="badge badge-missing">{text.outdated}</span>
                            </>
                          )}
                          {translation.date && (
                            <>
                              <br />
                              <span className="muted">{translation.date}</span>
                            </>
                          )}
                          {translation.scheduled && (
                            <>
                              <br />
                              <span className="muted">{appearsOn(text.appearsOn, translation.scheduled)}</span>
                            </>
                          )}
                          {translation.pending && (
                            <>
                              <br />
                              <span className="badge">{text.waitingForReview}</span>
                            </>
                          )}
                          {translation.status === 'missing' && translation.shownIn && (
                            <>
                              <br />
                              <span className="muted">
                                {text.shownIn.replace(
                                  '{locale}',
                                  locales.find((locale) => locale.id === translation.shownIn)?.label ??
                                    translation.shownIn,
                                )}
                              </span>
                            </>
                          )}
                        </td>
                      );
                    })}
                    <td>
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() => void open(post.slug)}
                        aria-label={`${text.edit}: ${first?.title ?? post.slug}`}
                      >
                        {text.edit}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {list.total > 0 && (
          <nav className="admin-paging" aria-label={text.pagination}>
            <p role="status">
              {text.shown
                .replace('{from}', count(Math.min(list.from + 1, list.total)))
                .replace('{to}', count(Math.min(list.from + list.entries.length, list.total)))
                .replace('{total}', count(list.total))}
            </p>
            <button
              type="button"
              className="button button-secondary"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - pageSize))}
            >
              {text.previousPage}
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={offset + pageSize >= list.total}
              onClick={() => setOffset(offset + pageSize)}
            >
              {text.nextPage}
            </button>
          </nav>
        )}
      </div>
    );
  }

  const draft = drafts[tab] ?? emptyDraft(fields);
  const words = draft.body.split(/\s+/).filter(Boolean).length;
  const source = locales.find(({ id }) => id !== tab && drafts[id]?.version);
  const localeLabel = (id: string) => locales.find((locale) => locale.id === id)?.label ?? id;
  const fieldId = (name: string) => `post-${tab}-${name}`;

  /** Uploads an image for the post (it must be saved once) and puts its file name in the image field. */
  const upload = async (file: File) => {
    if (!csrf || busy) return;
    if (!Object.values(drafts).some((each) => each.version)) return setNotice(text.uploadSaveFirst);
    if (!imageTypes.includes(file.type) || file.size > maxImageBytes)
      return setNotice(text.uploadFailed.replace('{reason}', text.imageTypes));
    setBusy(true);
    setNotice(text.uploading);
    try {
      const response = await fetch(`${base()}/media?post=${encodeURIComponent(slug)}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': file.type, 'x-csrf-token': csrf },
        credentials: 'same-origin',
        body: file,
      });
      const answer = (await response.json().catch(() => ({}))) as { path?: string; message?: string };
      if (response.status !== 201 || !answer.path)
        return setNotice(text.uploadFailed.replace('{reason}', answer.message ?? `HTTP ${response.status}`));
      update(tab, {
        values: { ...draft.values, image: answer.path },
        dirty: true,
        errors: { ...draft.errors, image: '' },
      });
      setNotice(text.uploaded);
    } catch {
      setNotice(text.uploadFailed.replace('{reason}', text.imageTypes));
    } finally {
      setBusy(false);
    }
  };
  /** A field's input; `hint`: the id of a text that describes it too. */
  const input = (field: EditorField, hint?: string): ReactElement => {
    const value = draft.values[field.name];
    const error = draft.errors[field.name];
    const describedBy = [error ? `${fieldId(field.name)}-error` : '', hint ?? ''].filter(Boolean).join(' ');
    const common = {
      id: fieldId(field.name),
      name: field.name,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': describedBy || undefined,
    };
    const set = (next: unknown) =>
      update(tab, {
        values: { ...draft.values, [field.name]: next },
        dirty: true,
        errors: { ...draft.errors, [field.name]: '' },
      });
    if (field.type === 'boolean')
      return (
        <input
          {...common}
          type="checkbox"
          role="switch"
          checked={value === true}
          onChange={(event) => set(event.currentTarget.checked)}
        />
      );
    if (field.field && structuredTypes.includes(field.type))
      return (
        <StructuredField
          id={fieldId(field.name)}
          labelledBy={`${fieldId(field.name)}-label`}
          field={field.field}
          value={value}
          text={{ addItem: text.addItem, removeItem: text.removeItem }}
          imagePicker={(onChosen) =>
            csrf ? (
              <MediaPicker
                text={props.picker}
                csrf={csrf}
                collection={collectionRef.current}
                slug={slug}
                locale={tab}
                disabled={busy || !Object.values(drafts).some((each) => each.version)}
                onChosen={onChosen}
                onNotice={setNotice}
              />
            ) : null
          }
          onChange={set}
        />
      );
    if (field.type === 'choice' || field.type === 'reference') {
      return (
        <select
          {...common}
          required={field.required}
          value={String(value ?? '')}
          onChange={(event) => set(event.currentTarget.value)}
        >
          <option value="">—</option>
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
    }
    if (field.name === 'image') {
      const hint = `${fieldId(field.name)}-hint`;
      // An image belongs in a saved post's folder: until the first save the library's button is off, and the hint says why.
      const saved = Object.values(drafts).some((each) => each.version);
      return (
        <div
          className="image-field"
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => {
            event.preventDefault();
            const file = event.dataTransfer?.files[0];
            if (file) void upload(file);
          }}
        >
          <input
            {...common}
            type="text"
            value={String(value ?? '')}
            aria-describedby={[common['aria-describedby'], hint].filter(Boolean).join(' ')}
            onInput={(event) => set(event.currentTarget.value)}
          />
          <label className="button button-secondary image-upload">
            {busy ? text.uploading : text.uploadImage}
            <input
              type="file"
              className="visually-hidden"
              accept={imageTypes.join(',')}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                event.currentTarget.value = '';
                if (file) void upload(file);
              }}
            />
          </label>
          {csrf && (
            <MediaPicker
              text={props.picker}
              csrf={csrf}
              collection={collectionRef.current}
              slug={slug}
              locale={tab}
              disabled={busy || !saved}
              describedBy={hint}
              onChosen={(path) => set(path)}
              onNotice={setNotice}
            />
          )}
          <p id={hint} className="muted">
            {saved ? text.imageTypes : `${text.uploadSaveFirst} ${text.imageTypes}`}
          </p>
        </div>
      );
    }
    if (field.name === 'description' || field.type === 'markdown')
      return (
        <textarea
          {...common}
          rows={3}
          required={field.required}
          value={String(value ?? '')}
          onInput={(event) => set(event.currentTarget.value)}
        />
      );
    return (
      <input
        {...common}
        type={field.type === 'date' ? 'date' : field.type === 'number' ? 'number' : 'text'}
        required={field.required}
        value={String(value ?? '')}
        onInput={(event) => set(event.currentTarget.value)}
      />
    );
  };

  /** The translation's own address (front matter `slug:`; empty: the folder's), and the URL the page gets with it. */
  const localSlug = (field: EditorField): ReactElement => {
    const hint = `${fieldId(field.name)}-hint`;
    const own = String(draft.values[field.name] ?? '');
    const route =
      collection.routes.find((each) => each.kind === 'entry' && each.audience === null) ??
      collection.routes.find((each) => each.kind === 'entry');
    const url = route?.urls[tab]?.replace('{slug}', own || slug || '…');
    return (
      <>
        {input(field, hint)}
        <p id={hint} className="muted">
          {text.localSlugHint.replace('{slug}', slug || '…').replace('{url}', url ?? '')}
        </p>
      </>
    );
  };

  return (
    <div className="blog-editor" onKeyDown={keys}>
      {header}
      <p>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            if (!dirty || confirm(text.unsaved)) {
              setEditing(undefined);
              setDrafts({});
            }
          }}
        >
          {text.back}
        </button>
      </p>
      <div className="field">
        <label htmlFor="post-slug">{text.slug}</label>
        <input
          id="post-slug"
          value={slug}
          readOnly={!editing.isNew}
          aria-describedby="post-slug-hint"
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          required
          onInput={(event) => setSlug(event.currentTarget.value)}
        />
        <p id="post-slug-hint" className="muted">
          {text.slugHint}
        </p>
      </div>
      <div role="tablist" aria-label={text.filterLocale} className="admin-tabs">
        {locales.map(({ id, label }) => (
          <button
            key={id}
            id={`tab-${id}`}
            ref={(element) => {
              tabRefs.current[id] = element;
            }}
            type="button"
            role="tab"
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => setTab(id)}
            onKeyDown={tabKeys}
          >
            {label}
            {drafts[id]?.dirty ? ' •' : ''}
            {drafts[id]?.version ? '' : ` (${text.missing})`}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="admin-panel">
        <p className="visually-hidden" role="status" aria-live="polite">
          {notice}
        </p>
        {notice && (
          <p className="banner banner-info" aria-hidden="true">
            {notice}
          </p>
        )}
        {draft.conflict && (
          <div className="banner banner-error" role="alert">
            <p>{text.conflict}</p>
            <button
              type="button"
              className="button button-secondary"
              onClick={() =>
                update(tab, {
                  values: draft.conflict!.values,
                  body: draft.conflict!.body,
                  version: draft.conflict!.version,
                  dirty: false,
                  conflict: undefined,
                })
              }
            >
              {text.reloadTheirs}
            </button>{' '}
            <button
              type="button"
              className="button button-secondary"
              onClick={() => update(tab, { version: draft.conflict!.version, conflict: undefined, dirty: true })}
            >
              {text.keepMine}
            </button>
          </div>
        )}
        {draft.translation?.outdated && (
          <section className="banner banner-info admin-page-outdated" aria-labelledby={`post-${tab}-outdated`}>
            <p id={`post-${tab}-outdated`}>
              <span className="badge badge-missing">{text.outdated}</span>{' '}
              {text.outdatedSince
                .replace('{language}', localeLabel(draft.translation.sourceLocale))
                .replace('{since}', when(draft.translation.since))}
            </p>
            {draft.translation.diff && (
              <ChangeList changes={draft.translation.changes} diff={draft.translation.diff} text={props.history} />
            )}
          </section>
        )}
        {draft.translation && !draft.translation.outdated && (
          <p className="muted">{text.upToDate.replace('{since}', when(draft.translation.since))}</p>
        )}
        {(draft.pending ?? []).length > 0 && (
          <div className="banner banner-info">
            <p>
              <strong>{text.waitingForReview}</strong>
            </p>
            <ul>
              {draft.pending!.map((each) => (
                <li key={each.id}>{text.waitingBy.replace('{by}', each.by).replace('{at}', when(each.at))}</li>
              ))}
            </ul>
          </div>
        )}
        {draft.problems.length > 0 && (
          <ul className="banner banner-error" role="alert">
            {draft.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
        {!draft.version && source && (
          <p>
            <button
              type="button"
              className="button button-secondary"
              onClick={() =>
                update(tab, { values: { ...drafts[source.id]!.values }, body: drafts[source.id]!.body, dirty: true })
              }
            >
              {text.startFrom.replace('{locale}', source.label)}
            </button>
          </p>
        )}
        <form
          className="admin-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void save(tab);
          }}
        >
          {fields.map((field) => (
            <div key={field.name} className={`field field-${field.type}`}>
              {field.field && structuredTypes.includes(field.type) ? (
                // A list or object has several inputs: its name heads them (StructuredField labels each).
                <p id={`${fieldId(field.name)}-label`} className="field-legend">
                  {field.label}
                  {field.required ? ' *' : ''}
                </p>
              ) : (
                <label htmlFor={fieldId(field.name)}>
                  {field.label}
                  {field.required ? ' *' : ''}
                </label>
              )}
              {field.name === 'slug' ? localSlug(field) : input(field)}
              {draft.errors[field.name] && (
                <p id={`${fieldId(field.name)}-error`} className="field-error">
                  {draft.errors[field.name]}
                </p>
              )}
              {field.name === 'date' && draft.scheduled && !draft.dirty && (
                <p className="muted">{appearsOn(text.appearsOn, draft.scheduled)}</p>
              )}
            </div>
          ))}
          <div className="field field-body">
            <label htmlFor={`post-${tab}-body`}>{text.body}</label>
            <div role="toolbar" aria-label={text.toolbar} aria-controls={`post-${tab}-body`} className="admin-toolbar">
              {(['heading', 'bold', 'italic', 'link', 'list', 'quote'] as const).map((kind) => (
                <button key={kind} type="button" className="button button-secondary" onClick={() => format(kind)}>
                  {text[kind]}
                </button>
              ))}
              {props.components && (
                <Suspense fallback={null}>
                  <ComponentPicker text={props.components} onInsert={insertComponent} />
                </Suspense>
              )}
            </div>
            <textarea
              id={`post-${tab}-body`}
              ref={bodyRef}
              rows={18}
              value={draft.body}
              aria-describedby={`post-${tab}-reading`}
              onInput={(event) => update(tab, { body: event.currentTarget.value, dirty: true })}
            />
            <p id={`post-${tab}-reading`} className="muted">
              {text.readingTime
                .replace('{readingMinutes}', String(Math.max(1, Math.round(words / collection.wordsPerMinute))))
                .replace('{words}', String(words))}
            </p>
          </div>
          <p className="admin-actions">
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? text.saving : text.save}
            </button>{' '}
            <button type="button" className="button button-secondary" onClick={() => void preview(tab)}>
              {text.preview}
            </button>{' '}
            {draft.version && (
              <button type="button" className="button button-secondary" onClick={() => void remove(tab)}>
                {text.delete}
              </button>
            )}
          </p>
        </form>
        {draft.version && (
          <History
            key={`${collectionRef.current}/${slug}/${tab}`}
            api={`${base()}/${slug}/${tab}`}
            csrf={csrf}
            version={draft.version}
            text={props.history}
            onRestored={() => void open(slug, tab)}
          />
        )}
      </div>
    </div>
  );
}
