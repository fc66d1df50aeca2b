/**
 * The engine's booking form for the built-in booking (`booking:` without `url:`), from
 * `typed-site/islands`: `<Island name="BookingForm" component={BookingForm} props={bookingFormProps(…)} />`.
 *
 * Without script it is a plain form POST of a date, a time of day in the booking's time zone and
 * who is coming; the endpoint finds the slot and redirects to the booked or failed page of the
 * page's language (`booking.results`). Hydrated, it reads the free slots (`<endpoint>/slots`) and
 * offers them per day, each time in the booking's time zone with the visitor's own beside it when
 * that differs; it checks the fields with the shared schema (booking-schema.ts, as the endpoint
 * does) and posts JSON. Booked, it says when and offers the calendar file; when the slot was
 * taken a moment earlier (409) it offers the next free ones. Where no server answers the slots (a
 * static host without the booking function) it says so, with a link to the contact page when
 * given. A polite live region says each state; focus goes to the first field to fix, or to the
 * message. Its words are the engine's copy of the page's language with the site's `text` over them.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactElement } from 'react';
import {
  bookingLimits,
  requiredBookingFields,
  validateBooking,
  type BookingConfirmation,
} from 'typed-site/booking-schema';
import { honeypotField } from 'typed-site/contact-schema';
import { bookingFormText, fillText, type BookingFormText } from './form-copy';
import {
  errorText,
  FieldError,
  formField,
  Honeypot,
  invalidMessage,
  RequiredMarker,
  StatusText,
  type FieldInputProps,
  type StatusMessage,
} from './form-field';

/** What a page gives the booking form (JSON: it is written into the page for hydration). */
export interface BookingFormProps {
  /** The booking API (`booking.endpoint`): POST here, the free slots at `<endpoint>/slots`, the calendar file at `<endpoint>/calendar.ics`. */
  endpoint: string;
  /** The page's locale: the copy's language, and the result page the endpoint redirects a plain POST to. */
  locale: string;
  /** The locale's `intl` (BCP 47), for the names of days. */
  intl: string;
  /** The page's URL, stored with the booking. */
  page: string;
  /** The booking's time zone (IANA), and how many days ahead slots are offered. */
  timeZone: string;
  days: number;
  /** The local start times of a day's slots ("09:00"), for the form without script. */
  times: string[];
  /** A page to write to instead, linked where meetings cannot be booked (the contact page). */
  contactHref?: string;
  /** Prefix of the form's element ids, unique on the page (default "booking"). */
  id?: string;
  /** The site's words over the engine's (any key of BookingFormText). */
  text?: Partial<BookingFormText>;
}

interface Slot {
  start: string;
  end: string;
}

type FieldName = 'firstName' | 'lastName' | 'email' | 'company' | 'note';
/** `loading` until the slots are in (and on the server), then `ready`; `sending`, `booked`, `taken` and `error` follow a send. */
type Status = 'loading' | 'ready' | 'unavailable' | 'sending' | 'booked' | 'taken' | 'error';

const required = new Set<string>(requiredBookingFields);

export default function BookingForm(props: BookingFormProps) {
  const id = props.id ?? 'booking';
  const text = bookingFormText(props.locale, props.text);
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [slots, setSlots] = useState<Slot[]>([]);
  const [day, setDay] = useState('');
  const [start, setStart] = useState('');
  const [next, setNext] = useState<Slot[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [booked, setBooked] = useState<BookingConfirmation & { email: string }>();
  const [visitorZone, setVisitorZone] = useState<string>();
  const [waiting, setWaiting] = useState(false);
  // Bumped by each send that ends without a field to fix: focus then moves to the message.
  const [settled, setSettled] = useState(0);

  // Formatters are costly to make: one per time zone and options, not one per slot and render.
  const formats = useMemo(() => new Map<string, Intl.DateTimeFormat>(), [props.intl]);
  const format = (options: Intl.DateTimeFormatOptions, timeZone = props.timeZone) => {
    const key = `${timeZone} ${JSON.stringify(options)}`;
    let made = formats.get(key);
    if (!made) formats.set(key, (made = new Intl.DateTimeFormat(props.intl, { ...options, timeZone })));
    return made;
  };
  // A time is written the way the copy writes it (`clock`), not as Intl does: nb-NO gives "10:30"
  // where Norwegian writes "10.30".
  const timeOf = (iso: string, timeZone?: string) => {
    const parts = format({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, timeZone).formatToParts(
      new Date(iso),
    );
    const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
    return fillText(text.clock, { hh: part('hour'), mm: part('minute') });
  };
  const dayOf = (slot: Slot) => slot.start.slice(0, 10);
  const dayName = (iso: string) => format({ weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(iso));
  const zoneName = () =>
    format({ timeZoneName: 'longGeneric' })
      .formatToParts(new Date())
      .find((part) => part.type === 'timeZoneName')?.value ?? props.timeZone;

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
    const kept = list.find((slot) => slot.start === keep);
    setDay(kept ? dayOf(kept) : list[0] ? dayOf(list[0]) : '');
    setStart(kept ? kept.start : '');
  }

  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && zone !== props.timeZone) setVisitorZone(zone);
    void loadSlots().then((list) => {
      if (!list) return setStatus('unavailable');
      showSlots(list);
      setStatus('ready');
    });
  }, []);

  useEffect(() => {
    if (settled > 0) statusRef.current?.focus();
  }, [settled]);

  useEffect(() => {
    // A visitor who sent while the slots loaded is taken to them once they are in.
    if (status !== 'loading' && waiting) {
      setWaiting(false);
      formRef.current?.querySelector<HTMLElement>('[name="start"], .site-form-field-day select')?.focus();
    }
  }, [status]);

  function focusField(form: HTMLFormElement, name: string) {
    form
      .querySelector<HTMLElement>(
        name === 'start' ? '[name="start"]:checked, [name="start"], .site-form-field-day select' : `[name="${name}"]`,
      )
      ?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    // Hydrated before the slots are in: the date and time of the form without script are about to
    // give way to the slots, so the visitor is asked to wait for them.
    if (status === 'loading') {
      setWaiting(true);
      statusRef.current?.focus();
      return;
    }
    if (status === 'sending') return;
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
      setStatus('ready');
      focusField(form, Object.keys(errors)[0]!);
      return;
    }
    setFieldErrors({});
    setNext([]);
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
      } else if (response.status === 409) {
        const answer = (await response.json().catch(() => ({}))) as { next?: Slot[] };
        setNext(Array.isArray(answer.next) ? answer.next : []);
        showSlots((await loadSlots()) ?? slots.filter((slot) => slot.start !== start));
        setStatus('taken');
      } else if (response.status === 400) {
        // The endpoint's own rules (a slot that is gone by now): shown at the field.
        const answer = (await response.json().catch(() => ({}))) as { fields?: Record<string, string> };
        const errors = Object.fromEntries(
          Object.entries(answer.fields ?? {}).map(([name, key]) => [
            name,
            name === 'start' ? (key === 'required' ? 'chooseSlot' : 'slotGone') : key,
          ]),
        );
        if (Object.keys(errors).length === 0) throw new Error('400 without fields');
        if (errors.start) showSlots((await loadSlots()) ?? slots);
        setFieldErrors(errors);
        setStatus('ready');
        focusField(form, Object.keys(errors)[0]!);
        return;
      } else setStatus('error');
    } catch {
      setStatus('error');
    }
    setSettled((count) => count + 1);
  }

  const labels: Record<FieldName | 'start', string> = {
    firstName: text.firstName,
    lastName: text.lastName,
    email: text.email,
    company: text.company,
    note: text.note,
    start: text.slot,
  };
  const invalid = Object.keys(fieldErrors);
  const message: StatusMessage | undefined =
    status === 'loading' && waiting
      ? { tone: 'info', title: text.loading, text: text.waitForSlots }
      : status === 'sending'
        ? { tone: 'info', title: text.sendingText }
        : status === 'booked' && booked
          ? {
              tone: 'success',
              title: text.bookedTitle,
              text: fillText(text.bookedText, {
                when: fillText(text.when, { day: dayName(booked.start), time: timeOf(booked.start), zone: zoneName() }),
                email: booked.email,
              }),
              extra: (
                <p>
                  <a
                    className="site-form-calendar"
                    href={`${props.endpoint}/calendar.ics?id=${encodeURIComponent(booked.id)}`}
                    download="meeting.ics"
                  >
                    {text.calendar}
                  </a>
                </p>
              ),
            }
          : status === 'unavailable'
            ? {
                tone: 'info',
                title: text.unavailableTitle,
                text: text.unavailableText,
                extra: props.contactHref ? (
                  <p>
                    <a className="site-form-contact-link" href={props.contactHref}>
                      {text.contactLink}
                    </a>
                  </p>
                ) : undefined,
              }
            : status === 'taken'
              ? {
                  tone: 'error',
                  title: text.takenTitle,
                  text: next.length > 0 ? text.takenText : undefined,
                  extra: next.length > 0 && (
                    <ul className="site-form-next">
                      {next.map((slot) => (
                        <li key={slot.start}>
                          <button type="button" className="site-form-next-slot" onClick={() => choose(slot)}>
                            {dayName(slot.start)} {timeOf(slot.start)}
                          </button>
                        </li>
                      ))}
                    </ul>
                  ),
                }
              : status === 'error'
                ? { tone: 'error', title: text.errorTitle, text: text.errorText }
                : invalid.length > 0
                  ? invalidMessage(
                      text,
                      invalid.map((name) => labels[name as FieldName | 'start'] ?? name),
                    )
                  : undefined;

  function choose(slot: Slot) {
    setDay(dayOf(slot));
    setStart(slot.start);
    setNext([]);
    setStatus('ready');
    const { start: _slotError, ...rest } = fieldErrors;
    setFieldErrors(rest);
    // The chosen time's radio button exists once the day's times are drawn.
    setTimeout(() => formRef.current?.querySelector<HTMLElement>('[name="start"]:checked')?.focus(), 0);
  }

  const field = (name: FieldName, input: (common: FieldInputProps) => ReactElement) =>
    formField(
      {
        id: `${id}-${name}`,
        name,
        label: labels[name],
        required: required.has(name),
        requiredWord: text.requiredWord,
        error: fieldErrors[name] && errorText(text, fieldErrors[name]),
      },
      input,
    );
  const slotError =
    fieldErrors.start &&
    (fieldErrors.start === 'chooseSlot'
      ? text.chooseSlot
      : fieldErrors.start === 'slotGone'
        ? text.slotGone
        : errorText(text, fieldErrors.start));
  const days = [...new Set(slots.map(dayOf))];
  const daySlots = slots.filter((slot) => dayOf(slot) === day);
  const showForm = status !== 'booked' && status !== 'unavailable';

  return (
    <div className="site-form site-form-booking" data-state={status}>
      <div className="site-form-status" role="status" aria-live="polite" tabIndex={-1} ref={statusRef}>
        <StatusText message={message} />
      </div>
      {showForm && (
        // Until the slots are in, the browser checks the fields itself (noValidate stays off): a
        // send then is stopped by it or by submit() above, never posted half empty.
        <form
          ref={formRef}
          className="site-form-form"
          method="post"
          action={props.endpoint}
          onSubmit={submit}
          noValidate={status !== 'loading'}
          aria-describedby={`${id}-required-note`}
        >
          <fieldset className="site-form-fieldset">
            <legend className="site-form-legend">{text.legend}</legend>
            <p className="site-form-note" id={`${id}-required-note`}>
              {text.requiredNote}
            </p>
            {status === 'loading' ? (
              // The form without script: a date and a time; the endpoint finds the slot (or says it is taken).
              <div className="site-form-fields">
                <div className="site-form-field site-form-field-date">
                  <label className="site-form-label" htmlFor={`${id}-date`}>
                    {text.date}
                    <RequiredMarker word={text.requiredWord} />
                  </label>
                  <input id={`${id}-date`} name="date" type="date" required />
                </div>
                <div className="site-form-field site-form-field-time">
                  <label className="site-form-label" htmlFor={`${id}-time`}>
                    {fillText(text.time, { zone: props.timeZone })}
                    <RequiredMarker word={text.requiredWord} />
                  </label>
                  <select id={`${id}-time`} name="time" required>
                    {props.times.map((time) => {
                      const [hh = '', mm = ''] = time.split(':');
                      return (
                        <option key={time} value={time}>
                          {fillText(text.clock, { hh, mm })}
                        </option>
                      );
                    })}
                  </select>
                </div>
              </div>
            ) : (
              <div className="site-form-slots">
                <p className="site-form-zone">{fillText(text.timesIn, { zone: zoneName() })}</p>
                {slots.length === 0 ? (
                  <p className="site-form-no-slots">{text.noSlots}</p>
                ) : (
                  <>
                    <div className="site-form-field site-form-field-day">
                      <label className="site-form-label" htmlFor={`${id}-day`}>
                        {text.day}
                      </label>
                      <select
                        id={`${id}-day`}
                        value={day}
                        onChange={(event) => {
                          setDay(event.currentTarget.value);
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
                    <fieldset
                      className="site-form-slot-group"
                      aria-describedby={slotError ? `${id}-start-error` : undefined}
                    >
                      <legend className="site-form-label">
                        {text.slot}
                        <RequiredMarker word={text.requiredWord} />
                      </legend>
                      <div className="site-form-slot-list">
                        {daySlots.map((slot) => (
                          <label
                            key={slot.start}
                            className={slot.start === start ? 'site-form-slot is-selected' : 'site-form-slot'}
                          >
                            <input
                              type="radio"
                              name="start"
                              value={slot.start}
                              checked={slot.start === start}
                              onChange={() => setStart(slot.start)}
                              aria-invalid={slotError ? true : undefined}
                            />
                            <span className="site-form-slot-time">{timeOf(slot.start)}</span>
                            {visitorZone && (
                              <span className="site-form-slot-local">
                                {fillText(text.yourTime, { time: timeOf(slot.start, visitorZone) })}
                              </span>
                            )}
                          </label>
                        ))}
                      </div>
                      {slotError && <FieldError id={`${id}-start-error`}>{slotError}</FieldError>}
                    </fieldset>
                  </>
                )}
              </div>
            )}
            <div className="site-form-fields">
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
            <Honeypot id={`${id}-${honeypotField}`} name={honeypotField} label={text.honeypot} />
            <input type="hidden" name="locale" value={props.locale} />
            <input type="hidden" name="page" value={props.page} />
            <button type="submit" className="site-form-submit" disabled={status === 'sending'}>
              {status === 'sending' ? text.sending : text.submit}
            </button>
          </fieldset>
        </form>
      )}
    </div>
  );
}
