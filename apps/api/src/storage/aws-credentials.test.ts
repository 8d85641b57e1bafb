import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ambientCredentials,
  REFRESH_BEFORE_EXPIRY_MS,
  REFRESH_RETRY_MS,
  refreshingCredentials,
} from './aws-credentials.ts';

/**
 * A local stand-in for the two metadata services: EC2's IMDSv2 (a session token first, then the role, then its
 * credentials) and the ECS/EKS container endpoint. Each answer hands out the next numbered key pair, so a test
 * sees when the driver fetched again.
 */
interface FakeMetadata {
  url: string;
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders }[];
  issued: number;
  expiresAt: Date;
  failing: boolean;
  close(): Promise<void>;
}

const IMDS_TOKEN = 'imds-session-token';

async function startFakeMetadata(): Promise<FakeMetadata> {
  const fake = {
    requests: [],
    issued: 0,
    expiresAt: new Date('2030-01-01T01:00:00Z'),
    failing: false,
  } as unknown as FakeMetadata;
  const credentials = () => {
    fake.issued += 1;
    return JSON.stringify({
      Code: 'Success',
      AccessKeyId: `ASIA-TEMPORARY-${fake.issued}`,
      SecretAccessKey: `secret-${fake.issued}`,
      Token: `session-token-${fake.issued}`,
      Expiration: fake.expiresAt.toISOString(),
    });
  };
  const server = http.createServer((request, response) => {
    fake.requests.push({ method: request.method!, path: request.url!, headers: request.headers });
    const answer = (status: number, body: string) => response.writeHead(status).end(body);
    if (fake.failing) return answer(500, 'down');
    if (request.url === '/latest/api/token' && request.method === 'PUT')
      return answer(request.headers['x-aws-ec2-metadata-token-ttl-seconds'] ? 200 : 400, IMDS_TOKEN);
    if (request.url?.startsWith('/latest/meta-data/')) {
      // IMDSv2 only: without the session token the service answers 401.
      if (request.headers['x-aws-ec2-metadata-token'] !== IMDS_TOKEN) return answer(401, '');
      if (request.url === '/latest/meta-data/iam/security-credentials/')
        return answer(200, 'ansim-api-role\n');
      if (request.url === '/latest/meta-data/iam/security-credentials/ansim-api-role')
        return answer(200, credentials());
    }
    if (request.url === '/ecs/credentials') {
      if (request.headers.authorization !== 'container-auth-token') return answer(403, '');
      return answer(200, credentials());
    }
    answer(404, '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

describe('ambientCredentials', () => {
  let fake: FakeMetadata;
  let clock: number;
  const now = () => clock;

  beforeAll(async () => {
    fake = await startFakeMetadata();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.issued = 0;
    fake.failing = false;
    clock = new Date('2030-01-01T00:00:00Z').getTime();
    fake.expiresAt = new Date(clock + 60 * 60_000);
  });

  it('takes AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN first', async () => {
    const source = ambientCredentials({
      env: {
        AWS_ACCESS_KEY_ID: 'ASIA-FROM-ENV',
        AWS_SECRET_ACCESS_KEY: 'env-secret',
        AWS_SESSION_TOKEN: 'env-token',
        AWS_CONTAINER_CREDENTIALS_FULL_URI: `${fake.url}/ecs/credentials`,
      },
    });
    expect(await source()).toEqual({
      accessKeyId: 'ASIA-FROM-ENV',
      secretAccessKey: 'env-secret',
      sessionToken: 'env-token',
    });
    expect(fake.requests).toEqual([]);
  });

  it('reads the instance role through IMDSv2 and fetches again five minutes before expiry', async () => {
    const source = ambientCredentials({ env: { AWS_EC2_METADATA_SERVICE_ENDPOINT: fake.url }, now });

    const first = await Promise.all([source(), source(), source()]);
    expect(first.map((credentials) => credentials.accessKeyId)).toEqual(Array(3).fill('ASIA-TEMPORARY-1'));
    expect(first[0]).toMatchObject({ secretAccessKey: 'secret-1', sessionToken: 'session-token-1' });
    expect(first[0]!.expiresAt).toEqual(fake.expiresAt);
    // Three concurrent callers, one fetch: token, role, credentials.
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'PUT /latest/api/token',
      'GET /latest/meta-data/iam/security-credentials/',
      'GET /latest/meta-data/iam/security-credentials/ansim-api-role',
    ]);

    clock = fake.expiresAt.getTime() - REFRESH_BEFORE_EXPIRY_MS - 1000;
    expect((await source()).accessKeyId).toBe('ASIA-TEMPORARY-1');
    expect(fake.issued).toBe(1);

    fake.expiresAt = new Date(fake.expiresAt.getTime() + 60 * 60_000);
    clock += 2000;
    expect(await source()).toMatchObject({
      accessKeyId: 'ASIA-TEMPORARY-2',
      sessionToken: 'session-token-2',
    });
    expect(fake.issued).toBe(2);
  });

  it('reads the container endpoint with its authorization token file', async () => {
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ansim-aws-token-'));
    const tokenFile = path.join(directory, 'token');
    await fs.writeFile(tokenFile, 'container-auth-token\n');
    try {
      const source = ambientCredentials({
        env: {
          AWS_CONTAINER_CREDENTIALS_FULL_URI: `${fake.url}/ecs/credentials`,
          AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: tokenFile,
        },
        now,
      });
      expect(await source()).toMatchObject({
        accessKeyId: 'ASIA-TEMPORARY-1',
        sessionToken: 'session-token-1',
      });
      expect(fake.requests.map((request) => request.path)).toEqual(['/ecs/credentials']);
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  });

  it('refuses a plain-HTTP container endpoint on another host (its token would travel in clear)', () => {
    expect(() =>
      ambientCredentials({ env: { AWS_CONTAINER_CREDENTIALS_FULL_URI: 'http://metadata.example/creds' } }),
    ).toThrow(/must be https/);
  });

  it('keeps working credentials through a failed refresh, tries again later, and fails once they expired', async () => {
    const source = ambientCredentials({ env: { AWS_EC2_METADATA_SERVICE_ENDPOINT: fake.url }, now });
    expect((await source()).accessKeyId).toBe('ASIA-TEMPORARY-1');

    fake.failing = true;
    clock = fake.expiresAt.getTime() - 60_000;
    expect((await source()).accessKeyId).toBe('ASIA-TEMPORARY-1');
    const attempts = fake.requests.length;
    clock += REFRESH_RETRY_MS / 2;
    expect((await source()).accessKeyId).toBe('ASIA-TEMPORARY-1');
    expect(fake.requests.length).toBe(attempts);

    clock = fake.expiresAt.getTime() + 1;
    await expect(source()).rejects.toThrow(/HTTP 500/);

    fake.failing = false;
    fake.expiresAt = new Date(clock + 60 * 60_000);
    expect((await source()).accessKeyId).toBe('ASIA-TEMPORARY-2');
  });

  it('says what to set when metadata is disabled and no keys are given', async () => {
    await expect(ambientCredentials({ env: { AWS_EC2_METADATA_DISABLED: 'true' } })()).rejects.toThrow(
      /no S3 credentials/,
    );
  });
});

describe('refreshingCredentials', () => {
  it('keeps long-term credentials (no expiry) without asking again', async () => {
    let loads = 0;
    const source = refreshingCredentials(async () => {
      loads += 1;
      return { accessKeyId: 'AKIA', secretAccessKey: 'secret' };
    });
    await source();
    await source();
    expect(loads).toBe(1);
  });
});
