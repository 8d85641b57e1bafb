/** Domains are typed on one line, separated by commas or spaces. */
export const splitDomains = (value: string) => value.split(/[\s,]+/).filter(Boolean);
