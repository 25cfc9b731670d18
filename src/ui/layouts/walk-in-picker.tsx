/**
 * The host administrator's way to the walk-in registration (issue 19, defect 9): a navigation
 * entry of its own instead of Home → a development's card. It opens the registration of the
 * development on screen, or of the corporate's only development; with several, it asks which.
 */

import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { walkInPath } from '../../core/navigation';
import type { Corporate } from '../../core/types';
import { Modal } from '../components/modal';
import { developmentsQuery } from '../lib/catalogue';
import { useOptionalCorporateContext } from './corporate-context';

export interface WalkInTarget {
  /** Where the entry leads, when one development is the answer. */
  href?: string;
  /** Otherwise it opens the picker. */
  onClick?: () => void;
  /** The picker, while open. */
  picker: ReactNode;
}

export function useWalkInTarget(corporate: Corporate | null, enabled: boolean): WalkInTarget {
  const current = useOptionalCorporateContext()?.development ?? null;
  const developments = useQuery({
    ...developmentsQuery(corporate?.id ?? ''),
    enabled: enabled && Boolean(corporate),
  });
  const [open, setOpen] = useState(false);
  if (!enabled || !corporate) return { picker: null };
  const list = developments.data ?? [];
  const only = list.length === 1 ? list[0] : undefined;
  const target = current ?? only;
  if (target) return { href: walkInPath(corporate.slug, target.slug), picker: null };
  return {
    onClick: () => setOpen(true),
    picker: open ? (
      <WalkInPicker
        corporateSlug={corporate.slug}
        developments={list}
        onClose={() => setOpen(false)}
      />
    ) : null,
  };
}

function WalkInPicker({
  corporateSlug,
  developments,
  onClose,
}: {
  corporateSlug: string;
  developments: { id: string; slug: string; nombre: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation('shell');
  const router = useRouter();
  return (
    <Modal id="walk_in_picker" title={t('walkInPicker.title')} onClose={onClose}>
      <p className={css({ mb: 3, color: 'muted', fontSize: 'sm' })}>{t('walkInPicker.body')}</p>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
        {developments.map((d) => (
          <li key={d.id}>
            <button
              type="button"
              onClick={() => {
                onClose();
                void router.navigate({ href: walkInPath(corporateSlug, d.slug) });
              }}
              className={css({
                w: '100%',
                minH: 12,
                px: 3,
                py: 2,
                borderRadius: 'lg',
                border: '1px solid',
                borderColor: 'border',
                bg: 'surface',
                textAlign: 'left',
                fontWeight: 'medium',
                cursor: 'pointer',
                _hover: { borderColor: 'primary' },
                _focusVisible: {
                  outline: '2px solid',
                  outlineColor: 'primary',
                  outlineOffset: '2px',
                },
              })}
            >
              {d.nombre}
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
