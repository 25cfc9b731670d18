import { useRouter, useRouterState } from '@tanstack/react-router';
import { memo, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { corporatePath, titleParts } from '../../core/navigation';
import { seesAllLeads } from '../../core/permissions';
import type { Corporate } from '../../core/types';
import { setLanguage } from '../i18n';
import { LanguageSwitchButton } from '../components/language-switch';
import { useSession } from '../session';
import { usePageTitle } from '../lib/page-title';
import { useOptionalCorporateContext, useTopBarSlotRef } from './corporate-context';

const phoneHidden = css({ srOnly: { base: true, md: false } });
const suffix = css({ color: 'muted', fontWeight: 'normal' });
const lastSuffix = css({
  color: { base: 'text', md: 'muted' },
  fontWeight: { base: 'semibold', md: 'normal' },
});

/**
 * The top bar (spec §2): the title rule, the corporate selector (more than one corporate; an
 * empty value is ignored), the EN/ES toggle (corporates with multiIdioma) and the action slot
 * pages fill through `<TopBarActions>`; `end` (the notifications bell, composed by the corporate
 * route) sits before the avatar.
 */
export const TopBar = memo(function TopBar({
  corporate,
  end,
}: {
  corporate: Corporate | null;
  end?: ReactNode;
}) {
  const { t } = useTranslation('shell');
  const router = useRouter();
  const selectId = useId();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const ctx = useOptionalCorporateContext();
  const user = useSession((s) => s.context.user);
  const approved = useSession((s) => s.context.corporates.filter((c) => c.aprobado));
  const setSlot = useTopBarSlotRef();
  // A manager's clients are every adviser's: "Clientes", not "Mis clientes".
  const seesAllClients = Boolean(ctx?.role && seesAllLeads(ctx.role));
  const title = titleParts({
    pathname,
    corporateName: corporate?.nombre,
    developmentName: ctx?.development?.nombre,
    seesAllClients,
  });
  usePageTitle([ctx?.development?.nombre, corporate?.nombre], seesAllClients);
  const initials = `${user?.nombre[0] ?? ''}${user?.apellidos[0] ?? ''}`.toUpperCase();

  return (
    <header
      className={css({
        position: 'sticky',
        top: 0,
        zIndex: 30,
        display: 'flex',
        alignItems: 'center',
        // On a phone with many actions (report, check-in, language, bell) they move together to
        // a second row rather than squeezing the title to "Das…" (issue 19, first-time walk 6).
        flexWrap: 'wrap',
        gap: 3,
        rowGap: 2,
        minH: 16,
        px: { base: 4, md: 6 },
        py: 2,
        bg: 'topbar',
        borderBottomWidth: '1px',
        borderColor: 'border',
      })}
    >
      <h1
        data-testid="page-title"
        // Focus lands here after each navigation (lib/route-focus.ts).
        tabIndex={-1}
        className={css({
          flex: 1,
          minW: '9rem',
          _focus: { outline: 'none' },
          fontSize: { base: 'md', md: 'lg' },
          fontWeight: 'semibold',
          truncate: true,
        })}
      >
        {/* On a phone only the most specific part shows ("Torre Alameda", not "Panel |
            Grup…"); the rest stays in the heading for screen readers and shows from md up. */}
        <span className={title.suffixes.length > 0 ? phoneHidden : undefined}>
          {t(`title.${title.key}`)}
        </span>
        {title.suffixes.map((s, i) => {
          const last = i === title.suffixes.length - 1;
          return (
            <span key={s} className={last ? lastSuffix : `${suffix} ${phoneHidden}`}>
              <span className={phoneHidden}>{' | '}</span>
              {s}
            </span>
          );
        })}
      </h1>
      {/* Everything after the title wraps as one group, to the right of a second row. */}
      <div className={css({ display: 'flex', alignItems: 'center', gap: 3, ml: 'auto', minW: 0 })}>
        <div ref={setSlot} className={css({ display: 'flex', alignItems: 'center', gap: 2 })} />
        {user && user.corporativos.length > 1 ? (
          <div
            className={css({ display: { base: 'none', md: 'flex' }, alignItems: 'center', gap: 2 })}
          >
            <label htmlFor={selectId} className={css({ srOnly: true })}>
              {t('topbar.corporate')}
            </label>
            <select
              id={selectId}
              value={corporate?.slug ?? ''}
              onChange={(e) => {
                // The corporate selector ignores an empty value (spec §5).
                if (!e.target.value) return;
                void router.navigate({ href: corporatePath(e.target.value) });
              }}
              className={css({
                minH: 11,
                maxW: '14rem',
                px: 3,
                borderRadius: 'lg',
                border: '1px solid',
                borderColor: 'border',
                bg: 'surface',
                fontSize: 'sm',
                cursor: 'pointer',
                _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
              })}
            >
              <option value="">{t('topbar.selectCorporate')}</option>
              {approved.map((c) => (
                <option key={c.id} value={c.slug}>
                  {c.nombre}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {corporate?.multiIdioma ? (
          <LanguageSwitchButton onSwitch={(lng) => void setLanguage(lng)} />
        ) : null}
        {end}
        {user ? (
          <span
            title={`${user.nombre} ${user.apellidos}`}
            aria-hidden="true"
            className={css({
              display: { base: 'none', sm: 'grid' },
              placeItems: 'center',
              w: 10,
              h: 10,
              borderRadius: 'full',
              bg: 'primary',
              color: 'primaryText',
              fontSize: 'sm',
              fontWeight: 'semibold',
            })}
          >
            {initials}
          </span>
        ) : null}
      </div>
    </header>
  );
});
