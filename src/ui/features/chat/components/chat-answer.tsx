/**
 * A bot message of the chat panel: the webhook's HTML, sanitised right before it is inserted
 * (utils/sanitize.ts), the spec's failure message, or the inventory assistant's answer — a
 * short sentence and up to 3 unit cards per development, each linking to the unit's detail in
 * the availability page and to a quotation. The cards' price (in the chosen currency) and areas
 * (in the chosen unit) are built by the core worker (issue 20, the card's worker).
 */
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { ChatReply, ChatReplyDevelopment, ChatUnitCard } from '../../../../core/chat-query';
import type { ChatUnitFigures } from '../../../../core/display-rows';
import type { Corporate } from '../../../../core/types';
import type { ChatMessage } from '../../../../machines/chat.machine';
import { AppLink } from '../../../components/app-link';
import type { Display } from '../../../lib/figures';
import { useCoreFigures } from '../../../lib/use-core-figures';
import { developmentPath } from '../../../lib/paths';
import { sanitizeChatHtml } from '../utils/sanitize';

const FILTERS = [
  'recamaras',
  'banios',
  'cajones',
  'precio',
  'area',
  'desarrollo',
  'tipo',
  'orden',
] as const;

const prose = css({
  '& p': { my: 1 },
  '& ul, & ol': { pl: 5, my: 1 },
  '& ul': { listStyleType: 'disc' },
  '& ol': { listStyleType: 'decimal' },
  '& a': { color: 'link', textDecoration: 'underline', wordBreak: 'break-word' },
  '& code': {
    fontFamily: 'mono',
    fontSize: 'xs',
    bg: 'rgba(0,0,0,0.05)',
    px: 1,
    borderRadius: 'sm',
  },
});

const linkButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  minH: 11,
  px: 3,
  borderRadius: 'md',
  border: '1px solid',
  borderColor: 'border',
  fontSize: 'sm',
  fontWeight: 'semibold',
  color: 'link',
  textDecoration: 'none',
  bg: 'surface',
  _hover: { borderColor: 'primary' },
  _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' },
});

function UnitCard({
  unit,
  development,
  corporate,
  figures,
}: {
  unit: ChatUnitCard;
  development: ChatReplyDevelopment;
  corporate: Pick<Corporate, 'slug'>;
  /** Its price and areas as shown, from the core worker; undefined until they arrive. */
  figures: ChatUnitFigures | undefined;
}) {
  const { t } = useTranslation('chat');
  const banios = unit.banios + 0.5 * unit.baniosMedios;
  const names = { unidad: unit.nombre, desarrollo: development.nombre };
  const query = `?unidad=${encodeURIComponent(unit.id)}`;
  return (
    <li
      data-testid="chat-unit-card"
      className={css({
        border: '1px solid',
        borderColor: 'border',
        borderRadius: 'lg',
        p: 3,
        bg: 'surface',
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
      })}
    >
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: 2 })}>
        <strong>{unit.nombre}</strong>
        <span className={css({ fontWeight: 'semibold', textAlign: 'right' })}>
          {unit.precio === undefined ? t('answer.priceHidden') : (figures?.priceText ?? '…')}
        </span>
      </div>
      <span className={css({ fontSize: 'sm', color: 'muted' })}>
        {[
          t('answer.beds', { count: unit.recamaras }),
          t('answer.baths', { count: banios }),
          t('answer.parking', { count: unit.cajones }),
          figures?.areaText ?? '…',
        ].map((part, i) => (
          <Fragment key={i}>
            {i > 0 ? ' · ' : ''}
            <span className={css({ whiteSpace: 'nowrap' })}>{part}</span>
          </Fragment>
        ))}
        {figures?.terraceText ? ` · ${t('answer.terrace', { area: figures.terraceText })}` : ''}
      </span>
      <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 1 })}>
        <AppLink
          className={linkButton}
          aria-label={t('answer.viewUnitLabel', names)}
          href={`${developmentPath(corporate.slug, development.slug, 'disponibilidad')}${query}&s=caracteristicas`}
        >
          {t('answer.viewUnit')}
        </AppLink>
        <AppLink
          className={linkButton}
          aria-label={t('answer.quoteLabel', names)}
          href={`${developmentPath(corporate.slug, development.slug, 'cotizacion')}${query}`}
        >
          {t('answer.quote')}
        </AppLink>
      </div>
    </li>
  );
}

function InventoryAnswer({
  reply,
  corporate,
  display,
}: {
  reply: Extract<ChatReply, { tipo: 'inventario' }>;
  corporate: Pick<Corporate, 'slug'>;
  display: Display;
}) {
  const { t } = useTranslation('chat');
  const units = reply.entendida ? reply.desarrollos.flatMap((d) => d.unidades) : [];
  const figures = useCoreFigures(
    units.length === 0
      ? null
      : JSON.stringify([display.currency.codigo, display.currencies, display.areaUnit, units]),
    (client, signal) => client.chatUnitFigures(units, display, { signal }),
  );
  const byId = new Map((figures.data ?? []).map((f) => [f.id, f] as const));
  if (!reply.entendida) {
    return (
      <div>
        <p>{t('answer.notUnderstood')}</p>
        <ul className={css({ pl: 5, listStyleType: 'disc', my: 1 })}>
          {FILTERS.map((f) => (
            <li key={f}>{t(`answer.filters.${f}`)}</li>
          ))}
        </ul>
      </div>
    );
  }
  const sentence =
    reply.total === 0
      ? t('answer.none')
      : reply.intencion === 'contar'
        ? t('answer.count', { count: reply.total })
        : reply.desarrollos.length === 1
          ? t('answer.foundInOne', { count: reply.total })
          : t('answer.found', { count: reply.total, developments: reply.desarrollos.length });
  return (
    <div
      className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}
      data-testid="chat-inventory-answer"
      data-figures-engine={figures.engine}
      data-figures-version={figures.version}
    >
      <p>{sentence}</p>
      {reply.desarrollos.map((d) => (
        <section key={d.id} aria-label={d.nombre}>
          <h3 className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: 1 })}>
            {d.nombre} · {t('answer.devTotal', { count: d.total })}
          </h3>
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
            {d.unidades.map((u) => (
              <UnitCard
                key={u.id}
                unit={u}
                development={d}
                corporate={corporate}
                figures={byId.get(u.id)}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** What the bot said, as the panel shows it. */
export function BotMessage({
  message,
  corporate,
  display,
}: {
  message: ChatMessage;
  corporate: Pick<Corporate, 'slug'>;
  display: Display;
}) {
  const { t } = useTranslation('errors');
  if (message.failed) {
    return <p className={css({ color: 'danger', fontWeight: 'semibold' })}>{t('chatFailed')}</p>;
  }
  const reply = message.reply;
  if (reply?.tipo === 'inventario') {
    return <InventoryAnswer reply={reply} corporate={corporate} display={display} />;
  }
  return (
    <div
      className={prose}
      data-testid="chat-html"
      // The webhook's HTML, sanitised with the allow-list right here, as it is inserted.
      dangerouslySetInnerHTML={{ __html: sanitizeChatHtml(reply?.html ?? message.text) }}
    />
  );
}
