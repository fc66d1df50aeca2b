/**
 * The booking request's one schema, used by the booking island (before sending) and by the
 * server (before storing): the slot's start and who is coming. Built with zod/mini so the
 * browser bundle stays small. Whether the start is a real, free slot is the server's to decide.
 */
import * as z from 'zod/mini';
import { fieldErrorsOf } from './contact-schema.js';

/** Field limits, shared with the form's maxlength attributes. */
export const bookingLimits = { name: 100, email: 254, company: 200, note: 2000, start: 40 } as const;

/** The fields a visitor must fill in (besides choosing a slot). */
export const requiredBookingFields = ['firstName', 'lastName', 'email'] as const;

const requiredText = (max: number) =>
  z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(max, 'tooLong'));
const optionalText = (max: number) => z._default(z.string().check(z.trim(), z.maxLength(max, 'tooLong')), '');

/** A booking request. Messages of failed checks are keys under `booking.` (required, tooLong, invalidEmail). */
export const bookingSchema = z.object({
  start: requiredText(bookingLimits.start),
  firstName: requiredText(bookingLimits.name),
  lastName: requiredText(bookingLimits.name),
  email: z
    .string()
    .check(z.trim(), z.minLength(1, 'required'), z.maxLength(bookingLimits.email, 'tooLong'), z.email('invalidEmail')),
  company: optionalText(bookingLimits.company),
  note: optionalText(bookingLimits.note),
  locale: z._default(z.string().check(z.regex(/^[a-z]{2,3}$/)), 'en'),
  /** The page the form was sent from (the inbox names it and its audience). */
  page: z._default(z.string().check(z.maxLength(300), z.regex(/^\/[^\s]*$/)), '/'),
});

/** A valid booking request. */
export type BookingRequest = z.output<typeof bookingSchema>;

/** A booked meeting as the API answers it (201). */
export interface BookingConfirmation {
  id: string;
  start: string;
  end: string;
}

/** Field errors of a request: field → message key ('required' | 'tooLong' | 'invalidEmail' | 'invalid'). */
export function validateBooking(input: unknown): { data: BookingRequest } | { fieldErrors: Record<string, string> } {
  const result = bookingSchema.safeParse(input);
  return result.success ? { data: result.data } : { fieldErrors: fieldErrorsOf(result.error.issues) };
}
