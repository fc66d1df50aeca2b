/**
 * The media library of /admin/media (media-library.ts): every image once, with its thumbnail, size
 * and the entries that use it (links to the editor), its description in each of the site's
 * languages, and its focal point: a click on the image, the arrow keys on it, or two number fields,
 * with the crops it gives a card (16:9) and a social card (1200×630) beside it. Save sends the
 * image's version (If-Match); Delete is disabled, with the reason, while an entry uses the image.
 * With `admin.review`, an editor's save waits for an admin (202): the changes waiting are listed
 * above the images (ReviewQueue.tsx), where an admin approves or rejects them.
 *
 * The marker and the previews are placed with `style`, which the strict CSP allows here because
 * React sets it through the DOM (CSSOM) after the list loads: no inline style is in the markup.
 */
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { callApi, type AdminSession } from './admin-client';
import { AdminBar, usePageSession } from './admin-bar';
import ReviewQueue, { type ReviewQueueProps } from './ReviewQueue';

/** The copy keys of the library (content/pages/admin/media/<locale>.yaml, `media:`). */
export const adminMediaText = [
  'loading',
  'unavailable',
  'signedInAs',
  'signOut',
  'failed',
  'empty',
  'images',
  'size',
  'usedIn',
  'notUsed',
  'alt',
  'altHint',
  'focus',
  'focusHint',
  'focusX',
  'focusY',
  'previewCard',
  'previewSocial',
  'save',
  'saving',
  'saved',
  'savedDev',
  'rebuildFailed',
  'heldForReview',
  'conflict',
  'invalid',
  'delete',
  'confirmDelete',
  'deleted',
  'deleteUsed',
] as const;

interface Use {
  collection: string;
  slug: string;
  locale: string;
  title: string;
}
interface Image {
  id: string;
  file: string;
  path: string;
  width: number;
  height: number;
  bytes: number;
  uses: Use[];
  alt: Record<string, string>;
  focus: { x: number; y: number } | null;
  version: string;
}

export interface AdminMediaProps {
  signIn: string;
  /** The site's languages, default first (`lang`: the HTML language of its texts). */
  locales: { id: string; label: string; lang: string }[];
  /** The blog editor, where a use links to. */
  editor: string;
  text: Record<(typeof adminMediaText)[number], string>;
  /** The copy of the changes waiting for review (ReviewQueue.tsx). */
  review: ReviewQueueProps['text'];
}

const percentOf = (fraction: number) => Math.round(fraction * 100);

export default function AdminMedia(props: AdminMediaProps) {
  const { text } = props;
  const [images, setImages] = useState<Image[] | undefined>();
  const [failed, setFailed] = useState(false);
  /** Said after a deletion, whose card is then gone. */
  const [notice, setNotice] = useState('');
  /** Read the changes waiting for review again after a save was held (the queue loads when mounted). */
  const [held, setHeld] = useState(0);
  const state = usePageSession(props.signIn, 'editor', () => void load());

  async function load() {
    const answer = await callApi<{ images: Image[] }>('GET', '/api/admin/media');
    if (answer.status === 401) return location.assign(props.signIn);
    if (answer.status !== 200) return setFailed(true);
    setFailed(false);
    setImages(answer.body.images);
  }

  if (state === 'loading') return <p role="status">{text.loading}</p>;
  if (state === 'unavailable')
    return (
      <p className="banner banner-info" role="status">
        {text.unavailable}
      </p>
    );
  const bar = <AdminBar session={state.session} signIn={props.signIn} text={text} />;
  if (!images)
    return (
      <>
        {bar}
        <p role="status" className={failed ? 'banner banner-error' : undefined}>
          {failed ? text.failed : text.loading}
        </p>
      </>
    );
  return (
    <div className="admin-media">
      {bar}
      <p role="status" className={notice ? 'banner banner-success' : 'visually-hidden'}>
        {notice}
      </p>
      <ReviewQueue
        key={held}
        api="/api/admin/media"
        csrf={state.session.csrfToken}
        decides={state.session.user.role === 'admin'}
        languages={Object.fromEntries(props.locales.map(({ id, label }) => [id, label]))}
        text={props.review}
        onDecided={() => void load()}
      />
      {images.length === 0 ? (
        <p role="status">{text.empty}</p>
      ) : (
        <ul className="media-list" aria-label={text.images}>
          {images.map((image) => (
            <li key={image.id}>
              <MediaItem
                image={image}
                session={state.session}
                props={props}
                reload={load}
                deleted={() => setNotice(text.deleted.replace('{file}', image.file))}
                held={() => setHeld((count) => count + 1)}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One image: its facts, uses, descriptions and focal point, with Save and Delete. */
function MediaItem({
  image,
  session,
  props,
  reload,
  deleted,
  held,
}: {
  image: Image;
  session: AdminSession;
  props: AdminMediaProps;
  reload(): Promise<void>;
  deleted(): void;
  held(): void;
}) {
  const { text } = props;
  const [alt, setAlt] = useState<Record<string, string>>(image.alt);
  const [focus, setFocus] = useState(image.focus ?? { x: 0.5, y: 0.5 });
  const [status, setStatus] = useState<{ kind: 'info' | 'error' | 'success'; message: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const id = `media-${image.id}`;
  const thumbnail = `/api/admin/media/${image.id}/thumbnail`;
  const place = (x: number, y: number) =>
    setFocus({
      x: Math.min(1, Math.max(0, Math.round(x * 100) / 100)),
      y: Math.min(1, Math.max(0, Math.round(y * 100) / 100)),
    });
  const position = `${percentOf(focus.x)}% ${percentOf(focus.y)}%`;

  function pick(event: MouseEvent<HTMLButtonElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    place((event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height);
  }
  function nudge(event: KeyboardEvent<HTMLButtonElement>) {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-0.05, 0],
      ArrowRight: [0.05, 0],
      ArrowUp: [0, -0.05],
      ArrowDown: [0, 0.05],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    place(focus.x + move[0], focus.y + move[1]);
  }
  async function save() {
    setBusy(true);
    setStatus({ kind: 'info', message: text.saving });
    const answer = await callApi('PUT', `/api/admin/media/${image.id}`, {
      csrf: session.csrfToken,
      ifMatch: image.version,
      body: { alt, focus },
    });
    setBusy(false);
    if (answer.status === 200) {
      // What happened, as it happened: rebuilt and live (serve), rebuilding (dev's watcher), or kept out by a failed build.
      const outcome = answer.body as { rebuilt?: boolean; ok?: boolean; ms?: number };
      if (outcome.rebuilt && outcome.ok === false) setStatus({ kind: 'error', message: text.rebuildFailed });
      else
        setStatus({
          kind: 'success',
          message: outcome.rebuilt ? text.saved.replace('{ms}', String(outcome.ms ?? 0)) : text.savedDev,
        });
      return reload();
    }
    if (answer.status === 202) {
      setStatus({ kind: 'info', message: text.heldForReview });
      return held();
    }
    setStatus({ kind: 'error', message: answer.status === 409 ? text.conflict : text.invalid });
  }
  async function remove() {
    if (!confirm(text.confirmDelete.replace('{file}', image.file))) return;
    setBusy(true);
    const answer = await callApi('DELETE', `/api/admin/media/${image.id}`, { csrf: session.csrfToken });
    setBusy(false);
    if (answer.status === 200) {
      deleted();
      return reload();
    }
    setStatus({ kind: 'error', message: answer.status === 409 ? text.deleteUsed : text.invalid });
  }

  const editorLink = (use: Use) => `${props.editor}?${new URLSearchParams({ post: use.slug, locale: use.locale })}`;
  const language = (locale: string) => props.locales.find((each) => each.id === locale)?.label ?? locale;
  return (
    <article className="media-item" aria-labelledby={`${id}-name`}>
      <h2 id={`${id}-name`}>{image.file}</h2>
      <p className="muted">
        {text.size
          .replace('{width}', String(image.width))
          .replace('{height}', String(image.height))
          .replace('{size}', `${Math.max(1, Math.round(image.bytes / 1024))} KB`)}
      </p>
      <div className="media-focus">
        <button
          type="button"
          className="media-focus-picker"
          aria-describedby={`${id}-focus-hint`}
          aria-label={`${text.focus}: ${position}`}
          onClick={pick}
          onKeyDown={nudge}
        >
          <img src={thumbnail} alt="" width={image.width} height={image.height} />
          <span
            className="media-focus-marker"
            aria-hidden="true"
            style={{ left: `${focus.x * 100}%`, top: `${focus.y * 100}%` }}
          />
        </button>
        <p id={`${id}-focus-hint`} className="muted">
          {text.focusHint}
        </p>
        <div className="media-focus-fields">
          <div className="field">
            <label htmlFor={`${id}-x`}>{text.focusX}</label>
            <input
              id={`${id}-x`}
              type="number"
              min={0}
              max={100}
              step={1}
              value={percentOf(focus.x)}
              onChange={(event) => place(Number(event.currentTarget.value) / 100, focus.y)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-y`}>{text.focusY}</label>
            <input
              id={`${id}-y`}
              type="number"
              min={0}
              max={100}
              step={1}
              value={percentOf(focus.y)}
              onChange={(event) => place(focus.x, Number(event.currentTarget.value) / 100)}
            />
          </div>
        </div>
        <div className="media-previews">
          <figure>
            <img className="media-preview-card" src={thumbnail} alt="" style={{ objectPosition: position }} />
            <figcaption>{text.previewCard}</figcaption>
          </figure>
          <figure>
            <img className="media-preview-social" src={thumbnail} alt="" style={{ objectPosition: position }} />
            <figcaption>{text.previewSocial}</figcaption>
          </figure>
        </div>
      </div>
      <h3>{text.usedIn}</h3>
      {image.uses.length === 0 ? (
        <p className="muted">{text.notUsed}</p>
      ) : (
        <ul className="media-uses">
          {image.uses.map((use) => (
            <li key={`${use.slug}/${use.locale}`}>
              <a href={editorLink(use)}>{use.title}</a> ({language(use.locale)})
            </li>
          ))}
        </ul>
      )}
      {props.locales.map((locale) => (
        <div className="field" key={locale.id}>
          <label htmlFor={`${id}-alt-${locale.id}`}>{text.alt.replace('{language}', locale.label)}</label>
          <textarea
            id={`${id}-alt-${locale.id}`}
            lang={locale.lang}
            rows={2}
            aria-describedby={`${id}-alt-hint`}
            value={alt[locale.id] ?? ''}
            onInput={(event) => setAlt({ ...alt, [locale.id]: event.currentTarget.value })}
          />
        </div>
      ))}
      <p id={`${id}-alt-hint`} className="muted">
        {text.altHint}
      </p>
      {status && (
        <p className={`banner banner-${status.kind}`} role={status.kind === 'error' ? 'alert' : 'status'}>
          {status.message}
        </p>
      )}
      <div className="media-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void save()}>
          {text.save}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy || image.uses.length > 0}
          aria-describedby={image.uses.length ? `${id}-delete-why` : undefined}
          onClick={() => void remove()}
        >
          {text.delete}
        </button>
        {image.uses.length > 0 && (
          <p id={`${id}-delete-why`} className="muted">
            {text.deleteUsed}
          </p>
        )}
      </div>
    </article>
  );
}
