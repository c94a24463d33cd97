import type { PageDefinition } from './types';
import { homePage } from './commerce/HomePage';
import { productsPage } from './commerce/ProductsPage';
import { segmentEditorPage, segmentsPage } from './growth/SegmentsPage';
import { importDetailPage, importsPage, newImportPage } from './growth/ImportsPage';
import { teamPage } from './growth/TeamPage';
import { formEditorPage, formsPage } from './growth/FormsPage';
import { sheetsPage } from './growth/SheetsPage';
import { surveyPage } from './growth/SurveyPage';
import { linksPage } from './growth/LinksPage';
import { contactsPage } from './growth/ContactsPage';

/**
 * Every page of the dashboard, one line each. A page module exports its PageDefinition; add the
 * import and the line here, nothing else of the shell. Order within a group is nav order.
 */
export const PAGES: PageDefinition[] = [
  homePage,
  productsPage,
  segmentsPage,
  segmentEditorPage,
  importsPage,
  newImportPage,
  importDetailPage,
  teamPage,
  contactsPage,
  formsPage,
  formEditorPage,
  sheetsPage,
  surveyPage,
  linksPage,
];
