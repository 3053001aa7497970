import { CreateScheduleGroupCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { spawn, spawnSync } from 'node:child_process';
import { freePort } from '../../infra/sandbox/free-port.ts';

/** moto's server with EventBridge Scheduler: the real adapter's calls against a real API, without AWS. */
export interface MotoScheduler {
  client: SchedulerClient;
  /** A new schedule group, so tests never see each other's schedules. */
  newGroup(): Promise<string>;
  stop(): void;
}

/** Starts `moto_server` on a free port and waits, patiently (a loaded CI machine), until it answers. */
export async function startMotoScheduler(): Promise<MotoScheduler> {
  if (spawnSync('moto_server', ['--help'], { stdio: 'ignore' }).status !== 0) {
    throw new Error("These tests need moto's server (moto 5.2.1): pip install 'moto[server]==5.2.1'.");
  }
  const port = await freePort();
  const server = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 90_000; !(await fetch(`${endpoint}/moto-api/`).then((r) => r.ok, () => false)); ) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`moto_server did not answer on ${endpoint}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const client = new SchedulerClient({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
  let groups = 0;
  return {
    client,
    async newGroup() {
      const name = `expiry-${(groups += 1)}`;
      await client.send(new CreateScheduleGroupCommand({ Name: name }));
      return name;
    },
    stop: () => {
      client.destroy();
      server.kill();
    },
  };
}
