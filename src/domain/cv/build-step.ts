import type { ConsentLocale } from '../consent/consent-texts.ts';
import type { CheckShare, CvFileStore, CvInspector } from '../ports.ts';

/**
 * Builds the virtual CV from the checked text; off the event loop in the service (a worker thread
 * under a deadline, src/cv-builder/runner.ts). Rejects with an error named `CvBuildRefused` when
 * the text itself cannot be built within the deadline or memory.
 */
export type VirtualCvBuilder = (
  pages: { width: number; height: number; items: unknown[] }[],
  prior: { name?: string; email?: string; locale?: ConsentLocale },
) => unknown;

const isBuildRefused = (error: unknown) => (error as Error | null)?.name === 'CvBuildRefused';

/**
 * The first half of every CV-building task (an application's, a candidate's, a platform person's):
 * check the stored PDF again, then build the virtual CV from its text. Answers the document, or
 * `null` when the PDF counts as unreadable: the file is gone, the checker refuses it, or the build
 * was refused on the task's last attempt. A refused build on an earlier attempt throws, so the task
 * is retried like any failed task (the machine may have been busy); on the last one the PDF counts
 * as unreadable, so the CV leaves `processing` (spec: processing → failed) instead of staying there
 * for ever. Storing the document is the caller's, in its own area's transaction.
 */
export async function checkAndBuildCv(
  deps: { files: CvFileStore; inspector: CvInspector; build: VirtualCvBuilder },
  input: {
    blobKey: string | null;
    share: CheckShare;
    prior: Parameters<VirtualCvBuilder>[1];
    attempt: { last: boolean };
  },
): Promise<{ document: unknown } | null> {
  const { blobKey, share, prior, attempt } = input;
  if (!blobKey) return null;
  const verdict = await deps.files
    .withLocalFile(blobKey, (path) => deps.inspector.check(path, share))
    .catch((error: unknown) => {
      if ((error as Error).name === 'BlobNotFoundError') return null;
      throw error;
    });
  if (verdict === null || !verdict.ok) return null;
  try {
    return { document: await deps.build(verdict.text as never, prior) };
  } catch (error) {
    if (isBuildRefused(error) && attempt.last) return null;
    throw error;
  }
}
