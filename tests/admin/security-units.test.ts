/** The admin's security pieces on their own: password hashes, sessions, sign-in links, the guard. */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { hasRole, isAllowedAdminHost, isSameOriginRequest, loopbackHosts } from '../../src/admin/guard';
import { hashPassword, needsRehash, parsePasswordHash, verifyPassword } from '../../src/admin/passwords';
import { createSessionStore, sessionKeyOf } from '../../src/admin/sessions';
import { tempStore } from '../helpers/store';
import { createSignInTokens } from '../../src/admin/sign-in-tokens';
import { checkDevAdminHost } from '../../src/admin/mount';

const weak = { N: 1024, r: 8, p: 1 };

describe('password hashes', () => {
  it('are self-describing scrypt strings with the required parameters, a 16-byte salt and a 64-byte key', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$N=131072,r=8,p=1\$[\w-]+\$[\w-]+$/);
    const parts = parsePasswordHash(stored)!;
    expect(parts.salt.length).toBe(16);
    expect(parts.key.length).toBe(64);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });

  it('verify with the parameters stored in the string, and say when they are below the current ones', async () => {
    const old = await hashPassword('s3cret password', weak);
    expect(old.startsWith('scrypt$N=1024,r=8,p=1$')).toBe(true);
    expect(await verifyPassword('s3cret password', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(old, weak)).toBe(false);
    const salted = await hashPassword('s3cret password', weak);
    expect(salted).not.toBe(old);
  });

  it('refuse malformed or absurd strings without throwing', async () => {
    for (const stored of [
      '',
      'plain',
      'scrypt$N=1000,r=8,p=1$AA$AA',
      'scrypt$N=1099511627776,r=8,p=1$AA$AA',
      'bcrypt$2b$10$x',
    ]) {
      expect(await verifyPassword('anything', stored)).toBe(false);
    }
  });
});

describe('sessions', () => {
  it('end after 30 minutes idle and after 12 hours in all, rotate on sign-in, and are stored by the hash of their token', async () => {
    let time = Date.parse('2030-01-01T00:00:00Z');
    const source = await tempStore();
    try {
      const store = createSessionStore(source, { now: () => time });
      const first = await store.create({ email: 'a@b.co', role: 'editor' });
      expect(first.id).toMatch(/^[\w-]{43}$/);
      // The database holds the token's hash, never the token.
      const rows = await (
        await source.get()
      ).peekSession(sessionKeyOf(first.id), {
        idleBefore: '2000-01-01T00:00:00.000Z',
        createdBefore: '2000-01-01T00:00:00.000Z',
      });
      expect(rows?.tokenHash).not.toBe(first.id);
      time += 29 * 60_000;
      expect((await store.touch(first.id))?.email).toBe('a@b.co');
      time += 29 * 60_000;
      expect(await store.touch(first.id)).toBeDefined();
      time += 30 * 60_000;
      expect(await store.touch(first.id)).toBeUndefined();

      const second = await store.create({ email: 'a@b.co', role: 'editor' });
      for (let hour = 0; hour < 12 * 4 - 1; hour++) {
        time += 15 * 60_000;
        expect(await store.touch(second.id)).toBeDefined();
      }
      time += 15 * 60_000;
      expect(await store.touch(second.id)).toBeUndefined();

      const third = await store.create({ email: 'a@b.co', role: 'editor' });
      const rotated = await store.create({ email: 'a@b.co', role: 'editor' }, third.id);
      expect(rotated.id).not.toBe(third.id);
      expect(rotated.csrfToken).not.toBe(third.csrfToken);
      expect(await store.touch(third.id)).toBeUndefined();
      expect(await store.touch(rotated.id)).toBeDefined();
      expect(await store.touch('not a token')).toBeUndefined();
    } finally {
      await source.close();
    }
  });
});

describe('sign-in links of site dev', () => {
  it('are 32 random bytes, good once, for 10 minutes', () => {
    let time = 0;
    const tokens = createSignInTokens({ now: () => time });
    const token = tokens.issue();
    expect(Buffer.from(token, 'base64url').length).toBe(32);
    expect(tokens.redeem(token)).toBe(true);
    expect(tokens.redeem(token)).toBe(false);
    const late = tokens.issue();
    time += 10 * 60_000;
    expect(tokens.redeem(late)).toBe(false);
    expect(tokens.redeem(undefined)).toBe(false);
    expect(tokens.redeem('')).toBe(false);
  });
});

describe('the guard', () => {
  const request = (headers: Record<string, string>) => ({ headers, socket: {} }) as unknown as IncomingMessage;
  const origins = { hosts: ['mendwise.example', ...loopbackHosts(4321)], origins: ['https://mendwise.example'] };

  it("allows listed hosts only (DNS rebinding sends the attacker's name)", () => {
    expect(isAllowedAdminHost(request({ host: '127.0.0.1:4321' }), origins)).toBe(true);
    expect(isAllowedAdminHost(request({ host: 'localhost:4321' }), origins)).toBe(true);
    expect(isAllowedAdminHost(request({ host: '127.0.0.1:4322' }), origins)).toBe(false);
    expect(isAllowedAdminHost(request({ host: 'evil.example:4321' }), origins)).toBe(false);
    expect(isAllowedAdminHost(request({}), origins)).toBe(false);
  });

  it('wants a matching Origin on unsafe requests, and Sec-Fetch-Site same-origin when sent', () => {
    expect(isSameOriginRequest(request({ host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4321' }), origins)).toBe(
      true,
    );
    expect(
      isSameOriginRequest(request({ host: 'mendwise.example', origin: 'https://mendwise.example' }), origins),
    ).toBe(true);
    expect(isSameOriginRequest(request({ host: '127.0.0.1:4321' }), origins)).toBe(false);
    expect(isSameOriginRequest(request({ host: '127.0.0.1:4321', origin: 'null' }), origins)).toBe(false);
    expect(isSameOriginRequest(request({ host: '127.0.0.1:4321', origin: 'http://evil.example' }), origins)).toBe(
      false,
    );
    expect(
      isSameOriginRequest(
        request({ host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4321', 'sec-fetch-site': 'same-site' }),
        origins,
      ),
    ).toBe(false);
  });

  it('lets an admin do what an editor may, not the other way round', () => {
    const session = (role: 'editor' | 'admin') => ({ id: '', email: '', csrfToken: '', created: 0, lastSeen: 0, role });
    expect(hasRole(session('admin'), 'editor')).toBe(true);
    expect(hasRole(session('editor'), 'admin')).toBe(false);
  });

  it('refuses a non-loopback host for site dev with the admin on', () => {
    expect(() => checkDevAdminHost('127.0.0.1')).not.toThrow();
    expect(() => checkDevAdminHost('::1')).not.toThrow();
    expect(() => checkDevAdminHost('0.0.0.0')).toThrow(/will not listen on 0\.0\.0\.0/);
    expect(() => checkDevAdminHost('192.168.1.4')).toThrow(/listen on 192\.168\.1\.4/);
  });
});
