// A Node program using the package by its published names: `scoresight` and `scoresight/node`
// resolve through package.json's "exports" to the built declarations.
import { createClient, EXPORT_FORMATS, openIndexedDbStore, recognizeScore, writeMusicXml, type ExportFormat, type WorkerHandle } from 'scoresight';
import { createFileStore, createOmrServer } from 'scoresight/node';

export async function exportAll(jobId: string): Promise<number> {
  const client = createClient({ store: await createFileStore('.data') });
  let bytes = 0;
  for (const format of EXPORT_FORMATS) bytes += (await client.exportJob(jobId, format)).data.length;
  const thumbnail: ExportFormat = 'thumbnail.png';
  bytes += (await client.exportJob(jobId, thumbnail)).data.length;
  // @ts-expect-error 'pdf' is not an export format
  await client.exportJob(jobId, 'pdf');
  // @ts-expect-error nor is an arbitrary string
  await client.exportJob(jobId, String(jobId));
  await client.close();
  return bytes;
}

export const handleEndpoint = (handle: WorkerHandle) => handle.endpoint.postMessage({ hello: 'worker' });
export const used = [recognizeScore, writeMusicXml, openIndexedDbStore, createOmrServer];
