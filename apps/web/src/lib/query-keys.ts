export type KeyPart = Record<string, unknown>;

export interface KeyInput {
  /** Values of `{name}` placeholders in the path template. */
  params?: KeyPart;
  query?: KeyPart;
  body?: unknown;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0)
  );
}

/**
 * R-WEB-9: a cache key is the path's segments, then path parameters, query parameters and body. Keeping the
 * `{name}` template segments (not the filled values) means `invalidateQueries({queryKey: queryKey(path)})`
 * reaches every entry of that endpoint, whatever its parameters.
 */
export function queryKey(path: string, input: KeyInput = {}): readonly unknown[] {
  const segments = path.split('?')[0]!.split('/').filter(Boolean);
  const key: unknown[] = [...segments];
  if (!isEmpty(input.params)) key.push({ params: input.params });
  if (!isEmpty(input.query)) key.push({ query: input.query });
  if (!isEmpty(input.body)) key.push({ body: input.body });
  return key;
}

/** Fills `{name}` placeholders, encoding each value; a missing parameter is a programming error. */
export function fillPath(template: string, params: KeyPart = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null)
      throw new Error(`Missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(String(value));
  });
}
