/**
 * The English texts of the light sign-in page (entries/sign-in.tsx), a chunk of its own loaded
 * only in English: the same keys as sign-in-texts.es.ts.
 */
import common from './locales/en/common.json';
import { codes, generic, network } from './locales/en/errors.json';
import { login, meta, pages, skipToContent, topbar } from './locales/en/shell.json';

export default {
  common,
  shell: { login, meta, pages, skipToContent, topbar },
  errors: { codes, generic, network },
};
