import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { AwsV4Signer } from 'aws4fetch';
import { randomToken } from '../lib/tokens.ts';
import { type AwsCredentials, type CredentialSource, fixedCredentials } from './aws-credentials.ts';
import { assertStorageKey, type FileStore, isStorageKey } from './file-store.ts';

export interface S3FileStoreOptions {
  /** `https://s3.<region>.amazonaws.com`, `http://minio:9000`, … */
  endpoint: string;
  bucket: string;
  region: string;
  /** Fixed keys, or a source that fetches (and refreshes) the machine's role credentials. */
  credentials: AwsCredentials | CredentialSource;
  /** `host/bucket/key` instead of `bucket.host/key`: MinIO and most self-hosted servers want this. */
  forcePathStyle: boolean;
  /** Local directory for uploads in progress; they are sent to the bucket only once complete. */
  temporaryDir: string;
  /** Keys per ListObjectsV2 page (S3 caps it at 1000); small in tests to go through several pages. */
  listPageSize?: number;
  /** A request whose socket stays idle this long is abandoned. */
  timeoutMs?: number;
}

/** An error answer from the object store, with S3's own code (NoSuchKey, AccessDenied, …). */
export class S3RequestError extends Error {
  readonly statusCode: number;
  readonly s3Code: string;
  /** `ENOENT` for a missing object, as the disk store's stream reports it. */
  readonly code: string | undefined;

  constructor(method: string, statusCode: number, s3Code: string, message: string) {
    super(`S3 ${method} failed: ${statusCode} ${s3Code}${message ? ` — ${message}` : ''}`);
    this.name = 'S3RequestError';
    this.statusCode = statusCode;
    this.s3Code = s3Code;
    this.code =
      s3Code === 'NoSuchKey' || (statusCode === 404 && s3Code !== 'NoSuchBucket') ? 'ENOENT' : undefined;
  }
}

interface Body {
  open(): Readable | Buffer;
  size: number;
  sha256: string;
}

const MAX_ATTEMPTS = 3;

export const EMPTY_PAYLOAD_HASH = createHash('sha256').update('').digest('hex');

export interface S3SignInput {
  method: string;
  url: URL;
  /** Headers to send besides host and the x-amz-* ones the signer adds. */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body (the store always sends it, so S3 refuses a body damaged on the way). */
  payloadHash: string;
  region: string;
  credentials: AwsCredentials;
  /** `20130524T000000Z`; now when unset. */
  datetime?: string;
  /** Signing keys by day, region and secret, kept between requests. */
  cache?: Map<string, ArrayBuffer>;
}

/**
 * The headers of one S3 request signed with SigV4 by aws4fetch: the given ones plus x-amz-date,
 * x-amz-content-sha256, x-amz-security-token (temporary credentials) and authorization. Node's own http client
 * sends them, so a body can stream from disk with its hash signed (docs/decisions/0011-s3-signing.md).
 */
export async function signS3Request(input: S3SignInput): Promise<Record<string, string>> {
  const signer = new AwsV4Signer({
    method: input.method,
    url: input.url.toString(),
    headers: { ...input.headers, 'x-amz-content-sha256': input.payloadHash },
    accessKeyId: input.credentials.accessKeyId,
    secretAccessKey: input.credentials.secretAccessKey,
    ...(input.credentials.sessionToken ? { sessionToken: input.credentials.sessionToken } : {}),
    service: 's3',
    region: input.region,
    ...(input.datetime ? { datetime: input.datetime } : {}),
    ...(input.cache ? { cache: input.cache } : {}),
  });
  const { headers } = await signer.sign();
  return Object.fromEntries(headers);
}

function xmlValue(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return match ? decodeXml(match[1]!) : undefined;
}

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (entity, name: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (named[name]) return named[name];
    const codePoint = name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return Number.isFinite(codePoint) ? String.fromCodePoint(codePoint) : entity;
  });
}

async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function sha256OfFile(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(filePath), hash);
  return hash.digest('hex');
}

/**
 * A low-level S3 client for the handful of calls the store makes. Every request is signed with SigV4 and carries
 * the SHA-256 of its body, so the server refuses a body damaged on the way.
 */
function createS3Client(options: S3FileStoreOptions) {
  const endpoint = new URL(options.endpoint);
  const isHttps = endpoint.protocol === 'https:';
  const agent = isHttps
    ? new https.Agent({ keepAlive: true, maxSockets: 32 })
    : new http.Agent({ keepAlive: true, maxSockets: 32 });
  const timeoutMs = options.timeoutMs ?? 60_000;
  const credentials =
    typeof options.credentials === 'function' ? options.credentials : fixedCredentials(options.credentials);
  const signingKeys = new Map<string, ArrayBuffer>();

  const urlOf = (objectKey: string | null, query: Record<string, string>) => {
    const url = new URL(endpoint.origin);
    // Keys are base64url tokens and bucket names are checked at start-up: neither needs escaping.
    const keyPath = objectKey === null ? '' : encodeURIComponent(objectKey);
    if (options.forcePathStyle) {
      url.pathname = `/${encodeURIComponent(options.bucket)}${objectKey === null ? '' : `/${keyPath}`}`;
    } else {
      url.hostname = `${options.bucket}.${endpoint.hostname}`;
      url.pathname = `/${keyPath}`;
    }
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  };

  const attempt = async (
    method: string,
    url: URL,
    body: Body | undefined,
    extraHeaders: Record<string, string>,
  ) => {
    const headers = await signS3Request({
      method,
      url,
      headers: body
        ? { ...extraHeaders, 'content-length': String(body.size) }
        : { ...extraHeaders, ...(method === 'PUT' ? { 'content-length': '0' } : {}) },
      payloadHash: body?.sha256 ?? EMPTY_PAYLOAD_HASH,
      region: options.region,
      credentials: await credentials(),
      cache: signingKeys,
    });
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = (isHttps ? https : http).request(url, { method, headers, agent }, resolve);
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`S3 ${method} timed out`)));
      request.on('error', reject);
      if (!body) {
        request.end();
        return;
      }
      const content = body.open();
      if (Buffer.isBuffer(content)) {
        request.end(content);
      } else {
        pipeline(content, request).catch(reject);
      }
    });
  };

  /**
   * Sends one request and returns the response once its status is a success. A lost connection or a 5xx
   * (S3 answers 503 SlowDown under load) is retried: every call the store makes is safe to repeat.
   */
  async function send(
    method: string,
    objectKey: string | null,
    query: Record<string, string> = {},
    body?: Body,
    extraHeaders: Record<string, string> = {},
  ): Promise<IncomingMessage> {
    const url = urlOf(objectKey, query);
    for (let attemptNumber = 1; ; attemptNumber++) {
      let response: IncomingMessage;
      try {
        response = await attempt(method, url, body, extraHeaders);
      } catch (error) {
        if (attemptNumber >= MAX_ATTEMPTS) throw error;
        await sleep(100 * 2 ** attemptNumber);
        continue;
      }
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) return response;
      const text = method === 'HEAD' ? '' : await readText(response).catch(() => '');
      if (method === 'HEAD') response.resume();
      if (status >= 500 && attemptNumber < MAX_ATTEMPTS) {
        await sleep(100 * 2 ** attemptNumber);
        continue;
      }
      throw new S3RequestError(
        method,
        status,
        xmlValue(text, 'Code') ?? (status === 404 ? 'NotFound' : `HTTP${status}`),
        xmlValue(text, 'Message') ?? '',
      );
    }
  }

  return { send };
}

/**
 * Evidence in an S3-compatible bucket (AWS S3, MinIO, …), for several API processes on several machines.
 * An upload is written to a local temporary file first (its type is sniffed and its metadata stripped there),
 * then sent in one signed PUT under a fresh random key; the bucket never holds half a file.
 */
export function createS3FileStore(options: S3FileStoreOptions): FileStore {
  const client = createS3Client(options);
  const pageSize = String(options.listPageSize ?? 1000);
  let prepared: Promise<unknown> | undefined;
  const prepare = () => {
    prepared ??= fs.mkdir(options.temporaryDir, { recursive: true });
    return prepared;
  };

  return {
    async temporaryPath() {
      await prepare();
      return path.join(options.temporaryDir, `${randomToken()}.part`);
    },
    async commit(temporaryPath) {
      const key = randomToken();
      const [{ size }, sha256] = await Promise.all([fs.stat(temporaryPath), sha256OfFile(temporaryPath)]);
      const response = await client.send(
        'PUT',
        key,
        {},
        { open: () => createReadStream(temporaryPath), size, sha256 },
        { 'content-type': 'application/octet-stream' },
      );
      response.resume();
      await fs.rm(temporaryPath, { force: true });
      return key;
    },
    read(key) {
      assertStorageKey(key);
      // Lazy: the GET starts when the stream is first read, and stopping the stream closes the connection.
      async function* chunks() {
        const response = await client.send('GET', key);
        for await (const chunk of response) yield chunk as Buffer;
      }
      return Readable.from(chunks(), { objectMode: false });
    },
    async remove(key) {
      assertStorageKey(key);
      try {
        (await client.send('DELETE', key)).resume();
      } catch (error) {
        if (!(error instanceof S3RequestError && error.code === 'ENOENT')) throw error;
      }
    },
    /**
     * ListObjects (version 1) paged by marker, the last key of the previous page: every S3-compatible server
     * answers it, s3rver included, whose version-2 continuation tokens need DES, which Node 17+ no longer has.
     */
    async *keys() {
      let marker: string | undefined;
      do {
        const query: Record<string, string> = { 'max-keys': pageSize };
        if (marker) query.marker = marker;
        const xml = await readText(await client.send('GET', null, query));
        const pageKeys = [...xml.matchAll(/<Contents>[\s\S]*?<Key>([^<]*)<\/Key>[\s\S]*?<\/Contents>/g)].map(
          (match) => decodeXml(match[1]!),
        );
        for (const key of pageKeys) if (isStorageKey(key)) yield key;
        marker = xmlValue(xml, 'IsTruncated') === 'true' ? pageKeys.at(-1) : undefined;
      } while (marker);
    },
  };
}

/**
 * Checks at start-up that the bucket is reachable with these credentials, and creates it when it does not
 * exist yet (a fresh MinIO). A bucket on AWS is normally created by the operator; then only the check runs.
 */
export async function ensureS3Bucket(options: S3FileStoreOptions): Promise<'exists' | 'created'> {
  const { send } = createS3Client(options);
  try {
    (await send('HEAD', null)).resume();
    return 'exists';
  } catch (error) {
    if (!(error instanceof S3RequestError && error.statusCode === 404)) throw error;
  }
  const configuration =
    options.region === 'us-east-1'
      ? undefined
      : Buffer.from(
          `<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>${options.region}</LocationConstraint></CreateBucketConfiguration>`,
        );
  try {
    const response = await send(
      'PUT',
      null,
      {},
      configuration && {
        open: () => configuration,
        size: configuration.length,
        sha256: createHash('sha256').update(configuration).digest('hex'),
      },
    );
    response.resume();
  } catch (error) {
    // Another replica starting at the same moment created it first.
    if (!(error instanceof S3RequestError && error.s3Code === 'BucketAlreadyOwnedByYou')) throw error;
  }
  return 'created';
}
