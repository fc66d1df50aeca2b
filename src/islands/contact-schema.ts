/**
 * The contact form's one schema, used by the browser (before sending) and by the server (before
 * storing). Built with zod/mini so the browser bundle stays small.
 */
import * as z from 'zod/mini';

/** The fields a visitor must fill in. */
export const requiredContactFields = ['firstName', 'lastName', 'email', 'message'] as const;

/** Field limits, shared with the form's maxlength attributes. */
export const contactLimits = { name: 100, email: 254, company: 200, subject: 200, message: 5000 } as const;

const requiredText = (max: number) =>
  z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(max, 'tooLong'));
const optionalText = (max: number) => z._default(z.string().check(z.trim(), z.maxLength(max, 'tooLong')), '');

/**
 * The enquiry type of a submission, one of the site's `contact.types`: left empty, it is `other`
 * when the site lists that type, else not stored; a site without types takes none.
 */
function typeField(types: readonly string[]) {
  if (!types.length) return z.optional(z.never());
  const known = z.enum(types as [string, ...string[]]);
  return types.includes('other') ? z._default(known, 'other') : z.optional(known);
}

/** A submission to a site whose form offers `types`. Messages of failed checks are keys under `contactForm.` (required, tooLong, invalidEmail). */
export function contactSchemaOf(types: readonly string[]) {
  return z.object({
    firstName: requiredText(contactLimits.name),
    lastName: requiredText(contactLimits.name),
    email: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'required'),
        z.maxLength(contactLimits.email, 'tooLong'),
        z.email('invalidEmail'),
      ),
    company: optionalText(contactLimits.company),
    type: typeField(types),
    subject: optionalText(contactLimits.subject),
    message: requiredText(contactLimits.message),
    locale: z._default(z.string().check(z.regex(/^[a-z]{2,3}$/)), 'en'),
    /** The page the form was sent from (for the no-script thank-you redirect). */
    page: z._default(z.string().check(z.maxLength(300), z.regex(/^\/[^\s]*$/)), '/'),
  });
}

/** A valid submission. */
export type ContactSubmission = Omit<z.output<ReturnType<typeof contactSchemaOf>>, 'type'> & { type?: string };

const schemas = new Map<string, ReturnType<typeof contactSchemaOf>>();

/** Query parameter of a link to the contact page that preselects a plan (`?plan=free`). */
export const contactPlanParameter = 'plan';

/** Query parameter of a link to the contact page that preselects a topic (`?topic=meeting`). */
export const contactTopicParameter = 'topic';

/** The honeypot field's name: real visitors never see or fill it. */
export const honeypotField = 'website';

/**
 * Field errors of a submission: field → message key ('required' | 'tooLong' | 'invalidEmail' | 'invalid').
 * An enquiry type left on the empty choice ("I am a" starts empty) counts as not given.
 */
export function validateContact(
  input: unknown,
  types: readonly string[],
): { data: ContactSubmission } | { fieldErrors: Record<string, string> } {
  const given =
    typeof input === 'object' && input !== null && (input as Record<string, unknown>).type === ''
      ? { ...input, type: undefined }
      : input;
  const key = types.join(' ');
  let schema = schemas.get(key);
  if (!schema) schemas.set(key, (schema = contactSchemaOf(types)));
  const result = schema.safeParse(given);
  return result.success ? { data: result.data } : { fieldErrors: fieldErrorsOf(result.error.issues) };
}

/**
 * The first problem of each field of a failed form schema, as a message key: 'required',
 * 'tooLong' and 'invalidEmail' as the checks name them, a value of the wrong type as
 * 'required', anything else 'invalid'. Shared by the contact and booking schemas.
 */
export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string; code: string }[],
): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'form');
    if (fieldErrors[field]) continue;
    const known = ['required', 'tooLong', 'invalidEmail'];
    fieldErrors[field] = known.includes(issue.message)
      ? issue.message
      : issue.code === 'invalid_type'
        ? 'required'
        : 'invalid';
  }
  return fieldErrors;
}
