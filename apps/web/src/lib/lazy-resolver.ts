import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver whose schema, and zod with it, loads on the first validation (a blur or the submit) rather
 * than with the page: zod is 21 KB of brotli, a tenth of what R-PERF-2 lets a first visit transfer, and a
 * page is read before anything in it is typed. A load that fails is tried again on the next validation.
 */
export function lazyResolver<T extends FieldValues, Context = unknown, Sent = T>(
  load: () => Promise<Resolver<T, Context, Sent>>,
): Resolver<T, Context, Sent> {
  let loading: Promise<Resolver<T, Context, Sent>> | undefined;
  return async (values, context, options) => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return (await loading)(values, context, options);
  };
}
