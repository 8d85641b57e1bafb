// The part of s3rver's API the file-store tests use (the package ships no types).
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    /** 0 for a random free port. */
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
