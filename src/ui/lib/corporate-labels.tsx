/**
 * The corporate's own words in the interface's language (issue 19; core/corporate-labels.ts):
 * status names, lead statuses, channels, schemes, categories, tags, optionals and the Clients
 * label are the corporate's data, written in Spanish; `GET /api/wsObtenerIdiomas` gives their
 * translations. The corporate layout and the public pages name the corporate
 * ({@link CorporateLabelsProvider}); any screen below asks {@link useCorporateLabel} for a label.
 * A value without a translation (or before the labels arrive) is shown as stored.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  labelOf,
  type LabelKind,
  type LabelLanguage,
  type LabelSet,
} from '../../core/corporate-labels';
import { api } from './api';

export interface CorporateLabelsAnswer {
  idCorporativo: string;
  lang: LabelLanguage;
  multiIdioma: boolean;
  etiquetas: LabelSet;
}

export const corporateLabelsQuery = (corporate: string, lang: LabelLanguage) =>
  queryOptions({
    queryKey: ['api', 'wsObtenerIdiomas', corporate, lang],
    queryFn: ({ signal }) =>
      api<CorporateLabelsAnswer>(
        `/api/wsObtenerIdiomas?${new URLSearchParams({ idCorporativo: corporate, lang }).toString()}`,
        { signal },
      ),
    staleTime: 5 * 60_000,
  });

const CorporateKey = createContext<string | null>(null);

/** Names the corporate (its id or slug; null while unknown) whose labels the screens show. */
export function CorporateLabelsProvider({
  corporate,
  children,
}: {
  corporate: string | null;
  children: ReactNode;
}) {
  return <CorporateKey.Provider value={corporate}>{children}</CorporateKey.Provider>;
}

export type LabelFn = (kind: LabelKind, value: string) => string;

/**
 * The label of a corporate value in the interface's language: `label('status', 'Disponible')`
 * is "Available" in English where the corporate translated it. Outside a provider, or in
 * Spanish without labels, the value itself.
 */
export function useCorporateLabel(): LabelFn {
  const { etiquetas } = useLabelSet();
  return useCallback<LabelFn>((kind, value) => labelOf(etiquetas, kind, value), [etiquetas]);
}

/**
 * The labels read of `corporate` (null: none) in the interface's language. `keepPrevious`: after
 * a language switch the previous language's answer stands in until the new one comes.
 */
function useLabelsQuery(corporate: string | null, keepPrevious = false) {
  const { i18n } = useTranslation();
  const lang: LabelLanguage = i18n.language === 'en' ? 'en' : 'es';
  const query = useQuery({
    ...corporateLabelsQuery(corporate ?? '', lang),
    enabled: Boolean(corporate),
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
  return { lang, query };
}

/**
 * Starts reading a corporate's labels in the interface's language before anything shows them:
 * a page that learns its corporate from its address (the public pages) asks for them beside its
 * own first read instead of after it.
 */
export function useStartCorporateLabels(corporate: string | null): void {
  useLabelsQuery(corporate);
}

/**
 * Whether the labels of the corporate named by the provider have come, or cannot come (an error;
 * no corporate): a screen whose layout depends on their length (the availability's legend, whose
 * chips wrap) waits for it, so a translation arriving does not move what is already drawn. After
 * a language switch the previous language's answer counts until the new one comes, so a switch
 * does not take the screen away.
 */
export function useCorporateLabelsSettled(): boolean {
  const corporate = useContext(CorporateKey);
  const { query } = useLabelsQuery(corporate, true);
  return !corporate || !query.isPending;
}

/** The labels of the corporate named by the provider in the interface's language. */
function useLabelSet(): { lang: LabelLanguage; etiquetas: LabelSet | undefined } {
  const { lang, query } = useLabelsQuery(useContext(CorporateKey));
  return { lang, etiquetas: query.data?.etiquetas };
}

/** The stored value the labels page translates as the Clients page's name. */
const CLIENTS_VALUE = 'Clientes';

type ClientsNames = { etiquetasClientes?: { es?: string; en?: string } } | null | undefined;

/**
 * The corporate's name for its clients in a language: its own name for that language
 * (`etiquetasClientes`), else the labels page's translation of its Spanish name or of
 * "Clientes", else `fallback` (the app's word). A Spanish name never shows on an English screen.
 */
export function clientsLabelOf(
  corporate: ClientsNames,
  lang: LabelLanguage,
  etiquetas: LabelSet | undefined,
  fallback: string,
): string {
  const own = corporate?.etiquetasClientes?.[lang];
  if (own) return own;
  const spanish = corporate?.etiquetasClientes?.es;
  return (
    (spanish && etiquetas?.clientes?.[spanish]) || etiquetas?.clientes?.[CLIENTS_VALUE] || fallback
  );
}

/**
 * The corporate's name for its clients in the interface's language, wherever the app names them
 * (the sidebar, the clients page, the walk-in registration): {@link clientsLabelOf}.
 */
export function useClientsLabel(corporate: ClientsNames, fallback: string): string {
  const { lang, etiquetas } = useLabelSet();
  return clientsLabelOf(corporate, lang, etiquetas, fallback);
}
