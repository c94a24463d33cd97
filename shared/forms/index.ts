import { defineCapability } from '../platform/capability';
import { formOperations } from './operations';

/** Signup forms: inline forms, slide-ins and popups embedded on any site, public signups. */
export const forms = defineCapability({
  name: 'forms',
  build: {
    manifest: { url: import.meta.url, export: 'forms' },
    operations: './operations#formOperations',
  },
  operations: formOperations,
  needs: ['table'],
});
