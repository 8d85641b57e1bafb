import path from 'node:path';
import type { Config } from '../config.ts';
import { ambientCredentials } from './aws-credentials.ts';
import { createDiskFileStore, type FileStore } from './file-store.ts';
import { createS3FileStore, type S3FileStoreOptions } from './s3-file-store.ts';

/** The S3 settings of the configuration; only meaningful when FILE_STORE=s3 (config.ts checks they are set). */
export function s3OptionsFromConfig(config: Config): S3FileStoreOptions {
  return {
    endpoint: config.S3_ENDPOINT ?? `https://s3.${config.S3_REGION}.amazonaws.com`,
    bucket: config.S3_BUCKET!,
    region: config.S3_REGION,
    // Configured keys, else the machine's: AWS_* variables, the container's or the instance's role.
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? {
            accessKeyId: config.S3_ACCESS_KEY_ID,
            secretAccessKey: config.S3_SECRET_ACCESS_KEY,
            ...(config.S3_SESSION_TOKEN ? { sessionToken: config.S3_SESSION_TOKEN } : {}),
          }
        : ambientCredentials(),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    // Uploads in progress stay on this machine's disk until complete, as with the disk store.
    temporaryDir: path.join(config.dataDir, 'files', '.tmp'),
  };
}

export function createFileStore(config: Config): FileStore {
  return config.FILE_STORE === 's3'
    ? createS3FileStore(s3OptionsFromConfig(config))
    : createDiskFileStore(path.join(config.dataDir, 'files'));
}
