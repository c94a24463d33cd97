import { escapeHtml } from '../platform/html';

/** The small page the provider's redirect lands on after consent. */
export const consentResultPage = (ok: boolean, message: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Spreadsheet sync</title></head><body><main><h1>${ok ? 'Spreadsheet connected' : 'Spreadsheet not connected'}</h1><p>${escapeHtml(message)}</p><p>You can close this window.</p></main></body></html>`;
