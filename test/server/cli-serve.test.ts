/** `scoresight serve`: starts from a tokens file, answers the remote client, stops gracefully. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createRemoteClient } from '../../src/remote/remote-client.js';
import { runCli } from '../support/cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'scoresight-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scoresight serve', () => {
  it('serves the tokens file’s accounts, keeps jobs under --store, and stops on shutdown', async () => {
    const tokens = join(dir, 'tokens.json');
    writeFileSync(tokens, JSON.stringify([{ token: 'cli-secret-1', account: 'alice', scopes: ['omr', 'scores', 'tasks.readonly'], kind: 'personal' }]));
    let stdout = '';
    let stderr = '';
    const shutdown = new AbortController();
    const running = main(['serve', '--port', '0', '--tokens', tokens, '--store', join(dir, 'store')], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      shutdown: shutdown.signal,
    });
    while (!stdout.includes('listening on')) {
      if (stderr) throw new Error(stderr);
      await new Promise((r) => setTimeout(r, 10));
    }
    const url = /listening on (\S+)/.exec(stdout)![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    expect(stdout).toContain(`jobs kept in ${join(dir, 'store')}`);
    const client = createRemoteClient({ baseUrl: url, token: 'cli-secret-1' });
    expect((await client.getCapabilities()).locales).toHaveLength(65);
    const draft = await client.createJob({ output: 'musicxml' });
    expect((await client.listJobs()).jobs.map((j) => j.id)).toEqual([draft.id]);
    shutdown.abort();
    expect(await running).toBe(0);
    expect(stdout).toContain('Stopped.');
    await expect(client.getJob(draft.id)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('--public-url is the origin of the links it hands out; a bad one exits 1 with the reason', async () => {
    const tokens = join(dir, 'tokens-public.json');
    writeFileSync(tokens, JSON.stringify([{ token: 'cli-secret-2', account: 'alice', scopes: ['omr'] }]));
    let stdout = '';
    const shutdown = new AbortController();
    const running = main(['serve', '--port', '0', '--tokens', tokens, '--public-url', 'https://omr.example.org/v2'], { stdout: (t) => (stdout += t), stderr: () => {}, shutdown: shutdown.signal });
    while (!stdout.includes('listening on')) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (\S+)/.exec(stdout)![1]!;
    const client = createRemoteClient({ baseUrl: url, token: 'cli-secret-2' });
    await client.createJob({ output: 'musicxml' });
    await client.createJob({ output: 'musicxml' });
    const page = await fetch(`${url}/omr/jobs?limit=1`, { headers: { authorization: 'Bearer cli-secret-2' } });
    expect(page.headers.get('link')).toMatch(/^<https:\/\/omr\.example\.org\/v2\/omr\/jobs\?limit=1&cursor=c\d+>; rel="next"$/);
    shutdown.abort();
    expect(await running).toBe(0);
    const bad = await runCli('serve', '--port', '0', '--tokens', tokens, '--public-url', 'omr.example.org');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/error INVALID_ARGUMENT: publicUrl "omr\.example\.org" is not an absolute URL/);
  });

  it('--credits gives each account its balance, kept in --store across a restart', async () => {
    const tokens = join(dir, 'tokens-credits.json');
    writeFileSync(tokens, JSON.stringify([{ token: 'cli-secret-3', account: 'alice', scopes: ['omr'] }, { token: 'cli-secret-4', account: 'bob', scopes: ['omr'] }]));
    const store = join(dir, 'credits-store');
    const serveOnce = async (credits: string, check: (url: string) => Promise<void>) => {
      let stdout = '';
      const shutdown = new AbortController();
      const running = main(['serve', '--port', '0', '--tokens', tokens, '--store', store, '--credits', credits], { stdout: (t) => (stdout += t), stderr: () => {}, shutdown: shutdown.signal });
      while (!stdout.includes('listening on')) await new Promise((r) => setTimeout(r, 10));
      await check(/listening on (\S+)/.exec(stdout)![1]!);
      shutdown.abort();
      expect(await running).toBe(0);
    };
    const remaining = async (url: string, token: string) => (await createRemoteClient({ baseUrl: url, token }).getCapabilities()).remainingCredits;
    await serveOnce('7', async (url) => {
      expect([await remaining(url, 'cli-secret-3'), await remaining(url, 'cli-secret-4')]).toEqual([7, 7]);
    });
    // The balance is the store's from now on: a different grant on a later start does not reset it.
    await serveOnce('50', async (url) => expect(await remaining(url, 'cli-secret-3')).toBe(7));
    const bad = await runCli('serve', '--port', '0', '--tokens', tokens, '--credits', 'plenty');
    expect([bad.code, bad.stderr]).toEqual([2, '--credits takes a whole number of credits (pages), not "plenty".\n']);
    expect((await runCli('--help')).stdout).toContain('[--credits <n>]');
  });

  it('exits 1 with the reason when the tokens file is missing or wrong, 2 for a bad port', async () => {
    const missing = await runCli('serve', '--port', '0', '--tokens', join(dir, 'nope.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error INVALID_ARGUMENT: The tokens file .*nope\.json does not exist/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ token: 'x', account: 'a', scopes: [] }]));
    expect((await runCli('serve', '--port', '0', '--tokens', bad)).stderr).toMatch(/entry 0: token/);
    expect((await runCli('serve', '--port', 'http')).code).toBe(2);
    const timeout = await runCli('serve', '--port', '0', '--page-timeout', '0');
    expect([timeout.code, timeout.stderr]).toEqual([2, '--page-timeout takes a number of seconds above 0, not "0".\n']);
    const budget = await runCli('serve', '--port', '0', '--memory-budget', '1.5G');
    expect([budget.code, budget.stderr]).toEqual([2, '--memory-budget takes a whole number of MiB above 0, not "1.5G".\n']);
    expect((await runCli('serve', 'extra.pdf')).code).toBe(2);
    expect((await runCli('--help')).stdout).toContain('scoresight serve [--port 8080]');
    expect((await runCli('--help')).stdout).toContain('[--page-timeout 120] [--memory-budget <MiB>]');
  });
});
