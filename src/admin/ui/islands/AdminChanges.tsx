/**
 * The changes of /admin/changes: the admin's audit log, newest first (when, who, what, which post
 * and language or inbox item), with a button for older entries. What changed is said in words (the
 * settings by the parts of the settings page they are in), and the item is a link to where it is
 * edited (a post opens in the editor in its language). Above it, the one queue of every change waiting
 * for review (ReviewQueue.tsx, in words). Admins only: an editor is told so.
 */
import { useState } from 'react';
import { callApi } from './admin-client';
import { AdminBar, usePageSession } from './admin-bar';
import ReviewQueue, { type reviewQueueText } from './ReviewQueue';

/** The copy keys of the changes view (content/pages/admin/changes/en.yaml, `changes:`), besides `actions`. */
export const adminChangesText = [
  'loading',
  'unavailable',
  'signedInAs',
  'signOut',
  'forbidden',
  'failed',
  'changes',
  'when',
  'who',
  'what',
  'which',
  'language',
  'empty',
  'more',
  'inboxItem',
  'settingsItem',
  'kindContact',
  'kindBooking',
  'note',
] as const;

/** One entry as `GET /api/admin/changes` gives it. */
interface Change {
  time: string;
  user: string;
  action: string;
  collection?: string;
  image?: string;
  slug?: string;
  locale?: string;
  id?: string;
  kind?: string;
  count?: number;
  to?: string;
  page?: string;
  paths?: string[];
  author?: string;
  note?: string;
}

/** Everything the changes view shows, from the config and the page's copy. */
export interface AdminChangesProps {
  signIn: string;
  dateLocale: string;
  /** Names of the site's languages. */
  languages: Record<string, string>;
  text: Record<(typeof adminChangesText)[number], string>;
  /** What each logged action is called ({count}, {author}, {note} and, for the settings, {sections} are filled in); an action not listed shows its name. */
  actions: Record<string, string>;
  /** The parts of the settings page, by the first part of a setting's path (`copy` for page texts). */
  sections: Record<string, string>;
  /** Where posts, the settings, the inbox, the pages' texts and the images are edited. */
  links: { blog: string; settings: string; inbox: string; pages: string; media: string };
  /** The one queue of the changes waiting for review (`admin.review`), above the log; nothing shows while none waits. */
  review: Record<(typeof reviewQueueText)[number], string>;
}

/** The settings page's part a changed setting is in: "plans.1.price" → plans, "data.…" (the site's own) → data, "hub/pricing:addon.heading" → copy. */
const sectionOf = (path: string) => (path.includes(':') ? 'copy' : path.split('.')[0]!);

/** Entries asked for at a time. */
const pageSize = 100;

export default function AdminChanges(props: AdminChangesProps) {
  const { text } = props;
  const [changes, setChanges] = useState<{ items: Change[]; more: boolean } | undefined>();
  const [failed, setFailed] = useState(false);
  const state = usePageSession(props.signIn, 'admin', () => void load(pageSize));

  async function load(limit: number) {
    const answer = await callApi<{ items: Change[]; more: boolean }>('GET', `/api/admin/changes?limit=${limit}`);
    if (answer.status === 401) return location.assign(props.signIn);
    if (answer.status !== 200) return setFailed(true);
    setFailed(false);
    setChanges(answer.body);
  }

  if (state === 'loading') return <p role="status">{text.loading}</p>;
  if (state === 'unavailable')
    return (
      <p className="banner banner-info" role="status">
        {text.unavailable}
      </p>
    );
  const bar = <AdminBar session={state.session} signIn={props.signIn} text={text} />;
  if (!state.allowed)
    return (
      <>
        {bar}
        <p className="banner banner-info" role="status">
          {text.forbidden}
        </p>
      </>
    );
  if (!changes)
    return (
      <>
        {bar}
        <p role="status" className={failed ? 'banner banner-error' : undefined}>
          {failed ? text.failed : text.loading}
        </p>
      </>
    );

  const format = new Intl.DateTimeFormat(props.dateLocale, { dateStyle: 'medium', timeStyle: 'medium' });
  const what = (change: Change) => {
    const sections = [
      ...new Set((change.paths ?? []).map((path) => props.sections[sectionOf(path)] ?? sectionOf(path))),
    ].join(', ');
    const note = change.note ? text.note.replace('{note}', change.note) : '';
    return (props.actions[change.action] ?? change.action)
      .replace('{count}', String(change.count ?? 0))
      .replace('{sections}', sections)
      .replace('{author}', change.author ?? '')
      .replace('{note}', note);
  };
  /** The changed item, linked to where it is edited. */
  const which = (change: Change) => {
    const slug = change.to ?? change.slug;
    if (change.page)
      return (
        <a
          href={`${props.links.pages}?${new URLSearchParams({ page: change.page, ...(change.locale ? { locale: change.locale } : {}) })}`}
        >
          {change.page}
        </a>
      );
    if (change.image && !slug) return <a href={props.links.media}>{change.image}</a>;
    if (slug)
      return (
        <a
          href={`${props.links.blog}?${new URLSearchParams({ ...(change.collection ? { collection: change.collection } : {}), post: slug, ...(change.locale ? { locale: change.locale } : {}) })}`}
        >
          {slug}
        </a>
      );
    if (!slug && (change.action === 'settings' || change.action === 'restore' || change.action.startsWith('git-')))
      return <a href={props.links.settings}>{text.settingsItem}</a>;
    if (change.id)
      return (
        <a href={props.links.inbox}>
          {change.kind === 'booking' ? text.kindBooking : change.kind === 'contact' ? text.kindContact : text.inboxItem}
        </a>
      );
    return '';
  };
  return (
    <div className="admin-changes">
      {bar}
      <ReviewQueue
        api="/api/admin/review-queue"
        queue
        csrf={state.session.csrfToken}
        decides
        languages={props.languages}
        text={props.review}
        words={props.review}
        onDecided={() => void load(pageSize)}
      />
      {failed && (
        <p className="banner banner-error" role="alert">
          {text.failed}
        </p>
      )}
      {changes.items.length === 0 ? (
        <p role="status">{text.empty}</p>
      ) : (
        <div className="admin-table-scroll" role="region" aria-labelledby="changes-caption" tabIndex={0}>
          <table className="admin-posts">
            <caption id="changes-caption">{text.changes}</caption>
            <thead>
              <tr>
                <th scope="col">{text.when}</th>
                <th scope="col">{text.who}</th>
                <th scope="col">{text.what}</th>
                <th scope="col">{text.which}</th>
                <th scope="col">{text.language}</th>
              </tr>
            </thead>
            <tbody>
              {changes.items.map((change, index) => (
                <tr key={`${change.time}-${index}`}>
                  <td data-label={text.when}>
                    <time dateTime={change.time}>
                      {Number.isFinite(Date.parse(change.time)) ? format.format(Date.parse(change.time)) : change.time}
                    </time>
                  </td>
                  <td data-label={text.who}>{change.user}</td>
                  <th scope="row">{what(change)}</th>
                  <td data-label={text.which}>{which(change)}</td>
                  <td data-label={text.language}>
                    {change.locale ? (props.languages[change.locale] ?? change.locale) : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {changes.more && (
        <p>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void load(changes.items.length + pageSize)}
          >
            {text.more}
          </button>
        </p>
      )}
    </div>
  );
}
