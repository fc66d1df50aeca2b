/**
 * The visual editor of /admin/visual: a page of the site, chosen by its path, shown in a frame as
 * it will be published (`GET /api/admin/visual?path=`, visual-api.ts), each text of its copy or of
 * an entry's front matter outlined on hover and focus (`[data-edit]`, admin.css) and reachable by
 * Tab. A click or Enter puts a labelled field in its place (a line, a paragraph, or Markdown for a
 * body), filled from the API of its file; Escape cancels. Save goes through that API: a page's
 * copy to `PUT /api/admin/pages/<id>/<locale>` with only that key, an entry's field to its
 * collection's `PUT /api/admin/collections/<id>/<slug>/<locale>`, with If-Match, so it is checked, audited and (with
 * `admin.review`) held for review as on the other screens. The frame then shows the page again,
 * the edited text focused. A link in the page opens its page here. For editors and admins.
 */
import { useRef, useState } from 'react';
import { callApi, type AdminSession } from './admin-client';
import { AdminBar, usePageSession } from './admin-bar';

/** The copy keys of the visual editor (src/admin/ui/copy/admin/visual/en.yaml, `visual:`). */
export const adminVisualText = [
  'loading',
  'unavailable',
  'signedInAs',
  'signOut',
  'path',
  'show',
  'frameTitle',
  'notFound',
  'editLabel',
  'markdown',
  'save',
  'cancel',
  'saving',
  'saved',
  'savedDev',
  'heldForReview',
  'stale',
  'refused',
  'notEditable',
  'failed',
] as const;

type Text = Record<(typeof adminVisualText)[number], string>;

/** The props of the AdminVisual island. */
export interface AdminVisualProps {
  signIn: string;
  text: Text;
}

/** What an edited text is, as its file's API gives it. */
interface EditedText {
  label: string;
  kind: 'line' | 'paragraph' | 'markdown';
  value: string;
  save(value: string, csrf: string): Promise<{ status: number; body: any }>;
}

/** The text of `edit` ("hub#hero.heading", "blog/a-post#title") in `locale`, read from its API; undefined when it cannot be edited here. */
async function readText(edit: string, locale: string, kind: string): Promise<EditedText | undefined> {
  const hash = edit.indexOf('#');
  const id = edit.slice(0, hash);
  const key = edit.slice(hash + 1);
  if (kind === 'entry') {
    const slash = id.indexOf('/');
    const address = `/api/admin/collections/${encodeURIComponent(id.slice(0, slash))}/${encodeURIComponent(id.slice(slash + 1))}/${locale}`;
    const answer = await callApi('GET', address);
    if (answer.status !== 200) return undefined;
    const { frontMatter, body, version } = answer.body as {
      frontMatter: Record<string, unknown>;
      body: string;
      version: string;
    };
    const value = key === 'body' ? body : frontMatter[key];
    if (typeof value !== 'string') return undefined;
    return {
      label: key,
      kind: key === 'body' ? 'markdown' : value.includes('\n') || value.length > 90 ? 'paragraph' : 'line',
      value,
      save: (text, csrf) =>
        callApi('PUT', address, {
          csrf,
          ifMatch: version,
          body: key === 'body' ? { frontMatter, body: text } : { frontMatter: { ...frontMatter, [key]: text }, body },
        }),
    };
  }
  const address = `/api/admin/pages/${id.split('/').map(encodeURIComponent).join('/')}/${locale}`;
  const answer = await callApi('GET', address);
  if (answer.status !== 200) return undefined;
  const { fields, version } = answer.body as {
    fields: { key: string; label: string; kind: string; value: unknown; locked: boolean }[];
    version: string;
  };
  const field = fields.find((each) => each.key === key);
  if (!field || field.locked || typeof field.value !== 'string' || field.kind === 'list') return undefined;
  return {
    label: field.label,
    kind: field.kind as EditedText['kind'],
    value: field.value,
    save: (text, csrf) =>
      callApi('PUT', address, { csrf, ifMatch: version, body: { changes: [{ key, value: text }] } }),
  };
}

/** The path asked for in this screen's address (`?path=`), or the home page (and on the server, which renders no address). */
function initialPath(): string {
  if (typeof location === 'undefined') return '/';
  return new URLSearchParams(location.search).get('path') || '/';
}

export default function AdminVisual({ signIn, text }: AdminVisualProps) {
  const [session, setSession] = useState<AdminSession | null>(null);
  const state = usePageSession(signIn, 'editor', setSession);
  const [path, setPath] = useState(initialPath);
  const [shown, setShown] = useState(initialPath);
  const [loads, setLoads] = useState(0);
  const [notice, setNotice] = useState<{ kind: 'info' | 'success' | 'error'; text: string } | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  // The text to focus once the frame shows the page again, and the one to wait for after a dev save.
  const focusAfterLoad = useRef<string | null>(null);
  const waitFor = useRef<{ edit: string; before: string; tries: number } | null>(null);

  function show(next: string) {
    setPath(next);
    setShown(next);
    setLoads((count) => count + 1);
    history.replaceState(null, '', `?path=${encodeURIComponent(next)}`);
  }

  function closeEditor(document: Document) {
    document.querySelector('.admin-visual-form')?.remove();
    for (const hidden of document.querySelectorAll<HTMLElement>('[data-edit][hidden]')) hidden.hidden = false;
  }

  async function edit(element: HTMLElement) {
    const document = element.ownerDocument;
    if (!session) return;
    closeEditor(document);
    const { edit: id = '', editLocale = '', editKind = '' } = element.dataset;
    let found: EditedText | undefined;
    try {
      found = await readText(id, editLocale, editKind);
    } catch {
      return setNotice({ kind: 'error', text: text.failed });
    }
    if (!found) return setNotice({ kind: 'info', text: text.notEditable });
    const edited = found;
    const form = document.createElement('form');
    form.className = 'admin-ui admin-visual-form';
    const field = document.createElement(edited.kind === 'line' ? 'input' : 'textarea');
    field.id = 'admin-visual-field';
    field.value = edited.value;
    if (field instanceof document.defaultView!.HTMLTextAreaElement) field.rows = edited.kind === 'markdown' ? 12 : 4;
    const label = document.createElement('label');
    label.htmlFor = field.id;
    label.textContent =
      text.editLabel.replace('{field}', edited.label) + (edited.kind === 'markdown' ? ` (${text.markdown})` : '');
    const actions = document.createElement('div');
    actions.className = 'admin-actions';
    const save = document.createElement('button');
    save.type = 'submit';
    save.className = 'button';
    save.textContent = text.save;
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'button button-secondary';
    cancel.textContent = text.cancel;
    actions.append(save, cancel);
    form.append(label, field, actions);
    const close = () => {
      closeEditor(document);
      element.focus();
    };
    cancel.addEventListener('click', close);
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
      }
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void submit();
    });
    async function submit() {
      save.disabled = true;
      setNotice({ kind: 'info', text: text.saving });
      let answer: { status: number; body: any };
      try {
        answer = await edited.save(field.value, session!.csrfToken);
      } catch {
        save.disabled = false;
        return setNotice({ kind: 'error', text: text.failed });
      }
      save.disabled = false;
      if (answer.status === 200) {
        setNotice({
          kind: 'success',
          text: answer.body?.rebuilt ? text.saved.replace('{ms}', String(answer.body.ms ?? 0)) : text.savedDev,
        });
        // `site dev` rebuilds once its watcher sees the file: the frame is shown again until the text changed.
        if (!answer.body?.rebuilt) waitFor.current = { edit: id, before: element.textContent ?? '', tries: 0 };
        focusAfterLoad.current = id;
        return setLoads((count) => count + 1);
      }
      if (answer.status === 202) {
        setNotice({ kind: 'info', text: text.heldForReview });
        return close();
      }
      if (answer.status === 409) return setNotice({ kind: 'error', text: text.stale });
      const errors = (answer.body?.errors ?? []) as { message?: string }[];
      setNotice({
        kind: 'error',
        text: errors.length
          ? text.refused.replace('{problem}', errors.map((each) => each.message).join('; '))
          : text.failed,
      });
    }
    element.hidden = true;
    element.after(form);
    field.focus();
  }

  /** Makes the page in the frame editable, once it has loaded. */
  function prepare() {
    const document = frame.current?.contentDocument;
    if (!document) return;
    if (!document.contentType.includes('html')) return setNotice({ kind: 'error', text: text.notFound });
    // The page runs no script of its own: it is marked as scripted, as its inline language script
    // would (render/head.ts), so it takes the look visitors get.
    document.documentElement.classList.add('js');
    const waiting = waitFor.current;
    if (waiting) {
      const now = document.querySelector(`[data-edit="${CSS.escape(waiting.edit)}"]`)?.textContent ?? '';
      if (now === waiting.before && waiting.tries < 20) {
        waiting.tries += 1;
        window.setTimeout(() => setLoads((count) => count + 1), 500);
        return;
      }
      waitFor.current = null;
    }
    for (const element of document.querySelectorAll<HTMLElement>('[data-edit]')) element.tabIndex = 0;
    document.addEventListener('click', (event) => {
      const target = event.target as Element;
      const editable = target.closest<HTMLElement>('[data-edit]');
      if (target.closest('.admin-visual-form')) return;
      event.preventDefault();
      if (editable) return void edit(editable);
      // A link of the site opens its page here.
      const link = target.closest('a');
      if (!link) return;
      const url = new URL(link.href, location.href);
      if (url.origin === location.origin) show(url.pathname);
    });
    document.addEventListener('keydown', (event) => {
      const target = event.target as HTMLElement;
      if (event.key === 'Enter' && target.matches?.('[data-edit]')) {
        event.preventDefault();
        void edit(target);
      }
    });
    const focus = focusAfterLoad.current;
    focusAfterLoad.current = null;
    if (focus) document.querySelector<HTMLElement>(`[data-edit="${CSS.escape(focus)}"]`)?.focus();
  }

  if (state === 'loading') return <p role="status">{text.loading}</p>;
  if (state === 'unavailable') return <p className="banner banner-info">{text.unavailable}</p>;
  return (
    <div className="admin-visual">
      <AdminBar session={state.session} signIn={signIn} text={text} />
      <form
        className="admin-visual-path"
        onSubmit={(event) => {
          event.preventDefault();
          show(path.startsWith('/') ? path : `/${path}`);
        }}
      >
        <label htmlFor="admin-visual-path">{text.path}</label>
        <input id="admin-visual-path" value={path} onChange={(event) => setPath(event.target.value)} />
        <button type="submit" className="button">
          {text.show}
        </button>
      </form>
      <p role="status" className={notice ? `banner banner-${notice.kind}` : undefined}>
        {notice?.text}
      </p>
      <iframe
        key={loads}
        ref={frame}
        className="admin-visual-frame"
        title={text.frameTitle}
        src={`/api/admin/visual?path=${encodeURIComponent(shown)}`}
        onLoad={prepare}
      />
    </div>
  );
}
