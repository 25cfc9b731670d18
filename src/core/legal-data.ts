/**
 * The developer's legal data printed on quotations (issue 19): its legal name (`razonSocial`)
 * and address (`domicilio`) on the corporate document, and who sets them.
 */

import type { Role } from './types';

/** Longest legal name and address. */
export const LEGAL_NAME_MAX = 200;
export const LEGAL_ADDRESS_MAX = 400;

/**
 * The member sets the developer's legal name and address: the corporate's administrator
 * (`permisos.activarAdminUsuarios`).
 */
export function mayEditLegalData(role: Role | null | undefined): boolean {
  return role?.permisos.activarAdminUsuarios === true;
}
