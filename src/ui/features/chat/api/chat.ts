/** The chat assistant's calls (issue 18): the general configuration, a message, the settings. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AreaUnit } from '../../../../core/area';
import type { ChatReply } from '../../../../core/chat-query';
import type { Corporate } from '../../../../core/types';
import { api, apiQuery } from '../../../lib/api';
import { corporateQuery } from '../../../lib/corporate-access';

/** Spec §3: the general configuration's chat URL and switch. */
export interface GeneralConfig {
  urlMappenChat: string;
  mostrarMappenChat: boolean;
  version: string;
}

export const generalConfigQuery = () =>
  apiQuery<GeneralConfig>('wsObtenerConfiguracionesGenerales');

export function useGeneralConfig() {
  return useQuery({ ...generalConfigQuery(), staleTime: 15 * 60_000 });
}

export interface ChatMessageRequest {
  corporativo: string;
  mensaje: string;
  sessionID: string;
  divisa: string;
  unidadArea: AreaUnit;
}

/** Posts a message to the chat URL of the general configuration (our own route). */
export function sendChatMessage(
  url: string,
  body: ChatMessageRequest,
  signal?: AbortSignal,
): Promise<ChatReply> {
  return api<ChatReply>(url, { method: 'POST', body, ...(signal ? { signal } : {}) });
}

/** The corporate's chat settings as the administrator edits them. */
export interface ChatSettings {
  mostrarChat: boolean;
  asistenteChat: 'inventario' | 'webhook';
  mensajeBienvenidaChat: { es?: string; en?: string };
  /** Whether the deployment has a webhook to choose. */
  webhookConfigurado: boolean;
}

const settingsPath = (id: string) => `/api/corporativos/${encodeURIComponent(id)}/config-chat`;

export function useChatSettings(corporateId: string) {
  return useQuery({
    queryKey: ['api', 'config-chat', corporateId],
    queryFn: ({ signal }) => api<ChatSettings>(settingsPath(corporateId), { signal }),
  });
}

export function useSaveChatSettings(corporate: Pick<Corporate, 'id' | 'slug'>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<ChatSettings, 'webhookConfigurado'>) =>
      api<ChatSettings>(settingsPath(corporate.id), { method: 'PUT', body }),
    onSuccess: (saved) => {
      client.setQueryData(['api', 'config-chat', corporate.id], saved);
      // The layout's corporate carries the switch and the welcome message.
      void client.invalidateQueries({ queryKey: corporateQuery(corporate.slug).queryKey });
    },
  });
}
