/**
 * `site serve`'s notifications: once a contact message or a booking is committed to the store,
 * it is POSTed to each webhook of `notifications.webhooks` and mailed to the team
 * (`notifications.email.to`), and a booking's visitor is mailed a confirmation in their language
 * with the meeting's calendar file. The store comes first: a visitor's 201 never waits for a
 * channel, and a channel that fails loses nothing. What each channel did is recorded on the item
 * (`delivery`, shown in the admin's inbox), every failure is logged without its secrets, and a
 * failed delivery can be tried again (`retry`): only its failed channels are.
 *
 * The channels follow the config of the moment and the environment (the SMTP URL or password, a
 * webhook's URL named by `env:`): a variable that is not set fails its channel, saying which.
 */
import { bookingIcs } from '../booking/ics.js';
import { builtInBookingOf } from '../config/booking.js';
import type { ResolvedConfig } from '../config/load.js';
import type { InboxItem } from '../islands/inbox-filter.js';
import type { StoreSource } from '../store/source.js';
import type { ChannelDelivery, DeliveryRecord } from '../store/store.js';
import {
  confirmationOf,
  teamMailOf,
  webhookBodyOf,
  type BookingFields,
  type ContactFields,
  type MailContext,
  type NotifiedItem,
} from './payload.js';
import { loadSiteWords } from './site-words.js';
import { createMailer, smtpUrlOf } from './smtp.js';
import { attemptsText, postToWebhook, webhookPolicy, type WebhookPolicy } from './webhooks.js';

/** Where the notifier says what failed (the CLI's logger). */
export interface NotifyLog {
  warn(message: string): void;
}

/** Options of `createNotifier`. */
export interface NotifierOptions {
  /** The config of the moment. */
  config(): ResolvedConfig;
  store: StoreSource;
  log?: NotifyLog;
  /** Where secrets are read from (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  policy?: WebhookPolicy;
  fetch?: typeof fetch;
  now?: () => number;
}

/** The notifications of a server. */
export interface Notifier {
  /** Notifies of a stored contact message (its store id); never rejects. */
  contact(id: string, fields: ContactFields): Promise<void>;
  /** Notifies of a stored booking (its store id); never rejects. */
  booking(id: string, fields: BookingFields): Promise<void>;
  /** Tries the failed channels of an inbox item again (all of them when it has no record); the item after, or undefined when there is none. */
  retry(itemId: string): Promise<InboxItem | undefined>;
  /** Whether the config has any channel. */
  enabled(): boolean;
  /** Resolves once the deliveries in flight are done. */
  idle(): Promise<void>;
}

/** One channel of an item: its name, and what sending does. */
interface Channel {
  name: string;
  send(): Promise<ChannelDelivery>;
}

/** The time of a meeting as the mails say it: its day and time in the booking's zone, in the reader's language, and the zone. */
export function meetingTimeOf(start: string, intl: string, timeZone: string): string {
  const time = new Intl.DateTimeFormat(intl, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(
    Date.parse(start),
  );
  return `${time} (${timeZone})`;
}

/** Creates the notifier of a server. */
export function createNotifier(options: NotifierOptions): Notifier {
  const env = options.env ?? process.env;
  const policy = options.policy ?? webhookPolicy;
  const now = options.now ?? Date.now;
  const inFlight = new Set<Promise<unknown>>();

  /** The channels the config has for `item`, each ready to send. */
  async function channelsOf(item: NotifiedItem): Promise<Channel[]> {
    const config = options.config();
    const notifications = config.notifications;
    if (!notifications) return [];
    const channels: Channel[] = notifications.webhooks.map((webhook, index) => ({
      name: `webhook-${index + 1}`,
      send: () =>
        postToWebhook(webhook, index, env, webhookBodyOf(item, config.site.origin), policy, { fetch: options.fetch }),
    }));
    const email = notifications.email;
    if (!email) return channels;
    const words = await loadSiteWords(config);
    const builtIn = builtInBookingOf(config);
    const locale =
      item.fields.locale && config.locales[item.fields.locale] ? item.fields.locale : config.site.defaultLocale;
    const context = (reader: string): MailContext => ({
      from: email.from,
      site: config.site.name,
      origin: config.site.origin,
      ...(item.kind === 'booking' && builtIn
        ? {
            when: meetingTimeOf(item.fields.start, config.locales[reader]!.intl, builtIn.booking.timeZone),
            minutes: builtIn.booking.minutes,
          }
        : {}),
    });
    const mail = (build: () => Parameters<ReturnType<typeof createMailer>['send']>[0]) => async () => {
      const smtp = smtpUrlOf(email, env);
      if ('missing' in smtp)
        return { ok: false, attempts: 0, error: `e-mail: the variable ${smtp.missing} is not set` };
      const mailer = createMailer(smtp.url);
      try {
        return await mailer.send(build());
      } finally {
        mailer.close();
      }
    };
    const team = config.site.defaultLocale;
    channels.push({
      name: 'team',
      send: mail(() => teamMailOf(item, email.to, words.notify(team), context(team))),
    });
    if (item.kind === 'booking' && builtIn) {
      const booking = item;
      channels.push({
        name: 'visitor',
        send: mail(() => {
          const ics = bookingIcs(
            {
              id: booking.id,
              slotStart: new Date(Date.parse(booking.fields.start)).toISOString(),
              slotEnd: new Date(Date.parse(booking.fields.end)).toISOString(),
              bookedAt: booking.fields.bookedAt,
            },
            { domain: new URL(config.site.origin).hostname, organizer: builtIn.email },
            words.calendar(locale),
          );
          return confirmationOf(booking, words.notify(locale), context(locale), ics);
        }),
      });
    }
    return channels;
  }

  /** Sends the channels named in `only` (all when undefined), records the outcome over `before`, and logs the failures. */
  async function deliver(item: NotifiedItem, before?: DeliveryRecord, only?: ReadonlySet<string>): Promise<void> {
    const itemId = `${item.kind}-${item.id}`;
    const store = await options.store.get();
    let channels: Channel[];
    try {
      channels = (await channelsOf(item)).filter((channel) => !only || only.has(channel.name));
    } catch (error) {
      options.log?.warn(`notifications of ${itemId}: could not be prepared (${(error as Error).name})`);
      return;
    }
    if (!channels.length) return;
    const record: DeliveryRecord = {
      status: 'pending',
      at: new Date(now()).toISOString(),
      channels: { ...before?.channels },
    };
    await store.setDelivery(itemId, record);
    const results = await Promise.all(
      channels.map((channel) =>
        channel.send().catch((): ChannelDelivery => ({ ok: false, attempts: 1, error: `${channel.name} failed` })),
      ),
    );
    channels.forEach((channel, index) => (record.channels[channel.name] = results[index]!));
    const failed = Object.values(record.channels).filter((channel) => !channel.ok);
    record.status = failed.length ? 'failed' : 'sent';
    record.at = new Date(now()).toISOString();
    await store.setDelivery(itemId, record);
    for (const channel of results.filter((result) => !result.ok))
      options.log?.warn(
        `notifications of ${itemId}: ${channel.error} (${attemptsText(channel.attempts)}); kept in the inbox, to retry`,
      );
  }

  /** Runs a delivery in the background: the caller (a visitor's request) never waits for it, and it never rejects. */
  function track(work: Promise<void>): Promise<void> {
    const running = work.catch((error: unknown) =>
      options.log?.warn(`notifications: could not record a delivery (${(error as Error).name})`),
    );
    inFlight.add(running);
    void running.finally(() => inFlight.delete(running));
    return running;
  }

  return {
    contact: (id, fields) => track(deliver({ kind: 'contact', id, fields })),
    booking: (id, fields) => track(deliver({ kind: 'booking', id, fields })),
    async retry(itemId) {
      const store = await options.store.get();
      const found = await store.findInboxItem(itemId);
      if (!found) return undefined;
      const item = notifiedItemOf(found);
      const before = await store.findDelivery(itemId);
      const failed = before && new Set(Object.keys(before.channels).filter((name) => !before.channels[name]!.ok));
      await track(deliver(item, before, failed?.size ? failed : undefined));
      return store.findInboxItem(itemId);
    },
    enabled() {
      const notifications = options.config().notifications;
      return !!notifications && (notifications.webhooks.length > 0 || !!notifications.email);
    },
    async idle() {
      while (inFlight.size) await Promise.all(inFlight);
    },
  };
}

/** The item a notification is about, from the inbox's item. */
function notifiedItemOf(item: InboxItem): NotifiedItem {
  const value = (field: string) => (typeof item[field] === 'string' ? (item[field] as string) : undefined);
  const common = {
    firstName: value('firstName') ?? '',
    lastName: value('lastName') ?? '',
    email: value('email') ?? '',
    company: value('company'),
    locale: value('locale'),
    page: value('page'),
  };
  const id = item.id.slice(item.kind.length + 1);
  if (item.kind === 'contact')
    return {
      kind: 'contact',
      id,
      fields: {
        receivedAt: item.receivedAt,
        ...common,
        type: value('type'),
        subject: value('subject'),
        message: value('message') ?? '',
      },
    };
  return {
    kind: 'booking',
    id,
    fields: {
      start: value('start') ?? '',
      end: value('end') ?? '',
      bookedAt: item.receivedAt,
      ...common,
      note: value('note'),
    },
  };
}

/** What the environment lacks for the config's notifications: one sentence per variable not set (the server says them at start). */
export function notificationGaps(
  config: Pick<ResolvedConfig, 'notifications'>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const notifications = config.notifications;
  if (!notifications) return [];
  const gaps = notifications.webhooks.flatMap((webhook, index) =>
    typeof webhook === 'object' && !env[webhook.env]
      ? [
          `notifications: webhook ${index + 1} is off until ${webhook.env} is set; deliveries meanwhile show as failed in the inbox`,
        ]
      : [],
  );
  const smtp = notifications.email && smtpUrlOf(notifications.email, env);
  if (smtp && 'missing' in smtp)
    gaps.push(
      `notifications: e-mail is off until ${smtp.missing} is set; deliveries meanwhile show as failed in the inbox`,
    );
  return gaps;
}
