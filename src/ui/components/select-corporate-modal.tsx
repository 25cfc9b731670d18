import { useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { corporatePath } from '../../core/navigation';
import { useSessionCorporates } from '../session';
import { Modal } from './modal';
import { CorporateLogo } from './corporate-logo';

/** The corporate switch (select_corporate): approved corporates open, pending ones are disabled. */
export function SelectCorporateModal({
  onClose,
  currentSlug,
}: {
  onClose: () => void;
  currentSlug?: string | null;
}) {
  const { t } = useTranslation('shell');
  const router = useRouter();
  const corporates = useSessionCorporates();
  return (
    <Modal id="select_corporate" title={t('selectCorporate.title')} onClose={onClose}>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
        {corporates.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              disabled={!c.aprobado}
              aria-current={c.slug === currentSlug ? 'true' : undefined}
              onClick={() => {
                onClose();
                void router.navigate({ href: corporatePath(c.slug) });
              }}
              className={css({
                w: '100%',
                display: 'flex',
                alignItems: 'center',
                gap: 3,
                minH: 14,
                px: 3,
                py: 2,
                borderRadius: 'lg',
                border: '1px solid',
                borderColor: 'border',
                textAlign: 'left',
                cursor: 'pointer',
                bg: 'surface',
                _hover: { borderColor: 'primary' },
                _focusVisible: {
                  outline: '2px solid',
                  outlineColor: 'primary',
                  outlineOffset: '2px',
                },
                _disabled: {
                  cursor: 'not-allowed',
                  opacity: 0.6,
                  _hover: { borderColor: 'border' },
                },
                '&[aria-current=true]': { borderColor: 'primary', bg: 'rgba(31,111,235,0.06)' },
              })}
            >
              <CorporateLogo corporate={c} size={36} />
              <span className={css({ flex: 1, fontWeight: 'medium' })}>{c.nombre}</span>
              {!c.aprobado ? (
                <span
                  className={css({
                    fontSize: 'xs',
                    color: 'muted',
                    bg: 'rgba(0,0,0,0.05)',
                    px: 2,
                    py: 1,
                    borderRadius: 'full',
                  })}
                >
                  {t('corporates.approvalPending')}
                </span>
              ) : c.slug === currentSlug ? (
                <span className={css({ fontSize: 'xs', color: 'primary', fontWeight: 'semibold' })}>
                  {t('selectCorporate.current')}
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
