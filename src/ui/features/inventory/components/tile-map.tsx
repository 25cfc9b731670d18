/**
 * A small slippy map without a library: the tiles around a point from a configurable tile
 * server (`VITE_TILE_URL` at build time, or `localStorage['vitrina:mapa:tiles']`; default
 * OpenStreetMap's `{z}/{x}/{y}` template) and a marker on the exact point. When the tiles
 * cannot load (no network, blocked server) a drawn placeholder stays, so the page keeps its
 * address, coordinates and link.
 */

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE = 256;

export function tileUrlTemplate(): string {
  try {
    const stored = localStorage.getItem('vitrina:mapa:tiles');
    if (stored && /^https?:\/\/.+\{z\}.+\{x\}.+\{y\}/.test(stored)) return stored;
  } catch {
    // No storage: the build setting or the default.
  }
  const env = (import.meta.env as Record<string, string | undefined>).VITE_TILE_URL;
  return env && env.includes('{z}') ? env : DEFAULT_TILE_URL;
}

/** Web-Mercator tile coordinates (fractional) of a point at a zoom level. */
export function tilePosition(lat: number, lng: number, zoom: number): { x: number; y: number } {
  const n = 2 ** zoom;
  const rad = (lat * Math.PI) / 180;
  return {
    x: ((lng + 180) / 360) * n,
    y: ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n,
  };
}

export function TileMap({
  lat,
  lng,
  label,
  zoom = 16,
}: {
  lat: number;
  lng: number;
  label: string;
  zoom?: number;
}) {
  const { t } = useTranslation('inventory');
  const [failed, setFailed] = useState(0);
  const [loaded, setLoaded] = useState(0);
  const template = tileUrlTemplate();
  const pos = tilePosition(lat, lng, zoom);
  const cx = Math.floor(pos.x);
  const cy = Math.floor(pos.y);
  const tiles: { x: number; y: number; left: number; top: number }[] = [];
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -2; dx <= 2; dx++) {
      tiles.push({ x: cx + dx, y: cy + dy, left: (dx + 2) * TILE, top: (dy + 1) * TILE });
    }
  }
  // The layer is 5×3 tiles; shift it so the point sits in the middle of the frame.
  const offsetX = -((pos.x - cx + 2) * TILE);
  const offsetY = -((pos.y - cy + 1) * TILE);
  const allFailed = failed >= tiles.length;
  return (
    <figure
      role="img"
      aria-label={t('location.mapLabel', { label })}
      data-tiles={allFailed ? 'failed' : loaded > 0 ? 'loaded' : 'loading'}
      className={css({
        position: 'relative',
        h: '22rem',
        overflow: 'hidden',
        borderRadius: 'xl',
        border: '1px solid token(colors.border)',
        // The drawn placeholder: a quiet street grid, visible until (or unless) tiles arrive.
        bg: '#e8eef3',
        backgroundImage:
          'linear-gradient(rgba(255,255,255,0.9) 2px, transparent 2px), linear-gradient(90deg, rgba(255,255,255,0.9) 2px, transparent 2px), linear-gradient(rgba(255,255,255,0.5) 1px, transparent 1px), linear-gradient(90deg, rgba(255,255,255,0.5) 1px, transparent 1px)',
        backgroundSize: '96px 96px, 96px 96px, 24px 24px, 24px 24px',
        backgroundPosition: 'center center',
      })}
    >
      <div
        aria-hidden="true"
        className={css({ position: 'absolute', left: '50%', top: '50%' })}
        style={{ transform: `translate(${offsetX}px, ${offsetY}px)` }}
      >
        {tiles.map((tile) => (
          <img
            key={`${tile.x}-${tile.y}`}
            src={template
              .replace('{z}', String(zoom))
              .replace('{x}', String(tile.x))
              .replace('{y}', String(tile.y))}
            alt=""
            width={TILE}
            height={TILE}
            loading="lazy"
            referrerPolicy="no-referrer"
            className={css({
              position: 'absolute',
              maxW: 'none',
              '&[data-failed="true"]': { visibility: 'hidden' },
            })}
            style={{ left: tile.left, top: tile.top }}
            onLoad={() => setLoaded((n) => n + 1)}
            onError={(e) => {
              e.currentTarget.dataset.failed = 'true';
              setFailed((n) => n + 1);
            }}
          />
        ))}
      </div>
      <div
        aria-hidden="true"
        className={css({
          position: 'absolute',
          left: '50%',
          top: '50%',
          w: 9,
          h: 9,
          transform: 'translate(-50%, -100%)',
          color: 'primary',
          filter: 'drop-shadow(0 3px 4px rgba(0,0,0,0.35))',
        })}
      >
        <svg viewBox="0 0 24 24" fill="currentColor" width="100%" height="100%">
          <path d="M12 2a7 7 0 0 0-7 7c0 5.25 7 13 7 13s7-7.75 7-13a7 7 0 0 0-7-7Zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5Z" />
        </svg>
      </div>
      {allFailed ? (
        <figcaption
          className={css({
            position: 'absolute',
            left: 3,
            bottom: 3,
            right: 3,
            bg: 'rgba(255,255,255,0.92)',
            borderRadius: 'lg',
            px: 3,
            py: 2,
            fontSize: 'sm',
            color: 'muted',
          })}
        >
          {t('location.tilesUnavailable')}
        </figcaption>
      ) : null}
    </figure>
  );
}
