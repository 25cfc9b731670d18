/**
 * The people calls of the client (issue 16): the corporate's users page (list, create, invite,
 * edit, deactivate, invitations, registrations to approve) and the signed-out pages (a mailed
 * link's password, recovery, a broker's registration).
 */
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { authProvider, hostedAuth } from '../../../lib/auth-provider';
import i18next from 'i18next';
import type { BrowserName } from '../../../../core/misc';

/** How a user stands in the corporate (the status filter): core/user.ts. */
import type { MemberStatus } from '../../../../core/user';
export { MEMBER_STATUSES, type MemberStatus } from '../../../../core/user';

/** One row of the users page (`GET /api/users/indices/users`). */
export interface UserListItem {
  id: string;
  email: string;
  nombre: string;
  apellidos: string;
  idRol: string | null;
  estatus: MemberStatus;
  fechaAlta: number;
  sesionUltima: number | null;
  /** The browser of the last session (core/misc.ts `detectBrowser`), null when not known. */
  navegador: BrowserName | null;
  tipo: string | null;
  telefono: string | null;
  inmobiliaria: string | null;
  aprobarRegistro: boolean;
  rolesAsignacion: string[];
  invitacionVence: string | null;
}

export interface UsersPage {
  usuarios: UserListItem[];
  total: number;
  pagina: number;
  porPagina: number;
}

export interface UsersFilters {
  q?: string | undefined;
  rol?: string | undefined;
  estatus?: MemberStatus | undefined;
  pagina: number;
}

export const PAGE_SIZE = 25;

export const usersQuery = (corporateId: string, filters: UsersFilters) =>
  queryOptions({
    queryKey: ['api', 'users/indices/users', corporateId, filters] as const,
    queryFn: ({ signal }) =>
      api<UsersPage>('/api/users/indices/users', {
        signal,
        query: {
          corporateId,
          q: filters.q || undefined,
          rol: filters.rol,
          estatus: filters.estatus,
          pagina: filters.pagina,
          porPagina: PAGE_SIZE,
        },
      }),
    placeholderData: keepPreviousData,
  });

export function useUsers(corporateId: string, filters: UsersFilters) {
  return useQuery(usersQuery(corporateId, filters));
}

/** A broker's registration waiting for approval. */
export interface RegistrationRequest {
  id: string;
  email: string;
  nombre: string;
  apellidos: string;
  telefono: string | null;
  inmobiliaria: string | null;
  fechaAlta: number;
  idCorporativo: string;
}

export function useRegistrations(userId: string, corporateId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['api', 'users/indices/users-register-approver', userId, corporateId] as const,
    queryFn: ({ signal }) =>
      api<RegistrationRequest[]>(`/api/users/indices/users-register-approver/${userId}`, {
        signal,
        query: { corporateId },
      }),
    enabled,
  });
}

/** Every people mutation refreshes the users list and the registrations. */
function usePeopleMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // Errors are shown inside the dialogs.
    meta: { silent: true },
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: ['api', 'users/indices/users'] }),
        client.invalidateQueries({ queryKey: ['api', 'users/indices/users-register-approver'] }),
      ]);
    },
  });
}

export interface NewMember {
  idCorporativo: string;
  email: string;
  nombre: string;
  apellidos: string;
  telefono?: string;
  idRol: string;
  idioma?: 'es' | 'en';
  password?: string;
}

export function useCreateUser() {
  return usePeopleMutation((body: NewMember & { password: string }) =>
    api<UserListItem>('/api/auth/create-user', { method: 'POST', body }),
  );
}

export function useInviteUser() {
  return usePeopleMutation((body: NewMember) =>
    api<{ usuario: UserListItem; existente: boolean; invitacionVence: string | null }>(
      '/api/usuarios/invitar',
      { method: 'POST', body },
    ),
  );
}

export interface MemberChanges {
  id: string;
  nombre?: string;
  apellidos?: string;
  telefono?: string;
  roles?: Record<string, string>;
  rolesAsignacion?: Record<string, string[]>;
  aprobarRegistro?: boolean;
}

export function useUpdateUser() {
  return usePeopleMutation((body: MemberChanges) =>
    api<UserListItem>(`/api/users/${body.id}`, { method: 'PUT', body }),
  );
}

export function useDeactivateUser(corporateId: string) {
  return usePeopleMutation(({ id, reasignarA }: { id: string; reasignarA: string | null }) =>
    api<{ usuario: UserListItem; leadsReasignados: number; citasReasignadas: number }>(
      `/api/corporativos/${corporateId}/usuarios/${id}/desactivar`,
      { method: 'POST', body: reasignarA ? { reasignarA } : {} },
    ),
  );
}

export function useReactivateUser(corporateId: string) {
  return usePeopleMutation((id: string) =>
    api<UserListItem>(`/api/corporativos/${corporateId}/usuarios/${id}/reactivar`, {
      method: 'POST',
      body: {},
    }),
  );
}

export function useInvitationAction(corporateId: string) {
  return usePeopleMutation(({ id, action }: { id: string; action: 'reenviar' | 'revocar' }) =>
    api<unknown>(`/api/corporativos/${corporateId}/invitaciones/${id}/${action}`, {
      method: 'POST',
      body: {},
    }),
  );
}

export function useApproveRegistration(corporateId: string) {
  return usePeopleMutation(({ id, idRol }: { id: string; idRol: string }) =>
    api<UserListItem>(`/api/corporativos/${corporateId}/solicitudes/${id}/aprobar`, {
      method: 'POST',
      body: { idRol },
    }),
  );
}

export function useRejectRegistration(corporateId: string) {
  return usePeopleMutation(({ id, motivo }: { id: string; motivo: string }) =>
    api<unknown>(`/api/corporativos/${corporateId}/solicitudes/${id}/rechazar`, {
      method: 'POST',
      body: { motivo },
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Signed out

export type LinkKind = 'invitacion' | 'recuperacion';

export interface LinkInfo {
  email: string;
  nombre: string;
  corporativo: { nombre: string; slug: string } | null;
  vence: string;
}

export function useLinkInfo(tipo: LinkKind, token: string | undefined) {
  return useQuery({
    queryKey: ['api', 'auth/enlace', tipo, token] as const,
    queryFn: ({ signal }) => api<LinkInfo>('/api/auth/enlace', { signal, query: { tipo, token } }),
    enabled: Boolean(token),
    retry: false,
  });
}

export function useSetPasswordFromLink(tipo: LinkKind) {
  return useMutation({
    mutationFn: (body: { token: string; password: string; idioma?: 'es' | 'en' }) =>
      api<{ ok: true; email: string; corporativo?: { nombre: string; slug: string } | null }>(
        tipo === 'invitacion' ? '/api/auth/aceptar-invitacion' : '/api/auth/restablecer-contrasena',
        { method: 'POST', body },
      ),
    meta: { silent: true },
  });
}

export function useRequestRecovery() {
  return useMutation({
    mutationFn: async (email: string) => {
      // Under Firebase (issue 22) Firebase mails its own link (sendPasswordResetEmail).
      if ((await authProvider()).proveedor === 'firebase') {
        await (await hostedAuth()).sendPasswordReset(email, i18next.language);
        return { ok: true as const };
      }
      return api<{ ok: true }>('/api/auth/recover-password', { method: 'POST', body: { email } });
    },
    meta: { silent: true },
  });
}

export interface RegistrationInfo {
  id: string;
  slug: string;
  nombre: string;
  multiIdioma: boolean;
  imagen: { imagenLogo?: string };
  inmobiliarias: string[];
}

export function useRegistrationInfo(slug: string) {
  return useQuery({
    queryKey: ['api', 'public/registro', slug] as const,
    queryFn: ({ signal }) =>
      api<RegistrationInfo>(`/api/public/registro/${encodeURIComponent(slug)}`, { signal }),
    retry: false,
  });
}

export interface BrokerRegistration {
  slug: string;
  nombre: string;
  apellidos: string;
  email: string;
  telefono: string;
  password: string;
  inmobiliaria: string;
  inmobiliariaOtra?: string;
  idioma: 'es' | 'en';
}

export function useRegisterBroker() {
  return useMutation({
    mutationFn: (body: BrokerRegistration) =>
      api<{ ok: true; estatus: 'pendiente' }>('/api/solicitudes-usuarios/registrar', {
        method: 'POST',
        body,
      }),
    meta: { silent: true },
  });
}
