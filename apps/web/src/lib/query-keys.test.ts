import { describe, expect, it } from 'vitest';
import { fillPath, queryKey } from './query-keys';

describe('queryKey', () => {
  it('is the path segments alone when there is nothing else', () => {
    expect(queryKey('/api/v1/user/')).toEqual(['api', 'v1', 'user']);
  });

  it('appends path parameters, query parameters and body in that order', () => {
    expect(
      queryKey('/api/v1/manager/report/{reportId}', {
        params: { reportId: 7 },
        query: { status: 'received' },
        body: { q: 'x' },
      }),
    ).toEqual([
      'api',
      'v1',
      'manager',
      'report',
      '{reportId}',
      { params: { reportId: 7 } },
      { query: { status: 'received' } },
      { body: { q: 'x' } },
    ]);
  });

  it('leaves out empty parts so equal requests share a key', () => {
    expect(queryKey('/api/v1/report/', { query: {}, body: undefined })).toEqual(queryKey('/api/v1/report/'));
  });

  it('keeps the endpoint prefix so invalidating the bare path reaches every variant', () => {
    const bare = queryKey('/api/v1/report/');
    const paged = queryKey('/api/v1/report/', { query: { page: 2 } });
    expect(paged.slice(0, bare.length)).toEqual(bare);
  });

  it('ignores a query string written into the path', () => {
    expect(queryKey('/api/v1/report/?page=2')).toEqual(['api', 'v1', 'report']);
  });
});

describe('fillPath', () => {
  it('fills and encodes placeholders', () => {
    expect(fillPath('/api/v1/file/{fileId}/', { fileId: 'a/b' })).toBe('/api/v1/file/a%2Fb/');
  });
  it('throws on a missing parameter', () => {
    expect(() => fillPath('/api/v1/report/{reportId}', {})).toThrow(/reportId/);
  });
});
