/**
 * The built-in meeting booking. Without script it is a plain form POST (a date, a time in the
 * booking's time zone, who is coming) that `site serve` answers with a confirmation page.
 * Hydrated, it asks the server for the free slots and shows them per day, each in the booking's
 * time zone with the visitor's own time beside it; it posts JSON and shows the booked panel with
 * a calendar file, or, when the slot was just taken, the next free ones. Where no server answers
 * (a static host), the contact form takes its place with the meeting preselected.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FormEvent, type ReactElement } from 'react';
import {
  bookingLimits,
  requiredBookingFields,
  validateBooking,
  type BookingConfirmation,
} from 'typed-site/booking-schema';
import { honeypotField } from 'typed-site/contact-schema';
import type { ContactFormProps } from './ContactForm';
import { formField, RequiredMarker, type FieldInputProps } from './form-field';

const ContactForm = lazy(() => import('./ContactForm'));

type FieldName = 'firstName' | 'lastName' | 'email' | 'company' | 'note';
type Status = 'loading' | 'ready' | 'unavailable' | 'sending' | 'invalid' | 'taken' | 'error' | 'booked';
interface Slot {
  start: string;
  end: string;
}

/** Labels and messages in the page's language, and the booking's rules. */
export interface BookingFormProps {
  /** Prefix of element ids, unique on the page. */
  idPrefix: string;
  /** The booking API (POST here, slots at `<endpoint>/slots`). */
  endpoint: string;
  locale: string;
  /** The page the form is on (the admin's inbox names it). */
  page: string;
  intl: string;
  /** The booking's time zone (IANA), and how long ahead slots are offered. */
  timeZone: string;
  days: number;
  /** Local start times of a day's slots ("09:00"), for the form without script. */
  times: string[];
  labels: Record<FieldName, string> & {
    legend: string;
    day: string;
    time: string;
    date: string;
    timeNoScript: string;
    timesIn: string;
    yourTime: string;
    yourZone: string;
    /** A time of day from its two-digit hour and minute ("{hh}:{mm}", "{hh}.{mm}"). */
    clock: string;
    /** The booked meeting's day and time ("{day} at {time} ({zone})", "{day} kl. {time} norsk tid"). */
    when: string;
    /** A free time offered after a taken one, on its button ("{day} at {time}", "{day} kl. {time}"). */
    slot: string;
    requiredMarker: string;
    requiredNote: string;
    submit: string;
    sending: string;
    honeypot: string;
    calendar: string;
  };
  messages: {
    loading: string;
    waitForSlots: string;
    noSlots: string;
    chooseSlot: string;
    missingTitle: string;
    missingText: string;
    checkTitle: string;
    checkText: string;
    required: string;
    invalidEmail: string;
    tooLong: string;
    takenTitle: string;
    takenText: string;
    errorTitle: string;
    errorText: string;
    bookedTitle: string;
    bookedText: string;
    unavailableTitle: string;
    unavailableText: string;
  };
  /** The contact form shown where no booking server answers, with the meeting as its subject. */
  contactForm: ContactFormProps;
}

const required = new Set<string>(requiredBookingFields);

/** "09.00" from the page's clock message and a two-digit hour and minute. */
function clockText(clock: string, hh: string, mm: string): string {
  return clock.replace('{hh}', hh).replace('{mm}', mm);
}

export default function BookingForm(props: BookingFormProps) {
  const id = props.idPrefix;
  const { labels, messages } = props;
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [slots, setSlots] = useState<Slot[]>([]);
  const [day, setDay] = useState('');
  const [start, setStart] = useState('');
  const [next, setNext] = useState<Slot[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [booked, setBooked] = useState<BookingConfirmation & { email: string }>();
  const [visitorZone, setVisitorZone] = useState<string>();
  const [waiting, setWaiting] = useState(false);

  const dayOf = (slot: Slot) => slot.start.slice(0, 10);
  // Formatters are costly to make: one of each per time zone, not one per slot and render.
  const formats = useMemo(() => new Map<string, Intl.DateTimeFormat>(), [props.intl]);
  const zoned = (options: Intl.DateTimeFormatOptions, timeZone = props.timeZone) => {
    const key = `${timeZone} ${JSON.stringify(options)}`;
    let format = formats.get(key);
    if (!format) formats.set(key, (format = new Intl.DateTimeFormat(props.intl, { ...options, timeZone })));
    return format;
  };
  // Times are written the way the page's language writes them (labels.clock), not as Intl does:
  // nb-NO gives "10:30" where Norwegian copy writes "10.30".
  const timeIn = (iso: string, timeZone?: string) => {
    const parts = zoned({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, timeZone).formatToParts(
      new Date(iso),
    );
    const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
    return clockText(labels.clock, part('hour'), part('minute'));
  };
  const dayName = (iso: string) => zoned({ weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(iso));
  // A zone's name in the page's language on the day shown ("Central European Summer Time" in
  // July, "… Standard Time" in January), never its IANA id.
  const zoneName = (at: string | undefined, timeZone = props.timeZone) =>
    zoned({ timeZoneName: 'long' }, timeZone)
      .formatToParts(at ? new Date(at) : new Date())
      .find((part) => part.type === 'timeZoneName')?.value ?? timeZone;

  async function loadSlots(): Promise<Slot[] | undefined> {
    try {
      const response = await fetch(`${props.endpoint}/slots?days=${props.days}`, {
        headers: { accept: 'application/json' },
      });
      if (!response.ok || !(response.headers.get('content-type') ?? '').includes('application/json')) return undefined;
      const body = (await response.json()) as { slots?: Slot[] };
      return Array.isArray(body.slots) ? body.slots : undefined;
    } catch {
      return undefined;
    }
  }

  function showSlots(list: Slot[], keep?: string) {
    setSlots(list);
    const chosen = list.find((slot) => slot.start === keep);
    setDay(chosen ? dayOf(chosen) : list[0] ? dayOf(list[0]) : '');
    setStart(chosen ? chosen.start : '');
  }

  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && zone !== props.timeZone) setVisitorZone(zone);
    const load = () =>
      void loadSlots().then((list) => {
        if (!list) return setStatus('unavailable');
        showSlots(list);
        setStatus('ready');
      });
    // The slots are asked for (and their list drawn) only as the form comes near the screen, so a
    // visitor who reads the agenda first pays nothing for them while the page loads.
    const form = formRef.current;
    if (!form || typeof IntersectionObserver === 'undefined') return load();
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        load();
      },
      { rootMargin: '200px' },
    );
    observer.observe(form);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (status === 'booked') panelRef.current?.focus();
    // A visitor who tried to send while the slots loaded is taken to them once they are in.
    if (status !== 'loading' && waiting) {
      setWaiting(false);
      formRef.current?.querySelector<HTMLElement>('.slot-picker select, [name="start"]')?.focus();
    }
  }, [status]);

  const errorMessage = (key: string) =>
    key === 'invalidEmail'
      ? messages.invalidEmail
      : key === 'tooLong'
        ? messages.tooLong
        : key === 'chooseSlot'
          ? messages.chooseSlot
          : messages.required;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Hydrated but the slots are not in yet: the fields of the form without script are about to
    // give way to the slot picker, so sending now could only fail. The visitor is told to wait.
    if (status === 'loading') {
      setWaiting(true);
      statusRef.current?.focus();
      return;
    }
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form).entries()) as Record<string, string>;
    if (data[honeypotField]) return;
    const request = {
      start,
      firstName: data.firstName ?? '',
      lastName: data.lastName ?? '',
      email: data.email ?? '',
      company: data.company ?? '',
      note: data.note ?? '',
      locale: props.locale,
      page: props.page,
    };
    const checked = validateBooking(request);
    if ('fieldErrors' in checked) {
      const errors = { ...checked.fieldErrors };
      if (errors.start) errors.start = 'chooseSlot';
      setFieldErrors(errors);
      setStatus('invalid');
      const first = Object.keys(errors)[0];
      form.querySelector<HTMLElement>(first === 'start' ? `[name="start"]` : `[name="${first}"]`)?.focus();
      return;
    }
    setFieldErrors({});
    setStatus('sending');
    try {
      const response = await fetch(props.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(checked.data),
      });
      if (response.status === 201) {
        setBooked({ ...((await response.json()) as BookingConfirmation), email: checked.data.email });
        setStatus('booked');
        return;
      }
      if (response.status === 409) {
        const body = (await response.json()) as { next?: Slot[] };
        setNext(Array.isArray(body.next) ? body.next : []);
        showSlots((await loadSlots()) ?? slots.filter((slot) => slot.start !== start));
        setStatus('taken');
        statusRef.current?.focus();
        return;
      }
      throw new Error(`status ${response.status}`);
    } catch {
      setStatus('error');
      statusRef.current?.focus();
    }
  }

  if (status === 'unavailable') {
    return (
      <div className="booking-unavailable">
        <div className="banner banner-info" role="status">
          <p className="banner-title">{messages.unavailableTitle}</p>
          <p>{messages.unavailableText}</p>
        </div>
        <Suspense fallback={<p>{messages.loading}</p>}>
          <ContactForm {...props.contactForm} />
        </Suspense>
      </div>
    );
  }

  if (status === 'booked' && booked) {
    const when = labels.when
      .replace('{day}', dayName(booked.start))
      .replace('{time}', timeIn(booked.start))
      .replace('{zone}', zoneName(booked.start));
    return (
      <div className="booking-form thank-you" role="status" tabIndex={-1} ref={panelRef}>
        <h2 className="thank-you-title">{messages.bookedTitle}</h2>
        <p>{messages.bookedText.replace('{when}', when).replace('{email}', booked.email)}</p>
        <a
          className="button button-primary"
          href={`${props.endpoint}/calendar.ics?id=${encodeURIComponent(booked.id)}`}
          download="meeting.ics"
        >
          {labels.calendar}
        </a>
      </div>
    );
  }

  const field = (name: FieldName, input: (common: FieldInputProps) => ReactElement) =>
    formField(
      {
        id: `${id}-${name}`,
        name,
        label: labels[name],
        required: required.has(name),
        requiredLabel: labels.requiredMarker,
        error: fieldErrors[name] && errorMessage(fieldErrors[name]),
      },
      input,
    );

  const invalidFields = Object.keys(fieldErrors);
  const fieldLabel = (name: string) => (name === 'start' ? labels.time : (labels[name as FieldName] ?? name));
  const banner =
    status === 'error'
      ? { title: messages.errorTitle, text: messages.errorText }
      : status === 'taken'
        ? { title: messages.takenTitle, text: messages.takenText }
        : status === 'invalid' && invalidFields.some((name) => fieldErrors[name] === 'required')
          ? { title: messages.missingTitle, text: messages.missingText }
          : status === 'invalid'
            ? {
                title: messages.checkTitle,
                text: messages.checkText.replace('{fields}', invalidFields.map(fieldLabel).join(', ')),
              }
            : undefined;
  const days = [...new Set(slots.map(dayOf))];
  const daySlots = slots.filter((slot) => dayOf(slot) === day);
  // The zones are named as on the day shown: its first slot's instant, or now.
  const shownAt = daySlots[0]?.start;
  const slotError = fieldErrors.start;
  const choose = (slot: Slot) => {
    setDay(dayOf(slot));
    setStart(slot.start);
    setNext([]);
    setStatus('ready');
  };

  return (
    // Until the slots are in, the browser checks the fields itself (noValidate stays off): a send
    // before then is stopped by it, or by submit() above, never posted half empty.
    <form
      ref={formRef}
      className="booking-form contact-form"
      method="post"
      action={props.endpoint}
      onSubmit={submit}
      noValidate={status !== 'loading'}
      aria-describedby={`${id}-required-note`}
    >
      <fieldset>
        <legend>{labels.legend}</legend>
        <p className="form-note" id={`${id}-required-note`}>
          {labels.requiredNote}
        </p>
        {status === 'loading' ? (
          // The form without script: a date and a time; the server finds the slot (or says it is taken).
          <div className="form-grid">
            <div className="field field-date">
              <label htmlFor={`${id}-date`}>
                {labels.date}
                <RequiredMarker label={labels.requiredMarker} />
              </label>
              <input id={`${id}-date`} name="date" type="date" required />
            </div>
            <div className="field field-time">
              <label htmlFor={`${id}-time`}>
                {labels.timeNoScript}
                <RequiredMarker label={labels.requiredMarker} />
              </label>
              <select id={`${id}-time`} name="time" required>
                {props.times.map((time) => (
                  <option key={time} value={time}>
                    {clockText(labels.clock, ...(time.split(':') as [string, string]))}
                  </option>
                ))}
              </select>
            </div>
          </div>
        ) : (
          <div className="slot-picker">
            <p className="slot-zones">
              {labels.timesIn.replace('{zone}', zoneName(shownAt))}
              {visitorZone && <> {labels.yourZone.replace('{zone}', zoneName(shownAt, visitorZone))}</>}
            </p>
            {slots.length === 0 ? (
              <p>{messages.noSlots}</p>
            ) : (
              <>
                <div className="field">
                  <label htmlFor={`${id}-day`}>{labels.day}</label>
                  <select
                    id={`${id}-day`}
                    value={day}
                    onChange={(event) => {
                      setDay(event.target.value);
                      setStart('');
                    }}
                  >
                    {days.map((date) => (
                      <option key={date} value={date}>
                        {dayName(`${date}T12:00:00Z`)}
                      </option>
                    ))}
                  </select>
                </div>
                <fieldset className="slots" aria-describedby={slotError ? `${id}-start-error` : undefined}>
                  <legend>
                    {labels.time}
                    <RequiredMarker label={labels.requiredMarker} />
                  </legend>
                  <div className="slot-list">
                    {daySlots.map((slot) => (
                      <label key={slot.start} className={slot.start === start ? 'slot is-selected' : 'slot'}>
                        <input
                          type="radio"
                          name="start"
                          value={slot.start}
                          checked={slot.start === start}
                          onChange={() => setStart(slot.start)}
                        />
                        <span className="slot-time">{timeIn(slot.start)}</span>
                        {visitorZone && (
                          <span className="slot-local">
                            {labels.yourTime.replace('{time}', timeIn(slot.start, visitorZone))}
                          </span>
                        )}
                      </label>
                    ))}
                  </div>
                  {slotError && (
                    <p className="field-error" id={`${id}-start-error`}>
                      {errorMessage(slotError)}
                    </p>
                  )}
                </fieldset>
              </>
            )}
          </div>
        )}
        <div className="form-status" role="status" aria-live="polite" tabIndex={-1} ref={statusRef}>
          {waiting && status === 'loading' && (
            <div className="banner banner-info">
              <p className="banner-title">{messages.loading}</p>
              <p>{messages.waitForSlots}</p>
            </div>
          )}
          {banner && (
            <div className="banner banner-error">
              <p className="banner-title">{banner.title}</p>
              <p>{banner.text}</p>
              {status === 'taken' && next.length > 0 && (
                <ul className="next-slots">
                  {next.map((slot) => (
                    <li key={slot.start}>
                      <button type="button" className="button button-secondary" onClick={() => choose(slot)}>
                        {labels.slot.replace('{day}', dayName(slot.start)).replace('{time}', timeIn(slot.start))}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </div>
        <div className="form-grid">
          {field('firstName', (common) => (
            <input {...common} type="text" autoComplete="given-name" maxLength={bookingLimits.name} />
          ))}
          {field('lastName', (common) => (
            <input {...common} type="text" autoComplete="family-name" maxLength={bookingLimits.name} />
          ))}
          {field('email', (common) => (
            <input {...common} type="email" autoComplete="email" maxLength={bookingLimits.email} />
          ))}
          {field('company', (common) => (
            <input {...common} type="text" autoComplete="organization" maxLength={bookingLimits.company} />
          ))}
          {field('note', (common) => (
            <textarea {...common} rows={4} maxLength={bookingLimits.note} />
          ))}
        </div>
        <div className="honeypot" aria-hidden="true">
          <label htmlFor={`${id}-${honeypotField}`}>{labels.honeypot}</label>
          <input id={`${id}-${honeypotField}`} name={honeypotField} type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <input type="hidden" name="locale" value={props.locale} />
        <input type="hidden" name="page" value={props.page} />
        <button type="submit" className="button button-primary" disabled={status === 'sending'}>
          {status === 'sending' ? labels.sending : labels.submit}
        </button>
      </fieldset>
    </form>
  );
}
