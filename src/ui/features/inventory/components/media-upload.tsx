/**
 * The administrator's upload control on a development's gallery, video gallery and documents
 * pages (issue 20, item 9): a title, the file (and a video's optional poster), the upload's
 * progress, and what went wrong in the interface language. Shown only to inventory
 * administrators (the server refuses everyone else with 403 all the same). On success the
 * development is read again, so the new item appears in its list.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { UPLOAD_RULES } from '../../../../core/media';
import { button, card } from '../../../components/styles';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { ApiRequestError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { uploadMedia } from '../api/media-upload';

type Kind = 'imagen' | 'video' | 'documento';

const ACCEPT: Record<Kind | 'poster', string> = {
  imagen: 'image/jpeg,image/png,image/webp',
  poster: 'image/jpeg,image/png,image/webp',
  video: 'video/mp4,video/webm',
  documento: 'application/pdf',
};

const fileInput = css({
  w: '100%',
  minW: 0,
  fontSize: 'sm',
  minH: 11,
  '&::file-selector-button': {
    mr: 3,
    minH: 10,
    px: 3,
    borderRadius: 'md',
    border: '1px solid token(colors.border)',
    bg: 'surface',
    color: 'text',
    fontWeight: 'semibold',
    cursor: 'pointer',
  },
});

const MIB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;

type State =
  | { phase: 'idle' }
  | { phase: 'uploading'; percent: number }
  | { phase: 'done'; title: string }
  | { phase: 'failed'; message: string };

const input = css({
  w: '100%',
  minH: 11,
  px: 3,
  borderRadius: 'md',
  border: '1px solid token(colors.border)',
  bg: 'surface',
  color: 'text',
  fontSize: 'sm',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '1px' },
});

export function MediaUpload({ tipo }: { tipo: Kind }) {
  const { t, i18n } = useTranslation('media');
  const { corporate, development, canAdminister } = useDevelopmentContext();
  const queryClient = useQueryClient();
  const ids = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const posterRef = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [titulo, setTitulo] = useState('');
  const [state, setState] = useState<State>({ phase: 'idle' });
  if (!canAdminister) return null;
  const max = UPLOAD_RULES[tipo].maxBytes;

  const tooLarge = (file: File, limit: number) =>
    file.size > limit ? t('upload.errors.tooLarge', { size: mb(file.size), max: mb(limit) }) : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    const poster = posterRef.current?.files?.[0];
    const title = titulo.trim();
    const problem = !title
      ? t('upload.errors.noTitle')
      : !file
        ? t('upload.errors.noFile')
        : (tooLarge(file, max) ?? (poster ? tooLarge(poster, UPLOAD_RULES.poster.maxBytes) : null));
    if (problem || !file) {
      setState({ phase: 'failed', message: problem ?? t('upload.errors.noFile') });
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setState({ phase: 'uploading', percent: 0 });
    try {
      const base = {
        idCorporativo: corporate.id,
        idDesarrollo: development.id,
        signal: controller.signal,
      };
      let posterId: string | undefined;
      // A poster is the first small part of a video's upload.
      const posterShare = poster ? poster.size / (poster.size + file.size) : 0;
      if (poster) {
        posterId = (
          await uploadMedia({
            ...base,
            tipo: 'poster',
            titulo: title,
            file: poster,
            onProgress: (f) =>
              setState({ phase: 'uploading', percent: Math.round(f * posterShare * 100) }),
          })
        ).idMedia;
      }
      await uploadMedia({
        ...base,
        tipo,
        titulo: title,
        ...(posterId ? { poster: posterId } : {}),
        file,
        onProgress: (f) =>
          setState({
            phase: 'uploading',
            percent: Math.round((posterShare + f * (1 - posterShare)) * 100),
          }),
      });
      await queryClient.invalidateQueries({ queryKey: ['api', 'wsObtenerDesarrollo'] });
      setState({ phase: 'done', title });
      setTitulo('');
      if (fileRef.current) fileRef.current.value = '';
      if (posterRef.current) posterRef.current.value = '';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') {
        setState({ phase: 'idle' });
        return;
      }
      const message =
        error instanceof ApiRequestError && error.status === 0
          ? t('upload.errors.network')
          : error instanceof ApiRequestError && error.message
            ? error.message
            : errorMessage(error, i18n) || t('upload.errors.failed');
      setState({ phase: 'failed', message });
    } finally {
      abort.current = null;
    }
  };

  const uploading = state.phase === 'uploading';
  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-labelledby={`${ids}-title`}
      data-testid={`media-upload-${tipo}`}
      className={`${card()} ${css({ p: 4, mb: 4, display: 'grid', gap: 3 })}`}
    >
      <div>
        <h3 id={`${ids}-title`} className={css({ fontWeight: 'bold', fontSize: 'md' })}>
          {t(`upload.title.${tipo}`)}
        </h3>
        <p className={css({ fontSize: 'sm', color: 'muted' })}>
          {t(`upload.hint.${tipo}`, { max: mb(max) })}
        </p>
      </div>
      <div
        className={css({
          display: 'grid',
          gap: 3,
          gridTemplateColumns: {
            base: 'minmax(0, 1fr)',
            md: tipo === 'video' ? 'repeat(3, minmax(0, 1fr))' : 'repeat(2, minmax(0, 1fr))',
          },
        })}
      >
        <label className={css({ display: 'grid', gap: 1, fontSize: 'sm', fontWeight: 'medium' })}>
          {t('upload.name')}
          <input
            className={input}
            value={titulo}
            maxLength={120}
            onChange={(e) => setTitulo(e.target.value)}
            disabled={uploading}
          />
        </label>
        <label className={css({ display: 'grid', gap: 1, fontSize: 'sm', fontWeight: 'medium' })}>
          {t('upload.file')}
          <input
            ref={fileRef}
            type="file"
            accept={ACCEPT[tipo]}
            className={fileInput}
            disabled={uploading}
          />
        </label>
        {tipo === 'video' ? (
          <label className={css({ display: 'grid', gap: 1, fontSize: 'sm', fontWeight: 'medium' })}>
            {t('upload.poster')}
            <input
              ref={posterRef}
              type="file"
              accept={ACCEPT.poster}
              className={fileInput}
              disabled={uploading}
            />
          </label>
        ) : null}
      </div>
      <div className={css({ display: 'flex', gap: 3, alignItems: 'center', flexWrap: 'wrap' })}>
        <button type="submit" className={button()} disabled={uploading}>
          {t('upload.submit')}
        </button>
        {uploading ? (
          <>
            <progress
              max={100}
              value={state.percent}
              aria-label={t('upload.progress', { percent: state.percent })}
              className={css({ flex: '1 1 8rem', h: 2 })}
            />
            <span className={css({ fontSize: 'sm' })} aria-live="polite">
              {t('upload.progress', { percent: state.percent })}
            </span>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() => abort.current?.abort()}
            >
              {t('upload.cancel')}
            </button>
          </>
        ) : null}
      </div>
      <div aria-live="polite">
        {state.phase === 'done' ? (
          <p role="status" className={css({ color: 'success', fontSize: 'sm' })}>
            {t('upload.done', { title: state.title })}
          </p>
        ) : null}
        {state.phase === 'failed' ? (
          <p role="alert" className={css({ color: 'danger', fontSize: 'sm' })}>
            {state.message}
          </p>
        ) : null}
      </div>
    </form>
  );
}
