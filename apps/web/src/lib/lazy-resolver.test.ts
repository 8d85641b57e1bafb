import type { Resolver } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { lazyResolver } from './lazy-resolver';

type Values = { email: string };
const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];

describe('lazyResolver', () => {
  it('loads the real resolver on the first validation only, and answers with what it answers', async () => {
    const real: Resolver<Values> = vi.fn(async (values) => ({ values, errors: {} }));
    const load = vi.fn(async () => real);
    const resolver = lazyResolver(load);
    expect(load).not.toHaveBeenCalled();
    await expect(resolver({ email: 'a@b.kr' }, undefined, options)).resolves.toEqual({
      values: { email: 'a@b.kr' },
      errors: {},
    });
    await resolver({ email: 'c@d.kr' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
    expect(real).toHaveBeenCalledTimes(2);
  });

  it('tries the load again after one that failed (a dropped connection)', async () => {
    const real: Resolver<Values> = async () => ({
      values: {},
      errors: { email: { type: 'x', message: 'm' } },
    });
    const load = vi.fn<() => Promise<Resolver<Values>>>().mockRejectedValueOnce(new Error('offline'));
    load.mockResolvedValue(real);
    const resolver = lazyResolver(load);
    await expect(resolver({ email: '' }, undefined, options)).rejects.toThrow('offline');
    const result = await resolver({ email: '' }, undefined, options);
    expect(result.errors.email?.message).toBe('m');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
