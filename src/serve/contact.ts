/**
 * `POST /api/contact`: the contact form's server side. JSON (from the hydrated form) or a plain
 * form POST (without script); validated with the shared schema; at most 32 KB; at most 5
 * submissions a minute per address; each accepted submission appended as one JSON line and
 * flushed to disk before the answer. Appends are serialised, so lines never interleave.
 */
import { mkdir, open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { honeypotField, validateContact } from '../islands/contact-schema.js';

/** Options of the contact handler. */
export interface ContactHandlerOptions {
  /** Folder of the submissions file (contact.dataDir). */
  dataDir: string;
  /** Where a plain form POST lands: the thank-you or error page of a locale. */
  resultPage(locale: string, outcome: 'sent' | 'failed'): string;
  maxBytes?: number;
  /** Submissions per address per window. */
  rateLimit?: number;
  rateWindowMs?: number;
  now?: () => number;
}

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Creates the handler; `handle` answers POST requests to the contact endpoint. */
export function createContactHandler(options: ContactHandlerOptions) {
  const maxBytes = options.maxBytes ?? 32 * 1024;
  const limit = options.rateLimit ?? 5;
  const windowMs = options.rateWindowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const recent = new Map<string, number[]>();
  const file = join(options.dataDir, 'contact-submissions.jsonl');
  let queue: Promise<unknown> = Promise.resolve();

  const append = (line: string) => {
    const write = queue.then(async () => {
      await mkdir(options.dataDir, { recursive: true });
      const handle = await open(file, 'a');
      try {
        await handle.write(line);
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
    queue = write.catch(() => undefined);
    return write;
  };

  const allow = (address: string) => {
    const time = now();
    const times = (recent.get(address) ?? []).filter((stamp) => time - stamp < windowMs);
    if (times.length >= limit) {
      recent.set(address, times);
      return false;
    }
    times.push(time);
    recent.set(address, times);
    return true;
  };

  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const isForm = String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
      response.end(JSON.stringify(body));
    };
    let fields: Record<string, unknown>;
    try {
      const text = await readBody(request, maxBytes);
      fields = isForm ? Object.fromEntries(new URLSearchParams(text)) : (JSON.parse(text) as Record<string, unknown>);
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new SyntaxError('not an object');
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        json(413, { error: 'payload_too_large', maxBytes });
        request.resume();
        return;
      }
      json(400, { error: 'invalid_body' });
      return;
    }
    const locale = typeof fields.locale === 'string' && /^[a-z]{2,3}$/.test(fields.locale) ? fields.locale : 'en';
    const finish = (status: number, body: unknown, outcome: 'sent' | 'failed') => {
      if (isForm) {
        response.writeHead(303, { location: options.resultPage(locale, outcome), 'cache-control': 'no-store' });
        response.end();
      } else json(status, body);
    };
    if (!allow(request.socket.remoteAddress ?? 'unknown')) {
      if (isForm) finish(429, {}, 'failed');
      else json(429, { error: 'too_many_requests' }, { 'retry-after': String(Math.ceil(windowMs / 1000)) });
      return;
    }
    if (typeof fields[honeypotField] === 'string' && fields[honeypotField] !== '') {
      finish(201, { ok: true }, 'sent');
      return;
    }
    const { [honeypotField]: _honeypot, ...submitted } = fields;
    const checked = validateContact(submitted);
    if ('fieldErrors' in checked) {
      finish(400, { error: 'invalid_fields', fields: checked.fieldErrors }, 'failed');
      return;
    }
    try {
      await append(`${JSON.stringify({ receivedAt: new Date(now()).toISOString(), ...checked.data })}\n`);
    } catch {
      finish(500, { error: 'storage_failed' }, 'failed');
      return;
    }
    finish(201, { ok: true }, 'sent');
  };
}
