/**
 * A development's gallery: each item's media read through `wsObtenerMedias`, thumbnails that
 * open the lightbox (←/→ to move, Escape to close).
 */

import { useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { MediaItem } from '../../../../core/types';
import { mediaQuery, mediaUrl } from '../../../lib/catalogue';
import { Lightbox } from './lightbox';

export function Gallery({
  items,
  title,
  video = false,
}: {
  items: readonly MediaItem[];
  title: string;
  video?: boolean;
}) {
  const { t } = useTranslation('inventory');
  const [open, setOpen] = useState<number | null>(null);
  const media = useQueries({ queries: items.map((i) => mediaQuery(i.imagenRef.idMedia)) });
  const entries = items.map((item, i) => ({
    src: media[i]?.data?.url ?? mediaUrl(item.imagenRef.idMedia) ?? '',
    title: item.titulo,
  }));
  if (video && items.some((i) => i.videoRef))
    return <VideoGallery items={items} title={title} posters={entries.map((e) => e.src)} />;
  return (
    <section aria-label={title}>
      {items.length === 0 ? (
        <p className={css({ color: 'muted' })}>{t('gallery.empty')}</p>
      ) : (
        <ul
          className={css({
            display: 'grid',
            gap: 3,
            gridTemplateColumns: 'repeat(auto-fill, minmax(16rem, 1fr))',
          })}
        >
          {entries.map((entry, i) => (
            <li key={`${entry.src}-${i}`}>
              <button
                type="button"
                onClick={() => setOpen(i)}
                aria-label={t(video ? 'gallery.openVideo' : 'gallery.open', { title: entry.title })}
                className={css({
                  position: 'relative',
                  display: 'block',
                  w: '100%',
                  borderRadius: 'lg',
                  overflow: 'hidden',
                  cursor: 'zoom-in',
                  border: '1px solid token(colors.border)',
                  _focusVisible: {
                    outline: '3px solid',
                    outlineColor: 'primary',
                    outlineOffset: '2px',
                  },
                  '& img': { transition: 'transform 200ms ease' },
                  _hover: { '& img': { transform: 'scale(1.03)' } },
                })}
              >
                <img
                  src={entry.src}
                  alt=""
                  loading="lazy"
                  className={css({ w: '100%', aspectRatio: '4 / 3', objectFit: 'cover' })}
                />
                {video ? (
                  <span
                    aria-hidden="true"
                    className={css({
                      position: 'absolute',
                      inset: 0,
                      display: 'grid',
                      placeItems: 'center',
                      fontSize: '4xl',
                      color: 'white',
                      textShadow: '0 2px 8px rgba(0,0,0,0.6)',
                    })}
                  >
                    ▶
                  </span>
                ) : null}
                <span
                  className={css({
                    position: 'absolute',
                    left: 0,
                    right: 0,
                    bottom: 0,
                    px: 3,
                    py: 2,
                    bg: 'rgba(8,16,28,0.6)',
                    color: 'white',
                    fontSize: 'sm',
                    textAlign: 'left',
                  })}
                >
                  {entry.title}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {open !== null ? (
        <Lightbox items={entries} index={open} onIndex={setOpen} onClose={() => setOpen(null)} />
      ) : null}
    </section>
  );
}

/**
 * The video gallery (issue 20, item 10): each uploaded or seeded video plays in place in a
 * `<video controls>` with its poster, streamed from `/api/media/:id` with range requests (the
 * browser seeks and buffers by byte ranges). An item with no video (a still only) shows its image.
 */
function VideoGallery({
  items,
  title,
  posters,
}: {
  items: readonly MediaItem[];
  title: string;
  posters: readonly string[];
}) {
  const { t } = useTranslation('media');
  return (
    <section aria-label={title}>
      <ul
        className={css({
          display: 'grid',
          gap: 4,
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 22rem), 1fr))',
        })}
      >
        {items.map((item, i) => (
          <li key={`${item.videoRef?.idMedia ?? item.imagenRef.idMedia}-${i}`}>
            <figure
              className={css({
                m: 0,
                borderRadius: 'lg',
                overflow: 'hidden',
                border: '1px solid token(colors.border)',
                bg: 'surface',
              })}
            >
              {item.videoRef ? (
                <video
                  controls
                  preload="metadata"
                  playsInline
                  poster={
                    // An upload without a poster names the video itself: no poster then (the
                    // first frame shows once its metadata is in).
                    item.imagenRef.idMedia !== item.videoRef.idMedia ? posters[i] : undefined
                  }
                  src={mediaUrl(item.videoRef.idMedia)}
                  aria-label={t('video', { title: item.titulo })}
                  data-testid="gallery-video"
                  className={css({
                    display: 'block',
                    w: '100%',
                    aspectRatio: '16 / 9',
                    bg: 'black',
                  })}
                />
              ) : (
                <img
                  src={posters[i]}
                  alt=""
                  className={css({
                    display: 'block',
                    w: '100%',
                    aspectRatio: '16 / 9',
                    objectFit: 'cover',
                  })}
                />
              )}
              <figcaption className={css({ px: 3, py: 2, fontWeight: 'semibold' })}>
                {item.titulo}
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
