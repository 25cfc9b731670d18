/**
 * Tutorials for users (issue 20; spec §7 `wsObtenerTutoriales`, the active ones in order):
 *
 * - `HelpButton`: the top bar's help entry; a dialog lists every active tutorial with its steps.
 * - `FirstVisitTour`: on a user's first visit to a corporate's home, the tutorials one after
 *   another in a card above the page (not a modal: the page stays usable). Closing it or
 *   finishing it is remembered for that user and corporate in this browser
 *   (`vitrina:tutoriales-vistos:{user}:{corporate}`), and the help entry reopens the guides.
 */
import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { tutorialText, type Tutorial } from '../../../../core/tutorials';
import { Modal } from '../../../components/modal';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { tutorialsQuery } from '../api/content';
import { readSeen, tourKey } from '../utils/first-visit';

function Steps({ tutorial, lang }: { tutorial: Tutorial; lang: string }) {
  const text = tutorialText(tutorial, lang);
  return (
    <ol
      className={css({
        listStyle: 'decimal',
        pl: 6,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
      })}
    >
      {text.pasos.map((p, i) => (
        <li key={i}>{p}</li>
      ))}
    </ol>
  );
}

export function HelpButton() {
  const { t, i18n } = useTranslation('content');
  const { corporate } = useCorporateContext();
  const [open, setOpen] = useState(false);
  const tutorials = useQuery({ ...tutorialsQuery(corporate.id), enabled: open });
  return (
    <>
      <button
        type="button"
        data-testid="help-button"
        aria-label={t('tutorials.help')}
        onClick={() => setOpen(true)}
        className={css({
          minW: 11,
          minH: 11,
          px: 3,
          borderRadius: 'full',
          border: '1px solid',
          borderColor: 'border',
          bg: 'surface',
          fontWeight: 'bold',
          cursor: 'pointer',
          _hover: { borderColor: 'primary', color: 'primary' },
          _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
        })}
      >
        ?
      </button>
      {open ? (
        <Modal title={t('tutorials.title')} onClose={() => setOpen(false)}>
          {tutorials.isPending ? (
            <p aria-busy="true">{t('tutorials.loading')}</p>
          ) : tutorials.isError ? (
            <p role="alert">{t('tutorials.loadFailed')}</p>
          ) : tutorials.data.length === 0 ? (
            <p>{t('tutorials.none')}</p>
          ) : (
            <div className={css({ display: 'flex', flexDirection: 'column', gap: 4 })}>
              {tutorials.data.map((tut) => (
                <section key={tut.id} data-tutorial={tut.id}>
                  <h3 className={css({ fontWeight: 'bold', mb: 1 })}>
                    {tutorialText(tut, i18n.language).titulo}
                  </h3>
                  <Steps tutorial={tut} lang={i18n.language} />
                </section>
              ))}
            </div>
          )}
        </Modal>
      ) : null}
    </>
  );
}

export function FirstVisitTour() {
  const { t, i18n } = useTranslation('content');
  const { corporate, user } = useCorporateContext();
  const key = tourKey(user.id, corporate.id);
  const [seen, setSeen] = useState(() => readSeen(key));
  const [index, setIndex] = useState(0);
  const titleId = useId();
  const tutorials = useQuery({ ...tutorialsQuery(corporate.id), enabled: !seen });
  if (seen || !tutorials.data || tutorials.data.length === 0) return null;
  const list = tutorials.data;
  const at = Math.min(index, list.length - 1);
  const current = list[at]!;
  const dismiss = () => {
    try {
      window.localStorage.setItem(key, '1');
    } catch {
      // Private mode without storage: the tour closes for this visit only.
    }
    setSeen(true);
  };
  const last = at === list.length - 1;
  return (
    <section
      aria-labelledby={titleId}
      data-testid="first-visit-tour"
      className={`${card()} ${css({ p: { base: 4, md: 6 }, mb: 6, display: 'flex', flexDirection: 'column', gap: 3, borderLeftWidth: '4px', borderLeftColor: 'primary' })}`}
    >
      <p className={css({ color: 'muted', fontSize: 'sm' })}>
        {t('tutorials.tourIntro', { n: at + 1, total: list.length })}
      </p>
      <h2 id={titleId} className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
        {tutorialText(current, i18n.language).titulo}
      </h2>
      <Steps tutorial={current} lang={i18n.language} />
      <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap' })}>
        {at > 0 ? (
          <button
            type="button"
            className={button({ variant: 'ghost' })}
            onClick={() => setIndex(at - 1)}
          >
            {t('tutorials.previous')}
          </button>
        ) : null}
        {last ? (
          <button type="button" className={button({ variant: 'primary' })} onClick={dismiss}>
            {t('tutorials.finish')}
          </button>
        ) : (
          <button
            type="button"
            className={button({ variant: 'primary' })}
            onClick={() => setIndex(at + 1)}
          >
            {t('tutorials.next')}
          </button>
        )}
        {last ? null : (
          <button type="button" className={button({ variant: 'ghost' })} onClick={dismiss}>
            {t('tutorials.skip')}
          </button>
        )}
      </div>
    </section>
  );
}
