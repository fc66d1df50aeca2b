/**
 * The history of one item (a post in a language, a page's copy, the settings), under its editor:
 * a disclosure that lists the versions earlier saves replaced (when, in the reader's own locale
 * and time zone; who; what that save changed, in words), shows what restoring one would change (in
 * words, the file diff behind *Show the file*: `ChangeList`, which the other screens' diffs use too), and
 * restores it after a confirm step. A restore is a save (src/admin/history.ts): the editor reads
 * the item again through `onRestored`. Its copy is each screen's `history:` block.
 */
import { when } from './admin-dates';
import { useEffect, useRef, useState } from 'react';
import { callApi } from './admin-client';

/** The copy keys of the history panel. */
export const historyText = [
  'heading',
  'help',
  'loading',
  'empty',
  'failed',
  'replaced',
  'changed',
  'show',
  'hide',
  'diffHelp',
  'restore',
  'confirm',
  'confirmYes',
  'cancel',
  'restoring',
  'restored',
  'stale',
  'notRestored',
  'what',
  'before',
  'after',
  'showFile',
  'yes',
  'no',
  'none',
] as const;

/** The texts of a list of changes in words (`what`, `before`, `after`: its columns; `showFile`: the file diff's disclosure). */
export type ChangeListText = Record<'what' | 'before' | 'after' | 'showFile', string>;

/** A change in words, as the APIs answer it (src/admin/change-words.ts). */
export interface ChangeInWords {
  label: string;
  before: string;
  after: string;
}

/**
 * The changes in words (what changed, before, after), with the file diff behind *Show the file*;
 * only the file diff when the API gave no changes in words (a file that does not read).
 */
export function ChangeList({
  changes,
  diff,
  text,
  fileHelp,
}: {
  changes: readonly ChangeInWords[] | undefined;
  diff: string;
  text: ChangeListText;
  /** What the file diff shows, above it. */
  fileHelp?: string;
}) {
  const file = (
    <>
      {fileHelp && <p>{fileHelp}</p>}
      <DiffLines diff={diff} />
    </>
  );
  if (!changes?.length) return file;
  return (
    <div className="admin-change-list">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">{text.what}</th>
            <th scope="col">{text.before}</th>
            <th scope="col">{text.after}</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change, index) => (
            <tr key={index}>
              <th scope="row" data-label={text.what}>
                {change.label}
              </th>
              <td data-label={text.before}>
                <del>{change.before}</del>
              </td>
              <td data-label={text.after}>
                <ins>{change.after}</ins>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <details className="admin-change-file">
        <summary>{text.showFile}</summary>
        {file}
      </details>
    </div>
  );
}

/** What the panel needs: the item's API address, the session's CSRF token, the version the editor has. */
export interface HistoryProps {
  api: string;
  csrf: string | undefined;
  version: string;
  text: Record<(typeof historyText)[number], string>;
  /** After a restore: the editor reads the item again. */
  onRestored(): void;
}

interface Version {
  id: string;
  by: string;
  at: string;
  summary: string;
  /** What that save changed, in words. */
  changes?: ChangeInWords[];
}

/** The lines of a unified diff, the added and removed ones marked (admin.css colours them). */
export function DiffLines({ diff }: { diff: string }) {
  return (
    <pre className="admin-diff" tabIndex={0}>
      {diff
        .replace(/\n$/, '')
        .split('\n')
        .map((line, index) => (
          <span
            key={index}
            className={
              line.startsWith('+') && !line.startsWith('+++')
                ? 'diff-added'
                : line.startsWith('-') && !line.startsWith('---')
                  ? 'diff-removed'
                  : undefined
            }
          >
            {line}
          </span>
        ))}
    </pre>
  );
}

export default function History({ api, csrf, version, text, onRestored }: HistoryProps) {
  const [versions, setVersions] = useState<Version[] | 'loading' | 'failed'>('loading');
  /** The version whose changes are shown, with its diff; `confirming` once Restore was pressed. */
  const [shown, setShown] = useState<
    { id: string; diff: string; changes?: ChangeInWords[]; confirming: boolean } | undefined
  >();
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const restoreRef = useRef<HTMLButtonElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  /** Where the focus goes once the button that had it is gone. */
  const focusLater = (target: { current: HTMLElement | null }) => requestAnimationFrame(() => target.current?.focus());

  /** The newest read of the list: an older one answered later (a slow store) is not shown over it. */
  const readRef = useRef(0);
  async function load() {
    const read = ++readRef.current;
    const answer = await callApi<{ versions: Version[] }>('GET', `${api}/history`);
    if (read === readRef.current) setVersions(answer.status === 200 ? answer.body.versions : 'failed');
  }

  // Read while open, and again after each save (a new version), so the list is never behind the editor.
  useEffect(() => {
    if (open) void load();
  }, [open, version]);

  async function show(id: string) {
    if (shown?.id === id) return setShown(undefined);
    const answer = await callApi<{ diff: string; changes?: ChangeInWords[] }>('GET', `${api}/history/${id}`);
    if (answer.status !== 200) return setNotice(text.failed);
    setShown({ id, diff: answer.body.diff, changes: answer.body.changes, confirming: false });
  }

  async function restore(id: string) {
    setBusy(true);
    const answer = await callApi<{ errors?: { message: string }[] }>('POST', `${api}/restore`, {
      body: { version: id },
      csrf,
      ifMatch: version,
    });
    setBusy(false);
    setShown(undefined);
    focusLater(summaryRef);
    if (answer.status === 200) {
      setNotice(text.restored);
      return onRestored();
    }
    setNotice(
      answer.status === 409
        ? text.stale
        : [text.notRestored, ...(answer.body?.errors ?? []).map((error) => error.message)].join(' '),
    );
  }

  const list =
    versions === 'loading' ? (
      <p role="status">{text.loading}</p>
    ) : versions === 'failed' ? (
      <p className="banner banner-error" role="alert">
        {text.failed}
      </p>
    ) : !versions.length ? (
      <p>{text.empty}</p>
    ) : (
      <ol className="admin-history-list">
        {versions.map((entry) => (
          <li key={entry.id}>
            <p>
              <strong id={`history-${entry.id}`}>
                {text.replaced.replace('{time}', when(entry.at)).replace('{user}', entry.by)}
              </strong>
              <br />
              {text.changed.replace(
                '{summary}',
                entry.changes?.length ? entry.changes.map((change) => change.label).join(', ') : entry.summary,
              )}
            </p>
            <p className="admin-history-actions">
              <button
                type="button"
                className="button button-secondary"
                aria-expanded={shown?.id === entry.id}
                aria-describedby={`history-${entry.id}`}
                onClick={() => void show(entry.id)}
              >
                {shown?.id === entry.id ? text.hide : text.show}
              </button>
            </p>
            {shown?.id === entry.id && (
              <div className="admin-history-version">
                <p id={`history-diff-${entry.id}`}>{text.diffHelp}</p>
                <ChangeList changes={shown.changes} diff={shown.diff} text={text} />
                {shown.confirming ? (
                  <div className="banner banner-info" role="group" aria-labelledby={`history-confirm-${entry.id}`}>
                    <p id={`history-confirm-${entry.id}`}>{text.confirm.replace('{time}', when(entry.at))}</p>
                    <p className="admin-history-actions">
                      <button
                        type="button"
                        ref={confirmRef}
                        className="button button-primary"
                        disabled={busy}
                        onClick={() => void restore(entry.id)}
                      >
                        {busy ? text.restoring : text.confirmYes}
                      </button>
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() => {
                          setShown({ ...shown, confirming: false });
                          focusLater(restoreRef);
                        }}
                      >
                        {text.cancel}
                      </button>
                    </p>
                  </div>
                ) : (
                  <p className="admin-history-actions">
                    <button
                      type="button"
                      ref={restoreRef}
                      className="button button-primary"
                      aria-describedby={`history-${entry.id}`}
                      onClick={() => {
                        setShown({ ...shown, confirming: true });
                        focusLater(confirmRef);
                      }}
                    >
                      {text.restore}
                    </button>
                  </p>
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
    );

  return (
    <details className="admin-history" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary ref={summaryRef}>{text.heading}</summary>
      <p className="muted">{text.help}</p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {notice}
      </p>
      {notice && (
        <p className="banner banner-info" aria-hidden="true">
          {notice}
        </p>
      )}
      {list}
    </details>
  );
}
