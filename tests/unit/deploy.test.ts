/** Where a build is published: the flag, SITE_ORIGIN, and the preview variables of Netlify and Vercel. */
import { describe, expect, it } from 'vitest';
import { deploySettings } from '../../src/config/deploy';
import { SiteError } from '../../src/errors';

describe('deploySettings', () => {
  it('publishes at site.origin, indexable, when nothing says otherwise (a production deploy on Netlify too)', () => {
    expect(deploySettings({})).toEqual({ preview: false });
    expect(deploySettings({ CONTEXT: 'production', DEPLOY_PRIME_URL: 'https://main--x.netlify.app' })).toEqual({
      preview: false,
    });
    expect(deploySettings({ VERCEL_ENV: 'production', VERCEL_URL: 'x.vercel.app' })).toEqual({ preview: false });
  });

  it('takes the flag over SITE_ORIGIN over the host variables, without a trailing slash', () => {
    const env = {
      SITE_ORIGIN: 'https://env.example',
      CONTEXT: 'deploy-preview',
      DEPLOY_PRIME_URL: 'https://deploy-preview-7--x.netlify.app',
    };
    expect(deploySettings(env, 'https://flag.example/')).toEqual({
      origin: 'https://flag.example',
      originFrom: '--origin',
      preview: true,
    });
    expect(deploySettings(env)).toMatchObject({ origin: 'https://env.example', originFrom: 'SITE_ORIGIN' });
    expect(deploySettings({ ...env, SITE_ORIGIN: '' })).toMatchObject({
      origin: 'https://deploy-preview-7--x.netlify.app',
      preview: true,
    });
  });

  it('knows the preview deploys of Netlify and Vercel, and SITE_PREVIEW decides when set', () => {
    expect(deploySettings({ CONTEXT: 'branch-deploy', DEPLOY_PRIME_URL: 'https://feature--x.netlify.app' })).toEqual({
      origin: 'https://feature--x.netlify.app',
      originFrom: "Netlify's DEPLOY_PRIME_URL",
      preview: true,
    });
    expect(deploySettings({ VERCEL_ENV: 'preview', VERCEL_URL: 'x-git-branch.vercel.app' })).toEqual({
      origin: 'https://x-git-branch.vercel.app',
      originFrom: "Vercel's VERCEL_URL",
      preview: true,
    });
    expect(deploySettings({ VERCEL_ENV: 'preview', VERCEL_URL: 'x.vercel.app', SITE_PREVIEW: '0' }).preview).toBe(
      false,
    );
    expect(deploySettings({ SITE_PREVIEW: '1' })).toEqual({ preview: true });
  });

  it('refuses an origin with a path or without a scheme, naming where it came from', () => {
    for (const [value, from] of [
      ['example.com', '--origin'],
      ['https://example.com/blog', '--origin'],
    ] as const) {
      let error: unknown;
      try {
        deploySettings({}, value);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(SiteError);
      expect((error as SiteError).message).toContain(from);
      expect((error as SiteError).hint).toContain('https://example.com');
    }
    expect(() => deploySettings({ SITE_ORIGIN: 'ftp://x' })).toThrow(/SITE_ORIGIN/);
  });
});
