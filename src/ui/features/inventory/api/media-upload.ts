/**
 * Sends a file to the media upload route (issue 20, item 9: `POST …/desarrollos/:d/medios`) as
 * the raw request body, reporting upload progress (XMLHttpRequest: fetch has no upload progress).
 * An error answer rejects with the same {@link ApiRequestError} as `api()`, its message already
 * in the interface language (the server translates with Accept-Language).
 */
import i18n from 'i18next';
import type { MediaItem } from '../../../../core/types';
import { ApiRequestError, apiUrl } from '../../../lib/api';

export interface UploadedMedia {
  idMedia: string;
  tipo: string;
  contentType: string;
  bytes: number;
  url: string;
  item: MediaItem | { id: string; titulo: string; idMedia: string } | null;
}

export interface UploadRequest {
  idCorporativo: string;
  idDesarrollo: string;
  tipo: 'imagen' | 'video' | 'documento' | 'poster';
  titulo: string;
  poster?: string;
  file: Blob;
  /** 0..1 as the bytes leave. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export function uploadMedia(req: UploadRequest): Promise<UploadedMedia> {
  const url = apiUrl(
    `/api/corporativos/${encodeURIComponent(req.idCorporativo)}/desarrollos/${encodeURIComponent(req.idDesarrollo)}/medios`,
    { tipo: req.tipo, titulo: req.titulo, poster: req.poster },
  );
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', i18n.language || 'es');
    // The server types the file from its bytes; this only keeps the request a non-form one.
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) req.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : null;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as UploadedMedia);
      const first = (Array.isArray(body) ? body[0] : body) as {
        errorCode?: string;
        message?: string;
      } | null;
      reject(
        new ApiRequestError(
          xhr.status,
          first?.errorCode ?? null,
          typeof first?.message === 'string' ? first.message : '',
          body,
        ),
      );
    };
    xhr.onerror = () => reject(new ApiRequestError(0, 'NETWORK', '', null));
    xhr.onabort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    req.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(req.file);
  });
}
