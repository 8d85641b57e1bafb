import fs from 'node:fs/promises';

/**
 * Where the S3 driver gets its AWS credentials when none are configured: the parts of the AWS SDK's default
 * chain that need nothing beyond the machine — the environment, the container credentials endpoint (ECS, EKS
 * Pod Identity) and the EC2 instance metadata service (IMDSv2). Temporary credentials are fetched again before
 * they expire. Why this and not `@aws-sdk/credential-providers`: docs/decisions/0011-s3-signing.md.
 */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** STS session token of temporary credentials (roles, instance profiles); sent as x-amz-security-token. */
  sessionToken?: string;
  /** When temporary credentials stop working; unset for long-term keys. */
  expiresAt?: Date;
}

/** Credentials as of now; resolves quickly from a cache except when they are (nearly) due. */
export type CredentialSource = () => Promise<AwsCredentials>;

/** Fetch temporary credentials this long before they expire (the AWS SDKs use the same five minutes). */
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
/** While the old credentials still work, a failed or unchanged refresh is tried again after this long. */
export const REFRESH_RETRY_MS = 30_000;
const METADATA_TIMEOUT_MS = 2000;
const ECS_HOST = 'http://169.254.170.2';
const IMDS_ENDPOINT = 'http://169.254.169.254';
/** Plain-HTTP container endpoints the AWS SDKs accept: loopback, and ECS's and EKS Pod Identity's link-local. */
const CONTAINER_HTTP_HOSTS =
  /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|169\.254\.170\.2|169\.254\.170\.23|\[fd00:ec2::23\])$/;

export interface AmbientCredentialOptions {
  env?: NodeJS.ProcessEnv;
  now?: () => number;
}

export function fixedCredentials(credentials: AwsCredentials): CredentialSource {
  return async () => credentials;
}

/**
 * Caches what `load` returns and calls it again only when the credentials are within
 * REFRESH_BEFORE_EXPIRY_MS of their end. Concurrent callers share one load. While the cached credentials still
 * work, a failed refresh keeps them (the endpoint may be briefly away); once they have expired it fails.
 */
export function refreshingCredentials(
  load: () => Promise<AwsCredentials>,
  now: () => number = Date.now,
): CredentialSource {
  let current: AwsCredentials | undefined;
  let loading: Promise<AwsCredentials> | undefined;
  let lastAttempt = Number.NEGATIVE_INFINITY;
  const reload = () => {
    lastAttempt = now();
    loading ??= load()
      .then((credentials) => {
        current = credentials;
        return credentials;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };
  return async () => {
    const cached = current;
    const expiresAt = cached?.expiresAt?.getTime();
    if (!cached || (expiresAt !== undefined && now() >= expiresAt)) return reload();
    if (expiresAt === undefined || now() < expiresAt - REFRESH_BEFORE_EXPIRY_MS) return cached;
    if (loading) return loading.catch(() => cached);
    if (now() - lastAttempt < REFRESH_RETRY_MS) return cached;
    return reload().catch(() => cached);
  };
}

/**
 * The credentials of the machine or container this process runs on, for when S3_ACCESS_KEY_ID is not set:
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, else the container endpoint
 * (AWS_CONTAINER_CREDENTIALS_FULL_URI or _RELATIVE_URI), else IMDSv2 (unless AWS_EC2_METADATA_DISABLED=true).
 */
export function ambientCredentials(options: AmbientCredentialOptions = {}): CredentialSource {
  const env = options.env ?? process.env;
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    return fixedCredentials({
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    });
  }
  const containerUrl = containerCredentialsUrl(env);
  if (containerUrl) return refreshingCredentials(() => fromContainer(containerUrl, env), options.now);
  if (env.AWS_EC2_METADATA_DISABLED?.toLowerCase() === 'true') {
    return async () => {
      throw new Error(
        'no S3 credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run with a container or instance role',
      );
    };
  }
  const endpoint = (env.AWS_EC2_METADATA_SERVICE_ENDPOINT ?? IMDS_ENDPOINT).replace(/\/+$/, '');
  return refreshingCredentials(() => fromInstanceMetadata(endpoint), options.now);
}

function containerCredentialsUrl(env: NodeJS.ProcessEnv): URL | undefined {
  if (env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI)
    return new URL(`${ECS_HOST}${env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI}`);
  if (!env.AWS_CONTAINER_CREDENTIALS_FULL_URI) return undefined;
  const url = new URL(env.AWS_CONTAINER_CREDENTIALS_FULL_URI);
  // A token sent in clear to any host could be read on the way: plain HTTP only to the local agents.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && CONTAINER_HTTP_HOSTS.test(url.hostname))) {
    throw new Error(
      'AWS_CONTAINER_CREDENTIALS_FULL_URI must be https, or http to a loopback or the ECS/EKS agent address',
    );
  }
  return url;
}

async function fromContainer(url: URL, env: NodeJS.ProcessEnv): Promise<AwsCredentials> {
  const headers: Record<string, string> = {};
  // The token file is read at each refresh: EKS Pod Identity rotates it.
  const token = env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE
    ? (await fs.readFile(env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE, 'utf8')).trim()
    : env.AWS_CONTAINER_AUTHORIZATION_TOKEN;
  if (token) headers.authorization = token;
  return parseCredentials(await metadataRequest(url, { headers }), 'container credentials endpoint');
}

async function fromInstanceMetadata(endpoint: string): Promise<AwsCredentials> {
  const token = await metadataRequest(new URL(`${endpoint}/latest/api/token`), {
    method: 'PUT',
    headers: { 'x-aws-ec2-metadata-token-ttl-seconds': '21600' },
  });
  const headers = { 'x-aws-ec2-metadata-token': token };
  const base = `${endpoint}/latest/meta-data/iam/security-credentials/`;
  const role = (await metadataRequest(new URL(base), { headers })).split('\n')[0]?.trim();
  if (!role) throw new Error('the instance metadata service names no IAM role for this instance');
  return parseCredentials(
    await metadataRequest(new URL(encodeURIComponent(role), base), { headers }),
    'instance metadata service',
  );
}

async function metadataRequest(url: URL, init: RequestInit): Promise<string> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(METADATA_TIMEOUT_MS) });
  const text = await response.text();
  // The body of an error answer is not repeated: it may echo the token.
  if (!response.ok)
    throw new Error(`credentials request to ${url.origin}${url.pathname}: HTTP ${response.status}`);
  return text;
}

function parseCredentials(text: string, from: string): AwsCredentials {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`the ${from} did not answer with JSON`);
  }
  const { AccessKeyId, SecretAccessKey, Token, Expiration, Code } = body;
  if (Code !== undefined && Code !== 'Success') throw new Error(`the ${from} answered ${String(Code)}`);
  if (
    typeof AccessKeyId !== 'string' ||
    typeof SecretAccessKey !== 'string' ||
    !AccessKeyId ||
    !SecretAccessKey
  )
    throw new Error(`the ${from} answered without credentials`);
  const expiresAt = typeof Expiration === 'string' ? new Date(Expiration) : undefined;
  if (expiresAt && Number.isNaN(expiresAt.getTime()))
    throw new Error(`the ${from} answered an unreadable expiry`);
  return {
    accessKeyId: AccessKeyId,
    secretAccessKey: SecretAccessKey,
    ...(typeof Token === 'string' && Token ? { sessionToken: Token } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}
