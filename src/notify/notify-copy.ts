/**
 * The words of the engine's notification mails, in English and Norwegian, in one place: the
 * team's mail of a new contact message or booking, and the booked visitor's confirmation. A mail
 * takes the copy of its locale (`no`, `nb` and `nn` read the Norwegian; any other language the
 * English) and the site's own words over it: the messages `notifications.<key>` of that locale
 * replace any key. `{name}` placeholders are filled when the mail is written.
 */

/** The words of the notification mails. */
export interface NotifyText {
  /** The team's mail of a contact message; `{name}` is the visitor's, `{site}` the site's. */
  contactSubject: string;
  contactIntro: string;
  /** The team's mail of a booking; `{when}` is the meeting's time in the booking's zone. */
  bookingSubject: string;
  bookingIntro: string;
  /** The labels of the fields in the team's mails. */
  name: string;
  email: string;
  company: string;
  type: string;
  subject: string;
  message: string;
  when: string;
  note: string;
  page: string;
  language: string;
  /** The visitor's confirmation: `{firstName}`, `{when}`, `{minutes}`, `{site}`. */
  confirmationSubject: string;
  confirmationText: string;
  /** The name of the calendar file attached to the confirmation (without `.ics`). */
  calendarFile: string;
}

const english: NotifyText = {
  contactSubject: 'New message from {name}',
  contactIntro: 'A visitor sent a message through the contact form of {site}.',
  bookingSubject: 'New meeting booked: {when}',
  bookingIntro: 'A visitor booked a meeting of {minutes} minutes through {site}.',
  name: 'Name',
  email: 'E-mail',
  company: 'Company',
  type: 'Type',
  subject: 'Subject',
  message: 'Message',
  when: 'When',
  note: 'Note',
  page: 'Sent from',
  language: 'Language',
  confirmationSubject: 'Your meeting with {site}: {when}',
  confirmationText:
    'Hello {firstName},\n\nyour meeting with {site} is booked for {when} ({minutes} minutes).\n\nThe attached calendar file adds it to your calendar. If you cannot come, answer this e-mail and we will find another time.\n\n{site}',
  calendarFile: 'meeting',
};

const norwegian: NotifyText = {
  contactSubject: 'Ny melding fra {name}',
  contactIntro: 'En besøkende sendte en melding gjennom kontaktskjemaet på {site}.',
  bookingSubject: 'Nytt møte booket: {when}',
  bookingIntro: 'En besøkende booket et møte på {minutes} minutter gjennom {site}.',
  name: 'Navn',
  email: 'E-post',
  company: 'Bedrift',
  type: 'Type',
  subject: 'Emne',
  message: 'Melding',
  when: 'Når',
  note: 'Notat',
  page: 'Sendt fra',
  language: 'Språk',
  confirmationSubject: 'Møtet ditt med {site}: {when}',
  confirmationText:
    'Hei {firstName},\n\nmøtet ditt med {site} er booket {when} ({minutes} minutter).\n\nKalenderfilen i vedlegget legger det inn i kalenderen din. Kan du ikke likevel, svar på denne e-posten, så finner vi en annen tid.\n\n{site}',
  calendarFile: 'mote',
};

/** The engine's copy by language code; other languages read the English. */
const notifyCopy: Readonly<Record<string, NotifyText>> = { en: english, no: norwegian, nb: norwegian, nn: norwegian };

/** The keys of the mails' words: the site's messages `notifications.<key>` replace them. */
export const notifyTextKeys = Object.keys(english) as (keyof NotifyText)[];

/** The engine's words in `locale` (its own language's, else its base language's, else English), with the site's `text` over them. */
export function notifyTextOf(locale: string, text: Partial<NotifyText> = {}): NotifyText {
  const code = locale.toLowerCase();
  const engine = notifyCopy[code] ?? notifyCopy[code.split('-')[0]!] ?? english;
  return { ...engine, ...text };
}
