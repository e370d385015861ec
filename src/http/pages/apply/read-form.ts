import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { INTAKE_MAX } from '../../../contract/intake.ts';
import { type Form, formFrom, formOf } from '../form-body.ts';

export interface FormFile {
  path: string;
  bytes: number;
  name: string;
  truncated: boolean;
}

/**
 * Reads the form: multipart, streaming the CV to a temporary file under the size limit; its fields in
 * the shape every form is read in (form-body.ts).
 */
export async function readForm(
  request: FastifyRequest,
  dir: string,
): Promise<{ fields: Form; file: FormFile | null; answerFiles: Map<string, FormFile> }> {
  const answerFiles = new Map<string, FormFile>();
  // Posted without its file (the script sent it to its upload slot): a urlencoded form.
  if (!request.isMultipart()) return { fields: formOf(request), file: null, answerFiles };
  const fields = new URLSearchParams();
  let file: FormFile | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file' && /^qf_[a-z0-9_]{1,40}$/.test(part.fieldname) && part.filename !== '') {
      // A file question's answer (question-fields.ts): kept apart from the CV, under its question.
      const questionId = part.fieldname.slice(3);
      if (answerFiles.has(questionId)) {
        part.file.resume();
        continue;
      }
      const target = path.join(dir, `answer-${answerFiles.size}.pdf`);
      await pipeline(part.file, fs.createWriteStream(target, { mode: 0o600 }));
      const { size } = await fsp.stat(target);
      answerFiles.set(questionId, {
        path: target,
        bytes: size,
        name: part.filename.slice(0, INTAKE_MAX.fileName),
        truncated: part.file.truncated,
      });
    } else if (part.type === 'file') {
      if (part.fieldname !== 'cv' || file !== null || part.filename === '') {
        part.file.resume();
        continue;
      }
      const target = path.join(dir, 'cv.pdf');
      await pipeline(part.file, fs.createWriteStream(target, { mode: 0o600 }));
      const { size } = await fsp.stat(target);
      file = {
        path: target,
        bytes: size,
        name: part.filename.slice(0, INTAKE_MAX.fileName),
        truncated: part.file.truncated,
      };
    } else if (typeof part.value === 'string') {
      fields.append(part.fieldname, part.value);
    }
  }
  return { fields: formFrom(fields), file, answerFiles };
}
