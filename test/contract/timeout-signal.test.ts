import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { timeoutSignal } from '../../src/contract/timeout-signal.js';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function collectWhileWaiting(ms: number): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += 20) {
    gc();
    await sleep(20);
  }
}

describe('timeoutSignal', () => {
  it('aborts on time even when the collector runs before the timer fires', async () => {
    const parent = new AbortController();
    const { signal } = timeoutSignal(100, { follow: [parent.signal] });
    await collectWhileWaiting(400);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('aborts with the reason of a signal it follows, before its time', () => {
    const parent = new AbortController();
    const { signal, dispose } = timeoutSignal(60_000, { follow: [parent.signal] });
    parent.abort(new Error('cancelled by the caller'));
    expect((signal.reason as Error).message).toBe('cancelled by the caller');
    dispose();
  });

  it('stays quiet once disposed', async () => {
    const { signal, dispose } = timeoutSignal(30);
    dispose();
    await sleep(80);
    expect(signal.aborted).toBe(false);
  });
});
