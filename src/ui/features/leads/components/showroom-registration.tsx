/**
 * Showroom registration (`…/desarrollos/{slug}/registro-clientes`, spec §2): a walk-in client
 * captured in a few taps on a tablet — large fields and buttons, the development preset, the
 * channel defaulting to Showroom — then a success screen with "register another" and "open
 * client". Its hint points where the user can find the client again: the clients page when their
 * menu has it, else the "open client" button (a host administrator's menu has Events instead).
 */

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { Lead } from '../../../../core/lead';
import { sidebarItems } from '../../../../core/navigation';
import type { Corporate, Development } from '../../../../core/types';
import { useClientsLabel } from '../../../lib/corporate-labels';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { AppLink } from '../../../components/app-link';
import { button, card } from '../../../components/styles';
import { LeadCaptureForm } from './lead-capture-form';
import { leadPath } from '../../../lib/paths';

export function ShowroomRegistration({
  corporate,
  development,
}: {
  corporate: Corporate;
  development: Pick<Development, 'id' | 'nombre'>;
}) {
  const { t } = useTranslation('leads');
  const { t: shell } = useTranslation('shell');
  const { role } = useCorporateContext();
  const clientsInMenu = sidebarItems({ role, corporateCount: 1, inCorporate: true }).includes(
    'clientes',
  );
  // The menu's own name for the page (the corporate may rename it), as the sidebar shows it.
  const clientsLabel = useClientsLabel(corporate, shell('nav.clients'));
  const [registered, setRegistered] = useState<Lead | null>(null);
  const another = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const started = useRef(false);

  // Focus follows the flow: "register another" after a success, the name field after that.
  useEffect(() => {
    if (registered) another.current?.focus();
    else if (started.current) panel.current?.querySelector<HTMLElement>('[name="nombre"]')?.focus();
    started.current = true;
  }, [registered]);

  return (
    <section
      ref={panel}
      aria-labelledby="walk-in-title"
      className={css(card.raw(), { maxW: '56rem', w: '100%', mx: 'auto', p: { base: 5, md: 8 } })}
    >
      <h3 id="walk-in-title" className={css({ fontSize: '2xl', fontWeight: 'bold' })}>
        {t('walkIn.title')}
      </h3>
      <p className={css({ color: 'muted', mb: 6 })}>
        {t('walkIn.subtitle', { desarrollo: development.nombre })}
      </p>
      {registered ? (
        <div
          role="status"
          data-testid="walk-in-success"
          className={css({ textAlign: 'center', py: 8 })}
        >
          <p
            aria-hidden="true"
            className={css({
              mx: 'auto',
              mb: 4,
              w: 16,
              h: 16,
              borderRadius: 'full',
              bg: 'success',
              color: 'white',
              display: 'grid',
              placeItems: 'center',
              fontSize: '3xl',
            })}
          >
            ✓
          </p>
          <p className={css({ fontSize: 'xl', fontWeight: 'semibold', mb: 2 })}>
            {t('walkIn.success', {
              nombre: `${registered.nombre} ${registered.apellidos}`.trim(),
            })}
          </p>
          <p className={css({ color: 'muted', mb: 8 })}>
            {clientsInMenu
              ? t('walkIn.successHint', { clientes: clientsLabel })
              : t('walkIn.successHintOpen')}
          </p>
          <div
            className={css({
              display: 'flex',
              flexDirection: { base: 'column', md: 'row' },
              justifyContent: 'center',
              gap: 3,
            })}
          >
            <button
              ref={another}
              type="button"
              className={css(button.raw(), { minH: 14, fontSize: 'lg', px: 8 })}
              onClick={() => setRegistered(null)}
            >
              {t('walkIn.another')}
            </button>
            <AppLink
              href={leadPath(corporate.slug, registered.id)}
              className={css(button.raw({ variant: 'ghost' }), { minH: 14, fontSize: 'lg', px: 8 })}
            >
              {t('walkIn.open')}
            </AppLink>
            <AppLink
              href={`/corporativos/${corporate.slug}/eventos?${new URLSearchParams({
                agendar: registered.id,
                idDesarrollo: development.id,
              }).toString()}`}
              className={css(button.raw({ variant: 'ghost' }), { minH: 14, fontSize: 'lg', px: 8 })}
            >
              {t('detail.book')}
            </AppLink>
          </div>
        </div>
      ) : (
        <LeadCaptureForm
          corporate={corporate}
          developmentId={development.id}
          large
          recordArrival
          onCreated={setRegistered}
        />
      )}
    </section>
  );
}
