import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { inputWait, waitFromWchan } from '../../../src/rungs/cli/input-wait.js';
import { fdTarget, peerSocket, processTree } from '../../../src/rungs/cli/processes.js';

/** Starts a real program with a socket on stdin, lets it settle, and hands its pid and stdin to `look`. */
async function watch(
  program: string,
  args: string[],
  look: (pid: number, stdin: string) => void,
): Promise<void> {
  const child = spawn(program, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    const pid = child.pid!;
    const stdin = fdTarget(pid, 0)!;
    await new Promise((resolve) => setTimeout(resolve, 600));
    look(pid, stdin);
  } finally {
    process.kill(-child.pid!, 'SIGKILL');
  }
}

describe('what /proc says about a process', () => {
  it('a blocking read of the wrapper input is "reading"; a sleep is "busy"', async () => {
    await watch('/usr/bin/python3', ['-c', 'input()'], (pid, stdin) =>
      expect(inputWait(pid, stdin)).toBe('reading'),
    );
    await watch('sleep', ['10'], (pid, stdin) => expect(inputWait(pid, stdin)).toBe('busy'));
  });

  it('select() on the wrapper input is "waiting", from the syscall and from the wait channel alone', async () => {
    const script = 'import select, sys; select.select([sys.stdin], [], [])';
    await watch('/usr/bin/python3', ['-c', script], (pid, stdin) => {
      expect(inputWait(pid, stdin)).toBe('waiting');
      expect(waitFromWchan(pid, stdin)).toBe('waiting');
    });
  });

  it('looking deeper, a select, poll or epoll set holding the input is "polling"; a timer wait is not', async () => {
    const select = 'import select, sys; select.select([sys.stdin], [], [])';
    const poll = 'import select, sys; p = select.poll(); p.register(sys.stdin, select.POLLIN); p.poll()';
    const epoll = 'import select, sys; e = select.epoll(); e.register(0, select.EPOLLIN); e.poll()';
    for (const script of [select, poll, epoll]) {
      await watch('/usr/bin/python3', ['-c', script], (pid, stdin) =>
        expect(inputWait(pid, stdin, true)).toBe('polling'),
      );
    }
    const timerOnly = 'import select, time; e = select.epoll(); e.poll(30)';
    await watch('/usr/bin/python3', ['-c', timerOnly], (pid, stdin) =>
      expect(inputWait(pid, stdin, true)).toBe('waiting'),
    );
    await watch(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)'], (pid, stdin) =>
      expect(inputWait(pid, stdin, true)).not.toBe('polling'),
    );
  });

  it('the process tree includes grandchildren', async () => {
    await watch('sh', ['-c', 'sleep 10 & sleep 10; wait'], (pid) => expect(processTree(pid).length).toBe(3));
  });

  it("finds the program's end of a stream from the wrapper's end, for programs that ended too fast to read", () => {
    const child = spawn('sleep', ['10'], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const ownFd = (child.stdout as unknown as { _handle: { fd: number } })._handle.fd;
      expect(peerSocket(ownFd)).toBe(fdTarget(child.pid!, 1));
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  });
});
