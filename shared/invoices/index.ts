import { defineCapability } from '../platform/capability';
import { invoiceOperations } from './operations';

/**
 * PDF invoices and credit notes, numbered per seller without gaps. Its own function: the PDF
 * library (pdfkit and fontkit) is bundled here and nowhere else.
 */
export const invoices = defineCapability({
  name: 'invoices',
  operations: invoiceOperations,
  needs: ['table'],
});
