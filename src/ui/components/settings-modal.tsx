import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { AreaUnit } from '../../core/area';
import { normalizeCurrencies } from '../../core/currency';
import type { Corporate } from '../../core/types';
import { mayConfigureChat } from '../../core/permissions';
import { mayEditLegalData } from '../../core/legal-data';
import { mayAdministerContent } from '../../core/featured';
import { useOptionalCorporateContext } from '../layouts/corporate-context';
import { apiQuery } from '../lib/api';
import { AppLink } from './app-link';
import { currencyName, useDisplayChoice } from '../lib/display-settings';
import { Modal } from './modal';

interface GeneralConfig {
  version: string;
  urlMappenChat: string;
  mostrarMappenChat: boolean;
}

const fieldset = css({ display: 'flex', flexDirection: 'column', gap: 2, mb: 5, border: 0, p: 0 });
const legend = css({ fontSize: 'sm', fontWeight: 'semibold', mb: 2, color: 'text' });
const option = css({
  display: 'flex',
  alignItems: 'center',
  gap: 3,
  minH: 12,
  px: 3,
  borderRadius: 'lg',
  border: '1px solid',
  borderColor: 'border',
  cursor: 'pointer',
  _hover: { borderColor: 'primary' },
  '&:has(input:checked)': { borderColor: 'primary', bg: 'rgba(31,111,235,0.06)' },
  '&:has(input:focus-visible)': {
    outline: '2px solid',
    outlineColor: 'primary',
    outlineOffset: '2px',
  },
  '& input': { accentColor: 'var(--vt-colorBotonPrimario, #1f6feb)', w: 4, h: 4 },
});

/** "Configuraciones": area unit, currency (corporates with more than one) and the app version. */
export function SettingsModal({
  onClose,
  corporate,
}: {
  onClose: () => void;
  corporate?: Pick<Corporate, 'divisa'> | null;
}) {
  const { t, i18n } = useTranslation(['shell', 'chat', 'crm', 'content']);
  const settings = useDisplayChoice();
  const member = useOptionalCorporateContext();
  const { t: tq } = useTranslation('quotes');
  const { t: tl } = useTranslation('labels');
  // The corporate's own settings pages, each for the roles that may change it: its chat
  // assistant (issue 18), its labels in English and the legal name and address printed on
  // quotations (issue 19), its CRM connection and sync (issue 17), its featured developments and
  // tutorials (issue 20).
  const settingsLinks = member
    ? [
        { path: 'asistente', may: mayConfigureChat(member.role), label: t('chat:settings.open') },
        { path: 'idiomas', may: mayConfigureChat(member.role), label: tl('open') },
        { path: 'datos-legales', may: mayEditLegalData(member.role), label: tq('legal.open') },
        { path: 'crm', may: mayConfigureChat(member.role), label: t('crm:settings.open') },
        {
          path: 'destacados',
          may: mayAdministerContent(member.role),
          label: t('content:featured.editTitle'),
        },
        {
          path: 'tutoriales',
          may: mayAdministerContent(member.role),
          label: t('content:admin.title'),
        },
      ].filter((link) => link.may)
    : [];
  const currencyId = useId();
  const config = useQuery(apiQuery<GeneralConfig>('wsObtenerConfiguracionesGenerales'));
  // MXN (the base) is added when missing; the choice shows only with more than one currency.
  const currencies = corporate ? normalizeCurrencies(corporate.divisa).filter((c) => c.activo) : [];
  const units: AreaUnit[] = ['m2', 'ft2'];
  return (
    <Modal title={t('settings.title')} onClose={onClose} id="settings">
      <fieldset className={fieldset}>
        <legend className={legend}>{t('settings.areaUnit')}</legend>
        {units.map((unit) => (
          <label key={unit} className={option}>
            <input
              type="radio"
              name="areaUnit"
              value={unit}
              checked={settings.areaUnit === unit}
              onChange={() => settings.setAreaUnit(unit)}
            />
            {t(`settings.${unit}`)}
          </label>
        ))}
      </fieldset>
      {currencies.length > 1 ? (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: 2, mb: 5 })}>
          <label htmlFor={currencyId} className={legend}>
            {t('settings.currency')}
          </label>
          <select
            id={currencyId}
            value={
              currencies.some((c) => c.codigo === settings.currency) ? settings.currency : 'MXN'
            }
            onChange={(e) => settings.setCurrency(e.target.value)}
            className={css({
              minH: 12,
              px: 3,
              borderRadius: 'lg',
              border: '1px solid',
              borderColor: 'border',
              bg: 'surface',
              _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
            })}
          >
            {currencies.map((c) => (
              <option key={c.codigo} value={c.codigo}>
                {c.codigo} — {currencyName(c, i18n.language)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {settingsLinks.map((link) => (
        <p key={link.path} className={css({ mb: 5 })}>
          <AppLink
            href={`/corporativos/${member?.corporate.slug ?? ''}/${link.path}`}
            onClick={onClose}
            className={css({ color: 'link', fontWeight: 'semibold', textDecoration: 'underline' })}
          >
            {link.label}
          </AppLink>
        </p>
      ))}
      <p
        className={css({
          fontSize: 'sm',
          color: 'muted',
          borderTopWidth: '1px',
          borderColor: 'border',
          pt: 4,
        })}
      >
        {t('settings.version')}:{' '}
        <span data-testid="app-version">{config.data?.version ?? '…'}</span>
      </p>
    </Modal>
  );
}
