import { after, test } from 'node:test';
import { closeDatabase, startApp, intakeAccount, uploadPdf, pdfFixture } from './harness.ts';
test('x', async () => {
  const lines: string[] = [];
  const ctx = await startApp({ logger: { level: 'error', stream: { write: (l: string) => lines.push(l) } } });
  const intake = await intakeAccount(ctx.app);
  for (let i = 0; i < 5; i++) {
    try { await uploadPdf(ctx, intake.api, pdfFixture('cv-2-pages.pdf')); console.log('ok', i); } catch (e) { console.log('ERR', i, String(e)); }
  }
  console.log(lines.join('\n').slice(0, 3000));
  await ctx.close();
});
after(closeDatabase);
