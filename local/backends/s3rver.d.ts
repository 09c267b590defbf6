/** The part of s3rver 3.7's API the local S3 child uses (the package ships no types). */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  /** Options of the s3rver constructor. */
  export interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    vhostBuckets?: boolean;
    allowMismatchedSignatures?: boolean;
    configureBuckets?: ReadonlyArray<{ name: string; configs?: ReadonlyArray<string | Buffer> }>;
  }

  /** An S3-compatible server storing objects in a folder. */
  export default class S3rver {
    public constructor(options?: S3rverOptions);
    public run(): Promise<AddressInfo>;
    public close(): Promise<void>;
  }
}
