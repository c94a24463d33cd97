import { defineCapability } from '../platform/capability';
import { invoiceOperations } from './operations';

/**
 * PDF invoices and credit notes, numbered per seller without gaps. The PDF is drawn by the render
 * function (render port): pdfkit and fontkit are bundled there and in no API function, so the
 * invoices' routes can ride on the sales function (orders are its records) without a function of
 * their own in the API stack.
 */
export const invoices = defineCapability({
  name: 'invoices',
  apiFunction: 'sales',
  build: {
    manifest: { url: import.meta.url, export: 'invoices' },
    operations: './operations#invoiceOperations',
  },
  operations: invoiceOperations,
  needs: ['table', 'render'],
});
