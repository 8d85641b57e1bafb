import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ambientCredentials, REFRESH_BEFORE_EXPIRY_MS } from '../src/storage/aws-credentials.ts';
import { createFileStore, s3OptionsFromConfig } from '../src/storage/create-file-store.ts';
import { createDiskFileStore, type FileStore } from '../src/storage/file-store.ts';
import {
  createS3FileStore,
  ensureS3Bucket,
  type S3FileStoreOptions,
  S3RequestError,
} from '../src/storage/s3-file-store.ts';
import { createCompany, upload } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestContext } from './helpers.ts';

/**
 * One suite for every FileStore driver: the disk store, and the S3 store against s3rver, a real S3-compatible
 * server (pure Node, in-process, on a random loopback port). s3rver accepts SigV4 requests without checking the
 * signature itself, so src/storage/s3-file-store.test.ts checks the signing against AWS's published examples.
 */
interface S3Server {
  endpoint: string;
  directory: string;
  close(): Promise<void>;
}

async function startS3Server(buckets: string[]): Promise<S3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ansim-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    resetOnClose: true,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    close: async () => {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/** s3rver's only account. */
const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

function s3Options(server: S3Server, temporaryDir: string, bucket = 'evidence'): S3FileStoreOptions {
  return {
    endpoint: server.endpoint,
    bucket,
    region: 'us-east-1',
    credentials: S3RVER_CREDENTIALS,
    forcePathStyle: true,
    temporaryDir,
    // Small pages, so listing seven keys goes through three ListObjectsV2 calls.
    listPageSize: 3,
  };
}

interface Driver {
  name: string;
  setup(): Promise<{ store: FileStore; close(): Promise<void> }>;
}

const drivers: Driver[] = [
  {
    name: 'disk',
    async setup() {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ansim-disk-store-'));
      return {
        store: createDiskFileStore(root),
        close: () => fs.rm(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 's3 (s3rver)',
    async setup() {
      const server = await startS3Server(['evidence']);
      const temporaryDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ansim-s3-tmp-'));
      return {
        store: createS3FileStore(s3Options(server, temporaryDir)),
        close: async () => {
          await server.close();
          await fs.rm(temporaryDir, { recursive: true, force: true });
        },
      };
    },
  },
];

async function readAll(stream: Readable): Promise<{ bytes: Buffer; chunks: number; largestChunk: number }> {
  const parts: Buffer[] = [];
  let largestChunk = 0;
  for await (const chunk of stream) {
    parts.push(chunk as Buffer);
    largestChunk = Math.max(largestChunk, (chunk as Buffer).length);
  }
  return { bytes: Buffer.concat(parts), chunks: parts.length, largestChunk };
}

async function collectKeys(store: FileStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.keys()) keys.push(key);
  return keys;
}

async function commitBytes(store: FileStore, content: Buffer): Promise<string> {
  const temporaryPath = await store.temporaryPath();
  await fs.writeFile(temporaryPath, content, { flag: 'wx' });
  return store.commit(temporaryPath);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A key of the right shape that no commit made. */
const missingKey = () => randomBytes(32).toString('base64url');

describe.each(drivers)('FileStore driver: $name', (driver) => {
  let store: FileStore;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, close } = await driver.setup());
  });
  afterAll(async () => {
    await close?.();
  });

  it('commits a temporary file under a new random key, removes the temporary file and reads it back', async () => {
    const content = Buffer.from('증거 파일 내용 — evidence bytes');
    const temporaryPath = await store.temporaryPath();
    expect(await store.temporaryPath()).not.toBe(temporaryPath);
    await fs.writeFile(temporaryPath, content, { flag: 'wx' });

    const key = await store.commit(temporaryPath);

    expect(key).toMatch(/^[\w-]{43}$/);
    await expect(fs.access(temporaryPath)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readAll(store.read(key))).bytes.equals(content)).toBe(true);
    expect(await collectKeys(store)).toContain(key);
  });

  it('lists every key across pages, and forgets a removed one', async () => {
    const before = new Set(await collectKeys(store));
    const added = [];
    for (let index = 0; index < 7; index++)
      added.push(await commitBytes(store, Buffer.from(`file ${index}`)));

    const listed = await collectKeys(store);
    expect(listed.filter((key) => !before.has(key)).sort()).toEqual([...added].sort());
    expect(new Set(listed).size).toBe(listed.length);

    await store.remove(added[3]!);
    await store.remove(added[3]!); // removing twice is not an error: a cleanup may be retried
    const after = await collectKeys(store);
    expect(after).not.toContain(added[3]);
    expect(after.length).toBe(listed.length - 1);
    await expect(readAll(store.read(added[3]!))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps 25 concurrent commits apart', async () => {
    const contents = Array.from({ length: 25 }, (_, index) => randomBytes(1000 + index * 97));
    const keys = await Promise.all(contents.map((content) => commitBytes(store, content)));

    expect(new Set(keys).size).toBe(25);
    const readBack = await Promise.all(keys.map(async (key) => (await readAll(store.read(key))).bytes));
    readBack.forEach((bytes, index) => {
      expect(sha256(bytes)).toBe(sha256(contents[index]!));
    });
    const listed = new Set(await collectKeys(store));
    for (const key of keys) expect(listed.has(key)).toBe(true);
  });

  it('fails the stream of a key that is not stored', async () => {
    await expect(readAll(store.read(missingKey()))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('streams an 8 MiB file in chunks, byte for byte', async () => {
    const content = randomBytes(8 * 1024 * 1024);
    const key = await commitBytes(store, content);

    const { bytes, chunks, largestChunk } = await readAll(store.read(key));

    expect(bytes.length).toBe(content.length);
    expect(sha256(bytes)).toBe(sha256(content));
    // Streamed, not loaded whole: no chunk near the size of the file.
    expect(chunks).toBeGreaterThan(8);
    expect(largestChunk).toBeLessThan(1024 * 1024);
    await store.remove(key);
  });

  it('refuses keys that are not its own random tokens', async () => {
    for (const key of ['../../etc/passwd', '', 'a/b', `${missingKey()}/..`, `..${missingKey().slice(2)}`]) {
      expect(() => store.read(key), key).toThrow('invalid storage key');
      await expect(store.remove(key), key).rejects.toThrow('invalid storage key');
    }
  });
});

describe('S3 file store against s3rver', () => {
  let server: S3Server;
  let temporaryDir: string;

  beforeAll(async () => {
    server = await startS3Server(['evidence']);
    temporaryDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ansim-s3-tmp-'));
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(temporaryDir, { recursive: true, force: true });
  });

  it('reports the S3 error of a refused upload and leaves the temporary file to the caller', async () => {
    const store = createS3FileStore({
      ...s3Options(server, temporaryDir),
      credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong' },
    });
    const temporaryPath = await store.temporaryPath();
    await fs.writeFile(temporaryPath, 'x');

    const failure = await store.commit(temporaryPath).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(S3RequestError);
    expect(failure).toMatchObject({ statusCode: 403, s3Code: 'InvalidAccessKeyId' });
    expect((failure as Error).message).not.toContain('wrong');
    expect(await fs.readFile(temporaryPath, 'utf8')).toBe('x');
  });

  it('creates a missing bucket at start-up, and finds it the next time', async () => {
    const options = s3Options(server, temporaryDir, 'fresh-bucket');
    const store = createS3FileStore(options);
    await expect(collectKeys(store)).rejects.toMatchObject({ s3Code: 'NoSuchBucket' });

    expect(await ensureS3Bucket(options)).toBe('created');
    expect(await ensureS3Bucket(options)).toBe('exists');
    const key = await commitBytes(store, Buffer.from('in the new bucket'));
    expect(await collectKeys(store)).toEqual([key]);
  });
});

/** A loopback server that notes each request's headers and passes it on to s3rver. */
async function startRecordingProxy(target: string) {
  const seen: http.IncomingHttpHeaders[] = [];
  const proxy = http.createServer((request, response) => {
    seen.push(request.headers);
    const upstream = http.request(
      `${target}${request.url}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

describe('S3 file store with a container role (temporary credentials)', () => {
  let server: S3Server;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  let metadata: http.Server;
  let metadataUrl: string;
  let temporaryDir: string;
  let issued = 0;
  let expiresAt = new Date('2030-01-01T01:00:00Z');

  beforeAll(async () => {
    server = await startS3Server(['evidence']);
    proxy = await startRecordingProxy(server.endpoint);
    temporaryDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ansim-s3-tmp-'));
    // The ECS agent's endpoint: s3rver knows one account, so the rotation shows in the session token.
    metadata = http.createServer((_request, response) => {
      issued += 1;
      response.end(
        JSON.stringify({
          AccessKeyId: 'S3RVER',
          SecretAccessKey: 'S3RVER',
          Token: `role-session-token-${issued}`,
          Expiration: expiresAt.toISOString(),
        }),
      );
    });
    await new Promise<void>((resolve) => metadata.listen(0, '127.0.0.1', resolve));
    metadataUrl = `http://127.0.0.1:${(metadata.address() as AddressInfo).port}/v2/credentials/role`;
  });
  afterAll(async () => {
    await proxy?.close();
    await new Promise((resolve) => metadata?.close(resolve));
    await server?.close();
    await fs.rm(temporaryDir, { recursive: true, force: true });
  });

  it('signs with the role session token (x-amz-security-token) and takes new credentials before expiry', async () => {
    let clock = new Date('2030-01-01T00:00:00Z').getTime();
    const store = createS3FileStore({
      ...s3Options({ ...server, endpoint: proxy.endpoint }, temporaryDir),
      credentials: ambientCredentials({
        env: { AWS_CONTAINER_CREDENTIALS_FULL_URI: metadataUrl },
        now: () => clock,
      }),
    });

    const key = await commitBytes(store, Buffer.from('역할 자격 증명으로 올린 증거'));
    expect((await readAll(store.read(key))).bytes.toString()).toBe('역할 자격 증명으로 올린 증거');
    expect(issued).toBe(1);
    expect(proxy.seen.map((headers) => headers['x-amz-security-token'])).toEqual([
      'role-session-token-1',
      'role-session-token-1',
    ]);
    expect(proxy.seen[0]!.authorization).toMatch(/SignedHeaders=[\w;-]*x-amz-security-token/);

    // Within five minutes of the expiry the role's next credentials are fetched and used.
    expiresAt = new Date(expiresAt.getTime() + 60 * 60_000);
    clock = new Date('2030-01-01T01:00:00Z').getTime() - REFRESH_BEFORE_EXPIRY_MS + 1000;
    await store.remove(key);
    expect(issued).toBe(2);
    expect(proxy.seen.at(-1)!['x-amz-security-token']).toBe('role-session-token-2');
    expect(await collectKeys(store)).not.toContain(key);
  });
});

describe('the app with FILE_STORE=s3', () => {
  let server: S3Server;
  let ctx: TestContext;

  beforeAll(async () => {
    server = await startS3Server([]);
    const config = {
      FILE_STORE: 's3',
      S3_ENDPOINT: server.endpoint,
      S3_BUCKET: 'ansim-evidence',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    };
    ctx = await createTestApp({ config });
    // What server.ts does before listening.
    await ensureS3Bucket(s3OptionsFromConfig(ctx.config));
  });
  afterAll(async () => {
    await ctx?.close();
    await server?.close();
  });

  it('stores an upload in the bucket, serves it back and deletes it there', async () => {
    await createCompany(ctx, '버킷 주식회사', 'bucket.example');
    const client = await registerAndLogin(ctx, 'kim@bucket.example');
    const content = Buffer.from('버킷에 저장되는 증거 메모');
    const bucket = createFileStore(ctx.config);

    const uploaded = await upload(client, '메모.txt', content);
    expect(uploaded.statusCode).toBe(201);
    expect(await collectKeys(bucket)).toHaveLength(1);
    const download = await client.get(`/api/v1/file/${uploaded.json().id}/`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(content)).toBe(true);
    // Nothing stays behind on the local disk: the temporary file went to the bucket.
    const leftovers = await fs.readdir(path.join(ctx.config.dataDir, 'files', '.tmp')).catch(() => []);
    expect(leftovers).toEqual([]);

    expect((await client.delete(`/api/v1/file/${uploaded.json().id}/`)).statusCode).toBe(204);
    expect(await collectKeys(bucket)).toEqual([]);
  });
});
