/**
 * The page-copy editor of /admin/pages: the pages whose copy lives in content/pages/, each with its
 * languages; choosing one shows each of its texts as a labelled field (a line, a paragraph or
 * Markdown, or a list with one field per item) with the default language's text beside it. Keys
 * the developer locked (`admin.locked`) are shown read-only with why; a translation whose source
 * changed since it was saved is marked outdated, with the source's changes. Saving sends only the
 * changed keys with If-Match (pages-api.ts); a 422 is shown at its fields, a 409 at the fields
 * someone else changed meanwhile, the editor's own words kept. For editors and admins. With
 * `admin.review`, an editor's save waits for an admin (202): the changes waiting are listed above
 * the pages and the page being edited (ReviewQueue.tsx), where an admin approves or rejects them.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import History, { ChangeList, type ChangeInWords, type HistoryProps } from './History';
import { callApi, type AdminSession } from './admin-client';
import { AdminBar, usePageSession } from './admin-bar';
import { plainProblem } from './plain-errors';
import ReviewQueue, { type ReviewQueueProps } from './ReviewQueue';

/** The copy keys of the page editor (src/admin/ui/copy/admin/pages/en.yaml, `pages:`). */
export const adminPagesText = [
  'loading',
  'unavailable',
  'signedInAs',
  'signOut',
  'failed',
  'pages',
  'languages',
  'empty',
  'editing',
  'backToList',
  'sourceText',
  'item',
  'locked',
  'outdated',
  'outdatedSince',
  'upToDate',
  'save',
  'saving',
  'noChanges',
  'saved',
  'savedDev',
  'heldForReview',
  'stale',
  'changedMeanwhile',
  'reload',
  'errorSummary',
  'emptyText',
] as const;

/** A page as `GET /api/admin/pages` lists it. */
interface PageSummary {
  id: string;
  label: string;
  locales: string[];
  outdated: string[];
}

/** A text of a page as `GET /api/admin/pages/<id>/<locale>` gives it. */
interface Field {
  key: string;
  label: string;
  kind: 'line' | 'paragraph' | 'markdown' | 'list';
  value: string | string[];
  source: string | string[] | null;
  locked: boolean;
}

/** A page's copy in a language, as the API gives it. */
interface PageCopy {
  id: string;
  locale: string;
  sourceLocale: string;
  fields: Field[];
  version: string;
  translation?: { outdated: boolean; since: string; diff?: string; changes?: ChangeInWords[] };
}

interface FieldError {
  key: string | null;
  message: string;
}

/** Everything the editor shows, from the config and the page's copy. */
export interface AdminPagesProps {
  signIn: string;
  dateLocale: string;
  /** Names of the site's languages, by id. */
  languages: Record<string, string>;
  text: Record<(typeof adminPagesText)[number], string>;
  /** What to do about a problem the check finds at a text, by dotted key (`*` for any one part): plain-errors.ts. */
  problems: Record<string, string>;
  history: HistoryProps['text'];
  /** The copy of the changes waiting for review (ReviewQueue.tsx). */
  review: ReviewQueueProps['text'];
}

const idOf = (key: string) => `copy-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
const same = (a: string | string[] | undefined, b: string | string[] | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

export default function AdminPages(props: AdminPagesProps) {
  const { text } = props;
  const [pages, setPages] = useState<PageSummary[] | undefined>();
  const [copy, setCopy] = useState<PageCopy | undefined>();
  const [draft, setDraft] = useState<Map<string, string | string[]>>(new Map());
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'info' | 'error'; text: string; stale?: boolean } | undefined>();
  const [failed, setFailed] = useState(false);
  /** Read the changes waiting for review again after a save was held (the queue loads when mounted). */
  const [held, setHeld] = useState(0);
  const sessionRef = useRef<AdminSession | undefined>(undefined);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const state = usePageSession(props.signIn, 'editor', (session) => {
    sessionRef.current = session;
    void list();
    // A link may name the page and language to open (?page=hub/pricing&locale=no).
    const asked = new URLSearchParams(location.search);
    if (asked.get('page') && asked.get('locale')) void open(asked.get('page')!, asked.get('locale')!);
  });

  async function list() {
    const answer = await callApi<{ pages: PageSummary[] }>('GET', '/api/admin/pages');
    if (answer.status === 401) return location.assign(props.signIn);
    if (answer.status !== 200) return setFailed(true);
    setPages(answer.body.pages);
  }

  /** Reads a page's copy in a language (undefined after sending the reader to sign in or saying it failed). */
  async function read(id: string, locale: string): Promise<PageCopy | undefined> {
    const answer = await callApi<PageCopy>('GET', `/api/admin/pages/${id}/${locale}`);
    if (answer.status === 401) location.assign(props.signIn);
    else if (answer.status === 200) return answer.body;
    else setNotice({ kind: 'error', text: text.failed });
    return undefined;
  }

  /** Opens a page's copy in a language; the focus moves to its heading unless `keepFocus` (a restore keeps it in the history panel). */
  async function open(id: string, locale: string, keepFocus = false) {
    setNotice(undefined);
    setErrors([]);
    const found = await read(id, locale);
    if (!found) return;
    setCopy(found);
    setDraft(new Map(found.fields.map((field) => [field.key, field.value])));
    if (!keepFocus) requestAnimationFrame(() => headingRef.current?.focus());
  }

  function close() {
    const id = copy?.id;
    // Saves may have changed which translations are outdated.
    void list();
    setCopy(undefined);
    setNotice(undefined);
    setErrors([]);
    requestAnimationFrame(() => (id ? document.getElementById(`page-${idOf(id)}`) : null)?.focus());
  }

  /** The changed texts: only the keys whose draft differs from the copy as loaded. */
  const changes = () =>
    (copy?.fields ?? [])
      .filter((field) => !field.locked && !same(draft.get(field.key), field.value))
      .map((field) => ({ key: field.key, value: draft.get(field.key)! }));

  function showErrors(found: FieldError[]) {
    setErrors(found);
    requestAnimationFrame(() => summaryRef.current?.focus());
  }

  async function onSave(event: FormEvent) {
    event.preventDefault();
    if (!copy) return;
    setNotice(undefined);
    const asked = changes();
    if (asked.length === 0) {
      setErrors([]);
      setNotice({ kind: 'info', text: text.noChanges });
      return requestAnimationFrame(() => noticeRef.current?.focus());
    }
    // An empty text is said here, before asking the server (a page's text is never empty).
    const empty = asked.filter((change) =>
      (Array.isArray(change.value) ? change.value : [change.value]).some((item) => !item.trim()),
    );
    if (empty.length) return showErrors(empty.map((change) => ({ key: change.key, message: text.emptyText })));
    setBusy(true);
    const answer = await callApi<{
      rebuilt?: boolean;
      ms?: number;
      errors?: { path: string | null; message: string }[];
    }>('PUT', `/api/admin/pages/${copy.id}/${copy.locale}`, {
      body: { changes: asked },
      csrf: sessionRef.current?.csrfToken,
      ifMatch: copy.version,
    });
    setBusy(false);
    if (answer.status === 401) return location.assign(props.signIn);
    if (answer.status === 422)
      return showErrors(
        (answer.body.errors ?? []).map((error) => ({
          key: error.path,
          message: plainProblem(props.problems, error.path) ?? error.message,
        })),
      );
    if (answer.status === 409) await merge(asked.map((change) => change.key));
    else if (answer.status === 202) {
      // Nothing was written: the editor's texts stay in the form, and wait in the queue above.
      setErrors([]);
      setNotice({ kind: 'info', text: text.heldForReview });
      setHeld((count) => count + 1);
    } else if (answer.status !== 200) setNotice({ kind: 'error', text: text.failed });
    else {
      // The saved copy as the server has it now (its new version, the translation's status), then the notice.
      const fresh = await read(copy.id, copy.locale);
      if (fresh) {
        setCopy(fresh);
        setDraft(new Map(fresh.fields.map((field) => [field.key, field.value])));
      }
      setErrors([]);
      setNotice({
        kind: 'info',
        text: answer.body.rebuilt ? text.saved.replace('{ms}', String(answer.body.ms ?? 0)) : text.savedDev,
      });
    }
    requestAnimationFrame(() => noticeRef.current?.focus());
  }

  /**
   * After a 409: takes the newer copy as the one being edited, keeps the editor's changes on top of
   * it, and says at each field the editor changed what someone else wrote there meanwhile; saving
   * again then replaces it knowingly.
   */
  async function merge(keys: string[]) {
    if (!copy) return;
    const fresh = await read(copy.id, copy.locale);
    if (!fresh) return;
    const before = new Map(copy.fields.map((field) => [field.key, field.value]));
    const clashes = fresh.fields.filter(
      (field) => keys.includes(field.key) && !same(field.value, before.get(field.key)),
    );
    setCopy(fresh);
    setDraft(
      (current) =>
        new Map(
          fresh.fields.map((field) => [field.key, keys.includes(field.key) ? current.get(field.key)! : field.value]),
        ),
    );
    setErrors(
      clashes.map((field) => ({
        key: field.key,
        message: text.changedMeanwhile.replace(
          '{text}',
          Array.isArray(field.value) ? field.value.join(' · ') : field.value,
        ),
      })),
    );
    setNotice({ kind: 'error', text: text.stale, stale: true });
  }

  if (state === 'loading') return <p role="status">{text.loading}</p>;
  if (state === 'unavailable')
    return (
      <p className="banner banner-info" role="status">
        {text.unavailable}
      </p>
    );
  const bar = <AdminBar session={state.session} signIn={props.signIn} text={text} />;
  const reviews = (
    <ReviewQueue
      key={held}
      api="/api/admin/pages"
      csrf={state.session.csrfToken}
      decides={state.session.user.role === 'admin'}
      languages={props.languages}
      text={props.review}
      onDecided={() => void (copy ? open(copy.id, copy.locale, true) : list())}
    />
  );
  if (!pages)
    return (
      <>
        {bar}
        <p role="status" className={failed ? 'banner banner-error' : undefined}>
          {failed ? text.failed : text.loading}
        </p>
      </>
    );
  const language = (locale: string) => props.languages[locale] ?? locale;
  const noticeBanner = notice && (
    <p
      ref={noticeRef}
      tabIndex={-1}
      className={`banner banner-${notice.kind} admin-notice`}
      role={notice.kind === 'error' ? 'alert' : 'status'}
    >
      {notice.text}
      {notice.stale && copy && (
        <>
          {' '}
          <button type="button" className="button button-secondary" onClick={() => void open(copy.id, copy.locale)}>
            {text.reload}
          </button>
        </>
      )}
    </p>
  );

  if (!copy) {
    return (
      <div className="admin-pages">
        {bar}
        {noticeBanner}
        {reviews}
        {pages.length === 0 ? (
          <p role="status">{text.empty}</p>
        ) : (
          <section aria-labelledby="pages-heading">
            <h2 id="pages-heading">{text.pages}</h2>
            <ul className="admin-page-list">
              {pages.map((page) => (
                <li key={page.id}>
                  <span id={`page-${idOf(page.id)}`} tabIndex={-1} className="admin-page-name">
                    {page.label} <code>{page.id}</code>
                  </span>
                  <span className="admin-page-languages">
                    <span className="visually-hidden">{text.languages}:</span>
                    {page.locales.map((locale) => (
                      <button
                        key={locale}
                        type="button"
                        className="button button-secondary"
                        aria-describedby={`page-${idOf(page.id)}`}
                        onClick={() => void open(page.id, locale)}
                      >
                        {language(locale)}
                        {page.outdated.includes(locale) && (
                          <>
                            {' '}
                            <span className="badge badge-missing">{text.outdated}</span>
                          </>
                        )}
                      </button>
                    ))}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    );
  }

  const errorAt = (key: string) => errors.find((error) => error.key === key);
  const translated = copy.locale !== copy.sourceLocale;
  const since =
    copy.translation &&
    new Intl.DateTimeFormat(props.dateLocale, { dateStyle: 'medium', timeStyle: 'short' }).format(
      Date.parse(copy.translation.since),
    );

  /** The default language's text beside a field, read-only under its visible label. */
  const source = (field: Field): ReactNode => {
    if (!translated || field.source === null) return null;
    const id = `${idOf(field.key)}-source`;
    return (
      <div className="admin-page-source">
        <p className="field-hint" id={`${id}-label`}>
          {text.sourceText.replace('{language}', language(copy.sourceLocale))}
        </p>
        {Array.isArray(field.source) ? (
          <ul id={id} aria-labelledby={`${id}-label`}>
            {field.source.map((item, index) => (
              <li key={index}>{item}</li>
            ))}
          </ul>
        ) : (
          <p id={id} aria-labelledby={`${id}-label`} className="admin-page-source-text">
            {field.source}
          </p>
        )}
      </div>
    );
  };

  /** One input or textarea of a text (or of a list's item). */
  const input = (
    field: Field,
    id: string,
    value: string,
    described: string | undefined,
    onChange: (value: string) => void,
  ) => {
    const common = {
      id,
      value,
      readOnly: field.locked,
      'aria-invalid': errorAt(field.key) ? true : undefined,
      'aria-describedby': described,
      onChange: (event: { currentTarget: { value: string } }) => onChange(event.currentTarget.value),
      className: 'input-wide',
    };
    return field.kind === 'paragraph' || field.kind === 'markdown' ? (
      <textarea {...common} rows={field.kind === 'markdown' ? 8 : 4} />
    ) : (
      <input {...common} type="text" />
    );
  };

  const fieldOf = (field: Field): ReactNode => {
    const id = idOf(field.key);
    const error = errorAt(field.key);
    const described =
      [field.locked && `${id}-locked`, translated && field.source !== null && `${id}-source`, error && `${id}-error`]
        .filter(Boolean)
        .join(' ') || undefined;
    const value = draft.get(field.key) ?? field.value;
    const notes = (
      <>
        {field.locked && (
          <p className="field-hint" id={`${id}-locked`}>
            {text.locked}
          </p>
        )}
        {error && (
          <p className="field-error" id={`${id}-error`}>
            {error.message}
          </p>
        )}
      </>
    );
    if (Array.isArray(value)) {
      return (
        <fieldset className="admin-page-field" key={field.key} aria-describedby={described}>
          <legend>
            {field.label} <code className="field-key">{field.key}</code>
          </legend>
          <div className="admin-page-pair">
            <ol className="admin-page-items">
              {value.map((item, index) => (
                <li key={index} className="field">
                  <label htmlFor={`${id}-${index}`}>{text.item.replace('{n}', String(index + 1))}</label>
                  {input(field, `${id}-${index}`, item, described, (next) =>
                    setDraft((current) =>
                      new Map(current).set(
                        field.key,
                        value.map((old, at) => (at === index ? next : old)),
                      ),
                    ),
                  )}
                </li>
              ))}
            </ol>
            {source(field)}
          </div>
          {notes}
        </fieldset>
      );
    }
    return (
      <div className="field admin-page-field" key={field.key}>
        <label htmlFor={id}>
          {field.label} <code className="field-key">{field.key}</code>
        </label>
        <div className="admin-page-pair">
          {input(field, id, value, described, (next) => setDraft((current) => new Map(current).set(field.key, next)))}
          {source(field)}
        </div>
        {notes}
      </div>
    );
  };

  return (
    <div className="admin-pages">
      {bar}
      <p>
        <button type="button" className="button button-secondary" onClick={close}>
          {text.backToList}
        </button>
      </p>
      <h2 ref={headingRef} tabIndex={-1}>
        {text.editing
          .replace('{page}', pages.find((page) => page.id === copy.id)?.label ?? copy.id)
          .replace('{language}', language(copy.locale))}
      </h2>
      {copy.translation?.outdated && (
        <section className="banner banner-info admin-page-outdated" aria-labelledby="page-outdated">
          <p id="page-outdated">
            <span className="badge badge-missing">{text.outdated}</span>{' '}
            {text.outdatedSince.replace('{language}', language(copy.sourceLocale)).replace('{since}', since ?? '')}
          </p>
          {copy.translation.diff && (
            <ChangeList changes={copy.translation.changes} diff={copy.translation.diff} text={props.history} />
          )}
        </section>
      )}
      {copy.translation && !copy.translation.outdated && (
        <p className="field-hint">{text.upToDate.replace('{since}', since ?? '')}</p>
      )}
      {noticeBanner}
      {reviews}
      {errors.length > 0 && (
        <div ref={summaryRef} tabIndex={-1} className="banner banner-error admin-notice" role="alert">
          <p>{text.errorSummary}</p>
          <ul>
            {errors.map((error, index) => {
              const field = copy.fields.find((candidate) => candidate.key === error.key);
              const target = field && (Array.isArray(field.value) ? `${idOf(field.key)}-0` : idOf(field.key));
              return (
                <li key={index}>
                  {target ? (
                    <a
                      href={`#${target}`}
                      onClick={(event) => {
                        event.preventDefault();
                        document.getElementById(target)?.focus();
                      }}
                    >
                      {field!.label}: {error.message}
                    </a>
                  ) : (
                    error.message
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <form className="admin-page-form" onSubmit={(event) => void onSave(event)} noValidate>
        {copy.fields.map(fieldOf)}
        <p className="admin-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? text.saving : text.save}
          </button>
        </p>
      </form>
      <History
        key={`${copy.id}/${copy.locale}`}
        api={`/api/admin/pages/${copy.id}/${copy.locale}`}
        csrf={sessionRef.current?.csrfToken}
        version={copy.version}
        text={props.history}
        onRestored={() => void open(copy.id, copy.locale, true)}
      />
    </div>
  );
}
