/**
 * The built-in inventory assistant (issue 18 point 3): answers a question about the corporate's
 * live inventory from the units the caller may see. The units are those a signed-in user is
 * listed (spec §5: no status, or Disponible and not fractional) of the developments shown in the
 * app, each as the caller's role may see it (core/visibility.ts `visibleUnit`: a hidden price is
 * absent, and so answers no price question); the question becomes the availability page's filter
 * (core/chat-query.ts) and the answer carries up to 3 units per development (spec §9). Nothing
 * leaves the server and nothing is fetched from outside.
 */
import type { AreaUnit } from '../../core/area';
import {
  answerChatQuery,
  chatUnitCard,
  homeKindOf,
  parseChatQuestion,
  type ChatHomeKind,
  type ChatInventoryDevelopment,
  type ChatReply,
} from '../../core/chat-query';
import { normalizeCurrencies } from '../../core/currency';
import { developmentsForApp, unitsListedForSignedInUser } from '../../core/filters';
import { effectiveStatusColors } from '../../core/status';
import type { Role } from '../../core/types';
import { visibleUnit } from '../../core/visibility';
import { loadDevelopments, loadUnitsPriced, type CorporateDoc } from '../catalogue/queries';
import type { Queryable } from '../store/db';

export interface AssistantQuestion {
  mensaje: string;
  /** The user's chosen currency (amounts that name none are in it). */
  divisa?: string | undefined;
  /** The user's area unit (areas that name none are in it). */
  unidadArea?: AreaUnit | undefined;
}

/** The inventory assistant's reply to `question` for a member with `role`. */
export async function answerFromInventory(
  db: Queryable,
  corporate: CorporateDoc,
  role: Role,
  question: AssistantQuestion,
): Promise<ChatReply> {
  const developments = developmentsForApp(await loadDevelopments(db, corporate.id));
  const currencies = normalizeCurrencies(corporate.divisa);
  const query = parseChatQuestion(question.mensaje, {
    developments,
    currencies,
    currency: question.divisa ?? 'MXN',
    areaUnit: question.unidadArea ?? 'm2',
  });
  if (!query.entendida) {
    return { tipo: 'inventario', entendida: false, intencion: 'listar', total: 0, desarrollos: [] };
  }
  const categories = new Map(
    (corporate.categoriasBusqueda ?? []).map((c) => [c.id, homeKindOf(c.nombre)]),
  );
  const wanted =
    query.desarrollos.length > 0
      ? developments.filter((d) => query.desarrollos.includes(d.id))
      : developments;
  const inventory: ChatInventoryDevelopment[] = [];
  for (const d of wanted) {
    const colors = effectiveStatusColors(corporate, d);
    const units = unitsListedForSignedInUser(await loadUnitsPriced(db, corporate.id, d.id));
    const tipos = [
      ...new Set(
        d.categorias
          .map((id) => categories.get(id))
          .filter((k): k is ChatHomeKind => k !== undefined),
      ),
    ];
    inventory.push({
      id: d.id,
      slug: d.slug,
      nombre: d.nombre,
      tipos,
      filterContext: {
        statusColors: colors,
        hideUnavailablePrices: corporate.configFiltros.ocultarPrecioUnidadesNoDisponibles === true,
      },
      units: units.map((u) => visibleUnit(u, colors, role)),
    });
  }
  const answer = answerChatQuery(query, inventory, currencies);
  return {
    tipo: 'inventario',
    entendida: true,
    intencion: query.intencion,
    total: answer.total,
    desarrollos: answer.desarrollos.map((d) => ({
      id: d.id,
      slug: d.slug,
      nombre: d.nombre,
      total: d.total,
      unidades: d.unidades.map(chatUnitCard),
    })),
  };
}
