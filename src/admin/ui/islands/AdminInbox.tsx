/**
 * The inbox of /admin/inbox: what visitors sent (contact-form messages and meeting requests),
 * newest first, with search, filters by kind and handled state, mark handled / not handled,
 * delete (after a confirmation), and a CSV export of what is shown. Admins only: an editor is told
 * so. Results and changes are announced in status regions; after a row disappears, focus moves to
 * the announcement.
 */
import { useRef, useState } from 'react';
import { matchesInboxFilter, type InboxFilter, type InboxItem } from 'typed-site/inbox-filter';
import { callApi } from './admin-client';
import { AdminBar, usePageSession } from './admin-bar';

/** The copy keys of the inbox (content/pages/admin/inbox/en.yaml, `inbox:`). */
export const adminInboxText = [
  'loading',
  'unavailable',
  'signedInAs',
  'signOut',
  'forbidden',
  'failed',
  'search',
  'filterKind',
  'filterHandled',
  'all',
  'kindContact',
  'kindBooking',
  'handled',
  'unhandled',
  'showing',
  'empty',
  'noMatch',
  'items',
  'received',
  'from',
  'message',
  'status',
  'actions',
  'markHandled',
  'markUnhandled',
  'delete',
  'confirmDelete',
  'deleted',
  'markedHandled',
  'markedUnhandled',
  'exportCsv',
  'meeting',
  'company',
  'type',
  'subject',
  'language',
  'gone',
  'page',
  'audience',
  'deliverySent',
  'deliveryPending',
  'deliveryFailed',
  'retryDelivery',
  'retriedSent',
  'retriedFailed',
  'notificationsOff',
] as const;

/** Everything the inbox shows, from the config and the page's copy. */
export interface AdminInboxProps {
  signIn: string;
  /** The locale whose date and time format the list uses. */
  dateLocale: string;
  /** Labels of the contact form's enquiry types. */
  types: Record<string, string>;
  /** Names of the site's languages. */
  languages: Record<string, string>;
  /** The site's home ("/", or "/base/" under a base path): taken off a page's path first. */
  home: string;
  /** The languages' path prefixes without their slash ("no"), taken off a page's path before its audience is found. */
  prefixes: string[];
  /** The site's audiences: the folder their pages are under, without its slash ("hub"), and their name. */
  audiences: { folder: string; label: string }[];
  /** The IANA time zone meetings are booked in: their times are shown in it. */
  timeZone: string;
  text: Record<(typeof adminInboxText)[number], string>;
}

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
const textOf = (item: InboxItem, field: string) => (typeof item[field] === 'string' ? (item[field] as string) : '');
/**
 * The link of a stored page (what a visitor's form sent), or undefined when it is not a path that
 * the browser resolves on the site's own origin (`origin`, the admin's). The endpoints store only
 * plain paths now, but a row stored before they checked may hold "/\\evil.example", which a
 * browser reads as "//evil.example": resolved the browser's way, it is another origin, so no link.
 */
export function pageLink(page: string, origin: string): string | undefined {
  if (!page.startsWith('/')) return undefined;
  let url: URL;
  try {
    url = new URL(page, origin);
  } catch {
    return undefined;
  }
  return url.origin === new URL(origin).origin ? `${url.pathname}${url.search}${url.hash}` : undefined;
}
const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** The name of the audience whose pages `page` is on (its language's prefix taken off first), if any. */
export function audienceOf(
  page: string,
  props: Pick<AdminInboxProps, 'home' | 'prefixes' | 'audiences'>,
): string | undefined {
  const root = props.home.replace(/\/$/, '');
  const inSite = root && under(page, root) ? page.slice(root.length) || '/' : page;
  const prefix = props.prefixes.find((candidate) => under(inSite, `/${candidate}`));
  const path = prefix ? inSite.slice(prefix.length + 1) || '/' : inSite;
  return props.audiences.find((audience) => under(path, `/${audience.folder}`))?.label;
}

export default function AdminInbox(props: AdminInboxProps) {
  const { text } = props;
  const [items, setItems] = useState<InboxItem[] | undefined>();
  const [failed, setFailed] = useState(false);
  const [filter, setFilter] = useState<InboxFilter>({ search: '', kind: '', handled: '' });
  const [notice, setNotice] = useState('');
  // While a change is under way its buttons are aria-disabled, not disabled: a disabled button would drop the keyboard focus.
  const [busy, setBusy] = useState<string | undefined>();
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const state = usePageSession(props.signIn, 'admin', () => void refresh());
  const csrf = typeof state === 'object' ? state.session.csrfToken : undefined;

  async function refresh() {
    const answer = await callApi<{ items: InboxItem[] }>('GET', '/api/admin/inbox');
    if (answer.status === 401) return location.assign(props.signIn);
    if (answer.status !== 200) return setFailed(true);
    setFailed(false);
    setItems(answer.body.items);
  }

  const format = (iso: string, timeZone?: string) => {
    const time = Date.parse(iso);
    return Number.isFinite(time)
      ? new Intl.DateTimeFormat(props.dateLocale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(time)
      : iso;
  };
  const nameOf = (item: InboxItem) =>
    `${textOf(item, 'firstName')} ${textOf(item, 'lastName')}`.trim() || textOf(item, 'email');

  /** Announces `message`; when the row that had focus is gone, focus goes to the announcement. */
  function announce(message: string, rowGone: boolean) {
    setNotice(message);
    if (rowGone) requestAnimationFrame(() => noticeRef.current?.focus());
  }

  async function setHandled(item: InboxItem, handled: boolean) {
    if (busy) return;
    setBusy(item.id);
    const answer = await callApi<{ item: InboxItem }>('PATCH', `/api/admin/inbox/${item.id}`, {
      body: { handled },
      csrf,
    });
    setBusy(undefined);
    if (answer.status === 200) {
      const next = (items ?? []).map((candidate) => (candidate.id === item.id ? answer.body.item : candidate));
      setItems(next);
      announce(handled ? text.markedHandled : text.markedUnhandled, !matchesInboxFilter(answer.body.item, filter));
    } else if (answer.status === 404) {
      setItems((items ?? []).filter((candidate) => candidate.id !== item.id));
      announce(text.gone, true);
    } else if (answer.status === 401) location.assign(props.signIn);
    else announce(text.failed, false);
  }

  async function remove(item: InboxItem) {
    if (busy || !confirm(fill(text.confirmDelete, { name: nameOf(item), date: format(item.receivedAt) }))) return;
    setBusy(item.id);
    const answer = await callApi('DELETE', `/api/admin/inbox/${item.id}`, { csrf });
    setBusy(undefined);
    if (answer.status === 200 || answer.status === 404) {
      setItems((items ?? []).filter((candidate) => candidate.id !== item.id));
      announce(answer.status === 200 ? fill(text.deleted, { name: nameOf(item) }) : text.gone, true);
    } else if (answer.status === 401) location.assign(props.signIn);
    else announce(text.failed, false);
  }

  /** Sends an item's failed notifications again, and says how it went. */
  async function retryDelivery(item: InboxItem) {
    if (busy) return;
    setBusy(item.id);
    const answer = await callApi<{ item: InboxItem }>('POST', `/api/admin/inbox/${item.id}/notify`, { csrf });
    setBusy(undefined);
    if (answer.status === 200) {
      setItems((items ?? []).map((candidate) => (candidate.id === item.id ? answer.body.item : candidate)));
      announce(answer.body.item.delivery === 'sent' ? text.retriedSent : text.retriedFailed, false);
    } else if (answer.status === 404) {
      setItems((items ?? []).filter((candidate) => candidate.id !== item.id));
      announce(text.gone, true);
    } else if (answer.status === 409) announce(text.notificationsOff, false);
    else if (answer.status === 401) location.assign(props.signIn);
    else announce(text.failed, false);
  }

  /** Downloads what is shown as CSV; the filter goes in a POST body, so the search text stays out of URLs and logs. */
  async function exportCsv() {
    const response = await fetch('/api/admin/inbox.csv', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf ?? '' },
      body: JSON.stringify({ q: filter.search, kind: filter.kind, handled: filter.handled }),
    });
    if (response.status === 401) return location.assign(props.signIn);
    if (!response.ok) return announce(text.failed, false);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'inbox.csv';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
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
  if (!items)
    return (
      <>
        {bar}
        <p role="status" className={failed ? 'banner banner-error' : undefined}>
          {failed ? text.failed : text.loading}
        </p>
      </>
    );

  const shown = items.filter((item) => matchesInboxFilter(item, filter));
  const kindLabel = (item: InboxItem) => (item.kind === 'booking' ? text.kindBooking : text.kindContact);
  return (
    <div className="admin-inbox">
      {bar}
      <div className="admin-filters" role="search">
        <div className="field">
          <label htmlFor="inbox-search">{text.search}</label>
          <input
            id="inbox-search"
            type="search"
            value={filter.search}
            onInput={(event) => setFilter({ ...filter, search: event.currentTarget.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="inbox-kind">{text.filterKind}</label>
          <select
            id="inbox-kind"
            value={filter.kind}
            onChange={(event) => setFilter({ ...filter, kind: event.currentTarget.value as InboxFilter['kind'] })}
          >
            <option value="">{text.all}</option>
            <option value="contact">{text.kindContact}</option>
            <option value="booking">{text.kindBooking}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="inbox-handled">{text.filterHandled}</label>
          <select
            id="inbox-handled"
            value={filter.handled}
            onChange={(event) => setFilter({ ...filter, handled: event.currentTarget.value as InboxFilter['handled'] })}
          >
            <option value="">{text.all}</option>
            <option value="unhandled">{text.unhandled}</option>
            <option value="handled">{text.handled}</option>
          </select>
        </div>
      </div>
      <div className="admin-summary">
        <p role="status">
          {items.length === 0 ? text.empty : fill(text.showing, { shown: shown.length, total: items.length })}
        </p>
        {shown.length > 0 && (
          <button type="button" className="button button-secondary" onClick={() => void exportCsv()}>
            {text.exportCsv}
          </button>
        )}
      </div>
      <p className="admin-notice" role="status" tabIndex={-1} ref={noticeRef}>
        {notice}
      </p>
      {items.length > 0 && shown.length === 0 && <p>{text.noMatch}</p>}
      {shown.length > 0 && (
        // Wider than a phone: it scrolls sideways, as a named region the keyboard can reach.
        <div className="admin-table-scroll" role="region" aria-labelledby="inbox-caption" tabIndex={0}>
          <table className="admin-posts admin-inbox-table">
            <caption id="inbox-caption">{text.items}</caption>
            <thead>
              <tr>
                <th scope="col">{text.received}</th>
                <th scope="col">{text.from}</th>
                <th scope="col">{text.message}</th>
                <th scope="col">{text.status}</th>
                <th scope="col">{text.actions}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((item) => {
                const name = nameOf(item);
                const email = textOf(item, 'email');
                return (
                  <tr key={item.id}>
                    <td data-label={text.received}>
                      <time dateTime={item.receivedAt}>{format(item.receivedAt)}</time>
                      <br />
                      <span className="badge">{kindLabel(item)}</span>
                    </td>
                    <th scope="row">
                      {name}
                      {email && (
                        <>
                          <br />
                          <a href={`mailto:${email}`}>{email}</a>
                        </>
                      )}
                      {textOf(item, 'company') && (
                        <>
                          <br />
                          <span className="muted">
                            {text.company}: {textOf(item, 'company')}
                          </span>
                        </>
                      )}
                    </th>
                    <td className="admin-inbox-message" data-label={text.message}>
                      {item.kind === 'booking' && (
                        <p>
                          <strong>
                            {fill(text.meeting, {
                              time: format(textOf(item, 'start'), props.timeZone),
                              timeZone: props.timeZone,
                            })}
                          </strong>
                        </p>
                      )}
                      {textOf(item, 'type') && (
                        <p className="muted">
                          {text.type}: {props.types[textOf(item, 'type')] ?? textOf(item, 'type')}
                        </p>
                      )}
                      {textOf(item, 'subject') && (
                        <p>
                          <strong>
                            {text.subject}: {textOf(item, 'subject')}
                          </strong>
                        </p>
                      )}
                      {(textOf(item, 'message') || textOf(item, 'note')) && (
                        <p className="admin-inbox-text">{textOf(item, 'message') || textOf(item, 'note')}</p>
                      )}
                      {textOf(item, 'locale') && (
                        <p className="muted">
                          {text.language}: {props.languages[textOf(item, 'locale')] ?? textOf(item, 'locale')}
                        </p>
                      )}
                      {textOf(item, 'page') && (
                        <p className="muted">
                          {text.page}:{' '}
                          {pageLink(textOf(item, 'page'), location.origin) ? (
                            <a href={pageLink(textOf(item, 'page'), location.origin)}>{textOf(item, 'page')}</a>
                          ) : (
                            textOf(item, 'page')
                          )}
                        </p>
                      )}
                      {textOf(item, 'page') && audienceOf(textOf(item, 'page'), props) && (
                        <p className="muted">
                          {text.audience}: {audienceOf(textOf(item, 'page'), props)}
                        </p>
                      )}
                    </td>
                    <td data-label={text.status}>
                      <span className={`badge ${item.handled ? 'badge-handled' : 'badge-unhandled'}`}>
                        {item.handled ? text.handled : text.unhandled}
                      </span>
                      {item.delivery === 'sent' && <p className="muted admin-inbox-delivery">{text.deliverySent}</p>}
                      {item.delivery === 'pending' && (
                        <p className="muted admin-inbox-delivery">{text.deliveryPending}</p>
                      )}
                      {item.delivery === 'failed' && (
                        <p className="admin-inbox-delivery admin-inbox-delivery-failed">
                          {text.deliveryFailed} {textOf(item, 'deliveryError')}
                        </p>
                      )}
                    </td>
                    <td>
                      <div className="admin-inbox-actions">
                        <button
                          type="button"
                          className="button button-secondary"
                          aria-disabled={busy === item.id || undefined}
                          aria-label={`${item.handled ? text.markUnhandled : text.markHandled}: ${name}`}
                          onClick={() => void setHandled(item, !item.handled)}
                        >
                          {item.handled ? text.markUnhandled : text.markHandled}
                        </button>
                        {item.delivery === 'failed' && (
                          <button
                            type="button"
                            className="button button-secondary"
                            aria-disabled={busy === item.id || undefined}
                            aria-label={`${text.retryDelivery}: ${name}`}
                            onClick={() => void retryDelivery(item)}
                          >
                            {text.retryDelivery}
                          </button>
                        )}
                        <button
                          type="button"
                          className="button button-secondary"
                          aria-disabled={busy === item.id || undefined}
                          aria-label={`${text.delete}: ${name}`}
                          onClick={() => void remove(item)}
                        >
                          {text.delete}
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
