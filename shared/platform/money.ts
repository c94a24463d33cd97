/** Money is stored as integer cents; some endpoints show decimal major units (29.99). */
export const toCents = (major: number): number => Math.round(major * 100);
export const toMajor = (cents: number): number => Math.round(cents) / 100;
