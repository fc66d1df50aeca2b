/**
 * What a notification says, before a channel sends it: the JSON a webhook receives, and the
 * notification mails (the team's, the booked visitor's). Pure: the words come in (notify-copy.ts
 * with the site's messages over them), the calendar file too. Web APIs only: the host functions
 * bundle the webhook's part.
 */
import { fillText } from '../islands/forms/form-copy.js';
import type { NotifyText } from './notify-copy.js';

/** What a notification is about: a contact message or a booking, with the fields the visitor sent. */
export type NotifiedItem =
  { kind: 'contact'; id: string; fields: ContactFields } | { kind: 'booking'; id: string; fields: BookingFields };

/** A contact message's fields as the store keeps them. */
export interface ContactFields {
  receivedAt: string;
  firstName: string;
  lastName: string;
  email: string;
  company?: string;
  type?: string;
  subject?: string;
  message: string;
  locale?: string;
  page?: string;
}

/** A booking's fields as the store keeps them: the slot as shown (`start`, `end`, with the zone's offset). */
export interface BookingFields {
  start: string;
  end: string;
  bookedAt: string;
  firstName: string;
  lastName: string;
  email: string;
  company?: string;
  note?: string;
  locale?: string;
  page?: string;
}

/** The JSON body a webhook receives. */
export interface WebhookBody {
  /** `contact.received` or `booking.created`. */
  event: string;
  /** The item's id in the admin's inbox (`contact-…`, `booking-…`). */
  id: string;
  /** The site's origin. */
  site: string;
  /** When it was received (ISO 8601, UTC). */
  at: string;
  data: ContactFields | BookingFields;
}

/** The webhook body of an item. */
export function webhookBodyOf(item: NotifiedItem, site: string): WebhookBody {
  return {
    event: item.kind === 'contact' ? 'contact.received' : 'booking.created',
    id: `${item.kind}-${item.id}`,
    site,
    at: item.kind === 'contact' ? item.fields.receivedAt : item.fields.bookedAt,
    data: item.fields,
  };
}

/** A mail to send, as an SMTP client takes it. */
export interface MailMessage {
  from: string;
  to: string[];
  replyTo?: string;
  subject: string;
  text: string;
  attachments?: { filename: string; content: string; contentType: string }[];
}

/** What the mails say about the site and the meeting, besides the item. */
export interface MailContext {
  from: string;
  /** The site's name ({site}). */
  site: string;
  /** The site's origin, to make a page the visitor sent from a link. */
  origin: string;
  /** A booking's time as the mail says it (`when`), and the meeting's length. */
  when?: string;
  minutes?: number;
}

/** The lines of a mail's field list: each given field, its label, its value; empty ones left out. */
function fieldLines(pairs: readonly [string, string | undefined][]): string {
  return pairs
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([label, value]) => (value!.includes('\n') ? `${label}:\n${value}` : `${label}: ${value}`))
    .join('\n');
}

/** The values the words' placeholders are filled with. */
function valuesOf(item: NotifiedItem, context: MailContext): Record<string, string> {
  return {
    site: context.site,
    name: `${item.fields.firstName} ${item.fields.lastName}`.trim(),
    firstName: item.fields.firstName,
    when: context.when ?? '',
    minutes: context.minutes === undefined ? '' : String(context.minutes),
  };
}

/** The team's mail of an item, in the team's words (`text`, the site's default locale); it answers to the visitor. */
export function teamMailOf(item: NotifiedItem, to: string[], text: NotifyText, context: MailContext): MailMessage {
  const values = valuesOf(item, context);
  const fill = (words: string) => fillText(words, values);
  const { fields } = item;
  const page = fields.page ? new URL(fields.page, context.origin).href : undefined;
  const common: [string, string | undefined][] = [
    [text.name, values.name],
    [text.email, fields.email],
    [text.company, fields.company],
  ];
  const lines =
    item.kind === 'contact'
      ? fieldLines([
          ...common,
          [text.type, item.fields.type],
          [text.subject, item.fields.subject],
          [text.page, page],
          [text.language, fields.locale],
          [text.message, item.fields.message],
        ])
      : fieldLines([
          [text.when, context.when],
          ...common,
          [text.page, page],
          [text.language, fields.locale],
          [text.note, item.fields.note],
        ]);
  return {
    from: context.from,
    to,
    replyTo: fields.email,
    subject: fill(item.kind === 'contact' ? text.contactSubject : text.bookingSubject),
    text: `${fill(item.kind === 'contact' ? text.contactIntro : text.bookingIntro)}\n\n${lines}\n`,
  };
}

/** The booked visitor's confirmation, in their language (`text`), with the meeting's calendar file attached. */
export function confirmationOf(
  item: Extract<NotifiedItem, { kind: 'booking' }>,
  text: NotifyText,
  context: MailContext,
  ics: string,
): MailMessage {
  const values = valuesOf(item, context);
  return {
    from: context.from,
    to: [item.fields.email],
    subject: fillText(text.confirmationSubject, values),
    text: `${fillText(text.confirmationText, values)}\n`,
    attachments: [
      {
        filename: `${text.calendarFile}-${item.fields.start.slice(0, 10)}.ics`,
        content: ics,
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      },
    ],
  };
}
