const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The small page the provider's redirect lands on after consent. */
export const consentResultPage = (ok: boolean, message: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Spreadsheet sync</title></head><body><main><h1>${ok ? 'Spreadsheet connected' : 'Spreadsheet not connected'}</h1><p>${escape(message)}</p><p>You can close this window.</p></main></body></html>`;
