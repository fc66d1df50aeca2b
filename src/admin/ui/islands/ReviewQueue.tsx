/**
 * The changes waiting for review (`admin.review`, src/admin/review.ts) above a collection's list in
 * the content editor, the pages' texts and the media library: each held change with its item,
 * language, author and time (a deletion and a rename said as such), what it changes (a disclosure
 * with the diff against what is published), and for admins a note and Approve / Reject; an editor
 * sees their own changes waiting. Nothing is shown while none waits (or review is off). After a
 * decision the list and the screen's items are read again (`onDecided`). With `queue`, it is the one
 * queue of every API's changes (the changes screen's), each said in words with the file behind a disclosure.
 */
import { useEffect, useState } from 'react';
import { callApi } from './admin-client';
import { when } from './admin-dates';
import { ChangeList, DiffLines, type ChangeInWords, type ChangeListText } from './History';

/** The copy keys of the review queue (the blog screen's `review:` block). */
export const reviewText = [
  'heading',
  'help',
  'entry',
  'item',
  'deletion',
  'rename',
  'note',
  'approve',
  'reject',
  'approved',
  'rejected',
  'stale',
  'failed',
  'show',
] as const;

/** The copy keys of the one queue of every change (the changes screen's `review:` block): the review's and the change list's. */
export const reviewQueueText = [...reviewText, 'what', 'before', 'after', 'showFile'] as const;

export interface ReviewQueueProps {
  /** The API address the changes are under (`/api/admin/collections/<id>`, `/api/admin/pages`, `/api/admin/media`). */
  api: string;
  csrf: string | undefined;
  /** Whether the reader may decide (an admin). */
  decides: boolean;
  /** Names of the languages, by id. */
  languages: Record<string, string>;
  text: Record<(typeof reviewText)[number], string>;
  /** The one queue of every API's changes (`/api/admin/review-queue`): `api` is the queue itself, not an API with `reviews` under it. */
  queue?: boolean;
  /** The change list's words, to show a change in words (what, before, after) with its file behind a disclosure. */
  words?: ChangeListText;
  onDecided(): void;
}

interface Held {
  id: string;
  slug: string;
  locale: string;
  by: string;
  at: string;
  stale: boolean;
  diff: string;
  /** The queue's kind (page, entry, entry-delete, …), or an API's (save, delete, rename). */
  kind?: string;
  /** What the change does (the queue's; an API says it as `kind`). */
  action?: 'save' | 'delete' | 'rename';
  /** The queue's item: a page's content id, an image's id, or `<collection>/<slug>`. */
  item?: string;
  name?: string;
  to?: string;
  changes?: ChangeInWords[];
}

export default function ReviewQueue({
  api,
  csrf,
  decides,
  languages,
  text,
  queue,
  words,
  onDecided,
}: ReviewQueueProps) {
  const [changes, setChanges] = useState<Held[]>([]);
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);

  const load = async () => {
    const answer = await callApi<{ changes: Held[] }>('GET', queue ? api : `${api}/reviews`);
    if (answer.status === 200) setChanges(answer.body.changes);
  };
  useEffect(() => void load(), [api]);

  async function decide(change: Held, verb: 'approve' | 'reject') {
    setBusy(true);
    const note = notes[change.id]?.trim();
    const answer = await callApi<{ message?: string }>(
      'POST',
      `${api}${queue ? '' : '/reviews'}/${change.id}/${verb}`,
      {
        body: note ? { note } : {},
        csrf,
      },
    );
    setBusy(false);
    if (answer.status === 200) {
      setSaid(
        (verb === 'approve' ? text.approved : text.rejected).replace(
          '{entry}',
          change.name ?? change.item ?? change.slug,
        ),
      );
      await load();
      onDecided();
    } else
      setSaid(
        answer.status === 409
          ? text.stale
          : text.failed.replace('{reason}', answer.body?.message ?? `HTTP ${answer.status}`),
      );
  }

  /** The change in words: its item (and language), what it does, who made it and when. */
  const describe = (change: Held) => {
    const action = change.action ?? change.kind;
    const line =
      action === 'rename'
        ? text.rename.replace('{to}', change.to ?? '')
        : action === 'delete'
          ? text.deletion
          : change.locale
            ? text.entry
            : text.item;
    return line
      .replace('{entry}', change.name ?? change.item ?? change.slug)
      .replace('{language}', languages[change.locale] ?? change.locale)
      .replace('{by}', change.by)
      .replace('{at}', when(change.at));
  };

  if (changes.length === 0)
    return said ? (
      <p className="banner banner-info" role="status">
        {said}
      </p>
    ) : null;
  return (
    <section className="admin-review" aria-labelledby="review-heading">
      <h2 id="review-heading">{text.heading}</h2>
      <p className="muted">{text.help}</p>
      <p role="status" className={said ? 'banner banner-info' : 'visually-hidden'}>
        {said}
      </p>
      <ul className="admin-review-list">
        {changes.map((change) => (
          <li key={change.id} className="admin-review-item">
            <p id={`review-${change.id}`}>
              <strong>{describe(change)}</strong>
            </p>
            {change.stale && <p className="field-error">{text.stale}</p>}
            <details>
              <summary>{text.show}</summary>
              {words ? (
                <ChangeList changes={change.changes} diff={change.diff} text={words} />
              ) : (
                <DiffLines diff={change.diff} />
              )}
            </details>
            {decides && (
              <div className="field">
                <label htmlFor={`review-note-${change.id}`}>{text.note}</label>
                <textarea
                  id={`review-note-${change.id}`}
                  rows={2}
                  className="input-wide"
                  value={notes[change.id] ?? ''}
                  onInput={(event) => {
                    const value = event.currentTarget.value;
                    setNotes((all) => ({ ...all, [change.id]: value }));
                  }}
                />
                <p className="admin-review-actions">
                  <button
                    type="button"
                    className="button button-primary"
                    disabled={busy || change.stale}
                    aria-describedby={`review-${change.id}`}
                    onClick={() => void decide(change, 'approve')}
                  >
                    {text.approve}
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={busy}
                    aria-describedby={`review-${change.id}`}
                    onClick={() => void decide(change, 'reject')}
                  >
                    {text.reject}
                  </button>
                </p>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
