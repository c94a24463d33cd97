import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The floor server (floor-server.ts) in its own process, on the same DynamoDB Local and items as the case. */
export async function startFloor(
  options: { endpoint: string; table: string; getKey: Record<string, string>; queryPk: string; item: Record<string, unknown> },
  /** Extra Node flags, e.g. `--cpu-prof` (the profile is written when the floor is stopped). */
  nodeFlags: string[] = [],
) {
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', new URL('./floor-server.ts', import.meta.url).pathname, JSON.stringify(options)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^listening (\d+)/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`floor server exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill() };
}
