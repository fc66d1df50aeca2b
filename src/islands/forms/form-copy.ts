/**
 * The words of the engine's forms (ContactForm, BookingForm of typed-site/islands), in English and
 * Norwegian, in one place. A form takes the copy of its page's locale (`no`, `nb` and `nn` read the
 * Norwegian; any other language the English) and the site's own words over it: its `text` prop
 * replaces any key. `{name}` placeholders are filled in by the form.
 */

/** The contact form's words. */
export interface ContactFormText {
  /** The form's group label (its `<legend>`). */
  legend: string;
  /** Above the fields: what the star means. */
  requiredNote: string;
  /** Read by screen readers after a required field's label (the star is hidden from them). */
  requiredWord: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  /** The enquiry type's label, and its empty first choice (only with `types`). */
  type: string;
  chooseType: string;
  subject: string;
  message: string;
  /** The label of the hidden field that only bots fill in. */
  honeypot: string;
  submit: string;
  /** The button while the message is on its way. */
  sending: string;
  /** Said (politely) while the message is on its way. */
  sendingText: string;
  successTitle: string;
  successText: string;
  sendAnother: string;
  errorTitle: string;
  errorText: string;
  /** When fields need attention; `{fields}` lists their labels. */
  invalidTitle: string;
  invalidText: string;
  /** Under a field: left empty, not an e-mail address, too long, anything else. */
  fieldRequired: string;
  invalidEmail: string;
  tooLong: string;
  invalid: string;
}

/** The booking form's words. */
export interface BookingFormText {
  legend: string;
  requiredNote: string;
  requiredWord: string;
  /** Without script: a date and a time of day (in the booking's time zone, `{zone}`). */
  date: string;
  time: string;
  /** With script: the day to pick from, and the group of its free times. */
  day: string;
  slot: string;
  /** Where the times are; `{zone}` is the booking's time zone by name. */
  timesIn: string;
  /** Beside a time, for a visitor in another time zone; `{time}` is the visitor's own. */
  yourTime: string;
  /** A time of day from its two-digit hour and minute: "{hh}:{mm}", "{hh}.{mm}". */
  clock: string;
  /** A booked meeting's day and time: `{day}`, `{time}`, `{zone}`. */
  when: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  note: string;
  honeypot: string;
  submit: string;
  sending: string;
  sendingText: string;
  /** While the free times load. */
  loading: string;
  /** Sent before the free times were in. */
  waitForSlots: string;
  noSlots: string;
  /** Under the times when none is chosen, and when the chosen one cannot be booked any more. */
  chooseSlot: string;
  slotGone: string;
  /** Where no booking server answers (the slots cannot be read). */
  unavailableTitle: string;
  unavailableText: string;
  /** The link to the contact page beside it (only with `contactHref`). */
  contactLink: string;
  /** The time was booked by someone else a moment earlier; the next free ones follow. */
  takenTitle: string;
  takenText: string;
  bookedTitle: string;
  /** `{when}` (see `when`) and `{email}`. */
  bookedText: string;
  /** `bookedText` of a site that sends no confirmation (no `notifications.email`): it promises no e-mail. */
  bookedSavedText: string;
  /** The link to the meeting's calendar file. */
  calendar: string;
  errorTitle: string;
  errorText: string;
  invalidTitle: string;
  invalidText: string;
  fieldRequired: string;
  invalidEmail: string;
  tooLong: string;
  invalid: string;
}

/** The engine's copy of both forms in one language. */
export interface FormCopy {
  contact: ContactFormText;
  booking: BookingFormText;
}

const english: FormCopy = {
  contact: {
    legend: 'Send us a message',
    requiredNote: 'Fields marked * are required.',
    requiredWord: 'required',
    firstName: 'First name',
    lastName: 'Last name',
    email: 'E-mail',
    company: 'Company',
    type: 'I am',
    chooseType: 'Choose one',
    subject: 'Subject',
    message: 'Message',
    honeypot: 'Leave this field empty',
    submit: 'Send message',
    sending: 'Sending…',
    sendingText: 'Sending your message…',
    successTitle: 'Thank you, your message was sent',
    successText: 'We will answer you as soon as we can.',
    sendAnother: 'Send another message',
    errorTitle: 'The message was not sent',
    errorText: 'Something went wrong on our side. Try again in a moment: what you wrote is still here.',
    invalidTitle: 'Check the form',
    invalidText: 'These fields need your attention: {fields}.',
    fieldRequired: 'Fill in this field.',
    invalidEmail: 'Enter an e-mail address, such as name@example.com.',
    tooLong: 'This is too long.',
    invalid: 'This value is not valid.',
  },
  booking: {
    legend: 'Choose a time and tell us who you are',
    requiredNote: 'Fields marked * are required.',
    requiredWord: 'required',
    date: 'Date',
    time: 'Time ({zone})',
    day: 'Day',
    slot: 'Time',
    timesIn: 'Times are in {zone}.',
    yourTime: '{time} your time',
    clock: '{hh}:{mm}',
    when: '{day} at {time} ({zone})',
    firstName: 'First name',
    lastName: 'Last name',
    email: 'E-mail',
    company: 'Company',
    note: 'What would you like to talk about?',
    honeypot: 'Leave this field empty',
    submit: 'Book the meeting',
    sending: 'Booking…',
    sendingText: 'Booking your meeting…',
    loading: 'Loading the free times…',
    waitForSlots: 'One moment: choose a time once the free times appear.',
    noSlots: 'There are no free times in the coming days.',
    chooseSlot: 'Choose a time.',
    slotGone: 'This time cannot be booked any more: choose another.',
    unavailableTitle: 'Meetings cannot be booked here right now',
    unavailableText: 'Send us a message instead, and we will find a time together.',
    contactLink: 'Write to us',
    takenTitle: 'That time was just taken',
    takenText: 'Choose another time; these are the next free ones:',
    bookedTitle: 'Your meeting is booked',
    bookedText: 'See you {when}. We will write to {email}.',
    bookedSavedText: 'See you {when}. Add the meeting to your calendar so you do not miss it.',
    calendar: 'Add it to your calendar (.ics)',
    errorTitle: 'The meeting was not booked',
    errorText: 'Something went wrong on our side. Try again in a moment: what you wrote is still here.',
    invalidTitle: 'Check the form',
    invalidText: 'These fields need your attention: {fields}.',
    fieldRequired: 'Fill in this field.',
    invalidEmail: 'Enter an e-mail address, such as name@example.com.',
    tooLong: 'This is too long.',
    invalid: 'This value is not valid.',
  },
};

const norwegian: FormCopy = {
  contact: {
    legend: 'Send oss en melding',
    requiredNote: 'Felt merket med * må fylles ut.',
    requiredWord: 'påkrevd',
    firstName: 'Fornavn',
    lastName: 'Etternavn',
    email: 'E-post',
    company: 'Bedrift',
    type: 'Jeg er',
    chooseType: 'Velg ett alternativ',
    subject: 'Emne',
    message: 'Melding',
    honeypot: 'La dette feltet stå tomt',
    submit: 'Send melding',
    sending: 'Sender …',
    sendingText: 'Sender meldingen …',
    successTitle: 'Takk, meldingen er sendt',
    successText: 'Vi svarer deg så snart vi kan.',
    sendAnother: 'Send en ny melding',
    errorTitle: 'Meldingen ble ikke sendt',
    errorText: 'Noe gikk galt hos oss. Prøv igjen om litt: det du skrev, står der fortsatt.',
    invalidTitle: 'Sjekk skjemaet',
    invalidText: 'Disse feltene må du se på: {fields}.',
    fieldRequired: 'Fyll ut dette feltet.',
    invalidEmail: 'Skriv inn en e-postadresse, for eksempel navn@eksempel.no.',
    tooLong: 'Teksten er for lang.',
    invalid: 'Verdien er ikke gyldig.',
  },
  booking: {
    legend: 'Velg tidspunkt og fortell oss hvem du er',
    requiredNote: 'Felt merket med * må fylles ut.',
    requiredWord: 'påkrevd',
    date: 'Dato',
    time: 'Klokkeslett ({zone})',
    day: 'Dag',
    slot: 'Tidspunkt',
    timesIn: 'Tidene er i {zone}.',
    yourTime: '{time} hos deg',
    clock: '{hh}.{mm}',
    when: '{day} kl. {time} ({zone})',
    firstName: 'Fornavn',
    lastName: 'Etternavn',
    email: 'E-post',
    company: 'Bedrift',
    note: 'Hva vil du snakke om?',
    honeypot: 'La dette feltet stå tomt',
    submit: 'Bestill møtet',
    sending: 'Bestiller …',
    sendingText: 'Bestiller møtet …',
    loading: 'Henter ledige tider …',
    waitForSlots: 'Vent litt, og velg et tidspunkt når de ledige tidene vises.',
    noSlots: 'Det er ingen ledige tider de nærmeste dagene.',
    chooseSlot: 'Velg et tidspunkt.',
    slotGone: 'Denne tiden kan ikke bestilles lenger: velg en annen.',
    unavailableTitle: 'Du kan ikke bestille møter her akkurat nå',
    unavailableText: 'Send oss en melding i stedet, så finner vi en tid sammen.',
    contactLink: 'Skriv til oss',
    takenTitle: 'Den tiden ble nettopp tatt',
    takenText: 'Velg en annen tid; dette er de neste ledige:',
    bookedTitle: 'Møtet er bestilt',
    bookedText: 'Vi ses {when}. Vi skriver til {email}.',
    bookedSavedText: 'Vi ses {when}. Legg møtet inn i kalenderen din, så du ikke glemmer det.',
    calendar: 'Legg det inn i kalenderen (.ics)',
    errorTitle: 'Møtet ble ikke bestilt',
    errorText: 'Noe gikk galt hos oss. Prøv igjen om litt: det du skrev, står der fortsatt.',
    invalidTitle: 'Sjekk skjemaet',
    invalidText: 'Disse feltene må du se på: {fields}.',
    fieldRequired: 'Fyll ut dette feltet.',
    invalidEmail: 'Skriv inn en e-postadresse, for eksempel navn@eksempel.no.',
    tooLong: 'Teksten er for lang.',
    invalid: 'Verdien er ikke gyldig.',
  },
};

/** The engine's copy by language code; other languages read the English. */
export const formCopy: Readonly<Record<string, FormCopy>> = {
  en: english,
  no: norwegian,
  nb: norwegian,
  nn: norwegian,
};

/** The engine's copy for a page's locale: its own language's, else its base language's ("nb-NO" → "nb"), else English. */
export function formCopyOf(locale: string): FormCopy {
  const code = locale.toLowerCase();
  return formCopy[code] ?? formCopy[code.split('-')[0]!] ?? english;
}

/** Keeps only the string values of a site's words (a prop from JSON may hold anything). */
function wordsOf<Text extends object>(text: Partial<Text> | undefined): Partial<Text> {
  return Object.fromEntries(
    Object.entries(text ?? {}).filter(([, value]) => typeof value === 'string'),
  ) as Partial<Text>;
}

/** The contact form's words in `locale`, with the site's `text` over them. */
export function contactFormText(locale: string, text?: Partial<ContactFormText>): ContactFormText {
  return { ...formCopyOf(locale).contact, ...wordsOf(text) };
}

/** The booking form's words in `locale`, with the site's `text` over them. */
export function bookingFormText(locale: string, text?: Partial<BookingFormText>): BookingFormText {
  return { ...formCopyOf(locale).booking, ...wordsOf(text) };
}

/** Fills `{name}` placeholders; an unknown name stays as written. */
export function fillText(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
