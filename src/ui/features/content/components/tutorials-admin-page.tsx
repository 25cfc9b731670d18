/**
 * `/corporativos/{slug}/tutoriales`: the corporate's administrator writes the tutorials (title
 * and steps in Spanish and English, one step per line), switches them on or off and orders
 * them; one save replaces the list (`PUT …/tutoriales`, server/content). Others see a notice.
 */
import { useEffect, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { mayAdministerContent } from '../../../../core/featured';
import type { Tutorial } from '../../../../core/tutorials';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { ApiRequestError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { allTutorialsQuery, useSaveTutorials } from '../api/content';

const input = css({
  w: '100%',
  px: 3,
  py: 2,
  border: '1px solid',
  borderColor: 'border',
  borderRadius: 'lg',
  bg: 'surface',
  color: 'text',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
});

export function TutorialsAdminPage() {
  const { t } = useTranslation('content');
  const { corporate, role } = useCorporateContext();
  return (
    <div
      className={css({
        maxW: '56rem',
        mx: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: 4,
      })}
    >
      <h2 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{t('admin.title')}</h2>
      {mayAdministerContent(role) ? (
        <Editor corporateId={corporate.id} />
      ) : (
        <p>{t('admin.forbidden')}</p>
      )}
    </div>
  );
}

function Editor({ corporateId }: { corporateId: string }) {
  const { t } = useTranslation('content');
  const data = useQuery(allTutorialsQuery(corporateId));
  const save = useSaveTutorials(corporateId);
  const [list, setList] = useState<Tutorial[] | null>(null);
  useEffect(() => {
    if (data.data && list === null) setList(data.data);
  }, [data.data, list]);
  if (data.isError) return <p role="alert">{t('admin.loadFailed')}</p>;
  if (!list) return <p aria-busy="true">{t('tutorials.loading')}</p>;

  const update = (i: number, next: Tutorial) => setList(list.map((x, j) => (j === i ? next : x)));
  const move = (i: number, by: -1 | 1) => {
    const next = list.slice();
    const [it] = next.splice(i, 1);
    next.splice(i + by, 0, it!);
    setList(next);
  };
  const add = () =>
    setList([
      ...list,
      {
        id: `tut-${crypto.randomUUID().slice(0, 8)}`,
        activo: true,
        orden: list.length + 1,
        es: { titulo: '', pasos: [] },
        en: { titulo: '', pasos: [] },
      },
    ]);
  const submit = () =>
    save.mutate(list, {
      onSuccess: (saved) => {
        setList(saved);
        toast.success(t('admin.saved'));
      },
      onError: (error) => {
        const campos =
          error instanceof ApiRequestError
            ? ((error.body as { campos?: string[] }[] | null)?.[0]?.campos ?? [])
            : [];
        toast.error(
          campos.length > 0
            ? t('admin.invalid', { campos: campos.join(', ') })
            : t('admin.saveFailed'),
        );
      },
    });
  return (
    <>
      <p className={css({ color: 'muted' })}>{t('admin.intro')}</p>
      <ol
        className={css({
          listStyle: 'none',
          p: 0,
          display: 'flex',
          flexDirection: 'column',
          gap: 4,
        })}
      >
        {list.map((tut, i) => (
          <TutorialForm
            key={tut.id}
            tutorial={tut}
            position={i + 1}
            first={i === 0}
            last={i === list.length - 1}
            onChange={(next) => update(i, next)}
            onMove={(by) => move(i, by)}
            onRemove={() => setList(list.filter((_, j) => j !== i))}
          />
        ))}
      </ol>
      <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap' })}>
        <button type="button" className={button({ variant: 'ghost' })} onClick={add}>
          {t('admin.add')}
        </button>
        <button
          type="button"
          className={button({ variant: 'primary' })}
          disabled={save.isPending}
          onClick={submit}
        >
          {t('admin.save')}
        </button>
      </div>
    </>
  );
}

function TutorialForm({
  tutorial,
  position,
  first,
  last,
  onChange,
  onMove,
  onRemove,
}: {
  tutorial: Tutorial;
  position: number;
  first: boolean;
  last: boolean;
  onChange: (next: Tutorial) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('content');
  const base = useId();
  const name = tutorial.es.titulo || t('admin.untitled');
  return (
    <li
      data-tutorial-form={tutorial.id}
      className={`${card()} ${css({ p: { base: 4, md: 5 }, display: 'flex', flexDirection: 'column', gap: 3 })}`}
    >
      <h2 className={css({ fontWeight: 'bold' })}>
        {position}. {name}
      </h2>
      <label className={css({ display: 'flex', gap: 2, alignItems: 'center' })}>
        <input
          type="checkbox"
          checked={tutorial.activo}
          onChange={(e) => onChange({ ...tutorial, activo: e.target.checked })}
        />
        {t('admin.active')}
      </label>
      <div
        className={css({
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
        })}
      >
        {(['es', 'en'] as const).map((lang) => (
          <fieldset
            key={lang}
            className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}
          >
            <legend className={css({ fontWeight: 'semibold', mb: 1 })}>
              {t(`admin.lang.${lang}`)}
            </legend>
            <label htmlFor={`${base}-${lang}-t`}>{t('admin.titleField')}</label>
            <input
              id={`${base}-${lang}-t`}
              className={input}
              maxLength={120}
              value={tutorial[lang].titulo}
              onChange={(e) =>
                onChange({ ...tutorial, [lang]: { ...tutorial[lang], titulo: e.target.value } })
              }
            />
            <label htmlFor={`${base}-${lang}-p`}>{t('admin.stepsField')}</label>
            <textarea
              id={`${base}-${lang}-p`}
              className={`${input} ${css({ minH: 28 })}`}
              value={tutorial[lang].pasos.join('\n')}
              onChange={(e) =>
                onChange({
                  ...tutorial,
                  [lang]: { ...tutorial[lang], pasos: e.target.value.split('\n') },
                })
              }
            />
          </fieldset>
        ))}
      </div>
      <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap' })}>
        <button
          type="button"
          className={button({ variant: 'ghost' })}
          disabled={first}
          onClick={() => onMove(-1)}
          aria-label={t('admin.up', { nombre: name })}
        >
          ↑
        </button>
        <button
          type="button"
          className={button({ variant: 'ghost' })}
          disabled={last}
          onClick={() => onMove(1)}
          aria-label={t('admin.down', { nombre: name })}
        >
          ↓
        </button>
        <button
          type="button"
          className={button({ variant: 'ghost' })}
          onClick={onRemove}
          aria-label={t('admin.remove', { nombre: name })}
        >
          {t('admin.removeShort')}
        </button>
      </div>
    </li>
  );
}
