import { describe, expect, it } from 'vitest';
import { EMPTY_PAYLOAD_HASH, signS3Request } from './s3-file-store.ts';

/**
 * The store's signing (aws4fetch) against the worked examples of "Signature Calculations for the Authorization
 * Header" in the Amazon S3 API reference: same credentials, date and bucket; the signatures are AWS's. s3rver
 * does not verify SigV4 signatures, so these are what prove the headers the store sends.
 */
const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const base = { region: 'us-east-1', credentials, datetime: '20130524T000000Z' };
const signatureOf = (headers: Record<string, string>) =>
  /Signature=([0-9a-f]{64})$/.exec(headers.authorization!)?.[1];

describe('signS3Request (aws4fetch; AWS published S3 examples)', () => {
  it('PUT Object with a "$" in the key, a Date header and a storage class', async () => {
    const headers = await signS3Request({
      ...base,
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/test$file.text'),
      headers: { date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
      payloadHash: '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
    });
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, ' +
        'Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
    expect(headers['x-amz-security-token']).toBeUndefined();
  });

  it('GET Bucket lifecycle: a sub-resource without a value', async () => {
    const headers = await signS3Request({
      ...base,
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/?lifecycle'),
      payloadHash: EMPTY_PAYLOAD_HASH,
    });
    expect(signatureOf(headers)).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
  });

  it('GET Bucket (list objects): query parameters sorted', async () => {
    const headers = await signS3Request({
      ...base,
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2'),
      payloadHash: EMPTY_PAYLOAD_HASH,
    });
    expect(signatureOf(headers)).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });

  it('sends and signs the session token of temporary credentials', async () => {
    const request = {
      ...base,
      method: 'PUT',
      url: new URL('http://127.0.0.1:9000/evidence/key'),
      payloadHash: EMPTY_PAYLOAD_HASH,
    };
    const plain = await signS3Request(request);
    const temporary = await signS3Request({
      ...request,
      credentials: { ...credentials, sessionToken: 'FQoGZXIvYXdzE-session-token' },
    });
    expect(temporary['x-amz-security-token']).toBe('FQoGZXIvYXdzE-session-token');
    expect(temporary.authorization).toContain(
      'SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,',
    );
    expect(signatureOf(temporary)).not.toBe(signatureOf(plain));
  });

  it('changes the signature with the secret, the region and the body, and keeps content-length unsigned', async () => {
    const request = {
      ...base,
      method: 'PUT',
      url: new URL('http://127.0.0.1:9000/evidence/key'),
      headers: { 'content-length': '0' },
      payloadHash: EMPTY_PAYLOAD_HASH,
    };
    const reference = await signS3Request(request);
    expect(reference['content-length']).toBe('0');
    expect(reference.authorization).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date,');
    const variants = await Promise.all([
      signS3Request({ ...request, credentials: { ...credentials, secretAccessKey: 'other' } }),
      signS3Request({ ...request, region: 'ap-northeast-2' }),
      signS3Request({ ...request, payloadHash: 'UNSIGNED-PAYLOAD' }),
      // The port is part of the signed host.
      signS3Request({ ...request, url: new URL('http://127.0.0.1:9001/evidence/key') }),
    ]);
    for (const variant of variants) expect(signatureOf(variant)).not.toBe(signatureOf(reference));
  });
});
