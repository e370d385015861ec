import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../src/config.ts';
import { createRuntime, createRuntimeApp } from '../src/runtime.ts';

/** The OpenAPI document as the service serves it at /v1/openapi.json, built on a throwaway data dir. */
export async function exportOpenApi(publicBaseUrl = 'https://careers.acme.test'): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-export-'));
  const config = parseConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: publicBaseUrl });
  const runtime = await createRuntime(config);
  try {
    const app = await createRuntimeApp(runtime);
    const document = app.swagger();
    await app.close();
    return document;
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
