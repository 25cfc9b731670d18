/**
 * The Spanish texts the light sign-in page needs (entries/sign-in.tsx): only these keys of the
 * namespaces, picked by name so the bundler leaves the rest of each file out.
 */
import common from './locales/es/common.json';
import { codes, generic, network } from './locales/es/errors.json';
import { login, meta, pages, skipToContent, topbar } from './locales/es/shell.json';

export default {
  common,
  shell: { login, meta, pages, skipToContent, topbar },
  errors: { codes, generic, network },
};
