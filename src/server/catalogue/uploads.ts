/**
 * Media uploads (issue 20, item 9): an inventory administrator sends a gallery image, a document,
 * a video or a video's poster as the raw request body. The body is streamed to a file in the media
 * directory (never held whole in memory), counted against the kind's limit as it arrives and
 * typed from its first bytes (core/media.ts), whatever its name or declared content type. The
 * media is then recorded by events: `MediaUploaded` (the file) and, for a gallery item, a video or
 * a document, `DevelopmentMediaAdded` on the development.
 *
 * The route is the one API route the 1 MiB body cap does not cover (http/security.ts); the
 * limits here take its place.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  SNIFF_BYTES,
  UPLOAD_KINDS,
  UPLOAD_RULES,
  parseByteRange,
  sniffMediaType,
  type UploadKind,
} from '../../core/media';
import { administersInventory } from '../../core/permissions';
import { ApiError, errorResponse, forbidden, parse } from '../http/errors';
import { requireMember, type Ctx, type Env } from '../http/context';
import type { NewEvent } from '../store/event-store';
import { streams } from './events';
import { loadDevelopmentById } from './queries';

const id = z.string().min(1).max(64);
const uploadQuery = z.strictObject({
  tipo: z.enum(UPLOAD_KINDS as [UploadKind, ...UploadKind[]]),
  titulo: z.string().trim().min(1).max(120),
  /** A video's poster: an image uploaded before as `poster` or `imagen`. */
  poster: id.optional(),
});

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
};

const MIB = 1024 * 1024;

export interface ReceivedFile {
  contentType: string;
  bytes: number;
  sha256: string;
  archivo: string;
}

function tooLarge(kind: UploadKind) {
  return new ApiError(413, 'MEDIA_TOO_LARGE', 'media_too_large', {
    max: Math.round(UPLOAD_RULES[kind].maxBytes / MIB),
  });
}

function refusedType(kind: UploadKind) {
  return new ApiError(415, 'MEDIA_TYPE', 'media_type_refused', {
    allowed: UPLOAD_RULES[kind].types.join(', '),
  });
}

/**
 * Streams `body` into `dir/<mediaId>.<ext>`: the first bytes decide the type (415 when the kind
 * does not take it), the running count the size (413 past the kind's limit; the partial file is
 * removed). Returns what the `MediaUploaded` event records.
 */
export async function receiveUpload(
  body: ReadableStream<Uint8Array> | null,
  dir: string,
  mediaId: string,
  kind: UploadKind,
): Promise<ReceivedFile> {
  const rules = UPLOAD_RULES[kind];
  if (!body) throw new ApiError(400, 'MEDIA_EMPTY', 'media_empty');
  await mkdir(dir, { recursive: true });
  const partial = join(dir, `${mediaId}.part`);
  const reader = body.getReader();
  const hash = createHash('sha256');
  let out: ReturnType<typeof createWriteStream> | null = null;
  let head: Uint8Array = new Uint8Array(0);
  let contentType: string | null = null;
  let bytes = 0;
  const write = async (chunk: Uint8Array) => {
    if (!out) {
      out = createWriteStream(partial);
      await once(out, 'open');
    }
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  const decide = () => {
    const type = sniffMediaType(head);
    if (!type || !rules.types.includes(type)) throw refusedType(kind);
    contentType = type;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > rules.maxBytes) throw tooLarge(kind);
      if (contentType === null) {
        const joined = new Uint8Array(head.length + value.byteLength);
        joined.set(head);
        joined.set(value, head.length);
        head = joined;
        if (head.length < SNIFF_BYTES) continue;
        decide();
        await write(head);
        head = new Uint8Array(0);
      } else {
        await write(value);
      }
    }
    if (bytes === 0) throw new ApiError(400, 'MEDIA_EMPTY', 'media_empty');
    if (contentType === null) {
      decide();
      await write(head);
    }
    const stream = out as ReturnType<typeof createWriteStream> | null;
    if (stream) {
      stream.end();
      await once(stream, 'close');
    }
    const archivo = `${mediaId}.${EXTENSIONS[contentType!] ?? 'bin'}`;
    await rename(partial, join(dir, archivo));
    return { contentType: contentType!, bytes, sha256: hash.digest('hex'), archivo };
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    const stream = out as ReturnType<typeof createWriteStream> | null;
    if (stream) {
      stream.destroy();
      await once(stream, 'close').catch(() => undefined);
    }
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * The bytes of a stored media as a response: the whole of it (200) or, for a `Range` header,
 * the one range asked (206, `Content-Range`), or 416 when the range is not in the file. Uploaded
 * media is read from its file; the seed's media from the bytes its event kept.
 */
export async function mediaBody(
  c: Ctx,
  source: { file: string } | { buffer: Buffer },
  headers: Record<string, string>,
): Promise<Response> {
  const size = 'file' in source ? (await stat(source.file)).size : source.buffer.length;
  const range = parseByteRange(c.req.header('range'), size);
  const common = { ...headers, 'Accept-Ranges': 'bytes' };
  if (range === 'unsatisfiable') {
    const res = errorResponse(
      c,
      new ApiError(416, 'RANGE_NOT_SATISFIABLE', 'range_not_satisfiable'),
    );
    res.headers.set('Content-Range', `bytes */${size}`);
    res.headers.set('Accept-Ranges', 'bytes');
    return res;
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : end - start + 1;
  const body =
    'file' in source
      ? size === 0
        ? new Uint8Array(0)
        : (Readable.toWeb(createReadStream(source.file, { start, end })) as ReadableStream)
      : new Uint8Array(source.buffer.subarray(start, end + 1));
  return c.body(body as never, range ? 206 : 200, {
    ...common,
    'Content-Length': String(length),
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
}

/** The media directory's file of an uploaded media (a bare name: no path can be smuggled in). */
export function mediaFile(dir: string, archivo: string): string {
  if (!/^[\w.-]+$/.test(archivo) || archivo.startsWith('.')) throw new Error('bad media file name');
  return join(dir, archivo);
}

export const uploadRoutes = new Hono<Env>()
  /**
   * `POST /api/corporativos/:c/desarrollos/:d/medios?tipo&titulo[&poster]` with the file as the
   * body → 201 `{ idMedia, tipo, contentType, bytes, url, item }`. Inventory administrators only.
   */
  .post('/corporativos/:c/desarrollos/:d/medios', async (c) => {
    const membership = await requireMember(c, { id: parse(id, c.req.param('c')) });
    if (!administersInventory(membership.role)) throw forbidden();
    const { corporate, user } = membership;
    const deps = c.get('deps');
    const q = parse(uploadQuery, c.req.query());
    const development = await loadDevelopmentById(
      deps.db,
      corporate.id,
      parse(id, c.req.param('d')),
    );
    if (!development) throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    let posterId: string | undefined;
    if (q.poster !== undefined) {
      if (q.tipo !== 'video') throw new ApiError(400, 'VALIDATION', 'validation');
      const { rows } = await deps.db.query<{ content_type: string }>(
        'SELECT content_type FROM rm_media WHERE id = $1 AND corporate_id = $2',
        [q.poster, corporate.id],
      );
      if (!rows[0] || !rows[0].content_type.startsWith('image/'))
        throw new ApiError(404, 'POSTER_NOT_FOUND', 'poster_not_found');
      posterId = q.poster;
    }
    const declared = Number(c.req.header('content-length') ?? 'NaN');
    if (Number.isFinite(declared) && declared > UPLOAD_RULES[q.tipo].maxBytes)
      throw tooLarge(q.tipo);
    const mediaId = `media-${deps.newId()}`;
    const dir = deps.mediaDir;
    if (!dir) throw new ApiError(503, 'MEDIA_UNAVAILABLE', 'generic');
    const file = await receiveUpload(c.req.raw.body, dir, mediaId, q.tipo);
    const now = deps.clock();
    const event = <K extends string, D>(type: K, data: D): NewEvent => ({
      id: deps.newId(),
      type,
      data,
      corporateId: corporate.id,
      actorId: user.id,
      occurredAt: now,
    });
    const listed = q.tipo === 'poster' ? null : q.tipo;
    const idDocumento = listed === 'documento' ? `doc-${deps.newId()}` : undefined;
    try {
      await deps.store.appendMany([
        {
          streamId: streams.media(corporate.id, mediaId),
          expectedVersion: 0,
          events: [
            event('MediaUploaded', {
              id: mediaId,
              contentType: file.contentType,
              nombre: q.titulo,
              tipo: q.tipo,
              bytes: file.bytes,
              sha256: file.sha256,
              archivo: file.archivo,
            }),
          ],
        },
        ...(listed
          ? [
              {
                streamId: streams.development(corporate.id, development.id),
                expectedVersion: 'any' as const,
                events: [
                  event('DevelopmentMediaAdded', {
                    idDesarrollo: development.id,
                    tipo: listed,
                    titulo: q.titulo,
                    idMedia: mediaId,
                    ...(posterId ? { idPoster: posterId } : {}),
                    ...(idDocumento ? { idDocumento } : {}),
                  }),
                ],
              },
            ]
          : []),
      ]);
    } catch (error) {
      await rm(join(dir, file.archivo), { force: true });
      throw error;
    }
    const item =
      listed === 'documento'
        ? { id: idDocumento, titulo: q.titulo, idMedia: mediaId }
        : listed === 'video'
          ? {
              titulo: q.titulo,
              imagenRef: { idMedia: posterId ?? mediaId },
              videoRef: { idMedia: mediaId },
            }
          : listed === 'imagen'
            ? { titulo: q.titulo, imagenRef: { idMedia: mediaId } }
            : null;
    return c.json(
      {
        idMedia: mediaId,
        tipo: q.tipo,
        contentType: file.contentType,
        bytes: file.bytes,
        url: `/api/media/${mediaId}`,
        item,
      },
      201,
    );
  });
