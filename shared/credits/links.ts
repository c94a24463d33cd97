/**
 * The buyer's balance page, where auto top-ups are turned off (consent.ts, operations.ts). A module
 * of its own so the mail consumer reaches no processor code.
 */
export const creditLinkUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/$/, '')}/credits/balance/${token}`;
