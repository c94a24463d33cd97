/**
 * pdfkit in the Lambda bundles: its own browser build (a published entry of the package, the one
 * its `exports` give bundlers), with the two standard fonts the invoices draw with registered
 * through its public `registerStdFonts`. pdfkit's Node build loads each font's metrics at first
 * use with a run-time `createRequire(...)('#standard-fonts/<Font>')`, resolved against pdfkit's
 * package.json, which a bundle does not ship; the browser build takes them as imported modules.
 * The local runtime and the tests run the Node build (it loads the fonts itself). Plain JavaScript:
 * pdfkit's typings name neither `registerStdFonts` nor the font modules.
 * See pdfkitBrowserBuildPlugin (esbuild-plugins.ts) and shared/invoices/pdf.ts.
 */
import PDFDocument, { registerStdFonts } from 'pdfkit';
import Helvetica from 'pdfkit/standard-fonts/Helvetica';
import HelveticaBold from 'pdfkit/standard-fonts/HelveticaBold';

registerStdFonts(Helvetica, HelveticaBold);

export default PDFDocument;
