/**
 * The contact form's rules, the one copy that `site serve` (serve/contact.ts) and the host
 * functions (targets/runtime/web-endpoint.ts) both apply once a submission's body is read:
 * honeypot, then the shared schema, then the client's budget, then storage. A filled honeypot
 * gets the answer of a success and stores nothing; only what is stored counts against the budget.
 * No Node APIs here: the host functions bundle it.
 */
import { honeypotField } from '../islands/contact-schema.js';
import { spendBudget, storageFailed, withPlainPage, type ClientBudget, type FormAnswer } from './answer.js';

/** The contact endpoint's limits, the same in `site serve` and in the host functions. */
export const contactEndpointLimits = { maxBytes: 32 * 1024, rateLimit: 5, rateWindowMs: 60_000 } as const;

/** Options of `createContactFlow`. */
export interface ContactFlowOptions<Data> {
  /** The shared schema's check (islands/contact-schema.ts `validateContact` with the site's enquiry types). */
  validate(fields: Record<string, unknown>): { data: Data } | { fieldErrors: Record<string, string> };
  budget: ClientBudget;
  /** Keeps one accepted submission; rejects when it could not. */
  store(record: { receivedAt: string } & Data): Promise<void>;
  now?: () => number;
}

/** The answer to a submission that was taken (or to a bot, which must not tell the difference). */
const sent: FormAnswer = { status: 201, body: { ok: true } };

/** Creates the flow: (the fields sent, the client) → the answer. */
export function createContactFlow<Data extends object>(options: ContactFlowOptions<Data>) {
  const now = options.now ?? Date.now;
  return async function submit(fields: Record<string, unknown>, client: string): Promise<FormAnswer> {
    if (typeof fields[honeypotField] === 'string' && fields[honeypotField] !== '') return sent;
    const { [honeypotField]: _honeypot, ...submitted } = fields;
    const checked = options.validate(withPlainPage(submitted));
    if ('fieldErrors' in checked)
      return { status: 400, body: { error: 'invalid_fields', fields: checked.fieldErrors } };
    const refused = spendBudget(options.budget, client);
    if (refused) return refused;
    try {
      await options.store({ receivedAt: new Date(now()).toISOString(), ...checked.data });
    } catch {
      return storageFailed;
    }
    return sent;
  };
}
