/**
 * While the user types, what the inventory assistant will search for ("2 rec. · hasta
 * $5,000,000 MXN · Torre Alameda"), read by the core worker (core/chat-query.ts through
 * workers/core-client.ts) from the same parser the server runs, with the user's currency and
 * area unit. Nothing shows for text it does not understand.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { formatArea, type AreaUnit } from '../../../../core/area';
import { CHAT_MESSAGE_MAX, type ChatQuery } from '../../../../core/chat-query';
import { normalizeCurrencies } from '../../../../core/currency';
import { OR_MORE_VALUE } from '../../../../core/filters';
import { formatMoney, moneyFromMajor } from '../../../../core/money';
import type { Corporate } from '../../../../core/types';
import { getCoreClient } from '../../../../workers/core-client';
import { developmentsQuery } from '../../../lib/catalogue';

const counts = (values: readonly number[]) =>
  values.map((v) => (v === OR_MORE_VALUE ? `${v}+` : String(v))).join(', ');

export function UnderstoodHint({
  id,
  text,
  corporate,
  currency,
  areaUnit,
}: {
  id: string;
  text: string;
  corporate: Pick<Corporate, 'id' | 'divisa'>;
  currency: string;
  areaUnit: AreaUnit;
}) {
  const { t } = useTranslation('chat');
  const developments = useQuery(developmentsQuery(corporate.id));
  const [query, setQuery] = useState<ChatQuery | null>(null);

  useEffect(() => {
    const question = text.trim();
    if (question === '' || question.length > CHAT_MESSAGE_MAX) {
      setQuery(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      getCoreClient()
        .parseChatQuestion(question, {
          developments: (developments.data ?? []).map((d) => ({
            id: d.id,
            nombre: d.nombre,
            nombreCorto: d.nombreCorto,
          })),
          currencies: normalizeCurrencies(corporate.divisa),
          currency,
          areaUnit,
        })
        .then(
          (q) => current && setQuery(q),
          () => current && setQuery(null),
        );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, developments.data, corporate.divisa, currency, areaUnit]);

  if (!query?.entendida || text.trim() === '') return <p id={id} hidden />;
  const f = query.filters;
  const money = (v: number) => `${formatMoney(moneyFromMajor(v))} ${query.divisa}`;
  const names = new Map((developments.data ?? []).map((d) => [d.id, d.nombre]));
  const parts = [
    query.intencion === 'contar' ? t('understood.count') : null,
    query.tipo ? t(`understood.${query.tipo}`) : null,
    f.recamaras.length ? t('understood.beds', { list: counts(f.recamaras) }) : null,
    f.banios.length ? t('understood.baths', { list: counts(f.banios) }) : null,
    f.cajones.length ? t('understood.parking', { list: counts(f.cajones) }) : null,
    f.precioMin !== undefined ? t('understood.from', { value: money(f.precioMin) }) : null,
    f.precioMax !== undefined ? t('understood.upTo', { value: money(f.precioMax) }) : null,
    f.areaMin !== undefined
      ? t('understood.from', { value: formatArea(f.areaMin, areaUnit) })
      : null,
    f.areaMax !== undefined
      ? t('understood.upTo', { value: formatArea(f.areaMax, areaUnit) })
      : null,
    query.terraza ? t('understood.terrace') : null,
    query.roofGarden ? t('understood.roofGarden') : null,
    query.orden ? t(`understood.order.${query.orden}`) : null,
    ...query.desarrollos.map((d) => names.get(d) ?? null),
  ].filter((p): p is string => p !== null);
  return (
    <p
      id={id}
      data-testid="chat-understood"
      className={css({ fontSize: 'xs', color: 'muted', minH: 4 })}
    >
      {t('understood.label', { criteria: parts.join(' · ') || t('understood.everything') })}
    </p>
  );
}
