import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.CAPTCHA_PROVIDER).toBe('altcha');
    expect(config.SESSION_ABSOLUTE_SECONDS).toBe(12 * 3600);
    expect(config.SESSION_IDLE_SECONDS).toBe(2 * 3600);
    expect(config.isHttps).toBe(false);
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('refuses the e2e test clock route outside NODE_ENV=test', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', TEST_CLOCK_ROUTE: 'true' })).toThrow(
      /TEST_CLOCK_ROUTE/,
    );
    expect(() => loadConfig({ TEST_CLOCK_ROUTE: 'true' })).toThrow(/TEST_CLOCK_ROUTE/);
    expect(loadConfig({ NODE_ENV: 'test', TEST_CLOCK_ROUTE: 'true' }).TEST_CLOCK_ROUTE).toBe(true);
    expect(loadConfig({}).TEST_CLOCK_ROUTE).toBe(false);
  });

  it('fails with one line naming every bad value', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'nope' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('SMTP_URL');
  });

  it('chooses Turnstile when both keys are set and demands both when asked for', () => {
    expect(loadConfig({ TURNSTILE_SITE_KEY: 'a', TURNSTILE_SECRET_KEY: 'b' }).CAPTCHA_PROVIDER).toBe(
      'turnstile',
    );
    expect(() => loadConfig({ CAPTCHA_PROVIDER: 'turnstile' })).toThrow(/TURNSTILE_SITE_KEY/);
  });

  it('requires a secret key and an encryption key in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(32) })).toThrow(
      /ENCRYPTION_KEY/,
    );
    const production = loadConfig({
      NODE_ENV: 'production',
      SECRET_KEY: 'k'.repeat(32),
      ENCRYPTION_KEY: 'e'.repeat(64),
    });
    expect(production.SECRET_KEY).toBe('k'.repeat(32));
    expect(production.encryptionKey).toEqual(Buffer.alloc(32, 0xee));
  });

  it('detects https and trims the public URL', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://singo.example.com/' });
    expect(config.PUBLIC_URL).toBe('https://singo.example.com');
    expect(config.isHttps).toBe(true);
  });
});

describe('loadConfig: file store', () => {
  it('keeps files on disk unless FILE_STORE=s3', () => {
    const config = loadConfig({});
    expect(config.FILE_STORE).toBe('disk');
    expect(config.S3_REGION).toBe('us-east-1');
    expect(config.S3_FORCE_PATH_STYLE).toBe(false);
  });

  it('needs the bucket for s3, and the keys as a pair or not at all (then the machine role signs)', () => {
    expect(() => loadConfig({ FILE_STORE: 's3' })).toThrow(/S3_BUCKET: is required when FILE_STORE=s3/);
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'evidence', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /S3_SECRET_ACCESS_KEY: must be set with its pair/,
    );
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'evidence', S3_SECRET_ACCESS_KEY: 's' })).toThrow(
      /S3_ACCESS_KEY_ID: must be set with its pair/,
    );
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'evidence', S3_SESSION_TOKEN: 'token' })).toThrow(
      /S3_SESSION_TOKEN: needs S3_ACCESS_KEY_ID/,
    );
    const roleConfig = loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'evidence' });
    expect(roleConfig.S3_ACCESS_KEY_ID).toBeUndefined();
    const config = loadConfig({
      FILE_STORE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'ansim-evidence',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_SESSION_TOKEN: 'session-token',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.S3_FORCE_PATH_STYLE).toBe(true);
    expect(config.S3_SESSION_TOKEN).toBe('session-token');
  });

  it('refuses a malformed endpoint, bucket name or store kind', () => {
    expect(() => loadConfig({ FILE_STORE: 'ftp' })).toThrow(/FILE_STORE/);
    expect(() => loadConfig({ S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ S3_BUCKET: 'Evidence_Bucket' })).toThrow(/S3_BUCKET/);
  });
});
