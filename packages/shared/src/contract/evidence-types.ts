// No zod here: the file pickers import this list into pages that do not otherwise load zod.

/**
 * The evidence types an upload may be, by what its bytes are (the server sniffs them, apps/api/src/lib/sniff.ts)
 * and the extensions they carry. The web's file picker is narrowed to these; the server's check is the bytes.
 */
export const EVIDENCE_TYPES = [
  { contentType: 'image/jpeg', extensions: ['.jpg', '.jpeg'] },
  { contentType: 'image/png', extensions: ['.png'] },
  { contentType: 'image/gif', extensions: ['.gif'] },
  { contentType: 'image/webp', extensions: ['.webp'] },
  { contentType: 'application/pdf', extensions: ['.pdf'] },
  { contentType: 'audio/*', extensions: ['.mp3', '.m4a', '.wav', '.aac', '.amr'] },
  { contentType: 'video/mp4', extensions: ['.mp4'] },
  { contentType: 'video/quicktime', extensions: ['.mov'] },
  { contentType: 'video/3gpp', extensions: ['.3gp'] },
  { contentType: 'application/msword', extensions: ['.doc'] },
  {
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['.docx'],
  },
  { contentType: 'application/vnd.ms-excel', extensions: ['.xls'] },
  { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extensions: ['.xlsx'] },
  { contentType: 'application/vnd.ms-powerpoint', extensions: ['.ppt'] },
  {
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    extensions: ['.pptx'],
  },
  { contentType: 'application/x-hwp', extensions: ['.hwp'] },
  { contentType: 'application/hwp+zip', extensions: ['.hwpx'] },
  { contentType: 'text/plain', extensions: ['.txt'] },
] as const;

/** The `accept` attribute of an evidence file input. */
export const EVIDENCE_ACCEPT = EVIDENCE_TYPES.flatMap(({ contentType, extensions }) => [
  contentType,
  ...extensions,
]).join(',');
