import { describe, expect, it } from 'vitest';
import { EMPTY_PAYLOAD_HASH, signRequest } from './sigv4.ts';

/**
 * The four worked examples of "Signature Calculations for the Authorization Header" in the Amazon S3 API
 * reference (sig-v4-header-based-auth.html): same credentials, date and bucket; the expected canonical
 * requests and signatures are AWS's. s3rver does not verify signatures, so these are what prove ours.
 */
const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const date = new Date('2013-05-24T00:00:00Z');
const base = { region: 'us-east-1', credentials, date };

describe('signRequest (AWS SigV4, published S3 examples)', () => {
  it('GET Object with a Range header', () => {
    const signed = signRequest({
      ...base,
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9' },
      payloadHash: EMPTY_PAYLOAD_HASH,
    });
    expect(signed.canonicalRequest).toBe(
      [
        'GET',
        '/test.txt',
        '',
        'host:examplebucket.s3.amazonaws.com',
        'range:bytes=0-9',
        'x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        'x-amz-date:20130524T000000Z',
        '',
        'host;range;x-amz-content-sha256;x-amz-date',
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      ].join('\n'),
    );
    expect(signed.stringToSign.split('\n').at(-1)).toBe(
      '7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972',
    );
    expect(signed.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('PUT Object with a "$" in the key, a Date header and a storage class', () => {
    const signed = signRequest({
      ...base,
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/test$file.text'),
      headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
      payloadHash: '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
    });
    expect(signed.canonicalRequest.split('\n').slice(0, 2)).toEqual(['PUT', '/test%24file.text']);
    expect(signed.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
    expect(signed.headers.authorization).toContain(
      'SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,',
    );
  });

  it('GET Bucket lifecycle: a sub-resource without a value', () => {
    const signed = signRequest({
      ...base,
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/?lifecycle'),
      payloadHash: EMPTY_PAYLOAD_HASH,
    });
    expect(signed.canonicalRequest.split('\n').slice(0, 3)).toEqual(['GET', '/', 'lifecycle=']);
    expect(signed.signature).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
  });

  it('GET Bucket (list objects): query parameters sorted', () => {
    const signed = signRequest({
      ...base,
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2'),
      payloadHash: EMPTY_PAYLOAD_HASH,
    });
    expect(signed.canonicalRequest.split('\n')[2]).toBe('max-keys=2&prefix=J');
    expect(signed.signature).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });

  it('changes the signature with the secret, the region and the body', () => {
    const request = {
      ...base,
      method: 'PUT',
      url: new URL('http://127.0.0.1:9000/evidence/key'),
      payloadHash: EMPTY_PAYLOAD_HASH,
    };
    const reference = signRequest(request).signature;
    expect(
      signRequest({ ...request, credentials: { ...credentials, secretAccessKey: 'other' } }).signature,
    ).not.toBe(reference);
    expect(signRequest({ ...request, region: 'ap-northeast-2' }).signature).not.toBe(reference);
    expect(signRequest({ ...request, payloadHash: 'UNSIGNED-PAYLOAD' }).signature).not.toBe(reference);
    // The port is part of the signed host.
    expect(signRequest(request).headers.host).toBe('127.0.0.1:9000');
  });
});
