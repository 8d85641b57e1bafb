import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for S3 requests, header-based. Small enough to read in one sitting, so the S3 driver
 * needs no SDK (the AWS SDK for S3 alone installs tens of megabytes); checked against AWS's published examples.
 */
export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignInput {
  method: string;
  url: URL;
  /** Headers to send and sign besides host and the x-amz-* ones added here. */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body, or UNSIGNED-PAYLOAD. */
  payloadHash: string;
  region: string;
  service?: string;
  credentials: SigningCredentials;
  date?: Date;
}

export const EMPTY_PAYLOAD_HASH = createHash('sha256').update('').digest('hex');

/** RFC 3986 encoding as AWS wants it: everything but unreserved characters, `!'()*` included. */
export function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** S3 signs the path as sent, each segment encoded once (other services encode twice). */
export function canonicalPath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => encodeRfc3986(decodeURIComponent(segment)))
    .join('/');
}

function canonicalQuery(params: URLSearchParams): string {
  return [...params]
    .map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)] as const)
    .sort(([nameA, valueA], [nameB, valueB]) =>
      nameA === nameB ? (valueA < valueB ? -1 : 1) : nameA < nameB ? -1 : 1,
    )
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function hmac(key: Buffer | string, value: string): Buffer {
  return createHmac('sha256', key).update(value, 'utf8').digest();
}

/** `20130524T000000Z` */
function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export interface SignedRequest {
  /** The headers to send: the given ones plus host, x-amz-date, x-amz-content-sha256 and authorization. */
  headers: Record<string, string>;
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

export function signRequest(input: SignInput): SignedRequest {
  const service = input.service ?? 's3';
  const timestamp = amzDate(input.date ?? new Date());
  const day = timestamp.slice(0, 8);
  const headers: Record<string, string> = {
    ...input.headers,
    host: input.url.host,
    'x-amz-date': timestamp,
    'x-amz-content-sha256': input.payloadHash,
  };
  const canonical = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    canonical.set(name.toLowerCase(), value.trim().replace(/\s+/g, ' '));
  }
  const names = [...canonical.keys()].sort();
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalPath(input.url.pathname),
    canonicalQuery(input.url.searchParams),
    ...names.map((name) => `${name}:${canonical.get(name)}`),
    '',
    signedHeaders,
    input.payloadHash,
  ].join('\n');
  const scope = `${day}/${input.region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    timestamp,
    scope,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${input.credentials.secretAccessKey}`, day), input.region), service),
    'aws4_request',
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`;
  return { headers, canonicalRequest, stringToSign, signature };
}
