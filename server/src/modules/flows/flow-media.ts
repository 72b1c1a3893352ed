import type { EntityManager } from '@mikro-orm/postgresql';
import { FLOW_MEDIA_RULES, flowMediaKindOf, type FlowGraph, type FlowMediaKind } from '@atrium/shared';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { MediaStore } from '../../media/storage.js';
import { VOICE_NOTE_MIMETYPE, toVoiceNote } from '../../media/voice-note.js';
import { FlowMedia } from './flow.entity.js';

/**
 * Files for flows (spec 02 section 5 limits: image 2 MB png/jpg, audio 5 MB ogg/mp3/opus, video 20 MB mp4),
 * checked here whatever the dialog checked: the declared type must be one flows take, the bytes must look
 * like it, the size within the kind's limit. Each is stored under a random name and recorded, so a canvas
 * can only ever name files uploaded for flows of its own company. An audio file gets its voice-note form
 * once, here, rather than at every send.
 */
export interface UploadedFlowFile {
  data: Buffer;
  mimetype: string;
  filename: string;
}

const startsWith = (data: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);

/** Whether the bytes look like a file of that kind (magic numbers: a renamed .exe is not an image). */
export const looksLike = (kind: FlowMediaKind, data: Buffer): boolean => {
  switch (kind) {
    case 'img':
      return startsWith(data, [0x89, 0x50, 0x4e, 0x47]) || startsWith(data, [0xff, 0xd8, 0xff]);
    case 'audio':
      return (
        startsWith(data, [0x4f, 0x67, 0x67, 0x53]) || // OggS (ogg, opus)
        startsWith(data, [0x49, 0x44, 0x33]) || // ID3 (mp3)
        (data[0] === 0xff && (data[1] & 0xe0) === 0xe0) // an MPEG audio frame
      );
    case 'video':
      return data.length > 12 && data.toString('latin1', 4, 8) === 'ftyp';
  }
};

/** Which kinds an upload endpoint takes: /img images, /audio audio, /content any of the three. */
export type FlowUploadTarget = 'img' | 'audio' | 'content';

export const acceptedTypes = (target: FlowUploadTarget): string[] =>
  target === 'content' ? Object.values(FLOW_MEDIA_RULES).flatMap((r) => [...r.types]) : [...FLOW_MEDIA_RULES[target].types];

/** The largest file an endpoint may receive (the kind's own limit is checked per file after). */
export const uploadLimit = (target: FlowUploadTarget): number =>
  target === 'content' ? Math.max(...Object.values(FLOW_MEDIA_RULES).map((r) => r.maxBytes)) : FLOW_MEDIA_RULES[target].maxBytes;

/** Checks every file before any is stored: its kind, its size, its bytes. */
const checkAll = (target: FlowUploadTarget, files: UploadedFlowFile[]) =>
  files.map((file) => {
    const kind = flowMediaKindOf(file.mimetype);
    if (!kind || (target !== 'content' && kind !== target)) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { file: file.filename });
    if (file.data.length > FLOW_MEDIA_RULES[kind].maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { limitBytes: FLOW_MEDIA_RULES[kind].maxBytes, file: file.filename });
    if (!looksLike(kind, file.data)) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { file: file.filename, reason: 'the content is not of its type' });
    return { file, kind };
  });

/** Stores the files (and the voice-note form of audio); answers their stored names, in order. */
export const storeFlowMedia = async (em: EntityManager, media: MediaStore, target: FlowUploadTarget, files: UploadedFlowFile[]): Promise<string[]> => {
  if (files.length === 0) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'medias', message: 'required' }] });
  const companyId = requireTenant(em);
  const checked = checkAll(target, files);
  const written: string[] = [];
  try {
    const rows: FlowMedia[] = [];
    for (const { file, kind } of checked) {
      // Converted before anything is written: audio ffmpeg cannot read is refused (415).
      const voice = kind === 'audio' ? await toVoiceNote(file.data) : null;
      const stored = await media.save(companyId, file);
      written.push(stored.fileName);
      let voiceFileName: string | null = null;
      if (voice) {
        const voiceStored = await media.save(companyId, { data: voice, mimetype: VOICE_NOTE_MIMETYPE, filename: 'voice.ogg' });
        written.push(voiceStored.fileName);
        voiceFileName = voiceStored.fileName;
      }
      rows.push(
        em.create(FlowMedia, { fileName: stored.fileName, companyId, kind, mimetype: stored.mimetype, mediaName: stored.mediaName, size: stored.size, voiceFileName }),
      );
    }
    await em.flush();
    return rows.map((r) => r.fileName);
  } catch (err) {
    for (const name of written) await media.remove(companyId, name).catch(() => undefined);
    throw err;
  }
};

/** Every stored file a canvas names, with where (for a validation error). */
export const mediaReferences = (graph: FlowGraph): { name: string; kind: FlowMediaKind; path: string }[] =>
  graph.nodes.flatMap((node, i) => {
    switch (node.type) {
      case 'img':
      case 'audio':
      case 'video':
        return [{ name: node.data.url, kind: node.type, path: `nodes.${i}.data.url` }];
      case 'singleBlock':
        return node.data.elements.flatMap((e, k) =>
          e.type === 'img' || e.type === 'audio' || e.type === 'video' ? [{ name: e.value, kind: e.type, path: `nodes.${i}.data.elements.${k}.value` }] : [],
        );
      default:
        return [];
    }
  });

/** The files a canvas names must be flow uploads of this company, of the kind the node says. */
export const assertMediaKnown = async (em: EntityManager, graph: FlowGraph): Promise<void> => {
  const refs = mediaReferences(graph);
  if (refs.length === 0) return;
  const known = new Map(
    (await em.find(FlowMedia, { fileName: { $in: [...new Set(refs.map((r) => r.name))] } }, { fields: ['fileName', 'kind'] })).map((m) => [m.fileName, m.kind]),
  );
  const bad = refs.filter((r) => known.get(r.name) !== r.kind);
  if (bad.length > 0) throw new AppError('ERR_VALIDATION', { fields: bad.map((r) => ({ path: r.path, message: 'not a file uploaded for flows' })) });
};

/** Signed URLs of the files a canvas names (for its previews). */
export const mediaUrls = (media: MediaStore, companyId: number, graph: FlowGraph): Record<string, string> =>
  Object.fromEntries(
    mediaReferences(graph)
      .map((r) => [r.name, media.url(companyId, r.name)] as const)
      .filter((e): e is readonly [string, string] => e[1] !== null),
  );
